"""Per-clause ``ensures`` verdicts of many cases, for the weakened specifications of a problem.

A weakened specification drops one top-level ``ensures`` clause (Verus conjoins
the clauses). For a case whose clause verdicts are ``v`` (each ``T``/``F``/``U``),
the specification without clause ``i`` is FALSE exactly when some other clause
``j != i`` is FALSE (the conjunction is then false whatever the unknowns),
TRUE when every other clause is TRUE, UNKNOWN otherwise. So one clause vector
per case decides every weakening at once — no checker per dropped clause
(``weakened_false``).

The vectors come from ONE compiled Post2Exe checker per problem: the checker
source of ``post2exe.translate`` with its ``ensures`` verdict replaced by a
per-clause one (each clause through the runtime's own ``verdict`` with its own
fuel, so a clause's verdict is what the ordinary checker would give it). Once
two clauses are FALSE every weakening is decided FALSE, so the clauses after
the second FALSE one are not evaluated (``S``, skipped). Clauses
the checker leaves UNKNOWN for a reason the Python evaluator may overcome go to
the Python evaluator one clause at a time, at most ``python_checks`` of them per
call (a count, so the verdicts do not move with machine load). Rows after
``step_budget`` checker steps are not evaluated (None).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...runtime.limits import Limits
from .execute import ExecLimits, run_program
from .post2exe.build import compile_checker
from .post2exe.session import CheckerSession, sessions_enabled
from .post2exe.translate import Untranslatable, translate

__all__ = ["ClauseRun", "clause_vectors", "weakened_false"]

_CALL = 'verdict(o, "ensures", &['
_EACH = (
    "fn __vs_verdict_each(o: &mut String, clauses: &[(&str, &dyn Fn() -> Result<bool, E>)]) {\n"
    '    o.push_str("\\"each\\":[");\n'
    "    let mut falses = 0;\n"
    "    for (k, c) in clauses.iter().enumerate() {\n"
    "        if k > 0 { o.push(','); }\n"
    "        o.push('{');\n"
    '        if falses >= 2 { o.push_str("\\"c\\":\\"SKIP\\""); o.push(\'}\'); continue; }\n'
    "        let at = o.len();\n"
    '        verdict(o, "c", std::slice::from_ref(c));\n'
    '        if o[at..].starts_with("\\"c\\":\\"FALSE\\"") { falses += 1; }\n'
    "        o.push('}');\n"
    "    }\n"
    "    o.push(']');\n"
    "}\n"
)
_CHUNK = 16  # rows per checker process (the step budget and the stop are looked at between them)


@dataclass
class ClauseRun:
    clauses: list[str]  # the ensures clauses' texts, in order
    vectors: list[
        list[str] | None
    ]  # per case: "T" / "F" / "U" / "S" (skipped) per clause (None: not evaluated)
    steps: int = 0
    python_checks: int = 0
    source: str = "compiled"  # "compiled" | "python" (no compiled checker for this problem)
    stopped: int | None = None  # rows evaluated when every weakening was killed (``until_all_killed``)
    notes: list[str] = field(default_factory=list)


def weakened_false(vector: Sequence[str], dropped: int) -> bool:
    """Is the specification without clause ``dropped`` FALSE on a case with these clause verdicts?"""
    return any(v == "F" for j, v in enumerate(vector) if j != dropped)


def _each_source(te: Any) -> str | None:
    """The per-clause checker source for ``te``'s problem (None: outside the compiled fragment)."""
    p = te.problem
    if p.ref_signature.receiver or p.constructor is not None or "spec" in te.overrides:
        return None
    names = [q.name for q in p.ref_signature.params]
    try:
        ck = translate(p.spec, names, target=p.signature.name)
    except Untranslatable:
        return None
    if ck.source.count(_CALL) != 1:
        return None
    return ck.source.replace(_CALL, "__vs_verdict_each(o, &[", 1) + "\n" + _EACH


