"""Binders without a syntactic finite domain, decided exactly (real VeriContest specs, shared data).

Each strategy: the reference answer is TRUE and wrong answers FALSE — FALSE only reachable through the
complete domain (an ``exists`` with no witness, a ``forall`` whose counterexample lies in the derived
domain) —, and a near-miss spec that must not be recognised (its verdict stays right or UNKNOWN).
"""

from __future__ import annotations

import pytest

from shared_data import require
from veriscale.languages.verus.spec import SpecProgram, enum_domains, seq_sumcaps


def _prog(rel: str, target: str) -> SpecProgram:
    return SpecProgram.from_source(require("vericontest", rel, "spec.rs").read_text(), target)


CASES = [
    # seq_lengths: forall|sel| covering(sel) ==> sel.len() >= res: counterexamples are shorter than res;
    # seq_paths: res == -1 ==> forall|sel| !covering(sel): a walk from a left-covering tap to a
    # right-covering one (breadth-first search over the taps)
    ("leetcode/lc1326", "min_taps", {"n": 5, "ranges": (3, 4, 1, 1, 0, 0)}, 1, [-1, 2, 3]),
    ("leetcode/lc1326", "min_taps", {"n": 3, "ranges": (0, 0, 0, 0)}, -1, [1, 2]),
    ("leetcode/lc1326", "min_taps", {"n": 7, "ranges": (1, 2, 1, 0, 2, 1, 0, 1)}, 3, [-1, 2, 4]),
    # seq_paths with successors read off a stand-in: reward paths 0 -> 0 + rv[i] (rv[i] above the
    # current total) over 0..4000; the forall over candidate totals then tries the reachable ones only
    ("leetcode/lc3180", "max_total_reward", {"reward_values": (1, 1, 3, 3)}, 4, [3, 5, 7]),
    ("leetcode/lc3180", "max_total_reward", {"reward_values": (1, 6, 4, 3, 2)}, 11, [10, 12]),
    # seq_multisets: apply_ops counts the operations covering each index (an additive fold), so only
    # the multiset of operations matters: sorted sequences of pairs 0 <= a <= b < n
    ("leetcode/lc1526", "min_number_operations", {"target": (1, 2, 3, 2, 1)}, 3, [2, 4]),
    ("leetcode/lc1526", "min_number_operations", {"target": (3, 1, 1, 2)}, 4, [3, 5]),
    # seq_choices: every day is one of the exam's two days (valid_choice), so days ranges over 2^n
    ("codeforces/cf479C", "min_last_exam_day", {"exams": ((3, 1), (4, 2), (5, 2))}, 2, [1, 3, 4, 5]),
    ("codeforces/cf479C", "min_last_exam_day", {"exams": ((4, 3), (5, 2), (6, 1))}, 6, [1, 3, 5]),
    # enum_domains: SplitTree(i, j) enumerated through split_tree_valid's arms (Catalan many trees)
    ("leetcode/lc1039", "min_score_triangulation", {"values": (1, 2, 3)}, 6, [5, 7]),
    ("leetcode/lc1039", "min_score_triangulation", {"values": (3, 7, 4, 5)}, 144, [143, 145, 245]),
    ("leetcode/lc1039", "min_score_triangulation", {"values": (1, 3, 1, 4, 1, 5)}, 13, [12, 14]),
    # seq_sumcaps: a distribution with fewer candies has sum <= result - 1 (and elements >= 1);
    # the range-form sum pins the exists' witnesses to compositions of result
    ("leetcode/lc135", "candy", {"ratings": (1, 0, 2)}, 5, [4, 6]),
    ("leetcode/lc135", "candy", {"ratings": (1, 2, 2)}, 4, [3, 5]),
    ("leetcode/lc135", "candy", {"ratings": (1, 3, 4, 5, 2)}, 11, [10, 12]),
]


@pytest.mark.parametrize(
    ("rel", "target", "inputs", "good", "bad"), CASES, ids=[c[0].split("/")[1] for c in CASES]
)
def test_reference_accepted_and_wrong_outputs_rejected(
    rel: str, target: str, inputs: dict[str, object], good: object, bad: list[object]
) -> None:
    prog = _prog(rel, target)
    assert prog.requires_verdict(inputs).truth.value == "TRUE"
    got = prog.ensures_verdict(inputs, good)
    assert got.truth.value == "TRUE", got.reason
    for wrong in bad:
        v = prog.ensures_verdict(inputs, wrong)
        assert v.truth.value == "FALSE", (wrong, v.reason)


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


def _verdict(prog: SpecProgram, n: int, r: bool) -> str:
    return prog.ensures_verdict({"n": n}, r).truth.value


