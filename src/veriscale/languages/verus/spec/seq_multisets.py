"""Order-free sequence binders: only the multiset of elements matters, so sorted sequences suffice.

**Order-free.** The quantifier's body uses the binder ``s`` only

* as ``s.len()``;
* element-wise: ``forall|j| 0 <= j < s.len() ==> Q`` / ``exists|j| 0 <= j < s.len() && Q`` with ``s``
  and ``j`` used in ``Q`` only as ``s[j]``;
* as the argument of a spec fn parameter that is itself order-free: a fn whose body uses the
  parameter only in these ways (closures included, e.g. ``Seq::new(n, |i| count(ops, i))``), or an
  *additive fold* ``f(p, …) = if p.len() == 0 { c } else { f(p.drop_last(), …) + g }`` returning an
  integer (other arguments passed unchanged, ``g`` using ``p`` only as ``p.last()``), which is ``c``
  plus the sum of ``g`` over the elements — the same for every order.

Then ``body(s) == body(t)`` for every rearrangement ``t`` of ``s``, so the quantifier has the same
truth over a domain as over the sorted sequences of it — provided the domain is closed under
rearrangement, which holds for "every length in a range, every element in one finite set ``E``".

**Tuple elements.** ``E`` for ``Seq<(int, int, …)>`` comes from the element-wise conjuncts'
comparisons of the fields (``0 <= s[j].0 <= s[j].1 < n`` through a helper such as ``is_valid_op``):
field ``k`` is bounded by the previous fields and the quantifier's scope (also through a later field,
``f0 <= f1 < n`` bounding ``f0`` by ``n - 1``). Integer elements use the ordinary element bounds.

The sorted sequences of length ``L`` over ``E`` are the multisets: ``C(|E| + L - 1, L)`` instead of
``|E|^L``, counted before enumerating (lc1526: 15 operations, 7 of them: 116,280 instead of 1.7e8).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from typing import Any

from veriscale.values.rust_types import INT_RANGES
from veriscale.values.types import TCon

from . import runtime as rt
from .ast import (
    Binary,
    Call,
    Chain,
    Closure,
    Expr,
    Field,
    If,
    Index,
    MethodCall,
    Path,
    Quant,
    View,
)
from .bounds import (
    BinderPlan,
    _all_children,
    _derive,
    _flatten_and,
    _relations,
    _replace_len,
    _strip_int_cast,
    free_vars,
    len_name,
)
from .seq_shapes import _is_lit, _is_var

__all__ = ["MAX_ELEMS", "domain_for", "element_plans", "elements", "multisets", "order_free"]

MAX_ELEMS = 10_000
FnOf = Callable[[Call], Any]


def _is_seq(e: Expr, p: str) -> bool:
    while isinstance(e, View):
        e = e.obj
    return isinstance(e, Path) and e.is_local and e.name == p


class _Checker:
    def __init__(self, fn_of: FnOf) -> None:
        self.fn_of = fn_of
        self.memo: dict[tuple[str, int], bool] = {}

    def uses_ok(self, e: Expr, p: str) -> bool:
        """Is every use of ``p`` in ``e`` order-free?"""
        if isinstance(e, MethodCall) and e.name == "len" and not e.args and _is_seq(e.recv, p):
            return True
        if isinstance(e, Path):
            return not (e.is_local and e.name == p)
        if isinstance(e, View) and _is_seq(e, p):
            return False
        if isinstance(e, Quant):
            if any(n == p for n, _ in e.binders):
                return False
            if p in free_vars(e.body) and not self._elementwise(e, p):
                return False
            return True
        if isinstance(e, Closure) and any(n == p for n, _ in e.params):
            return False
        if isinstance(e, Call):
            hits = [k for k, a in enumerate(e.args) if _is_seq(a, p)]
            if hits:
                fn = self.fn_of(e)
                if fn is None or len(fn.params) != len(e.args):
                    return False
                if not all(self.param_ok(fn, k) for k in hits):
                    return False
                return all(self.uses_ok(a, p) for k, a in enumerate(e.args) if k not in hits)
        return all(self.uses_ok(c, p) for c in _all_children(e))

    def _elementwise(self, q: Quant, p: str) -> bool:
        if len(q.binders) != 1:
            return False
        j = q.binders[0][0]
        body = q.body
        op = "==>" if q.kind == "forall" else "&&" if q.kind == "exists" else None
        if op is None or not (isinstance(body, Binary) and body.op == op):
            return False
        g = body.lhs
        if not (
            isinstance(g, Chain) and g.ops == ("<=", "<") and _is_lit(g.operands[0], 0)
            and _is_var(g.operands[1], j)
            and isinstance(g.operands[2], MethodCall) and g.operands[2].name == "len"
            and _is_seq(g.operands[2].recv, p)
        ):  # fmt: skip
            return False
        return _only_elem(body.rhs, p, j)

    def param_ok(self, fn: Any, k: int) -> bool:
        key = (fn.name, k)
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = False  # a recursive use is allowed only through the fold shape below
        p, t = fn.params[k]
        ok = (
            fn.body is not None
            and isinstance(t, TCon) and t.name in ("Seq", "Vec")
            and (self._fold(fn, k) or self.uses_ok(fn.body, p))
        )  # fmt: skip
        self.memo[key] = ok
        return ok

    def _fold(self, fn: Any, k: int) -> bool:
        p = fn.params[k][0]
        b = fn.body
        ret = fn.ret
        if not (isinstance(ret, TCon) and (ret.name in INT_RANGES or ret.name in ("int", "nat"))):
            return False  # ``+`` of sequences (concatenation) keeps the order
        if not (isinstance(b, If) and b.else_ is not None and p not in free_vars(b.then)):
            return False
        c = b.cond
        if not (
            isinstance(c, Chain) and c.ops == ("==",)
            and isinstance(c.operands[0], MethodCall) and c.operands[0].name == "len"
            and _is_seq(c.operands[0].recv, p) and _is_lit(c.operands[1], 0)
        ):  # fmt: skip
            return False
        e = b.else_
        if not (isinstance(e, Binary) and e.op == "+"):
            return False
        for rec, g in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            rec = _strip_int_cast(rec)
            if not (isinstance(rec, Call) and isinstance(rec.func, Path) and rec.func.name == fn.name):
                continue
            if len(rec.args) != len(fn.params):
                continue
            shrink = rec.args[k]
            if not (
                isinstance(shrink, MethodCall) and shrink.name == "drop_last" and _is_seq(shrink.recv, p)
            ):
                continue
            if not all(_is_var(a, n) for j, (a, (n, _)) in enumerate(zip(rec.args, fn.params)) if j != k):
                continue
            if _only_last(g, p):
                return True
        return False


def _only_elem(e: Expr, p: str, j: str) -> bool:
    """``p`` and ``j`` occur in ``e`` only as ``p[j]``."""
    e2 = _strip_int_cast(e)
    if isinstance(e2, Index) and _is_seq(e2.obj, p) and _is_var(_strip_int_cast(e2.index), j):
        return True
    if isinstance(e, Path) and e.is_local and e.name in (p, j):
        return False
    if isinstance(e, Quant | Closure) and {
        n for n, _ in (e.binders if isinstance(e, Quant) else e.params)
    } & {p, j}:
        return False
    return all(_only_elem(c, p, j) for c in _all_children(e))


def _only_last(e: Expr, p: str) -> bool:
    """``p`` occurs in ``e`` only as ``p.last()``."""
    if isinstance(e, MethodCall) and e.name == "last" and not e.args and _is_seq(e.recv, p):
        return True
    if isinstance(e, Path) and e.is_local and e.name == p:
        return False
    if isinstance(e, Quant | Closure) and p in {
        n for n, _ in (e.binders if isinstance(e, Quant) else e.params)
    }:
        return False
    return all(_only_last(c, p) for c in _all_children(e))


def order_free(body: Expr, x: str, fn_of: FnOf) -> bool:
    """Does the quantifier body use the sequence binder ``x`` only in order-free ways?"""
    return _Checker(fn_of).uses_ok(body, x)


def _field_of(e: Expr, x: str, j: str) -> int | None:
    e = _strip_int_cast(e)
    if isinstance(e, Field) and e.name.isdigit():
        obj = _strip_int_cast(e.obj)
        if isinstance(obj, Index) and _is_seq(obj.obj, x) and _is_var(_strip_int_cast(obj.index), j):
            return int(e.name)
    return None


def element_plans(atoms: list[Expr], x: str, arity: int, inline: Any) -> list[BinderPlan] | None:
    """Bounds of each field of a tuple element (``x#f0``, ``x#f1``, …), from ``forall|j| 0 <= j < x.len()
    ==> C`` conjuncts; a field's bounds may mention earlier fields and the quantifier's scope. None when
    some field gets no two-sided bound."""
    names = [f"{x}#f{k}" for k in range(arity)]
    rels: list[tuple[str, Expr, Expr, bool]] = []

    def rename(e: Expr, j: str) -> Expr | None:
        k = _field_of(e, x, j)
        if k is not None and k < arity:
            return Path((names[k],))
        return None if x in free_vars(e) or j in free_vars(e) else _replace_len(e, x)

    for a in atoms:
        if not (isinstance(a, Quant) and a.kind == "forall" and len(a.binders) == 1):
            continue
        j = a.binders[0][0]
        body = a.body
        if not (isinstance(body, Binary) and body.op == "==>"):
            continue
        g = _replace_len(body.lhs, x)
        if not (
            isinstance(g, Chain) and g.ops == ("<=", "<") and _is_lit(g.operands[0], 0)
            and _is_var(g.operands[1], j) and isinstance(g.operands[2], Path) and g.operands[2].name == len_name(x)
        ):  # fmt: skip
            continue
        for c in _flatten_and(body.rhs, inline, 0):
            for kind, lhs, rhs, strict in _relations(c):
                l2, r2 = rename(lhs, j), rename(rhs, j)
                if l2 is not None and r2 is not None:
                    rels.append((kind, l2, r2, strict))
    closed: dict[str, Any] = {}
    for n in names:
        p0 = _derive(n, names, rels, set(), None)
        closed[n] = (p0.lowers, p0.uppers)
    for _ in range(arity - 1):
        nxt: dict[str, Any] = {}
        for n in names:
            p1 = _derive(n, names, rels, set(), closed)
            nxt[n] = (p1.lowers, p1.uppers)
        closed = nxt
    plans = []
    for k, n in enumerate(names):
        p = _derive(n, names, rels, set(names[:k]), closed)
        if not (p.lowers and p.uppers) and not p.fixed:
            return None
        plans.append(p)
    return plans


def elements(
    fields: list[tuple[str, list[tuple[Any, bool]], list[tuple[Any, bool]], list[Any]]],
    env: dict[str, Any],
    cap: int,
) -> list[tuple[int, ...]] | None:
    """Every tuple whose fields lie within their (compiled) bounds, in lexicographic order; None when a
    bound is not an integer or there are more than ``cap``."""
    out: list[tuple[int, ...]] = []

    def rng(k: int, env2: dict[str, Any]) -> range | None:
        _, lows, ups, fixed = fields[k]
        lo = hi = None
        for f, strict in lows:
            v = f(env2)
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, int):
                return None
            v = v + 1 if strict else v
            lo = v if lo is None else max(lo, v)
        for f, strict in ups:
            v = f(env2)
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, int):
                return None
            v = v - 1 if strict else v
            hi = v if hi is None else min(hi, v)
        for f in fixed:
            v = f(env2)
            if isinstance(v, bool) or not isinstance(v, int):
                return None
            lo = v if lo is None else max(lo, v)
            hi = v if hi is None else min(hi, v)
        if lo is None or hi is None:
            return None
        return range(lo, hi + 1)

    def rec(k: int, env2: dict[str, Any], prefix: tuple[int, ...]) -> bool:
        if k == len(fields):
            out.append(prefix)
            return len(out) <= cap
        r = rng(k, env2)
        if r is None or len(r) > cap:
            raise _TooMany
        for v in r:
            env3 = dict(env2)
            env3[fields[k][0]] = v
            if not rec(k + 1, env3, (*prefix, v)):
                return False
        return True

    try:
        if not rec(0, dict(env), ()):
            return None
    except (_TooMany, rt.SpecError):
        return None
    return out


class _TooMany(Exception):
    pass


def multisets(elems: list[Any], len_lo: int, len_hi: int, cap: int) -> Iterator[tuple[Any, ...]] | None:
    """The sorted sequences (multisets) over ``elems`` of every length in ``[len_lo, len_hi]``, shortest
    first; None when there are more than ``cap``."""
    m = len(elems)
    total = 0
    for n in range(max(len_lo, 0), len_hi + 1):
        total += math.comb(m + n - 1, n) if m else (1 if n == 0 else 0)
        if total > cap:
            return None

    def gen() -> Iterator[tuple[Any, ...]]:
        for n in range(max(len_lo, 0), len_hi + 1):
            yield from itertools.combinations_with_replacement(elems, n)

    return gen()


def domain_for(b: Any, env: dict[str, Any], cap: int) -> Iterator[tuple[Any, ...]] | None:
    """The sorted sequences of the evaluator's order-free sequence binder ``b`` (its ``length``, and
    ``tuple_fields`` or integer ``elem`` bounds) in ``env``; None when a range is not finite, an
    expression fails, or there are more than ``cap``."""
    try:
        len_lo, len_hi = b.length.concrete_range(env, (0, None))
        if not (isinstance(len_lo, int) and isinstance(len_hi, int)):
            return None
        plan: list[tuple[int, list[Any]]] = []
        total = 0
        for n in range(max(len_lo, 0), len_hi + 1):
            env2 = dict(env)
            env2[b.length.name] = n
            if b.tuple_fields:
                elems = elements(b.tuple_fields, env2, MAX_ELEMS)
            else:
                base = b.elem.type_range()
                lo, hi = b.elem.concrete_range(env2, base) if base is not None else (None, None)
                ok = isinstance(lo, int) and isinstance(hi, int) and hi - lo < MAX_ELEMS
                elems = list(range(lo, hi + 1)) if ok else None
            if elems is None:
                return None
            m = len(elems)
            total += math.comb(m + n - 1, n) if m else (1 if n == 0 else 0)
            if total > cap:
                return None
            plan.append((n, elems))
    except rt.SpecError:
        return None

    def gen() -> Iterator[tuple[Any, ...]]:
        for n, elems in plan:
            yield from itertools.combinations_with_replacement(elems, n)

    return gen()
