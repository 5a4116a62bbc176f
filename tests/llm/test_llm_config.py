"""Loading the model configuration from files, environment and overrides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from veriscale.llm import ConfigError, LLMConfig, load_config


def test_defaults_are_unconfigured() -> None:
    c = load_config(env={})
    assert not c.configured and c.model is None and c.cache == "on"
    assert c.resolve_api_key({}) is None
    assert {"seed_inputs", "decompose", "spec_gen", "adversarial_impl"} <= set(c.stages)


def test_toml_file_with_llm_table(tmp_path: Path) -> None:
    p = tmp_path / "veriscale.toml"
    p.write_text(
        """
[llm]
model = "qwen3"
base_url = "http://localhost:8000/v1"
api_key_env = "MY_KEY"
concurrency = 3

[llm.stages.spec_gen]
models = ["a", "b"]
temperature = 0.1

[llm.prices."gpt-*"]
input = 1.25
output = 10
""",
        encoding="utf-8",
    )
    c = load_config(p, env={"MY_KEY": "sk-from-env-999", "VERISCALE_API_KEY": "other"})
    assert c.model == "qwen3" and c.concurrency == 3 and c.base_url == "http://localhost:8000/v1"
    assert c.models_for("spec_gen") == ["a", "b"] and c.models_for("decompose") == ["qwen3"]
    assert c.stage("spec_gen").temperature == 0.1 and c.stage("spec_gen").max_tokens == 4096  # default kept
    assert c.resolve_api_key({"MY_KEY": "sk-from-env-999", "VERISCALE_API_KEY": "other"}) == "sk-from-env-999"
    assert c.price_for("gpt-5") is not None and c.price_for("gpt-5").output == 10  # type: ignore[union-attr]
    assert c.key_status({"MY_KEY": "sk-from-env-999"}) == "$MY_KEY (set)"
    assert "sk-from-env" not in repr(c) and "sk-from-env" not in c.model_dump_json()


def test_json_file_and_env_precedence(tmp_path: Path) -> None:
    p = tmp_path / "llm.json"
    p.write_text(json.dumps({"model": "file-model", "timeout": 10}), encoding="utf-8")
    env = {"VERISCALE_MODEL": "env-model", "OPENAI_BASE_URL": "http://x/v1", "VERISCALE_NO_CACHE": "1"}
    c = load_config(p, env=env)
    assert c.model == "env-model" and c.timeout == 10 and c.base_url == "http://x/v1" and c.cache == "off"
    c2 = load_config(p, env=env, overrides={"model": "cli-model", "base_url": None})
    assert c2.model == "cli-model" and c2.base_url == "http://x/v1"
    c3 = load_config(env={"VERISCALE_LLM_CONFIG": str(p)})
    assert c3.model == "file-model"


def test_key_fallbacks() -> None:
    c = LLMConfig(model="m")
    assert c.resolve_api_key({"OPENAI_API_KEY": "k2"}) == "k2"
    assert c.resolve_api_key({"OPENAI_API_KEY": "k2", "VERISCALE_API_KEY": "k1"}) == "k1"
    assert c.key_status({}) == "$VERISCALE_API_KEY / $OPENAI_API_KEY (not set)"


@pytest.mark.parametrize(
    ("name", "text", "match"),
    [
        ("bad.toml", "model = [", "malformed config"),
        ("bad.json", '{"timeout": -1}', "timeout"),
        ("bad.json", '{"no_such_field": 1}', "no_such_field"),
        ("bad.ini", "x", "unknown config format"),
        ("list.json", "[1]", "top level"),
    ],
)
def test_bad_files_name_the_source(tmp_path: Path, name: str, text: str, match: str) -> None:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=match) as exc:
        load_config(p, env={})
    assert str(p) in str(exc.value)


def test_missing_file() -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config("/nonexistent/veriscale.toml", env={})
