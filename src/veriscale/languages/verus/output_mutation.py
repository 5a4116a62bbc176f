"""Direct output mutation by Rust type: wrong answers near the reference's.

``output_mutants(t, value, rng)`` yields JSON values of Rust type ``t`` (the
test-file encoding) that differ from ``value``, nearest first:

* integers: ±1, ±2, ±5, ±10, ±100, ``-v``, ``0``, ``2v``, ``v/2``, the type's
  bounds, then random offsets — always within the type's range;
* ``bool``: the negation; ``char``: the neighbouring characters;
* ``String``/``Vec<char>``: empty, drop first/last, append, replace one
  character, swap two adjacent characters, reverse;
* ``Vec<T>``: each element mutated (recursively, so at any depth), dropped or
  duplicated; adjacent swaps; append; reverse; sorted; empty;
* ``Option``: ``None`` ↔ a value, the inner value mutated;
* tuples and structs: one component at a time.

Candidates are deduplicated by the caller; whether one is *wrong* is decided by
the ground-truth postcondition, never here. Deterministic for a seeded ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ...values.rust_types import INT_RANGES
from ...values.types import UNIT, TCon, Type

__all__ = ["output_mutants"]

_DELTAS = (1, -1, 2, -2, 5, -5, 10, -10, 100, -100)


def output_mutants(t: Type, v: Any, rng: random.Random, structs: dict[str, Any] | None = None,
                   depth: int = 0) -> Iterator[Any]:  # fmt: skip
    for c in _mutants(t, v, rng, structs or {}, depth):
        if c != v:  # e.g. sorting an already sorted list
            yield c


def _mutants(t: Type, v: Any, rng: random.Random, st: dict[str, Any], depth: int) -> Iterator[Any]:
    if not isinstance(t, TCon):
        return
    name = t.name
    if name in ("Box", "Ref", "MutRef") and t.args:
        yield from output_mutants(t.args[0], v, rng, st, depth)
        return
    if name in INT_RANGES and isinstance(v, int) and not isinstance(v, bool):
        lo, hi = INT_RANGES[name]
        cands = [v + d for d in _DELTAS] + [-v, 0, 2 * v, v // 2, lo, hi]
        cands += [v + rng.randint(-1000, 1000) for _ in range(8)]
        for c in cands:
            if lo <= c <= hi and c != v:
                yield c
        return
    if name == "bool" and isinstance(v, bool):
        yield not v
        return
    if name == "char" and isinstance(v, str) and v:
        for c in (chr(ord(v[0]) + 1), chr(max(0, ord(v[0]) - 1)), "a", "0", " "):
            if c != v:
                yield c
        return
    if (name in ("String", "str") or (name == "Vec" and t.args and t.args[0] == TCon("char"))) and isinstance(
        v, str
    ):
        yield from _string_mutants(v, rng)
        return
    if name in ("Vec", "Seq") and isinstance(v, list) and t.args:
        yield from _list_mutants(t.args[0], v, rng, st, depth)
        return
    if name == "Option" and t.args:
        if v is None:
            yield from _first(_defaults(t.args[0]), 2)
        else:
            yield None
            yield from _first(output_mutants(t.args[0], v, rng, st, depth + 1), 6)
        return
    if name == "Tuple" and isinstance(v, list):
        for k, a in enumerate(t.args):
            for c in _first(output_mutants(a, v[k], rng, st, depth + 1), 6):
                yield [*v[:k], c, *v[k + 1 :]]
        return
    if t == UNIT:
        return
    if name in st and isinstance(v, dict):
        for f, ft in st[name]:
            if f in v:
                for c in _first(output_mutants(ft, v[f], rng, st, depth + 1), 4):
                    yield {**v, f: c}


def _first(it: Iterator[Any], n: int) -> Iterator[Any]:
    for k, x in enumerate(it):
        if k >= n:
            return
        yield x


def _defaults(t: Type) -> Iterator[Any]:
    if isinstance(t, TCon):
        if t.name in INT_RANGES:
            yield from (0, 1)
        elif t.name == "bool":
            yield from (False, True)
        elif t.name in ("String", "str"):
            yield ""
        elif t.name == "Vec":
            yield []


def _string_mutants(v: str, rng: random.Random) -> Iterator[str]:
    yield ""
    if v:
        yield v[:-1]
        yield v[1:]
        yield v[::-1]
    yield v + "a"
    yield "a" + v
    for k in range(min(len(v), 20)):
        c = v[k]
        yield v[:k] + ("b" if c == "a" else "a") + v[k + 1 :]
        if k + 1 < len(v) and v[k + 1] != c:
            yield v[:k] + v[k + 1] + c + v[k + 2 :]
    for _ in range(4):
        yield "".join(rng.choice("ab01") for _ in range(rng.randint(0, max(1, len(v)))))


def _list_mutants(
    et: Type, v: list[Any], rng: random.Random, st: dict[str, Any], depth: int
) -> Iterator[Any]:
    n = len(v)
    if n == 0:
        yield from ([d] for d in _defaults(et))
        return
    idx = list(range(n)) if n <= 12 else sorted({0, n - 1, n // 2, *rng.sample(range(n), 9)})
    per = 3 if depth == 0 else 1
    for k in idx:
        for c in _first(output_mutants(et, v[k], rng, st, depth + 1), per):
            yield [*v[:k], c, *v[k + 1 :]]
    yield v[:-1]
    yield v[1:]
    yield [*v, v[-1]]
    for k in idx:
        if k + 1 < n and v[k] != v[k + 1]:
            yield [*v[:k], v[k + 1], v[k], *v[k + 2 :]]
    yield v[::-1]
    try:
        yield sorted(v)
        yield sorted(v, reverse=True)
    except TypeError:
        pass
    for k in idx[:3]:
        yield v[:k] + v[k + 1 :]
        yield [*v[: k + 1], v[k], *v[k + 1 :]]
    yield []
