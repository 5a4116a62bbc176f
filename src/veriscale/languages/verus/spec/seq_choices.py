"""Sequence binders whose every element is one of a few values given per index.

A conjunct ``forall|i| 0 <= i < x.len() ==> C`` (or ``0 <= i < e`` where another conjunct says
``x.len() == e`` / ``<= e`` / ``< e``: the guard still covers every index) whose consequent ``C`` — boolean
spec fns inlined, conjunctions split — has a conjunct that is a disjunction of equalities
``x[i] == e1 || x[i] == e2 || …`` (either side, casts to ``int`` stripped; every ``ek`` free of ``x``
and of later binders, possibly mentioning ``i``) says: element ``i`` of ``x`` is one of
``e1(i), e2(i), …``. With a finite length range, ``x`` then ranges over the product of these per-index
sets — a complete domain (every sequence the body can accept is in it), enumerated when its size is
at most the caller's cap. Example: cf479C's ``valid_choice(exams[i], days[i])`` (an exam is taken on
one of its two days).

Several such conjuncts intersect (each is required); values that are not of the element type are
dropped (no element can equal them) — but a choice that is an outer binder's stand-in (``Fresh``,
``Affine``) refuses the strategy (it stands for values an element may equal). The sets are built per index in the order the disjuncts are
written, duplicates removed, so the enumeration order does not depend on hashing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

from . import runtime as rt
from .affine import Affine
from .ast import Binary, Call, Chain, Expr, Index, Quant
from .bounds import _flatten_and, _replace_len, _strip_int_cast, _unlined, free_vars, len_name
from .seq_shapes import _is_lit, _is_var

__all__ = ["choice_sets", "domain"]

Inliner = Callable[[Call], Expr | None]
_MAX_INLINE = 4


def _disjuncts(e: Expr) -> list[Expr]:
    if isinstance(e, Binary) and e.op == "||":
        return _disjuncts(e.lhs) + _disjuncts(e.rhs)
    return [e]


def _inline_all(e: Expr, inline: Inliner | None) -> Expr:
    depth = 0
    while isinstance(e, Call) and inline is not None and depth < _MAX_INLINE:
        body = inline(e)
        if body is None:
            break
        e, depth = body, depth + 1
    return e


def _choices(c: Expr, x: str, j: str, banned: set[str], inline: Inliner | None) -> list[Expr] | None:
    """``[e1, e2, …]`` when ``c`` is ``x[j] == e1 || x[j] == e2 || …``; None otherwise."""
    out: list[Expr] = []
    for d in _disjuncts(_inline_all(c, inline)):
        d = _inline_all(d, inline)
        if not (isinstance(d, Chain) and d.ops == ("==",)):
            return None
        a, b = d.operands
        for me, other in ((a, b), (b, a)):
            m = _strip_int_cast(me)
            if (
                isinstance(m, Index) and _is_var(m.obj, x) and _is_var(_strip_int_cast(m.index), j)
                and x not in free_vars(other) and not (free_vars(other) & banned)
                and len_name(x) not in free_vars(_replace_len(other, x))
            ):  # fmt: skip
                out.append(other)
                break
        else:
            return None
    return out


def choice_sets(
    atoms: list[Expr], x: str, inline: Inliner | None, caps: list[Any], banned: set[str]
) -> list[tuple[str, list[Expr]]]:
    """``(i, [e1, …])`` for every conjunct of the module doc's shape among ``atoms``."""
    out: list[tuple[str, list[Expr]]] = []
    for a in atoms:
        if not (isinstance(a, Quant) and a.kind == "forall" and len(a.binders) == 1):
            continue
        j = a.binders[0][0]
        body = a.body
        if j == x or not (isinstance(body, Binary) and body.op == "==>"):
            continue
        g = _replace_len(body.lhs, x)
        if not (
            isinstance(g, Chain) and g.ops == ("<=", "<") and _is_lit(g.operands[0], 0)
            and _is_var(g.operands[1], j)
        ):  # fmt: skip
            continue
        end = g.operands[2]
        covers = _is_var(end, len_name(x)) or (j not in free_vars(end) and _unlined(end) in caps)
        if not covers:
            continue
        for c in _flatten_and(body.rhs, inline, 0):
            es = _choices(c, x, j, banned, inline)
            if es is not None:
                out.append((j, es))
    return out


def _per_index(
    choices: list[tuple[str, list[Callable[[dict[str, Any]], Any]]]],
    env: dict[str, Any],
    n: int,
    ok: Callable[[Any], bool],
) -> list[list[Any]]:
    sets: list[list[Any]] = []
    for i in range(n):
        cur: list[Any] | None = None
        for j, fs in choices:
            env2 = dict(env)
            env2[j] = i
            vals: list[Any] = []
            for f in fs:
                v = f(env2)
                if isinstance(v, rt.Fresh) or v.__class__ is Affine:
                    # an outer binder's stand-in is no value of the element type, yet an element may be
                    # equal to the value it stands for: dropping it would lose sequences
                    raise rt.SpecUnsupported("a choice is an outer binder's stand-in")
                if ok(v) and not any(v == w for w in vals):
                    vals.append(v)
            cur = vals if cur is None else [v for v in cur if any(v == w for w in vals)]
        sets.append(cur or [])
    return sets


def domain(
    choices: list[tuple[str, list[Callable[[dict[str, Any]], Any]]]],
    env: dict[str, Any],
    len_lo: int | None,
    len_hi: int | None,
    ok: Callable[[Any], bool],
    cap: int,
) -> Iterator[tuple[Any, ...]] | None:
    """Every sequence of a length in ``[len_lo, len_hi]`` whose elements lie in their index's set; None
    when the length range is not finite or there are more than ``cap`` sequences. Evaluation errors of
    a choice expression give None too (the caller keeps its other strategies)."""
    if len_lo is None or len_hi is None or not isinstance(len_lo, int) or not isinstance(len_hi, int):
        return None
    plan: list[list[list[Any]]] = []
    total = 0
    for n in range(max(len_lo, 0), len_hi + 1):
        try:
            sets = _per_index(choices, env, n, ok)
        except rt.SpecError:
            return None
        count = 1
        for s in sets:
            count *= len(s)
            if count > cap:
                return None
        total += count
        if total > cap:
            return None
        plan.append(sets)

    def gen() -> Iterator[tuple[Any, ...]]:
        for sets in plan:
            yield from itertools.product(*sets)

    return gen()
