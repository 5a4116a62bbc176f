"""Typed spec fns (``post2exe/typed_fns.py``): the same verdicts, reasons and steps as the generic form."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from veriscale.languages.verus.post2exe import translate, typed_fns
from veriscale.languages.verus.post2exe.checker import checker_for_source

pytestmark = pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")

# integer results (memoised recursion `psum`, non-recursive `gap` and `pick` whose `if` picks a branch, `at`
# that can index out of bounds, `big` that can overflow, `nat` result `cnt`), boolean results (memoised
# `has` with a quantifier, non-memoised `valid` calling integer fns), used both where the integer/boolean
# itself is needed and as values (`==` of two calls, an argument); an argument that fails (`a[5]`) is an
# UNKNOWN operand of `||`, which the other operand still decides
SPEC = """
use vstd::prelude::*;
fn main() {}
verus! {
pub open spec fn psum(s: Seq<i64>, n: int) -> int
    decreases n,
{
    if n <= 0 { 0 } else { psum(s, n - 1) + s[n - 1] }
}
pub open spec fn gap(x: int, y: int) -> int { if x >= y { x - y } else { y - x } }
pub open spec fn pick(s: Seq<i64>, i: int) -> int { if i < s.len() { s[i] as int } else { -1 } }
pub open spec fn at(s: Seq<i64>, i: int) -> int { s[i] * 2 }
pub open spec fn big(x: int) -> int { x * x * x * x * x * x }
pub open spec fn cnt(s: Seq<i64>, v: int, n: int) -> nat
    decreases n,
{
    if n <= 0 { 0 } else { cnt(s, v, n - 1) + (if s[n - 1] == v { 1nat } else { 0nat }) }
}
pub open spec fn has(s: Seq<i64>, v: int) -> bool { exists|k: int| 0 <= k < s.len() && s[k] == v }
pub open spec fn valid(s: Seq<i64>, i: int, j: int) -> bool {
    0 <= i <= j <= s.len() && psum(s, i) <= psum(s, j) + 1000
}

pub fn f(a: Vec<i64>, d: i64) -> (r: i64)
    ensures
        r == psum(a@, a.len() as int),
        forall|i: int, j: int| 0 <= i < j <= a.len() ==> valid(a@, i, j) || gap(psum(a@, i), psum(a@, j)) >= 0,
        forall|i: int| 0 <= i < a.len() ==> has(a@, a[i] as int) && cnt(a@, a[i] as int, a.len() as int) >= 1,
        psum(a@, 2) == psum(a@, 2) && has(a@, d as int) == has(a@, d as int),
        pick(a@, d as int) <= at(a@, d as int) || d > 3,
        big(d as int) != 7,
        has(a@, a[5] as int) || a.len() < 10,
        forall|i: int| 0 <= i < 3 ==> has(a@, a[i] as int) || i >= a.len(),
{
}
}
"""

CASES = [
    {"input": {"a": [1, 2, 3, 4], "d": 1}, "output": 10},
    {"input": {"a": [1, 2, 3, 4], "d": 1}, "output": 11},  # FALSE
    {"input": {"a": [5, -2000, 4, 4, 9], "d": 2}, "output": -1978},
    {"input": {"a": [3, 1], "d": 2}, "output": 4},  # at(a, 2): out of bounds, UNKNOWN
    {"input": {"a": [3, 1], "d": 9}, "output": 4},  # d > 3 decides; big(9) fits
    {"input": {"a": [3, 1, 1], "d": 9_000_000_000_000_000_000}, "output": 5},  # big(d): beyond i128
    {"input": {"a": [], "d": 0}, "output": 0},  # psum(a, 2): out of bounds, UNKNOWN
    {"input": {"a": list(range(60)), "d": 1}, "output": 1770},
]


def _run(source_spec: str, fuel: str) -> list[dict]:
    ck = checker_for_source(source_spec, ["a", "d"], None)
    assert ck is not None and ck.ok, ck and ck.error
    assert ck.binary is not None
    data = "".join(json.dumps(c) + "\n" for c in CASES)
    env = {**os.environ, "VERISCALE_POST2EXE_FUEL": fuel}
    env.pop("VERISCALE_POST2EXE_REPLY", None)
    out = subprocess.run([str(ck.binary)], input=data, capture_output=True, text=True, env=env, check=True)
    return [json.loads(x) for x in out.stdout.splitlines()]


@pytest.mark.parametrize("fuel", ["20000000", "150"])  # 150: the budget runs out inside typed fns
def test_typed_fns_give_the_generic_verdicts_reasons_and_steps(fuel: str, monkeypatch) -> None:
    src = translate(SPEC, ["a", "d"]).source
    for name in ("psum", "gap", "pick", "at", "big", "cnt", "has", "valid"):
        assert f"fn t_v_{name}(" in src and f"fn f_v_{name}(" in src
    assert "memo_get_i(" in src and "memo_get_b(" in src
    typed = _run(SPEC, fuel)
    monkeypatch.setattr(typed_fns, "result_kind", lambda ret: None)  # every spec fn in the generic form
    generic_src = translate(SPEC, ["a", "d"]).source
    assert "fn t_v_" not in generic_src
    generic = _run(SPEC + "\n// generic\n", fuel)
    assert typed == generic
    verdicts = [x["ensures"] for x in typed]
    if fuel == "20000000":
        assert verdicts == ["TRUE", "FALSE", "TRUE", "UNKNOWN", "TRUE", "UNKNOWN", "UNKNOWN", "TRUE"], typed
        assert "out of bounds" in typed[3]["ensures_reason"] and "i128" in typed[5]["ensures_reason"]
        assert "out of bounds" in typed[6]["ensures_reason"]
    else:
        assert any("step budget of 150 exhausted" in x["ensures_reason"] for x in typed), typed
