"""``List.contains``/``elem`` answered from an index: same answers as Lean's BEq scan, less fuel.

Exponential specifications search one huge list once per element of another
(``subseqsA.filter (fun l => subseqsB.contains l)``); the evaluator indexes a list
searched repeatedly within one evaluation. Floats (NaN ≠ NaN, -0.0 = 0.0) must
keep Lean's ``==``, so needles that hold a Float always take the scan.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from shared_data import require
from veriscale.evaluate.scoring.cases import decode_rows
from veriscale.languages.lean.builtins import load_all, lookup, ops
from veriscale.runtime import limits
from veriscale.values.runtime import Some

load_all()
CONTAINS = lookup("List.contains").impl
ELEM = lookup("List.elem").impl


def _scan(xs: tuple, a: object) -> bool:
    return any(ops.beq(a, x) for x in xs)


def _fuel(fn) -> tuple[object, int]:
    budget = limits.Budget(limits.Limits(fuel=10**12, seconds=60))
    with limits.using(budget):
        return fn(), budget.spent


ints = st.integers(-3, 3)
rows = st.lists(ints, max_size=3).map(tuple)


@settings(max_examples=200, deadline=None)
@given(st.lists(rows, min_size=60, max_size=90).map(tuple), st.lists(rows, min_size=1, max_size=20))
def test_indexed_search_answers_as_the_scan(xs: tuple, needles: list) -> None:
    def run() -> list[bool]:
        return [CONTAINS(xs, n) for n in needles] + [ELEM(n, xs) for n in needles]

    got, _ = _fuel(run)
    assert got == [_scan(xs, n) for n in needles] * 2


def test_repeated_searches_of_one_list_are_indexed_and_charged_less() -> None:
    xs = tuple((i, i + 1) for i in range(5000))
    needles = [(i, i + 1) for i in range(0, 10000, 7)]
    got, fuel = _fuel(lambda: [CONTAINS(xs, n) for n in needles])
    assert got == [n[0] < 5000 for n in needles]
    # two scans, one index build, then one step per lookup; not a scan per needle
    assert fuel < 4 * len(xs) + 2 * len(needles)
    # a fresh evaluation (a new budget) starts without the index
    _, fuel_one = _fuel(lambda: CONTAINS(xs, (1, 2)))
    assert fuel_one >= len(xs)


def test_float_needles_keep_leans_equality() -> None:
    nan = math.nan
    xs = tuple([(nan,)] * 70 + [(0.0,), (Some(1.5),)])
    assert _fuel(lambda: [CONTAINS(xs, (nan,)) for _ in range(3)])[0] == [False] * 3  # NaN ≠ NaN
    assert _fuel(lambda: [CONTAINS(xs, (-0.0,)) for _ in range(3)])[0] == [True] * 3  # -0.0 = 0.0
    assert _fuel(lambda: [CONTAINS(xs, ()) for _ in range(3)])[0] == [False] * 3


def test_lcs_postcondition_over_two_20_element_arrays_is_decided() -> None:
    """VerinaLite verina_advanced_2 row 13: 2^20 common-subsequence candidates on each side."""
    from veriscale.formats.verina.dataset import read_task
    from veriscale.languages.lean.native import NativeEngine

    task_dir = require("verinalite", "verina_advanced_2")
    task = read_task(task_dir)
    row = next(r for r in decode_rows(task).tests if r.row == 13)
    assert len(row.inputs["a"]) == 20 and len(row.inputs["b"]) == 20
    te = NativeEngine(limits.Limits(fuel=10_000_000, seconds=120)).for_task(task)
    assert te.postcondition(row.inputs, row.expected).is_true
