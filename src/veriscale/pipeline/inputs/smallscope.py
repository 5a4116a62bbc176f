"""Bounded-exhaustive small-scope inputs: every input up to a small bound per parameter.

The small-scope hypothesis: most bugs of a specification or an implementation
show on some small input, provided the small inputs hit the boundaries the code
tests. So per parameter type a *level* ``b`` ≥ 0 names a finite domain:

======================  ==============================================================
Int                     the first ``2b+1`` of 0, 1, -1, 2, -2, 3, 10, -10, 100, -100
Nat                     the first ``b+2`` of 0, 1, 2, 3, 4, 10, 100
UInt8                   the first ``b+2`` of 0, 1, 2, 255, 3, 10, 128
Bool                    false, true (every level)
Char                    the first ``2b+1`` of 'a' 'A' '0' ' ' 'z' 'Z' '9' '.' 'é' 'b' ',' '_'
                        (the boundaries of every class Lean's Char predicates test: lower,
                        upper, digit, space, punctuation, a non-ASCII letter)
Float                   the first ``b+1`` of 0.0, 1.0, -1.0, 0.5, 2.5, -2.5
String                  every string of length ≤ b over the Char domain of level b
List τ, Array τ         every sequence of length ≤ b over the domain of τ at level b-1
                        (so repeats, and orders of repeats, appear from level 2 on)
Option τ                none, then some v for v in τ's domain at level b
α × β                   the product of the two domains at level b
anything else           (functions, maps, sets, structures) the parameter's distinct values
                        among the seeds, at most ``max_fallback`` (no seed: no pool)
======================  ==============================================================

Domains grow with the level (level b is a prefix-closed subset of level b+1),
and their sizes are computed by formula, never by enumerating.

**The bound adapts to a budget.** Every parameter starts at level 0; then,
round-robin over the parameters in signature order, a parameter's level is
raised by one whenever the product of the domain sizes stays within
``budget``; this repeats until no parameter can grow (or all reached
``max_level``). The pool is the Cartesian product of the final domains, in
domain order (first parameter slowest), so it is deterministic and does not
depend on ``PYTHONHASHSEED``. The reached levels are returned for provenance.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...values.runtime import Some
from ...values.types import TCon, Type

__all__ = ["SmallScope", "domain", "domain_size", "small_scope_pool"]

INT_VALUES: tuple[int, ...] = (0, 1, -1, 2, -2, 3, 10, -10, 100, -100)
NAT_VALUES: tuple[int, ...] = (0, 1, 2, 3, 4, 10, 100)
UINT8_VALUES: tuple[int, ...] = (0, 1, 2, 255, 3, 10, 128)
CHAR_VALUES: tuple[str, ...] = ("a", "A", "0", " ", "z", "Z", "9", ".", "é", "b", ",", "_")
FLOAT_VALUES: tuple[float, ...] = (0.0, 1.0, -1.0, 0.5, 2.5, -2.5)
MAX_LEVEL = 6
_SEQ = ("List", "Array")


def _scalar(t: TCon, b: int) -> tuple[Any, ...] | None:
    name = t.name
    if name == "Int":
        return INT_VALUES[: 2 * b + 1]
    if name == "Nat":
        return NAT_VALUES[: b + 2]
    if name == "UInt8":
        return UINT8_VALUES[: b + 2]
    if name == "Bool":
        return (False, True)
    if name == "Char":
        return CHAR_VALUES[: 2 * b + 1]
    if name == "Float":
        return FLOAT_VALUES[: b + 1]
    return None


def _n_sequences(k: int, max_len: int) -> int:
    return sum(k**n for n in range(max_len + 1))


def domain_size(t: Type, b: int) -> int | None:
    """How many values ``domain(t, b)`` holds (None: the type has no small-scope domain)."""
    if not isinstance(t, TCon):
        return None
    sc = _scalar(t, b)
    if sc is not None:
        return len(sc)
    if t.name == "String":
        return _n_sequences(len(CHAR_VALUES[: 2 * b + 1]), b)
    if t.name in _SEQ and t.args:
        if b == 0:
            return 1
        k = domain_size(t.args[0], b - 1)
        return None if k is None else _n_sequences(k, b)
    if t.name == "Option" and t.args:
        k = domain_size(t.args[0], b)
        return None if k is None else k + 1
    if t.name == "Prod" and len(t.args) == 2:
        ka, kb = domain_size(t.args[0], b), domain_size(t.args[1], b)
        return None if ka is None or kb is None else ka * kb
    return None


def _sequences(elems: Sequence[Any], max_len: int) -> Iterator[tuple[Any, ...]]:
    # shortest first, then in element order: the empty sequence, the singletons, ...
    for n in range(max_len + 1):
        yield from itertools.product(elems, repeat=n)


def domain(t: Type, b: int) -> list[Any]:
    """The values of ``t`` at level ``b`` in the runtime representation (see the module table)."""
    assert isinstance(t, TCon)
    sc = _scalar(t, b)
    if sc is not None:
        return list(sc)
    if t.name == "String":
        return ["".join(s) for s in _sequences(CHAR_VALUES[: 2 * b + 1], b)]
    if t.name in _SEQ:
        if b == 0:
            return [()]
        return list(_sequences(domain(t.args[0], b - 1), b))
    if t.name == "Option":
        return [None, *(Some(v) for v in domain(t.args[0], b))]
    if t.name == "Prod":
        return [(x, y) for x in domain(t.args[0], b) for y in domain(t.args[1], b)]
    raise ValueError(f"no small-scope domain for {t}")


@dataclass
class SmallScope:
    """The pool of one task and the bound reached."""

    inputs: list[dict[str, Any]] = field(default_factory=list)
    levels: dict[str, int | None] = field(default_factory=dict)  # None: values taken from the seeds
    size: int = 0

    def provenance(self) -> dict[str, Any]:
        return {"levels": dict(self.levels), "size": self.size}


def small_scope_pool(
    params: Sequence[tuple[str, Type]],
    seed_values: Sequence[dict[str, Any]],
    budget: int,
    *,
    max_level: int = MAX_LEVEL,
    max_fallback: int = 3,
    key: Any = None,
) -> SmallScope:
    """All inputs up to the adaptive bound (see the module docstring).

    ``seed_values`` are decoded seed inputs (for parameters without a domain);
    ``key(t, v)`` gives the canonical key used to pick their distinct values
    (default ``repr``). An empty pool is returned when budget < 1 or some
    parameter has neither a domain nor a seed value.
    """
    out = SmallScope()
    if budget < 1 or not params:
        return out
    keyf = key or (lambda _t, v: repr(v))
    fixed: dict[str, list[Any]] = {}
    for name, t in params:
        if domain_size(t, 0) is None:
            vals: dict[str, Any] = {}
            for s in seed_values:
                if name in s:
                    vals.setdefault(keyf(t, s[name]), s[name])
                if len(vals) >= max_fallback:
                    break
            if not vals:
                return out
            fixed[name] = list(vals.values())
    levels = {name: 0 for name, _ in params if name not in fixed}
    types = dict(params)

    def size(lv: dict[str, int]) -> int:
        n = 1
        for name, _ in params:
            n *= len(fixed[name]) if name in fixed else (domain_size(types[name], lv[name]) or 0)
        return n

    if size(levels) > budget:
        return out
    grown = True
    while grown:
        grown = False
        for name, _ in params:
            if name in fixed or levels[name] >= max_level:
                continue
            trial = {**levels, name: levels[name] + 1}
            if size(trial) <= budget and domain_size(types[name], trial[name]) != domain_size(
                types[name], levels[name]
            ):
                levels = trial
                grown = True
    doms = [fixed[name] if name in fixed else domain(t, levels[name]) for name, t in params]
    names = [name for name, _ in params]
    out.inputs = [dict(zip(names, combo, strict=True)) for combo in itertools.product(*doms)]
    out.levels = {name: (None if name in fixed else levels[name]) for name, _ in params}
    out.size = len(out.inputs)
    return out


def small_scope_candidates(
    params: Sequence[tuple[str, Type]],
    structs: dict[str, Any],
    seeds: Sequence[Any],
    budget: int,
    seen: set[str],
) -> tuple[list[Any], SmallScope]:
    """The pool as pipeline candidates (origin "small-scope", ``index`` = position in the pool),
    leaving out inputs already in ``seen`` (seeds and mutants), which it extends."""
    from ...values import codec
    from .mutate import Candidate, input_key

    pool = small_scope_pool(
        params,
        [s.values for s in seeds],
        budget,
        key=lambda t, v: codec.key(t, v, structs=structs),
    )
    out: list[Any] = []
    for i, values in enumerate(pool.inputs):
        k = input_key(params, values, structs)
        if k in seen:
            continue
        seen.add(k)
        out.append(Candidate(values, k, "small-scope", index=i))
    return out, pool
