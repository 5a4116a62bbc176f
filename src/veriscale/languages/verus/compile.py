"""Compiling Rust programs with plain ``rustc``, cached by content hash.

``compile_program(source)`` returns a ``Compiled`` (binary path or the
compiler's error text). The cache key is the SHA-256 of the rustc version,
the flags and the source (and, for programs that link the ``__vs`` support
crate, that crate's source), so a rerun only compiles what changed; failed
compilations are cached too.

Flags: edition 2021, ``-O``, ``-C overflow-checks=on`` (an overflow is a
panic, as it is a verification failure in Verus), ``-C codegen-units=1``
(cheaper to compile on a small machine), no debug info, warnings off.

Cache directory: ``$VERISCALE_RUST_CACHE``, else ``~/.cache/veriscale/rust``.
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

from .prelude import PRELUDE_CRATE, PRELUDE_LIB

__all__ = [
    "DEFAULT_FLAGS",
    "Compiled",
    "RustcUnavailable",
    "cache_dir",
    "compile_program",
    "rustc_available",
    "rustc_version",
]

DEFAULT_FLAGS: tuple[str, ...] = (
    "--edition",
    "2021",
    "-O",
    "-C",
    "overflow-checks=on",
    "-C",
    "codegen-units=1",
    "-C",
    "debuginfo=0",
    "-A",
    "warnings",
)
COMPILE_TIMEOUT = 300.0
_lock = threading.Lock()


class RustcUnavailable(RuntimeError):
    """No working ``rustc`` on PATH."""


@dataclass(frozen=True)
class Compiled:
    key: str
    binary: Path | None  # None when compilation failed
    errors: str = ""
    cached: bool = False

    @property
    def ok(self) -> bool:
        return self.binary is not None


def cache_dir(override: Path | str | None = None) -> Path:
    if override is not None:
        return Path(override)
    env = os.environ.get("VERISCALE_RUST_CACHE")
    if env:
        return Path(env)
    return Path.home() / ".cache" / "veriscale" / "rust"


@functools.lru_cache(maxsize=1)
def rustc_version() -> str:
    """``rustc -vV`` output (part of every cache key); raises ``RustcUnavailable``."""
    exe = shutil.which("rustc")
    if exe is None:
        raise RustcUnavailable("rustc is not on PATH")
    try:
        res = subprocess.run([exe, "-vV"], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RustcUnavailable(f"rustc -vV failed: {exc}") from None
    if res.returncode != 0:
        raise RustcUnavailable(f"rustc -vV failed: {res.stderr.strip()[:200]}")
    return res.stdout.strip()


def rustc_available() -> bool:
    try:
        rustc_version()
    except RustcUnavailable:
        return False
    return True


def _digest(*parts: str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def _run_rustc(args: list[str], timeout: float) -> tuple[int, str]:
    try:
        res = subprocess.run(["rustc", *args], capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return 1, f"rustc timed out after {timeout:g} s"
    except OSError as exc:
        raise RustcUnavailable(str(exc)) from None
    return res.returncode, res.stderr


def _prelude_rlib(root: Path, flags: tuple[str, ...]) -> Path:
    """The compiled ``__vs`` support crate for these flags (built once, cached)."""
    key = _digest("prelude", rustc_version(), " ".join(flags), PRELUDE_LIB)
    d = root / "prelude" / key[:16]
    lib = d / f"lib{PRELUDE_CRATE}.rlib"
    if lib.is_file():
        return lib
    with _lock:
        if lib.is_file():
            return lib
        d.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=d) as tmp:
            src = Path(tmp) / f"{PRELUDE_CRATE}.rs"
            src.write_text(PRELUDE_LIB, encoding="utf-8")
            out = Path(tmp) / lib.name
            rc, err = _run_rustc(
                [*flags, "--crate-type", "rlib", "--crate-name", PRELUDE_CRATE, str(src), "-o", str(out)],
                COMPILE_TIMEOUT,
            )
            if rc != 0:
                raise RuntimeError(f"the veriscale Rust support crate does not compile:\n{err[:2000]}")
            os.replace(out, lib)
    return lib


def compile_program(
    source: str,
    *,
    flags: tuple[str, ...] = DEFAULT_FLAGS,
    cache: Path | str | None = None,
    timeout: float = COMPILE_TIMEOUT,
    use_cache: bool = True,
) -> Compiled:
    """Compile ``source`` to an executable (or reuse the cached one)."""
    root = cache_dir(cache)
    links = f"extern crate {PRELUDE_CRATE}" in source
    parts = [rustc_version(), " ".join(flags), source]
    if links:
        parts.append(PRELUDE_LIB)
    key = _digest(*parts)
    d = root / "bin" / key[:2]
    binary = d / key
    errfile = d / f"{key}.err"
    if use_cache:
        if binary.is_file():
            return Compiled(key, binary, cached=True)
        if errfile.is_file():
            return Compiled(key, None, errfile.read_text(encoding="utf-8", errors="replace"), cached=True)
    d.mkdir(parents=True, exist_ok=True)
    extra: list[str] = []
    if links:
        lib = _prelude_rlib(root, flags)
        extra = ["--extern", f"{PRELUDE_CRATE}={lib}", "-L", f"dependency={lib.parent}"]
    with tempfile.TemporaryDirectory(dir=d) as tmp:
        src = Path(tmp) / "main.rs"
        src.write_text(source, encoding="utf-8")
        out = Path(tmp) / "prog"
        rc, err = _run_rustc([*flags, *extra, "--crate-name", "prog", str(src), "-o", str(out)], timeout)
        if rc != 0 or not out.is_file():
            err = err.replace(str(src), "main.rs")
            if "timed out" not in err:
                errfile.write_text(err, encoding="utf-8")
            return Compiled(key, None, err)
        os.replace(out, binary)
    return Compiled(key, binary)
