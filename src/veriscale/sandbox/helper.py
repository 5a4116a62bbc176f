"""Building and probing the sandbox's init helper (see ``helper_source``).

The helper is compiled once with the system C compiler (``$CC``, else ``cc``;
statically linked where the C library allows, else dynamically) into ``$VERISCALE_SANDBOX_CACHE`` (default ``~/.cache/veriscale/sandbox``),
named by the hash of its source, written to a temporary name and renamed so
concurrent builders never see half a file. Without a C compiler the sandbox
falls back to a weaker direct launch (see ``Isolation``).
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from .helper_source import HELPER_C, HELPER_VERSION

__all__ = ["Isolation", "helper_path", "isolation"]

_lock = threading.Lock()
# Linked statically when the C library allows: every sandboxed run starts the helper, and a static
# binary skips the dynamic loader (about 0.3 ms of CPU per start on the 2-core machine)
_CFLAGS = ("-O2", "-static")
_CFLAGS_DYNAMIC = ("-O2",)


@dataclass(frozen=True)
class Isolation:
    """What this machine gives the sandbox.

    ``helper``: the subreaper helper is available (every descendant is killed at the
    end, ``setsid`` or not); without it only the target's process group is killed.
    ``network``: runs get a private network namespace (no interface but loopback).
    ``filesystem``: runs see every mount read-only except their private directory.
    ``drop_uid``: veriscale runs as root and targets run as this unprivileged uid
    (``None`` when not root, or when ``VERISCALE_SANDBOX_UID=none``).
    """

    helper: bool
    network: bool
    drop_uid: int | None
    filesystem: bool = False
    reason: str = ""


def _cache_root() -> Path:
    env = os.environ.get("VERISCALE_SANDBOX_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "veriscale" / "sandbox"


@functools.lru_cache(maxsize=1)
def helper_path() -> Path | None:
    """The compiled helper (built on first use), or ``None`` when it cannot be built."""
    key = hashlib.sha256((HELPER_VERSION + HELPER_C + " ".join(_CFLAGS)).encode()).hexdigest()[:16]
    root = _cache_root()
    exe = root / f"init-{key}"
    if exe.is_file() and os.access(exe, os.X_OK):
        return exe
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    with _lock:
        if exe.is_file():
            return exe
        try:
            root.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(dir=root) as tmp:
                src = Path(tmp) / "init.c"
                src.write_text(HELPER_C, encoding="utf-8")
                out = Path(tmp) / "init"
                for flags in (_CFLAGS, _CFLAGS_DYNAMIC):  # static first; dynamic where there is no libc.a
                    res = subprocess.run(
                        [cc, *flags, "-o", str(out), str(src)],
                        capture_output=True,
                        text=True,
                        timeout=120,
                        check=False,
                    )
                    if res.returncode == 0 and out.is_file():
                        break
                else:
                    return None
                os.chmod(out, 0o755)
                os.replace(out, exe)
        except (OSError, subprocess.SubprocessError):
            return None
    return exe


def _drop_uid() -> int | None:
    if os.geteuid() != 0:
        return None
    env = os.environ.get("VERISCALE_SANDBOX_UID", "65534").strip().lower()
    if env in ("", "none", "off"):
        return None
    try:
        return int(env)
    except ValueError:
        return 65534


@functools.lru_cache(maxsize=1)
def isolation() -> Isolation:
    """Probe once what the sandbox obtains on this machine."""
    exe = helper_path()
    if exe is None:
        return Isolation(False, False, _drop_uid(), reason="no C compiler to build the sandbox helper")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            argv = [str(exe), "-N", "-W", os.path.realpath(tmp), "-Q"]
            res = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False, cwd=tmp)
    except (OSError, subprocess.SubprocessError) as exc:
        return Isolation(False, False, _drop_uid(), reason=f"sandbox helper does not start: {exc}")
    if res.returncode != 0:
        return Isolation(
            False, False, _drop_uid(), reason=f"sandbox helper failed: {res.stderr.strip()[:200]}"
        )
    fields = dict(p.split("=", 1) for p in res.stdout.split() if "=" in p)
    net = fields.get("net", "0") != "0"
    fs = fields.get("fs", "0") != "0"
    missing = [w for w, ok in (("network namespace", net), ("mount namespace", fs)) if not ok]
    reason = "no " + " or ".join(missing) if missing else ""
    return Isolation(True, net, _drop_uid(), filesystem=fs, reason=reason)
