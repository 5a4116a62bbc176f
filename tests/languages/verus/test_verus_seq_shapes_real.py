"""Sequence and scalar binders decided on real VeriContest specs (shared data), both ways.

Each capability is checked on a problem that needed it: the reference answer must be TRUE, and a wrong
answer FALSE — a FALSE that is only reachable when the binder's domain is enumerated completely
(an ``exists`` without witness, or a ``forall`` whose only counterexamples lie inside the derived domain).
"""

from __future__ import annotations

import pytest

from shared_data import require
from veriscale.languages.verus.spec import SpecProgram


def _prog(rel: str, target: str) -> SpecProgram:
    return SpecProgram.from_source(require("vericontest", rel, "spec.rs").read_text(), target)


def _truth(prog: SpecProgram, inputs: dict[str, object], output: object) -> str:
    return prog.ensures_verdict(inputs, output).truth.value


CASES = [
    # strictly increasing index paths with pinned first/last elements (exists over Seq<int>)
    ("leetcode/lc55", "can_jump", {"nums": (2, 3, 1, 1, 4)}, True, [False]),
    ("leetcode/lc55", "can_jump", {"nums": (3, 2, 1, 0, 4)}, False, [True]),
    # cut points 0 = c0 < c1 < ... < ck = n: exists (min reached) and forall (nothing smaller)
    ("leetcode/lc410", "split_array", {"nums": (7, 2, 5, 10, 8), "k": 2}, 18, [17, 19]),
    (
        "leetcode/lc1105",
        "min_height_shelves",
        {"books": ((1, 1), (2, 3), (2, 3), (1, 1), (1, 1), (1, 1), (1, 2)), "shelf_width": 4},
        6,
        [5, 7],
    ),
    # two strictly increasing index sequences (pairwise-sorted form)
    ("leetcode/lc1035", "max_uncrossed_lines", {"nums1": (1, 4, 2), "nums2": (1, 2, 4)}, 2, [1, 3]),
    # increasing order stated in two pieces split at a later binder (0 <= k < peak, peak <= k < len - 1)
    ("leetcode/lc1671", "minimum_mountain_removals", {"nums": (2, 1, 1, 5, 6, 2, 3, 1)}, 3, [2, 4]),
    # sorted permutation stated with a counting spec fn: the sorted source is the only candidate
    ("leetcode/lc1502", "can_make_arithmetic_progression", {"arr": (3, 5, 1)}, True, [False]),
    ("leetcode/lc1502", "can_make_arithmetic_progression", {"arr": (1, 2, 4)}, False, [True]),
    (
        "leetcode/lc1637",
        "max_width_of_vertical_area",
        {"points": ((8, 7), (9, 9), (7, 4), (9, 7))},
        1,
        [0, 2],
    ),
    # sorted permutations (counting spec fn) and an inner forall over rearrangements; stand-ins in memo
    # keys no longer collide (this case ran out of time before)
    (
        "leetcode/lc1589",
        "max_sum_range_query",
        {"nums": (1, 2, 3, 4, 5, 10), "requests": ((0, 2), (1, 3), (1, 1))},
        47,
        [46, 48],
    ),
    # positive parts with a pinned sum: integer compositions
    ("leetcode/lc343", "integer_break", {"n": 10}, 36, [35, 37]),
    ("leetcode/lc1808", "max_nice_divisors", {"prime_factors": 5}, 6, [5, 7]),
    # scalar binders bounded through a chain of other binders (0 <= l < peak < r < len)
    ("leetcode/lc845", "longest_mountain", {"arr": (2, 1, 4, 7, 3, 2, 5)}, 5, [4, 6]),
    ("leetcode/lc845", "longest_mountain", {"arr": (2, 2, 2)}, 0, [1]),
    # a divisor binder (b % k == 0) ranges over [-|b|, |b|]
    ("codeforces/cf2137C", "maximum_even_sum", {"a": 1, "b": 4}, 4, [2, 6, -1]),
    # a scaled binder (k * q < result, k known only at run time) is bounded when the factor is positive
    ("leetcode/lc3718", "missing_multiple", {"nums": (8, 2, 3, 4, 6), "k": 2}, 10, [8, 12, 14]),
    # an exponent binder under a recognised power fn: a^k <= n bounds k by log_a(n)
    ("codeforces/cf1542B", "n_in_generated_set", {"n": 24, "a": 3, "b": 5}, True, [False]),
    ("codeforces/cf1542B", "n_in_generated_set", {"n": 10, "a": 3, "b": 6}, False, [True]),
    # the consequent is a boolean helper around one comparison: its negation bounds the binder
    ("codeforces/cf581A", "hipster_sock_days", {"a": 3, "b": 1}, (1, 1), [(0, 1)]),
]


