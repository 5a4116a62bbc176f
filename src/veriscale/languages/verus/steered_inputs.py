"""Inputs built to satisfy ``requires`` by construction, and complete small domains.

``Steerer(spec, params, max_len=…)`` reads the constraint structure of the target's
``requires`` (``requires_model.RequiresModel``) over parameters that are integer /
char / bool scalars, sequences of them (``Vec``, ``String``, ``&Vec``…) or sequences
of integer sequences. Any other parameter type, or a ``requires`` without a parsed
clause, leaves ``ok`` False and nothing is generated (the sample-and-filter
candidates still run).

**Static ranges** (``static``): every scalar and every top-level length starts at its
type's range (lengths at ``[0, max_len]``, ``max_len2`` for a sequence of sequences)
and is narrowed by the plain (unquantified) conjuncts, each read against the others'
current ranges, until nothing moves (at most ``PROPAGATION_ROUNDS``): ``n == p.len()``
caps ``n`` by the length cap, ``a.len() == m - 1`` ties a length to a scalar, ``a <= b``
orders scalars.

**Steered inputs** (``inputs(seed, count)``), one at a time, cells in a fixed order:
top-level lengths, then scalars (each in parameter order), then every sequence's elements in
index order (row by row: the row's length, then its elements). Each cell's value is
drawn from what the conjuncts leave possible given the cells already fixed:

* plain conjuncts that mention the cell;
* every ``forall`` instantiated at the binder values that make one of its references
  ``p[e]`` / ``p[e1][e2]`` / ``p[e].len()`` name the cell (``e`` of the form ``i``,
  ``i + c``, ``i - c`` or binder-free); a binder left unsolved ranges over
  ``0 .. longest length + 1``; an instance counts only when all its guards are decided
  true. So ``0 <= i < n ==> lo <= a[i] <= hi`` gives a range, ``a[i] <= n`` a bound
  from the fixed ``n``, ``index[i] <= i`` a bound from the index, ``a[i] < a[i + 1]``
  and pairwise ``i < j ==> a[i] <= a[j]`` a bound from earlier elements (strict or
  weak order), ``i != j ==> a[i] != a[j]`` excluded values (distinct elements, and
  with a range of ``n`` values a permutation), ``p[i].len() == 2`` /
  ``== p[0].len()`` row lengths, ``x == 'Y' || x == 'N'`` or ``valid_latin(c)`` (inlined)
  a union of ranges.

Value choice: one input in eight takes its top-level lengths from a ladder (0, 1, 2, 3,
5, 8, … up to the cap), the others up to 20 above the smallest length allowed (rows: up to
8); generation stops after ``MAX_CELLS`` cells (a count). A value bounded from below by an earlier element (an order) steps up by at most
the room left divided by the elements still to place, so long ordered sequences fit;
other values mix corners, small magnitudes, log-uniform magnitudes and uniform draws.
An unbounded side of an integer range is cut ``DEFAULT_SPAN`` beyond the other side.
After the elements, an ``exists|i| … x == p[i] …`` conjunct that does not hold yet sets
the scalar ``x`` to a witness element. An input whose cell has no possible value is
dropped (``ATTEMPTS`` × ``count`` tries at most). Nothing is assumed: the caller checks
every input with the ground-truth ``requires``.

**Small domains** (``domain(cap)``): when every parameter is a scalar and the static
box holds at most ``cap`` points, the whole box in lexicographic order. The static
ranges only use necessary conditions (and a cast in a plain conjunct must be exact: to
``int``, or of a parameter whose type fits the target type; otherwise no box), so every input ``requires`` accepts is in the
box: checking the box with ``requires`` yields the **whole** valid domain.

Deterministic for a seed (``random.Random``; no set decides an order).
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Collection, Sequence
from typing import Any

from ...values.types import Type
from .requires_model import NEG, POS, Env, ForallC, RequiresModel, ValueSet, kind_of, names_in
from .spec.ast import Binary, Chain, Expr, Lit, Path
from .spec.ast import Quant as _Quant

__all__ = ["DOMAIN_FAMILY", "STEER_FAMILY", "Steerer"]

STEER_FAMILY = "steered"
DOMAIN_FAMILY = "domain"
DEFAULT_SPAN = 100
PROPAGATION_ROUNDS = 8
ATTEMPTS = 3
MAX_CELLS = 12_000  # cells placed per call of ``inputs`` at most
FREE_CAP = 16  # values tried for a binder the cell does not determine (nearest indices first)
LADDER = (0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 100, 200, 500, 1000)
LETTERS = (ord("a"), ord("z"))


class Steerer:
    """See the module docstring. ``params``: (name in ``spec``, Rust type); ``rename`` maps a spec name to
    the name the input is keyed by (the reference's)."""

    def __init__(self, spec: Any, params: Sequence[tuple[str, Type]], *, max_len: int = 200,
                 max_len2: int = 20, rename: dict[str, str] | None = None) -> None:  # fmt: skip
        self.names = [n for n, _ in params]
        self.rename = rename or {}
        kinds = {n: kind_of(t) for n, t in params}
        self.ok = (
            bool(params)
            and all(k is not None for k in kinds.values())
            and any(c.expr is not None for c in spec.requires)
        )
        self.kinds: dict[str, tuple[Any, ...]] = {n: k for n, k in kinds.items() if k is not None}
        self.max_len, self.max_len2 = max_len, max_len2
        self.model = RequiresModel(spec, self.kinds) if self.ok else None
        self.static: dict[tuple[Any, ...], tuple[int, int]] = {}
        self.cells = 0  # cells placed by the last ``inputs`` call
        self._uniform: dict[
            tuple[int, str, int], ValueSet | None
        ] = {}  # uniform foralls' sets, per cell kind
        self.feasible = self.ok and self._propagate()

    # ---- static ranges
    def _top_cells(self) -> list[tuple[Any, ...]]:
        cells: list[tuple[Any, ...]] = []
        for n in self.names:
            k = self.kinds[n]
            cells.append(("v", n) if k[0] == "scalar" else ("len", n))
        return cells

    def _propagate(self, skip: frozenset[int] = frozenset()) -> bool:
        """Fill ``self.static`` from the plain conjuncts (but those at the positions in ``skip``)."""
        m = self.model
        assert m is not None
        for n in self.names:
            k = self.kinds[n]
            if k[0] == "scalar":
                self.static[("v", n)] = (k[1][1], k[1][2])
            else:
                self.static[("len", n)] = (0, self.max_len if k[0] == "seq" else self.max_len2)
        for _ in range(PROPAGATION_ROUNDS):
            moved = False
            for c in self._top_cells():
                env = Env({}, {x: v for x, v in self.static.items() if x != c})
                s = self._plain_allowed(c, env, skip)
                if s is None:
                    continue
                lo, hi = self.static[c]
                s = s.meet(ValueSet([(lo, hi)]))
                h = s.hull()
                if h is None:
                    return False
                if h != (lo, hi):
                    self.static[c] = h
                    moved = True
            if not moved:
                break
        return True

    def _plain_allowed(
        self, cell: tuple[Any, ...], env: Env, skip: frozenset[int] = frozenset()
    ) -> ValueSet | None:
        m = self.model
        assert m is not None
        out: ValueSet | None = None
        inner = len(cell) > 2  # an element or a row length: only conjuncts that index its sequence
        for pos, (e, indexed) in enumerate(zip(m.plain, m.plain_indexed)):
            if pos in skip or (inner and cell[1] not in indexed) or cell[1] not in names_in(e):
                continue
            s = m.allowed(e, cell, env)
            if s is not None:
                out = s if out is None else out.meet(s)
        return out

    # ---- small domains
    def domain(self, cap: int) -> list[dict[str, Any]] | None:
        """Every point of the static box when all parameters are scalars and it has at most ``cap``."""
        if not self.feasible or not all(self.kinds[n][0] == "scalar" for n in self.names):
            return None
        m = self.model
        assert m is not None
        inexact = frozenset(k for k, e in enumerate(m.plain) if not m.exact_casts(e, {}))
        if inexact:  # casts the reader looks through must be exact: on the box of the other conjuncts
            keep = dict(self.static)
            try:
                self._propagate(inexact)
                box = {n: self.static[("v", n)] for n in self.names}
            finally:
                self.static = keep
            if not all(m.exact_casts(m.plain[k], box) for k in inexact):
                return None
        ranges = [self.static[("v", n)] for n in self.names]
        if math.prod(hi - lo + 1 for lo, hi in ranges) > cap:
            return None
        out = []
        for combo in itertools.product(*(range(lo, hi + 1) for lo, hi in ranges)):
            vals = {("v", n): v for n, v in zip(self.names, combo)}
            out.append(self._render(vals))
        return out

    # ---- steered inputs
    def inputs(self, seed: int, count: int, max_cells: int = MAX_CELLS) -> list[dict[str, Any]]:
        """Up to ``count`` distinct inputs; generation stops once ``max_cells`` cells were placed (a count:
        each cell costs a look at every conjunct that names it)."""
        if not self.feasible:
            return []
        rng = random.Random(seed)
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        self.cells = 0
        for k in range(count * ATTEMPTS):
            if len(out) >= count or self.cells >= max_cells:
                break
            vals = self._one(rng, k)
            if vals is None:
                continue
            inp = self._render(vals)
            key = json.dumps(inp, sort_keys=True, ensure_ascii=False)
            if key not in seen:
                seen.add(key)
                out.append(inp)
        return out

    def _one(self, rng: random.Random, k: int) -> dict[tuple[Any, ...], int] | None:
        m = self.model
        assert m is not None
        vals: dict[tuple[Any, ...], int] = {}
        static = dict(self.static)
        # lengths first: a scalar tied to a length (``n == p.len()``) then follows the length's short draw
        for c in sorted(self._top_cells(), key=lambda c: c[0] != "len"):
            env = Env(vals, {x: v for x, v in static.items() if x not in vals and x != c})
            s = self._plain_allowed(c, env) or ValueSet()
            s = s.meet(ValueSet([static[c]]))
            v = self._pick(rng, s, c, k, 0)
            if v is None:
                return None
            vals[c] = v
        for n in self.names:
            kind = self.kinds[n]
            if kind[0] == "seq":
                length = vals[("len", n)]
                hint = self._direction(vals, static, n, kind[1]) if length >= 2 else set()
                for i in range(length):
                    if not self._fill(
                        rng, vals, static, ("e", n, i), kind[1], length - 1 - i, k, hint if i == 0 else set()
                    ):
                        return None
            elif kind[0] == "seq2":
                rows = vals[("len", n)]
                for r in range(rows):
                    if not self._fill(rng, vals, static, ("len", n, r), ("len", 0, self.max_len2), 0, k):
                        return None
                    cols = vals[("len", n, r)]
                    for c in range(cols):
                        left = (rows - 1 - r) * cols + cols - 1 - c  # cells still to place, rows alike
                        if not self._fill(rng, vals, static, ("e", n, r, c), kind[1], left, k):
                            return None
        return vals if self._witnesses(rng, vals, static) else None

    def _fill(self, rng: random.Random, vals: dict[tuple[Any, ...], int], static: dict[tuple[Any, ...], tuple[int, int]],
              cell: tuple[Any, ...], kind: tuple[Any, ...], remaining: int, k: int,
              hint: Collection[str] = ()) -> bool:  # fmt: skip
        s = self._cell_allowed(cell, vals, static) or ValueSet()
        s = s.meet(ValueSet([(kind[1], kind[2])]))
        if hint and not s.ordered:  # the first element of an ordered sequence leaves room for the rest
            s.ordered = set(hint)
        v = self._pick(rng, s, cell, k, remaining, kind[0])
        if v is None:
            return False
        vals[cell] = v
        self.cells += 1
        return True

    def _direction(self, vals: dict[tuple[Any, ...], int], static: dict[tuple[Any, ...], tuple[int, int]],
                   n: str, kind: tuple[Any, ...]) -> set[str]:  # fmt: skip
        """Is ``n`` ordered? A dry look at element 1 with element 0 at the middle of its range: an element
        bound from below (``lo``, increasing) or above (``hi``, decreasing) by element 0; else nothing."""
        s0 = (self._cell_allowed(("e", n, 0), vals, static) or ValueSet()).meet(
            ValueSet([(kind[1], kind[2])])
        )
        h = s0.hull()
        if h is None:
            return set()
        lo, hi = max(h[0], -(2**62)), min(h[1], 2**62)
        vals[("e", n, 0)] = (lo + hi) // 2
        try:
            s1 = self._cell_allowed(("e", n, 1), vals, static)
        finally:
            del vals[("e", n, 0)]
        return set(s1.ordered) if s1 is not None and len(s1.ordered) == 1 else set()

    def _cell_allowed(self, cell: tuple[Any, ...], vals: dict[tuple[Any, ...], int],
                      static: dict[tuple[Any, ...], tuple[int, int]]) -> ValueSet | None:  # fmt: skip
        m = self.model
        assert m is not None
        env = Env(vals, {x: v for x, v in static.items() if x not in vals})
        out = self._plain_allowed(cell, env)
        p = cell[1]
        idx = cell[2:]
        longest = max((v for c, v in vals.items() if c[0] == "len"), default=0) + 1
        for fc in m.foralls:
            done: set[tuple[tuple[str, int], ...]] = set()
            for chain in fc.refs.get(p, ()):
                if len(chain) != len(idx) and not (cell[0] == "len" and len(chain) == 1):
                    continue
                for sol in _instances(m, fc, chain, cell, env, longest):
                    key = tuple(sorted(sol.items()))
                    if key in done:
                        continue
                    done.add(key)
                    ienv = Env(vals, env.static, sol)
                    if not all(m.truth(g, ienv) is True for g in fc.guards):
                        continue
                    ukey = (id(fc), cell[0], len(cell))
                    if fc.uniform and ukey in self._uniform:
                        s = self._uniform[ukey]
                    else:
                        s = m.allowed(fc.body, cell, ienv)
                        if fc.uniform:
                            self._uniform[ukey] = s
                    if s is not None:
                        out = s if out is None else out.meet(s)
        return out

    def _witnesses(self, rng: random.Random, vals: dict[tuple[Any, ...], int],
                   static: dict[tuple[Any, ...], tuple[int, int]]) -> bool:  # fmt: skip
        """``exists|i| … && x == p[i] && …`` not yet true: ``x`` becomes the element of a random ``i``
        whose other conjuncts hold. False when such an ``exists`` has no ``i`` at all (an empty ``p``)."""
        m = self.model
        assert m is not None
        longest = max((v for c, v in vals.items() if c[0] == "len"), default=0) + 1
        for q in m.exists:
            if len(q.binders) != 1:
                continue
            b = q.binders[0][0]
            env = Env(vals, {})
            if any(m.truth(q.body, Env(vals, {}, {b: i})) is True for i in range(longest)):
                continue
            conj = _conjuncts(q.body)
            for eq in conj:
                if not (isinstance(eq, Chain) and eq.ops == ("==",)):
                    continue
                rest = [c for c in conj if c is not eq]
                for x, y in (eq.operands, eq.operands[::-1]):
                    cx = m.cell_of(x, env)
                    if cx is None or cx[0] != "v":
                        continue
                    ok = [
                        i
                        for i in range(longest)
                        if all(m.truth(c, Env(vals, {}, {b: i})) is True for c in rest)
                    ]
                    if not ok:
                        return False
                    i = rng.choice(ok)
                    v = m.point(y, Env(vals, {}, {b: i}))
                    if v is not None and static[cx][0] <= v <= static[cx][1]:
                        vals[cx] = v
                        break
                else:
                    continue
                break
        return True

    def _pick(self, rng: random.Random, s: ValueSet, cell: tuple[Any, ...], k: int, remaining: int,
              kind: str = "") -> int | None:  # fmt: skip
        if not kind:
            kind = "len" if cell[0] == "len" else self.kinds[cell[1]][1][0]
        ivals = [(lo, hi) for lo, hi in s.ivals if lo <= hi]
        if not ivals:
            return None
        lo, hi = ivals[0][0], ivals[-1][1]
        if kind == "char" and (lo <= 0 and hi >= 0x10FFFF):  # no constraint read: lower-case letters
            ivals = [LETTERS]
        elif lo <= NEG // 2 or hi >= POS // 2 or (kind == "int" and hi - lo > 2**62):
            a = lo if lo > NEG // 2 else None
            b = hi if hi < POS // 2 else None
            if a is None and b is None:
                a, b = -DEFAULT_SPAN, DEFAULT_SPAN
            elif a is None:
                a = b - 2 * DEFAULT_SPAN if b is not None and b < DEFAULT_SPAN else -DEFAULT_SPAN
            elif b is None:
                b = a + 2 * DEFAULT_SPAN if a > -DEFAULT_SPAN else DEFAULT_SPAN
            assert a is not None and b is not None
            ivals = [(max(x, a), min(y, b)) for x, y in ivals if max(x, a) <= min(y, b)] or [(a, a)]
        total = sum(y - x + 1 for x, y in ivals)
        if s.excluded and total <= 4096:
            pool = [v for x, y in ivals for v in range(x, y + 1) if v not in s.excluded]
            if not pool:
                return None
            return pool[rng.randrange(len(pool))]
        for _ in range(30):
            r = rng.randrange(total)
            for x, y in ivals:
                if r <= y - x:
                    break
                r -= y - x + 1
            v = self._within(rng, x, y, s, cell, k, remaining, kind)
            if v not in s.excluded:
                return v
        return None

    def _within(self, rng: random.Random, lo: int, hi: int, s: ValueSet, cell: tuple[Any, ...], k: int,
                remaining: int, kind: str) -> int:  # fmt: skip
        if kind == "len":  # one input in eight climbs the ladder, the others stay short (cheap to check)
            if len(cell) == 2 and k % 8 == 0:
                want = LADDER[(k // 8) % len(LADDER)]
            else:
                want = rng.randint(lo, min(hi, lo + (20 if len(cell) == 2 else 8)))
            return min(hi, max(lo, want))
        if "lo" in s.ordered and "hi" not in s.ordered:
            return lo + rng.randint(0, max(0, (hi - lo) // (remaining + 1)))
        if "hi" in s.ordered and "lo" not in s.ordered:
            return hi - rng.randint(0, max(0, (hi - lo) // (remaining + 1)))
        r = rng.random()
        if r < 0.15:
            return rng.choice([lo, hi, min(hi, lo + 1), max(lo, hi - 1)])
        if hi - lo > 1000 and r < 0.45:
            base = 0 if lo <= 0 <= hi else lo
            return min(hi, max(lo, base + rng.randint(-20, 20)))
        if hi - lo > 1000 and r < 0.7:
            base = 0 if lo <= 0 <= hi else lo
            span = max(hi - base, base - lo, 1)
            mag = int(10 ** (rng.random() * math.log10(span + 1)))
            sign = 1 if base == lo or (hi > base and rng.random() < 0.5) else -1
            return min(hi, max(lo, base + sign * mag))
        return rng.randint(lo, hi)

    # ---- output
    def _render(self, vals: dict[tuple[Any, ...], int]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for n in self.names:
            k = self.kinds[n]
            key = self.rename.get(n, n)
            if k[0] == "scalar":
                out[key] = _scalar(vals[("v", n)], k[1][0])
            elif k[0] == "seq":
                items = [vals[("e", n, i)] for i in range(vals[("len", n)])]
                out[key] = "".join(map(chr, items)) if k[2] else [_scalar(v, k[1][0]) for v in items]
            else:
                out[key] = [[_scalar(vals[("e", n, r, c)], k[1][0]) for c in range(vals[("len", n, r)])]
                            for r in range(vals[("len", n)])]  # fmt: skip
        return out


def _scalar(v: int, kind: str) -> Any:
    return chr(v) if kind == "char" else bool(v) if kind == "bool" else v


def _conjuncts(e: Expr) -> list[Expr]:
    if isinstance(e, Binary) and e.op == "&&":
        return _conjuncts(e.lhs) + _conjuncts(e.rhs)
    return [e]


def _instances(m: RequiresModel, fc: ForallC, chain: tuple[Expr, ...], cell: tuple[Any, ...], env: Env,
               longest: int) -> list[dict[str, int]]:  # fmt: skip
    """Binder values under which the reference ``chain`` names the index ``idx`` (unsolved binders:
    every value ``0 .. longest``; more than one unsolved binder: none)."""
    idx = cell[2:]
    sol: dict[str, int] = {}
    for e, t in zip(chain, idx):
        got = _solve(m, e, t, fc.binders, env)
        if got is None:
            return []
        for b, v in got.items():
            if sol.get(b, v) != v:
                return []
            sol[b] = v
    free = [b for b in fc.binders if b not in sol]
    if len(free) > 1:
        return []
    if not free:
        return [sol]
    # the free binder: only values under which every element the body references is already fixed
    # (or is the cell itself), nearest the cell's index first, at most FREE_CAP of them among the 3 * FREE_CAP nearest
    here = idx[0]
    order = sorted(range(longest), key=lambda v: (abs(v - here), v))
    out: list[dict[str, int]] = []
    for v in order[: 3 * FREE_CAP]:
        inst = {**sol, free[0]: v}
        if _refs_fixed(m, fc, inst, env, cell):
            out.append(inst)
            if len(out) >= FREE_CAP:
                break
    return out


def _refs_fixed(m: RequiresModel, fc: ForallC, inst: dict[str, int], env: Env, cell: tuple[Any, ...]) -> bool:
    ienv = Env(env.vals, env.static, inst)
    for p, chains in fc.refs.items():
        seq2 = m.kinds[p][0] == "seq2"
        for ch in chains:
            if seq2 and len(ch) == 1:
                continue
            pts = [m.point(e, ienv) for e in ch]
            if any(x is None for x in pts):
                return False
            ref = ("e", p, *pts)
            if ref != cell and ref not in env.vals:
                return False
    return True


def _solve(m: RequiresModel, e: Expr, t: int, binders: tuple[str, ...], env: Env) -> dict[str, int] | None:
    """Binder values making index expression ``e`` equal ``t`` (``b``, ``b ± c``, ``c + b``, or binder-free)."""
    from .requires_model import _strip

    e = _strip(e)
    if isinstance(e, Path) and e.is_local and e.name in binders:
        return {e.name: t}
    if isinstance(e, Binary) and e.op in ("+", "-"):
        lhs, rhs = _strip(e.lhs), _strip(e.rhs)
        if isinstance(lhs, Path) and lhs.name in binders and isinstance(rhs, Lit) and rhs.kind == "int":
            return {lhs.name: t - rhs.value if e.op == "+" else t + rhs.value}
        if e.op == "+" and isinstance(rhs, Path) and rhs.name in binders and isinstance(lhs, Lit):
            return {rhs.name: t - lhs.value}
    if _has_binder(e, binders):
        return None
    v = m.point(e, env)
    return {} if v == t else None


def _has_binder(e: Any, binders: tuple[str, ...]) -> bool:
    import dataclasses

    if isinstance(e, Path):
        return e.is_local and e.name in binders
    if isinstance(e, _Quant):
        return True
    if dataclasses.is_dataclass(e) and not isinstance(e, type):
        for f in dataclasses.fields(e):
            v = getattr(e, f.name)
            for x in v if isinstance(v, tuple) else (v,):
                if dataclasses.is_dataclass(x) and not isinstance(x, type) and _has_binder(x, binders):
                    return True
    return False
