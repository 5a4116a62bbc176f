"""Post2Exe compiled checkers: exact semantics on our own contracts, agreement with the Python evaluator."""

from __future__ import annotations

import shutil

import pytest

from shared_data import FIXTURES_DIR, data_path
from veriscale.formats.vericontest.dataset import read_problem
from veriscale.languages.verus.engine import VeriContestEngine
from veriscale.languages.verus.post2exe import Untranslatable, translate
from veriscale.languages.verus.post2exe.checker import build_checker, checker_for_source
from veriscale.languages.verus.post2exe.crosscheck import crosscheck, example_cases, mutated_outputs
from veriscale.languages.verus.spec import SpecProgram
from veriscale.runtime.limits import Limits

FAST = Limits(fuel=300_000, seconds=120.0, max_depth=100_000)  # the Python side: fuel decides, not the clock

pytestmark = pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")

DATA = data_path("vericontest")
INPLACE = FIXTURES_DIR / "vericontest_inplace" / "leetcode"

SPEC = """
use vstd::prelude::*;
fn main() {}
verus! {
pub struct Solution;
impl Solution {
    pub open spec fn tri(n: int) -> int
        decreases n,
    {
        if n <= 0 { 0 } else { n + Self::tri(n - 1) }
    }

    pub fn f(a: Vec<i64>, d: i64) -> (r: (i64, i64))
        requires
            a.len() <= 50,
            d != 0,
        ensures
            r.0 == a.len() as int / d as int,
            r.1 == a.len() as int % d as int,
            forall|i: int, j: int| 0 <= i < j < a.len() ==> a[i] <= a[j],
            (exists|k: int| 0 <= k < a.len() && a[k] == r.0) || a.len() == 0 || r.0 < 0 || true,
            Self::tri(a.len() as int) >= 0,
    {
    }
}
}
"""


def _compiled(spec: str, names: list[str]):
    ck = checker_for_source(spec, names, None)
    assert ck is not None and ck.ok, ck and ck.error
    return ck


def test_euclidean_division_tuple_fields_and_transitive_bounds_agree() -> None:
    ck = _compiled(SPEC, ["a", "d"])
    assert ck.checker.complete, ck.checker.untranslated
    prog = SpecProgram.from_source(SPEC)
    cases = [
        (([1, 2, 3, 4, 5, 6, 7], -2), (-3, 1)),  # Euclidean: 7 = (-2)(-3) + 1
        (([1, 2, 3, 4, 5, 6, 7], -2), (-4, -1)),  # truncation/floor answers are wrong
        (([1, 2, 3], 2), (1, 1)),
        (([3, 2, 1], 2), (1, 1)),  # not sorted: the forall over i < j fails
        (([], 5), (0, 0)),
    ]
    got = ck.check([({"a": a, "d": d}, list(r)) for (a, d), r in cases])
    want = [True, False, True, False, True]
    for ((a, d), r), (req, ens), w in zip(cases, got, want):
        py = prog.ensures_verdict({"a": tuple(a), "d": d}, r)
        assert req.is_true
        assert ens is not None and not ens.is_unknown and ens.truth == py.truth, (a, d, r, ens, py)
        assert ens.is_true == w


def test_i128_overflow_and_unspecified_values_are_unknown_never_decided() -> None:
    spec = SPEC.replace(
        "Self::tri(a.len() as int) >= 0",
        "(d as int) * (d as int) * (d as int) * (d as int) * 1_000_000_000_000_000_000_000 > 0 || a[100] == 0",
    )
    ck = _compiled(spec, ["a", "d"])
    ((_req, ens),) = ck.check([({"a": [1], "d": 9_000_000_000}, [0, 1])])
    assert ens is not None and ens.is_unknown and "i128" in ens.reason
    # a false clause still decides although another is unknown
    ((_req, ens),) = ck.check([({"a": [1], "d": 9_000_000_000}, [5, 1])])
    assert ens is not None and ens.is_false


