"""Sequences pinned by their sum: ``sum(x) == e`` with positive elements (integer compositions).

A summing spec fn is recognised *by its body* in the textbook shapes (names are the fn's own)::

    if s.len() == 0 { 0 } else { s[0] + sum(s.subrange(1, s.len())) }      // or s.last() + sum(s.drop_last())
    if hi <= 0 { 0 } else { sum(s, hi - 1) + s[hi - 1] }                  // called as sum(x, x.len())

(either operand order of ``+``; casts of the element to ``int`` allowed). A conjunct
``sum(x) == e`` (either side) with ``e`` free of ``x`` and of later binders gives the binder a sum.

When every element is at least ``lo >= 1`` (from the element bounds), a sequence with sum ``e`` has at
most ``e / lo`` elements, each at most ``e``: its domain is the compositions of ``e`` into parts within
the element bounds — finite, and complete. ``compositions`` enumerates them in lexicographic order
after counting them exactly (dynamic programming), so a caller can refuse a domain above its cap
before enumerating anything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from veriscale.values.types import TCon

from .ast import Binary, Call, Chain, Expr, If, Index, Path
from .bounds import _strip_int_cast, free_vars
from .seq_perms import _elem_rest, _is_len
from .seq_shapes import _is_lit, _is_var

__all__ = ["composition_count", "compositions", "sum_targets"]

FnOf = Callable[[Call], Any]


def _summer_kind(fn: Any) -> str | None:
    """``"whole"`` for ``sum(s)``, ``"prefix"`` for ``sum(s, hi)`` (sum of ``s[0..hi]``), else None."""
    if fn is None or fn.body is None or not fn.params:
        return None
    s, st = fn.params[0]
    if not (isinstance(st, TCon) and st.name in ("Seq", "Vec")):
        return None
    b = fn.body
    if not (isinstance(b, If) and b.else_ is not None and _is_lit(b.then, 0)):
        return None
    e = b.else_
    if not (isinstance(e, Binary) and e.op == "+"):
        return None
    c = b.cond
    if len(fn.params) == 1:
        if not (
            isinstance(c, Chain)
            and c.ops == ("==",)
            and _is_len(c.operands[0], s)
            and _is_lit(c.operands[1], 0)
        ):
            return None
        for elem, rec in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            rec = _strip_int_cast(rec)
            if (
                isinstance(rec, Call)
                and isinstance(rec.func, Path)
                and rec.func.name == fn.name
                and len(rec.args) == 1
                and _elem_rest(elem, rec.args[0], s)
            ):
                return "whole"
        return None
    if len(fn.params) != 2:
        return None
    hi = fn.params[1][0]
    if not (
        isinstance(c, Chain)
        and c.ops in (("<=",), ("==",))
        and _is_var(c.operands[0], hi)
        and _is_lit(c.operands[1], 0)
    ):
        return None

    def minus_one(x: Expr) -> bool:
        x = _strip_int_cast(x)
        return isinstance(x, Binary) and x.op == "-" and _is_var(x.lhs, hi) and _is_lit(x.rhs, 1)

    for elem, rec in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
        rec, elem = _strip_int_cast(rec), _strip_int_cast(elem)
        if (
            isinstance(rec, Call)
            and isinstance(rec.func, Path)
            and rec.func.name == fn.name
            and len(rec.args) == 2
            and _is_var(rec.args[0], s)
            and minus_one(rec.args[1])
            and isinstance(elem, Index)
            and _is_var(elem.obj, s)
            and minus_one(elem.index)
        ):
            return "prefix"
    return None


def sum_targets(atoms: list[Expr], x: str, banned: set[str], fn_of: FnOf) -> list[Expr]:
    """Expressions ``e`` with a conjunct ``sum(x) == e`` (or ``sum(x, x.len()) == e``)."""
    out: list[Expr] = []
    for a in atoms:
        if not (isinstance(a, Chain) and a.ops == ("==",)):
            continue
        for call, other in ((a.operands[0], a.operands[1]), (a.operands[1], a.operands[0])):
            call = _strip_int_cast(call)
            if not (isinstance(call, Call) and call.args and _is_var(call.args[0], x)):
                continue
            kind = _summer_kind(fn_of(call))
            if (kind == "whole" and len(call.args) == 1) or (
                kind == "prefix" and len(call.args) == 2 and _is_len(call.args[1], x)
            ):
                if not (free_vars(other) & (banned | {x})):
                    out.append(other)
    return out


def composition_count(total: int, lo: int, hi: int, len_lo: int, len_hi: int | None, cap: int) -> int | None:
    """Number of sequences with elements in ``[lo, hi]`` (``lo >= 1``) summing to ``total`` with a length in
    ``[len_lo, len_hi]``; None when above ``cap``."""
    if total < 0:
        return 0
    max_len = total // lo if len_hi is None else min(len_hi, total // lo)
    # ways[t] for the current length: sequences of that length summing to t
    ways = [1] + [0] * total
    count = 1 if (len_lo <= 0 and total == 0) else 0
    for n in range(1, max_len + 1):
        new = [0] * (total + 1)
        for t in range(total + 1):
            if ways[t]:
                for v in range(lo, min(hi, total - t) + 1):
                    new[t + v] += ways[t]
        ways = new
        if n >= len_lo:
            count += ways[total]
            if count > cap:
                return None
    return count


def compositions(total: int, lo: int, hi: int, len_lo: int, len_hi: int | None) -> Iterator[tuple[int, ...]]:
    """The sequences ``composition_count`` counts, shortest first, each length in lexicographic order."""
    max_len = total // lo if len_hi is None else min(len_hi, total // lo)

    def rec(n: int, left: int) -> Iterator[tuple[int, ...]]:
        if n == 0:
            if left == 0:
                yield ()
            return
        for v in range(lo, min(hi, left) + 1):
            if (n - 1) * lo <= left - v <= (n - 1) * hi:
                for rest in rec(n - 1, left - v):
                    yield (v, *rest)

    for n in range(max(len_lo, 0), max_len + 1):
        yield from rec(n, total)