def test_path_search_decides_reachability_both_ways() -> None:
    # 0 -> 1 -> 2 by steps of one: a walk ending at n exists iff 0 <= n <= 2
    prog = _spec(
        "",
        """ensures r == exists |s: Seq<int>| s.len() >= 1
            && (forall |k: int| 0 <= k < s.len() ==> 0 <= #[trigger] s[k] < 3)
            && s[0] == 0 && s[s.len() - 1] == n
            && (forall |k: int| 0 <= k < s.len() - 1 ==> s[k + 1] == #[trigger] s[k] + 1),""",
    )
    assert _verdict(prog, 2, True) == "TRUE"
    assert _verdict(prog, 2, False) == "FALSE"
    assert _verdict(prog, 5, False) == "TRUE"
    assert _verdict(prog, 5, True) == "FALSE"


def test_a_pinned_length_or_a_position_dependent_step_is_no_path() -> None:
    # with s.len() == 2 the walk 0, 1, 2 does not count: cutting cycles or taking the shortest walk would
    # be wrong; the pinned length keeps the ordinary (complete) enumeration, which finds no witness
    pinned = _spec(
        "",
        """ensures r == exists |s: Seq<int>| s.len() >= 1 && s.len() == 2
            && (forall |k: int| 0 <= k < s.len() ==> 0 <= #[trigger] s[k] < 3)
            && s[0] == 0 && s[s.len() - 1] == 2
            && (forall |k: int| 0 <= k < s.len() - 1 ==> s[k + 1] == #[trigger] s[k] + 1),""",
    )
    assert _verdict(pinned, 0, False) == "TRUE"
    assert _verdict(pinned, 0, True) == "FALSE"
    # the step depends on the position k (0, 0+0, 0+1, ...): not a relation between neighbours
    stepped = _spec(
        "",
        """ensures r == exists |s: Seq<int>| s.len() >= 1
            && (forall |k: int| 0 <= k < s.len() ==> 0 <= #[trigger] s[k] < 3)
            && s[0] == 0 && s[s.len() - 1] == 1
            && (forall |k: int| 0 <= k < s.len() - 1 ==> s[k + 1] == #[trigger] s[k] + k),""",
    )
    assert _verdict(stepped, 0, False) != "TRUE"  # (0, 0, 1) is a witness
    assert _verdict(stepped, 0, True) != "FALSE"


def test_choices_must_cover_every_index() -> None:
    # s[0] is not among the choices (the guard starts at 1): (7, 0) is a witness
    prog = _spec(
        "",
        """ensures r == exists |s: Seq<int>| s.len() == 2 && s[0] == 7
            && (forall |i: int| 1 <= i < s.len() ==> s[i] == 0 || s[i] == 1),""",
    )
    assert _verdict(prog, 0, True) != "FALSE"
    assert _verdict(prog, 0, False) != "TRUE"
    # a disjunct that is no equality is not a choice
    prog2 = _spec(
        "",
        """ensures r == exists |s: Seq<int>| s.len() == 1 && s[0] == 9
            && (forall |i: int| 0 <= i < s.len() ==> s[i] == 0 || s[i] > 5),""",
    )
    assert _verdict(prog2, 0, True) != "FALSE"


_SKIP_SUM = """
pub open spec fn every_other(s: Seq<int>, start: int, end: int) -> int
    decreases end - start
{
    if start >= end { 0 } else { s[start] + every_other(s, start + 2, end) }
}
"""


def test_a_sum_that_skips_elements_gives_no_cap() -> None:
    # every_other(s, 0, 2) is s[0]: r = 2 has the counterexample (1, 1000); read as a sum it would be TRUE
    prog = _spec(
        _SKIP_SUM,
        """ensures r == (forall |s: Seq<int>| s.len() == 2
            && (forall |i: int| 0 <= i < s.len() ==> 1 <= #[trigger] s[i] <= 1000)
            ==> n <= every_other(s, 0, s.len() as int)),""",
    )
    assert _verdict(prog, 2, True) != "TRUE"
    assert _verdict(prog, 1, False) != "TRUE"


def test_bounded_count_matches_enumeration() -> None:
    for n, lo, hi, cap in [(3, 1, 10, 6), (2, -1, 3, 2), (4, 0, 2, 5), (1, 5, 9, 4), (0, 1, 3, 0)]:
        seqs = list(seq_sumcaps.bounded_sequences(n, lo, hi, cap))
        brute = [s for s in _product(range(lo, hi + 1), n) if sum(s) <= cap]
        assert seqs == brute
        assert seq_sumcaps.bounded_count(n, lo, hi, cap, 10**9) == len(brute)


def _product(vals: range, n: int) -> list[tuple[int, ...]]:
    import itertools

    return list(itertools.product(vals, repeat=n))


_LIST = """
pub enum L { Nil, Cons(int, Box<L>) }
pub open spec fn ok(l: L, n: int) -> bool
    decreases l
{
    match l { L::Nil => true, L::Cons(v, rest) => 0 <= v < n && ok(*rest, n) }
}
pub open spec fn len(l: L) -> int
    decreases l
{
    match l { L::Nil => 0, L::Cons(_, rest) => 1 + len(*rest) }
}
"""


