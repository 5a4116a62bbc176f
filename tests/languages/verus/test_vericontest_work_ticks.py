"""Work budgets of mutant runs: ticks in function and loop bodies, a per-case budget, a panic past it."""

from __future__ import annotations

import pytest

from veriscale.languages.verus.compile import compile_program, rustc_available
from veriscale.languages.verus.execute import run_json_lines
from veriscale.languages.verus.harness import json_harness
from veriscale.languages.verus.mutants import SELECTOR_ENV, mutant_schema, selector_source
from veriscale.languages.verus.work_ticks import SKIPPED, WORK_BUDGET, insert_ticks, ticked_harness
from veriscale.values.rust_types import parse_rust_type as T

CODE = """
impl Solution {
    pub fn total(n: i32) -> i32 {
        let mut s: i32 = 0;
        let mut i: i32 = 0;
        while i < n {
            s = s + 1;
            i = i + 1;
        }
        for _k in 0..2 { s = s + 0; }
        s
    }
}
"""


def test_ticks_are_inserted_on_the_same_lines_and_are_no_mutation_site() -> None:
    t = insert_ticks(CODE)
    assert t.count("__vs_t();") == 3 and t.count("\n") == CODE.count("\n")
    assert [m.name for m in mutant_schema(t).mutants] == [m.name for m in mutant_schema(CODE).mutants]


@pytest.mark.skipif(not rustc_available(), reason="rustc is not installed")
def test_a_mutant_past_its_budget_panics_and_the_reference_reports_its_ticks() -> None:
    schema = mutant_schema(insert_ticks(CODE))
    h = json_harness(schema.source, "total", [("n", T("i32"))], T("i32"))
    comp = compile_program(ticked_harness(h) + "\n" + selector_source())
    assert comp.ok, comp.errors
    ref = run_json_lines(comp.binary, ["[3, 1000]", "[50, 1000]"], env={SELECTOR_ENV: "0"})
    # 1 function entry + n while iterations + 2 for iterations
    assert [r.value for r in ref] == [[3, 6], [50, 53]]
    stall = next(m for m in schema.mutants if m.operator == "delete" and "i = i + 1" in m.original)
    got = run_json_lines(comp.binary, ["[3, 1000]", "[2, 1000]"], env={SELECTOR_ENV: str(stall.id)})
    assert got[0].status == "panic" and WORK_BUDGET in got[0].message  # an endless loop, stopped by count
    assert got[1].status == "bad" and SKIPPED in got[1].message  # one overrun decides: the rest not run
