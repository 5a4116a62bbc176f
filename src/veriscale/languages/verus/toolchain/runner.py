"""Running ``verus`` in the sandbox (a ``batch.VerusRun``).

``VerusRunner(path)`` writes the crate's files into a fresh sandbox (private
directory, read-only filesystem elsewhere, no network, the whole process tree
— Verus and its z3 — killed on timeout) and runs
``verus --no-cheating [extra args] ROOT`` there, as veriscale's own uid:
Verus is a trusted tool that reads its own installation (vstd, z3, the Rust
toolchain). The sandbox's environment is an allow-list, so the variables
Verus needs to find its installation are passed on when set here:
``VERUS_Z3_PATH``, ``VERUS_SINGULAR_PATH``, ``RUSTUP_HOME``, ``CARGO_HOME``,
``RUSTUP_TOOLCHAIN`` (``RUSTUP_HOME``/``CARGO_HOME`` default to
``~/.rustup``/``~/.cargo`` when those exist, since the sandbox's ``HOME`` is
its private directory). Output: stderr then stdout, each capped.

Without Verus nothing here runs: proof samples are NOT_EVALUATED upstream.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

from ....sandbox import Sandbox, SandboxLimits
from .batch import RunOutput

__all__ = ["ENV_VERUS", "NO_CHEATING", "VerusRunner", "find_verus", "verus_environment"]

ENV_VERUS = "VERISCALE_VERUS"
NO_CHEATING = "--no-cheating"
_PASS_ON = ("VERUS_Z3_PATH", "VERUS_SINGULAR_PATH", "RUSTUP_HOME", "CARGO_HOME", "RUSTUP_TOOLCHAIN")
_OUTPUT_BYTES = 8 << 20


def find_verus(path: str | None = None) -> str | None:
    """The Verus binary: ``path``, else ``$VERISCALE_VERUS``; None when neither names an executable."""
    cand = path or os.environ.get(ENV_VERUS, "").strip() or None
    if cand is None:
        return None
    found = shutil.which(cand)
    return found or None


def verus_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    env = os.environ if environ is None else environ
    out = {k: env[k] for k in _PASS_ON if env.get(k)}
    home = Path(env.get("HOME", "") or Path.home())
    for var, sub in (("RUSTUP_HOME", ".rustup"), ("CARGO_HOME", ".cargo")):
        if var not in out and (home / sub).is_dir():
            out[var] = str(home / sub)
    return out


class VerusRunner:
    """``run(files, root, timeout) -> RunOutput`` with a real Verus binary."""

    def __init__(self, path: str, *, extra_args: Sequence[str] = (), memory_mb: int | None = None) -> None:
        self.path = path
        self.extra_args = tuple(extra_args)
        self.memory_mb = memory_mb
        self.runs = 0

    def command(self, root: str) -> list[str]:
        return [self.path, NO_CHEATING, *self.extra_args, root]

    def __call__(self, files: Mapping[str, str], root: str, timeout: float) -> RunOutput:
        limits = SandboxLimits(
            wall_seconds=timeout,
            cpu_seconds=timeout * (os.cpu_count() or 1) + 1,  # z3 and rustc may use several threads
            memory_bytes=self.memory_mb * (1 << 20) if self.memory_mb else None,
            file_bytes=None,
            open_files=4096,
            processes=None,
            output_bytes=_OUTPUT_BYTES,
            stderr_bytes=_OUTPUT_BYTES,
        )
        self.runs += 1
        with Sandbox(limits, keep_uid=True, env=verus_environment()) as box:
            for name, text in files.items():
                box.put(name, text)
            res = box.run(self.command(root))
        if res.setup_error:
            return RunOutput("", None, setup_error=res.setup_error)
        text = (
            res.stderr.decode("utf-8", errors="replace") + "\n" + res.stdout.decode("utf-8", errors="replace")
        )
        return RunOutput(text, res.returncode, timed_out=res.timed_out)
