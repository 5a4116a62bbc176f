"""A long right operand of ``&&``/``||``/``==>`` is emitted once (a named closure) and keeps Kleene's logic."""

from __future__ import annotations

import shutil

import pytest

from veriscale.languages.verus.post2exe import translate
from veriscale.languages.verus.post2exe.checker import checker_for_source
from veriscale.languages.verus.spec import SpecProgram

pytestmark = pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")

# the left operands read a[5] (UNKNOWN when a is shorter); the right ones are long quantifiers
LONG = "(forall|i: int, j: int| 0 <= i < j < a.len() ==> a[i] + a[j] * 2 - a[i] * 3 + a[j] != 1_000_000_007)"
SPEC = f"""
use vstd::prelude::*;
fn main() {{}}
verus! {{
pub fn f(a: Vec<i64>, d: i64) -> (r: i64)
    ensures
        a[5] == 0 || (r == d && {LONG}),
        a[5] == 0 ==> (r <= d && {LONG}),
        a[5] != 0 && (r >= d && {LONG}) || r == d,
{{
}}
}}
"""


def test_a_long_right_operand_is_emitted_once() -> None:
    src = translate(SPEC, ["a", "d"]).source
    assert src.count("let fb") >= 3
    # each clause's quantifier is written out once (three clauses); inside it the short comparison right of
    # `==>` is written twice (short operands still are); written out twice at each level it was 24
    assert src.count("1000000007i128") == 6


@pytest.mark.parametrize(
    ("a", "d", "r"),
    [
        ([1, 2, 3], 4, 4),  # a[5] unknown: the right operands decide (TRUE, TRUE, TRUE)
        (
            [1, 2, 3],
            4,
            5,
        ),  # a[5] unknown: first clause's right operand false: UNKNOWN or FALSE as Python says
        ([1, 2, 3], 4, 3),
        ([1, 2, 3, 4, 5, 0, 7], 4, 9),  # a[5] == 0: the first two clauses hold whatever the right operand
        ([1, 2, 3, 4, 5, 6, 7], 4, 4),
        ([1, 2, 3, 4, 5, 6, 7], 4, 9),
    ],
)
def test_kleene_logic_agrees_with_the_python_evaluator(a: list[int], d: int, r: int) -> None:
    ck = checker_for_source(SPEC, ["a", "d"], None)
    assert ck is not None and ck.ok, ck and ck.error
    ((_req, ens),) = ck.check([({"a": a, "d": d}, r)])
    ck.close()
    py = SpecProgram.from_source(SPEC).ensures_verdict({"a": tuple(a), "d": d}, r)
    assert ens is not None
    assert ens.is_unknown == py.is_unknown, (ens, py)
    if not py.is_unknown:
        assert ens.truth == py.truth, (ens, py)
