"""Small helpers shared by the builtin modules: calling Lean functions fast, BEq search, size guards."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from veriscale.runtime import limits
from veriscale.values.runtime import Fn, Some, Struct, call

from .ops import beq

__all__ = [
    "SIZE_CHECK_FROM",
    "bcontains",
    "bcontains_indexed",
    "bcount",
    "bindex",
    "charged_parts",
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


def charged_parts(g: Any) -> tuple[Callable[..., Any], tuple[Any, ...], int] | None:
    """``(impl, pre, pre_n)`` when calling ``g(x)`` is calling a charging builtin wrapper (see
    ``registry._charging``) as ``wrapper(*pre, x)``: ``g`` is the wrapper itself or a
    ``functools.partial`` of it (an eta-reduced ``fun x => B c x``). ``pre_n`` is what the wrapper
    counts of ``pre`` (the lengths of its lists and strings), so a caller looping over many ``x``
    can charge ``pre_n + len x`` when above 16 and call ``impl`` itself: the same fuel at the same
    points, without a wrapper call per element. None otherwise."""
    pre: tuple[Any, ...] = ()
    if type(g) is functools.partial:
        if g.keywords:
            return None
        pre = g.args
        g = g.func
    impl = getattr(g, "charged_impl", None)
    if impl is None:
        return None
    pre_n = 0
    for a in pre:
        if type(a) is tuple or type(a) is str:
            pre_n += len(a)
    return impl, pre, pre_n


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
    if type(a) in _SCALAR or (type(xs) is tuple and _plain(a)):
        return a in xs
    return any(beq(a, x) for x in xs)


def _plain(a: Any) -> bool:
    """No Float anywhere inside ``a``: Python ``==`` against a value of its type is then Lean's BEq."""
    t = type(a)
    if t is int or t is str or t is bool or a is None:
        return True
    if t is tuple:
        for x in a:  # (scalars inline: this runs once per lookup of a searched list)
            tx = type(x)
            if not (tx is int or tx is str or tx is bool or _plain(x)):
                return False
        return True
    if t is Some:
        return _plain(a.val)
    if t is Struct:
        return all(_plain(v) for _, v in a.fields)
    return False


# A list searched this often within one evaluation is indexed (a set of its elements). Specs
# such as ``subseqsA.filter (fun l => subseqsB.contains l)`` search one huge list per element of
# another; the index turns that product into a sum.
_INDEX_FROM_LEN = 64
_INDEX_AFTER = 2
_INDEX_KEEP = 8


def _index(xs: tuple) -> frozenset[Any] | None:
    """The set of ``xs``'s elements once ``xs`` has been searched often enough, else None."""
    budget = limits.current()
    memo = budget.memo
    key = ("members", id(xs))
    entry = memo.get(key)
    if entry is None or entry[0] is not xs:  # the entry holds ``xs``, so its id is not reused
        if len(memo) >= _INDEX_KEEP:
            memo.pop(next(iter(memo)))
        memo[key] = [xs, 1, None]
        return None
    if entry[2] is None:
        entry[1] += 1
        if entry[1] < _INDEX_AFTER:
            return None
        budget.charge(len(xs))
        try:
            entry[2] = frozenset(xs)
        except TypeError:  # unhashable elements (functions): keep scanning
            entry[2] = False
    return entry[2] or None


def bcontains_indexed(xs: Any, a: Any) -> bool:
    """``bcontains`` that charges its own fuel: the length of a scan, or 1 for an indexed lookup."""
    if type(xs) is tuple and type(a) in _SCALAR and len(xs) < _INDEX_FROM_LEN:
        # (the hot case, e.g. a fold that keeps a short list of the elements seen: the same
        # charge and the same answer as the general path below, with fewer calls)
        n = len(xs)
        limits.charge(n if n > 16 else 1)
        return a in xs
    if type(xs) is tuple and len(xs) >= _INDEX_FROM_LEN and _plain(a):
        idx = _index(xs)
        if idx is not None:
            limits.charge(1)
            return a in idx
    limits.charge(len(xs) if len(xs) > 16 else 1)
    return bcontains(xs, a)


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
