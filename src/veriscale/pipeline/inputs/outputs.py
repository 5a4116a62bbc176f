"""Expected outputs: the ground-truth implementation run through the engine on expected inputs.

Only a value counts; an error, a timeout or an input the engine cannot run is
excluded and counted by reason. Outputs are stored as canonical dataset JSON
(``values.codec.to_json``) of the task's return type.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...runtime.engine import OutcomeKind, TaskEngine
from ...values import codec
from ...values.structs import StructInfo
from ...values.types import Type
from .mutate import Candidate

__all__ = ["ExpectedOutputs", "expected_outputs"]


@dataclass
class ExpectedOutputs:
    # (candidate, runtime output value, JSON output)
    cases: list[tuple[Candidate, Any, Any]] = field(default_factory=list)
    excluded: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[list[str]]] = field(default_factory=dict)
    # the most fuel one run that gave a value took (None: the engine does not meter fuel)
    max_fuel: int | None = None


def _note(out: ExpectedOutputs, reason: str, cand: Candidate, message: str, keep: int = 3) -> None:
    out.excluded[reason] += 1
    ex = out.examples.setdefault(reason, [])
    if len(ex) < keep:
        ex.append([cand.id, message[:300]])


def expected_outputs(
    engine: TaskEngine, ret: Type, candidates: Sequence[Candidate], structs: dict[str, StructInfo]
) -> ExpectedOutputs:
    """Run the implementation on every candidate, in order; keep the ones that produce a value."""
    out = ExpectedOutputs()
    if hasattr(engine, "fuel_spent"):
        outcomes, out.max_fuel = [], 0
        for c in candidates:
            before = engine.fuel_spent
            o = engine.run(c.values)
            outcomes.append(o)
            if o.kind is OutcomeKind.VALUE:
                out.max_fuel = max(out.max_fuel, engine.fuel_spent - before)
    else:
        outcomes = engine.runs([c.values for c in candidates])
    for cand, o in zip(candidates, outcomes, strict=True):
        if o.kind is OutcomeKind.VALUE:
            try:
                js = codec.to_json(ret, o.value, structs=structs)
            except Exception as exc:  # a value the codec cannot write is excluded, not stored wrongly
                _note(out, "output not encodable", cand, repr(exc))
                continue
            out.cases.append((cand, o.value, js))
        elif o.kind is OutcomeKind.TIMEOUT:
            _note(out, "run timeout", cand, o.reason)
        elif o.kind is OutcomeKind.ERROR:
            _note(out, f"run error: {o.category or 'error'}", cand, o.reason)
        else:
            _note(out, f"run unknown: {o.category or 'unknown'}", cand, o.reason)
    return out
