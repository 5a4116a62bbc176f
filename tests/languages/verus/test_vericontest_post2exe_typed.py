"""Post2Exe speed paths keep the verdicts exact: typed i128 code, the memo policy, batch lines, buffered output."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from veriscale.languages.verus.post2exe import translate
from veriscale.languages.verus.post2exe.checker import checker_for_source
from veriscale.languages.verus.spec import SpecProgram

pytestmark = pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")

SPEC = """
use vstd::prelude::*;
fn main() {}
verus! {
pub struct Solution;
impl Solution {
    pub open spec fn psum(s: Seq<i64>, n: int) -> int
        decreases n,
    {
        if n <= 0 { 0 } else { Self::psum(s, n - 1) + s[n - 1] }
    }

    pub open spec fn seg(s: Seq<i64>, i: int, j: int) -> int {
        Self::psum(s, j) - Self::psum(s, i)
    }

    pub open spec fn gap(x: int, y: int) -> int {
        if x >= y { x - y } else { y - x }
    }

    pub open spec fn rev(s: Seq<i64>) -> Seq<i64> {
        s.reverse()
    }

    pub open spec fn has(s: Seq<i64>, v: int) -> bool {
        exists|k: int| 0 <= k < s.len() && s[k] == v
    }

    pub fn f(a: Vec<i64>, d: i64) -> (r: (i64, i64))
        requires
            d != 0,
        ensures
            r.0 == (a.len() as int - 7) / d as int,
            r.1 == (a.len() as int - 7) % d as int,
            forall|i: int, j: int| 0 <= i < j <= a.len() ==> Self::seg(a@, i, j) >= -(j - i) * 1000,
            forall|i: int, j: int| 0 <= i < j < a.len() ==> Self::gap(a[i] as int, a[j] as int) >= 0,
            a.len() == 0 || Self::has(a@, a[0] as int),
            forall|i: int| 0 <= i < a.len() ==> Self::rev(a@)[i] == a[a.len() - 1 - i],
            (a@ + a@).len() == 2 * a.len(),
    {
    }
}
}
"""


def _compiled(spec: str, names: list[str]):
    ck = checker_for_source(spec, names, None)
    assert ck is not None and ck.ok, ck and ck.error
    assert ck.checker.complete, ck.checker.untranslated
    return ck


def test_integer_expressions_are_typed_and_agree_with_the_python_evaluator() -> None:
    src = translate(SPEC, ["a", "d"]).source
    # the typed path is in use: checked i128 arithmetic, elements read without a V, i128 comparisons
    assert "checked_sub" in src and "idx_i(" in src and "emod_i(" in src and "ediv_i(" in src
    ck = _compiled(SPEC, ["a", "d"])
    prog = SpecProgram.from_source(SPEC)
    cases = [
        (([1, 2, 3], -2), (2, 0)),  # Euclidean: -4 = (-2)(2) + 0
        (([1, 2, 3], 3), (-2, 2)),  # -4 = 3(-2) + 2
        (([1, 2, 3], 3), (-1, -1)),  # truncation: wrong
        (([], 5), (-2, 3)),
        (([5, -2000, 4], 1), (-4, 0)),  # a segment sum below the bound: the third clause fails
        (([9223372036854775807, 9223372036854775807], 1), (-5, 0)),  # sums beyond i64, within i128
    ]
    got = ck.check([({"a": a, "d": d}, list(r)) for (a, d), r in cases])
    for ((a, d), r), (req, ens) in zip(cases, got):
        py = prog.ensures_verdict({"a": tuple(a), "d": d}, r)
        assert req.is_true
        assert ens is not None and not ens.is_unknown and not py.is_unknown, (a, d, r, ens, py)
        assert ens.truth == py.truth, (a, d, r, ens, py)
    assert [e.is_true for _, e in got] == [True, True, False, True, False, True]


def test_typed_overflow_casts_and_bounds_are_unknown_not_wrong() -> None:
    spec = SPEC.replace(
        "(a@ + a@).len() == 2 * a.len()",
        "(d as int) * (d as int) * (d as int) * (d as int) * 1_000_000_000_000_000_000_000 > 0 || a[100] == 0",
    )
    ck = _compiled(spec, ["a", "d"])
    ((_req, ens),) = ck.check([({"a": [1], "d": 9_000_000_000}, [-1, 8_999_999_994])])
    assert ens is not None and ens.is_unknown and "i128" in ens.reason
    cast = SPEC.replace("(a@ + a@).len() == 2 * a.len()", "(a[0] as int - 1) as nat >= 0 && a[5] as int > 0")
    ck = _compiled(cast, ["a", "d"])
    ((_req, ens),) = ck.check([({"a": [0], "d": 1}, [-6, 0])])  # -1 as nat: out of range, not 2^64-1
    assert ens is not None and ens.is_unknown and "cast to nat" in ens.reason
    ((_req, ens),) = ck.check([({"a": [3], "d": 1}, [-6, 0])])  # a[5]: out of bounds
    assert ens is not None and ens.is_unknown and "out of bounds" in ens.reason


def test_memo_only_where_a_call_can_repeat_work() -> None:
    src = translate(SPEC, ["a", "d"]).source
    # a spec fn with an integer/boolean result: the memo is in its typed function `t_` (typed_fns)
    lines = src.splitlines()
    typed = {ln.split("(", 1)[0].removeprefix("fn t_"): ln for ln in lines if ln.startswith("fn t_")}
    fns = {
        (name := line.split("(", 1)[0].removeprefix("fn ")): typed.get(name.removeprefix("f_"), line)
        for line in lines
        if line.startswith("fn f_")
    }
    assert "tkey(" in fns["f_v_psum"]  # recursive
    assert "tkey(" in fns["f_v_has"]  # a quantifier in its body
    assert "tkey(" not in fns["f_v_gap"]  # arithmetic only
    assert "tkey(" not in fns["f_v_seg"]  # not recursive, calls a memoised fn
    assert "tkey(" in fns["f_v_rev"]  # linear work no step pays for: `rev(s)[i]` for every i reuses one


def test_a_json_array_line_is_a_batch_and_answers_come_before_the_next_input() -> None:
    ck = _compiled(SPEC, ["a", "d"])
    one = {"input": {"a": [1, 2, 3], "d": 3}, "output": [-2, 2]}
    wrong = {"input": {"a": [1, 2, 3], "d": 3}, "output": [-1, -1]}
    assert ck.binary is not None
    proc = subprocess.Popen([str(ck.binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        # output is buffered, but flushed whenever the checker waits for input: a dialogue works
        proc.stdin.write(json.dumps(one) + "\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["ensures"] == "TRUE"
        proc.stdin.write(json.dumps([one, wrong, {"nothing": 1}]) + "\n")
        proc.stdin.flush()
        got = [json.loads(proc.stdout.readline()) for _ in range(3)]
        assert [g.get("ensures") for g in got[:2]] == ["TRUE", "FALSE"] and "bad" in got[2]
    finally:
        proc.stdin.close()  # type: ignore[union-attr]
        proc.wait(timeout=30)


def test_a_case_the_encoder_refuses_is_the_only_undecodable_one() -> None:
    ck = _compiled(SPEC, ["a", "d"])
    got = ck.check([({"a": [1, 2, 3], "d": 3}, [-2, 2]), ({"a": [float("nan")], "d": 3}, [0, 0])])
    assert got[0][1] is not None and got[0][1].is_true
    assert got[1][0].is_unknown and "does not decode" in got[1][0].reason
