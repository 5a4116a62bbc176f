"""What ``lake env`` adds to the environment, probed once per project, so Lean runs without lake.

Candidate files are elaborated by ``lean`` inside the sandbox (a private
directory, everything else read-only, no network, an allow-listed
environment). ``lake`` itself may want to write into the project (its
configuration cache, the manifest), which the sandbox forbids, and it needs
nothing from the candidate. So veriscale asks ``lake env`` once, outside the
sandbox and with no candidate text involved, for the variables it sets
(``LEAN_PATH`` with the dependencies' ``.olean`` directories, ``LEAN_SYSROOT``,
``PATH``, …), and starts the ``lean`` binary directly with only those.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass

from .project import LeanProject, LeanUnavailable

__all__ = ["LeanEnvironment", "lean_environment", "parse_env_dump"]

_PREFIXES = ("LEAN", "LAKE", "ELAN")
_NAMES = ("PATH", "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH")
_PROBE_TIMEOUT = 300.0  # a first `lake env` may elaborate the lakefile


@dataclass(frozen=True, slots=True)
class LeanEnvironment:
    lean: str  # the lean executable (the toolchain's own binary when ``LEAN_SYSROOT`` names it)
    variables: tuple[tuple[str, str], ...]  # sorted (name, value), passed into the sandbox

    def as_dict(self) -> dict[str, str]:
        return dict(self.variables)


def parse_env_dump(dump: bytes) -> dict[str, str]:
    """The Lean-related variables of an ``env -0`` dump (NUL-separated ``NAME=value``)."""
    out: dict[str, str] = {}
    for item in dump.split(b"\0"):
        name, sep, value = item.decode("utf-8", "replace").partition("=")
        if sep and (name in _NAMES or name.startswith(_PREFIXES)):
            out[name] = value
    return out


@functools.lru_cache(maxsize=8)
def lean_environment(project: LeanProject) -> LeanEnvironment:
    """Probe ``lake env`` in ``project``; raises ``LeanUnavailable`` with the reason on failure."""
    try:
        res = subprocess.run(
            [project.lake, "env", "env", "-0"],
            cwd=project.root,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=_PROBE_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise LeanUnavailable(f"`lake env` could not run in {project.root}: {exc}") from exc
    if res.returncode != 0:
        tail = res.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit {res.returncode}"]
        raise LeanUnavailable(f"`lake env` failed in {project.root}: {tail[0][:200]}")
    variables = parse_env_dump(res.stdout)
    # elan's `lean` shim finds its toolchains through ELAN_HOME or HOME; HOME is private in the sandbox
    elan_home = os.environ.get("ELAN_HOME") or os.path.join(os.path.expanduser("~"), ".elan")
    if "ELAN_HOME" not in variables and os.path.isdir(elan_home):
        variables["ELAN_HOME"] = elan_home
    sysroot = variables.get("LEAN_SYSROOT", "")
    lean = os.path.join(sysroot, "bin", "lean") if sysroot else ""
    if not (lean and os.access(lean, os.X_OK)):
        lean = shutil.which("lean", path=variables.get("PATH") or None) or ""
    if not lean:
        raise LeanUnavailable(f"`lake env` in {project.root} names no lean executable (LEAN_SYSROOT, PATH)")
    return LeanEnvironment(lean, tuple(sorted(variables.items())))
