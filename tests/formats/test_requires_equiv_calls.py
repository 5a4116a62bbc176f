"""Spec fn calls in ``requires`` for the z3 equivalence check (``requires_calls``): inlined, or
uninterpreted when recursive; same tokens count only with the same called definitions."""

from __future__ import annotations

import pytest

from shared_data import require
from veriscale.formats.vericontest.requires_equiv import requires_equivalence

pytest.importorskip("z3", reason="z3-solver is not installed")

_SRC = """use vstd::prelude::*;
verus! {
pub struct Solution;
impl Solution {
    pub open spec fn total(s: Seq<i32>, n: nat) -> int
        decreases n,
    {
        if n == 0 || n > s.len() { 0 } else { total(s, (n - 1) as nat) + s[n - 1] as int }
    }

    pub open spec fn capped(s: Seq<i32>, n: nat) -> bool {
        Self::total(s, n) <= CAP
    }

    pub fn f(v: Vec<i32>) -> (r: i32)
        requires
            1 <= v.len() <= 20,
            REQ,
        ensures r == 0,
    { 0 }
}
}
"""


def _src(req: str, cap: str = "1000") -> str:
    return _SRC.replace("REQ", req).replace("CAP", cap)


def test_an_inlined_call_against_its_recursive_callee_is_equivalent() -> None:
    given = _src("forall|n: nat| n <= v.len() ==> Self::capped(v@, n)")
    answer = _src("forall|n: nat| n <= v.len() ==> Self::total(v@, n) <= 1000")
    r = requires_equivalence(given, answer, "f", test=False)
    assert (r.kind, r.how) == ("equivalent", "z3")


def test_a_weaker_bound_through_the_uninterpreted_callee_is_not_equivalent() -> None:
    given = _src("forall|n: nat| n <= v.len() ==> Self::capped(v@, n)")
    answer = _src("forall|n: nat| n <= v.len() ==> Self::total(v@, n) <= 2000")
    r = requires_equivalence(given, answer, "f")
    assert r.kind != "equivalent"  # stronger/weaker needs a confirmed witness; never "equivalent"


def test_same_tokens_with_a_redefined_callee_are_not_equivalent_by_tokens() -> None:
    req = "forall|n: nat| n <= v.len() ==> Self::capped(v@, n)"
    r = requires_equivalence(_src(req), _src(req, cap="2000"), "f")
    assert r.kind != "equivalent"
    r = requires_equivalence(_src(req), _src(req), "f")
    assert (r.kind, r.how) == ("equivalent", "tokens")


def test_lc518_verified_requires_is_equivalent_to_the_spec() -> None:
    d = require("vericontest", "leetcode", "lc518")
    given, answer = (d / "spec.rs").read_text(), (d / "verified.rs").read_text()
    r = requires_equivalence(given, answer, "change", test=False)
    assert (r.kind, r.how) == ("equivalent", "z3")