def test_an_enum_guard_that_does_not_shrink_stays_unknown() -> None:
    # ok(rest, n) has the same arguments as ok(l, n): lists of any length satisfy it, the generator
    # reaches its depth cap and the binder stays undecided (never FALSE for the true r)
    prog = _spec(_LIST, "ensures r == exists |l: L| ok(l, n as int) && len(l) == 3,")
    assert _verdict(prog, 2, True) != "FALSE"
    assert _verdict(prog, 2, False) != "TRUE"
    assert enum_domains.MAX_DEPTH >= 50


def test_successors_used_other_than_in_equalities_are_scanned_or_left_alone() -> None:
    # s[k] < s[k + 1] orders the successor: no stand-in gives its candidates, and 0..1000 is too large
    # to scan, so the path search steps aside (the verdict is right or UNKNOWN, never wrong)
    prog = _spec(
        "",
        """ensures r == exists |s: Seq<int>| s.len() >= 1
            && (forall |k: int| 0 <= k < s.len() ==> 0 <= #[trigger] s[k] <= 1000)
            && s[0] == 0 && s[s.len() - 1] == n
            && (forall |k: int| 0 <= k < s.len() - 1 ==> #[trigger] s[k] < s[k + 1]),""",
    )
    assert _verdict(prog, 999, False) != "TRUE"
    assert _verdict(prog, -3, True) != "TRUE"
    # on a small range the scan decides it both ways
    small = _spec(
        "",
        """ensures r == exists |s: Seq<int>| s.len() >= 1
            && (forall |k: int| 0 <= k < s.len() ==> 0 <= #[trigger] s[k] <= 9)
            && s[0] == 0 && s[s.len() - 1] == n
            && (forall |k: int| 0 <= k < s.len() - 1 ==> #[trigger] s[k] < s[k + 1]),""",
    )
    assert _verdict(small, 7, True) == "TRUE"
    assert _verdict(small, 7, False) == "FALSE"
    assert _verdict(small, 12, False) == "TRUE"


_WEIGHTED = """
pub open spec fn weighted(s: Seq<int>) -> int
    decreases s.len()
{
    if s.len() == 0 { 0 } else { 10 * weighted(s.drop_last()) + s.last() }
}
pub open spec fn rebuilt(s: Seq<int>) -> Seq<int>
    decreases s.len()
{
    if s.len() == 0 { seq![] } else { rebuilt(s.drop_last()) + seq![s.last()] }
}
pub open spec fn shifted(s: Seq<int>, k: int) -> int
    decreases s.len()
{
    if s.len() == 0 { 0 } else { shifted(s.drop_last(), k + 1) + s.last() * k }
}
"""


def test_order_dependent_folds_are_not_order_free() -> None:
    # weighted((3, 0)) == 30 has no sorted witness: taking the body for order-free would answer FALSE
    prog = _spec(
        _WEIGHTED,
        """ensures r == exists |s: Seq<int>| s.len() == 2
            && (forall |j: int| 0 <= j < s.len() ==> 0 <= #[trigger] s[j] <= 3) && weighted(s) == 30,""",
    )
    assert _verdict(prog, 0, True) == "TRUE"
    assert _verdict(prog, 0, False) == "FALSE"
    # a fold whose other argument changes on the way weighs the elements by position
    prog2 = _spec(
        _WEIGHTED,
        """ensures r == exists |s: Seq<int>| s.len() == 2
            && (forall |j: int| 0 <= j < s.len() ==> 0 <= #[trigger] s[j] <= 3) && shifted(s, 0) == 3,""",
    )
    assert _verdict(prog2, 0, True) == "TRUE"  # (3, 0): 3 * 1 + 0 * 0 (no sorted witness)
    assert _verdict(prog2, 0, False) == "FALSE"
    # a "fold" with + on sequences is concatenation: rebuilt(s) is s itself, in order
    prog3 = _spec(
        _WEIGHTED,
        """ensures r == exists |s: Seq<int>| s.len() == 2
            && (forall |j: int| 0 <= j < s.len() ==> 0 <= #[trigger] s[j] <= 3) && rebuilt(s) =~= seq![3, 0],""",
    )
    assert _verdict(prog3, 0, True) == "TRUE"
    assert _verdict(prog3, 0, False) == "FALSE"


def test_a_choice_equal_to_an_outer_stand_in_is_not_dropped() -> None:
    # s[0] may be d itself: for every d, (d) is a witness. An outer unbounded d is evaluated through an
    # equality-only stand-in, which is no integer; dropping it from the choices would lose the witness
    prog = _spec(
        "",
        """ensures r == (forall |d: int| exists |s: Seq<int>| s.len() == 1
            && (forall |i: int| 0 <= i < s.len() ==> s[i] == d || s[i] == 5) && s[0] == d),""",
    )
    assert _verdict(prog, 0, True) != "FALSE"
    assert _verdict(prog, 0, False) != "TRUE"
