"""``veriscale models ping`` / ``config`` against the local fake server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from llm_fake_server import FakeOpenAI, echo_auth, ok, status
from veriscale.cli.app import _load_commands, app

SECRET = "sk-cli-SECRET-77aa1b"


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI().start()
    yield server
    server.stop()


@pytest.fixture(scope="module", autouse=True)
def _commands() -> None:
    _load_commands()


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    runner = CliRunner()
    res = runner.invoke(
        app,
        list(args),
        env={"VERISCALE_MODEL": "", "VERISCALE_BASE_URL": "", "VERISCALE_LLM_CONFIG": "", **(env or {})},
    )
    return res.exit_code, res.stdout, res.stderr


def test_ping_success(fake: FakeOpenAI) -> None:
    fake.push(ok("pong", usage=(12, 1)))
    code, out, err = run(
        "models",
        "ping",
        "--base-url",
        fake.url,
        "--model",
        "tiny",
        "--api-key-env",
        "TEST_KEY",
        env={"TEST_KEY": SECRET},
    )
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ok: tiny at http://127.0.0.1:")
    assert '(13 tokens): "pong"' in lines[0]
    assert fake.requests[0]["headers"]["Authorization"] == f"Bearer {SECRET}"
    assert SECRET not in out + err


def test_ping_auth_failure_is_one_line_without_key(fake: FakeOpenAI) -> None:
    fake.push(echo_auth(401))
    code, out, err = run(
        "models",
        "ping",
        "--base-url",
        fake.url,
        "--model",
        "tiny",
        "--api-key-env",
        "TEST_KEY",
        env={"TEST_KEY": SECRET},
    )
    assert code == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: tiny at ") and "HTTP 401" in lines[0]
    assert SECRET not in err and "Traceback" not in err


def test_ping_server_error_and_retries(fake: FakeOpenAI) -> None:
    fake.push(status(503, "busy"))
    code, _out, err = run("models", "ping", "--base-url", fake.url, "--model", "tiny")
    assert code == 1 and "HTTP 503" in err and fake.count == 1  # no retries by default
    fake.push(status(503, "busy"), ok("pong"))
    code, out, _err = run("models", "ping", "--base-url", fake.url, "--model", "tiny", "--retries", "1")
    assert code == 0 and out.startswith("ok: ")


def test_ping_unreachable_and_missing_model() -> None:
    code, _out, err = run(
        "models", "ping", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--timeout", "2"
    )
    assert code == 1 and err.strip().startswith("error: m at http://127.0.0.1:9/v1: connection error")
    assert len(err.strip().splitlines()) == 1
    code, _out, err = run("models", "ping", "--base-url", "http://127.0.0.1:9/v1")
    assert code == 2 and "no model given" in err


def test_ping_bad_config_file(tmp_path: pytest.TempPathFactory) -> None:
    code, _out, err = run("models", "ping", "--config", "/nonexistent.toml")
    assert code == 2 and err.startswith("error: /nonexistent.toml: cannot read")


def test_config_shows_key_source_not_key() -> None:
    code, out, _err = run("models", "config", env={"VERISCALE_MODEL": "mm", "VERISCALE_API_KEY": SECRET})
    assert code == 0 and "model:     mm" in out and "$VERISCALE_API_KEY (set)" in out and SECRET not in out
    code, out, _err = run("models", "config", "--json", env={"VERISCALE_API_KEY": SECRET})
    assert code == 0 and SECRET not in out and '"configured": false' in out


def test_templates_listing() -> None:
    code, out, _err = run("models", "templates")
    assert code == 0 and "seed_inputs@v1#" in out and "adversarial_impl@v1#" in out