def test_three_valued_connectives_match_the_python_evaluator() -> None:
    spec = SPEC.replace("Self::tri(a.len() as int) >= 0", "a[10] == 1 || a.len() < 5")
    ck = _compiled(spec, ["a", "d"])
    prog = SpecProgram.from_source(spec)
    for a, want in (([1, 2], "TRUE"), ([1, 2, 3, 4, 5, 6], "UNKNOWN")):
        r = (len(a) // 3, len(a) % 3)
        ((_, ens),) = ck.check([({"a": a, "d": 3}, list(r))])
        py = prog.ensures_verdict({"a": tuple(a), "d": 3}, r)
        assert ens is not None and ens.truth.value == want == py.truth.value


def test_receivers_are_not_translated() -> None:
    spec = (INPLACE / "lc1603" / "spec.rs").read_text()
    with pytest.raises(Untranslatable):
        translate(spec)


def test_standalone_source_is_one_file_for_plain_rustc() -> None:
    ck = translate(SPEC, ["a", "d"], standalone=True)
    assert "mod __vs" in ck.source and "extern crate" not in ck.source
    assert "fn main()" in ck.source


@pytest.mark.parametrize("pid", ["lc283", "lc26", "lc88", "lc73", "lc1089"])
def test_inplace_fixtures_compiled_and_python_agree(pid: str) -> None:
    p = read_problem(INPLACE / pid)
    te = VeriContestEngine(post2exe=False, spec_limits=FAST).for_task(p)
    cases = example_cases(p, te)
    assert cases
    rows = crosscheck(p, te, cases + mutated_outputs(cases))
    assert rows
    assert not [r for r in rows if r.disagree]
    decided = [r for r in rows if r.both_decided]
    assert any(r.compiled.is_false for r in decided)  # the mutated outputs are rejected by both
    assert all(r.compiled.is_true for r in rows[: 2 * len(cases)] if r.kind == "ensures")


SAMPLE = ["lc7", "lc42", "lc53", "lc300", "lc704", "lc1004", "lc2032", "cf1006C", "cf1077C", "cf1506A"]


@pytest.mark.parametrize("pid", SAMPLE)
def test_benchmark_problems_compiled_and_python_agree(pid: str) -> None:
    fam = "codeforces" if pid.startswith("cf") else "leetcode"
    d = DATA / fam / pid
    if not d.is_dir():
        pytest.skip(f"VeriContest data not found at {d}")
    p = read_problem(d)
    te = VeriContestEngine(post2exe=False, spec_limits=FAST).for_task(p)
    ck = build_checker(p)
    assert ck is not None and ck.ok
    cases = example_cases(p, te)
    rows = crosscheck(p, te, cases + mutated_outputs(cases), checker=ck)
    assert rows
    bad = [(r.case, r.kind, r.python, r.compiled) for r in rows if r.disagree]
    assert not bad


def test_engine_uses_the_compiled_checker_in_batches_and_python_on_unknown() -> None:
    p = read_problem(INPLACE / "lc88")
    on = VeriContestEngine(post2exe=True, spec_limits=FAST).for_task(p)
    off = VeriContestEngine(post2exe=False, spec_limits=FAST).for_task(p)
    assert on.compiled() is not None and off.compiled() is None
    cases = example_cases(p, off)
    cases = cases + mutated_outputs(cases)
    inputs = [i for i, _ in cases]
    assert [v.truth for v in on.preconditions(inputs)] == [v.truth for v in off.preconditions(inputs)]
    got_on = on.postconditions(cases)
    got_off = off.postconditions(cases)
    assert [v.truth for v in got_on] == [v.truth for v in got_off]
    assert any(v.is_false for v in got_on) and any(v.is_true for v in got_on)


CLOSURES = """
verus! {
impl Solution {
    pub fn g(a: Vec<i32>) -> (r: i64)
        requires a.len() <= 20,
        ensures
            forall|i: int| 0 <= i && i + 1 < a.len() ==> a[i] <= a[i + 1],
            r == a@.fold_left(0int, |acc: int, x: i32| acc + x as int),
            a@.filter(|x: i32| x > 2).len() <= a.len(),
            Seq::new(a.len(), |k: int| a[k] as int * 2).map_values(|y: int| y / 2) == a@.map_values(|x: i32| x as int),
            a@.to_multiset() == a@.reverse().to_multiset(),
    { }
}
}
"""


def test_offset_bounds_closures_and_multisets_compile_and_agree() -> None:
    ck = _compiled(CLOSURES, ["a"])
    assert ck.checker.complete, ck.checker.untranslated
    prog = SpecProgram.from_source(CLOSURES)
    cases = [([1, 2, 2, 7], 12), ([1, 2, 2, 7], 11), ([3, 1], 4), ([], 0)]
    got = ck.check([({"a": a}, r) for a, r in cases])
    for (a, r), (_, ens) in zip(cases, got):
        py = prog.ensures_verdict({"a": tuple(a)}, r)
        assert ens is not None and not ens.is_unknown and ens.truth == py.truth, (a, r, ens, py)
    assert [e.is_true for _, e in got] == [True, False, False, True]  # type: ignore[union-attr]
