"""Comparing an engine's output with a stored expected output."""

from __future__ import annotations

import math
from typing import Any

from ...values.runtime import HMap, HSet, Some, Struct
from ...values.types import TCon, Type

__all__ = ["outputs_match"]


def _float_text(x: float) -> str:
    # Stored Float outputs were printed by Lean with six decimals; compare at that precision.
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.6f}"


def outputs_match(t: Type, got: Any, expected: Any) -> bool:
    """Lean ``==`` on the value, except that Floats match when Lean prints them alike."""
    if not _has_float(t):
        return bool(got == expected)
    return _match(t, got, expected)


def _has_float(t: Type) -> bool:
    if isinstance(t, TCon):
        return t.name == "Float" or any(_has_float(a) for a in t.args)
    return False


def _match(t: Type, a: Any, b: Any) -> bool:
    if not isinstance(t, TCon):
        return bool(a == b)
    if t.name == "Float":
        return isinstance(a, float) and isinstance(b, float) and _float_text(a) == _float_text(b)
    if t.name in ("List", "Array"):
        return len(a) == len(b) and all(_match(t.args[0], x, y) for x, y in zip(a, b))
    if t.name == "Prod":
        return _match(t.args[0], a[0], b[0]) and _match(t.args[1], a[1], b[1])
    if t.name == "Option":
        if a is None or b is None:
            return a is None and b is None
        assert isinstance(a, Some) and isinstance(b, Some)
        return _match(t.args[0], a.val, b.val)
    if isinstance(a, (HMap, HSet, Struct)):
        return bool(a == b)
    return bool(a == b)
