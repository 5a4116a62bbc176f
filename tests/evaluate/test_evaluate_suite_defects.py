"""Suite defects of SpecGen rows: unexpected outputs the ground-truth postcondition accepts and reject
inputs its precondition accepts are left out (counted in ``n_excluded``) unless ``--trust-suite``."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared_data import data_path
from veriscale.evaluate.generations import ground_truth_generation
from veriscale.evaluate.harness import EvalOptions, SuiteSpec, evaluate_generations
from veriscale.evaluate.scoring.aggregate import Score
from veriscale.evaluate.scoring.cases import decode_rows
from veriscale.evaluate.suite_defects import exclude_accepted
from veriscale.formats.verina.dataset import RejectInput, read_task, write_task

VERINA = data_path("verina")


def _suite(tmp: Path) -> Path:
    """verina_basic_4 (k-th element, 1 ≤ k ≤ size) with a correct answer among the unexpected
    outputs of row 0 and a valid input among the reject inputs."""
    d = VERINA / "verina_basic_4"
    if not d.is_dir():
        pytest.skip(f"shared data folder {d} is absent")
    task = read_task(d)
    row = task.tests[0]
    assert row.unexpected is not None
    row.unexpected = [*row.unexpected, row.expected]  # the correct answer, stored as "unexpected"
    task.reject_inputs = [*task.reject_inputs, RejectInput({"arr": "#[1, 2]", "k": 2})]  # valid
    write_task(task, tmp / "suite" / task.id)
    return tmp / "suite"


def test_rows_the_ground_truth_accepts_are_marked(tmp_path: Path) -> None:
    suite = _suite(tmp_path)
    task = read_task(suite / "verina_basic_4")
    rows = decode_rows(task)
    n_u = len(task.tests[0].unexpected or [])
    marked = exclude_accepted(task, rows)
    assert marked == {
        "unexpected": [f"test 0, unexpected {n_u - 1}"],
        "rejects": [f"reject {len(task.reject_inputs) - 1}"],
    }
    assert (
        rows.tests[0].unexpected[-1][0] is None and "postcondition accepts" in rows.tests[0].unexpected[-1][1]
    )
    assert rows.rejects[-1].inputs is None and "precondition accepts" in rows.rejects[-1].input_error


@pytest.mark.parametrize("trust", [False, True])
def test_evaluate_leaves_them_out_unless_trusted(tmp_path: Path, trust: bool) -> None:
    suite = _suite(tmp_path)
    task = read_task(suite / "verina_basic_4")
    gen = ground_truth_generation(task, kinds=["spec"])
    run = evaluate_generations([gen], [SuiteSpec("s", suite)], EvalOptions(workers=1, trust_suite=trust))
    m = run.results[0].metrics
    if trust:  # the ground truth is failed by its own suite's defects
        assert m["postcond_sound"].score is Score.FAIL and m["precond_complete"].score is Score.FAIL
    else:
        assert m["postcond_sound"].score is Score.PASS and m["postcond_sound"].n_excluded == 1
        assert m["precond_complete"].score is Score.PASS and m["precond_complete"].n_excluded == 1
        assert m["precond_postcond"].score is Score.PASS
