"""Branch probes in Rust reference code: which branch outcomes each test input executes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.shared_data import require
from veriscale.formats.vericontest.dataset import read_problem
from veriscale.languages.verus.compile import compile_program, rustc_available
from veriscale.languages.verus.coverage import coverage_harness, instrument, measure_branches
from veriscale.languages.verus.execute import run_json_lines
from veriscale.languages.verus.harness import json_harness
from veriscale.values.rust_types import parse_rust_type as T

needs_rustc = pytest.mark.skipif(not rustc_available(), reason="rustc is not installed")

CODE = """
impl Solution {
    fn sign(x: i32) -> i32 {
        match x { 0 => 0, v if v > 0 => { 1 } _ => -1 }
    }
    pub fn walk(nums: Vec<i32>) -> i32 {
        let mut s: i32 = 0;
        'outer: for i in 0..nums.len() {
            if nums[i] < 0 { s -= 1; } else if nums[i] == 0 { continue 'outer; }
            s += Self::sign(nums[i]);
        }
        let x = if s > 10 { 10 } else { s };
        x
    }
}
"""


def test_probe_placement_and_numbering() -> None:
    ins = instrument(CODE)
    labels = [p.label for p in ins.probes]
    # source order: sign's entry and its three arms; walk's entry, the loop (entered / skipped), the
    # if (then, implicit else of the inner `else if`, its then), the `let x = if` arms
    assert labels == [
        "fn@3", "arm@4", "arm@4", "arm@4", "fn@6", "loop@8", "then@9", "then@9", "else@9",
        "skip@8", "then@12", "else@12",
    ]  # fmt: skip
    assert [p.id for p in ins.probes] == list(range(len(labels)))
    assert "'outer: for" in ins.source and ins.source.count("__vs_p(") == len(labels)
    assert instrument(CODE).source == ins.source  # deterministic


def _hits(code: str, rows: list[str]) -> tuple[list[int], list[list[int]]]:
    ins = instrument(code)
    h = json_harness(ins.source, "walk", [("nums", T("Vec<i32>"))], T("i32"))
    comp = compile_program(coverage_harness(h, len(ins.probes)))
    assert comp.ok, comp.errors
    got = run_json_lines(comp.binary, rows)
    return [r.value[0] for r in got], [r.value[1] for r in got]


@needs_rustc
def test_each_case_reports_its_own_branches() -> None:
    # ids: 0 fn sign, 1-3 its arms (0, v > 0, _), 4 fn walk, 5 loop entered, 6 `< 0`, 7 `== 0`, 8 else,
    # 9 loop skipped, 10-11 the `let x = if` arms
    vals, hits = _hits(CODE, ["[[]]", "[[5, 0, -2]]", "[[3, 4, 5]]", "[[11, 0]]"])
    assert vals == [0, -1, 3, 1]  # the probes leave the results alone
    assert hits[0] == [4, 9, 11]  # the bitmap is cleared between cases
    assert hits[1] == [0, 2, 3, 4, 5, 6, 7, 8, 11]
    assert hits[2] == [0, 2, 4, 5, 8, 11]
    assert hits[3] == [0, 2, 4, 5, 7, 8, 11]


@needs_rustc
def test_branches_of_a_real_problem() -> None:
    """lc1004 (sliding window): 11 probes; the outer loop is never skipped, as `requires` asks 1 <= len."""
    p = read_problem(Path(require("vericontest", "leetcode", "lc1004")))
    rows = [{"nums": [1, 1], "k": 0}, {"nums": [0, 0], "k": 0}, {"nums": [1, 0, 0], "k": 1}]
    run = measure_branches(p, rows, [2, 0, 2])
    labels = [q.label for q in run.probes]
    assert labels == ["fn@2", "loop@9", "then@10", "else@10", "loop@15", "then@16", "else@16", "skip@15",
                      "then@23", "else@23", "skip@9"]  # fmt: skip
    assert not run.error and run.mismatched == 0
    names = [[labels[k] for k in h] for h in run.hits]
    assert names[0] == ["fn@2", "loop@9", "else@10", "skip@15", "then@23"]
    assert names[1] == ["fn@2", "loop@9", "then@10", "loop@15", "then@16", "else@23"]
    assert "else@16" in names[2] and "skip@9" not in {x for n in names for x in n}
    wrong = measure_branches(p, rows[:1], [3])  # an expected output the code does not give: not measured
    assert wrong.hits == [None] and wrong.mismatched == 1
