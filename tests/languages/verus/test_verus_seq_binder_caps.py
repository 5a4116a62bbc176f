"""Binders bounded indirectly: a Seq binder's guard ``0 <= j < n`` with ``s.len() == n``, pairwise
distinct elements in a finite range (pigeonhole), the negated consequent of a ``forall``. Each must
decide, both ways."""

from __future__ import annotations

from veriscale.languages.verus.spec import SpecProgram


def _spec(helpers: str, sig: str, body: str) -> SpecProgram:
    src = f"""use vstd::prelude::*;
verus! {{
pub struct Solution;
{helpers}
impl Solution {{
{sig}
{body}
{{ }}
}}
}}"""
    return SpecProgram.from_source(src)


_PATHS = """
pub open spec fn is_choice(p: Seq<int>, n: int) -> bool {
    p.len() == n && (forall |i: int| 0 <= i < n ==> 0 <= #[trigger] p[i] < 3)
}
pub open spec fn weight(v: Seq<i32>, p: Seq<int>, k: int) -> int
    decreases k
{
    if k <= 0 { 0 } else { v[k - 1] as int * p[k - 1] + weight(v, p, k - 1) }
}
"""


def test_element_bounds_through_a_guard_on_the_stated_length() -> None:
    # max over p in {0,1,2}^n of sum v[i] * p[i]: the guard says `i < n`, the length is n
    prog = _spec(
        _PATHS,
        "pub fn f(v: Vec<i32>) -> (r: i32)",
        """ensures
            forall |p: Seq<int>| is_choice(p, v.len() as int) ==> weight(v@, p, v.len() as int) <= r,
            exists |p: Seq<int>| is_choice(p, v.len() as int) && weight(v@, p, v.len() as int) == r,""",
    )
    v = (3, -1, 2)
    assert prog.ensures_verdict({"v": v}, 10).truth.value == "TRUE"  # 2*3 + 0 + 2*2
    assert prog.ensures_verdict({"v": v}, 9).truth.value == "FALSE"
    assert prog.ensures_verdict({"v": v}, 11).truth.value == "FALSE"


_TEAMS = """
pub open spec fn is_team(t: Seq<int>, n: int) -> bool {
    &&& forall |k: int| 0 <= k < t.len() ==> 0 <= #[trigger] t[k] < n
    &&& forall |k: int, l: int| 0 <= k < l < t.len() ==> t[k] != t[l]
}
pub open spec fn total(s: Seq<i32>, t: Seq<int>) -> int
    decreases t.len()
{
    if t.len() == 0 { 0 } else { s[t.last()] as int + total(s, t.drop_last()) }
}
"""


def test_distinct_elements_in_a_range_cap_the_length() -> None:
    # the best team takes every positive score once; without the pigeonhole cap the length is unbounded
    prog = _spec(
        _TEAMS,
        "pub fn f(s: Vec<i32>) -> (r: i32)",
        """ensures
            forall |t: Seq<int>| is_team(t, s.len() as int) ==> total(s@, t) <= r,
            exists |t: Seq<int>| is_team(t, s.len() as int) && total(s@, t) == r,""",
    )
    s = (4, -2, 5, 1)
    assert prog.ensures_verdict({"s": s}, 10).truth.value == "TRUE"
    assert prog.ensures_verdict({"s": s}, 9).truth.value == "FALSE"
    assert prog.ensures_verdict({"s": s}, 14).truth.value == "FALSE"


def test_negated_consequent_bounds_a_one_sided_binder() -> None:
    # forall m > 0 with m % n == 0 ==> r <= m: only m < r can be a counterexample
    prog = _spec(
        "",
        "pub fn f(n: i32) -> (r: i32)",
        """ensures
            r > 0, r % 2 == 0, r % (n as int) == 0,
            forall |m: int| m > 0 && m % 2 == 0 && m % (n as int) == 0 ==> r as int <= m,""",
    )
    assert prog.ensures_verdict({"n": 5}, 10).truth.value == "TRUE"
    assert prog.ensures_verdict({"n": 5}, 20).truth.value == "FALSE"
