"""Compiled checkers: a quantifier range larger than the remaining step budget is searched with a share
of the budget (1/64) instead of burning all of it; what it decides within that share stands, the rest is
UNKNOWN (retried by the Python evaluator), and a budget already spent is reported as before (not retried).
Step counts, never time."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from veriscale.languages.verus.post2exe.checker import _verdict, checker_for_source

pytestmark = pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")

BUDGET = 6400  # search share: 6400 / 64 = 100 steps

SPEC = """
verus! {
impl Solution {
    pub fn f(n: i64) -> (r: i64)
        requires 0 <= n <= 1_000_000,
        ensures
            r != 1 || exists|m: int| 0 <= m <= 1_000_000_000_000 && m * m == n,
            r != 1 || forall|m: int| 0 <= m <= 1_000_000_000_000 ==> m * m != n + 1,
            r != 3 || forall|i: int, j: int| 0 <= i < n && 0 <= j < n ==> i * j >= 0,
            r != 4 || forall|i: int| 0 <= i < n ==> i * i >= 0,
    { }
}
}
"""


def _run(binary: object, n: int, r: int) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "VERISCALE_POST2EXE_FUEL"}
    env["VERISCALE_POST2EXE_FUEL"] = str(BUDGET)
    line = json.dumps({"input": {"n": n}, "output": r})
    res = subprocess.run([str(binary)], input=line + "\n", capture_output=True, text=True,
                         env=env, check=True, timeout=120)  # fmt: skip
    (out,) = [json.loads(x) for x in res.stdout.splitlines()]
    return out


@pytest.fixture(scope="module")
def binary() -> object:
    ck = checker_for_source(SPEC, ["n"], None)
    assert ck is not None and ck.ok and ck.checker.complete, ck and ck.error
    return ck.binary


def test_a_witness_within_the_share_decides_and_the_rest_is_unknown(binary: object) -> None:
    # n = 49: the witness m = 7 is the 8th value; 50 is no square, so the forall over 10^12 + 1 values
    # cannot be decided: it stops after its share (100 steps) with UNKNOWN instead of spending 6400
    a = _run(binary, 49, 1)
    assert a["ensures"] == "UNKNOWN" and a["ensures_steps"] == 8 + 100
    assert str(a["ensures_reason"]).endswith(
        "range of 1000000000001 values exceeds the step budget: undecided after 100 values (100 steps)"
    )
    assert _verdict(a, "ensures").category == "undecided"  # the Python evaluator may still pin it


def test_a_counterexample_after_an_undecided_clause_still_decides_false(binary: object) -> None:
    # n = 48: no witness (100 steps, UNKNOWN), then the forall meets m = 7 (49 = 48 + 1), its 8th value
    b = _run(binary, 48, 1)
    assert b["ensures"] == "FALSE" and b["ensures_steps"] == 100 + 8
    c = _run(binary, 50, 1)  # neither decides: two shares
    assert c["ensures"] == "UNKNOWN" and c["ensures_steps"] == 200


def test_a_range_that_fits_is_enumerated_one_that_does_not_is_searched(binary: object) -> None:
    full = _run(binary, 6400, 4)
    assert full["ensures"] == "TRUE" and full["ensures_steps"] == 6400
    over = _run(binary, 6401, 4)
    assert over["ensures"] == "UNKNOWN" and over["ensures_steps"] == 100
    assert "range of 6401 values exceeds the step budget" in str(over["ensures_reason"])


def test_a_spent_budget_is_reported_as_spent(binary: object) -> None:
    # 4900 x 4900 values: i = 0 takes 4900 steps; i = 1..15 each search 100 of the 1500 left (their
    # ranges no longer fit); at i = 16 nothing is left: the budget is spent, as `charge` reports it
    d = _run(binary, 4900, 3)
    assert d["ensures"] == "UNKNOWN" and d["ensures_steps"] == BUDGET
    assert str(d["ensures_reason"]).endswith(f"step budget of {BUDGET} exhausted")
    assert _verdict(d, "ensures").category == "timeout"  # not retried in Python
