"""``code_by_spec``: a different output the ground-truth postcondition accepts counts correct."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from veriscale.evaluate.generations import ground_truth_generation
from veriscale.evaluate.scoring.aggregate import Score
from veriscale.evaluate.scoring.cases import decode_rows
from veriscale.evaluate.scoring.codegen import CodeOptions, evaluate_code
from veriscale.examples import tiny_path
from veriscale.formats.verina.dataset import read_task
from veriscale.languages.registry import language

ENGINE = language("lean").make_engine("native")


def _any_element_task(tmp_path: Path):  # type: ignore[no-untyped-def]
    """tiny_2 (maximum of an array) with a postcondition any element satisfies: several valid answers."""
    d = tmp_path / "tiny_2"
    shutil.copytree(tiny_path() / "tiny_2", d)
    lean = (d / "task.lean").read_text(encoding="utf-8")
    weak = lean.replace("(∀ i, i < a.size → a[i]! ≤ result) ∧ (∃ i", "(∃ i")
    assert weak != lean
    (d / "task.lean").write_text(weak, encoding="utf-8")
    return read_task(d)


def test_a_valid_different_answer_passes_by_spec_only(tmp_path: Path) -> None:
    task = _any_element_task(tmp_path)
    rows = decode_rows(task)
    gt = ground_truth_generation(task, kinds=["code"])
    first = replace(gt, code="a[0]!")  # an element, not always the maximum
    wrong = replace(gt, code="a[0]! + 1000")
    for fail_fast in (True, False):
        opts = CodeOptions(fail_fast=fail_fast)
        m = evaluate_code(ENGINE, task, rows, gt, opts)
        assert m["code"].score is Score.PASS and m["code_by_spec"].score is Score.PASS
        m = evaluate_code(ENGINE, task, rows, first, opts)
        assert m["code"].score is Score.FAIL and m["code"].error.value == "incorrect_output"
        assert m["code_by_spec"].score is Score.PASS
        assert m["code_by_spec"].n_pass == m["code_by_spec"].n_tests == len(task.tests)
        m = evaluate_code(ENGINE, task, rows, wrong, opts)
        assert m["code"].score is Score.FAIL and m["code_by_spec"].score is Score.FAIL
        assert "postcondition rejects it" in m["code_by_spec"].reason


def test_the_candidate_runs_once_per_input(tmp_path: Path) -> None:
    task = _any_element_task(tmp_path)
    rows = decode_rows(task)
    calls: list[object] = []

    class Counting:
        def for_task(self, t, overrides=None):  # type: ignore[no-untyped-def]
            te = ENGINE.for_task(t, overrides)
            if overrides is None:
                return te

            class Wrapped:
                def run(self, inputs):  # type: ignore[no-untyped-def]
                    calls.append(inputs)
                    return te.run(inputs)

                def runs(self, rows):  # type: ignore[no-untyped-def]
                    return [self.run(r) for r in rows]

            return Wrapped()

    first = replace(ground_truth_generation(task, kinds=["code"]), code="a[0]!")
    evaluate_code(Counting(), task, rows, first, CodeOptions(fail_fast=False, calibrate_timeouts=False))
    assert len(calls) == len(task.tests)
