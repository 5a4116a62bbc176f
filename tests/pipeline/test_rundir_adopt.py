"""A stage's own settings are fixed when its first task finishes, not when the run starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from veriscale.pipeline.config import ConfigMismatch, PipelineConfig
from veriscale.pipeline.rundir import RunDir


def _saved(root: Path) -> dict:
    return json.loads((root / "config.json").read_text(encoding="utf-8"))


def test_settings_are_adopted_until_the_stage_has_results(tmp_path: Path) -> None:
    root = tmp_path / "run"
    with RunDir.open(root, PipelineConfig()) as rd:
        rd.adopt("outputs", "outputs")
    assert _saved(root)["outputs"]["cap"] == 10

    # a later `expand outputs --cap 4`, before any output result: the run takes the new setting
    cap4 = PipelineConfig().with_overrides({"outputs.cap": 4})
    with RunDir.open(root, cap4) as rd:
        rd.adopt("outputs", "outputs")
        rd.ledger.start("outputs", "t1")
        rd.write_result("outputs", "t1", {"ok": True}, 0.1)
    assert _saved(root)["outputs"]["cap"] == 4

    # once a task of the stage is done, another value is refused, naming the setting
    with (
        RunDir.open(root, PipelineConfig()) as rd,
        pytest.raises(ConfigMismatch, match=r"outputs\.cap: 4 -> 10"),
    ):
        rd.adopt("outputs", "outputs")
    with RunDir.open(root, cap4) as rd:
        rd.adopt("outputs", "outputs")  # the same value resumes


def test_result_sections_still_refuse_at_open(tmp_path: Path) -> None:
    root = tmp_path / "run"
    RunDir.open(root, PipelineConfig()).close()
    with pytest.raises(ConfigMismatch, match="seed"):
        RunDir.open(root, PipelineConfig(seed=7))
