"""Model-written input generators: compiled and run in the sandbox, their lines read strictly.

``generator_inputs(generators, decode, settings, cache)`` returns the raw input
objects (JSON keyed by parameter name, in the order printed: generator kind
order, then argument line, then line) and one record per generator:

1. the program is refused without compiling when it uses a forbidden construct
   (``languages.verus.forbidden``: files, processes, environment, ``unsafe``…);
2. it is compiled with plain ``rustc`` (cached by content); a compile error is
   recorded with the compiler's first error line;
3. it runs once per argument line (at most ``MAX_ARG_LINES``), the line given
   on standard input, under ``generator_seconds`` of wall clock, 512 MiB and a
   4 MiB output cap (``languages.verus.execute.run_program`` in the sandbox).
   A run that does not end normally (timeout, crash, panic, output cap)
   contributes nothing and stops that generator: a program that hangs on one
   argument line will hang on the next. Once its runs have taken
   ``TOTAL_RUNS`` × ``generator_seconds`` together, the remaining lines are
   skipped (counted);
4. each printed line must be a JSON object with exactly the parameter names,
   decoding strictly for the parameter types (``decode``), with no list or
   string longer than ``max_len`` (the builder's own cap: specification checks
   are often cubic in it); other lines are counted as garbage by reason. At most ``generator_lines`` lines per run are read.

Whether an input satisfies ``requires`` is not decided here: the suite builder
checks every one with the ground-truth precondition, as for its own candidates.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ...languages.verus.compile import compile_program
from ...languages.verus.execute import ExecLimits, run_program
from ...languages.verus.forbidden import forbidden_constructs
from ...values.codec import DecodeError
from .suite_prompts import MAX_ARG_LINES, Generator

__all__ = ["generator_inputs", "run_generator"]

TOTAL_RUNS = 3  # a generator's runs together get at most this many times the per-run limit


def _first_error(text: str) -> str:
    for line in text.splitlines():
        if line.startswith("error"):
            return line[:200]
    return (text.strip().splitlines() or ["compilation failed"])[0][:200]


def _longest(v: Any) -> int:
    """The longest list or string anywhere in a JSON value."""
    if isinstance(v, str):
        return len(v)
    if isinstance(v, list):
        return max([len(v), *(_longest(x) for x in v)])
    if isinstance(v, dict):
        return max([0, *(_longest(x) for x in v.values())])
    return 0


def _read_lines(
    stdout: str,
    names: Sequence[str],
    decode: Callable[[Mapping[str, Any]], Any],
    limit: int,
    bad: Counter[str],
    max_len: int,
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for line in stdout.splitlines():
        if not line.strip():
            continue
        if len(out) >= limit:
            bad["over the line limit"] += 1
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            bad["not JSON"] += 1
            continue
        if not isinstance(obj, dict):
            bad["not a JSON object"] += 1
            continue
        if sorted(obj) != sorted(names):
            bad["wrong parameter names"] += 1
            continue
        if _longest(obj) > max_len:
            bad[f"a list or string longer than {max_len}"] += 1
            continue
        try:
            decode(obj)
        except (DecodeError, TypeError, ValueError) as exc:
            bad[f"does not decode: {getattr(exc, 'reason', type(exc).__name__)}"] += 1
            continue
        out.append({n: obj[n] for n in names})
    return out


def run_generator(
    gen: Generator,
    names: Sequence[str],
    decode: Callable[[Mapping[str, Any]], Any],
    *,
    seconds: float,
    lines: int,
    cache: Path | str | None,
    max_len: int = 200,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(inputs, record) of one generator (module docstring)."""
    rec: dict[str, Any] = {"kind": gen.kind, "status": "ok", "runs": [], "lines": 0, "parsed": 0}
    bad = forbidden_constructs(gen.program)
    if bad:
        rec.update(status="refused", reason="; ".join(str(v) for v in bad)[:300])
        return [], rec
    comp = compile_program(gen.program, cache=cache)
    if not comp.ok or comp.binary is None:
        rec.update(status="compile_error", reason=_first_error(comp.errors))
        return [], rec
    limits = ExecLimits(case_seconds=seconds, memory_mb=512, output_bytes=4 << 20)
    garbage: Counter[str] = Counter()
    out: list[dict[str, Any]] = []
    args = list(gen.args)
    if len(args) > MAX_ARG_LINES:
        rec["args_ignored"] = len(args) - MAX_ARG_LINES
        args = args[:MAX_ARG_LINES]
    spent = 0.0
    for a in args:
        if spent > TOTAL_RUNS * seconds:  # slow but within the limit on every line: enough of it
            rec["args_skipped"] = len(args) - len(rec["runs"])
            break
        res = run_program(comp.binary, a + "\n", limits)
        spent += res.seconds
        run: dict[str, Any] = {"args": a, "status": res.status}
        rec["runs"].append(run)
        if not res.ok:
            run["reason"] = (res.message or res.stderr.strip()[-200:] or res.status)[:200]
            rec.update(status=f"run_{res.status}", reason=f"argument line {a!r}: {run['reason']}")
            break
        before = sum(garbage.values())
        got = _read_lines(res.stdout, names, decode, lines, garbage, max_len)
        run["lines"] = len(got) + sum(garbage.values()) - before
        run["parsed"] = len(got)
        rec["lines"] += run["lines"]
        rec["parsed"] += len(got)
        out.extend(got)
    rec["garbage"] = dict(sorted(garbage.items()))
    if rec["status"] == "ok" and not out:
        rec.update(status="no_inputs", reason="no printed line is an input of the problem")
    return out, rec


def generator_inputs(
    generators: Sequence[Generator],
    names: Sequence[str],
    decode: Callable[[Mapping[str, Any]], Any],
    *,
    seconds: float,
    lines: int,
    cache: Path | str | None,
    max_len: int = 200,
) -> tuple[list[tuple[str, dict[str, Any]]], list[dict[str, Any]]]:
    """((family, raw input) in order, records) of all generators; family is ``generator:<kind>``."""
    inputs: list[tuple[str, dict[str, Any]]] = []
    records: list[dict[str, Any]] = []
    for g in generators:
        got, rec = run_generator(g, names, decode, seconds=seconds, lines=lines, cache=cache, max_len=max_len)
        records.append(rec)
        inputs.extend((f"generator:{g.kind}", x) for x in got)
    return inputs, records
