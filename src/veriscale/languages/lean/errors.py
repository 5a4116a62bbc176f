"""Exceptions of the Lean-fragment engine.

Every failure of parsing, elaboration or evaluation is one of these; the
engine turns them into UNKNOWN/ERROR/TIMEOUT outcomes with a reason, so no
untrusted input can crash a run.
"""

from __future__ import annotations

from ...runtime.errors import EngineError, LimitExceeded

__all__ = [
    "ElabError",
    "EvalError",
    "InternalError",
    "LeanError",
    "LeanParseError",
    "LimitExceeded",
    "Undecided",
    "Unsupported",
]


# Every engine failure is a LeanError here, including the shared LimitExceeded.
LeanError = EngineError


class LeanParseError(LeanError):
    """The source is not in the fragment's grammar (or not Lean at all)."""


class Unsupported(LeanError):
    """A construct or library function the engine does not implement."""


class ElabError(LeanError):
    """A type error, unknown identifier or ambiguity found before evaluation."""


class EvalError(LeanError):
    """A runtime fault that Lean itself would report as an error (not a panic)."""


class Undecided(LeanError):
    """A proposition the engine could not decide soundly (e.g. an unbounded ∀ over Int
    for which a randomized search found no counterexample). Maps to UNKNOWN."""


class InternalError(LeanError):
    """An unexpected Python exception inside the engine: an engine bug, never a verdict on
    the Lean code (Lean itself has no such runtime errors). Maps to UNKNOWN."""
