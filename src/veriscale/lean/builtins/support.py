"""Small helpers shared by the builtin modules: calling Lean functions fast, BEq search, size guards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...values.runtime import Fn, call
from .. import limits
from .ops import beq

__all__ = [
    "SIZE_CHECK_FROM",
    "bcontains",
    "bcount",
    "bindex",
    "fn1",
    "fn2",
    "fn3",
    "guard_size",
    "hashable_scalars",
]

# Only values at least this large are charged against the size budget (the
# charge costs fuel, and small lists are the common case).
SIZE_CHECK_FROM = 10_000

_SCALAR = (int, str, bool)


def guard_size(n: int) -> None:
    """Refuse to build a value of ``n`` elements when that exceeds the budget."""
    if n >= SIZE_CHECK_FROM:
        limits.current().check_size(n)


def fn1(f: Any) -> Callable[[Any], Any]:
    """A Python callable applying the Lean function ``f`` to one argument."""
    if type(f) is Fn:
        if f.arity == 1:
            return f.fn
    elif callable(f):
        return f
    return lambda x: call(f, x)


def fn2(f: Any) -> Callable[[Any, Any], Any]:
    """A Python callable applying the (curried) Lean function ``f`` to two arguments."""
    if type(f) is Fn:
        if f.arity == 2:
            return f.fn
    elif callable(f):
        return f
    return lambda x, y: call(f, x, y)


def fn3(f: Any) -> Callable[[Any, Any, Any], Any]:
    if type(f) is Fn:
        if f.arity == 3:
            return f.fn
    elif callable(f):
        return f
    return lambda x, y, z: call(f, x, y, z)


def hashable_scalars(xs: Any) -> bool:
    """True when every element is an int/str/bool: Python ``==``/hashing then equal Lean's BEq."""
    return all(type(x) in _SCALAR for x in xs)


def bcontains(xs: Any, a: Any) -> bool:
    """``xs.contains a`` with Lean's ``==`` (IEEE on floats, also nested)."""
    if type(a) in _SCALAR:
        return a in xs
    return any(beq(a, x) for x in xs)


def bindex(xs: Any, a: Any) -> int:
    """Index of the first element ``== a``, or ``len(xs)``."""
    if type(a) in _SCALAR:
        try:
            return xs.index(a)
        except ValueError:
            return len(xs)
    for i, x in enumerate(xs):
        if beq(x, a):
            return i
    return len(xs)


def bcount(xs: Any, a: Any) -> int:
    if type(a) in _SCALAR:
        return xs.count(a)
    return sum(1 for x in xs if beq(x, a))
