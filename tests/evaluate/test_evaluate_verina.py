"""SpecGen/CodeGen/ProofGen scoring end to end on real Verina tasks with the native engine.

The ground-truth sections, submitted as generations, must score PASS; hand-written flawed candidates
must fail the metric their flaw breaks, with the right error category.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared_data import require
from veriscale.evaluate.generations import Generation, ground_truth_generation
from veriscale.evaluate.harness import EvalOptions, SuiteSpec, evaluate_generations
from veriscale.evaluate.scoring.aggregate import Score
from veriscale.evaluate.scoring.cases import decode_rows
from veriscale.evaluate.scoring.codegen import CodeOptions, evaluate_code
from veriscale.evaluate.scoring.errors import ErrorCategory
from veriscale.evaluate.scoring.proofgen import evaluate_proof_sample
from veriscale.evaluate.scoring.specgen import SPEC_METRICS, SpecOptions, evaluate_spec
from veriscale.formats.verina.dataset import read_task, write_task
from veriscale.languages.lean.engines import make_engine
from veriscale.languages.lean.toolchain.project import lean_status
from veriscale.runtime.engine import Verdict

GT_TASKS = ("verina_basic_1", "verina_basic_10", "verina_advanced_39", "verina_advanced_38", "verina_basic_2")


def _verina() -> Path:
    return require("verina")


def _task(tid: str):
    t = read_task(_verina() / tid)
    return t, decode_rows(t)


ENGINE = make_engine("native", seconds=2.0)


def test_ground_truth_scores_pass_on_verina() -> None:
    for tid in GT_TASKS:
        task, rows = _task(tid)
        gt = ground_truth_generation(task)
        spec = evaluate_spec(ENGINE, task, rows, gt)
        code = evaluate_code(ENGINE, task, rows, gt)
        for name, m in {**spec, **code}.items():
            assert m.score is Score.PASS and m.lower and m.upper, (tid, name, m.reason)
        assert code["code"].n_tests == len(task.tests) and code["code"].n_pass == len(task.tests)
        assert spec["precond_complete"].n_tests == len(task.reject_inputs)
        assert spec["postcond_sound"].n_tests == sum(len(t.unexpected or []) for t in task.tests)


def test_postcondition_that_drops_a_conjunct_is_unsound() -> None:
    task, rows = _task("verina_basic_1")
    weak = Generation(
        task.id, 0, ("spec",), precond="True", postcond="(((a < 0 ∧ b > 0) ∨ (a > 0 ∧ b < 0)) → result)"
    )
    m = evaluate_spec(ENGINE, task, rows, weak, SpecOptions(fail_fast=False))
    assert m["postcond_complete"].score is Score.PASS
    sound = m["postcond_sound"]
    assert sound.score is Score.FAIL and not sound.upper
    assert sound.error is ErrorCategory.POSTCOND_MISMATCH
    # it accepts the wrong output `true` exactly where the expected output is `false`
    n_false = sum(1 for t in task.tests if t.expected is False)
    assert sound.n_fail == n_false > 0 and sound.n_pass == sound.n_tests - n_false
    assert "accepts" in sound.reason
    assert m["precond_postcond"].score is Score.FAIL and m["precond_sound_complete"].score is Score.PASS


def test_true_precondition_is_incomplete_where_reject_inputs_exist() -> None:
    task, rows = _task("verina_basic_10")
    assert task.reject_inputs
    gt = ground_truth_generation(task, kinds=["spec"])
    lax = Generation(task.id, 1, ("spec",), precond="True", postcond=gt.postcond)
    m = evaluate_spec(ENGINE, task, rows, lax)
    assert m["precond_sound"].score is Score.PASS
    assert m["precond_complete"].score is Score.FAIL
    assert m["precond_complete"].error is ErrorCategory.PRECOND_MISMATCH
    assert m["precond_complete"].where == "reject 0"
    assert m["postcond_sound_complete"].score is Score.PASS and m["precond_postcond"].score is Score.FAIL


def test_wrong_implementation_is_incorrect_output() -> None:
    task, rows = _task("verina_advanced_39")
    wrong = Generation(task.id, 0, ("code",), code="lst.headD 0")
    m = evaluate_code(ENGINE, task, rows, wrong)["code"]
    assert m.score is Score.FAIL and m.error is ErrorCategory.INCORRECT_OUTPUT
    assert "got" in m.reason and "expected" in m.reason
    # fail fast: the metric stops at its first failure, the rest are counted as skipped
    assert m.n_fail == 1 and m.n_pass + m.n_fail + m.n_skipped == m.n_tests == len(task.tests)
    full = evaluate_code(ENGINE, task, rows, wrong, CodeOptions(fail_fast=False))["code"]
    assert full.score is Score.FAIL and full.n_skipped == 0 and full.n_fail >= 1


def test_non_terminating_implementation_fails_by_timeout() -> None:
    task, rows = _task("verina_basic_1")
    spin = Generation(
        task.id,
        0,
        ("code",),
        code="Id.run do\n  let mut x : Nat := 0\n  while true do\n    x := x + 1\n  return a * b < 0",
    )
    engine = make_engine("native", seconds=0.3)
    m = evaluate_code(engine, task, rows, spin, CodeOptions(hard_timeout=0.8))["code"]
    assert m.score is Score.FAIL and m.error is ErrorCategory.TIMEOUT and not m.upper
    recursive = Generation(
        task.id, 1, ("code",), code_aux="partial def spin (n : Nat) : Nat := spin (n + 1)", code="spin 0 = 0"
    )
    m2 = evaluate_code(engine, task, rows, recursive, CodeOptions(hard_timeout=0.8))["code"]
    assert m2.score is Score.FAIL and m2.error is ErrorCategory.TIMEOUT


def test_timeout_is_unknown_when_the_ground_truth_times_out_too(tmp_path: Path) -> None:
    # A suite whose reference implementation itself never finishes: a timed-out candidate is then
    # no evidence of a wrong candidate (our evaluator may just be slower than compiled Lean).
    spin = "Id.run do\n    let mut x : Nat := 0\n    while true do\n      x := x + 1\n    return a * b < 0\n"

    def slow_reference(task) -> None:
        assert "  a * b < 0\n" in task.lean_text
        task.lean_text = task.lean_text.replace("  a * b < 0\n", "  " + spin, 1)

    suite = _copy_task(tmp_path, "verina_basic_1", slow_reference)
    task = read_task(suite / "verina_basic_1")
    rows = decode_rows(task)
    engine = make_engine("native", seconds=0.2)
    m = evaluate_code(engine, task, rows, ground_truth_generation(task), CodeOptions(hard_timeout=0.5))[
        "code"
    ]
    assert m.score is Score.UNKNOWN and m.error is ErrorCategory.TIMEOUT and not m.lower
    assert "ground-truth implementation also exceeds" in m.reason
    assert m.n_unknown == m.n_tests == len(task.tests)  # two timeouts, then the rest is not run
    # a correct, fast candidate still passes on that suite
    fast = Generation(task.id, 1, ("code",), code="a * b < 0")
    assert evaluate_code(engine, task, rows, fast)["code"].score is Score.PASS


def test_garbage_text_is_a_parse_error_never_a_pass() -> None:
    task, rows = _task("verina_basic_1")  # no reject inputs: the no-tests metric needs the compile check
    junk = Generation(task.id, 0, ("spec", "code"), precond=") garbage (", postcond="∧ ∧ ]", code="let in )")
    spec = evaluate_spec(ENGINE, task, rows, junk)
    for name in SPEC_METRICS:
        m = spec[name]
        assert m.score is Score.UNKNOWN and not m.lower and not m.upper, name
        assert m.error is ErrorCategory.PARSE_ERROR, name
    assert spec["precond_complete"].reason.startswith("compile check:")
    code = evaluate_code(ENGINE, task, rows, junk)["code"]
    assert code.score is Score.UNKNOWN and code.error is ErrorCategory.PARSE_ERROR and not code.lower
    # the Lean engine's compile errors are definitive: the same verdicts FAIL (as in Verina)
    strict = evaluate_spec(ENGINE, task, rows, junk, SpecOptions(compile_errors_fail=True))
    assert all(strict[n].score is Score.FAIL for n in SPEC_METRICS)


def test_proof_without_lean_is_not_evaluated() -> None:
    project, _ = lean_status()
    if project is not None:
        pytest.skip("a Lean toolchain is configured here; this checks the no-Lean report")
    task, _rows = _task("verina_basic_1")
    proof = Generation(task.id, 0, ("proof",), proof="unfold hasOppositeSign_postcond\nsimp")
    m = evaluate_proof_sample(task, proof, ENGINE)["proof"]
    assert m.score is Score.NOT_EVALUATED and not m.evaluated and not m.lower and not m.upper
    assert m.error is ErrorCategory.NOT_EVALUATED and "not evaluated (requires Lean)" in m.reason
    # a banned construct is rejected without running Lean
    cheat = Generation(task.id, 1, ("proof",), proof="sorry")
    bad = evaluate_proof_sample(task, cheat, ENGINE)["proof"]
    assert bad.score is Score.FAIL and bad.error is ErrorCategory.PROOF_REJECTED


def _copy_task(tmp: Path, tid: str, edit) -> Path:
    task = read_task(_verina() / tid)
    edit(task)
    suite = tmp / "suite"
    write_task(task, suite / tid)
    return suite


def test_suite_without_unexpected_outputs_reports_untested_soundness(tmp_path: Path) -> None:
    def drop_unexpected(task) -> None:
        for t in task.tests:
            t.unexpected = None

    suite = _copy_task(tmp_path, "verina_basic_1", drop_unexpected)
    task = read_task(suite / "verina_basic_1")
    rows = decode_rows(task)
    assert not rows.has_unexpected
    gt = ground_truth_generation(task, kinds=["spec"])
    qs = evaluate_spec(ENGINE, task, rows, gt)["postcond_sound"]
    assert qs.score is Score.PASS and qs.n_tests == 0 and "no unexpected outputs" in qs.note
    broken = Generation(task.id, 1, ("spec",), precond="True", postcond="result ∧∧")
    qs2 = evaluate_spec(ENGINE, task, rows, broken)["postcond_sound"]
    assert qs2.score is Score.UNKNOWN and qs2.error is ErrorCategory.PARSE_ERROR


def test_a_task_without_test_rows_is_not_evaluated_never_passed(tmp_path: Path) -> None:
    def no_rows(task) -> None:
        task.tests = []
        task.reject_inputs = []

    suite = _copy_task(tmp_path, "verina_basic_1", no_rows)
    task = read_task(suite / "verina_basic_1")
    gens = [ground_truth_generation(task, sample=0, kinds=["spec", "code"])]
    gens.append(Generation(task.id, 1, ("code",), code="garbage ((", meta={"extraction_error": "empty"}))
    run = evaluate_generations(gens, [SuiteSpec("s", suite)], EvalOptions(workers=1))
    gt, bad = run.results
    assert {m: r.score for m, r in gt.metrics.items()} == dict.fromkeys(gt.metrics, Score.NOT_EVALUATED)
    assert "no test cases" in gt.metrics["code"].reason
    assert bad.metrics["code"].score is Score.FAIL  # a failure needs no test


def test_undecodable_rows_are_excluded_not_blamed(tmp_path: Path) -> None:
    def corrupt(task) -> None:
        task.tests[0].input = {"lst": "[1, 2"}  # not a literal
        task.tests[1].expected = "seven"

    suite = _copy_task(tmp_path, "verina_advanced_39", corrupt)
    task = read_task(suite / "verina_advanced_39")
    rows = decode_rows(task)
    gt = ground_truth_generation(task)
    code = evaluate_code(ENGINE, task, rows, gt)["code"]
    assert code.score is Score.PASS and code.n_excluded == 2 and code.n_tests == len(task.tests) - 2
    spec = evaluate_spec(ENGINE, task, rows, gt)
    assert spec["precond_sound"].n_excluded == 1 and spec["postcond_complete"].n_excluded == 2
    assert spec["precond_postcond"].score is Score.PASS


def test_harness_scores_samples_and_models_in_a_stable_order(tmp_path: Path) -> None:
    verina = _verina()
    gens = []
    for tid in ("verina_basic_10", "verina_basic_1"):
        task = read_task(verina / tid)
        gens.append(ground_truth_generation(task, sample=0, kinds=["spec", "code"], model="gt"))
        gens.append(Generation(tid, 1, ("code",), code="default", model="gt"))
        gens.append(ground_truth_generation(task, sample=0, kinds=["code"], model="other"))
    gens.append(Generation("verina_nope_1", 0, ("code",), code="0"))
    opts = EvalOptions(workers=1, ks=(1, 2), exclude=("verina_basic_10",))
    run = evaluate_generations(gens, [SuiteSpec("verina", verina)], opts)
    keys = [(r.model, r.task_id, r.sample) for r in run.results]
    assert keys == [("gt", "verina_basic_1", 0), ("gt", "verina_basic_1", 1), ("other", "verina_basic_1", 0)]
    assert set(run.results[0].metrics) == {"code", "code_by_spec", *SPEC_METRICS} and set(
        run.results[0].seconds
    ) == {
        "spec",
        "code",
    }
    assert run.results[1].metrics["code"].score is not Score.PASS
    assert any("verina_nope_1" in w for w in run.warnings)
    info = run.suites[0]
    assert info.has_unexpected and "spec" in info.wall_seconds and "code" in info.wall_seconds
    assert "verina_basic_10" not in info.tasks_without_generations
    json.dumps(run.rows_json())  # serialisable


class _ScriptedEngine:
    """An engine that answers every check with fixed verdicts, batched, like the Lean engine does."""

    name = "scripted"

    def __init__(self, pre: Verdict, post: Verdict) -> None:
        self.pre, self.post = pre, post
        self.calls: list[tuple[str, int]] = []

    def for_task(self, task, overrides=None):
        assert overrides is not None and overrides["solution_aux"] == "" and "imports" in overrides
        return self

    def precondition(self, inputs):
        return self.preconditions([inputs])[0]

    def postcondition(self, inputs, output):
        return self.postconditions([(inputs, output)])[0]

    def preconditions(self, rows):
        self.calls.append(("pre", len(rows)))
        return [self.pre] * len(rows)

    def postconditions(self, pairs):
        self.calls.append(("post", len(pairs)))
        return [self.post] * len(pairs)


def test_plausible_and_compile_verdicts_are_scored_as_verina_does() -> None:
    task, rows = _task("verina_basic_10")
    gt = ground_truth_generation(task, kinds=["spec"])
    lean_like = SpecOptions(fail_fast=False, batched=True, compile_errors_fail=True, pass_imports=True)
    # "no counter-example to P" passes where P should hold, and is unknown where P should fail
    engine = _ScriptedEngine(Verdict.unknown("p", "plausible_true"), Verdict.unknown("p", "plausible_both"))
    m = evaluate_spec(engine, task, rows, gt, lean_like)
    assert m["precond_sound"].score is Score.PASS
    assert (
        m["precond_complete"].score is Score.UNKNOWN
        and m["precond_complete"].error is ErrorCategory.UNDECIDED
    )
    assert m["postcond_sound"].score is Score.PASS and m["postcond_complete"].score is Score.PASS
    # one batch per metric, every row in it
    assert ("pre", len(task.tests)) in engine.calls and ("pre", len(task.reject_inputs)) in engine.calls
    # a compile error from Lean is definitive
    broken = _ScriptedEngine(Verdict.unknown("unknown identifier", "elab"), Verdict.of(True))
    m = evaluate_spec(broken, task, rows, gt, lean_like)
    assert m["precond_sound"].score is Score.FAIL and m["precond_sound"].error is ErrorCategory.PARSE_ERROR
    assert (
        m["postcond_sound"].score is Score.FAIL
        and m["postcond_sound"].error is ErrorCategory.POSTCOND_MISMATCH
    )
    # without Verina's plausible rule the same answers stay unknown
    strict = SpecOptions(batched=True, plausible_as_pass=False, pass_imports=True)
    m = evaluate_spec(engine, task, rows, gt, strict)
    assert m["precond_sound"].score is Score.UNKNOWN and not m["precond_sound"].upper


def test_rows_the_suites_own_reference_contradicts_are_left_out() -> None:
    """VerinaLite verina_basic_16 row 8: its output was computed with ' ' replaced by 'a' upstream."""
    d = require("verinalite", "verina_basic_16")
    from veriscale.evaluate.scoring.cases import exclude_contradicted

    task = read_task(d)
    gen = ground_truth_generation(task, kinds=["code"])
    engine = make_engine("native")

    trusted = evaluate_code(engine, task, decode_rows(task), gen, CodeOptions())
    assert trusted["code"].score is Score.FAIL and "test 8" in trusted["code"].where

    rows = decode_rows(task)
    assert exclude_contradicted(task, rows) == [8]
    assert "reference implementation returns" in rows.tests[8].expected_error
    validated = evaluate_code(engine, task, rows, gen, CodeOptions())
    # excluded: the undecodable rows (Chars that are not one character) and the contradicted one
    assert validated["code"].score is Score.PASS
    assert validated["code"].n_excluded == trusted["code"].n_excluded + 1


def test_native_limits_are_fuel_so_the_same_checks_time_out_on_any_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # verina_advanced_4's postcondition enumerates all 2^n subsequences of its input (plainly:
    # languages/lean/eval/subseqs.py would answer it without building them).
    from veriscale.languages.lean.eval import subseqs

    monkeypatch.setattr(subseqs, "ENABLED", False)
    task, rows = _task("verina_advanced_4")
    gt = ground_truth_generation(task)
    opts = EvalOptions()
    assert opts.engine_opts("spec")["fuel"] == 10_000_000 and opts.engine_opts("code")["fuel"] == 20_000_000

    def run(seconds: float) -> list[tuple[str, object, int, str]]:
        engine = make_engine("native", fuel=60_000, seconds=seconds)
        spec = evaluate_spec(engine, task, rows, gt, SpecOptions(max_timeouts=None, budget_fuel=150_000))
        m = spec["postcond_complete"]
        return [(m.score.name, m.error, m.n_unknown, m.reason)]

    first = run(60.0)
    score, error, n_unknown, reason = first[0]
    # the small per-check fuel times some checks out; the metric's fuel budget then stops the rest
    assert score == "UNKNOWN" and error is ErrorCategory.TIMEOUT and n_unknown >= 1
    assert "steps" in reason
    assert run(30.0) == first  # a different wall-clock backstop changes nothing
