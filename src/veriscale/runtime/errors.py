"""Failures shared by every engine: the base class and the exhausted-budget error.

Front ends derive their own errors from ``EngineError``; ``LimitExceeded`` lives
here because the budgets (``runtime.limits``) raise it for every language.
"""

from __future__ import annotations

__all__ = ["EngineError", "LimitExceeded"]


class EngineError(Exception):
    """Base class; ``pos`` is (line, column) in the source when known."""

    def __init__(self, msg: str, pos: tuple[int, int] | None = None) -> None:
        super().__init__(msg)
        self.msg = msg
        self.pos = pos

    def __str__(self) -> str:
        if self.pos and self.pos != (0, 0):
            return f"{self.msg} (at line {self.pos[0]}, column {self.pos[1]})"
        return self.msg


class LimitExceeded(EngineError):
    """Fuel, wall-clock, recursion depth or value size budget exhausted.

    ``kind`` is "fuel", "time", "depth" or "size".
    """

    def __init__(self, kind: str, msg: str = "") -> None:
        super().__init__(msg or f"{kind} limit exceeded")
        self.kind = kind
