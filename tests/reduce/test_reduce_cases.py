"""Adversary-killing reduction: greedy set cover, tie-breaking, budget fill, kill preservation."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from veriscale.reduce.cases import COVER, FILL, KEEP, kill_bits, select_cases


def _union(bits: list[int], idx: list[int]) -> int:
    out = 0
    for i in idx:
        out |= bits[i]
    return out


def test_greedy_takes_most_new_kills_first_and_stops_when_covered() -> None:
    kills = [kill_bits(k) for k in ([0], [0, 1, 2], [3], [1, 2], [])]
    got = select_cases(kills, budget=0)
    assert [(c.index, c.stage, c.newly) for c in got] == [(1, COVER, 3), (2, COVER, 1)]


def test_ties_prefer_more_total_kills_then_earlier_case() -> None:
    # after case 0 covers {0, 1}: cases 1 and 2 both add {2}; case 2 kills more in total
    kills = [kill_bits(k) for k in ([0, 1], [2], [0, 1, 2], [2])]
    assert [c.index for c in select_cases(kills, budget=0)] == [2]
    # equal gain and equal totals: the earlier case wins
    kills = [kill_bits(k) for k in ([5], [5])]
    assert [c.index for c in select_cases(kills, budget=0)] == [0]


def test_cover_is_not_cut_by_the_budget() -> None:
    kills = [kill_bits([i]) for i in range(10)]
    got = select_cases(kills, budget=3)
    assert len(got) == 10 and all(c.stage == COVER for c in got)


def test_fill_by_kill_count_then_weight_then_order() -> None:
    kills = [kill_bits(k) for k in ([0, 1], [0], [1], [], [0])]
    got = select_cases(kills, budget=3, weights=[0, 1, 5, 9, 7])
    assert [(c.index, c.stage) for c in got] == [(0, COVER), (2, FILL), (4, FILL)]


def test_kept_cases_count_towards_cover_and_budget() -> None:
    kills = [kill_bits(k) for k in ([0], [0, 1], [1], [2])]
    got = select_cases(kills, budget=3, keep=[0])
    assert [(c.index, c.stage) for c in got] == [(0, KEEP), (1, COVER), (3, COVER)]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 40), max_size=8), max_size=60),
    st.integers(0, 60),
    st.integers(0, 2**32),
)
def test_every_adversary_killed_by_the_full_suite_stays_killed(
    sets: list[list[int]], budget: int, seed: int
) -> None:
    kills = [kill_bits(s) for s in sets]
    rng = random.Random(seed)
    keep = [i for i in range(len(kills)) if rng.random() < 0.1]
    got = select_cases(kills, budget, keep=keep)
    idx = [c.index for c in got]
    assert idx == sorted(set(idx))
    assert _union(kills, idx) == _union(kills, list(range(len(kills))))
    assert set(keep) <= set(idx)
    assert len(got) >= min(budget, len(kills))
    if len(got) > max(budget, len(keep)):  # over budget only because the cover needs it
        assert all(c.stage != FILL for c in got)
