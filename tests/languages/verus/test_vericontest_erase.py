"""Verus erasure: golden tests on small snippets, and compilation of a real problem's erased files."""

from __future__ import annotations

import pytest

from shared_data import require
from veriscale.languages.verus.erase import EraseError, erase


def norm(text: str) -> str:
    return "\n".join(" ".join(ln.split()) for ln in text.splitlines() if ln.strip())


SPEC_AND_PROOF = """
use vstd::prelude::*;
use std::collections::HashMap;
verus! {
pub open spec fn sum(s: Seq<i32>, n: int) -> int
    decreases n,
{
    if n <= 0 { 0 } else { sum(s, n - 1) + s[n - 1] }
}

proof fn lemma_sum(s: Seq<i32>) ensures sum(s, 0) == 0 { }

spec const LIMIT: int = 10;

pub struct Solution;

impl Solution {
    #[verifier::exec_allows_no_decreases_clause]
    pub fn total(v: Vec<i32>) -> (r: i64)
        requires
            v.len() <= 10,
            forall|i: int| 0 <= i < v.len() ==> -5 <= #[trigger] v[i] <= 5,
        ensures
            r == sum(v@, v.len() as int),
            r == if v.len() == 0 { 0 } else { r },
    {
        let mut acc: i64 = 0;
        let mut i: usize = 0;
        let ghost old_len = v.len();
        while i < v.len()
            invariant
                0 <= i <= v.len(),
                acc == sum(v@, i as int),
            decreases v.len() - i,
        {
            proof { lemma_sum(v@); }
            assert(acc == sum(v@, i as int));
            acc = acc + v[i] as i64;
            i = i + 1;
        }
        assert(i == v.len()) by { };
        acc
    }
}
fn main() {}
}
"""

SPEC_AND_PROOF_ERASED = """
use std::collections::HashMap;
pub struct Solution;
impl Solution {
    pub fn total(v: Vec<i32>) -> i64
    {
        let mut acc: i64 = 0;
        let mut i: usize = 0;
        while i < v.len()
        {
            acc = acc + v[i] as i64;
            i = i + 1;
        }
        acc
    }
}
fn main() {}
"""


def test_erase_spec_proof_and_clauses() -> None:
    assert norm(erase(SPEC_AND_PROOF)) == norm(SPEC_AND_PROOF_ERASED)


GHOSTS = """
verus! {
fn f(x: u32) -> (out: u32)
    ensures out >= x,
{
    let g: Ghost<int> = Ghost(x as int);
    let tracked t = 0;
    let mut best_j: Ghost<int> = Ghost(3);
    if x > 3 {
        best_j = Ghost(4);
    }
    assert forall|k: int| 0 <= k < 3 implies k < 4 by {
        assert(k < 4);
    };
    assert(x >= 0) by (nonlinear_arith)
        requires x >= 0,
    {
    }
    assert_seqs_equal!(seq![1int], seq![1int]);
    #[verifier::truncate]
    let y = (x as u64) as u32;
    for k in 0..3
        invariant y == x,
    {
        reveal(f);
    }
    loop
        invariant true,
        decreases 0int,
    {
        break;
    }
    y
}
}
"""

GHOSTS_ERASED = """
fn f(x: u32) -> u32
{
    if x > 3 {
    }
    let y = (x as u64) as u32;
    for k in 0..3
    {
    }
    loop
    {
        break;
    }
    y
}
"""


def test_erase_ghost_bindings_asserts_and_loops() -> None:
    assert norm(erase(GHOSTS)) == norm(GHOSTS_ERASED)


def test_erase_body_after_clause_with_blocks() -> None:
    src = """verus! {
fn g(a: i32, b: i32) -> (r: i32)
    requires a < 100 && b < 100,
    ensures r == if a > b { a } else { b }, forall|i: int| 0 <= i < 3 ==> { i < 5 },
{
    if a > b { a } else { b }
}
}"""
    assert norm(erase(src)) == norm("fn g(a: i32, b: i32) -> i32\n{\n if a > b { a } else { b }\n}")


def test_erase_drops_ghost_only_types() -> None:
    src = """verus! {
pub enum Tree { Leaf(int), Node(int, int) }
pub struct Keep { pub v: Vec<i32> }
spec fn size(t: Tree) -> int { match t { Tree::Leaf(_) => 1, Tree::Node(_, _) => 2 } }
fn make() -> (k: Keep) ensures k.v.len() == 0 { Keep { v: Vec::new() } }
}"""
    out = norm(erase(src))
    assert "enum Tree" not in out and "spec fn" not in out
    assert "pub struct Keep" in out and "fn make() -> Keep" in out


def test_erase_keeps_plain_rust() -> None:
    src = 'fn main() {\n    let s = "requires { ensures";\n    assert!(s.len() > 0);\n}\n'
    assert erase(src) == src


def test_erase_rejects_untokenizable() -> None:
    with pytest.raises(EraseError):
        erase('fn f() { let s = "unterminated; }')


def test_erase_verifier_attributes_anywhere_and_broadcast_in_body() -> None:
    src = """verus! {
#[verifier::spinoff_prover]
impl Solution {
    #[verifier::exec_allows_no_decreases_clause]
    pub exec fn h(v: &Vec<i32>) -> (n: usize) {
        broadcast use vstd::std_specs::vec::axiom_spec_len;
        #[verifier::loop_isolation(false)]
        let n = v.len();
        n
    }
}
}"""
    want = "impl Solution {\n pub fn h(v: &Vec<i32>) -> usize {\n let n = v.len();\n n\n }\n}"
    assert norm(erase(src)) == norm(want)


@pytest.mark.parametrize("problem", ["leetcode/lc2486", "leetcode/lc1039", "codeforces/cf1006C"])
def test_erased_ground_truth_compiles(problem: str) -> None:
    from veriscale.formats.vericontest.dataset import read_problem
    from veriscale.languages.verus.compile import rustc_available
    from veriscale.languages.verus.reference import ProblemRunner

    if not rustc_available():
        pytest.skip("rustc is not installed")
    p = read_problem(require("vericontest", problem))
    for text in (p.code_spec, p.verified):
        comp = ProblemRunner(p, code=erase(text)).harness()
        assert comp.ok, comp.errors[:500]
