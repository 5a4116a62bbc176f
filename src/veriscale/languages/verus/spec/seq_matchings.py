"""Two index sequences that pair up distinct indices: decided by a maximum matching.

**Shape.** A quantifier over exactly two sequence binders ``a``, ``b`` of an integer element type,
``exists|a, b| P`` or ``forall|a, b| P ==> C`` / ``forall|a, b| !P``, whose conjuncts (boolean spec fns
inlined, ``let``s substituted, ``&&&`` lists) are each one of:

* *length*: uses ``a``, ``b`` only as ``a.len()``, ``b.len()`` (or neither: a constant); among them
  ``a.len() == b.len()`` (required);
* *pair*: ``forall|i| 0 <= i < a.len() ==> Q`` (or ``< b.len()``) with ``a``, ``b``, ``i`` used in ``Q``
  only as ``a[i]`` and ``b[i]`` (at least one such conjunct);
* *distinct*: ``forall|i, j| 0 <= i < j < a.len() ==> a[i] != a[j]``, the same for ``b``, and the cross
  condition ``forall|i, j| 0 <= i < a.len() && 0 <= j < b.len() ==> a[i] != b[j]`` (all three required);

and ``C`` uses ``a``, ``b`` only through their lengths. The element bounds of both binders (from the pair
conjuncts, e.g. ``0 <= a[i] < nums.len()``) must be finite and free of the lengths and of the binders.
lc1679: ``forall|l, r| is_valid_matching(nums, l, r, k) ==> l.len() <= result`` (k-sum pairs).

**Why it is a matching.** With ``Q(x, y)`` the pair condition at one index, ``P(a, b)`` holds iff the
pairs ``(a[i], b[i])`` satisfy ``Q`` and all ``2·len`` indices are distinct: the pairs are the edges of
a matching in the graph on the element range with an edge ``{x, y}`` when ``Q(x, y)`` or ``Q(y, x)``
(``x != y``: the cross condition excludes ``a[i] == b[i]``), each oriented so that ``Q`` holds. Deleting
a pair keeps ``P`` (each remaining index keeps its condition; distinctness survives), so the lengths of
valid instances are exactly ``0 … M`` with ``M`` the maximum matching size.

**Why one instance per length decides.** On a valid instance the body's truth depends only on the
length (the length conjuncts and ``C`` see nothing else); an invalid one is no witness (``exists``) and
no counterexample (``forall``). So the first ``L`` edges of one maximum matching (oriented, sorted),
``L = 0 … M``, are a complete domain; the real body is evaluated on each.

**Maximum matching.** Edmonds' blossom algorithm (augmenting paths with odd cycles shrunk to their
base), ``O(V^3)``: exact in every graph, one step charged per vertex taken from the search queue.
``Q`` is evaluated once per pair of the two element ranges (at most ``MAX_PAIRS``), on the one-element
sequences ``a = (x,)``, ``b = (y,)`` with ``i = 0`` (the only index the conjunct's guard then admits). An
evaluation error, a non-finite range or too many pairs leaves the quantifier to its ordinary
enumeration (``None``), UNKNOWN at worst.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from veriscale.runtime import limits
from veriscale.values.rust_types import INT_RANGES
from veriscale.values.types import TCon

from . import runtime as rt
from .ast import Binary, Chain, Expr, Quant, Unary
from .bounds import free_vars, len_name
from .seq_paths import _elem, _is_len, _leaves, _only
from .seq_shapes import _is_lit, _is_var

__all__ = [
    "MAX_PAIRS",
    "CompiledMatching",
    "MatchingShape",
    "decide",
    "matching_shape",
    "max_matching",
    "prepare",
]

MAX_PAIRS = 160_000  # pairs of element values whose pair condition is evaluated

Inliner = Callable[[Any], Expr | None]
Fn = Callable[[dict[str, Any]], Any]


@dataclass
class MatchingShape:
    a: str
    b: str
    pairs: list[Expr]  # the pair conjuncts (whole quantified atoms)


@dataclass
class CompiledMatching:
    a: str
    b: str
    pairs: list[tuple[str, Fn]]  # (index binder, the pair condition Q)


def _int_type(t: Any) -> bool:
    return isinstance(t, TCon) and not t.args and (t.name in INT_RANGES or t.name in ("int", "nat"))


def _lens_only(e: Expr, a: str, b: str) -> bool:
    return _only(e, a, lambda c: _is_len(c, a)) and _only(e, b, lambda c: _is_len(c, b))


def _range_guard(g: Expr, i: str, x: str) -> bool:
    """``0 <= i < x.len()``."""
    return (
        isinstance(g, Chain) and g.ops == ("<=", "<") and _is_lit(g.operands[0], 0)
        and _is_var(g.operands[1], i) and _is_len(g.operands[2], x)
    )  # fmt: skip


def _neq(e: Expr, x: str, i: str, y: str, j: str) -> bool:
    """``x[i] != y[j]`` (either side first)."""
    if isinstance(e, Unary) and e.op == "!" and isinstance(e.expr, Chain) and e.expr.ops == ("==",):
        e = Chain(("!=",), e.expr.operands, e.expr.line)
    if not (isinstance(e, Chain) and e.ops == ("!=",)):
        return False
    p, q = e.operands
    at = lambda s, k: lambda c: _elem(c, s, lambda ix: _is_var(ix, k))  # noqa: E731
    return (at(x, i)(p) and at(y, j)(q)) or (at(y, j)(p) and at(x, i)(q))


def _role(atom: Expr, a: str, b: str) -> str | None:
    used = free_vars(atom)
    if not ({a, b} & used) or _lens_only(atom, a, b):
        return "length"
    if not (isinstance(atom, Quant) and atom.kind == "forall"):
        return None
    body = atom.body
    if not (isinstance(body, Binary) and body.op == "==>"):
        return None
    g, c = body.lhs, body.rhs
    if len(atom.binders) == 1:
        i = atom.binders[0][0]
        if i in (a, b) or not (_range_guard(g, i, a) or _range_guard(g, i, b)):
            return None
        idx = lambda ix: _is_var(ix, i)  # noqa: E731
        ok = lambda e: _elem(e, a, idx) or _elem(e, b, idx)  # noqa: E731
        if _only(c, a, ok) and _only(c, b, ok) and _only(c, i, ok):
            return "pair"
        return None
    if len(atom.binders) != 2:
        return None
    i, j = atom.binders[0][0], atom.binders[1][0]
    if {i, j} & {a, b}:
        return None
    for x in (a, b):  # 0 <= i < j < x.len() ==> x[i] != x[j]
        if (
            isinstance(g, Chain) and g.ops == ("<=", "<", "<") and _is_lit(g.operands[0], 0)
            and _is_var(g.operands[1], i) and _is_var(g.operands[2], j) and _is_len(g.operands[3], x)
            and _neq(c, x, i, x, j)
        ):  # fmt: skip
            return "distinct_a" if x == a else "distinct_b"
    if isinstance(g, Binary) and g.op == "&&":
        for gi, gj in ((g.lhs, g.rhs), (g.rhs, g.lhs)):
            for x, y in ((a, b), (b, a)):
                if _range_guard(gi, i, x) and _range_guard(gj, j, y) and _neq(c, x, i, y, j):
                    return "cross"
    return None


def _is_len_eq(atom: Expr, a: str, b: str) -> bool:
    if not (isinstance(atom, Chain) and atom.ops == ("==",)):
        return False
    p, q = atom.operands
    return (_is_len(p, a) and _is_len(q, b)) or (_is_len(p, b) and _is_len(q, a))


def matching_shape(q: Quant, inline: Inliner | None, plans: list[Any]) -> MatchingShape | None:
    """The matching shape of ``q`` (module doc), or None."""
    if q.kind not in ("forall", "exists") or len(q.binders) != 2:
        return None
    (a, ta), (b, tb) = q.binders
    for t in (ta, tb):
        if not (isinstance(t, TCon) and t.name == "Seq" and len(t.args) == 1 and _int_type(t.args[0])):
            return None
    body = q.body
    if q.kind == "forall":
        if isinstance(body, Unary) and body.op == "!":
            pred = body.expr
        elif isinstance(body, Binary) and body.op == "==>" and _lens_only(body.rhs, a, b):
            pred = body.lhs
        else:
            return None
    else:
        pred = body
    roles: dict[str, list[Expr]] = {}
    for atom in _leaves(pred, inline, 0):
        r = _role(atom, a, b)
        if r is None:
            return None
        roles.setdefault(r, []).append(atom)
    if not all(roles.get(r) for r in ("pair", "distinct_a", "distinct_b", "cross")):
        return None
    if not any(_is_len_eq(x, a, b) for x in roles.get("length", [])):
        return None
    banned = {a, b, len_name(a), len_name(b)}
    for p in plans:
        ep = p.elem
        if ep is None or not (ep.lowers or ep.fixed) or not (ep.uppers or ep.fixed):
            return None
        exprs = [e for e, _ in ep.lowers + ep.uppers] + list(ep.fixed)
        if any(free_vars(e) & banned for e in exprs):
            return None
    return MatchingShape(a, b, roles["pair"])


def prepare(
    q: Quant, inline: Inliner | None, plans: list[Any], compile: Callable[[Expr, frozenset[str]], Fn]
) -> CompiledMatching | None:
    """``matching_shape`` compiled, or None. ``compile(e, extra)`` compiles in the quantifier's scope plus
    both binders and ``extra``: each pair conjunct's condition ``Q`` with its index binder, which the
    decider sets to 0 (on one-element sequences the guard admits only ``i == 0``; evaluating ``Q``
    directly spares the quantifier's per-instance steps)."""
    shape = matching_shape(q, inline, plans)
    if shape is None:
        return None
    pairs: list[tuple[str, Fn]] = []
    try:
        for atom in shape.pairs:
            assert isinstance(atom, Quant) and isinstance(atom.body, Binary)
            i = atom.binders[0][0]
            pairs.append((i, compile(atom.body.rhs, frozenset({i}))))
    except rt.SpecError:
        return None
    return CompiledMatching(shape.a, shape.b, pairs)


def max_matching(n: int, adj: list[list[int]]) -> list[int]:
    """Edmonds' blossom algorithm: ``mate[v]`` (``-1``: unmatched) of a maximum matching of the graph on
    ``0 … n-1`` (``adj``: symmetric neighbour lists). Each vertex is the root of one search for an
    augmenting path (a vertex left unmatched by a failed search stays so: Berge); one step is charged
    per vertex taken from a search queue."""
    mate = [-1] * n
    for root in range(n):
        if mate[root] == -1:
            _augment(root, adj, mate)
    return mate


def _augment(root: int, adj: list[list[int]], mate: list[int]) -> None:
    """Search an augmenting path from the unmatched ``root`` (breadth first over even vertices, odd
    cycles shrunk to their base) and flip it into ``mate`` if one is found."""
    n = len(mate)
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = [root]
    qi = 0
    end = -1

    def lca(x: int, y: int) -> int:
        seen = [False] * n
        while True:
            x = base[x]
            seen[x] = True
            if mate[x] == -1:
                break
            x = parent[mate[x]]
        while True:
            y = base[y]
            if seen[y]:
                return y
            y = parent[mate[y]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while qi < len(queue) and end == -1:
        limits.charge(1)
        v = queue[qi]
        qi += 1
        for to in adj[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                cur = lca(v, to)
                blossom = [False] * n
                mark(v, cur, to, blossom)
                mark(to, cur, v, blossom)
                for u in range(n):
                    if blossom[base[u]]:
                        base[u] = cur
                        if not used[u]:
                            used[u] = True
                            queue.append(u)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    end = to
                    break
                used[mate[to]] = True
                queue.append(mate[to])
    while end != -1:  # flip the path found
        pv = parent[end]
        nxt = mate[pv]
        mate[end] = pv
        mate[pv] = end
        end = nxt


def _range(binder: Any, env: dict[str, Any]) -> range | None:
    env2 = dict(env)
    env2[binder.length.name] = 0  # the element bounds do not mention the lengths (``matching_shape``)
    base = binder.elem.type_range()
    lo, hi = binder.elem.concrete_range(env2, base if base is not None else (None, None))
    if not (isinstance(lo, int) and isinstance(hi, int)):
        return None
    return range(lo, max(hi, lo - 1) + 1)


def decide(
    cm: CompiledMatching, binders: list[Any], env: dict[str, Any], exists: bool, body: Fn
) -> bool | None:
    """The quantifier's truth from one instance per length ``0 … M`` (module doc); ``body(env)`` evaluates
    the quantifier's body (to a boolean). None when not applicable here."""
    try:
        ra, rb = _range(binders[0], env), _range(binders[1], env)
        if ra is None or rb is None or len(ra) * len(rb) > MAX_PAIRS:
            return None
        env2 = dict(env)
        good: set[tuple[int, int]] = set()
        for x in ra:
            for y in rb:
                if x == y:
                    continue
                env2[cm.a], env2[cm.b] = (x,), (y,)
                ok = True
                for i, f in cm.pairs:
                    env2[i] = 0
                    v = f(env2)
                    if not isinstance(v, bool):
                        return None
                    if not v:
                        ok = False
                        break
                if ok:
                    good.add((x, y))
    except rt.SpecError:
        return None
    verts = sorted({v for e in good for v in e})
    pos = {v: k for k, v in enumerate(verts)}
    adj: list[set[int]] = [set() for _ in verts]
    for x, y in good:
        adj[pos[x]].add(pos[y])
        adj[pos[y]].add(pos[x])
    mate = max_matching(len(verts), [sorted(s) for s in adj])
    edges: list[tuple[int, int]] = []
    for k, m in enumerate(mate):
        if m > k:
            x, y = verts[k], verts[m]
            edges.append((x, y) if (x, y) in good else (y, x))
    edges.sort()
    err: rt.SpecError | None = None
    for n in range(len(edges) + 1):
        env2 = dict(env)
        env2[cm.a] = tuple(x for x, _ in edges[:n])
        env2[cm.b] = tuple(y for _, y in edges[:n])
        try:
            r = body(env2)
        except rt.SpecError as exc:  # that instance is unknown; another length may still decide
            err = err or exc
            continue
        if r == exists:
            return exists
    if err is not None:
        raise err
    return not exists
