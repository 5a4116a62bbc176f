"""Full offline input expansion of Verina (slow): the issue's acceptance figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared_data import data_path, needs
from veriscale.formats.verina.dataset import read_task
from veriscale.pipeline.config import PipelineConfig
from veriscale.pipeline.inputs.mutate import input_key
from veriscale.pipeline.inputs.stage import STAGE, run_inputs_stage
from veriscale.pipeline.rundir import RunDir
from veriscale.pipeline.summary import summarize_inputs
from veriscale.runtime.executor import LocalExecutor
from veriscale.values.codec import decode

DATA = data_path("verina")


@pytest.mark.slow
@needs("verina")
def test_full_offline_expansion_of_verina(tmp_path: Path) -> None:
    with RunDir.open(tmp_path / "run", PipelineConfig()) as rd:
        rep = run_inputs_stage(DATA, rd, LocalExecutor(workers=2))
    assert rep.ok and len(rep.computed) == 189, rep.failed
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((tmp_path / "run" / STAGE).iterdir())]
    s = summarize_inputs(docs).to_json()
    assert s["tasks"] == 189 and s["mean_expected"] >= 80 and s["duplicates"] == 0
    # duplicates recomputed independently: decode every written input again
    for doc in docs:
        task = read_task(DATA / doc["task_id"])
        params = [(p.name, p.type) for p in task.signature.params]
        rows = doc["expected"] + doc["unexpected"]
        keys = {
            input_key(
                params, {n: decode(t, r["input"][n], structs=task.structs) for n, t in params}, task.structs
            )
            for r in rows
        }
        assert len(keys) == len(rows), doc["task_id"]
