"""Prefix guards (``spec/prune.py``): a conjunct that mentions only the first binders of a quantifier
stops the enumeration of the later ones, and binder-free calls of the body are witness candidates for
sequence binders. Checked against brute force on own specs (both quantifiers, both verdicts) and on
lc3111 (a sorted reordering of a computed sequence as the witness)."""

from __future__ import annotations

import itertools

from shared_data import require
from veriscale.languages.verus.spec import SpecProgram
from veriscale.runtime.limits import Limits

_LIM = Limits(fuel=300_000, seconds=120, max_depth=100_000)

_SPEC = """
verus! {
fn f_forall(v: Vec<i32>, t: i32) -> (r: bool)
    ensures r == (forall|i: int, j: int| 0 <= i < v.len() && v[i] % 2 == 0 && 0 <= j < v.len() && i < j
        ==> v[i] + v[j] != t),
{ }
fn f_exists(v: Vec<i32>, t: i32) -> (r: bool)
    ensures r == (exists|i: int, j: int| 0 <= i < v.len() && v[i] > t && 0 <= j < v.len() && v[j] == v[i] - t),
{ }
}
"""


def _brute_forall(v: tuple[int, ...], t: int) -> bool:
    n = len(v)
    return all(v[i] + v[j] != t for i in range(n) for j in range(n) if v[i] % 2 == 0 and i < j)


def _brute_exists(v: tuple[int, ...], t: int) -> bool:
    n = len(v)
    return any(v[i] > t and v[j] == v[i] - t for i in range(n) for j in range(n))


def test_guards_agree_with_brute_force() -> None:
    fa = SpecProgram.from_source(_SPEC, "f_forall")
    ex = SpecProgram.from_source(_SPEC, "f_exists")
    seen = {True: 0, False: 0}
    for v in itertools.product((-2, 1, 2, 5), repeat=3):
        for t in (-1, 3, 4, 7):
            for prog, brute in ((fa, _brute_forall), (ex, _brute_exists)):
                want = brute(v, t)
                seen[want] += 1
                assert prog.ensures_verdict({"v": v, "t": t}, want, lim=_LIM).truth.value == "TRUE"
                assert prog.ensures_verdict({"v": v, "t": t}, not want, lim=_LIM).truth.value == "FALSE"
    assert seen[True] > 50 and seen[False] > 50


def test_lc3111_witness_from_a_computed_sequence() -> None:
    """``exists|s: Seq<i32>, r: Seq<int>| sorted(s) && is_reorder_of(r, s, x_seq(points@)) && …``: the
    sorted x column is a candidate for s, its index map into x_seq one for r; unsorted candidates of
    s never reach the n^n reorderings. A wrong count has no witness, but s ranges over every i32
    sequence, so that stays UNKNOWN (never TRUE)."""
    src = require("vericontest", "leetcode/lc3111", "spec.rs").read_text()
    prog = SpecProgram.from_source(src, "min_rectangles_to_cover_points")
    pts = ((2, 1), (1, 0), (1, 4), (1, 8), (3, 5), (4, 6))
    assert prog.ensures_verdict({"points": pts, "w": 1}, 2, lim=_LIM).truth.value == "TRUE"
    diag = tuple((k, k) for k in range(7))
    assert prog.ensures_verdict({"points": diag, "w": 2}, 3, lim=_LIM).truth.value == "TRUE"
    assert prog.ensures_verdict({"points": pts, "w": 1}, 3, lim=_LIM).truth.value == "UNKNOWN"
