"""Direct mutation of an output value by its type (tops up rows with too few unexpected outputs)."""

from __future__ import annotations

from typing import Any

from ...values.runtime import Some, default_value
from ...values.types import TCon, Type

__all__ = ["output_mutations"]

_DELTAS = (1, -1, 2, -2, 5, -5, 10, -10, 100, -100)
_UINT_BITS = {"UInt8": 8, "UInt16": 16, "UInt32": 32, "UInt64": 64}


def _ints(v: int, lo: int | None, hi: int | None) -> list[int]:
    cands = [v + d for d in _DELTAS] + [-v, 0, 2 * v, v // 2]
    return [c for c in cands if (lo is None or c >= lo) and (hi is None or c <= hi)]


def output_mutations(t: Type, v: Any, depth: int = 0) -> list[Any]:
    """Values of type ``t`` near ``v`` (may include ``v`` itself; callers compare canonically)."""
    if not isinstance(t, TCon) or depth > 2:
        return []
    n = t.name
    if n == "Int" and isinstance(v, int):
        return _ints(v, None, None)
    if n == "Nat" and isinstance(v, int):
        return _ints(v, 0, None)
    if n in _UINT_BITS and isinstance(v, int):
        return _ints(v, 0, 2 ** _UINT_BITS[n] - 1)
    if n == "Bool" and isinstance(v, bool):
        return [not v]
    if n == "Float" and isinstance(v, float):
        return [v + 1.0, v - 1.0, -v, 0.0, 2 * v, v / 2]
    if n == "Char" and isinstance(v, str) and len(v) == 1:
        return [chr(ord(v) + 1) if ord(v) < 0x10FFFF else "a", "a" if v != "a" else "b"]
    if n == "String" and isinstance(v, str):
        out = [v + "a", "a" + v, v[1:], v[:-1], v[::-1], "", v.upper(), v + v]
        if len(v) > 1:
            out.append(v[1] + v[0] + v[2:])
        return out
    if n in ("List", "Array") and isinstance(v, tuple) and t.args:
        el = t.args[0]
        out: list[Any] = [(), v[1:], v[:-1], v[::-1], v + v]
        try:
            out.append(tuple(sorted(v)))
        except TypeError:
            pass
        try:
            d = default_value(el)
            out += [(d, *v), (*v, d)]
        except Exception:  # a type without a known default
            pass
        if len(v) > 1:
            out.append((v[1], v[0], *v[2:]))
        if v:
            out += [(e, *v[1:]) for e in output_mutations(el, v[0], depth + 1)[:3]]
            out += [(*v[:-1], e) for e in output_mutations(el, v[-1], depth + 1)[:3]]
        return out
    if n == "Option" and t.args:
        if v is None:
            try:
                return [Some(default_value(t.args[0]))]
            except Exception:
                return []
        return [None] + [Some(e) for e in output_mutations(t.args[0], v.val, depth + 1)[:4]]
    if n == "Prod" and len(t.args) == 2 and isinstance(v, tuple) and len(v) == 2:
        a, b = t.args
        out = [(e, v[1]) for e in output_mutations(a, v[0], depth + 1)[:4]]
        out += [(v[0], e) for e in output_mutations(b, v[1], depth + 1)[:4]]
        if a == b:
            out.append((v[1], v[0]))
        return out
    return []
