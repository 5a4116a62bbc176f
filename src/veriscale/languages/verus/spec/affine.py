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
* anything else (division, a product of two stand-ins, indexing, hashing, a truth
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

from typing import Any

from veriscale.values.rust_types import INT_RANGES

from .runtime import SpecError, Unspecified

__all__ = ["Affine", "AffineUnhashable", "Cell", "NotAffine", "Split", "arith", "cast", "is_affine"]


class NotAffine(SpecError):
    """The body used an affine stand-in outside the affine fragment."""

    category = "unsupported"


class AffineUnhashable(NotAffine, TypeError):
    """A stand-in was hashed (a set, a multiset, a memo key inside a tuple)."""


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


def _make(cell: Cell, a: int, b: int) -> Any:
    return b if a == 0 else Affine(cell, a, b)


def _plain(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _le0(cell: Cell, a: int, c: int) -> bool:
    """Truth of ``a*x + c <= 0`` for every x of the cell (a != 0), or ``Split``.

    For a > 0 it holds exactly for ``x <= t = floor(-c / a)``; for a < 0 exactly for
    ``x >= ceil(c / -a)``, i.e. it fails exactly for ``x <= t = ceil(c / -a) - 1``. Either way
    the truth value is constant on ``x <= t`` and on ``x > t``."""
    if a > 0:
        t = (-c) // a
    else:
        t = -((-c) // (-a)) - 1  # ceil(c / -a) - 1
    lo, hi = cell.lo, cell.hi
    if hi is not None and t >= hi:
        below = True  # the whole interval is x <= t
    elif lo is not None and t < lo:
        below = False
    else:
        raise Split(cell, t)
    return below if a > 0 else not below


class Affine:
    """``a*x + b`` for the binder of ``cell`` (a != 0)."""

    __slots__ = ("a", "b", "cell")

    def __init__(self, cell: Cell, a: int, b: int) -> None:
        self.cell = cell
        self.a = a
        self.b = b

    # ---- the difference with another value, as (a, c): self - other = a*x + c
    def _diff(self, other: Any) -> tuple[int, int]:
        if _plain(other):
            return self.a, self.b - other
        if isinstance(other, Affine) and other.cell is self.cell:
            return self.a - other.a, self.b - other.b
        raise NotAffine(f"binder {self.cell.name} is compared with {_what(other)}")

    def _le(self, other: Any, strict: bool) -> bool:
        a, c = self._diff(other)
        if strict:
            c += 1  # integers: d < 0  <=>  d + 1 <= 0
        if a == 0:
            return c <= 0
        return _le0(self.cell, a, c)

    def _ge(self, other: Any, strict: bool) -> bool:
        a, c = self._diff(other)
        if strict:
            c -= 1  # d > 0  <=>  -d + 1 <= 0
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
            return Affine(self.cell, self.a, self.b + other)
        if isinstance(other, Affine) and other.cell is self.cell:
            return _make(self.cell, self.a + other.a, self.b + other.b)
        raise NotAffine(f"binder {self.cell.name} is added to {_what(other)}")

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        if _plain(other):
            return Affine(self.cell, self.a, self.b - other)
        if isinstance(other, Affine) and other.cell is self.cell:
            return _make(self.cell, self.a - other.a, self.b - other.b)
        raise NotAffine(f"{_what(other)} is subtracted from binder {self.cell.name}")

    def __rsub__(self, other: Any) -> Any:
        if _plain(other):
            return Affine(self.cell, -self.a, other - self.b)
        raise NotAffine(f"binder {self.cell.name} is subtracted from {_what(other)}")

    def __neg__(self) -> Any:
        return Affine(self.cell, -self.a, -self.b)

    def __mul__(self, other: Any) -> Any:
        if _plain(other):
            return _make(self.cell, self.a * other, self.b * other)
        raise NotAffine(f"binder {self.cell.name} is multiplied by {_what(other)}")

    __rmul__ = __mul__

    def _refuse(self, *_: Any) -> Any:
        raise NotAffine(f"binder {self.cell.name} is used outside linear arithmetic")

    __floordiv__ = __rfloordiv__ = __truediv__ = __rtruediv__ = __mod__ = __rmod__ = _refuse
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = __lshift__ = __rshift__ = _refuse
    __rlshift__ = __rrshift__ = __pow__ = __rpow__ = __abs__ = __invert__ = _refuse
    __float__ = __complex__ = __round__ = __trunc__ = __floor__ = __ceil__ = _refuse

    def __repr__(self) -> str:
        return f"<{self.a}*{self.cell.name}{self.b:+d} on [{self.cell.lo}, {self.cell.hi}]>"


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