def clause_vectors(te: Any, pairs: Sequence[tuple[Mapping[str, Any], Any]], *, checker_fuel: int,
                   step_budget: int, python_checks: int, spec_limits: Limits | None = None,
                   seconds: float = 300.0, until_all_killed: bool = False) -> ClauseRun:  # fmt: skip
    """Clause vectors of (decoded inputs, decoded output) pairs (module docstring).

    ``until_all_killed``: stop after the first fixed chunk of rows by which every weakening has a
    FALSE case (the remaining rows are not evaluated: ``stopped`` rows were)."""
    spec = te.spec()
    if spec is None:
        return ClauseRun([], [None] * len(pairs), notes=["spec does not load"])
    clauses = [c.text for c in spec.ensures]
    run = ClauseRun(clauses, [None] * len(pairs))
    src = _each_source(te)
    binary = None
    if src is not None:
        comp = compile_checker(src, cache=te.engine.cache)
        binary = comp.binary if comp.ok else None
        if binary is None:
            run.notes.append("per-clause checker does not compile: " + (comp.errors.strip().splitlines() or [""])[0][:160])  # fmt: skip
    if binary is None:
        run.source = "python"
    else:
        chunks = _Chunks(binary, ExecLimits(case_seconds=seconds, memory_mb=4096), checker_fuel)
        killed: set[int] = set()
        for k in range(0, len(pairs), _CHUNK):
            if run.steps >= step_budget:
                break
            part = pairs[k : k + _CHUNK]
            lines = []
            for inputs, output in part:
                try:
                    obj = {"input": te._json_inputs(inputs), "output": te._json_output(output)}
                except (TypeError, KeyError, AttributeError):
                    obj = {"input": None}
                lines.append(json.dumps(obj, ensure_ascii=False))
            got = chunks.run(lines)
            for off in range(len(part)):
                vec = _parse(got[off]) if off < len(got) else None
                if vec is not None:
                    run.steps += vec[1]
                    if len(vec[0]) == len(clauses):
                        run.vectors[k + off] = vec[0]
                        for i in range(len(clauses)):
                            if i not in killed and weakened_false(vec[0], i):
                                killed.add(i)
            if until_all_killed and len(killed) == len(clauses):
                run.notes.append(f"every weakening killed within the first {k + len(part)} cases")
                run.stopped = k + len(part)
                break
        chunks.close()
    # the Python evaluator, one clause at a time, where the checker left a clause undecided for a reason
    # it may overcome (or where there is no checker); a count budget, in row order
    complete = src is not None and binary is not None and _complete(te)
    lim = spec_limits or te.engine.spec_limits
    for r, (inputs, output) in enumerate(pairs):
        vec = run.vectors[r]
        if vec is None and binary is not None:
            continue  # past the step budget or the stop, or the checker gave no answer: not evaluated
        if vec is not None and (complete or "U" not in vec or vec.count("F") >= 2):
            continue  # two FALSE clauses already decide every weakening
        vec = list(vec) if vec is not None else ["U"] * len(clauses)
        for j, c in enumerate(spec.ensures):
            if vec[j] != "U" or vec.count("F") >= 2:
                continue
            if run.python_checks >= python_checks:
                break
            run.python_checks += 1
            v = _python_clause(te, spec, c, inputs, output, lim)
            vec[j] = "T" if v.is_true else "F" if v.is_false else "U"
        run.vectors[r] = vec
    return run


class _Chunks:
    """Runs the per-clause checker on chunks of case lines: through one long-lived sandboxed process
    (``post2exe.session``; each line gets exactly one answer line) unless sessions are off, then a
    process per chunk. Either way a chunk past the backstop leaves its unanswered rows without a vector."""

    def __init__(self, binary: Any, limits: ExecLimits, fuel: int) -> None:
        self.binary, self.limits = binary, limits
        self.env = {"VERISCALE_POST2EXE_FUEL": str(fuel)}
        self.session = CheckerSession(binary, limits.memory_mb) if sessions_enabled() else None

    def run(self, lines: list[str]) -> list[str]:
        request = "\n".join(lines) + "\n"
        if self.session is None:
            return run_program(self.binary, request, self.limits, env=self.env).stdout.splitlines()
        got = self.session.ask(request.encode("utf-8"), self.limits.case_seconds, self.env, expect=len(lines))
        return [b.decode("utf-8", "replace") for b in got]

    def close(self) -> None:
        if self.session is not None:
            self.session.close()


def _complete(te: Any) -> bool:
    ck = te.compiled()
    return bool(ck is not None and ck.checker.complete)


def _parse(line: str) -> tuple[list[str], int] | None:
    try:
        d = json.loads(line)
    except ValueError:
        return None
    each = d.get("each") if isinstance(d, dict) else None
    if not isinstance(each, list):
        return None
    out = [{"TRUE": "T", "FALSE": "F", "SKIP": "S"}.get(str(c.get("c")), "U") for c in each]
    return out, sum(int(c.get("c_steps") or 0) for c in each) + int(d.get("requires_steps") or 0)


def _python_clause(
    te: Any, spec: Any, clause: Any, inputs: Mapping[str, Any], output: Any, lim: Limits
) -> Any:
    """The Python evaluator's verdict of one ``ensures`` clause (the engine's own binding of inputs)."""
    from .inplace import InPlaceOutput

    if isinstance(output, InPlaceOutput):  # final values keyed by the spec's parameter names
        ref = [p.name for p in te.problem.ref_signature.params]
        rename = dict(zip(ref, (n for n, _ in spec.params)))
        output = InPlaceOutput(output.ret, tuple((rename.get(n, n), v) for n, v in output.after))
    return spec._verdict([clause], te.spec_inputs(inputs), output, True, te.self_value(inputs), lim)
