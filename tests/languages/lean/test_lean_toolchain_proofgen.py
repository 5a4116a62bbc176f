"""ProofGen: the forbidden-construct policy (tokens, not substrings) and the evaluation verdicts."""

from __future__ import annotations

from pathlib import Path

import pytest

from lean_toolchain_fixtures import tiny_task
from veriscale.languages.lean.toolchain.engine import LeanToolchainEngine
from veriscale.languages.lean.toolchain.forbidden import ForbiddenPolicy, lean_tokens
from veriscale.languages.lean.toolchain.project import ENV_PROJECT
from veriscale.languages.lean.toolchain.proofgen import NOT_EVALUATED, evaluate_proof, render_proof_file
from veriscale.languages.lean.toolchain.render import TaskSource
from veriscale.languages.lean.toolchain.runner import RunResult

POLICY = ForbiddenPolicy()


def words(text: str) -> list[str]:
    return [v.word for v in POLICY.violations(text)]


@pytest.mark.parametrize(
    "text",
    [
        "-- we do not use sorry here\n  simp",
        "/- sorry, admit, axiom: /- nested sorry -/ still a comment -/ omega",
        "/-- doc comment mentioning sorry -/\ntheorem t : True := trivial",
        'have h : "sorry" ≠ "" := by decide\n  simp',
        "have : 'a' ≠ '\\'' := by decide",
        'exact (r#"a "sorry" string"# ).length',
        "have sorry_free := 1\n  exact h_sorry'",  # identifiers that merely contain the word
        "simp [List.partial_sums, axiomatic]",
        "rw [Nat.admits]",
    ],
)
def test_allowed(text: str) -> None:
    assert words(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("  sorry", "sorry"),
        ("  simp\n  all_goals sorry", "sorry"),
        ("intro x\n  admit", "admit"),
        ("axiom cheat : False", "axiom"),
        ("exact «sorry»", "sorry"),
        ("exact _root_.sorryAx _ false", "sorryAx"),
        ("exact (by exact sorry : 1 = 1)", "sorry"),
        ("@[implemented_by foo] def bar := 1", "implemented_by"),
        ('@[extern "c_fn"] opaque f : Nat', "extern"),
        ("unsafe def g := 1", "unsafe"),
        ("partial def loop (n : Nat) : Nat := loop n", "partial"),
        ("simp\n#exit", "#exit"),
        ("run_tac Lean.Elab.admitGoal", "run_tac"),
        ('exact s!"{sorry}"', "sorry"),  # an interpolation hole is code
        ("set_option debug.skipKernelTC true in\ntheorem t : False := by simp", "debug.skipKernelTC"),
        ('macro "trivial\'" : tactic => `(tactic| omega)', "macro"),
    ],
)
def test_forbidden(text: str, word: str) -> None:
    assert word in words(text)


def test_violation_positions_and_custom_policy() -> None:
    found = POLICY.violations("-- sorry\n  simp\n  sorry")
    assert [(v.word, v.line, v.col) for v in found] == [("sorry", 3, 2)]
    assert str(found[0]) == "forbidden `sorry` at line 3, column 2"
    verina_like = ForbiddenPolicy(("sorry", "admit", "axiom"))
    assert verina_like.check("native_decide", "partial def f := 1") == []
    assert [v.word for v in verina_like.check("admit", "-- admit")] == ["admit"]


def test_tokenizer_keeps_strings_and_comments_out() -> None:
    toks = [t.text for t in lean_tokens('theorem x : "a -- b" = s!"{y}" := by\n  /- c -/ rfl -- d')]
    assert toks == ["theorem", "x", "s!", "y", "by", "rfl"]


# ---------------------------------------------------------------- evaluation


@pytest.fixture
def task(tmp_path: Path):  # type: ignore[no-untyped-def]
    return tiny_task(tmp_path)


def test_without_lean_never_a_pass(task, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv(ENV_PROJECT, raising=False)
    res = evaluate_proof(task, "  simp [clampAdd_postcond]\n  omega")
    assert res.status == "not_evaluated" and not res.passed
    assert res.reason.startswith(NOT_EVALUATED) and ENV_PROJECT in res.reason
    # a forbidden token fails without any Lean at all
    cheat = evaluate_proof(task, "  -- no sorry here\n  sorry")
    assert cheat.status == "fail" and cheat.violations[0].line == 2


def _fake(output_for: object) -> LeanToolchainEngine:
    def run(text: str, timeout: float) -> RunResult:
        return output_for(text)  # type: ignore[operator]

    return LeanToolchainEngine(runner=run)


def _axioms_output(text: str, axioms: str) -> str:
    nonce = text.split("<<vs:")[1].split(":")[0]
    return f"<<vs:{nonce}:0:begin>>\n'clampAdd_postcond_satisfied' depends on axioms: [{axioms}]\n<<vs:{nonce}:0:end>>\n"


def test_pass_and_axioms(task) -> None:  # type: ignore[no-untyped-def]
    eng = _fake(lambda text: RunResult(_axioms_output(text, "propext, Classical.choice, Quot.sound"), 0))
    res = evaluate_proof(task, "  -- sorry-free: omega does it\n  omega", engine=eng)
    assert res.passed and res.axioms == ("propext", "Classical.choice", "Quot.sound")


def test_compile_errors_and_timeouts_fail(task) -> None:  # type: ignore[no-untyped-def]
    eng = _fake(lambda text: RunResult("/tmp/p.lean:40:2: error: unsolved goals\n⊢ False\n", 1))
    res = evaluate_proof(task, "  simp", engine=eng)
    assert res.status == "fail" and res.reason == "does not compile: unsolved goals"
    slow = _fake(lambda text: RunResult("", None, timed_out=True))
    assert evaluate_proof(task, "  omega", engine=slow, timeout=3).reason == "Lean timed out after 3 s"


def test_sorry_warning_in_the_proof_region_fails(task) -> None:  # type: ignore[no-untyped-def]
    src = TaskSource.from_task(task)
    f = render_proof_file(src, "  exact foo")
    ((_, _lo, hi),) = f.regions
    code_line = f.text.split("\n").index("    clampTo s") + 1

    def output(line: int) -> object:
        return lambda text: RunResult(
            f"/tmp/p.lean:{line}:8: warning: declaration uses 'sorry'\n" + _axioms_output(text, "sorryAx"), 0
        )

    # e.g. a tactic macro defined elsewhere that expands to sorry: the warning points into the proof
    res = evaluate_proof(task, "  exact foo", engine=_fake(output(hi - 1)))
    assert res.status == "fail" and res.reason == "the proof uses sorry"
    # a warning located in the task's own code is not the proof's fault, but sorryAx still is
    res = evaluate_proof(task, "  exact foo", engine=_fake(output(code_line)))
    assert res.status == "fail" and res.reason == "the theorem depends on sorryAx"
    # ... unless the task's definitions themselves contain sorry (nothing the proof can do)
    res = evaluate_proof(
        task, "  exact foo", engine=_fake(output(code_line)), overrides={"code": "  clampTo (a + b + sorry)"}
    )
    assert res.passed and "sorryAx" in res.axioms
