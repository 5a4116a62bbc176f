"""Precondition-guided classification of candidate inputs.

The ground-truth precondition decides: TRUE → expected input, FALSE →
unexpected input, UNKNOWN → excluded and counted by reason (an undecided
candidate is never guessed into either class).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...runtime.engine import TaskEngine
from .mutate import Candidate

__all__ = ["Classification", "classify"]


@dataclass
class Classification:
    expected: list[Candidate] = field(default_factory=list)
    unexpected: list[Candidate] = field(default_factory=list)
    excluded: Counter[str] = field(default_factory=Counter)
    # reason -> (candidate id, engine message) of the first few exclusions, for diagnosis
    examples: dict[str, list[list[str]]] = field(default_factory=dict)


def _note(out: Classification, reason: str, cand: Candidate, message: str, keep: int = 3) -> None:
    out.excluded[reason] += 1
    ex = out.examples.setdefault(reason, [])
    if len(ex) < keep:
        ex.append([cand.id, message[:300]])


def classify(engine: TaskEngine, candidates: Sequence[Candidate]) -> Classification:
    """Split ``candidates`` by the precondition's verdict, keeping their order."""
    out = Classification()
    verdicts = engine.preconditions([c.values for c in candidates])
    for cand, v in zip(candidates, verdicts, strict=True):
        if v.is_true:
            out.expected.append(cand)
        elif v.is_false:
            out.unexpected.append(cand)
        else:
            _note(out, f"precondition unknown: {v.category or 'undecided'}", cand, v.reason)
    return out
