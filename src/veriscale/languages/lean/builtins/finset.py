"""Mathlib's ``Finset``, represented canonically: a tuple of distinct elements in a fixed order.

A ``Finset α`` is a set; Lean's equality on it is extensional. Storing the elements deduplicated
and sorted by ``_key`` (a total order on the Python representation of one Lean type) makes
Python ``==`` that equality and makes every iteration (``∑``, ``∀ x ∈ s``) deterministic. No
operation exposes the order: ``Finset.toList`` is noncomputable in Lean and not provided.
"""

from __future__ import annotations

import math
from typing import Any

from veriscale.runtime import limits
from veriscale.values.runtime import Some

from .optional import define
from .support import bcontains, fn1

__all__ = ["canon"]


def _key(v: Any) -> Any:
    t = type(v)
    if t is bool:
        return (0, int(v))
    if t is int or t is float:
        return (1, v)
    if t is str:
        return (2, v)
    if t is tuple:
        return (3, tuple(_key(x) for x in v))
    if v is None:
        return (4,)
    if t is Some:
        return (5, _key(v.val))
    return (6, repr(v))


def canon(xs: Any) -> tuple:
    """The canonical Finset of the elements of ``xs`` (Lean ``==`` decides duplicates)."""
    out: list[Any] = []
    for x in xs:
        if not bcontains(out, x):
            out.append(x)
    out.sort(key=_key)
    return tuple(out)


@define("List.toFinset", "List α → Finset α", "l")
def list_to_finset(xs: tuple) -> tuple:
    return canon(xs)


@define("Finset.range", "Nat → Finset Nat", "n")
def frange(n: int) -> tuple:
    limits.current().check_size(n)
    return tuple(range(n))


def _divisors(n: int) -> tuple:
    """Mathlib's ``Nat.divisors n``: ``{d ∈ Ico 1 (n + 1) | d ∣ n}`` (so ``divisors 0 = ∅``), found by
    trial division up to ``√n`` (one step charged per trial)."""
    r = math.isqrt(n)
    limits.charge(r)
    small = [d for d in range(1, r + 1) if n % d == 0]
    return tuple(sorted({*small, *(n // d for d in small)}))


@define("Nat.divisors", "Nat → Finset Nat", "n")
def divisors(n: int) -> tuple:
    return _divisors(n)


@define("Nat.properDivisors", "Nat → Finset Nat", "n")
def proper_divisors(n: int) -> tuple:
    """``{d ∈ Ico 1 n | d ∣ n}``: the divisors without ``n`` itself."""
    return tuple(d for d in _divisors(n) if d < n)


def _interval(lo: Any, hi: Any, lo_open: bool, hi_open: bool) -> tuple:
    if type(lo) is not int or type(hi) is not int:
        raise TypeError("Finset intervals are supported on Nat and Int")
    a = lo + 1 if lo_open else lo
    b = hi if hi_open else hi + 1
    limits.current().check_size(max(0, b - a))
    return tuple(range(a, b))


@define("Finset.Icc", "α → α → Finset α", "a b")
def icc(a: Any, b: Any) -> tuple:
    return _interval(a, b, False, False)


@define("Finset.Ico", "α → α → Finset α", "a b")
def ico(a: Any, b: Any) -> tuple:
    return _interval(a, b, False, True)


@define("Finset.Ioc", "α → α → Finset α", "a b")
def ioc(a: Any, b: Any) -> tuple:
    return _interval(a, b, True, False)


@define("Finset.Ioo", "α → α → Finset α", "a b")
def ioo(a: Any, b: Any) -> tuple:
    return _interval(a, b, True, True)


@define("Finset.card", "Finset α → Nat", "s")
def card(s: tuple) -> int:
    return len(s)


@define("Finset.sum", "Finset α → (α → β) → β", "s f")
def fsum(s: tuple, f: Any) -> Any:
    """``∑ x ∈ s, f x`` (0 for the empty set)."""
    g = fn1(f)
    acc: Any = 0
    for x in s:
        acc = acc + g(x)
    return acc


@define("Finset.prod", "Finset α → (α → β) → β", "s f")
def fprod(s: tuple, f: Any) -> Any:
    """``∏ x ∈ s, f x`` (1 for the empty set)."""
    g = fn1(f)
    acc: Any = 1
    for x in s:
        acc = acc * g(x)
    return acc


@define("Finset.filter", "(α → Prop) → Finset α → Finset α", "p s")
def ffilter(p: Any, s: tuple) -> tuple:
    g = fn1(p)
    return tuple(x for x in s if g(x))


@define("Finset.image", "(α → β) → Finset α → Finset β", "f s")
def fimage(f: Any, s: tuple) -> tuple:
    g = fn1(f)
    return canon(g(x) for x in s)


@define("Finset.union", "Finset α → Finset α → Finset α", "s t")
def funion(s: tuple, t: tuple) -> tuple:
    return canon(s + t)


@define("Finset.inter", "Finset α → Finset α → Finset α", "s t")
def finter(s: tuple, t: tuple) -> tuple:
    return tuple(x for x in s if bcontains(t, x))


@define("Finset.sdiff", "Finset α → Finset α → Finset α", "s t")
def fsdiff(s: tuple, t: tuple) -> tuple:
    return tuple(x for x in s if not bcontains(t, x))


@define("Finset.Subset", "Finset α → Finset α → Prop", "s t")
def fsubset(s: tuple, t: tuple) -> bool:
    limits.charge(len(s) * len(t))  # the pairwise comparisons the registry does not see
    return all(bcontains(t, x) for x in s)


@define("Finset.Nonempty", "Finset α → Prop", "s")
def nonempty(s: tuple) -> bool:
    return bool(s)


@define("Finset.sup", "Finset α → (α → Nat) → Nat", "s f")
def fsup(s: tuple, f: Any) -> int:
    """``s.sup f`` on Nat-valued ``f`` (⊥ = 0)."""
    g = fn1(f)
    return max((g(x) for x in s), default=0)
