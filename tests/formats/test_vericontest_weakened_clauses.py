"""Weakened-``ensures`` kills derived from one per-clause verdict vector equal one checker per weakening."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.shared_data import require
from veriscale.formats.vericontest.dataset import read_problem
from veriscale.formats.vericontest.suite_coverage import weakened_kills
from veriscale.formats.vericontest.suites import SuiteSettings, _engine, _weakened_kills
from veriscale.languages.verus.clause_verdicts import weakened_false
from veriscale.languages.verus.compile import rustc_available

needs_rustc = pytest.mark.skipif(not rustc_available(), reason="rustc is not installed")


def test_weakening_is_false_iff_another_clause_is_false() -> None:
    assert weakened_false(["F", "T", "T"], 1) and not weakened_false(["F", "T", "T"], 0)
    assert weakened_false(["F", "U"], 1) and not weakened_false(["U", "F"], 1)  # UNKNOWN never kills
    assert weakened_false(["F", "F"], 0) and weakened_false(["F", "F"], 1)


def _negatives(pid: str, rows: list[dict[str, Any]], deltas: list[int]) -> tuple[Any, Any, Any, list, list]:
    p = read_problem(Path(require("vericontest", "leetcode", pid)))
    st = SuiteSettings()
    eng = _engine(st, None)
    te = eng.for_task(p)
    outs = [r.value for r in te.runner.run_inputs(rows)]
    inputs = [te.decode_inputs(r) for r in rows]
    cands = [(i, outs[i] + d) for i in range(len(rows)) for d in deltas]
    verdicts = te.postconditions([(inputs[i], te.decode_output(o)) for i, o in cands])
    negs = [
        {"input_index": i, "output": o, "source": "direct"}
        for (i, o), v in zip(cands, verdicts)
        if v.is_false
    ]
    return p, eng, te, inputs, negs


@needs_rustc
@pytest.mark.parametrize(
    ("pid", "rows", "deltas"),
    [
        ("lc1004", [{"nums": [1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0], "k": 2}, {"nums": [0, 0, 1], "k": 0},
                    {"nums": [1], "k": 1}], [-6, -2, -1, 1, 2, 5]),
        ("lc35", [{"nums": [1, 3, 5, 6], "target": t} for t in (0, 2, 5, 7)], [-4, -2, -1, 1, 2, 3]),
    ],
)  # fmt: skip
def test_derived_kills_equal_one_checker_per_weakening(pid: str, rows: list, deltas: list) -> None:
    p, eng, te, inputs, negs = _negatives(pid, rows, deltas)
    assert len(negs) >= 8
    new = weakened_kills(te, inputs, negs, SuiteSettings(), until_all_killed=False)
    old = _weakened_kills(p, eng, te.spec(), inputs, negs, te)
    assert new["built"] == old["built"] >= 2 and new["unevaluated"] == 0
    assert new["kills"] == old["kills"]
    assert new["killed"] == old["killed"] >= 1
    # the default stops after the first chunk by which every weakening is killed: same kills so far
    quick = weakened_kills(te, inputs, negs, SuiteSettings())
    done = quick["evaluated_until"] or len(negs)
    assert quick["kills"][:done] == old["kills"][:done] and quick["killed"] == old["killed"]
