"""The Verus backend of the proof tasks: ``verus --no-cheating FILE`` in the sandbox, one file per sample.

``verus_verifier(path, timeout)`` returns ``verify(program) -> (passed, message)``:
``(True, "")`` when Verus exits 0, ``(False, first error lines)`` when it reports
errors, ``(None, why)`` when it could not decide (timed out, could not start).
The program is written into the sandbox's private directory; Verus runs as
veriscale's own uid (it is a trusted tool that needs its own files), under the
wall-clock ``timeout``. Without a path, proof samples are NOT_EVALUATED
(``scoring``); never passed.
"""

from __future__ import annotations

from collections.abc import Callable

from ...sandbox.limits import SandboxLimits
from ...sandbox.process import Sandbox

__all__ = ["verus_verifier"]


def verus_verifier(path: str, timeout: float = 120.0) -> Callable[[str], tuple[bool | None, str]]:
    def verify(program: str) -> tuple[bool | None, str]:
        limits = SandboxLimits(wall_seconds=timeout, memory_bytes=None, file_bytes=None, open_files=1024)
        with Sandbox(limits, keep_uid=True) as sb:
            f = sb.put("answer.rs", program)
            res = sb.run([path, "--no-cheating", str(f)])
        if res.setup_error:
            return None, f"Verus could not start: {res.setup_error}"
        if res.timed_out:
            return None, f"Verus timed out after {timeout:g} s"
        if res.returncode == 0:
            return True, ""
        text = (res.stderr or res.stdout).decode("utf-8", errors="replace").strip().splitlines()
        return False, "; ".join(text[:3]) or res.describe()

    return verify
