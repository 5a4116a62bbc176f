"""Permutations stated through a counting spec fn: ``forall|v| count(x, v) == count(e, v)``.

Benchmarks often write "``x`` is a permutation of ``e``" with their own occurrence counter instead of
``to_multiset``. This module recognises the counter *by its body* — never by its name — in the two
textbook shapes (the argument names are the fn's own)::

    if s.len() == 0 { 0 } else { (if s.last() == v { 1 } else { 0 }) + count(s.drop_last(), v) }
    if s.len() == 0 { 0 } else { (if s[0] == v { 1 } else { 0 }) + count(s.subrange(1, s.len()), v) }

(either operand order of ``+`` and of ``==``; ``s.first()`` / ``s.skip(1)`` / ``s.drop_first()`` too).
Such a fn returns the number of occurrences of ``v`` in ``s``. When the quantified ``v`` ranges over
the element type of ``x`` (or over ``int``), equal counts for every ``v`` make ``x`` a rearrangement of
``e``: the evaluator may then enumerate only rearrangements of ``e``'s value (and, for an increasing
``x``, only the sorted one). Anything else is not recognised and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from veriscale.values.types import TCon, Type

from .ast import Binary, Call, Chain, Expr, If, Index, MethodCall, Path, Quant
from .bounds import _strip_int_cast, free_vars
from .seq_shapes import _is_lit, _is_var

__all__ = ["count_perm_sources"]

FnOf = Callable[[Call], Any]  # a call -> its spec fn (with .name, .params, .body) or None


def _elem_rest(elem: Expr, rest: Expr, s: str) -> bool:
    """Is (elem, rest) a matching (element, remainder) split of ``s``?"""
    elem = _strip_int_cast(elem)
    last = (
        isinstance(elem, MethodCall) and elem.name == "last" and not elem.args and _is_var(elem.recv, s)
    ) or (
        isinstance(elem, Index)
        and _is_var(elem.obj, s)
        and isinstance(elem.index, Binary)
        and elem.index.op == "-"
        and _is_lit(elem.index.rhs, 1)
        and _is_len(elem.index.lhs, s)
    )
    first = (
        isinstance(elem, MethodCall) and elem.name == "first" and not elem.args and _is_var(elem.recv, s)
    ) or (isinstance(elem, Index) and _is_var(elem.obj, s) and _is_lit(elem.index, 0))
    if not isinstance(rest, MethodCall) or not _is_var(rest.recv, s):
        return False
    if last:
        return (rest.name == "drop_last" and not rest.args) or (
            rest.name == "subrange"
            and len(rest.args) == 2
            and _is_lit(rest.args[0], 0)
            and isinstance(_strip_int_cast(rest.args[1]), Binary)
            and _strip_int_cast(rest.args[1]).op == "-"  # type: ignore[union-attr]
            and _is_len(_strip_int_cast(rest.args[1]).lhs, s)  # type: ignore[union-attr]
            and _is_lit(_strip_int_cast(rest.args[1]).rhs, 1)  # type: ignore[union-attr]
        )
    if first:
        return (
            (rest.name == "drop_first" and not rest.args)
            or (rest.name == "skip" and len(rest.args) == 1 and _is_lit(rest.args[0], 1))
            or (
                rest.name == "subrange"
                and len(rest.args) == 2
                and _is_lit(rest.args[0], 1)
                and _is_len(rest.args[1], s)
            )
        )
    return False


def _is_len(e: Expr, s: str) -> bool:
    e = _strip_int_cast(e)
    return isinstance(e, MethodCall) and e.name == "len" and not e.args and _is_var(e.recv, s)


def is_counter(fn: Any) -> bool:
    """Does spec fn ``fn(s: Seq<T>, v: T) -> int`` count the occurrences of ``v`` in ``s``?"""
    if fn is None or fn.body is None or len(fn.params) != 2:
        return False
    (s, st), (v, _vt) = fn.params
    if not (isinstance(st, TCon) and st.name in ("Seq", "Vec")):
        return False
    b = fn.body
    if not (isinstance(b, If) and b.else_ is not None and _is_lit(b.then, 0)):
        return False
    c = b.cond
    if not (
        isinstance(c, Chain) and c.ops == ("==",) and _is_len(c.operands[0], s) and _is_lit(c.operands[1], 0)
    ):
        return False
    e = b.else_
    if not (isinstance(e, Binary) and e.op == "+"):
        return False
    for ind, rec in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
        if not (
            isinstance(ind, If) and ind.else_ is not None and _is_lit(ind.then, 1) and _is_lit(ind.else_, 0)
        ):
            continue
        ic = ind.cond
        if not (isinstance(ic, Chain) and ic.ops == ("==",)):
            continue
        rec = _strip_int_cast(rec)
        if not (
            isinstance(rec, Call)
            and isinstance(rec.func, Path)
            and rec.func.name == fn.name
            and len(rec.args) == 2
            and _is_var(rec.args[1], v)
        ):
            continue
        for elem, other in ((ic.operands[0], ic.operands[1]), (ic.operands[1], ic.operands[0])):
            if _is_var(other, v) and _elem_rest(elem, rec.args[0], s):
                return True
    return False


def count_perm_sources(atoms: list[Expr], x: str, elem_t: Type, banned: set[str], fn_of: FnOf) -> list[Expr]:
    """Sequences ``e`` with a conjunct ``forall|v: T| count(x, v) == count(e, v)`` (either side)."""
    out: list[Expr] = []
    for a in atoms:
        if not (isinstance(a, Quant) and a.kind == "forall" and len(a.binders) == 1):
            continue
        v, vt = a.binders[0]
        if not (vt == elem_t or (isinstance(vt, TCon) and vt.name == "int" and not vt.args)):
            continue
        body = a.body
        if not (isinstance(body, Chain) and body.ops == ("==",)):
            continue
        calls = [_strip_int_cast(o) for o in body.operands]
        if not all(isinstance(c, Call) and len(c.args) == 2 and _is_var(c.args[1], v) for c in calls):
            continue
        f0, f1 = fn_of(calls[0]), fn_of(calls[1])  # type: ignore[arg-type]
        if f0 is None or f0 is not f1 or not is_counter(f0):
            continue
        s0, s1 = calls[0].args[0], calls[1].args[0]  # type: ignore[union-attr]
        for me, other in ((s0, s1), (s1, s0)):
            if _is_var(me, x) and not (free_vars(other) & (banned | {x, v})):
                out.append(other)
    return out
