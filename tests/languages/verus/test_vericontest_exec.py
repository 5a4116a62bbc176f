"""Reference execution with rustc: harnesses, limits, panics, overflow, traced Codeforces programs."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared_data import require
from veriscale.languages.verus.compile import compile_program, rustc_available
from veriscale.languages.verus.execute import ExecLimits, run_json_lines, run_program
from veriscale.languages.verus.harness import json_harness
from veriscale.runtime.engine import OutcomeKind
from veriscale.values.rust_types import parse_rust_type as T

pytestmark = pytest.mark.skipif(not rustc_available(), reason="rustc is not installed")

ROBUST = """
impl Solution {
    pub fn f(mode: i32, n: i64) -> i64 {
        if mode == 0 { return n * 2; }
        if mode == 1 { loop { std::hint::black_box(n); } }
        if mode == 2 { panic!("boom {}", n); }
        if mode == 3 { let x: i32 = i32::MAX; return (x + (n as i32)) as i64; }
        if mode == 4 { let mut v: Vec<u64> = Vec::new(); loop { v.push(n as u64); } }
        if mode == 5 {
            fn r(k: u64) -> u64 {
                let buf = [k as u8; 8192];
                let next: fn(u64) -> u64 = std::hint::black_box(r);
                if k == 0 { 0 } else { 1 + next(k - 1) + std::hint::black_box(&buf)[7] as u64 }
            }
            return r(u64::MAX) as i64;
        }
        let v: Vec<i64> = vec![1, 2, 3];
        v[n as usize]
    }
}
"""


@pytest.fixture(scope="module")
def robust_binary() -> Path:
    src = json_harness(ROBUST, "f", [("mode", T("i32")), ("n", T("i64"))], T("i64"))
    comp = compile_program(src)
    assert comp.ok, comp.errors
    assert comp.binary is not None
    return comp.binary


def test_robustness_outcomes(robust_binary: Path) -> None:
    # Every case here ends by itself, so it gets a time limit it never reaches: its status must not
    # depend on machine load (overflowing the harness's 512 MiB stack takes seconds on a busy machine).
    # The looping case has its own test below.
    lim = ExecLimits(case_seconds=60.0, memory_mb=1024)
    res = run_json_lines(
        robust_binary,
        [
            "[0,5]",
            "[2,5]",
            "[3,5]",
            "[4,5]",
            "[5,1]",
            "[6,9]",
            "[0,7]",
            '[0,"x"]',
            "[0,9223372036854775807]",
        ],
        lim,
    )
    assert [r.status for r in res] == [
        "ok", "panic", "panic", "memory", "crash", "panic", "ok", "bad", "panic"
    ]  # fmt: skip
    assert res[0].value == 10 and res[6].value == 14  # the process restarts after a fatal case
    assert "boom 5" in res[1].message
    assert "overflow" in res[2].message and "overflow" in res[8].message  # overflow checks are on
    assert res[4].message == "stack overflow"
    assert "index out of bounds" in res[5].message


def test_a_looping_case_times_out_and_the_next_case_runs(robust_binary: Path) -> None:
    res = run_json_lines(
        robust_binary, ["[0,5]", "[1,5]", "[0,7]"], ExecLimits(case_seconds=1.0, memory_mb=1024)
    )
    assert [r.status for r in res] == ["ok", "timeout", "ok"]
    assert res[0].value == 10 and res[2].value == 14  # a fresh process after the killed one
    # the per-case deadline ended it, not the process's cumulative CPU limit
    assert res[1].message == "time limit exceeded"


def test_stop_after_timeout_skips_the_rest(robust_binary: Path) -> None:
    lim = ExecLimits(case_seconds=1.0, memory_mb=1024)
    res = run_json_lines(robust_binary, ["[0,5]", "[1,5]", "[0,7]", "[0,8]"], lim, stop_after_timeout=True)
    assert [r.status for r in res] == ["ok", "timeout", "skipped", "skipped"]
    # a panic is not a timeout: the run goes on
    res = run_json_lines(robust_binary, ["[2,5]", "[0,7]"], lim, stop_after_timeout=True)
    assert [r.status for r in res] == ["panic", "ok"]


def test_program_limits(tmp_path: Path) -> None:
    src = """use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let n: i64 = s.trim().parse().unwrap();
    if n == 0 { loop { std::hint::black_box(n); } }
    if n == 1 { loop { println!("spam spam spam spam"); } }
    if n == 2 { let v: Vec<i32> = Vec::new(); println!("{}", v[3]); }
    println!("{}", n * 2);
}
"""
    comp = compile_program(src)
    assert comp.ok and comp.binary is not None
    lim = ExecLimits(case_seconds=1.0, output_bytes=1 << 20)
    assert run_program(comp.binary, "21\n", lim).stdout == "42\n"
    assert run_program(comp.binary, "0\n", lim).status == "timeout"
    assert run_program(comp.binary, "1\n", lim).status in ("output", "timeout")
    r = run_program(comp.binary, "2\n", lim)
    assert r.status == "panic" and "index out of bounds" in r.message
    assert run_program(comp.binary, "x\n", lim).status == "panic"


def test_compile_cache_and_errors(tmp_path: Path) -> None:
    bad = compile_program('fn main() { let x: i32 = "no"; }', cache=tmp_path)
    assert not bad.ok and "mismatched types" in bad.errors
    again = compile_program('fn main() { let x: i32 = "no"; }', cache=tmp_path)
    assert again.cached and not again.ok


def _problem(rel: str):
    from veriscale.formats.vericontest.dataset import read_problem

    return read_problem(require("vericontest", rel))


def test_reference_lc7_engine() -> None:
    from veriscale.languages.verus.engine import VeriContestEngine

    p = _problem("leetcode/lc7")
    te = VeriContestEngine().for_task(p)
    outs = te.runs([{"x": 123}, {"x": -(2**31)}, {"x": 1534236469}])
    assert [o.value for o in outs] == [321, 0, 0]
    assert te.precondition({"x": 5}).is_true
    assert te.postcondition({"x": 123}, 321).is_true and te.postcondition({"x": 123}, 320).is_false


def test_check_batch_compiled_then_python_within_a_count_budget() -> None:
    from veriscale.languages.verus.engine import VeriContestEngine

    p = _problem("leetcode/lc7")
    pairs = [({"x": 123}, 321), ({"x": 123}, 320), ({"x": 5}, 5)]
    te = VeriContestEngine().for_task(p)
    got = te.check_batch(pairs, True, checker_fuel=1_000_000, max_python_unknown=0)
    assert [v.truth.name for v in got] == ["TRUE", "FALSE", "TRUE"]
    assert all(v.is_true for v in te.check_batch([(i, None) for i, _ in pairs], False))
    # without a compiled checker the Python evaluator decides every row (no UNKNOWN: the budget is unused)
    py = VeriContestEngine(post2exe=False).for_task(p)
    assert [v.truth.name for v in py.check_batch(pairs, True, max_python_unknown=1)] == [
        "TRUE",
        "FALSE",
        "TRUE",
    ]
    # a spent budget (0) leaves the fallback rows UNKNOWN, with the reason
    none = py.check_batch(pairs, True, max_python_unknown=0)
    assert all(v.is_unknown and v.category == "budget" for v in none)


def test_reference_vstd_shims_lc2486_and_lc566() -> None:
    from veriscale.languages.verus.engine import VeriContestEngine

    te = VeriContestEngine().for_task(_problem("leetcode/lc2486"))  # unicode_len / get_char
    assert te.run({"s": "coaching", "t": "coding"}).value == 4
    te = VeriContestEngine().for_task(_problem("leetcode/lc566"))  # Vec::set
    assert te.run({"mat": ((1, 2), (3, 4)), "r": 1, "c": 4}).value == ((1, 2, 3, 4),)


def test_candidate_code_is_erased_and_faults_are_outcomes() -> None:
    from veriscale.languages.verus.engine import VeriContestEngine

    p = _problem("leetcode/lc7")
    te = VeriContestEngine().for_task(p, {"code": p.verified})  # Verus source: erased first
    assert te.run({"x": -123}).value == -321
    looping = "impl Solution { pub fn reverse(x: i32) -> i32 { loop {} } }"
    eng = VeriContestEngine()
    eng.exec_limits = eng.exec_limits.__class__(case_seconds=1.0)
    assert eng.for_task(p, {"code": looping}).run({"x": 1}).kind is OutcomeKind.TIMEOUT
    broken = "impl Solution { pub fn reverse(x: i32) -> i32 { x + 1i64 } }"
    out = eng.for_task(p, {"code": broken}).run({"x": 1})
    assert out.kind is OutcomeKind.ERROR and "compile" in out.reason


def test_codeforces_traced_program() -> None:
    from veriscale.languages.verus.reference import ProblemRunner, normalize_stdout

    p = _problem("codeforces/cf1006C")
    r = ProblemRunner(p)
    tr = r.run_stdin(p.examples[1].stdin)
    assert tr.result.ok and normalize_stdout(tr.result.stdout) == "4"
    assert tr.calls == [{"args": [[1, 3, 2, 1, 4]], "ret": 4}]
    res = r.run_inputs([{"nums": [4, 1, 2]}])  # the function harness around main.rs's impl
    assert res[0].value == 0


def test_struct_argument_and_self_methods() -> None:
    from veriscale.languages.verus.engine import VeriContestEngine

    p = _problem("leetcode/lc1095")  # &MountainArray argument, given as its field
    te = VeriContestEngine().for_task(p)
    inp = te.decode_inputs(p.examples[0].inputs or {})
    assert te.run(inp).value == 2
    assert te.precondition(inp).is_true and te.postcondition(inp, 2).is_true
    assert te.postcondition(inp, 5).is_false
    p = _problem("leetcode/lc303")  # NumArray::new(nums) then &self sum_range(left, right)
    te = VeriContestEngine().for_task(p)
    inp = te.decode_inputs({"nums": [-2, 0, 3, -5, 2, -1], "left": 2, "right": 5})
    assert te.run(inp).value == -1
    assert te.precondition(inp).is_true  # needs the object: built by running the constructor
    assert te.postcondition(inp, -1).is_true and te.postcondition(inp, 0).is_false