@pytest.mark.parametrize(
    ("rel", "target", "inputs", "good", "bad"), CASES, ids=[c[0].split("/")[1] for c in CASES]
)
def test_reference_accepted_and_wrong_outputs_rejected(
    rel: str, target: str, inputs: dict[str, object], good: object, bad: list[object]
) -> None:
    prog = _prog(rel, target)
    assert prog.requires_verdict(inputs).truth.value == "TRUE"
    assert _truth(prog, inputs, good) == "TRUE"
    for wrong in bad:
        assert _truth(prog, inputs, wrong) == "FALSE", wrong


def _spec(helpers: str, body: str) -> SpecProgram:
    src = f"""use vstd::prelude::*;
verus! {{
pub struct Solution;
{helpers}
impl Solution {{
pub fn f(n: i32) -> (r: bool)
{body}
{{ }}
}}
}}"""
    return SpecProgram.from_source(src)


def test_order_on_part_of_the_indices_is_not_taken_for_a_monotone_sequence() -> None:
    # s[0] is outside the ordered range: (5, 0, 1) is a witness although s[0] > s[1]
    prog = _spec(
        "",
        """ensures r == exists |s: Seq<int>| s.len() == 3 && s[0] == 5 && s[1] == 0
            && (forall |i: int| 0 <= i < s.len() ==> 0 <= #[trigger] s[i] < n)
            && (forall |i: int| 1 <= i < s.len() - 1 ==> s[i] < s[i + 1]),""",
    )
    assert prog.ensures_verdict({"n": 10}, True).truth.value == "TRUE"
    assert prog.ensures_verdict({"n": 10}, False).truth.value == "FALSE"


_NOT_A_COUNTER = """
pub open spec fn at_most(s: Seq<int>, v: int) -> int
    decreases s.len()
{
    if s.len() == 0 { 0 } else { (if s.last() <= v { 1int } else { 0int }) + at_most(s.drop_last(), v) }
}
"""


def test_a_helper_that_does_not_count_occurrences_is_no_permutation() -> None:
    # equal "at most v" counts for every v do make a permutation, but the helper is not recognised as a
    # counter: the sorted source is then not the only candidate tried, and the verdict must still be right
    prog = _spec(
        _NOT_A_COUNTER,
        """ensures r == exists |s: Seq<int>| s.len() == 2
            && (forall |i: int| 0 <= i < s.len() ==> 0 <= #[trigger] s[i] < 4)
            && (forall |k: int, l: int| 0 <= k < l < s.len() ==> s[k] <= s[l])
            && (forall |v: int| at_most(s, v) == at_most(seq![n as int, 1], v)),""",
    )
    assert prog.ensures_verdict({"n": 3}, True).truth.value != "FALSE"
    assert prog.ensures_verdict({"n": 3}, False).truth.value != "TRUE"


def test_sum_pin_without_positive_elements_is_not_a_composition() -> None:
    # zero parts are allowed: (0, 2) and (2, 0) sum to 2 as well; the composition domain must not be used
    prog = _spec(
        """
pub open spec fn total(s: Seq<int>) -> int decreases s.len() {
    if s.len() == 0 { 0 } else { s[0] + total(s.subrange(1, s.len() as int)) }
}
""",
        """ensures r == exists |s: Seq<int>| s.len() == 2 && s[0] == 0
            && (forall |i: int| 0 <= i < s.len() ==> 0 <= #[trigger] s[i] <= n)
            && total(s) == n,""",
    )
    assert prog.ensures_verdict({"n": 2}, True).truth.value == "TRUE"
    assert prog.ensures_verdict({"n": 2}, False).truth.value == "FALSE"
