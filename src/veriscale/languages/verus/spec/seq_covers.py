"""Order-free sequence binders pinned by an additive vector equation: solved as an exact cover by counts.

**Shape.** An order-free sequence binder ``s`` (``seq_multisets``: only the multiset of its elements
matters) with a necessary conjunct (``bounds.conjuncts``: an antecedent of ``forall``, a conjunct of
``exists``, boolean helpers inlined) ``A(s) == T`` / ``A(s) =~= T`` where ``T`` does not mention ``s`` and
``A(s)`` is — through spec fns returning a sequence, their bodies substituted —
``Seq::new(N, |i| f(…, s, …))`` with ``N`` free of ``s`` and ``f`` an *additive fold* in that parameter
(``seq_multisets``: ``f(p, …) = if p.len() == 0 { c } else { f(p.drop_last(), …) + g(p.last(), …) }``,
other arguments unchanged), ``s`` passed as itself and the other arguments free of ``s``. The element
bounds may not mention the length. lc1526: ``apply_ops(n, ops) =~= target`` with
``apply_ops(n, ops) = Seq::new(n, |i| count_ops_covering(ops, i))``.

**Additivity.** Unfolding the fold, ``f(s, a) = c(a) + Σ_{e in s} g(e, a)``, so with ``base = A(())``
and ``w(e) = A((e,)) - base`` (both evaluated by the ordinary evaluator, position by position),
``A(s) = base + Σ_{e in s} w(e)`` for every ``s`` — exactly, for any order. The conjunct holds iff the
multiset's weights sum to ``D = T - base`` (and ``T`` has ``A``'s length ``N``).

**Why the solutions are a complete domain.** An instance whose conjunct is false is no witness
(``exists``) and no counterexample (``forall``); the body's truth is the same on every rearrangement
(order-free). So the sorted sequences over the element set ``E`` (the order-free domain's elements)
whose weights sum to ``D``, with a length in the binder's length range (plan-derived; for ``forall``
possibly the negated consequent, ``seq_lengths``), decide the quantifier; the real body is evaluated on
each (lazily: ``_quant`` stops at the first witness / counterexample).

**Search** (only when every weight is non-negative; else the binder keeps ``seq_multisets``). Elements
in ``E``'s order; at element ``j`` the multiplicity ``t`` is chosen (``0, 1, …``, at most what the
deficit allows), then ``j + 1``. Exact prunes: a weight that exceeds ``D`` somewhere is never usable;
the deficit never goes negative (weights only add); once ``j`` is past the last element with a positive
weight at position ``p``, ``p``'s deficit is final and must be 0; the elements still to add are at least
``max_p ceil(deficit_p / max weight at p among elements >= j)``, which must fit the length bound; at the
last element with a positive weight at ``p`` the multiplicity is forced (``t · w_p == deficit_p``).
Partial solutions are linked lists, built into tuples only for a solution. Without
an upper length bound the length is at most ``Σ D`` when no weight is all zero (each element removes at
least 1 from the deficit); otherwise the binder keeps its other strategies. One step is charged per
search node.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from veriscale.runtime import limits
from veriscale.values.types import TCon

from . import runtime as rt
from .ast import Call, Cast, Chain, Closure, Expr, Path
from .bounds import _Opaque, free_vars, len_name, substitute
from .seq_multisets import MAX_ELEMS, _Checker, _is_seq, elements

__all__ = ["CompiledCover", "compile_cover", "cover_equation", "domain_for", "plan_cover"]

FnOf = Callable[[Call], Any]
_EQ = ("==", "=~=", "=~~=", "===")
_MAX_UNFOLD = 4


def _strip_cast(e: Expr) -> Expr:
    while isinstance(e, Cast):
        e = e.expr
    return e


def _additive(a: Expr, x: str, fn_of: FnOf, depth: int = 0) -> bool:
    """Is ``a`` (``x`` free in it) a ``Seq::new`` of an additive fold over ``x`` (module doc)?"""
    a = _strip_cast(a)
    if not isinstance(a, Call):
        return False
    if isinstance(a.func, Path) and a.func.segments == ("Seq", "new"):
        if len(a.args) != 2 or x in free_vars(a.args[0]):
            return False
        clo = a.args[1]
        if not (isinstance(clo, Closure) and len(clo.params) == 1 and clo.params[0][0] != x):
            return False
        g = _strip_cast(clo.body)
        if not isinstance(g, Call):
            return False
        fold = fn_of(g)
        hits = [k for k, arg in enumerate(g.args) if _is_seq(arg, x)]
        if fold is None or len(hits) != 1 or len(fold.params) != len(g.args):
            return False
        if any(x in free_vars(arg) for k, arg in enumerate(g.args) if k != hits[0]):
            return False
        return bool(_Checker(fn_of)._fold(fold, hits[0]))
    fn = fn_of(a)
    if fn is None or fn.body is None or depth >= _MAX_UNFOLD or len(fn.params) != len(a.args):
        return False
    if not (isinstance(fn.ret, TCon) and fn.ret.name == "Seq"):
        return False
    try:
        body = substitute(fn.body, {n: arg for (n, _), arg in zip(fn.params, a.args)})
    except _Opaque:
        return False
    return _additive(body, x, fn_of, depth + 1)


def cover_equation(
    atoms: list[Expr], x: str, fn_of: FnOf | None, elem_bounds: list[Expr]
) -> tuple[Expr, Expr] | None:
    """``(A, T)`` of the first necessary conjunct ``A(x) == T`` of the recognised shape, or None (also
    when an element bound mentions the length)."""
    if fn_of is None or any(len_name(x) in free_vars(b) for b in elem_bounds):
        return None
    for atom in atoms:
        if not (isinstance(atom, Chain) and len(atom.ops) == 1 and atom.ops[0] in _EQ):
            continue
        lhs, rhs = atom.operands
        for a, t in ((lhs, rhs), (rhs, lhs)):
            if x in free_vars(a) and x not in free_vars(t) and _additive(a, x, fn_of):
                return a, t
    return None


def plan_cover(plan: Any, atoms: list[Expr], x: str, fn_of: FnOf | None) -> tuple[Expr, Expr] | None:
    """``cover_equation`` for an order-free binder plan (its tuple field plans or element plan)."""
    if not plan.order_free:
        return None
    fields = plan.tuple_fields or [plan.elem]
    bounds = [e for f in fields for e, _ in f.lowers + f.uppers] + [e for f in fields for e in f.fixed]
    return cover_equation(atoms, x, fn_of, bounds)


def _materialise(chosen: Any) -> tuple[Any, ...]:
    parts: list[tuple[Any, ...]] = []
    while chosen is not None:
        chosen, e, t = chosen
        parts.append((e,) * t)
    return tuple(x for part in reversed(parts) for x in part)


class CompiledCover:
    def __init__(self, vec: Callable[[dict[str, Any]], Any], target: Callable[[dict[str, Any]], Any], x: str):
        self.vec = vec
        self.target = target
        self.x = x


def compile_cover(
    eq: tuple[Expr, Expr], compile: Callable[[Expr, frozenset[str]], Any], sc: frozenset[str], x: str
) -> CompiledCover:
    return CompiledCover(compile(eq[0], sc | {x}), compile(eq[1], sc), x)


def _ints(v: Any) -> tuple[int, ...] | None:
    v = rt.view(v)
    if isinstance(v, tuple) and all(isinstance(c, int) and not isinstance(c, bool) for c in v):
        return v
    return None


def _elements(b: Any, env: dict[str, Any]) -> list[Any] | None:
    """The order-free domain's element set (as ``seq_multisets.domain_for``; bounds free of the length)."""
    env2 = dict(env)
    env2[b.length.name] = 0
    if b.tuple_fields:
        return elements(b.tuple_fields, env2, MAX_ELEMS)
    base = b.elem.type_range()
    lo, hi = b.elem.concrete_range(env2, base) if base is not None else (None, None)
    if isinstance(lo, int) and isinstance(hi, int) and hi - lo < MAX_ELEMS:
        return list(range(lo, hi + 1))
    return None


