"""Verifying several Verus programs with one Verus invocation, and mapping errors back to them.

Verus starts slowly (it loads ``vstd`` and starts z3), so the programs of a
job are verified together: one crate whose root ``batch.rs`` declares
``mod sample_0; mod sample_1; …`` and one module file per program
(``sample_K.rs``, the program unchanged: its ``use vstd::prelude::*``,
``verus! { … }`` and ``fn main`` are legal in a module). Verus verifies every
module of the crate; each error's primary location names its file, hence its
program, with the program's own line numbers.

``verify_programs(programs, run, timeout)`` returns one ``Verdict`` per
program, in order:

* the output has the summary line (verification ran to its end): a program
  with an error located in its file FAILS with its first errors; one without
  is VERIFIED — unless some error has no program's location (then those
  programs are run again, below);
* the run stopped before verifying (a compile error or a ``--no-cheating``
  refusal in some module stops the whole crate), crashed or timed out: a
  program with an error located in its file FAILS (such errors are local to
  a module: its items cannot clash with another module's); the others get no
  verdict from this run and are verified again without them. When no error
  names a program, the batch is split in halves (one bad program then costs
  O(log n) extra runs); a single program that times out is UNKNOWN
  (timeout), one that crashes without an error in its file is UNKNOWN with
  the output's first lines — never a pass.

A program is verified alone (as the crate root itself) when it could reach
outside its module: ``crate``/``super`` paths, an inner attribute ``#![…]``
(other than a quantifier's ``#![trigger …]``/``#![auto]``),
``extern``, ``macro_rules!``/``#[macro_export]``, an out-of-line ``mod x;``,
or when it cannot be tokenized. Ties: programs keep their input order;
identical programs are verified once.

``run(files, root, timeout)`` is the process (``runner.VerusRunner``);
tests pass a fake that replays recorded Verus output.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..lexer import LexError, tokenize
from .messages import Diagnostic, VerusOutput, parse_output

__all__ = [
    "DEFAULT_BATCH",
    "RunOutput",
    "Verdict",
    "VerusRun",
    "batchable",
    "render_crate",
    "verify_programs",
]

DEFAULT_BATCH = 8  # programs per Verus invocation (bounds the cost of a timed-out batch)
ROOT = "batch.rs"
_MAX_ERRORS_SHOWN = 3
_EXPRESSION_ATTRIBUTES = frozenset({"trigger", "auto"})


@dataclass(frozen=True)
class RunOutput:
    text: str  # stderr then stdout
    exit_code: int | None
    timed_out: bool = False
    setup_error: str = ""  # Verus could not be started at all


VerusRun = Callable[[Mapping[str, str], str, float], RunOutput]


@dataclass(frozen=True)
class Verdict:
    status: str  # "verified", "failed", "unknown"
    message: str = ""
    timed_out: bool = False

    @property
    def passed(self) -> bool | None:
        return {"verified": True, "failed": False}.get(self.status)


def module_file(i: int) -> str:
    return f"sample_{i}.rs"


def render_crate(programs: Sequence[str]) -> dict[str, str]:
    """The files of one batch crate: ``batch.rs`` and ``sample_K.rs`` per program."""
    mods = "".join(f"mod sample_{i};\n" for i in range(len(programs)))
    root = (
        "// veriscale: one Verus crate, one module per program being verified\n"
        "#![allow(unused, dead_code, non_snake_case)]\n"
        f"{mods}\nfn main() {{}}\n"
    )
    files = {ROOT: root}
    files.update({module_file(i): p for i, p in enumerate(programs)})
    return files


def batchable(program: str) -> bool:
    """Whether ``program`` can share a crate with others (module docstring)."""
    try:
        toks = tokenize(program)
    except LexError:
        return False
    for i, t in enumerate(toks):
        nxt = toks[i + 1].text if i + 1 < len(toks) else ""
        if t.kind == "ident" and t.text in ("crate", "super", "extern", "macro_rules", "macro_export"):
            return False
        if t.text == "#" and nxt == "!":
            inner = toks[i + 3].text if i + 3 < len(toks) else ""
            if inner not in _EXPRESSION_ATTRIBUTES:  # ``#![trigger …]`` in a quantifier is not crate-level
                return False
        if t.kind == "ident" and t.text == "mod" and i + 2 < len(toks) and toks[i + 2].text == ";":
            return False
    return True


def _summary(errors: Sequence[Diagnostic]) -> str:
    shown = "; ".join(e.short() for e in errors[:_MAX_ERRORS_SHOWN])
    more = len(errors) - _MAX_ERRORS_SHOWN
    return shown + (f"; and {more} more" if more > 0 else "")


def _head(text: str, n: int = 3) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return "; ".join(lines[:n]) or "no output"


def verify_programs(
    programs: Sequence[str], run: VerusRun, timeout: float, *, batch_size: int = DEFAULT_BATCH
) -> list[Verdict]:
    """One verdict per program (module docstring); ``timeout`` is per program."""
    unique: dict[str, int] = {}
    for p in programs:
        unique.setdefault(p, len(unique))
    texts = list(unique)
    out: list[Verdict | None] = [None] * len(texts)

    def alone(i: int) -> None:
        res = run({module_file(0): texts[i]}, module_file(0), timeout)
        if res.setup_error:
            out[i] = Verdict("unknown", f"Verus could not start: {res.setup_error}")
            return
        parsed = parse_output(res.text)
        mine = [e for e in parsed.errors if e.file is not None and _sample_of(e.file) == 0]
        if mine:  # definite, even in a run that stopped or timed out later
            out[i] = Verdict("failed", _summary(mine))
        elif res.timed_out:
            out[i] = Verdict("unknown", f"Verus timed out after {timeout:g} s", timed_out=True)
        elif parsed.completed and res.exit_code == 0 and not parsed.errors and not parsed.failed:
            out[i] = Verdict("verified")
        elif parsed.errors:  # errors in no file of the program: the installation, not the answer
            out[i] = Verdict(
                "unknown", f"Verus reported errors outside the program: {_summary(parsed.errors)}"
            )
        else:
            out[i] = Verdict(
                "unknown", f"Verus ended without a verdict (exit {res.exit_code}): {_head(res.text)}"
            )

    def together(idxs: list[int]) -> None:
        if len(idxs) == 1:
            alone(idxs[0])
            return
        res = run(render_crate([texts[i] for i in idxs]), ROOT, timeout * len(idxs))
        if res.setup_error:
            for i in idxs:
                out[i] = Verdict("unknown", f"Verus could not start: {res.setup_error}")
            return
        parsed: VerusOutput = parse_output(res.text)
        located: dict[int, list[Diagnostic]] = {}
        stray: list[Diagnostic] = []
        for e in parsed.errors:
            k = _sample_of(e.file) if e.file is not None else None
            if k is not None and k < len(idxs):
                located.setdefault(k, []).append(e)
            else:
                stray.append(e)
        for k, errs in located.items():
            out[idxs[k]] = Verdict("failed", _summary(errs))
        rest = [i for k, i in enumerate(idxs) if k not in located]
        if not rest:
            return
        complete = parsed.completed and not res.timed_out and not stray
        if complete and (located or not parsed.failed) and (located or res.exit_code == 0):
            for i in rest:
                out[i] = Verdict("verified")
            return
        if located:  # the run said something definite about some: retry the others together
            together(rest)
            return
        half = len(rest) // 2  # nothing located: split
        together(rest[:half])
        together(rest[half:])

    solo = [i for i, t in enumerate(texts) if not batchable(t)]
    shared = [i for i, t in enumerate(texts) if batchable(t)]
    for i in solo:
        alone(i)
    size = max(1, batch_size)
    for start in range(0, len(shared), size):
        together(shared[start : start + size])
    verdicts = [v if v is not None else Verdict("unknown", "no verdict") for v in out]
    return [verdicts[unique[p]] for p in programs]


def _sample_of(file: str) -> int | None:
    """The program index of a diagnostic's file (``sample_K.rs``, any directory), else None."""
    name = file.replace("\\", "/").rsplit("/", 1)[-1]
    if not (name.startswith("sample_") and name.endswith(".rs")):
        return None
    digits = name[len("sample_") : -len(".rs")]
    return int(digits) if digits.isdigit() else None
