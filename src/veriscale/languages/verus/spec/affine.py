"""Affine stand-ins: one integer binder evaluated over a whole interval at once.

A scalar binder ``x`` whose range is unbounded, bounded on one side only, or too
large to enumerate is bound to ``Affine(cell, 1, 0)``, the value ``a*x + b`` with
``x`` ranging over the interval ``[cell.lo, cell.hi]`` (``None``: unbounded on that
side). The evaluator runs the quantifier's body once with this stand-in:

* ``+``, ``-`` (with integers or stand-ins of the same cell), ``*`` by an integer,
  unary ``-``, ``as int`` keep it affine (a result with ``a == 0`` is a plain int);
* a comparison with an integer (or a same-cell stand-in) is a predicate
  ``a*x + c <= 0`` on integers, monotone in ``x``: it is true on one side of a cut
  ``t`` and false on the other. If the interval lies on one side of ``t`` the
  comparison has that truth value for **every** ``x`` of the interval; otherwise the
  evaluation stops with ``Split(cell, t)`` and the caller evaluates ``[lo, t]`` and
  ``[t + 1, hi]`` separately (each with a fresh cell);
* ``/`` and ``%`` by an integer ``m`` that divides the coefficients of ``x`` are exact
  (the remainder is the constant ``b mod m``, the quotient affine); by one that does not,
  ``NeedsPeriod(m)`` (a ``NotAffine``: ``linrec.py`` retries on residue classes mod ``m``);
* anything else (another division, a product of two stand-ins, indexing, hashing, a truth
  value, another binder's stand-in) raises ``NotAffine``: the caller falls back to
  its previous strategy.

**Why a completed evaluation holds for the whole interval.** The evaluator is
deterministic; the only operations that observe the stand-in are the comparisons,
and each returned the same truth value for every ``x`` of the interval. So for each
concrete ``x`` of the interval, evaluating with ``x`` itself follows exactly the same
path (every branch, every short-circuit, every spec fn call with the corresponding
arguments) and ends with the same boolean; integers derived from ``x`` are the
stand-in's ``a*x + b`` at that ``x``. The pieces form a partition of the binder's
range, so ``forall``/``exists`` over the range is the conjunction/disjunction of the
pieces' results. The number of pieces is the number of cuts met (breakpoints of
piecewise-linear bodies such as ``|x - m|`` sums, ``min(a[i], x)`` sums, thresholds);
every piece costs fuel like any other evaluation, so a body that keeps cutting (e.g.
recursion on ``x``) ends on the step budget, UNKNOWN.

Memo keys: a stand-in is keyed by ``(cell identity, a, b)`` (the same function of the
same binder on the same piece); it refuses ``hash`` otherwise (``AffineUnhashable``, also a
``TypeError``), so tuples that contain one are not memoised and never enter sets or multisets.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from veriscale.values.rust_types import INT_RANGES

from .runtime import SpecError, Unspecified, ediv, emod

__all__ = [
    "Affine",
    "AffineUnhashable",
    "Cell",
    "NeedsPeriod",
    "NotAffine",
    "Split",
    "arith",
    "cast",
    "is_affine",
]


class NotAffine(SpecError):
    """The body used an affine stand-in outside the affine fragment."""

    category = "unsupported"


class AffineUnhashable(NotAffine, TypeError):
    """A stand-in was hashed (a set, a multiset, a memo key inside a tuple)."""


class NeedsPeriod(NotAffine):
    """``/`` or ``%`` by ``modulus`` of a stand-in whose coefficients it does not divide: not affine on
    the piece, but it would be on each residue class modulo ``modulus`` (``linrec.py`` retries so)."""

    def __init__(self, v: Affine, modulus: int) -> None:
        super().__init__(f"binder {v.cell.name} is divided by {modulus}, which does not divide it")
        self.modulus = modulus


class Split(Exception):  # a control-flow signal, never a SpecError: no instance loop may swallow it
    """A comparison is not uniform over the cell's interval: split it after ``t``."""

    def __init__(self, cell: Cell, t: int) -> None:
        super().__init__(f"split {cell.name} after {t}")
        self.cell = cell
        self.t = t


