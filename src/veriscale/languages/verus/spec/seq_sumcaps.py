"""Sequence binders of a ``forall`` whose consequent is a lower bound on their sum.

``forall|x: Seq<T>| A(x) ==> e <= sum(x)`` (also ``sum(x) >= e``, ``e < sum(x)``, ``sum(x) > e``) can
only be falsified by an ``x`` with ``A(x)`` and ``sum(x) <= c`` where ``c`` is ``e - 1`` (``e`` for the
strict forms): the negated consequent. When ``A`` gives every element a lower bound ``lo`` (the element
bounds) and the length a finite range, such an ``x`` of length ``n`` has every element in
``[lo, c - (n - 1) * lo]`` (the others are at least ``lo`` each) and sum at most ``c`` — a finite set,
enumerated completely (every possible counterexample is in it; the body is evaluated on each).
Example: lc135's "no distribution of candies uses fewer than ``result``". ``range_sum_targets`` also
lets ``seq_sums``' pinned-sum domain (``sum(x) == e``) use the range form.

``sum`` is a summing spec fn recognised by its body (``seq_sums``: ``sum(s)``, ``sum(s, s.len())``), or
the range form ``sum(s, start, end) = if start >= end { 0 } else { s[start] + sum(s, start + 1, end) }``
(either operand order, element cast to ``int`` allowed) called as ``sum(x, 0, x.len())``.

``bounded_sequences`` counts the set exactly (dynamic programming over the sum) before enumerating, so
a set above the caller's cap is refused (the binder keeps its other strategies) without work; the
enumeration is in lexicographic order per length, shortest first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from veriscale.values.types import TCon

from .ast import Binary, Call, Chain, Expr, If, Index, Lit, Path
from .bounds import _strip_int_cast, free_vars
from .seq_perms import _is_len
from .seq_shapes import _is_lit, _is_var
from .seq_sums import _summer_kind

__all__ = ["bounded_count", "bounded_sequences", "domain_for", "range_sum_targets", "sum_caps"]

FnOf = Callable[[Call], Any]


def _is_range_summer(fn: Any) -> bool:
    """``f(s, start, end) = if start >= end { 0 } else { s[start] + f(s, start + 1, end) }``."""
    if fn is None or fn.body is None or len(fn.params) != 3:
        return False
    (s, st), (a, _), (z, _) = fn.params
    if not (isinstance(st, TCon) and st.name in ("Seq", "Vec")):
        return False
    b = fn.body
    if not (isinstance(b, If) and b.else_ is not None and _is_lit(b.then, 0)):
        return False
    c = b.cond
    if not (
        isinstance(c, Chain) and len(c.ops) == 1
        and ((c.ops[0] == ">=" and _is_var(c.operands[0], a) and _is_var(c.operands[1], z))
             or (c.ops[0] == "<=" and _is_var(c.operands[0], z) and _is_var(c.operands[1], a)))
    ):  # fmt: skip
        return False
    e = b.else_
    if not (isinstance(e, Binary) and e.op == "+"):
        return False
    for elem, rec in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
        elem, rec = _strip_int_cast(elem), _strip_int_cast(rec)
        if not (isinstance(elem, Index) and _is_var(elem.obj, s) and _is_var(_strip_int_cast(elem.index), a)):
            continue
        if not (isinstance(rec, Call) and isinstance(rec.func, Path) and rec.func.name == fn.name):
            continue
        if len(rec.args) != 3 or not _is_var(rec.args[0], s) or not _is_var(rec.args[2], z):
            continue
        nxt = _strip_int_cast(rec.args[1])
        if (
            isinstance(nxt, Binary) and nxt.op == "+"
            and ((_is_var(nxt.lhs, a) and _is_lit(nxt.rhs, 1)) or (_is_var(nxt.rhs, a) and _is_lit(nxt.lhs, 1)))
        ):  # fmt: skip
            return True
    return False


def _is_whole_sum(call: Expr, x: str, fn_of: FnOf) -> bool:
    """Is ``call`` the sum of all elements of ``x`` through a recognised summing spec fn?"""
    call = _strip_int_cast(call)
    if not (isinstance(call, Call) and call.args and _is_var(call.args[0], x)):
        return False
    fn = fn_of(call)
    kind = _summer_kind(fn)
    if kind == "whole" and len(call.args) == 1:
        return True
    if kind == "prefix" and len(call.args) == 2 and _is_len(call.args[1], x):
        return True
    return (
        len(call.args) == 3
        and _is_lit(call.args[1], 0)
        and _is_len(_strip_int_cast(call.args[2]), x)
        and _is_range_summer(fn)
    )


def range_sum_targets(atoms: list[Expr], x: str, banned: set[str], fn_of: FnOf) -> list[Expr]:
    """Expressions ``e`` with a conjunct ``sum(x, 0, x.len()) == e`` (either side) through the range form of
    a summing spec fn (the forms ``seq_sums.sum_targets`` already finds are left to it)."""
    out: list[Expr] = []
    for a in atoms:
        if not (isinstance(a, Chain) and a.ops == ("==",)):
            continue
        for call, other in ((a.operands[0], a.operands[1]), (a.operands[1], a.operands[0])):
            call = _strip_int_cast(call)
            if isinstance(call, Call) and len(call.args) == 3 and _is_whole_sum(call, x, fn_of):
                if not (free_vars(other) & (banned | {x})):
                    out.append(other)
    return out


def sum_caps(neg: Expr | None, x: str, banned: set[str], fn_of: FnOf) -> list[Expr]:
    """``[c]`` when the negated consequent ``neg`` says ``sum(x) <= c`` (``c`` free of ``x`` and of later
    binders); else ``[]``."""
    if not (isinstance(neg, Chain) and len(neg.ops) == 1):
        return []
    op = neg.ops[0]
    a, b = neg.operands
    # normalise to "sum OP other"
    flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
    if _is_whole_sum(a, x, fn_of):
        other = b
    elif _is_whole_sum(b, x, fn_of) and op in flip:
        other, op = a, flip[op]
    else:
        return []
    if free_vars(other) & (banned | {x}):
        return []
    if op == "<=":
        return [other]
    if op == "<":
        return [Binary("-", other, Lit(1, "int"))]
    return []


def bounded_count(n: int, lo: int, hi: int, cap: int, limit: int) -> int | None:
    """Sequences of length ``n`` with elements in ``[lo, hi]`` and sum at most ``cap``; None above ``limit``."""
    room = cap - n * lo  # the sum of (element - lo) over the sequence is at most room
    if room < 0:
        return 0
    span = min(hi - lo, room)
    if span < 0:
        return 0
    ways = [1] + [0] * room  # ways[t]: prefixes whose shifted sum is t
    for _ in range(n):
        new = [0] * (room + 1)
        run = 0
        for t in range(room + 1):  # new[t] = sum(ways[t - span .. t])
            run += ways[t]
            if t - span - 1 >= 0:
                run -= ways[t - span - 1]
            new[t] = run
        ways = new
        if sum(ways) > limit:
            return None
    total = sum(ways)
    return None if total > limit else total


def bounded_sequences(n: int, lo: int, hi: int, cap: int) -> Iterator[tuple[int, ...]]:
    """The sequences ``bounded_count`` counts, in lexicographic order."""

    def rec(k: int, left: int) -> Iterator[tuple[int, ...]]:
        if k == 0:
            yield ()
            return
        for v in range(lo, min(hi, left - (k - 1) * lo) + 1):
            for rest in rec(k - 1, left - v):
                yield (v, *rest)

    if cap - n * lo >= 0:
        yield from rec(n, cap)


def domain_for(b: Any, env: dict[str, Any], limit: int) -> Iterator[tuple[int, ...]] | None:
    """The complete domain of the evaluator's sequence binder ``b`` (its ``sum_caps``, ``length`` and
    ``elem``) in ``env``; None when a range is not finite, an expression fails, or the set has more than
    ``limit`` sequences (the binder keeps its other strategies)."""
    from . import runtime as rt

    try:
        cap = b.sum_caps[0](env)
        len_lo, len_hi = b.length.concrete_range(env, (0, None))
        if isinstance(cap, bool) or not isinstance(cap, int):
            return None
        if not (isinstance(len_lo, int) and isinstance(len_hi, int)):
            return None
        base = b.elem.type_range()
        if base is None:
            return None
        plan: list[tuple[int, int, int]] = []
        total = 0
        for n in range(max(len_lo, 0), len_hi + 1):
            env2 = dict(env)
            env2[b.length.name] = n
            lo, hi = b.elem.concrete_range(env2, base)
            if not isinstance(lo, int):
                return None
            top = cap - (n - 1) * lo
            hi = top if hi is None else min(hi, top)
            count = bounded_count(n, lo, hi, cap, limit - total)
            if count is None:
                return None
            total += count
            plan.append((n, lo, hi))
    except rt.SpecError:
        return None

    def gen() -> Iterator[tuple[int, ...]]:
        for n, lo, hi in plan:
            yield from bounded_sequences(n, lo, hi, cap)

    return gen()
