"""The fingerprint of a Verus specification (``formats.vericontest.spec_identity``)."""

from __future__ import annotations

from shared_data import require
from veriscale.formats.vericontest.dataset import read_problem
from veriscale.formats.vericontest.spec_identity import spec_fingerprint

SPEC = """use vstd::prelude::*;
verus! {
pub open spec fn total(s: Seq<i32>) -> int decreases s.len() {
    if s.len() == 0 { 0 } else { total(s.drop_last()) + s.last() }
}
pub open spec fn bounded(s: Seq<i32>) -> bool { total(s) <= 100 }
pub open spec fn unused(x: int) -> int { x + 1 }
fn sum(v: Vec<i32>) -> (r: i64)
    requires bounded(v@),
    ensures r == total(v@),
{ 0 }
}
"""


def _fp(src: str) -> str | None:
    return spec_fingerprint(src, "sum")


def _edit(old: str, new: str) -> str | None:
    """The fingerprint of SPEC with one edit (which must apply)."""
    assert old in SPEC
    return _fp(SPEC.replace(old, new))


def test_layout_comments_proofs_and_unused_spec_fns_do_not_count() -> None:
    base = _fp(SPEC)
    assert base is not None
    assert _edit("requires bounded(v@),", "requires\n  // why\n  bounded( v@ ),") == base
    assert _edit("x + 1", "x + 2") == base  # a spec fn no clause uses
    lemma = "proof fn lemma_total(s: Seq<i32>) ensures total(s) == total(s) {}\n"
    assert _edit("fn sum(", lemma + "fn sum(") == base
    assert _edit(",\n{ 0 }", ",\n{ let mut t = 0i64; t }") == base  # the exec body


def test_what_the_evaluators_read_counts() -> None:
    base = _fp(SPEC)
    assert _edit("ensures r == total(v@)", "ensures r >= total(v@)") != base
    assert _edit("requires bounded(v@),", "") != base
    assert _edit("<= 100", "<= 99") != base  # a spec fn the requires uses
    assert _edit("+ s.last()", "+ s.first()") != base  # used transitively (bounded -> total)
    assert _edit("-> (r: i64)", "-> (r: i32)") != base
    assert _edit("decreases s.len()", "") == base  # not read by the evaluators


def test_unreadable_or_targetless_sources_have_none() -> None:
    assert _fp("fn sum(v: Vec<i32>) -> i64 { (") is None
    assert spec_fingerprint(SPEC, "other") is None


def test_real_problems_spec_and_verified() -> None:
    # lc66's verified.rs adds uses, an exec helper, lemmas and a spec fn only its proof uses
    p = read_problem(require("vericontest", "leetcode", "lc66"))
    assert spec_fingerprint(p.spec, p.signature.name) == spec_fingerprint(p.verified, p.signature.name)
    # lc258's verified.rs puts a proof block inside a spec fn the ensures uses: not the same source
    p = read_problem(require("vericontest", "leetcode", "lc258"))
    assert spec_fingerprint(p.spec, p.signature.name) != spec_fingerprint(p.verified, p.signature.name)
