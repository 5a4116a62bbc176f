"""Linear recursion as a loop (``post2exe/linear_rec.py``): which spec fns get it, and that it changes no verdict."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from shared_data import data_path
from veriscale.formats.vericontest.dataset import read_problem
from veriscale.languages.verus.engine import VeriContestEngine
from veriscale.languages.verus.post2exe import typed_fns
from veriscale.languages.verus.post2exe.checker import build_checker, checker_for_source
from veriscale.languages.verus.post2exe.crosscheck import crosscheck, example_cases, mutated_outputs
from veriscale.languages.verus.post2exe.translate import _Translator, translate
from veriscale.languages.verus.spec import SpecProgram
from veriscale.runtime.limits import Limits

needs_rustc = pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")

# loop form: `sum` (call + element), `cnt` (call + if), `allpos` (call && ..., boolean), `up` (recursion in
# the then-branch, the decreasing parameter in the middle), `pre` (a sequence result: the generic form),
# `neg` (a cast and a unary minus on the spine). Recursive form kept: `late` (the call is not first),
# `two` (two calls), `drop` (another argument changes), `by2` (`n - 2`), `mf`/`mg` (`mf` also reaches
# itself through `mg`), `rev` (`<==` evaluates its right operand first), `inc` (the call in the condition)
RECOGNIZER_SPEC = """
use vstd::prelude::*;
fn main() {}
verus! {
pub open spec fn sum(a: Seq<int>, n: int) -> int decreases n { if n <= 0 { 0 } else { sum(a, n - 1) + a[n - 1] } }
pub open spec fn cnt(a: Seq<int>, n: int, v: int) -> int decreases n {
    if n <= 0 { 0 } else { cnt(a, n - 1, v) + (if a[n - 1] == v { 1int } else { 0int }) }
}
pub open spec fn allpos(a: Seq<int>, n: int) -> bool decreases n {
    if n <= 0 { true } else { allpos(a, n - 1) && a[n - 1] > 0 }
}
pub open spec fn up(k: int, n: int, a: Seq<int>) -> int decreases n { if n > 0 { up(k, n - 1, a) * k + n } else { 1 } }
pub open spec fn pre(a: Seq<int>, n: int) -> Seq<int> decreases n {
    if n <= 0 { Seq::empty() } else { pre(a, n - 1).push(a[n - 1]) }
}
pub open spec fn neg(n: int) -> int decreases n { if n <= 0 { 0 } else { -(neg(n - 1) as int) + n } }
pub open spec fn late(a: Seq<int>, n: int) -> int decreases n { if n <= 0 { 0 } else { a[n - 1] + late(a, n - 1) } }
pub open spec fn two(n: int) -> int decreases n { if n <= 0 { 1 } else { two(n - 1) + two(n - 1) } }
pub open spec fn drop(a: Seq<int>, n: int) -> int decreases n {
    if n <= 0 { 0 } else { drop(a.drop_last(), n - 1) + 1 }
}
pub open spec fn by2(n: int) -> int decreases n { if n <= 0 { 0 } else { by2(n - 2) + 1 } }
pub open spec fn mf(n: int) -> int decreases n { if n <= 0 { 0 } else { mf(n - 1) + mg(n - 1) } }
pub open spec fn mg(n: int) -> int decreases n { if n <= 0 { 0 } else { mf(n - 1) } }
pub open spec fn rev(a: Seq<int>, n: int) -> bool decreases n {
    if n <= 0 { true } else { (a[n - 1] > 0 <== rev(a, n - 1)) }
}
pub open spec fn inc(n: int) -> int decreases n { if inc(n - 1) > 3 { 0 } else { 1 } }

pub fn f(a: Vec<i64>) -> (r: i64)
    ensures r == 0,
{
}
}
"""


def _shape(name: str):
    prog = SpecProgram.from_source(RECOGNIZER_SPEC)
    return _Translator(prog).linear(prog.ctx.fns[name])


@pytest.mark.parametrize(
    ("name", "rec_then", "pos"),
    [
        ("sum", False, 1),
        ("cnt", False, 1),
        ("allpos", False, 1),
        ("up", True, 1),
        ("pre", False, 1),
        ("neg", False, 0),
    ],
)
def test_linear_recursions_are_recognised(name: str, rec_then: bool, pos: int) -> None:
    shape = _shape(name)
    assert shape is not None
    assert (shape.rec_then, shape.pos) == (rec_then, pos)


@pytest.mark.parametrize("name", ["late", "two", "drop", "by2", "mf", "mg", "rev", "inc"])
def test_other_recursions_keep_the_recursive_form(name: str) -> None:
    assert _shape(name) is None


def test_the_loop_replaces_the_body_in_the_emitted_code() -> None:
    src = translate(RECOGNIZER_SPEC).source
    # (only fns the contract reaches are emitted; the contract here calls none)
    assert "fn l_v_" not in src
    spec = RECOGNIZER_SPEC.replace("ensures r == 0,", "ensures r == sum(a@, 2),")
    src = translate(spec).source
    assert "fn l_v_sum(" in src and "let r = l_v_sum(" in src


# a contract whose linear recursions meet every path of the loop: a base case that fails (`ok`'s `a[9]`) under
# `&&` (a FALSE level above still decides), an index out of bounds in the fold (`psum(a, len + 1)`), i128
# overflow (`pw`), a sequence result (`pre`), memo hits on the way down (ascending quantifier), a recursion
# deeper than the depth limit (`tri(d)`: UNKNOWN as before) and three below it in one clause, a boolean in the then-branch (`all_lt`)
EXACT_SPEC = """
use vstd::prelude::*;
fn main() {}
verus! {
pub open spec fn psum(s: Seq<i64>, n: int) -> int decreases n { if n <= 0 { 0 } else { psum(s, n - 1) + s[n - 1] } }
pub open spec fn ok(s: Seq<i64>, n: int) -> bool decreases n { if n <= 0 { s[9] > 0 } else { ok(s, n - 1) && s[n - 1] > 0 } }
pub open spec fn pw(n: int) -> int decreases n { if n <= 0 { 1 } else { pw(n - 1) * 3 } }
pub open spec fn pre(s: Seq<i64>, n: int) -> Seq<i64> decreases n {
    if n <= 0 { Seq::empty() } else { pre(s, n - 1).push(s[n - 1]) }
}
pub open spec fn tri(n: int) -> int decreases n { if n <= 0 { 0 } else { tri(n - 1) + n } }
pub open spec fn all_lt(s: Seq<i64>, n: int, v: int) -> bool decreases n {
    if n > 0 { all_lt(s, n - 1, v) && s[n - 1] < v } else { true }
}

pub fn f(a: Vec<i64>, d: i64) -> (r: i64)
    ensures
        r == psum(a@, a.len() as int),
        forall|i: int| 0 <= i <= a.len() ==> psum(a@, i) <= psum(a@, a.len() as int) + 1000000,
        ok(a@, a.len() as int) || d != 3,
        d != 2 || psum(a@, a.len() + 1) == r,
        d > 100 || pw(d as int) > 0,
        pre(a@, a.len() as int) =~= a@,
        d < 0 || tri(d as int) == d * (d + 1) / 2,
        d > 100 || all_lt(a@, a.len() as int, 100) || r < 0,
        d != 4 || tri(60000) + tri(59000) + tri(70000) > 0,
{
}
}
"""

CASES = [
    {"input": {"a": [1, 2, 3, 4], "d": 1}, "output": 10},
    {"input": {"a": [1, 2, 3, 4], "d": 1}, "output": 11},
    {"input": {"a": [1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 11], "d": 3}, "output": 62},  # ok: a[1] = -2
    {"input": {"a": [5, 1, 1], "d": 90}, "output": 7},  # pw(90) = 3^90: beyond i128
    {"input": {"a": [5, 0, 200], "d": 3}, "output": 205},  # ok: a[9] fails, a[1] = 0 decides false
    {"input": {"a": [], "d": 2}, "output": 0},  # psum(a, 1): out of bounds
    {"input": {"a": list(range(1, 120)), "d": 150_000}, "output": 7140},  # tri(150000): deeper than the limit
    {
        "input": {"a": [1, 2, 3, 4], "d": 4},
        "output": 10,
    },  # three deep loops in one clause: the depth restored
]


def _run(spec: str, fuel: str) -> list[dict]:
    ck = checker_for_source(spec, ["a", "d"], None)
    assert ck is not None and ck.ok, ck and ck.error
    assert ck.binary is not None
    data = "".join(json.dumps(c) + "\n" for c in CASES)
    env = {**os.environ, "VERISCALE_POST2EXE_FUEL": fuel}
    env.pop("VERISCALE_POST2EXE_REPLY", None)
    out = subprocess.run([str(ck.binary)], input=data, capture_output=True, text=True, env=env, check=True)
    return [json.loads(x) for x in out.stdout.splitlines()]


def _without_steps(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if "step" not in k} for r in rows]


def _steps(rows: list[dict]) -> list[int]:
    return [sum(v for k, v in r.items() if "step" in k and isinstance(v, int)) for r in rows]


@needs_rustc
@pytest.mark.parametrize("fuel", ["20000000", "400"])  # 400: the budget runs out inside the loops
def test_the_loop_gives_the_recursive_verdicts(fuel: str, monkeypatch) -> None:
    src = translate(EXACT_SPEC, ["a", "d"]).source
    for name in ("psum", "ok", "pw", "pre", "tri", "all_lt"):
        assert f"fn l_v_{name}(" in src
    looped = _run(EXACT_SPEC, fuel)
    # the typed fns and the generic form with the loop: identical verdicts, reasons and steps
    with monkeypatch.context() as m:
        m.setattr(typed_fns, "result_kind", lambda ret: None)
        generic = _run(EXACT_SPEC + "\n// generic\n", fuel)
    assert looped == generic
    # the recursive form (no loop)
    monkeypatch.setattr(_Translator, "linear", lambda self, fn: None)
    assert "fn l_v_" not in translate(EXACT_SPEC, ["a", "d"]).source
    recursive = _run(EXACT_SPEC + "\n// recursive\n", fuel)
    assert len(looped) == len(recursive) == len(CASES)
    for i, (lo, re_) in enumerate(zip(looped, recursive)):
        for kind in ("requires", "ensures"):
            a, b = lo.get(kind), re_.get(kind)
            if "UNKNOWN" not in (a, b):
                assert a == b, (i, kind, lo, re_)
    if fuel == "20000000":
        # the same verdicts and reasons on every case, the depth limit included (each level still enters)
        assert _without_steps(looped) == _without_steps(recursive)
        verdicts = ["TRUE", "FALSE", "FALSE", "UNKNOWN", "FALSE", "UNKNOWN", "UNKNOWN", "TRUE"]
        assert [x["ensures"] for x in looped] == verdicts
        assert "i128" in looped[3]["ensures_reason"] and "out of bounds" in looped[5]["ensures_reason"]
        assert "deeper than 100000" in looped[6]["ensures_reason"], looped[6]
        # no intermediate level is stored, so the loop never charges fewer steps than the recursion
        assert all(x >= y for x, y in zip(_steps(looped), _steps(recursive)))
    else:
        assert any("step budget of 400 exhausted" in x.get("ensures_reason", "") for x in looped), looped


@needs_rustc
@pytest.mark.parametrize(("a", "d"), [([1, 2, 3, 4], 1), ([3, 0, 7], 2), ([1] * 12, 4), ([], 0)])
def test_the_loop_agrees_with_the_python_evaluator(a: list[int], d: int) -> None:
    ck = checker_for_source(EXACT_SPEC, ["a", "d"], None)
    assert ck is not None and ck.ok, ck and ck.error
    prog = SpecProgram.from_source(EXACT_SPEC)
    for r in (sum(a), sum(a) + 1):
        ((_req, ens),) = ck.check([({"a": a, "d": d}, r)])
        py = prog.ensures_verdict({"a": tuple(a), "d": d}, r)
        assert ens is not None
        if not ens.is_unknown and not py.is_unknown:
            assert ens.truth == py.truth, (a, d, r, ens, py)
    ck.close()


DATA = data_path("vericontest")
FAST = Limits(fuel=300_000, seconds=120.0, max_depth=100_000)  # the Python side: fuel decides, not the clock
# problems whose checkers have linear recursions (of the 211 in the shared set): a sample over their shapes
AFFECTED = [
    "cf1077C",
    "cf1006C",
    "cf466C",
    "cf1118B",
    "cf935B",
    "lc3070",
    "lc3128",
    "lc3411",
    "cf534C",
    "lc3218",
]


@needs_rustc
@pytest.mark.parametrize("pid", AFFECTED)
def test_affected_problems_compiled_and_python_agree(pid: str) -> None:
    fam = "codeforces" if pid.startswith("cf") else "leetcode"
    d = DATA / fam / pid
    if not d.is_dir():
        pytest.skip(f"VeriContest data not found at {d}")
    p = read_problem(d)
    ck = build_checker(p)
    assert ck is not None and ck.ok
    assert "fn l_v_" in ck.checker.source
    te = VeriContestEngine(post2exe=False, spec_limits=FAST).for_task(p)
    cases = example_cases(p, te)
    rows = crosscheck(p, te, cases + mutated_outputs(cases), checker=ck)
    assert rows
    assert any(r.both_decided for r in rows)
    bad = [(r.case, r.kind, r.python, r.compiled) for r in rows if r.disagree]
    assert not bad
