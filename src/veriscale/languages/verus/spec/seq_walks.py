"""Walks of a given length: a sequence binder whose predicate is a path predicate plus length conditions.

**Shape.** One sequence binder ``s`` of an integer element type in ``exists|s| P(s)``,
``forall|s| !P(s)`` (also written ``forall|s| A(s) ==> !B(s)``, ``P = A && B``) or
``forall|s| P(s) ==> C``, where ``P``'s conjuncts (boolean spec fns inlined,
``let``s substituted) are those of ``seq_paths`` — *unary* ``forall|k| 0 <= k < s.len() ==> U(s[k])``,
*pair* ``forall|k| 0 <= k < s.len() - 1 ==> R(s[k], s[k + 1])``, *first* ``F(s[0])``, *last*
``L(s[s.len() - 1])``, ``s``-free conjuncts — plus *length* conjuncts that use ``s`` only as
``s.len()`` (``s.len() == len``, ``s.len() >= 1``), and ``C`` uses ``s`` only as ``s.len()``. At least
one unary conjunct and one length conjunct (without a length conjunct ``seq_paths`` decides it); the
element bounds may not mention the length. lc1340: ``exists|path| path.len() == len && is_valid_path(…)``.

**Why one walk per length is a complete domain.** Call the non-length conjuncts ``W(s)``. On an ``s``
with ``W(s)`` the body's truth depends on ``s.len()`` alone (the length conjuncts and ``C`` see nothing
else); on an ``s`` without ``W(s)`` the body is false (``exists``) or true (``forall``) — never a
witness or counterexample. So for each length ``n`` of the binder's (plan-derived, sound) length range,
one ``s`` of length ``n`` with ``W(s)`` — if there is one — decides every instance of that length, and
the real body is evaluated on it. Length 0: the empty sequence itself is the only candidate.

**Layers.** For ``n >= 1``, ``W(s)`` says ``s`` is a walk of ``n`` nodes in the graph on
``{v in V : U(v)}`` (``V`` the element range) with edges ``R``, starting where ``F`` holds and ending
where ``L`` holds. ``S_1 = {v : U(v), F(v)}``, ``S_{k+1} = {v : U(v), exists u in S_k. R(u, v)}`` are the
possible last nodes of such walks of ``k`` nodes (before ``L``); a walk of ``n`` nodes exists iff
``S_n`` meets ``L``. It is rebuilt backwards: the least ``v`` of ``S_n`` with ``L(v)``, then repeatedly
the least predecessor in the previous layer (deterministic). Once a layer is empty all later ones are
(``succ(∅) = ∅``): with ``K`` the first empty layer, no length ``>= K`` has a walk. If ``S_k`` is not
empty for ``k = |V| + 1`` some walk repeats a node, hence walks of every larger length exist: an
unbounded length range is then not finite (undecided here).

**Lengths that are an outer binder's affine stand-in** (``forall|k| k > r ==> !has_path_of_length(k)``
binds ``len`` to a stand-in over ``[r + 1, ∞)``): the domain is empty iff the piece lies at or past
``K`` — the comparison ``lo >= K`` splits the piece when it does not (``affine.Split``); a piece before
``K`` is left to the other strategies (which enumerate a finite piece value by value).

Anything else — an evaluation error, a range of more than ``seq_paths.MAX_NODES`` values to scan, more
than ``MAX_LAYERS`` layers — leaves the binder to its other strategies (``None``), UNKNOWN at worst.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from veriscale.runtime import limits

from . import runtime as rt
from .affine import Affine
from .ast import Binary, Expr, Unary
from .bounds import free_vars
from .seq_paths import (
    MAX_NODES,
    CompiledPath,
    PathShape,
    _elem,
    _guarded,
    _is_last_index,
    _is_len,
    _leaves,
    _len_at_least_one,
    _only,
    compile_shape,
)
from .seq_shapes import _is_lit

__all__ = ["MAX_LAYERS", "CompiledWalk", "WalkShape", "compile_shape", "domain_for", "walk_shape"]

MAX_LAYERS = 4096  # layers built for one length range (each costs a scan of the previous one)

Inliner = Callable[[Any], Expr | None]


# A walk's conjuncts by role are a path's (``seq_paths``) plus "length", which ``compile_shape`` leaves out.
WalkShape = PathShape
CompiledWalk = CompiledPath


def _len_only(e: Expr, x: str) -> bool:
    """``x`` occurs in ``e`` (and does) only as ``x.len()``."""
    return x in free_vars(e) and _only(e, x, lambda c: _is_len(c, x))


def _role(a: Expr, x: str) -> str | None:
    if x not in free_vars(a):
        return "const"
    if _len_at_least_one(a, x) or _len_only(a, x):
        return "length"
    g = _guarded(a, x)
    if g is not None:
        return g[0]
    if _only(a, x, lambda e: _elem(e, x, lambda i: _is_lit(i, 0))):
        return "first"
    if _only(a, x, lambda e: _elem(e, x, lambda i: _is_last_index(i, x))):
        return "last"
    return None


def walk_shape(body: Expr, kind: str, x: str, inline: Inliner | None) -> WalkShape | None:
    """The walk shape of the one-binder quantifier ``kind |x| body`` (see the module doc), or None."""
    if kind == "exists":
        preds = [body]
    elif kind == "forall" and isinstance(body, Unary) and body.op == "!":
        preds = [body.expr]
    elif kind == "forall" and isinstance(body, Binary) and body.op == "==>" and _len_only(body.rhs, x):
        preds = [body.lhs]
    elif kind == "forall" and isinstance(body, Binary) and body.op == "==>" and isinstance(body.rhs, Unary):
        if body.rhs.op != "!":
            return None
        preds = [body.lhs, body.rhs.expr]  # A ==> !B is !(A && B)
    else:
        return None
    atoms: list[tuple[str, Expr]] = []
    for a in [leaf for p in preds for leaf in _leaves(p, inline, 0)]:
        role = _role(a, x)
        if role is None:
            return None
        atoms.append((role, a))
    roles = {r for r, _ in atoms}
    if "unary" not in roles or "length" not in roles:
        return None
    return WalkShape(atoms)


class _Give(Exception):
    """This strategy does not apply here (the caller keeps its other strategies)."""


def _holds(fns: list[Callable[[dict[str, Any]], Any]], env: dict[str, Any]) -> bool:
    for f in fns:
        v = f(env)
        if not isinstance(v, bool):
            raise _Give
        if not v:
            return False
    return True


class _Graph:
    """The node set and edges of the walk predicate in ``env``, evaluated lazily and memoised."""

    def __init__(self, cw: CompiledWalk, env: dict[str, Any], lo: int, hi: int) -> None:
        self.cw = cw
        self.env = dict(env)
        self.lo, self.hi = lo, hi
        self.unary: dict[int, bool] = {}
        self.succ: dict[int, list[int]] = {}

    def test(self, role: str, seq: tuple[Any, ...]) -> bool:
        self.env[self.cw.x] = seq
        return _holds(self.cw.roles[role], self.env)

    def is_node(self, v: int) -> bool:
        if v not in self.unary:
            self.unary[v] = self.test("unary", (v,))
        return self.unary[v]

    def candidates(self, role: str, prefix: tuple[Any, ...]) -> list[int] | range:
        """As ``seq_paths.decide``: read off an equality-only stand-in, else the whole (small) range."""
        fresh = rt.Fresh(f"{self.cw.x}#next")
        try:
            held: bool | None = self.test(role, (*prefix, fresh))
        except rt.SpecError:
            held = None
        plain = all(isinstance(c, int) and not isinstance(c, bool) for c in fresh.compared)
        if held is False and plain:
            return sorted({c for c in fresh.compared if self.lo <= c <= self.hi})
        if self.hi - self.lo + 1 > MAX_NODES:
            raise _Give
        return range(self.lo, self.hi + 1)

    def firsts(self) -> list[int]:
        return [v for v in self.candidates("first", ()) if self.is_node(v) and self.test("first", (v,))]

    def successors(self, u: int) -> list[int]:
        if u not in self.succ:
            self.succ[u] = [
                v for v in self.candidates("pair", (u,)) if self.is_node(v) and self.test("pair", (u, v))
            ]
        return self.succ[u]


def _layers(g: _Graph, upto: int | None) -> list[list[int]]:
    """``[S_1, S_2, …]`` up to ``S_upto`` or the first empty layer (included); with ``upto`` None, up to
    the first empty layer or layer ``|V| + 1`` (then walks of every larger length exist)."""
    cap = (g.hi - g.lo + 2) if upto is None else upto
    layers = [sorted(g.firsts())]
    while layers[-1] and len(layers) < cap:
        if len(layers) >= MAX_LAYERS:
            raise _Give
        limits.charge(1)
        nxt: set[int] = set()
        for u in layers[-1]:
            nxt.update(g.successors(u))
        layers.append(sorted(nxt))
    return layers


def _walk(g: _Graph, layers: list[list[int]], n: int) -> tuple[int, ...] | None:
    """A walk of ``n`` nodes (least end node, least predecessors), None when there is none."""
    ends = [v for v in layers[n - 1] if g.test("last", (v,))]
    if not ends:
        return None
    walk = [ends[0]]
    for k in range(n - 2, -1, -1):
        v = walk[-1]
        walk.append(next(u for u in layers[k] if v in g.successors(u)))
    return tuple(reversed(walk))


def domain_for(b: Any, env: dict[str, Any]) -> Iterator[tuple[Any, ...]] | list[Any] | None:
    """One walk per length of the evaluator's sequence binder ``b`` (its ``walk``, ``elem`` and
    ``length``) in ``env``, the empty sequence for length 0: a complete domain (module doc); None when
    not applicable."""
    cw: CompiledWalk = b.walk
    base = b.elem.type_range()
    if base is None:
        return None
    env2 = dict(env)
    env2[b.length.name] = 1  # the element bounds do not mention the length (``compile_shape``)
    try:
        lo, hi = b.elem.int_range(env2, base)
        if not (isinstance(lo, int) and isinstance(hi, int)):
            return None
        g = _Graph(cw, env, lo, hi)
        if not g.test("const", ()):
            return []
        n_lo, n_hi = b.length.int_range(env, (0, None))
        if n_lo.__class__ is Affine or n_hi.__class__ is Affine:
            layers = _layers(g, None)
            if layers[-1]:
                return None
            # every length of the range is >= n_lo: none has a walk when n_lo >= the first empty layer
            low = 0 if n_lo is None else n_lo
            return [] if low >= len(layers) else None  # (a stand-in's comparison may split its piece)
        if n_lo is None:
            n_lo = 0
        n_lo = max(n_lo, 0)
        if n_hi is not None and n_hi < n_lo:
            return []
        layers = _layers(g, None if n_hi is None else max(n_hi, 1))
        if n_hi is None:
            if layers[-1]:
                return None  # walks of every length from some point on: not a finite domain
            n_hi = len(layers)
        out: list[tuple[Any, ...]] = [()] if n_lo == 0 else []
        for n in range(max(n_lo, 1), n_hi + 1):
            if n > len(layers) or not layers[n - 1]:
                break
            w = _walk(g, layers, n)
            if w is not None:
                out.append(w)
        return out
    except (rt.SpecError, _Give):
        return None
