"""Compiling checkers: the runtime once as an optimised library, each checker quickly against it.

A checker is small but its nested closures make an optimised ``rustc`` build
take seconds; the runtime (value type, checked arithmetic, sequences, JSON
decoding) does the heavy lifting, so it is compiled once with ``-O``
(``RUNTIME_LIB``, cached by content hash like the prelude) and every checker
is compiled against it (``CHECKER_FLAGS``: opt-level 0 unless ``VERISCALE_POST2EXE_OPT``
says otherwise; an optimised checker links ``RUNTIME_LIB_INLINE``, whose small
helpers it inlines; linked with the C library statically where it can be,
``STATIC_LINK``). Binaries are cached under ``<rust cache>/post2exe/`` keyed by
rustc version, flags and every source.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from ....sandbox import Sandbox
from ..compile import (
    COMPILE_TIMEOUT,
    DEFAULT_FLAGS,
    Compiled,
    _digest,
    _prelude_rlib,
    _run_rustc,
    _take,
    cache_dir,
    rustc_version,
)
from ..prelude import PRELUDE_CRATE, PRELUDE_LIB
from .runtime_rs import RUNTIME_CRATE, RUNTIME_LIB, RUNTIME_LIB_INLINE

__all__ = ["CHECKER_FLAGS", "POST2EXE_VERSION", "compile_checker", "runtime_rlib"]

# part of every cache key, with the sources: bump it when the meaning of a compiled checker changes in a
# way its source text may not show (3: ranges beyond the step budget are searched with a share of it;
# 4: allocation-free memo keys, buffered output, batch lines, typed i128 integer expressions;
# 5: the tree-free case reader and the compact reply form in the runtime's request loop `serve`;
# 6: with the typed spec fn memo of memo_rs.py, long right operands of &&/||/==> emitted once;
# 7: the evaluation state in statics (state_rs.py), memo slots of one cache line;
# 8: linear recursion of a spec fn as a loop, linear_rec.py)
POST2EXE_VERSION = "8"

# opt-level 0 by default: a checker compiles in under a second; VERISCALE_POST2EXE_OPT=3 trades
# several seconds of rustc per problem for 3-7x faster checks (labelling large suites)
CHECKER_FLAGS: tuple[str, ...] = (
    "--edition",
    "2021",
    "-C",
    f"opt-level={os.environ.get('VERISCALE_POST2EXE_OPT', '0')}",
    "-C",
    "overflow-checks=on",
    "-C",
    "debuginfo=0",
    "-A",
    "warnings",
)
_lock = threading.Lock()

# a checker linked with the C library statically starts in about half the CPU of a dynamic one (no loader,
# no relocations: 0.6 against 1.1 ms on the 2-core machine); every problem's checker process starts at
# least once per run, and for a cheap spec its start is most of a first batch's cost
STATIC_LINK: tuple[str, ...] = ("-C", "target-feature=+crt-static")
_static_ok: dict[Path, bool] = {}


def _optimised(flags: tuple[str, ...]) -> bool:
    """Whether ``flags`` compile a checker above opt-level 0 (it then links the inlining runtime)."""
    levels = [f.split("=", 1)[1] for f in flags if f.startswith("opt-level=")]
    return bool(levels) and levels[-1] not in ("0", "")


def runtime_rlib(root: Path, inline: bool = False) -> Path:
    """The compiled runtime crate (built once per rustc version and runtime text); ``inline``: the build
    whose small helpers optimised checkers inline (``runtime_rs.RUNTIME_LIB_INLINE``)."""
    text = RUNTIME_LIB_INLINE if inline else RUNTIME_LIB
    prelude = _prelude_rlib(root, DEFAULT_FLAGS)
    key = _digest(
        "post2exe-runtime",
        POST2EXE_VERSION,
        rustc_version(),
        " ".join(DEFAULT_FLAGS),
        text,
        PRELUDE_LIB,
    )
    d = root / "post2exe-rt" / key[:16]
    lib = d / f"lib{RUNTIME_CRATE}.rlib"
    if lib.is_file():
        return lib
    with _lock:
        if lib.is_file():
            return lib
        d.mkdir(parents=True, exist_ok=True)
        with Sandbox(keep_uid=True) as sb:  # rustc runs sandboxed, as for every other program
            sb.put(f"{RUNTIME_CRATE}.rs", text)
            out = lib.name
            args = [*DEFAULT_FLAGS, "--crate-type", "rlib", "--crate-name", RUNTIME_CRATE,
                    "--extern", f"{PRELUDE_CRATE}={prelude}", "-L", f"dependency={prelude.parent}",
                    f"{RUNTIME_CRATE}.rs", "-o", out]  # fmt: skip
            rc, err = _run_rustc(sb, args, COMPILE_TIMEOUT)
            if rc != 0 or not (sb.path / out).is_file():
                raise RuntimeError(f"the Post2Exe runtime crate does not compile:\n{err[:2000]}")
            _take(sb.path / out, lib)
    return lib


def _links_statically(root: Path) -> bool:
    """Whether a static checker links here (a C library without its static archive, ``libc.a``, cannot):
    probed once per cache and rustc version by linking an empty program, the answer kept on disk."""
    if root in _static_ok:
        return _static_ok[root]
    mark = root / "post2exe-static" / _digest("post2exe-static", rustc_version(), " ".join(STATIC_LINK))[:16]
    with _lock:
        if root not in _static_ok:
            if not mark.is_file():
                with Sandbox(keep_uid=True) as sb:
                    sb.put("probe.rs", "fn main() {}\n")
                    rc, err = _run_rustc(sb, [*DEFAULT_FLAGS, *STATIC_LINK, "probe.rs", "-o", "probe"],
                                         COMPILE_TIMEOUT)  # fmt: skip
                    ok = rc == 0 and (sb.path / "probe").is_file()
                if not ok and "timed out" in err:  # a busy machine says nothing about the linker
                    _static_ok[root] = False
                    return False
                mark.parent.mkdir(parents=True, exist_ok=True)
                tmp = mark.with_name(f".{mark.name}.{os.getpid()}")
                tmp.write_text("static\n" if ok else "dynamic\n", encoding="ascii")
                os.replace(tmp, mark)
            _static_ok[root] = mark.read_text(encoding="ascii").strip() == "static"
    return _static_ok[root]


def compile_checker(
    source: str, cache: Path | str | None = None, flags: tuple[str, ...] | None = None
) -> Compiled:
    """Compile a linked checker source (``translate(..., standalone=False)``) with ``flags`` (default
    ``CHECKER_FLAGS``), or reuse the cached binary."""
    root = cache_dir(cache)
    flags = CHECKER_FLAGS if flags is None else flags
    if "target-feature=+crt-static" not in flags and _links_statically(root):
        flags = (*flags, *STATIC_LINK)
    inline = _optimised(flags)
    key = _digest(
        "post2exe",
        POST2EXE_VERSION,
        rustc_version(),
        " ".join(flags),
        source,
        RUNTIME_LIB_INLINE if inline else RUNTIME_LIB,
        PRELUDE_LIB,
    )
    d = root / "post2exe" / key[:2]
    binary = d / key
    errfile = d / f"{key}.err"
    if binary.is_file():
        return Compiled(key, binary, cached=True)
    if errfile.is_file():
        return Compiled(key, None, errfile.read_text(encoding="utf-8", errors="replace"), cached=True)
    lib = runtime_rlib(root, inline)
    prelude = _prelude_rlib(root, DEFAULT_FLAGS)
    d.mkdir(parents=True, exist_ok=True)
    with Sandbox(keep_uid=True) as sb:
        sb.put("main.rs", source)
        args = [*flags, "--extern", f"{RUNTIME_CRATE}={lib}", "--extern", f"{PRELUDE_CRATE}={prelude}",
                "-L", f"dependency={lib.parent}", "-L", f"dependency={prelude.parent}",
                "--crate-name", "checker", "main.rs", "-o", "prog"]  # fmt: skip
        rc, err = _run_rustc(sb, args, COMPILE_TIMEOUT)
        out = sb.path / "prog"
        if rc != 0 or not out.is_file():
            if "timed out" not in err:
                errfile.write_text(err, encoding="utf-8")
            return Compiled(key, None, err)
        _take(out, binary)
    return Compiled(key, binary)
