"""The formats' generation hooks: prompts and answer extraction with every failure category."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from shared_data import FIXTURES_DIR
from veriscale.formats.generation import CATEGORIES, fenced_blocks, pick_block
from veriscale.formats.registry import detect_format
from veriscale.formats.vericontest.generate import VERICONTEST_GENERATION as VC
from veriscale.formats.vericontest.generate import _answer_of
from veriscale.formats.verina.generate import VERINA_GENERATION as VE
from veriscale.formats.verina.generate import _answer_text, _ground_truth

TINY = Path(str(resources.files("veriscale") / "examples" / "tiny"))
VC_ROOT = FIXTURES_DIR / "vericontest_gen"


@pytest.fixture(scope="module")
def problem():
    fmt = detect_format(VC_ROOT)
    return fmt.read_task(VC_ROOT / "leetcode" / "lc9901")


@pytest.fixture(scope="module")
def tiny():
    fmt = detect_format(TINY)
    return {d.name: fmt.read_task(d) for d in fmt.task_dirs(TINY)}


def fence(text: str, lang: str = "rust") -> str:
    return f"Sure.\n```{lang}\n{text}\n```\n"


# ---- shared helpers


def test_pick_block_takes_the_last_block_of_the_language() -> None:
    ans = "```rust\nquoted input\n```\ntext\n```python\nx\n```\n```rust\nfn answer() {}\n```"
    assert pick_block(ans, ("rust",)) == ("fn answer() {}", None)
    assert fenced_blocks("````rust\na\n```\nb\n````")[0] == ("rust", "a\n```\nb", True)


@pytest.mark.parametrize(
    ("answer", "category"),
    [("", "empty"), ("  \n\t", "empty"), ("```rust\n\n```", "empty"), ("```rust\nfn f() {}", "unclosed_fence"),
     ("```rust\nfn f() {}\n```\n```rust\nfn g(", "unclosed_fence"), ("x" * 200_001, "huge_output")],
)  # fmt: skip
def test_pick_block_failures(answer: str, category: str) -> None:
    text, fail = pick_block(answer, ("rust",))
    assert text is None and fail is not None and fail.error == category and fail.message
    assert category in CATEGORIES


# ---- VeriContest


@pytest.mark.parametrize("kind", VC.kinds)
def test_vericontest_ground_truth_extracts(problem, kind: str) -> None:
    ex = VC.extract(problem, kind, fence(_answer_of(problem, kind)))
    assert ex.ok, ex.message
    assert ex.fields["fn_name"] == "larger_of_two"
    if kind != "nl2code":
        assert ex.fields["requires"] == "-1000 <= a <= 1000,\n            -1000 <= b <= 1000"
        assert ex.fields["ensures"].startswith("result >= a && result >= b,")
    if kind == "nl2spec":
        assert ex.fields["code"] is None
    else:
        assert "if a >= b { a } else { b }" in ex.fields["code"]
    line = VC.line(problem, kind, 2, "m", ex, {"round": 0})
    assert line["task"] == kind and line["sample"] == 2 and line["extraction_error"] is None


@pytest.mark.parametrize(
    ("kind", "answer", "category"),
    [
        ("nl2code", "I cannot do that.", "no_program"),
        ("nl2code", fence("impl Solution { pub fn bigger(a: i32, b: i32) -> i32 { a } }"), "wrong_name"),
        ("nl2code", fence("impl Solution { pub fn larger_of_two(a: i32, b: i32) -> i32 { \"a }"), "parse_error"),
        ("nl2code", fence("use std::process;\nimpl Solution { pub fn larger_of_two(a: i32, b: i32) -> i32 { a } }"),
         "forbidden_construct"),
        ("nl2code", fence("impl Solution { pub fn larger_of_two(a: i32, b: i32) -> i32 { unsafe { a } } }"),
         "forbidden_construct"),
        ("spec2code", fence("impl Solution { pub fn larger_of_two(a: i32, b: i32) -> (r: i32) ensures r >= a "
                            "{ assume(false); a } }"), "forbidden_construct"),
        ("spec_code2proof", fence("impl Solution { #[verifier::external_body] pub fn larger_of_two(a: i32, b: i32)"
                                  " -> (r: i32) { a } }"), "forbidden_construct"),
        ("end2end", "", "empty"),
    ],
)  # fmt: skip
def test_vericontest_bad_answers_get_a_category(problem, kind: str, answer: str, category: str) -> None:
    ex = VC.extract(problem, kind, answer)
    assert ex.error == category, ex.message
    line = VC.line(problem, kind, 0, "m", ex, {})
    assert line["extraction_error"] == category and line["extraction_message"] and line["program"] is None


def test_vericontest_prompts_follow_the_paper_structure(problem) -> None:
    for kind in VC.kinds:
        msgs = VC.prompt(problem, kind, [problem])  # the target is never its own example
        assert len(msgs) == 1 and msgs[0]["role"] == "user"
        text = msgs[0]["content"]
        for head in ("# Instruction", "# Input", "# Output", "# Requirements"):
            assert head in text
        assert "\n# Example\n" not in text
        given = {"spec2code": problem.spec, "spec_code2proof": problem.code_spec}.get(
            kind, problem.description
        )
        assert given.strip() in text
        assert VC.prompt_ident(kind).startswith(f"vericontest.{kind}@v1#")
    rep = VC.repair_prompt(problem, "nl2code", [], "prev answer", "example 1: expected 7, got 3")
    assert [m["role"] for m in rep] == ["user", "assistant", "user"]
    assert rep[1]["content"] == "prev answer" and "expected 7, got 3" in rep[2]["content"]


# ---- Verina


@pytest.mark.parametrize("kind", VE.kinds)
def test_verina_ground_truth_extracts(tiny, kind: str) -> None:
    for task in tiny.values():
        gt = _ground_truth(task, kind)
        ex = VE.extract(task, kind, _answer_text(kind, gt))
        if kind == "proofgen" and "sorry" in gt["proof"]:
            assert ex.error == "forbidden_construct"
            continue
        assert ex.ok, (task.id, ex.message)
        line = VE.line(task, kind, 0, "m", ex, {"round": 0})
        main = {"specgen": "postcond", "codegen": "code", "proofgen": "proof"}[kind]
        assert line[main].strip() == gt[main].strip()
        assert "extraction_error" not in line["meta"]


def test_verina_header_written_by_the_model_is_cut(tiny) -> None:
    task = tiny["tiny_1"]
    ans = "```lean\n-- !answer code\ndef sumList (xs : List Nat) (h_precond : sumList_precond (xs)) : Nat :=\n  xs.foldl (· + ·) 0\n```"
    ex = VE.extract(task, "codegen", ans)
    assert ex.ok and ex.fields["code"].strip() == "xs.foldl (· + ·) 0"


@pytest.mark.parametrize(
    ("answer", "category"),
    [
        ("I do not know.", "wrong_name"),
        ("```lean\n-- !answer implementation\n  0\n```", "wrong_name"),
        ("```lean\n-- !answer code_aux\n\n```", "wrong_name"),
        ("```lean\n-- !answer code\n  \n```", "empty"),
        ("```lean\n-- !answer code\n  sorry\n```", "forbidden_construct"),
        ("```lean\n-- !answer code\n  0", "unclosed_fence"),
        ("```lean\n-- !answer code\n  0\n-- !answer code\n  1\n```", "wrong_name"),
        ("", "empty"),
    ],
)
def test_verina_bad_answers_get_a_category(tiny, answer: str, category: str) -> None:
    task = tiny["tiny_1"]
    ex = VE.extract(task, "codegen", answer)
    assert ex.error == category, ex.message
    line = VE.line(task, "codegen", 0, "m", ex, {})
    assert line["meta"]["extraction_error"] == category and line["code"] == ""


def test_verina_prompt_has_fewshot_but_never_the_task_itself(tiny) -> None:
    t1, t2 = tiny["tiny_1"], tiny["tiny_2"]
    msgs = VE.prompt(t1, "specgen", [t1, t2])
    assert [m["role"] for m in msgs] == ["system", "user"]
    user = msgs[1]["content"]
    assert user.count("# Example") == 1 and t2.description.strip() in user
    assert user.rindex("# Task") > user.index("# Example 1")
    assert "-- !answer postcond" in msgs[0]["content"]
