"""Compiled checker vs the Python evaluator on the same cases.

``example_cases(problem, te)`` runs the reference on the description's
examples (LeetCode; Codeforces: the function-level calls its program made)
and returns ``(inputs, output)`` pairs; ``mutated_outputs`` derives a
deterministic sample of wrong outputs from them (integers ±1, a sequence
with one element changed, shortened or reversed, a negated boolean) so both
evaluators also meet FALSE cases. ``crosscheck(problem, te, cases)`` evaluates
``requires`` and ``ensures`` on every case with both and returns one
``Agreement`` per (case, clause kind).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from veriscale.runtime.engine import OutcomeKind, Verdict
from veriscale.values import rust_codec
from veriscale.values.codec import DecodeError
from veriscale.values.runtime import Some

from ..inplace import InPlaceOutput
from .checker import CompiledChecker, build_checker

__all__ = ["Agreement", "crosscheck", "example_cases", "mutated_outputs"]


@dataclass(frozen=True)
class Agreement:
    case: int
    kind: str  # "requires" or "ensures"
    python: Verdict
    compiled: Verdict

    @property
    def both_decided(self) -> bool:
        return not self.python.is_unknown and not self.compiled.is_unknown

    @property
    def disagree(self) -> bool:
        return self.both_decided and self.python.truth != self.compiled.truth


def example_cases(problem: Any, te: Any) -> list[tuple[dict[str, Any], Any]]:
    """Function-level (inputs, reference output) pairs of the description's examples."""
    pairs: list[tuple[dict[str, Any], Any]] = []
    if problem.is_codeforces:
        params = problem.ref_signature.params
        for ex in problem.examples:
            if ex.error:
                continue
            for call in te.runner.run_stdin(ex.stdin).calls:
                args = call.get("args")
                if not isinstance(args, list) or len(args) != len(params):
                    continue
                try:
                    inputs = {p.name: rust_codec.decode(p.value_type, a, structs=problem.structs)
                              for p, a in zip(params, args)}  # fmt: skip
                    pairs.append((inputs, te.decode_output(call.get("ret"))))
                except DecodeError:
                    continue
        return pairs
    rows = []
    for ex in problem.examples:
        if ex.inputs is None:
            continue
        try:
            rows.append(te.decode_inputs(ex.inputs))
        except DecodeError:
            continue
    for inputs, out in zip(rows, te.runs(rows)):
        if out.kind is OutcomeKind.VALUE:
            pairs.append((inputs, out.value))
    return pairs


def _mutate(v: Any) -> list[Any]:
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        return [v + 1, v - 1]
    if isinstance(v, str) and len(v) == 1:
        return [chr(ord(v) + 1)] if ord(v) < 0x10FFFF else []
    if isinstance(v, str):
        return [v + "a", v[:-1]] if v else ["a"]
    if isinstance(v, Some):
        return [None, *(Some(x) for x in _mutate(v.val)[:1])]
    if v is None:
        return []
    if isinstance(v, tuple):
        out: list[Any] = []
        if v:
            out.append(v[:-1])
            first = _mutate(v[0])
            if first:
                out.append((first[0], *v[1:]))
            if len(v) > 1 and v[::-1] != v:
                out.append(v[::-1])
        return out
    if isinstance(v, InPlaceOutput):
        res = [InPlaceOutput(r, v.after) for r in _mutate(v.ret)[:1]]
        for k, (n, x) in enumerate(v.after):
            for y in _mutate(x)[:2]:
                after = list(v.after)
                after[k] = (n, y)
                res.append(InPlaceOutput(v.ret, tuple(after)))
        return res
    return []


def mutated_outputs(cases: Sequence[tuple[dict[str, Any], Any]], per_case: int = 3
                    ) -> list[tuple[dict[str, Any], Any]]:  # fmt: skip
    """A deterministic sample of wrong-looking outputs (some may still be valid answers)."""
    out: list[tuple[dict[str, Any], Any]] = []
    for inputs, value in cases:
        for m in _mutate(value)[:per_case]:
            out.append((inputs, m))
    return out


def crosscheck(problem: Any, te: Any, cases: Sequence[tuple[dict[str, Any], Any]],
               checker: CompiledChecker | None = None) -> list[Agreement]:  # fmt: skip
    """Both evaluators on every case (the engine ``te`` must have ``post2exe`` off)."""
    ck = checker if checker is not None else build_checker(problem, te.engine.cache)
    if ck is None or not ck.ok:
        return []
    rows: list[tuple[dict[str, Any], Any]] = []
    keep: list[int] = []
    for k, (inputs, output) in enumerate(cases):
        try:
            rows.append((te._json_inputs(inputs), te._json_output(output)))
            keep.append(k)
        except (TypeError, KeyError, AttributeError, ValueError):
            continue
    got = ck.check(rows)
    res: list[Agreement] = []
    for k, (req_c, ens_c) in zip(keep, got):
        inputs, output = cases[k]
        res.append(Agreement(k, "requires", te.precondition(inputs), req_c))
        if ens_c is not None:
            res.append(Agreement(k, "ensures", te.postcondition(inputs, output), ens_c))
    return res
