"""``proof { … }`` statements inside spec fn bodies (issue 21: cf1840C, cf2188B ``verified.rs``).

Verus lets a spec fn body hold ghost ``proof`` blocks (assertions, lemma calls) before its value; they
never contribute to the value, so the reader skips them. A body that still does not parse keeps its
signature: a call reports the parse error, not a wrong argument count.
"""

from __future__ import annotations

from shared_data import require
from veriscale.languages.verus.spec import SpecProgram
from veriscale.runtime.limits import Limits

_LIM = Limits(fuel=100_000, seconds=60, max_depth=10_000)

_SPEC = """
verus! {
pub open spec fn count_from(a: Seq<i64>, q: i64, pos: int) -> int
    decreases a.len() - pos
        when 0 <= pos <= a.len()
{
    let n = a.len() as int;
    if pos >= n {
        0
    } else if a[pos] > q {
        proof { assert(pos < n); }
        count_from(a, q, pos + 1)
    } else {
        proof {
            assert(pos < n);
            lemma_nothing(q, a, pos);
        }
        let rest = count_from(a, q, pos + 1);
        proof { assert(rest >= 0); };
        1 + rest
    }
}
pub proof fn lemma_nothing(q: i64, a: Seq<i64>, pos: int) { }
fn f(a: Vec<i64>, q: i64) -> (r: i64)
    ensures r == count_from(a@, q, 0),
{ }
}
"""


def _truth(prog: SpecProgram, inputs: dict[str, object], out: object) -> str:
    return prog.ensures_verdict(inputs, out, lim=_LIM).truth.value


def test_proof_blocks_are_skipped() -> None:
    prog = SpecProgram.from_source(_SPEC, "f")
    assert prog.fn_errors == {}
    assert _truth(prog, {"a": (1, 5, 2, 7), "q": 3}, 2) == "TRUE"
    assert _truth(prog, {"a": (1, 5, 2, 7), "q": 3}, 3) == "FALSE"


def test_unparsable_body_reports_its_parse_error() -> None:
    broken = _SPEC.replace("proof { assert(pos < n); }", "proof assert(pos < n);")
    prog = SpecProgram.from_source(broken, "f")
    assert "count_from" in prog.fn_errors
    got = prog.ensures_verdict({"a": (1, 5), "q": 3}, 1, lim=_LIM)
    assert got.truth.value == "UNKNOWN"
    assert "does not parse" in got.reason and "arguments" not in got.reason


def test_real_verified_files_load() -> None:
    """The two issue-21 ``verified.rs`` files: every spec fn parses, with its parameters."""
    for rel, fn, arity in (
        ("codeforces/cf1840C", "scan_total", 4),
        ("codeforces/cf2188B", "spec_sum_ones", 1),
    ):
        src = require("vericontest", rel, "verified.rs").read_text()
        prog = SpecProgram.from_source(src)
        assert prog.fn_errors == {}, rel
        assert len(prog.ctx.fns[fn].params) == arity
