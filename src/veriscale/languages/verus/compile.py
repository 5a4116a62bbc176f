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

``rustc`` runs in the ``veriscale.sandbox`` (private directory holding a copy
of the source, allow-listed environment, no network where possible, every
descendant killed at the end) with an address-space cap of
``$VERISCALE_RUSTC_MEMORY_MB`` (default 4096) for it and the linker. It is
the real compiler of the active toolchain (``rustc --print sysroot``), so no
rustup proxy needs ``HOME``. Source that reads files or the environment at
compile time (``include_str!`` and friends, ``#[path]``; see ``forbidden``)
is refused without running ``rustc`` (``Compiled.forbidden``).
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from ...sandbox import Sandbox, SandboxLimits
from .forbidden import compile_time_access
from .prelude import PRELUDE_CRATE, PRELUDE_LIB

__all__ = [
    "DEFAULT_FLAGS",
    "Compiled",
    "RustcUnavailable",
    "cache_dir",
    "compile_program",
    "rustc_available",
    "rustc_executable",
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
    forbidden: str = ""  # the policy violation that kept the source from the compiler

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


@functools.lru_cache(maxsize=1)
def rustc_executable() -> str:
    """The toolchain's real ``rustc`` (not the rustup proxy, which needs ``HOME``); raises ``RustcUnavailable``."""
    rustc_version()
    exe = shutil.which("rustc")
    assert exe is not None
    try:
        res = subprocess.run(
            [exe, "--print", "sysroot"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return exe
    real = Path(res.stdout.strip()) / "bin" / "rustc"
    return str(real) if res.returncode == 0 and real.is_file() else exe


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


def _rustc_limits(timeout: float) -> SandboxLimits:
    mem_mb = int(os.environ.get("VERISCALE_RUSTC_MEMORY_MB", "4096"))
    return SandboxLimits(
        wall_seconds=timeout,
        memory_bytes=mem_mb << 20,
        file_bytes=1 << 30,
        open_files=4096,
        processes=512,
        output_bytes=1 << 20,
        stderr_bytes=1 << 20,
    )


def _run_rustc(sb: Sandbox, args: list[str], timeout: float) -> tuple[int, str]:
    """Run rustc in the sandbox ``sb`` (paths in ``args`` are relative to its directory)."""
    res = sb.run([rustc_executable(), *args], limits=_rustc_limits(timeout))
    err = res.stderr.decode("utf-8", errors="replace")
    if res.timed_out:
        return 1, f"rustc timed out after {timeout:g} s"
    if res.setup_error:
        raise RustcUnavailable(res.setup_error)
    if res.returncode != 0:
        return res.returncode or 1, err or f"rustc failed: {res.describe()}"
    return 0, err


def _take(src: Path, dest: Path) -> None:
    """Move a build product into the cache atomically (a copy when the directories are on different devices)."""
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.{threading.get_ident()}")
    shutil.move(str(src), tmp)
    os.replace(tmp, dest)


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
        with Sandbox(keep_uid=True) as sb:
            sb.put(f"{PRELUDE_CRATE}.rs", PRELUDE_LIB)
            out = f"lib{PRELUDE_CRATE}.rlib"
            rc, err = _run_rustc(
                sb,
                [
                    *flags,
                    "--crate-type",
                    "rlib",
                    "--crate-name",
                    PRELUDE_CRATE,
                    f"{PRELUDE_CRATE}.rs",
                    "-o",
                    out,
                ],
                COMPILE_TIMEOUT,
            )
            if rc != 0 or not (sb.path / out).is_file():
                raise RuntimeError(f"the veriscale Rust support crate does not compile:\n{err[:2000]}")
            _take(sb.path / out, lib)
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
    bad = compile_time_access(source)
    if bad:
        msg = "; ".join(str(v) for v in bad)
        return Compiled(key, None, f"refused before compiling: {msg}", forbidden=msg)
    d.mkdir(parents=True, exist_ok=True)
    extra: list[str] = []
    if links:
        lib = _prelude_rlib(root, flags)
        extra = ["--extern", f"{PRELUDE_CRATE}={lib}", "-L", f"dependency={lib.parent}"]
    with Sandbox(keep_uid=True) as sb:
        sb.put("main.rs", source)
        rc, err = _run_rustc(sb, [*flags, *extra, "--crate-name", "prog", "main.rs", "-o", "prog"], timeout)
        out = sb.path / "prog"
        if rc != 0 or not out.is_file():
            if "timed out" not in err:
                errfile.write_text(err, encoding="utf-8")
            return Compiled(key, None, err)
        _take(out, binary)
    return Compiled(key, binary)