def domain_for(b: Any, env: dict[str, Any]) -> Iterator[tuple[Any, ...]] | list[Any] | None:
    """The sorted sequences of the binder whose weights sum to the deficit (module doc), lazily; None
    when the strategy does not apply (the caller keeps ``seq_multisets``)."""
    cc: CompiledCover = b.cover
    try:
        len_lo, len_hi = b.length.concrete_range(env, (0, None))
        if not (len_lo is None or isinstance(len_lo, int)) or not (len_hi is None or isinstance(len_hi, int)):
            return None
        elems = _elements(b, env)
        if elems is None:
            return None
        target = _ints(cc.target(env))
        env2 = dict(env)
        env2[cc.x] = ()
        base = _ints(cc.vec(env2))
        if target is None or base is None:
            return None
        if len(target) != len(base):
            return []  # A(s) has A(())'s length for every s: the conjunct never holds
        weights: list[tuple[int, ...]] = []
        for e in elems:
            env2[cc.x] = (e,)
            v = _ints(cc.vec(env2))
            if v is None or len(v) != len(base):
                return None
            w = tuple(p - q for p, q in zip(v, base))
            if any(c < 0 for c in w):
                return None
            weights.append(w)
    except rt.SpecError:
        return None
    deficit = tuple(t - q for t, q in zip(target, base))
    if any(c < 0 for c in deficit):
        return []
    usable = [(e, w) for e, w in zip(elems, weights) if all(c <= d for c, d in zip(w, deficit))]
    lo = max(len_lo or 0, 0)
    hi = len_hi
    if hi is None:
        if any(not any(w) for _, w in usable):
            return None
        hi = sum(deficit)
    if hi < lo:
        return []
    return _solutions(usable, deficit, lo, hi)


