"""Model-generated seeds through the fake OpenAI-compatible server: validation, counting, provenance."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from llm_fake_server import FakeOpenAI
from shared_data import data_path, needs
from veriscale.cli.app import _load_commands, app
from veriscale.llm.config import LLMConfig
from veriscale.pipeline.config import PipelineConfig
from veriscale.pipeline.inputs.stage import STAGE, run_inputs_stage
from veriscale.pipeline.rundir import RunDir
from veriscale.runtime.executor import SerialExecutor

DATA = data_path("verina")
pytestmark = needs("verina")

TASK = "verina_basic_29"  # (s : Array Int) (k : Nat), precondition k < s.size

ANSWER = [
    {"input": {"s": "#[1, 2]", "k": 1}},  # valid
    {"s": [5, 6, 7], "k": 0},  # a bare object with a JSON list: valid
    {"input": {"s": "#[1]", "k": 3}},  # violates the precondition
    {"input": {"s": "#[1]", "k": -1}},  # Nat is negative
    {"input": {"s": "#[1]"}},  # a parameter is missing
    {"input": {"s": "#[1, 2, 3, 4, 5]", "k": 2}},  # the first original test again
    {"input": {"s": "[1, 2]", "k": 0}},  # a List literal for an Array
    "hello",  # not an input at all
]


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI().start()
    server.responder = lambda body: "```json\n" + json.dumps(ANSWER) + "\n```"
    yield server
    server.stop()


def test_model_seeds_are_validated_counted_and_mutated(
    fake: FakeOpenAI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERISCALE_API_KEY", "sk-seed-test")
    llm = LLMConfig(model="seed-model", base_url=fake.url, cache="off", max_retries=0, timeout=5.0)
    cfg = PipelineConfig(model="seed-model").with_overrides({"inputs.seeds.rounds": 2})
    with RunDir.open(tmp_path / "run", cfg) as rd:
        rep = run_inputs_stage(DATA, rd, SerialExecutor(), tasks=[TASK], llm_config=llm)
        assert rep.ok, rep.failed
        doc = rd.read_result(STAGE, TASK)

    assert fake.count == 2  # one request per round
    prompt = fake.requests[0]["body"]["messages"][-1]["content"]
    assert "40 inputs in total" in prompt and "about 32" in prompt and "about 8" in prompt
    assert "k < s.size" in prompt and '"param_name": "k"' in prompt
    c = doc["counts"]
    # 3 distinct valid model seeds; round 2 repeats round 1, so its items are duplicates
    assert c["seeds"]["llm-seed"] == 3
    assert c["duplicate_seeds"] == 1 + 3 + 1
    ex = c["excluded"]
    assert ex["llm: Nat is negative"] == 2 and ex["llm: wrong parameter names"] == 2
    assert ex["llm: not an input object"] == 2
    assert ex["llm: list literal given for Array Int"] == 2
    assert doc["llm"] == {"requested": 80, "answers": 2, "items": 16, "valid": 8}

    llm_rows = [r for r in doc["expected"] + doc["unexpected"] if r["provenance"]["origin"] == "llm-seed"]
    assert sorted((r["provenance"]["index"], r["provenance"]["round"]) for r in llm_rows) == [
        (0, 0),
        (1, 0),
        (2, 0),
    ]
    unexpected_llm = [r for r in doc["unexpected"] if r["provenance"]["origin"] == "llm-seed"]
    assert [r["input"] for r in unexpected_llm] == [{"s": "#[1]", "k": 3}]
    llm_ids = {r["id"] for r in llm_rows}
    children = [r for r in doc["expected"] + doc["unexpected"] if r["provenance"].get("parent") in llm_ids]
    assert len(children) == 3 * 15  # every model seed is mutated too


def test_cli_with_a_model_asks_it_and_records_it(fake: FakeOpenAI, tmp_path: Path) -> None:
    from veriscale.llm.offline import reset_notices

    _load_commands()
    reset_notices()
    env = {
        "VERISCALE_BASE_URL": fake.url,
        "VERISCALE_API_KEY": "sk-cli-seed",
        "VERISCALE_LLM_CONFIG": "",
        "VERISCALE_MODEL": "",
        "COLUMNS": "160",
    }
    args = [
        "expand",
        "inputs",
        "--benchmark",
        str(DATA),
        "--run",
        str(tmp_path / "r"),
        "--tasks",
        TASK,
        "--executor",
        "serial",
        "--model",
        "cli-model",
        "--no-cache",
    ]
    res = CliRunner().invoke(app, args, env=env)
    assert res.exit_code == 0, res.output
    assert "no model configured" not in res.stderr
    assert json.loads((tmp_path / "r" / "config.json").read_text())["model"] == "cli-model"
    assert fake.count == 1 and fake.requests[0]["body"]["model"] == "cli-model"
    assert "3" in res.stdout.split("seeds (original / reject / llm)")[1].splitlines()[0]
