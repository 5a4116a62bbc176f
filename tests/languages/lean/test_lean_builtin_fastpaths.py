"""Fast paths of list builtins agree with the general path: same values, same fuel."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from veriscale.languages.lean.builtins import load_all, lookup, ops
from veriscale.runtime import limits
from veriscale.values.runtime import Fn

load_all()

RELS = (ops.rel_lt, ops.rel_le, ops.rel_gt, ops.rel_ge)


def _general(rel, xs) -> bool:  # the relation through a lambda: the generic O(n²) path
    return all(rel(xs[i], xs[j]) for i in range(len(xs)) for j in range(i + 1, len(xs)))


scalars = st.one_of(
    st.lists(st.integers(-5, 5), max_size=7),
    st.lists(st.text(max_size=2), max_size=6),
    st.lists(st.sampled_from([0.0, -1.5, 2.0, math.nan, math.inf]), max_size=6),
)


@settings(max_examples=300, deadline=None)
@given(xs=scalars, k=st.integers(0, 3))
def test_pairwise_of_a_comparison_agrees_with_the_definition(xs: list, k: int) -> None:
    pairwise = lookup("List.Pairwise").impl
    rel = RELS[k]
    assert pairwise(Fn(2, rel), tuple(xs)) == _general(rel, xs)


def test_map_of_a_builtin_charges_the_same_fuel_as_a_lambda_around_it() -> None:
    map_, reverse = lookup("List.map").impl, lookup("List.reverse").impl
    xs = tuple(tuple(range(n)) for n in (0, 3, 17, 40, 16, 100))

    def spent(f: Fn) -> tuple[int, tuple]:
        with limits.using(limits.Budget(limits.Limits(fuel=10**6))) as b:
            out = map_(f, xs)
            return b.spent, out

    direct = spent(Fn(1, reverse))
    wrapped = spent(Fn(1, lambda x: reverse(x)))  # the registry wrapper, called per element
    assert direct == wrapped
    assert direct[0] >= 17 + 40 + 100  # every element longer than 16 is charged
