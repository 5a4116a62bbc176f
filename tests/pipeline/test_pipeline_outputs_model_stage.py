"""The output stage with a model: model specs and red-team adversaries join the offline ones."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from llm_fake_server import FakeOpenAI
from shared_data import data_path, needs
from veriscale.formats.verina.dataset import read_task
from veriscale.languages.adversary import make_adversary
from veriscale.languages.lean.native import NativeEngine
from veriscale.pipeline.config import PipelineConfig
from veriscale.pipeline.inputs.stage import expand_task
from veriscale.pipeline.outputs.stage import expand_task_outputs

from .test_pipeline_outputs_llm import responder, runner_for

DATA = data_path("verina")
pytestmark = needs("verina")


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    monkeypatch.setenv("VERISCALE_API_KEY", "sk-outputs-test")
    server = FakeOpenAI().start()
    server.responder = responder
    yield server
    server.stop()


def test_model_specs_and_red_team_feed_the_attack(fake: FakeOpenAI) -> None:
    task = read_task(DATA / "verina_basic_29")
    config = PipelineConfig().with_overrides({"outputs.spec_models": ["spec-good", "spec-name"]})
    engine = NativeEngine()
    inputs_doc = expand_task(task, config, engine)
    with runner_for(fake) as runner:
        doc = expand_task_outputs(task, inputs_doc, config, engine, runner=runner)

    assert doc["llm"]["specs"]["counts"]["failures"] == {"wrong-name": 1}
    model_spec = next(s for s in doc["specs"] if s["origin"] == "model:spec-good")
    assert doc["specs"][0] is model_spec  # model specs are judged first
    assert doc["llm"]["adversaries"]["counts"]["kept"] == 1  # ``s.pop``; the other four break the rules
    # ``s.pop`` is also an offline template (same text, same id): it is attacked once
    pop = make_adversary("s.pop", "model", "").id
    assert [a["origin"] for a in doc["adversaries"] if a["id"] == pop] == ["template:drop-last"]
    # the weak model spec (size only) accepts kept wrong outputs of ``s.pop``
    hits = [
        u
        for row in doc["expected"]
        for u in row["unexpected"]
        if pop in u["adversaries"] and model_spec["id"] in u["accepted_by"]
    ]
    assert hits
    # every kept unexpected output is rejected by the ground-truth postcondition
    gt = engine.for_task(task)
    row = next(r for r in doc["expected"] if r["unexpected"])
    values = task.decode_input(row["input"], file="test")
    for u in row["unexpected"]:
        assert gt.postcondition(values, task.decode_output(u["output"], file="test")).is_false


def test_scale_with_a_model_runs_specs_and_red_team_in_the_workers(fake: FakeOpenAI, tmp_path: Path) -> None:
    """The model config travels to the worker processes; the models asked are recorded in the run config."""
    from veriscale.llm.config import LLMConfig, StageConfig
    from veriscale.pipeline.outputs.stage import with_models
    from veriscale.pipeline.rundir import RunDir
    from veriscale.pipeline.scale import run_scale
    from veriscale.runtime.executor import LocalExecutor

    llm = LLMConfig(
        model="red-model",
        base_url=fake.url,
        cache="off",
        max_retries=0,
        timeout=5.0,
        reask_malformed=0,
        stages={"spec_gen": StageConfig(models=["spec-good", "spec-strong"])},
    )
    cfg = with_models(PipelineConfig(), llm, True)
    assert (
        cfg.outputs.spec_models == ("spec-good", "spec-strong") and cfg.outputs.red_team_model == "red-model"
    )
    with RunDir.open(tmp_path / "run", cfg) as rd:
        rep = run_scale(DATA, rd, LocalExecutor(workers=1), tasks=["verina_basic_29"], llm_config=llm)
        doc = rd.read_result("outputs", "verina_basic_29")
    assert rep.failed == {} and rep.kill_preserved == 1
    assert [s["origin"] for s in doc["specs"][:2]] == ["model:spec-good", "model:spec-strong"]
    assert doc["llm"]["adversaries"]["counts"]["kept"] >= 1
    saved = (tmp_path / "run" / "config.json").read_text(encoding="utf-8")
    assert '"spec-good"' in saved and '"red_team_model": "red-model"' in saved
    prov = (tmp_path / "run" / "plus" / "verina_basic_29" / "provenance.json").read_text(encoding="utf-8")
    assert "model:spec-good" in prov