def _solutions(
    usable: list[tuple[Any, tuple[int, ...]]], deficit: tuple[int, ...], lo: int, hi: int
) -> Iterator[tuple[Any, ...]]:
    """Multisets (sorted tuples in ``usable``'s order) of ``lo..hi`` elements whose weights sum to
    ``deficit``, depth first, multiplicities in increasing order (an explicit stack: no recursion limit)."""
    m = len(usable)
    dims = len(deficit)
    ws = [w for _, w in usable]
    last = [-1] * dims  # last element index with a positive weight at each position
    for j, w in enumerate(ws):
        for p in range(dims):
            if w[p] > 0:
                last[p] = j
    # best[j][p]: the largest weight at p among elements j.. (for the lower bound on elements still needed)
    best = [[0] * dims for _ in range(m + 1)]
    for j in range(m - 1, -1, -1):
        best[j] = [max(a, b) for a, b in zip(best[j + 1], ws[j])]

    def viable(j: int, d: list[int], count: int) -> bool:
        need = 0
        for p in range(dims):
            if d[p]:
                if last[p] < j or best[j][p] == 0:
                    return False
                need = max(need, -(-d[p] // best[j][p]))
        return count + need <= hi

    # the positions that become final after element j: its multiplicity must meet their deficits exactly
    closing: list[list[int]] = [[] for _ in range(m)]
    for p in range(dims):
        if last[p] >= 0:
            closing[last[p]].append(p)

    def gen() -> Iterator[tuple[Any, ...]]:
        # a frame: (j, deficit, count, chosen) with ``chosen`` a linked list (parent, element, times),
        # materialised only for a solution; children are the multiplicities of element j
        Chosen = tuple[Any, Any, int] | None
        stack: list[tuple[int, list[int], int, Chosen]] = [(0, list(deficit), 0, None)]
        while stack:
            limits.charge(1)
            j, d, count, chosen = stack.pop()
            if j == m:
                if not any(d) and lo <= count <= hi:
                    yield _materialise(chosen)
                continue
            if not viable(j, d, count):
                continue
            w = ws[j]
            tmax = hi - count
            for p in range(dims):
                if w[p] > 0:
                    tmax = min(tmax, d[p] // w[p])
            ts: Iterator[int] | list[int] = range(tmax + 1)
            if closing[j]:  # forced: t * w[p] == d[p] at every position closed here
                p0 = closing[j][0]
                t = d[p0] // w[p0]
                ok = t <= tmax and all(t * w[p] == d[p] for p in closing[j])
                ts = [t] if ok else []
            kids = [
                (
                    j + 1,
                    [a - t * b for a, b in zip(d, w)],
                    count + t,
                    (chosen, usable[j][0], t) if t else chosen,
                )
                for t in ts
            ]
            stack.extend(reversed(kids))  # the smallest multiplicity first

    return gen()
