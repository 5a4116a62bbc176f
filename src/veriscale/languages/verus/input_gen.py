"""Candidate test inputs for a Verus-specified function, from its parameter types and ``requires`` bounds.

``candidate_inputs(params, bounds, seed, …)`` returns ``(family, input)`` pairs,
inputs as JSON values keyed by parameter name (the VeriContest test-file form).
Families, interleaved round-robin so any prefix mixes them:

* ``boundary``  — every parameter at a corner of its range (low, high, low+1,
  high-1, 0/±1 when in range), lengths at their smallest and largest;
* ``ladder``    — random inputs at lengths 0, 1, 2, 3, 5, 8, … up to the
  largest length the bounds allow (capped by ``max_len``);
* ``shape``     — structured integer vectors: sorted, reverse sorted, all equal,
  strictly increasing, a permutation of ``lo..lo+n``, alternating low/high;
* ``pool``      — values drawn from the constants of ``requires`` (±1), so
  clauses such as ``x == 0 || x == 1`` are met;
* ``small``     — the small-scope pool: every combination of a few tiny values
  per parameter (first values of each range, lengths 0–2), in a fixed order;
* ``random``    — values in the ranges (a wide integer range: a third small, a third of
  log-uniform magnitude, a third uniform), lengths up to 20.

Nothing here is trusted: the caller keeps only inputs the ground-truth
precondition accepts. Deterministic for a seed (``random.Random(seed)``;
sets never decide order).
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Sequence
from typing import Any

from ...values.rust_types import INT_RANGES
from ...values.types import UNIT, TCon, Type
from .requires_bounds import Bounds

__all__ = ["FAMILIES", "candidate_inputs"]

FAMILIES = ("boundary", "ladder", "shape", "pool", "small", "random")
DEFAULT_SPAN = 100  # an unbounded integer is drawn from [-SPAN, SPAN] ∩ its type (plus the corners)
LADDER = (0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 100, 200, 500, 1000, 2000, 5000, 10000)


class _Gen:
    def __init__(self, bounds: Bounds, rng: random.Random, max_len: int,
                 structs: dict[str, list[tuple[str, Type]]]) -> None:  # fmt: skip
        self.b = bounds
        self.rng = rng
        self.max_len = max_len
        self.structs = structs

    # ---- ranges
    def int_range(self, t: TCon, subj: str, wide: bool = False) -> tuple[int, int]:
        lo, hi = INT_RANGES.get(t.name, (-(2**63), 2**63 - 1))
        if subj in self.b.lo or subj in self.b.hi or wide:
            return self.b.range(subj, lo, hi)
        return max(lo, -DEFAULT_SPAN), min(hi, DEFAULT_SPAN)

    def len_range(self, subj: str) -> tuple[int, int]:
        lo, hi = self.b.range(f"len({subj})", 0, self.max_len)
        vals = self.b.values.get(f"len({subj})")
        if vals:  # `p[i].len() == 2`: only those lengths
            lo, hi = max(lo, min(vals)), min(hi, max(vals))
        return lo, max(lo, min(hi, self.max_len))

    def chars(self) -> list[str]:
        cs = [c for c in self.b.chars if c.isprintable()]
        if len(cs) >= 2 and all(c.isalpha() for c in cs):  # 'a' <= c <= 'z': the whole span
            lo, hi = min(cs), max(cs)
            return [chr(k) for k in range(ord(lo), ord(hi) + 1)]
        return cs or list("abcdefghijklmnopqrstuvwxyz")

    # ---- values
    def value(self, t: Type, subj: str, mode: str, n: int | None = None) -> Any:
        assert isinstance(t, TCon)
        name = t.name
        rng = self.rng
        if name in INT_RANGES:
            vals = self.b.values.get(subj)
            if vals:  # `x == 0 || x == 1`: only those values
                return rng.choice(vals)
            lo, hi = self.int_range(t, subj)
            if lo > hi:
                lo, hi = hi, lo
            if mode == "boundary":
                corners = [lo, hi, lo + 1, hi - 1] + [v for v in (0, 1, -1) if lo <= v <= hi]
                return rng.choice([c for c in corners if lo <= c <= hi] or [lo])
            if mode == "pool" and self.b.consts:
                c = rng.choice(self.b.consts) + rng.choice((-1, 0, 0, 1))
                return min(hi, max(lo, c))
            if mode == "small":
                return lo if lo > -3 else max(lo, rng.choice((0, 1, -1, 2)))
            if hi - lo > 1000:
                r = rng.random()
                if r < 0.35:  # small magnitudes are where off-by-ones live
                    base = 0 if lo <= 0 <= hi else lo
                    return min(hi, max(lo, base + rng.randint(-20, 20)))
                if r < 0.7:  # a magnitude ladder: every decade equally (specs are often linear in a value)
                    return _log_uniform(rng, lo, hi)
            return rng.randint(lo, hi)
        if name == "bool":
            return rng.random() < 0.5
        if name == "char":
            return rng.choice(self.chars())
        if name in ("String", "str"):
            length = self._len(subj, mode, n)
            cs = self.chars()
            return "".join(rng.choice(cs) for _ in range(length))
        if name in ("Vec", "Seq", "Array", "Slice"):
            length = self._len(subj, mode, n)
            if t.args[0] == TCon("char"):
                cs = self.chars()
                return "".join(rng.choice(cs) for _ in range(length))
            return [self.value(t.args[0], f"elem({subj})", mode) for _ in range(length)]
        if name == "Option":
            return None if rng.random() < 0.25 else self.value(t.args[0], subj, mode, n)
        if name == "Tuple":
            return [self.value(a, f"{subj}.{k}", mode, n) for k, a in enumerate(t.args)]
        if t == UNIT:
            return None
        if name in ("Box", "Ref", "MutRef"):
            return self.value(t.args[0], subj, mode, n)
        if name in self.structs:
            return {f: self.value(_unref(ft), f, mode, n) for f, ft in self.structs[name]}
        raise ValueError(f"no generator for type {name}")

    def _len(self, subj: str, mode: str, n: int | None) -> int:
        lo, hi = self.len_range(subj)
        if n is not None:
            return min(hi, max(lo, n))
        if mode == "boundary":
            return self.rng.choice((lo, hi, min(hi, lo + 1)))
        if mode == "small":
            return min(hi, lo + self.rng.randint(0, 2))
        return self.rng.randint(lo, min(hi, max(lo, 20)))

    # ---- structured integer vectors
    def shaped(self, t: TCon, subj: str, n: int, shape: str) -> list[int] | None:
        et = t.args[0] if t.args else None
        if not isinstance(et, TCon) or et.name not in INT_RANGES:
            return None
        lo, hi = self.int_range(et, f"elem({subj})")
        if lo > hi:
            return None
        rng = self.rng
        vals = self.b.values.get(f"elem({subj})")
        if vals:  # a value set: only the shapes that draw from it
            if shape in ("sorted", "desc"):
                return sorted((rng.choice(vals) for _ in range(n)), reverse=shape == "desc")
            if shape == "equal":
                return [rng.choice(vals)] * n
            if shape == "alternating":
                return [vals[0] if k % 2 == 0 else vals[-1] for k in range(n)]
            return None
        if shape == "sorted":
            return sorted(rng.randint(lo, hi) for _ in range(n))
        if shape == "desc":
            return sorted((rng.randint(lo, hi) for _ in range(n)), reverse=True)
        if shape == "equal":
            v = rng.randint(lo, hi)
            return [v] * n
        if shape == "increasing":
            if hi - lo + 1 < n:
                return None
            return sorted(rng.sample(range(lo, hi + 1), n)) if hi - lo < 10**7 else list(range(lo, lo + n))
        if shape == "perm":
            base = 1 if lo <= 1 and hi >= n else lo
            if base + n - 1 > hi:
                return None
            p = list(range(base, base + n))
            rng.shuffle(p)
            return p
        if shape == "alternating":
            return [lo if k % 2 == 0 else hi for k in range(n)]
        return None


def _log_uniform(rng: random.Random, lo: int, hi: int) -> int:
    """A value of ``[lo, hi]`` whose magnitude is log-uniform from 1 to the range's largest (sign kept
    in range; the offset from ``lo`` when 0 is outside it)."""
    base = 0 if lo <= 0 <= hi else lo
    span = max(hi - base, base - lo, 1)
    mag = int(10 ** (rng.random() * math.log10(span + 1)))
    sign = 1 if base - lo == 0 or (hi - base > 0 and rng.random() < 0.5) else -1
    return min(hi, max(lo, base + sign * mag))


def _unref(t: Type) -> Type:
    while isinstance(t, TCon) and t.name in ("Ref", "MutRef", "Box") and t.args:
        t = t.args[0]
    return t


def _apply_links(inp: dict[str, Any], bounds: Bounds) -> None:
    """Make linked subjects equal: ``n == p.len()`` sets ``n``; ``a.len() == b.len()`` trims the longer."""
    for a, b in bounds.links:
        if _rows_link(inp, a, b):
            continue
        for x, y in ((a, b), (b, a)):
            if x in inp and y.startswith("len(") and y[4:-1] in inp:
                v = inp[y[4:-1]]
                if isinstance(v, (list, str)) and isinstance(inp[x], int):
                    inp[x] = len(v)
                    break
        else:
            if a.startswith("len(") and b.startswith("len("):
                pa, pb = a[4:-1], b[4:-1]
                va, vb = inp.get(pa), inp.get(pb)
                if isinstance(va, (list, str)) and isinstance(vb, (list, str)):
                    m = min(len(va), len(vb))
                    inp[pa], inp[pb] = va[:m], vb[:m]


def _rows_link(inp: dict[str, Any], a: str, b: str) -> bool:
    """Row-length links of a vector of vectors ``p``: ``len(elem(p))`` with itself (every row as long as
    the shortest) or with ``len(p)`` (a square: rows and row length cut to the smaller). True when handled."""
    pair = {a, b}
    for name, v in inp.items():
        if not (isinstance(v, list) and v and all(isinstance(r, (list, str)) for r in v)):
            continue
        row = f"len(elem({name}))"
        if pair == {row}:
            m = min(len(r) for r in v)
            inp[name] = [r[:m] for r in v]
            return True
        if pair == {row, f"len({name})"}:
            m = min(len(v), min(len(r) for r in v))
            inp[name] = [r[:m] for r in v[:m]]
            return True
    return False


def _key(inp: dict[str, Any]) -> str:
    return json.dumps(inp, sort_keys=True, ensure_ascii=False)


def candidate_inputs(
    params: Sequence[tuple[str, Type]],
    bounds: Bounds,
    *,
    seed: int = 0,
    count: int = 600,
    max_len: int = 1000,
    structs: dict[str, list[tuple[str, Type]]] | None = None,
) -> list[tuple[str, dict[str, Any]]]:
    """Up to ``count`` distinct candidate inputs, families interleaved (see the module docstring)."""
    rng = random.Random(seed)
    g = _Gen(bounds, rng, max_len, structs or {})
    types = [(n, _unref(t)) for n, t in params]
    seqs = [n for n, t in types if isinstance(t, TCon) and t.name in ("Vec", "String", "str")]
    max_n = max((g.len_range(n)[1] for n in seqs), default=0)
    ladder = [k for k in LADDER if k <= max_n] + ([max_n] if max_n not in LADDER else [])

    def one(mode: str, n: int | None = None) -> dict[str, Any]:
        inp = {name: g.value(t, name, mode, n) for name, t in types}
        _apply_links(inp, bounds)
        return inp

    def boundary() -> dict[str, Any]:
        return one("boundary")

    ladder_i = itertools.count()

    def ladder_f() -> dict[str, Any]:
        k = next(ladder_i)
        return one("random", ladder[k % len(ladder)] if ladder else None)

    shapes = ("sorted", "desc", "equal", "increasing", "perm", "alternating")
    shape_i = itertools.count()

    def shape() -> dict[str, Any]:
        k = next(shape_i)
        inp = one("random")
        for name, t in types:
            if isinstance(t, TCon) and t.name == "Vec":
                lo, hi = g.len_range(name)
                n = min(hi, max(lo, ladder[(k // len(shapes)) % len(ladder)] if ladder else lo))
                v = g.shaped(t, name, n, shapes[k % len(shapes)])
                if v is not None:
                    inp[name] = v
        _apply_links(inp, bounds)
        return inp

    small_iter = _small_scope(types, g, bounds)

    def small() -> dict[str, Any] | None:
        return next(small_iter, None)

    gens = {
        "boundary": boundary,
        "ladder": ladder_f,
        "shape": shape,
        "pool": lambda: one("pool"),
        "small": small,
        "random": lambda: one("random"),
    }
    out: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    stale = 0
    while len(out) < count and stale < 8 * len(FAMILIES):
        progressed = False
        for fam in FAMILIES:
            try:
                inp = gens[fam]()
            except (ValueError, IndexError):
                inp = None
            if inp is None:
                continue
            k = _key(inp)
            if k in seen:
                continue
            seen.add(k)
            out.append((fam, inp))
            progressed = True
            if len(out) >= count:
                break
        stale = 0 if progressed else stale + 1
    return out


def _small_scope(types: list[tuple[str, Type]], g: _Gen, bounds: Bounds) -> Any:
    """Every combination of a few tiny values per parameter, lexicographic in parameter order."""
    per: list[list[Any]] = []
    for name, t in types:
        per.append(_tiny(t, name, g))
    for combo in itertools.product(*per):
        inp = dict(zip([n for n, _ in types], combo))
        _apply_links(inp, bounds)
        yield inp


_TINY_WORDS = 4096  # all words of one length up to this many; a long minimum length would need 2^n


def _words(alphabet: list[Any], n: int) -> list[tuple[Any, ...]]:
    """Every length-``n`` word over ``alphabet`` when there are at most ``_TINY_WORDS`` of them, else
    just the constant words (``requires`` with a large minimum length made this run out of memory)."""
    if len(alphabet) ** n <= _TINY_WORDS:
        return list(itertools.product(alphabet, repeat=n))
    return [(a,) * n for a in alphabet]


def _tiny(t: Type, subj: str, g: _Gen) -> list[Any]:
    if not isinstance(t, TCon):
        return [None]
    if t.name in INT_RANGES:
        vals = g.b.values.get(subj)
        if vals:
            return vals[:3]
        lo, hi = g.int_range(t, subj)
        start = max(lo, min(hi, -1))
        return list(range(start, min(hi, start + 3) + 1))
    if t.name == "bool":
        return [False, True]
    if t.name == "char":
        return g.chars()[:2]
    if t.name in ("String", "str") or (t.name == "Vec" and t.args and t.args[0] == TCon("char")):
        lo, hi = g.len_range(subj)
        cs = g.chars()[:2]
        return ["".join(p) for n in range(lo, min(hi, lo + 2) + 1) for p in _words(cs, n)]
    if t.name == "Vec":
        lo, hi = g.len_range(subj)
        elems = _tiny(t.args[0], f"elem({subj})", g)[:2]
        return [list(p) for n in range(lo, min(hi, lo + 2) + 1) for p in _words(elems, n)]
    if t.name == "Option":
        return [None, *_tiny(t.args[0], subj, g)[:2]]
    if t.name == "Tuple":
        return [
            list(p)
            for p in itertools.product(*(_tiny(a, f"{subj}.{k}", g)[:2] for k, a in enumerate(t.args)))
        ]
    try:
        return [g.value(t, subj, "small")]
    except ValueError:
        return [None]
