"""Per-conjunct reject inputs (``pipeline/inputs/conjuncts.py``) and the covers Lite keeps."""

from __future__ import annotations

import random

import pytest

from shared_data import data_path
from veriscale.formats.verina.dataset import read_task
from veriscale.languages.lean.conjuncts import split_conjuncts, weakened_preconditions
from veriscale.languages.lean.engines import make_engine
from veriscale.pipeline.config import MutationSettings
from veriscale.pipeline.inputs.conjuncts import search_conjunct_rejects
from veriscale.pipeline.inputs.mutate import Candidate, Mutator, input_key
from veriscale.pipeline.inputs.seeds import task_params
from veriscale.reduce.conjunct_cover import conjunct_cover
from veriscale.reduce.unexpected_cover import select_unexpected

VERINA = data_path("verina")


def _task(tid: str):
    d = VERINA / tid
    if not d.is_dir():
        pytest.skip(f"shared data folder {d} is absent")
    return read_task(d)


def test_split_top_level_and_under_a_leading_all() -> None:
    task = _task("verina_advanced_13")  # N ≥ 2 ∧ length ∧ chords.all (fun c => 5 conjuncts) ∧ Nodup
    labels = [c.label for c in split_conjuncts(task.section_text("precond"))]
    assert labels == ["0", "1", "2", "2.0", "2.1", "2.2", "2.3", "2.4", "3"]
    weak = {c.label: c.text for c in weakened_preconditions(task.section_text("precond"))}
    assert list(weak) == labels
    assert "N ≥ 2" not in weak["0"] and "chord[0]! ≥ 1" not in weak["2.1"] and "chord[1]! ≥ 1" in weak["2.1"]
    assert split_conjuncts("True") == [] and split_conjuncts("a ∧∧") == []


def test_search_finds_the_boundary_violation_of_each_conjunct() -> None:
    task = _task("verina_advanced_5")  # digits < 10 in l1 and l2, no leading zeros, non-empty
    engine = make_engine("native")
    te = engine.for_task(task)
    params = task_params(task)
    valid = []
    for i, tc in enumerate(task.tests):
        v = tc.decode_input(task, i)
        valid.append(Candidate(v, input_key(params, v, task.structs), "original", index=i))
    seen = {c.key for c in valid}
    mutator = Mutator(params, task.structs, random.Random(7), MutationSettings())
    for c in valid:
        mutator.harvest(c.values)
    res = search_conjunct_rejects(
        engine, task, task.section_text("precond"), [], valid, mutator, seen, 400, te
    )
    covered = {lb for lb, c in res.covered.items() if c is not None}
    # "0"/"1" (non-empty) cannot be violated alone: [] also breaks the no-leading-zero conjunct
    assert {"2", "3"} <= covered and "0" not in covered and "1" not in covered
    for lb in covered:
        c = res.covered[lb]
        assert te.precondition(c.values).is_false and c in res.new
        weak = next(w for w in weakened_preconditions(task.section_text("precond")) if w.label == lb)
        assert engine.for_task(task, {"precond": weak.text}).precondition(c.values).is_true
    # shrunk to the boundary: the one offending digit is exactly 10
    assert 10 in res.covered["2"].values["l1"] and all(d <= 10 for d in res.covered["2"].values["l1"])
    assert res.report()[0]["label"] == "0" and res.report()[0]["covered_by"] is None


def test_covers_kept_by_lite() -> None:
    provs = [{}, {"violates": ["1"]}, {"violates": ["0", "2.1"]}, {"violates": ["1"]}]
    assert conjunct_cover(provs) == [1, 2]
    details = [
        [{"source": "benchmark"}, {"source": "adversary", "accepted_by": ["s1"]}],
        [{"source": "adversary", "accepted_by": ["s1", "s2"]}, {"source": "adversary", "accepted_by": []}],
        [{"source": "adversary", "accepted_by": ["s3"]}, {"source": "output-mutation"}],
    ]
    # the benchmark's output, then the cover (row 1 output 0 kills two), then the fill
    assert select_unexpected(details, [0, 1, 2], 0) == {0: [0], 1: [0], 2: [0]}
    assert select_unexpected(details, [0, 1, 2], 5) == {0: [0, 1], 1: [0, 1], 2: [0]}
    assert select_unexpected(details, [0, 2], 1) == {0: [0, 1], 2: [0]}
