"""Sequence binders whose predicate is a path in a finite graph: decided by a breadth-first search.

**Shape.** ``exists|s: Seq<T>| P(s)`` and ``forall|s: Seq<T>| !P(s)`` (one binder), where ``P``'s
conjuncts — boolean spec fns inlined, ``let``s substituted — are each one of:

* ``s.len() >= 1`` (also ``> 0``, ``1 <= s.len()``, ``0 < s.len()``): required;
* *unary*: ``forall|k| 0 <= k < s.len() ==> U(s[k])`` with ``s`` and ``k`` used in ``U`` only as ``s[k]``;
* *first*: ``F(s[0])`` (``s`` used only as ``s[0]``);
* *last*: ``L(s[s.len() - 1])`` (``s`` used only as that element);
* *pair*: ``forall|k| 0 <= k < s.len() - 1 ==> R(s[k], s[k + 1])`` (``s``, ``k`` only in those two);
* a conjunct that does not mention ``s``.

and the element bounds (from the unary conjuncts) give a finite range ``V`` that does not depend on the
length. Anything else is not recognised and the binder keeps its other strategies.

**Why a search decides it.** Such a ``P(s)`` says: ``s`` is a walk ``s[0] -> … -> s[n-1]`` (``n >= 1``) in
the graph on ``{v in V : U(v)}`` with edges ``R``, starting at a node with ``F`` and ending at one with
``L`` (plus the ``s``-free conjuncts). If a walk repeats a node (``s[a] == s[b]``, ``a < b``), cutting out
``s[a..b-1]`` leaves a walk with the same first and last node whose neighbour pairs are all pairs of the
old walk (the new pair ``(s[a-1], s[b])`` is ``(s[a-1], s[a])``) and which is still non-empty — so a
satisfying ``s`` exists iff a node with ``F`` reaches a node with ``L``, which a breadth-first search over
``V`` answers (one evaluation of ``R`` per visited node with a stand-in for the successor, see
``decide``, or ``|V|`` of them when the range must be scanned). Each conjunct is evaluated on a tiny sequence: ``(v,)``
for the unary, first and last ones, ``(u, v)`` for the pair one (its ``k`` then ranges over ``0`` alone).

**Verdict.** No walk: the domain is empty and complete (``exists`` FALSE, ``forall`` TRUE). A walk: it is
the only value tried, and the quantifier's real body is evaluated on it (a witness, or a
counterexample); if the body disagrees the search prefix is incomplete and the verdict UNKNOWN. An
evaluation error, a range of more than ``MAX_NODES`` values to scan or an element range that depends on
the length leaves the binder to its other strategies (``UNDECIDED``). Example: lc3180's reward paths
(``path[s + 1] == path[s] + rv[i]`` for some ``i``: the successors of ``u`` are read off the stand-in).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import runtime as rt
from .ast import Binary, Block, Call, Chain, Closure, Expr, Index, MethodCall, Path, Quant, Unary
from .bounds import _all_children, _let_free, _replace_len, _strip_int_cast, free_vars, len_name
from .seq_shapes import _is_lit, _is_var

__all__ = ["MAX_NODES", "UNDECIDED", "CompiledPath", "PathShape", "compile_shape", "decide", "path_shape"]

MAX_NODES = (
    400  # a range scanned for candidates (when a stand-in cannot give them) has at most this many values
)
_MAX_INLINE = 6
UNDECIDED = object()  # ``decide``: this strategy does not apply here

Inliner = Callable[[Call], Expr | None]


@dataclass
class PathShape:
    """The conjuncts of a recognised path predicate by role ("unary", "first", "last", "pair", "const")."""

    atoms: list[tuple[str, Expr]]


@dataclass
class CompiledPath:
    roles: dict[str, list[Callable[[dict[str, Any]], Any]]]
    x: str


def _leaves(e: Expr, inline: Inliner | None, depth: int) -> list[Expr]:
    if isinstance(e, Binary) and e.op == "&&":
        return _leaves(e.lhs, inline, depth) + _leaves(e.rhs, inline, depth)
    if isinstance(e, Block) and e.lets:
        tail = _let_free(e)
        if tail is not None:
            return _leaves(tail, inline, depth)
    if isinstance(e, Call) and inline is not None and depth < _MAX_INLINE:
        body = inline(e)
        if body is not None:
            return _leaves(body, inline, depth + 1)
    return [e]


def _only(e: Expr, x: str, ok: Callable[[Expr], bool]) -> bool:
    """Does ``x`` occur in ``e`` only inside sub-expressions that ``ok`` accepts? (A construct that binds
    ``x`` again is refused: not worth telling apart.)"""
    if ok(e):
        return True
    if isinstance(e, Path):
        return not (e.is_local and e.name == x)
    if isinstance(e, Quant) and any(n == x for n, _ in e.binders):
        return False
    if isinstance(e, Closure) and any(n == x for n, _ in e.params):
        return False
    return all(_only(c, x, ok) for c in _all_children(e))


def _elem(e: Expr, x: str, idx: Callable[[Expr], bool]) -> bool:
    """Is ``e`` (casts stripped) ``x[i]`` with an index that ``idx`` accepts?"""
    e = _strip_int_cast(e)
    return isinstance(e, Index) and _is_var(e.obj, x) and idx(_strip_int_cast(e.index))


def _is_len(e: Expr, x: str) -> bool:
    return isinstance(e, MethodCall) and e.name == "len" and not e.args and _is_var(e.recv, x)


def _is_last_index(e: Expr, x: str) -> bool:
    return isinstance(e, Binary) and e.op == "-" and _is_len(e.lhs, x) and _is_lit(e.rhs, 1)


def _is_succ(e: Expr, k: str) -> bool:
    return (
        isinstance(e, Binary) and e.op == "+"
        and ((_is_var(e.lhs, k) and _is_lit(e.rhs, 1)) or (_is_var(e.rhs, k) and _is_lit(e.lhs, 1)))
    )  # fmt: skip


def _len_at_least_one(a: Expr, x: str) -> bool:
    a = _replace_len(a, x)
    if not (isinstance(a, Chain) and len(a.ops) == 1):
        return False
    lhs, rhs = a.operands
    op = a.ops[0]
    ln = len_name(x)
    is_len = lambda e: isinstance(e, Path) and e.name == ln  # noqa: E731
    if is_len(lhs):
        return (op == ">=" and _is_lit(rhs, 1)) or (op == ">" and _is_lit(rhs, 0))
    if is_len(rhs):
        return (op == "<=" and _is_lit(lhs, 1)) or (op == "<" and _is_lit(lhs, 0))
    return False


def _guarded(a: Expr, x: str) -> tuple[str, Expr] | None:
    """``forall|k| 0 <= k < x.len() (- 1) ==> C``: ("unary"/"pair", C with k used only in x[k](, x[k+1]))."""
    if not (isinstance(a, Quant) and a.kind == "forall" and len(a.binders) == 1):
        return None
    k = a.binders[0][0]
    if k == x or not (isinstance(a.body, Binary) and a.body.op == "==>"):
        return None
    g, c = a.body.lhs, a.body.rhs
    if not (
        isinstance(g, Chain) and g.ops == ("<=", "<") and _is_lit(g.operands[0], 0)
        and _is_var(g.operands[1], k)
    ):  # fmt: skip
        return None
    end = _strip_int_cast(g.operands[2])
    if _is_len(end, x):
        role, idx = "unary", lambda i: _is_var(i, k)
    elif _is_last_index(end, x):
        role, idx = "pair", lambda i: _is_var(i, k) or _is_succ(i, k)
    else:
        return None
    accessed = lambda e: _elem(e, x, idx)  # noqa: E731
    if not (_only(c, x, accessed) and _only(c, k, accessed)):
        return None
    if x not in free_vars(c):
        return None
    return role, c


def path_shape(body: Expr, kind: str, x: str, inline: Inliner | None) -> PathShape | None:
    """The path shape of the one-binder quantifier ``kind |x| body`` (see the module doc), or None."""
    if kind == "forall":
        if not (isinstance(body, Unary) and body.op == "!"):
            return None
        pred = body.expr
    elif kind == "exists":
        pred = body
    else:
        return None
    atoms: list[tuple[str, Expr]] = []
    has_len = False
    for a in _leaves(pred, inline, 0):
        if x not in free_vars(a):
            atoms.append(("const", a))
        elif _len_at_least_one(a, x):
            has_len = True
        elif (g := _guarded(a, x)) is not None:
            atoms.append((g[0], a))
        elif _only(a, x, lambda e: _elem(e, x, lambda i: _is_lit(i, 0))):
            atoms.append(("first", a))
        elif _only(a, x, lambda e: _elem(e, x, lambda i: _is_last_index(i, x))):
            atoms.append(("last", a))
        else:
            return None
    if not has_len or not any(r == "unary" for r, _ in atoms):
        return None
    return PathShape(atoms)


def compile_shape(
    shape: PathShape, x: str, elem_bounds: list[Expr], compile: Callable[[Expr], Any]
) -> CompiledPath | None:
    """Compile the conjuncts (``compile`` in the quantifier's scope plus ``x``) but a walk's "length"
    ones (``seq_walks`` decides the length itself); None when the element bounds mention the length
    (the node set would change with the walk's length)."""
    if any(len_name(x) in free_vars(b) for b in elem_bounds):
        return None
    roles: dict[str, list[Any]] = {"unary": [], "first": [], "last": [], "pair": [], "const": []}
    for role, a in shape.atoms:
        if role != "length":
            roles[role].append(compile(a))
    return CompiledPath(roles, x)


def _holds(fns: list[Callable[[dict[str, Any]], Any]], env: dict[str, Any]) -> bool:
    for f in fns:
        v = f(env)
        if not isinstance(v, bool):
            raise rt.SpecUnsupported("a path conjunct is not a boolean")
        if not v:
            return False
    return True


class _Scan(Exception):
    """The candidates cannot be read off a stand-in and the range is too large to scan."""


def decide(cp: CompiledPath, env: dict[str, Any], lo: int | None, hi: int | None) -> Any:
    """A walk (a tuple) satisfying the path conjuncts, None when there is none, or ``UNDECIDED``.
    ``lo..hi``: the element range.

    Candidates for a start (``F(s[0])``) and for the successors of ``u`` (``R(u, s[k + 1])``) are read
    off an equality-only stand-in (``runtime.Fresh``) when the conjunct uses that element only in
    ``==`` tests and comes out FALSE with it: then only the integers it was compared with can satisfy
    it (every other value behaves like the stand-in). Otherwise the whole range is scanned (at most
    ``MAX_NODES`` values). Every candidate is then tested with its real value. Nodes are visited
    breadth first, candidates in increasing order, so the walk found (a shortest one) does not depend
    on hashing."""
    if lo is None or hi is None:
        return UNDECIDED
    env = dict(env)
    x = cp.x
    unary: dict[int, bool] = {}

    def test(role: str, seq: tuple[Any, ...]) -> bool:
        env[x] = seq
        return _holds(cp.roles[role], env)

    def is_node(v: int) -> bool:
        if v not in unary:
            unary[v] = test("unary", (v,))
        return unary[v]

    def candidates(role: str, prefix: tuple[Any, ...]) -> list[int] | range:
        fresh = rt.Fresh(f"{x}#next")
        try:
            held: bool | None = test(role, (*prefix, fresh))
        except rt.SpecError:
            held = None
        plain = all(isinstance(c, int) and not isinstance(c, bool) for c in fresh.compared)
        if held is False and plain:
            return sorted({c for c in fresh.compared if lo <= c <= hi})
        if hi - lo + 1 > MAX_NODES:
            raise _Scan
        return range(lo, hi + 1)

    try:
        if not test("const", ()):
            return None
        parent: dict[int, int | None] = {}
        queue: deque[int] = deque()
        for v in candidates("first", ()):
            if is_node(v) and test("first", (v,)):
                parent[v] = None
                queue.append(v)
        while queue:
            u = queue.popleft()
            if test("last", (u,)):
                walk = [u]
                while (p := parent[walk[-1]]) is not None:
                    walk.append(p)
                return tuple(reversed(walk))
            for v in candidates("pair", (u,)):
                if v not in parent and is_node(v) and test("pair", (u, v)):
                    parent[v] = u
                    queue.append(v)
    except (rt.SpecError, _Scan):
        return UNDECIDED
    return None


def walk_for(b: Any, env: dict[str, Any]) -> Any:
    """``decide`` for the evaluator's sequence binder ``b`` (its ``path``, ``elem`` and ``length``): the
    element range is the element bounds evaluated in ``env`` within the element type's range (integer
    element types only)."""
    base = b.elem.type_range()
    if base is None:
        return UNDECIDED
    env2 = dict(env)
    env2[b.length.name] = 1  # the bounds do not mention the length (``compile_shape``)
    try:
        lo, hi = b.elem.int_range(env2, base)
    except rt.SpecError:
        return UNDECIDED
    if not (isinstance(lo, int) and isinstance(hi, int)):  # unbounded, or an outer binder's stand-in
        return UNDECIDED
    return decide(b.path, env, lo, hi)
