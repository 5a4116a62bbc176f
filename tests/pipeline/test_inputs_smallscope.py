"""Bounded-exhaustive small-scope inputs (``pipeline/inputs/smallscope.py``)."""

from __future__ import annotations

import pytest

from shared_data import data_path
from veriscale.formats.verina.dataset import read_task
from veriscale.pipeline.inputs.seeds import task_params
from veriscale.pipeline.inputs.smallscope import domain, domain_size, small_scope_pool
from veriscale.values.types import parse_type

VERINA = data_path("verina")


@pytest.mark.parametrize(
    "text",
    ["Int", "Nat", "Bool", "Char", "String", "List Int", "Array (List Nat)", "Option Int", "Int × Nat"],
)
def test_domain_sizes_match_the_enumeration_and_grow(text: str) -> None:
    t = parse_type(text)
    prev: list[object] = []
    for b in range(4):
        vals = domain(t, b)
        assert len(vals) == domain_size(t, b)
        assert len({repr(v) for v in vals}) == len(vals)  # no duplicates
        assert all(repr(v) in {repr(x) for x in vals} for v in prev)  # level b holds level b-1
        prev = vals


def test_strings_mix_character_classes_and_lists_repeat() -> None:
    strings = set(domain(parse_type("String"), 2))
    assert {"aA", "0 ", "a0", "A0"} <= strings
    lists = domain(parse_type("List Int"), 2)
    assert (1, 1) in lists and (1, -1) in lists and (-1, 1) in lists


def test_pool_respects_the_budget_and_records_levels() -> None:
    params = [("arr", parse_type("Array Int")), ("k", parse_type("Nat"))]
    for budget in (2, 10, 100, 1000):
        pool = small_scope_pool(params, [], budget)
        assert 1 <= pool.size <= budget and pool.size == len(pool.inputs)
        assert pool.size == domain_size(params[0][1], pool.levels["arr"]) * domain_size(
            params[1][1], pool.levels["k"]
        )
    assert small_scope_pool(params, [], 1000).levels == {"arr": 3, "k": 4}  # 156 lists × 6 numbers
    assert small_scope_pool(params, [], 1).inputs == []  # not even level 0 fits
    assert small_scope_pool(params, [], 0).inputs == []


def test_parameters_without_a_domain_take_the_seeds_values() -> None:
    d = VERINA / "verina_basic_70"  # a : Array Int, P : Int → Bool
    if not d.is_dir():
        pytest.skip(f"shared data folder {d} is absent")
    task = read_task(d)
    seeds = [tc.decode_input(task, i) for i, tc in enumerate(task.tests)]
    pool = small_scope_pool(task_params(task), seeds, 200)
    assert pool.levels["P"] is None and pool.levels["a"] >= 2
    fns = {repr(x["P"]) for x in pool.inputs}
    assert 1 <= len(fns) <= 3 and fns <= {repr(s["P"]) for s in seeds}
    assert small_scope_pool(task_params(task), [], 200).inputs == []  # no seed: no pool
