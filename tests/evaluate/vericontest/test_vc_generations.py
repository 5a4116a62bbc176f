"""The VeriContest generations reader and the spec/code preservation check (no rustc needed)."""

from __future__ import annotations

import json

from veriscale.evaluate.vericontest.generations import is_vericontest_line, parse_vc_generations
from veriscale.formats.vericontest.preserved import cheating, modification, spec_modification


def test_reader_reports_bad_lines_and_keeps_the_rest() -> None:
    lines = [
        json.dumps({"task_id": "lc1", "task": "nl2code", "program": "fn main() {}"}),
        json.dumps({"task_id": "lc1", "task": "nl2code", "program": "x"}),  # repeated sample 0
        json.dumps({"task_id": "lc1", "task": "proofgen", "program": "x"}),  # unknown task
        json.dumps({"task_id": "lc1", "task": "nl2spec", "sample": 1}),  # no program
        json.dumps(
            {
                "task_id": "lc1",
                "task": "nl2spec",
                "sample": 2,
                "program": None,
                "extraction_error": "empty",
                "extraction_message": "empty answer",
                "fn_name": None,
                "requires": None,
            }
        ),
        json.dumps({"task_id": "lc1", "task": "end2end", "colour": 1, "program": ""}),  # unknown field
        "{not json",
    ]
    gs = parse_vc_generations(lines, "g.jsonl")
    assert [(g.task, g.sample) for g in gs.generations] == [("nl2code", 0), ("nl2spec", 2)]
    assert gs.generations[1].extraction_error == "empty"
    msgs = [str(e) for e in gs.errors]
    assert [m.split(":")[1] for m in msgs] == ["2", "3", "4", "6", "7"]
    assert "field 'task'" in msgs[1] and "field 'program'" in msgs[2] and "field 'colour'" in msgs[3]
    assert is_vericontest_line({"task": "spec2code"}) and not is_vericontest_line({"kind": "code"})


GIVEN = """use vstd::prelude::*;
fn main() {}
verus! {
pub struct Solution;
impl Solution {
    pub open spec fn double(x: int) -> int { 2 * x }
    pub fn twice(n: u32) -> (r: u64)
        requires n < 100,
        ensures r as int == Self::double(n as int),
    {
        let mut r: u64 = n as u64;
        r = r + n as u64;
        r
    }
}
}
"""


def test_proof_additions_keep_the_spec_and_code() -> None:
    proved = GIVEN.replace(
        "let mut r: u64 = n as u64;",
        "let mut r: u64 = n as u64;\n        proof { assert(r == n); }\n        assert(r < 200);",
    ).replace("impl Solution {", "impl Solution {\n    proof fn lemma(x: int) ensures x + x == 2 * x {}")
    assert modification(GIVEN, proved, "twice") is None
    assert (
        modification(GIVEN, GIVEN.replace("n < 100", "n < 101"), "twice")
        == "the `requires` clause of `twice` changed"
    )
    assert modification(GIVEN, GIVEN.replace("2 * x", "x + x"), "twice") == "spec fn `double` changed"
    assert (
        modification(GIVEN, GIVEN.replace("r + n as u64", "n as u64 + r"), "twice")
        == "the executable code changed"
    )
    assert (
        modification(GIVEN, GIVEN.replace("pub fn twice", "pub fn thrice"), "twice")
        == "function `twice` is missing"
    )


def test_spec_kept_ignores_the_code_and_a_termination_measure() -> None:
    other_code = GIVEN.replace("r = r + n as u64;", "r = 2 * r;")
    assert spec_modification(GIVEN, other_code, "twice") is None
    assert modification(GIVEN, other_code, "twice") == "the executable code changed"
    measured = GIVEN.replace("-> int { 2 * x }", "-> int decreases x { 2 * x }")
    assert spec_modification(GIVEN, measured, "twice") is None
    assert (
        spec_modification(GIVEN, GIVEN.replace("r as int ==", "r as int >="), "twice")
        == "the `ensures` clause of `twice` changed"
    )
    assert spec_modification(GIVEN, GIVEN.replace("2 * x", "x * 2"), "twice") == "spec fn `double` changed"


def test_cheating_constructs_are_found_once_each() -> None:
    src = GIVEN.replace("r = r + n as u64;", "assume(r < 5); admit(); assume(r < 6); r = r + n as u64;")
    src = src.replace("pub fn twice", "#[verifier::external_body]\n    pub fn twice")
    assert cheating(src) == ["external_body", "assume(…)", "admit(…)"]
    assert cheating(GIVEN) == []


def test_every_trusting_construct_is_refused_but_not_the_termination_lint() -> None:
    """The attribute names of Verus's own ``--no-cheating`` checks, the older ``#[verifier(x)]``
    spelling, and newer Verus's ``#[verus::trusted]``; ``exec_allows_no_decreases_clause`` (used by
    59 of the benchmark's own proofs, accepted by ``--no-cheating``) is not a cheat."""
    at = "pub fn twice"
    cases = {
        "#[verifier::assume_termination]": "assume_termination",
        "#[verifier(external_body)]": "external_body",
        "#[verifier::external_fn_specification]": "external_fn_specification",
        "#[verus::trusted]": "verus::trusted",
    }
    for attr, name in cases.items():
        assert cheating(GIVEN.replace(at, f"{attr}\n    {at}")) == [name], attr
    assert cheating(GIVEN.replace(at, f"#[verifier::exec_allows_no_decreases_clause]\n    {at}")) == []
