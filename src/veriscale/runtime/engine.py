"""The engine interface: what the pipeline and the evaluators may ask of an engine.

An engine executes a task's precondition, implementation and postcondition on
decoded input values (``values.runtime`` representation). Any of the three may
be replaced by candidate text (a model's output). Answers are never guesses:
a check that cannot be decided is ``UNKNOWN`` with a reason.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["Engine", "Outcome", "OutcomeKind", "TaskEngine", "Truth", "Verdict"]


class Truth(enum.Enum):
    TRUE = "TRUE"
    FALSE = "FALSE"
    UNKNOWN = "UNKNOWN"


@dataclass(frozen=True, slots=True)
class Verdict:
    truth: Truth
    reason: str = ""
    # "unsupported", "parse", "elab", "timeout", "error", "undecided" for UNKNOWN verdicts
    category: str = ""

    @classmethod
    def of(cls, b: bool) -> Verdict:
        return _TRUE if b else _FALSE

    @classmethod
    def unknown(cls, reason: str, category: str = "") -> Verdict:
        return cls(Truth.UNKNOWN, reason, category)

    @property
    def is_true(self) -> bool:
        return self.truth is Truth.TRUE

    @property
    def is_false(self) -> bool:
        return self.truth is Truth.FALSE

    @property
    def is_unknown(self) -> bool:
        return self.truth is Truth.UNKNOWN


_TRUE = Verdict(Truth.TRUE)
_FALSE = Verdict(Truth.FALSE)


class OutcomeKind(enum.Enum):
    VALUE = "value"
    ERROR = "error"  # runtime fault Lean itself would report, or a static error in the code
    TIMEOUT = "timeout"
    UNKNOWN = "unknown"  # the engine cannot run this code (unsupported construct, …)


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: OutcomeKind
    value: Any = None
    reason: str = ""
    category: str = ""

    @property
    def ok(self) -> bool:
        return self.kind is OutcomeKind.VALUE


class TaskEngine(Protocol):
    """An engine bound to one task (and optional candidate parts)."""

    def precondition(self, inputs: Mapping[str, Any]) -> Verdict: ...

    def run(self, inputs: Mapping[str, Any]) -> Outcome: ...

    def postcondition(self, inputs: Mapping[str, Any], output: Any) -> Verdict: ...

    # Batched forms; engines that start processes override these to batch per task.
    def preconditions(self, rows: Sequence[Mapping[str, Any]]) -> list[Verdict]: ...

    def runs(self, rows: Sequence[Mapping[str, Any]]) -> list[Outcome]: ...

    def postconditions(self, pairs: Sequence[tuple[Mapping[str, Any], Any]]) -> list[Verdict]: ...


class Engine(Protocol):
    name: str

    def for_task(self, task: Any, overrides: Mapping[str, str] | None = None) -> TaskEngine:
        """Bind to ``task`` (a ``benchmarks.verina.Task``); ``overrides`` maps section names
        ("precond", "code", "postcond", or their ``*_aux``) to candidate text."""
        ...
