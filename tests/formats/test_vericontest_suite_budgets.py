"""VeriContest suite building: step budgets between fixed checker runs, the mutant-output size cap."""

from __future__ import annotations

from typing import Any

from veriscale.formats.vericontest.suites import CHECK_CHUNK, SuiteSettings, _capped, _verdicts
from veriscale.languages.verus.execute import CaseResult
from veriscale.runtime.engine import Verdict


class _FakeEngine:
    """Stands in for a task engine: every row TRUE, each run costs 10 steps per row."""

    def __init__(self) -> None:
        self.steps = 0
        self.python_unknown = 0
        self.python_bignum = 0
        self.runs: list[int] = []

    def check_batch(self, pairs: list[Any], with_output: bool, **kw: Any) -> list[Verdict]:
        assert kw["checker_fuel"] == SuiteSettings().checker_fuel
        self.runs.append(len(pairs))
        self.steps += 10 * len(pairs)
        return [Verdict.of(True) for _ in pairs]


def test_verdicts_run_in_fixed_chunks_and_stop_on_a_spent_step_budget() -> None:
    te = _FakeEngine()
    pairs = [({"x": k}, k) for k in range(3 * CHECK_CHUNK + 5)]
    got = _verdicts(te, pairs, True, SuiteSettings(), stop=lambda: te.steps >= 10 * 2 * CHECK_CHUNK)
    assert te.runs == [CHECK_CHUNK, CHECK_CHUNK]  # the budget is looked at before each run
    assert [v.is_true for v in got[: 2 * CHECK_CHUNK]] == [True] * (2 * CHECK_CHUNK)
    rest = got[2 * CHECK_CHUNK :]
    assert len(rest) == CHECK_CHUNK + 5 and all(v.is_unknown and v.category == "budget" for v in rest)
    te2 = _FakeEngine()
    assert all(v.is_true for v in _verdicts(te2, pairs, True, SuiteSettings()))
    assert te2.runs == [CHECK_CHUNK, CHECK_CHUNK, CHECK_CHUNK, 5]


def test_oversized_mutant_results_kill_but_are_not_kept() -> None:
    big = CaseResult("ok", value=list(range(2000)), micros=5)
    small = CaseResult("ok", value=[1, 2, 3])
    assert _capped(small, 100) is small
    out = _capped(big, 100)
    assert out.status == "output" and not out.ok and out.micros == 5
    assert _capped(CaseResult("panic", message="x"), 1).status == "panic"
