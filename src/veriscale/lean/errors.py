"""Exceptions of the Lean-fragment engine.

Every failure of parsing, elaboration or evaluation is one of these; the
engine turns them into UNKNOWN/ERROR/TIMEOUT outcomes with a reason, so no
untrusted input can crash a run.
"""

from __future__ import annotations


class LeanError(Exception):
    """Base class; ``pos`` is (line, column) in the source when known."""

    def __init__(self, msg: str, pos: tuple[int, int] | None = None) -> None:
        super().__init__(msg)
        self.msg = msg
        self.pos = pos

    def __str__(self) -> str:
        if self.pos and self.pos != (0, 0):
            return f"{self.msg} (at line {self.pos[0]}, column {self.pos[1]})"
        return self.msg


class LeanParseError(LeanError):
    """The source is not in the fragment's grammar (or not Lean at all)."""


class Unsupported(LeanError):
    """A construct or library function the engine does not implement."""


class ElabError(LeanError):
    """A type error, unknown identifier or ambiguity found before evaluation."""


class EvalError(LeanError):
    """A runtime fault that Lean itself would report as an error (not a panic)."""


class LimitExceeded(LeanError):
    """Fuel, wall-clock, recursion depth or value size budget exhausted.

    ``kind`` is "fuel", "time", "depth" or "size".
    """

    def __init__(self, kind: str, msg: str = "") -> None:
        super().__init__(msg or f"{kind} limit exceeded")
        self.kind = kind


class Undecided(LeanError):
    """A proposition the engine could not decide soundly (e.g. an unbounded ∀ over Int
    for which a randomized search found no counterexample). Maps to UNKNOWN."""


class InternalError(LeanError):
    """An unexpected Python exception inside the engine: an engine bug, never a verdict on
    the Lean code (Lean itself has no such runtime errors). Maps to UNKNOWN."""
