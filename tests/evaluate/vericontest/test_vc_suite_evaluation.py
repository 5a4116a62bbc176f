"""``evaluate`` on a VeriContest problem with test files (a generated suite's layout): the ground truth
passes, negatives are labelled in one batch, spec verdicts are shared by identical specifications."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from shared_data import data_path, needs
from veriscale.languages.verus.compile import rustc_available

DATA = data_path("vericontest")

pytestmark = [
    pytest.mark.skipif(not rustc_available(), reason="rustc is not installed"),
    needs("vericontest"),
]

# lc34 (search_range): positives with the right answer, negatives with wrong ones, and one
# "negative" that is a right answer (the suite defect the ground-truth ensures must leave out)
POSITIVES = [
    ({"nums": [1, 2, 2, 3], "target": 2}, [1, 2]),
    ({"nums": [], "target": 0}, [-1, -1]),
    ({"nums": [5], "target": 5}, [0, 0]),
    ({"nums": [1, 1, 1, 1, 1], "target": 1}, [0, 4]),
    ({"nums": [-3, 0, 7], "target": 4}, [-1, -1]),
]
NEGATIVES = [
    ({"nums": [1, 2, 2, 3], "target": 2}, [1, 1]),
    ({"nums": [1, 2, 2, 3], "target": 2}, [0, 2]),
    ({"nums": [5], "target": 5}, [-1, -1]),
    ({"nums": [1, 1, 1, 1, 1], "target": 1}, [1, 4]),
    ({"nums": [-3, 0, 7], "target": 4}, [2, 2]),
    ({"nums": [1, 2, 2, 3], "target": 2}, [1, 2]),  # right answer: left out
]


@pytest.fixture()
def suite_problem(tmp_path: Path) -> Path:
    src = DATA / "leetcode" / "lc34"
    dst = tmp_path / "leetcode" / "lc34"
    shutil.copytree(src, dst)
    (dst / "tests").mkdir(exist_ok=True)
    for name, rows in (("testcases.jsonl", POSITIVES), ("mutated_testcases.jsonl", NEGATIVES)):
        text = "".join(json.dumps({"input": i, "output": o}) + "\n" for i, o in rows)
        (dst / "tests" / name).write_text(text, encoding="utf-8")
    return dst


def _engine_and_cases(d: Path):
    from veriscale.evaluate.vericontest.cases import build_cases
    from veriscale.formats.vericontest.dataset import read_problem
    from veriscale.languages.registry import language

    p = read_problem(d)
    verus = language("verus")
    engine = verus.make_engine("native", exec_limits=verus.exec_limits(case_seconds=10, memory_mb=2048))
    te_gt = engine.for_task(p)
    return p, engine, te_gt, build_cases(p, te_gt)


def test_negatives_are_labelled_in_one_checker_batch(suite_problem: Path, monkeypatch) -> None:
    from veriscale.languages.verus.post2exe import checker

    batches: list[int] = []
    real = checker.CompiledChecker.check

    def counting(self, cases, with_output=True):
        batches.append(len(cases))
        return real(self, cases, with_output)

    monkeypatch.setattr(checker.CompiledChecker, "check", counting)
    _, _, _, cases = _engine_and_cases(suite_problem)
    n_examples = 3  # lc34's description examples are positives too
    assert len(cases.positives) == n_examples + len(POSITIVES)
    assert [c.where for c in cases.negatives] == [f"negative {k}" for k in range(5)]
    assert cases.excluded == [
        "negative 5: suite defect: the ground-truth ensures accepts this output (left out)"
    ]
    # requires and ensures of the positives, ensures of the negatives: one process each, whatever
    # the number of rows (it was one process per negative)
    assert batches == [len(cases.positives), len(cases.positives), len(NEGATIVES)]
    assert all(c.gt_ensures is not None and c.gt_ensures.is_false for c in cases.negatives)
    assert all(c.gt_requires is not None and c.gt_requires.is_true for c in cases.positives)


def test_identical_specifications_reuse_the_ground_truths_verdicts(suite_problem: Path) -> None:
    from veriscale.evaluate.scoring.aggregate import Score
    from veriscale.evaluate.vericontest.scoring import score_spec
    from veriscale.evaluate.vericontest.spec_verdicts import SpecVerdicts

    p, engine, te_gt, cases = _engine_and_cases(suite_problem)
    memo = SpecVerdicts(cases)
    memo.seed_ground_truth(te_gt)
    n = len(cases.spec_positives)
    # spec.rs and verified.rs (the nl2spec and end2end answers of the ground truth): no new verdict
    for program in (p.spec, p.verified):
        both, pre, post = score_spec(engine, p, cases, program, memo)
        assert (both.score, pre.score, post.score) == (Score.PASS,) * 3
        assert post.n_tests == n + len(cases.negatives)
    assert memo.computed == 0 and memo.reused == 2 * (n + n + len(cases.negatives))
    # a weakened ensures (no condition on the last index) is another specification: computed, and
    # it accepts the negative [1, 1]
    weak = p.spec.replace("result[1] >= 0 ==> (", "true || (", 1)
    assert weak != p.spec
    got = score_spec(engine, p, cases, weak, memo)
    assert memo.computed == n + n + len(cases.negatives)
    assert got[2].score is Score.FAIL and got[2].where == "negative 0"
    # the memo changes no verdict: the same answers scored without it
    for program in (p.spec, weak):
        assert score_spec(engine, p, cases, program, memo) == score_spec(engine, p, cases, program)


def test_ground_truth_passes_on_the_suite(suite_problem: Path, monkeypatch) -> None:
    from veriscale.evaluate.scoring.aggregate import Score
    from veriscale.evaluate.vericontest import scoring
    from veriscale.evaluate.vericontest.generations import VC_TASKS, ground_truth_generation
    from veriscale.evaluate.vericontest.harness import VcEvalOptions, VcJob, run_vc_job
    from veriscale.formats.vericontest.dataset import read_problem

    programs: list[str] = []
    real = scoring.score_code

    def counting(engine, problem, te_gt, cases, program):
        programs.append(program)
        return real(engine, problem, te_gt, cases, program)

    monkeypatch.setattr(scoring, "score_code", counting)
    p = read_problem(suite_problem)
    gens = tuple(ground_truth_generation(p, t) for t in VC_TASKS)
    rows = run_vc_job(VcJob("vc", str(suite_problem), "lc34", gens, VcEvalOptions()))
    scores = {m: r for row in rows for m, r in row["metrics"].items()}
    proof = {"spec_code2proof", "end2end"}
    assert {m: r.score for m, r in scores.items() if m not in proof} == dict.fromkeys(
        set(scores) - proof, Score.PASS
    )
    assert scores["nl2code"].n_tests == 3 + len(POSITIVES)
    assert scores["nl2spec_post"].n_tests == 3 + len(POSITIVES) + len(NEGATIVES) - 1
    # nl2code, spec2code and nl_spec2code answer code_spec.rs: run once; end2end (verified.rs) once
    assert programs == [p.code_spec, p.verified]


def test_ground_truth_passes_on_cf231a_inline_example() -> None:
    """cf231A states its output inline (``**Output:** 2``): it has a test case now, and the ground
    truth passes it (it was NOT_EVALUATED: no test case)."""
    from veriscale.evaluate.scoring.aggregate import Score
    from veriscale.evaluate.vericontest.generations import VC_TASKS, ground_truth_generation
    from veriscale.evaluate.vericontest.harness import VcEvalOptions, VcJob, run_vc_job
    from veriscale.formats.vericontest.dataset import read_problem

    d = DATA / "codeforces" / "cf231A"
    p = read_problem(d)
    gens = tuple(ground_truth_generation(p, t) for t in ("nl2spec", "nl2code", "spec2code"))
    assert set(g.task for g in gens) <= set(VC_TASKS)
    rows = run_vc_job(VcJob("vc", str(d), "cf231A", gens, VcEvalOptions()))
    assert rows[0]["cases"]["positives"] >= 1
    for row in rows:
        assert {m: r.score for m, r in row["metrics"].items()} == dict.fromkeys(row["metrics"], Score.PASS)
