"""Syntactic mutants of Rust code as one mutant schema selected at run time."""

from __future__ import annotations

import json

import pytest

from veriscale.languages.verus.compile import compile_program, rustc_available
from veriscale.languages.verus.execute import ExecLimits, run_json_lines
from veriscale.languages.verus.harness import json_harness
from veriscale.languages.verus.mutants import SELECTOR_ENV, mutant_schema, selector_source
from veriscale.values.rust_types import parse_rust_type as T

CODE = """
impl Solution {
    pub fn count_big(nums: Vec<i32>, k: i32) -> i32 {
        let mut c: i32 = 0;
        let mut i: usize = 0;
        let v: [i32; 3] = [0; 3];
        while i < nums.len() {
            if nums[i] > k && !(nums[i] == 7) {
                c += 1;
            }
            i = i + 1;
        }
        match c { 0 => c, _ => c + v[0] }
    }
}
"""


def test_schema_sites_and_numbering() -> None:
    s = mutant_schema(CODE)
    ops = {m.operator for m in s.mutants}
    assert {"body", "binop", "assign", "const", "cond", "unary", "delete"} <= ops
    assert [m.id for m in s.mutants] == list(range(1, len(s.mutants) + 1))
    assert all(f"__vs_m({m.id})" in s.source for m in s.mutants)
    assert (
        "; 3] = [" in s.source and s.source.count("; 3]") == 2
    )  # array lengths are constants: never mutated
    assert "0 => c" in s.source  # a pattern is never mutated
    assert mutant_schema(CODE) == s  # deterministic
    assert len(mutant_schema(CODE, max_mutants=10).mutants) <= 10


@pytest.mark.slow
@pytest.mark.skipif(not rustc_available(), reason="rustc is not installed")
def test_schema_compiles_once_and_selects_mutants_at_run_time() -> None:
    s = mutant_schema(CODE)
    src = json_harness(s.source, "count_big", [("nums", T("Vec<i32>")), ("k", T("i32"))], T("i32"))
    comp = compile_program(src + "\n" + selector_source())
    assert comp.ok, comp.errors[:2000]
    line = json.dumps([[1, 9, 7, 3], 2])
    base = run_json_lines(comp.binary, [line], ExecLimits(case_seconds=2))[0]
    assert base.ok and base.value == 2
    outs = {}
    for m in s.mutants:
        r = run_json_lines(comp.binary, [line], ExecLimits(case_seconds=0.5), env={SELECTOR_ENV: str(m.id)})[
            0
        ]
        outs[m.id] = (r.status, r.value)
    body = [m.id for m in s.mutants if m.operator == "body"]
    assert outs[body[0]] == ("ok", 0)  # `return 0` first
    assert sum(v != ("ok", 2) for v in outs.values()) >= len(s.mutants) // 2  # most mutants change the result
