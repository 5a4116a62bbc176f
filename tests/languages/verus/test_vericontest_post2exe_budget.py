"""Compiled checkers: the step budget comes from the environment at run time, steps are reported, the
engine passes its own budget, and a complete checker's budget UNKNOWN is not retried in Python."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from veriscale.languages.verus.post2exe.checker import CHECK_FUEL, _checker_env, checker_for_source
from veriscale.runtime.engine import Verdict

pytestmark = pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")

SPEC = """
verus! {
impl Solution {
    pub fn h(n: i64) -> (r: i64)
        requires 0 <= n <= 100,
        ensures forall|i: int, j: int| 0 <= i < n && 0 <= j < n ==> i * j <= r,
    { }
}
}
"""


def _run(binary: object, lines: list[str], fuel: str | None) -> list[dict[str, object]]:
    env = {k: v for k, v in os.environ.items() if k != "VERISCALE_POST2EXE_FUEL"}
    if fuel is not None:
        env["VERISCALE_POST2EXE_FUEL"] = fuel
    res = subprocess.run([str(binary)], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         env=env, check=True, timeout=120)  # fmt: skip
    return [json.loads(x) for x in res.stdout.splitlines()]


def test_budget_is_read_at_run_time_and_steps_are_reported() -> None:
    ck = checker_for_source(SPEC, ["n"], None)
    assert ck is not None and ck.ok, ck and ck.error
    line = json.dumps({"input": {"n": 30}, "output": 29 * 29})
    (full,) = _run(ck.binary, [line], None)
    assert full["ensures"] == "TRUE" and full["ensures_steps"] == 30 * 30
    (short,) = _run(ck.binary, [line], "100")  # the same binary, a smaller budget: no rebuild
    assert short["ensures"] == "UNKNOWN" and "budget of 100" in str(short["ensures_reason"])
    (false,) = _run(ck.binary, [json.dumps({"input": {"n": 30}, "output": 5})], "100")
    assert false["ensures"] == "FALSE"  # a counterexample found within the budget still decides


def test_engine_budget_and_user_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VERISCALE_POST2EXE_FUEL", raising=False)
    assert _checker_env()["VERISCALE_POST2EXE_FUEL"] == str(CHECK_FUEL)
    monkeypatch.setenv("VERISCALE_POST2EXE_FUEL", "1234")
    assert _checker_env()["VERISCALE_POST2EXE_FUEL"] == "1234"


def test_python_is_skipped_only_after_a_complete_checkers_budget() -> None:
    from veriscale.languages.verus.engine import VeriContestTaskEngine

    class _Ck:
        def __init__(self, complete: bool) -> None:
            self.checker = type("C", (), {"complete": complete})()

    budget = Verdict.unknown("compiled checker: clause `x`: step budget of 64 exhausted", "timeout")
    other = Verdict.unknown("compiled checker: clause `x`: not compiled: the method .foo()", "undecided")
    for complete, got, want in (
        (True, budget, False),
        (False, budget, True),
        (True, other, True),
        (True, Verdict.of(True), False),
        (True, None, True),
    ):
        te = object.__new__(VeriContestTaskEngine)
        te.compiled = lambda c=complete: _Ck(c)  # type: ignore[method-assign]
        assert te._python_useful(got) is want, (complete, got)