class Cell:
    """One piece of a binder's range: ``lo <= x <= hi`` (None: unbounded)."""

    __slots__ = ("hi", "lo", "name")

    def __init__(self, name: str, lo: int | None, hi: int | None) -> None:
        self.name = name
        self.lo = lo
        self.hi = hi


def _make(cell: Cell, a: Any, b: Any, q: Any = 0) -> Any:
    if a == 0 and q == 0:
        if isinstance(b, Fraction):  # an integer-valued polynomial's constant is an integer
            if b.denominator != 1:
                raise NotAffine(f"binder {cell.name}: a non-integer value")
            return int(b)
        return b
    return Affine(cell, a, b, q)


def _plain(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _le0(cell: Cell, a: Any, c: Any) -> bool:
    """Truth of ``a*x + c <= 0`` for every x of the cell (a != 0), or ``Split``.

    For a > 0 it holds exactly for ``x <= t = floor(-c / a)``; for a < 0 exactly for
    ``x >= ceil(c / -a)``, i.e. it fails exactly for ``x <= t = ceil(c / -a) - 1``. Either way
    the truth value is constant on ``x <= t`` and on ``x > t``. (Exact for rational a, c.)"""
    if a > 0:
        t = (-c) // a
    else:
        t = -((-c) // (-a)) - 1  # ceil(c / -a) - 1
    t = int(t)
    lo, hi = cell.lo, cell.hi
    if hi is not None and t >= hi:
        below = True  # the whole interval is x <= t
    elif lo is not None and t < lo:
        below = False
    else:
        raise Split(cell, t)
    return below if a > 0 else not below


def _quad_cuts(q: Any, a: Any, c: Any) -> list[int]:
    """Integers ``t`` such that ``q*x^2 + a*x + c <= 0`` may differ at ``t`` and ``t + 1`` (q != 0).

    A change between t and t + 1 needs a real root r in [t, t + 1), i.e. t == floor(r). With the
    coefficients scaled to integers A, B, C (positive factor), r = (-B ± sqrt(D)) / (2A) and
    s = isqrt(D) gives f = floor((-B ± s) / (2A)) within 1/2 of r, so floor(r) is one of f - 1, f,
    f + 1; the candidates f - 2 .. f + 1 cover it (and floor(r) - 1, for safety). Callers test each
    candidate exactly, so extra candidates cost nothing but a test."""
    scale = math.lcm(*(Fraction(v).denominator for v in (q, a, c)))
    big_a, big_b, big_c = (int(Fraction(v) * scale) for v in (q, a, c))
    disc = big_b * big_b - 4 * big_a * big_c
    if disc < 0:
        return []
    root = math.isqrt(disc)
    out: set[int] = set()
    for sign in (1, -1):
        f = (-big_b + sign * root) // (2 * big_a)
        out.update(range(f - 2, f + 2))
    return sorted(out)


def _le0_quad(cell: Cell, q: Any, a: Any, c: Any) -> bool:
    """Truth of ``q*x^2 + a*x + c <= 0`` for every x of the cell (q != 0), or ``Split`` at the first
    candidate cut (``_quad_cuts``) inside the cell where the truth value really changes. Without one
    the truth value is the same at every integer of the cell."""

    def holds(x: int) -> bool:
        return bool(q * x * x + a * x + c <= 0)

    lo, hi = cell.lo, cell.hi
    for t in _quad_cuts(q, a, c):
        if (lo is None or t >= lo) and (hi is None or t + 1 <= hi) and holds(t) != holds(t + 1):
            raise Split(cell, t)
    return holds(lo if lo is not None else hi if hi is not None else 0)


class Affine:
    """``q*x^2 + a*x + b`` for the binder of ``cell`` (a or q != 0): affine when ``q == 0``; a
    quadratic comes only from a product of two affine values (``x * (x - 1)``), rational coefficients
    only from an exact division by a constant (``x * (x - 1) / 2``), so every value is an integer."""

    __slots__ = ("a", "b", "cell", "q")

    def __init__(self, cell: Cell, a: Any, b: Any, q: Any = 0) -> None:
        self.cell = cell
        self.a = a
        self.b = b
        self.q = q

    def at(self, x: int) -> int:
        return int(self.q * x * x + self.a * x + self.b)

    # ---- the difference with another value, as (q, a, c): self - other = q*x^2 + a*x + c
    def _diff(self, other: Any) -> tuple[Any, Any, Any]:
        if _plain(other):
            return self.q, self.a, self.b - other
        if isinstance(other, Affine) and other.cell is self.cell:
            return self.q - other.q, self.a - other.a, self.b - other.b
        raise NotAffine(f"binder {self.cell.name} is compared with {_what(other)}")

    def _le(self, other: Any, strict: bool) -> bool:
        q, a, c = self._diff(other)
        if strict:
            c += 1  # integers: d < 0  <=>  d + 1 <= 0
        if q != 0:
            return _le0_quad(self.cell, q, a, c)
        if a == 0:
            return c <= 0
        return _le0(self.cell, a, c)

    def _ge(self, other: Any, strict: bool) -> bool:
        q, a, c = self._diff(other)
        if strict:
            c -= 1  # d > 0  <=>  -d + 1 <= 0
        if q != 0:
            return _le0_quad(self.cell, -q, -a, -c)
        if a == 0:
            return -c <= 0
        return _le0(self.cell, -a, -c)

    def __lt__(self, other: Any) -> bool:
        return self._le(other, True)

    def __le__(self, other: Any) -> bool:
        return self._le(other, False)

    def __gt__(self, other: Any) -> bool:
        return self._ge(other, True)

    def __ge__(self, other: Any) -> bool:
        return self._ge(other, False)

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        # d == 0  <=>  d <= 0 and d >= 0; each side is uniform or splits, so a uniform equality on an
        # interval of two or more values is False (an affine d with a != 0 is zero at most once)
        return self._le(other, False) and self._ge(other, False)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        raise AffineUnhashable(f"binder {self.cell.name} is hashed (a set, multiset or memo key)")

    def __bool__(self) -> bool:
        raise NotAffine(f"binder {self.cell.name} is used as a boolean")

    def __index__(self) -> int:
        raise NotAffine(f"binder {self.cell.name} is used as an index or count")

    __int__ = __index__

    # ---- arithmetic
    def __add__(self, other: Any) -> Any:
        if _plain(other):
            return Affine(self.cell, self.a, self.b + other, self.q)
        if isinstance(other, Affine) and other.cell is self.cell:
            return _make(self.cell, self.a + other.a, self.b + other.b, self.q + other.q)
        raise NotAffine(f"binder {self.cell.name} is added to {_what(other)}")

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        if _plain(other):
            return Affine(self.cell, self.a, self.b - other, self.q)
        if isinstance(other, Affine) and other.cell is self.cell:
            return _make(self.cell, self.a - other.a, self.b - other.b, self.q - other.q)
        raise NotAffine(f"{_what(other)} is subtracted from binder {self.cell.name}")

    def __rsub__(self, other: Any) -> Any:
        if _plain(other):
            return Affine(self.cell, -self.a, other - self.b, -self.q)
        raise NotAffine(f"binder {self.cell.name} is subtracted from {_what(other)}")

    def __neg__(self) -> Any:
        return Affine(self.cell, -self.a, -self.b, -self.q)

    def __mul__(self, other: Any) -> Any:
        if _plain(other):
            return _make(self.cell, self.a * other, self.b * other, self.q * other)
        if isinstance(other, Affine) and other.cell is self.cell and self.q == 0 and other.q == 0:
            # (a1 x + b1)(a2 x + b2): degree 2 at most
            return _make(self.cell, self.a * other.b + other.a * self.b, self.b * other.b, self.a * other.a)
        raise NotAffine(f"binder {self.cell.name} is multiplied by {_what(other)}")

    __rmul__ = __mul__

    def divide_exact(self, d: int) -> Any:
        """``self / d`` (Verus' Euclidean division) when ``d`` divides every value: the polynomial
        divided by d. With integer coefficients the remainder is periodic with period ``|d|``, so
        testing ``0 .. |d| - 1`` decides divisibility at every integer; else ``NotAffine``."""
        coeffs = (self.q, self.a, self.b)
        if d == 0 or abs(d) > 10_000 or not all(Fraction(v).denominator == 1 for v in coeffs):
            raise NotAffine(f"binder {self.cell.name} is divided by {d}")
        if any(self.at(r) % abs(d) for r in range(abs(d))):
            raise NotAffine(f"binder {self.cell.name}: division by {d} is not exact")
        return _make(self.cell, Fraction(self.a, d), Fraction(self.b, d), Fraction(self.q, d))

    def _refuse(self, *_: Any) -> Any:
        raise NotAffine(f"binder {self.cell.name} is used outside linear arithmetic")

    __floordiv__ = __rfloordiv__ = __truediv__ = __rtruediv__ = __mod__ = __rmod__ = _refuse
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = __lshift__ = __rshift__ = _refuse
    __rlshift__ = __rrshift__ = __pow__ = __rpow__ = __abs__ = __invert__ = _refuse
    __float__ = __complex__ = __round__ = __trunc__ = __floor__ = __ceil__ = _refuse

    def __repr__(self) -> str:
        x = self.cell.name
        return f"<{self.q}*{x}^2 + {self.a}*{x} + {self.b} on [{self.cell.lo}, {self.cell.hi}]>"


def _what(v: Any) -> str:
    if isinstance(v, Affine):
        return f"binder {v.cell.name} of another piece"
    return type(v).__name__


def is_affine(v: Any) -> bool:
    return v.__class__ is Affine


def arith(op: str, a: Any, b: Any) -> Any:
    """``a op b`` where at least one operand is a stand-in."""
    if op == "+":
        return a + b if is_affine(a) else b + a
    if op == "-":
        return a - b if is_affine(a) else b.__rsub__(a)
    if op == "*":
        return a * b if is_affine(a) else b * a
    if op in ("/", "%") and is_affine(a) and _plain(b):
        if b != 0 and all(_plain(v) for v in (a.q, a.a, a.b)) and a.q % b == 0 and a.a % b == 0:
            # b divides the variable part: a value is b * (integer) + a.b, so the remainder is the
            # constant a.b mod b and the Euclidean quotient is the variable part / b + a.b div b
            if op == "%":
                return emod(a.b, b)
            return _make(a.cell, a.a // b, ediv(a.b, b), a.q // b)
        try:
            q = a.divide_exact(b)
        except NotAffine:
            raise NeedsPeriod(a, b) from None
        return q if op == "/" else 0
    raise NotAffine(f"operator {op} on a binder stand-in")


def extreme(a: Any, b: Any, largest: bool) -> Any:
    """``max``/``min`` through one comparison (which may split)."""
    if largest:
        return a if a >= b else b
    return a if a <= b else b


def absolute(a: Any) -> Any:
    return a if a >= 0 else -a


def cast(v: Affine, target: str) -> Any:
    """``v as target``: ``int`` keeps it; ``nat`` and machine integers check the range by comparisons
    (which may split); out of range is unspecified, as for a plain value."""
    if target == "int":
        return v
    if target == "nat":
        if v >= 0:
            return v
        raise Unspecified(f"binder {v.cell.name}: negative value cast to nat")
    if target in INT_RANGES:
        lo, hi = INT_RANGES[target]
        if v >= lo and v <= hi:
            return v
        raise Unspecified(f"binder {v.cell.name}: value cast to {target} is out of range")
    raise NotAffine(f"binder {v.cell.name} is cast to {target}")
