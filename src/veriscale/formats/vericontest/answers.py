"""What the VeriContest scorer needs to know about a model's answer (a Rust/Verus program), on the
Verus plug-in's tokenizer, item scanner, eraser and sandboxed execution.

* ``unreadable(program)``: why the program cannot even be scanned into items (empty, bad tokens,
  unbalanced braces), or None;
* ``target_mismatch(problem, program)``: why the answer's target function does not match the
  problem's (missing, or another number of parameters), or None;
* ``whole_program(problem, program)``: whether the answer is a stdin/stdout program of its own
  (a non-empty top-level ``fn main`` and no function named as the target: Codeforces nl2code);
* ``run_whole_program(program, stdins, …)``: erase, refuse forbidden constructs, compile with
  rustc (the shims of the erased vstd APIs added) and run it on each stdin in the sandbox;
* ``input_names(problem)``: the parameters a test input binds, in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...languages.verus.items import ScanError, scan_items
from ...languages.verus.lexer import LexError
from ...languages.verus.signature import input_params

__all__ = [
    "ProgramRun",
    "input_names",
    "run_whole_program",
    "target_mismatch",
    "unreadable",
    "whole_program",
]


def input_names(problem: Any) -> list[str]:
    return [p.name for p in input_params(problem)]


def unreadable(program: str) -> str | None:
    if not program.strip():
        return "empty program"
    try:
        scan_items(program)
    except (LexError, ScanError) as exc:
        return f"cannot be tokenized: {exc}"
    return None


def target_mismatch(problem: Any, program: str) -> str | None:
    items = scan_items(program)
    name = problem.signature.name
    fns = [f for f in items.fns if f.name == name and f.mode == "exec"]
    if not fns:
        return f"no exec function named `{name}`"
    want = len(problem.signature.params) + (1 if problem.signature.receiver else 0)
    have = len(fns[-1].params) + (1 if fns[-1].receiver else 0)
    if have != want:
        return f"`{name}` takes {have} parameter(s), the problem's {want}"
    return None


def whole_program(problem: Any, program: str) -> bool:
    items = scan_items(program)
    has_main = any(
        f.name == "main" and f.owner is None and f.body is not None and f.body[1] - f.body[0] > 1
        for f in items.fns
    )
    return has_main and not any(f.name == problem.ref_signature.name for f in items.fns)


@dataclass(frozen=True)
class ProgramRun:
    """``status``: "ok", "timeout", "panic", "error", "memory", "crash", "output"; or for the whole
    program "forbidden", "compile", "erase" (then ``message`` says why and there are no runs)."""

    status: str
    stdout: str = ""
    message: str = ""


def run_whole_program(
    program: str,
    stdins: Sequence[str],
    exec_limits: Any,
    cache: Path | str | None = None,
    stop_early: Any = None,
) -> ProgramRun | list[ProgramRun]:
    """One ``ProgramRun`` for a program that never ran, else one per stdin (``stop_early(run)``
    True stops after that run)."""
    from ...languages.verus.compile import compile_program
    from ...languages.verus.erase import EraseError, erase
    from ...languages.verus.execute import run_program
    from ...languages.verus.forbidden import forbidden_constructs
    from ...languages.verus.prelude import SHIMS

    try:
        src = erase(program) if ("verus!" in program or "vstd" in program) else program
    except EraseError as exc:
        return ProgramRun("erase", message=f"Verus erasure failed: {exc}")
    bad = "; ".join(str(v) for v in forbidden_constructs(src))
    if bad:
        return ProgramRun("forbidden", message=f"forbidden construct: {bad}")
    comp = compile_program("#![allow(warnings)]\n" + SHIMS + "\n" + src, cache=cache)
    if comp.forbidden:
        return ProgramRun("forbidden", message=comp.errors)
    if not comp.ok:
        first = comp.errors.strip().splitlines()[:1]
        return ProgramRun("compile", message="does not compile" + (f": {first[0]}" if first else ""))
    out: list[ProgramRun] = []
    for stdin in stdins:
        res = run_program(comp.binary, stdin, exec_limits)
        out.append(ProgramRun(res.status, res.stdout, res.message))
        if stop_early is not None and stop_early(out[-1]):
            break
    return out
