"""``veriscale generate`` and ``bench`` end to end: a fake OpenAI server, a rerun, the shipped replay file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generate_fake_model import ScriptedModel
from llm_fake_server import FakeOpenAI
from veriscale.cli.app import _load_commands, app

TINY = Path(str(resources.files("veriscale") / "examples" / "tiny"))
REPLAY = Path(str(resources.files("veriscale") / "examples" / "replay" / "tiny_replay.jsonl"))
IDS = ["tiny_1", "tiny_2", "tiny_3", "tiny_4"]


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI().start()
    model = ScriptedModel(TINY, IDS, {("tiny_1", "codegen"): "huge", ("tiny_2", "specgen"): "forbidden"})
    server.responder = model.responder
    yield server
    server.stop()


def invoke(*args: str, env: dict[str, str]) -> str:
    _load_commands()
    res = CliRunner().invoke(app, list(args), env=env, catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.output


def test_generate_against_a_fake_server_then_rerun(fake: FakeOpenAI, tmp_path: Path) -> None:
    env = {"VERISCALE_CACHE_PATH": str(tmp_path / "cache.sqlite"), "VERISCALE_API_KEY": "sk-test"}
    args = ["generate", "--model", "m", "--base-url", fake.url, "--benchmark", str(TINY), "--out", str(tmp_path / "o"),
            "--task", "specgen", "--task", "codegen", "-n", "2", "--no-progress"]  # fmt: skip
    out = invoke(*args, env=env)
    assert fake.count == 16
    assert "16 asked this run" in out and "HTTP requests sent: 16" in out
    assert "codegen: 8 line(s); extraction errors: huge_output 2" in out
    assert "specgen: 8 line(s); extraction errors: forbidden_construct 2" in out
    out = invoke(*args, env=env)
    assert fake.count == 16 and "0 asked this run, 16 answered by an earlier run" in out
    # a fresh folder still sends nothing: the response cache answers
    out = invoke(*[a if a != str(tmp_path / "o") else str(tmp_path / "o2") for a in args], env=env)
    assert fake.count == 16 and "cache hits: 16" in out


def test_shipped_replay_file_with_bench(tmp_path: Path) -> None:
    out = invoke("bench", "--model", f"replay:{REPLAY}", "--benchmark", str(TINY), "--out", str(tmp_path),
                 "--task", "specgen", "--task", "codegen", "--repair", "2", "--no-progress", "--workers", "1",
                 env={})  # fmt: skip
    assert "HTTP requests sent: 0" in out and "replayed: 11" in out
    bench = json.loads((tmp_path / "bench.json").read_text())
    rows = {(k, r["metric"]): r for k, e in bench["kinds"].items() for r in e["rows"]}
    assert rows[("codegen", "code")]["pass@1"] == [0.5, 0.5, 0]
    assert rows[("codegen", "code")]["repair@2"] == [1.0, 1.0, 0]
    assert rows[("specgen", "precond_postcond")]["pass@1"][0] == 0.75
    assert "repair@2" in out and "example-model" in out
    assert f"make the report: veriscale report {tmp_path}/eval/codegen/pass" in out
