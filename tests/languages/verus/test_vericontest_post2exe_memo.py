"""The compiled checkers' typed spec fn memo (``post2exe/memo_rs.py``) keeps every verdict exact."""

from __future__ import annotations

import shutil

import pytest

from veriscale.languages.verus.post2exe import translate
from veriscale.languages.verus.post2exe.checker import checker_for_source
from veriscale.languages.verus.spec import SpecProgram

pytestmark = pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")

# `psum(a@.update(i, 0), n)`: every instance of the quantifier builds a new sequence of the same length and
# drops it after the instance, so the allocator hands the next one the same address; identity keys are
# exact only because the memo keeps its sequences alive. `tw(x, 2)` with x beyond i64: 2^70 and 2^70 + 2^64
# agree in their low 64 bits, so they must not share a typed key (they take the generic key).
SPEC = """
use vstd::prelude::*;
fn main() {}
verus! {
pub open spec fn psum(s: Seq<int>, n: int) -> int
    decreases n,
{
    if n <= 0 { 0 } else { psum(s, n - 1) + s[n - 1] }
}

pub open spec fn tw(x: int, n: int) -> int
    decreases n,
{
    if n <= 0 { x } else { tw(x, n - 1) + 1 }
}

pub fn f(a: Vec<i64>, d: i64) -> (r: i64)
    ensures
        forall|i: int| 0 <= i < a.len() ==> psum(a@.map_values(|v: i64| v as int).update(i, 0), a.len() as int)
            == r - a[i],
        tw(1_180_591_620_717_411_303_424 * d, 2) != tw(1_199_038_364_791_120_855_040 * d, 2),
        tw(1_180_591_620_717_411_303_424 * d, 3) == tw(1_180_591_620_717_411_303_424 * d, 2) + 1,
{
}
}
"""


def test_memoised_calls_use_the_typed_key() -> None:
    src = translate(SPEC, ["a", "d"]).source
    assert "tkey(" in src and "memo_put_i(" in src and "mk_key(" not in src  # (integer results: typed_fns)


@pytest.mark.parametrize(
    ("a", "d", "r"),
    [
        ([1, 2, 3, 4, 5, 6], 1, 21),
        ([1, 2, 3, 4, 5, 6], 1, 20),  # wrong total: FALSE
        ([7, -3, 0, 11, 2, 2, 9], -1, 28),
        ([5] * 9, 2, 45),
        ([], 3, 0),
    ],
)
def test_typed_memo_agrees_with_the_python_evaluator(a: list[int], d: int, r: int) -> None:
    ck = checker_for_source(SPEC, ["a", "d"], None)
    assert ck is not None and ck.ok, ck and ck.error
    assert ck.checker.complete, ck.checker.untranslated
    ((req, ens),) = ck.check([({"a": a, "d": d}, r)])
    ck.close()
    py = SpecProgram.from_source(SPEC).ensures_verdict({"a": tuple(a), "d": d}, r)
    assert req.is_true
    assert ens is not None and not ens.is_unknown and not py.is_unknown, (ens, py)
    assert ens.truth == py.truth, (ens, py)
    assert ens.is_true == (r == sum(a)), ens
