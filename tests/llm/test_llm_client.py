"""The chat client against a local fake OpenAI-compatible server: retries, failures, secrecy."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from llm_fake_server import FakeOpenAI, echo_auth, hang, ok, raw, status
from veriscale.llm import ChatClient, ChatRequest, LLMConfig, ModelRunner, ResponseCache, redact

SECRET = "sk-test-SECRET-4f9a2c71d0"
ENV = {"VERISCALE_API_KEY": SECRET}


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI().start()
    yield server
    server.stop()


def make_config(fake: FakeOpenAI, **kw: object) -> LLMConfig:
    base: dict[str, object] = {
        "model": "test-model",
        "base_url": fake.url,
        "timeout": 2.0,
        "max_retries": 3,
        "backoff_base": 0.01,
        "backoff_max": 0.05,
        "cache": "off",
    }
    base.update(kw)
    return LLMConfig(**base)  # type: ignore[arg-type]


def req(text: str = "hello", **kw: object) -> ChatRequest:
    return ChatRequest(
        stage="seed_inputs", model="test-model", messages=({"role": "user", "content": text},), **kw
    )  # type: ignore[arg-type]


def test_success_sends_params_and_key(fake: FakeOpenAI) -> None:
    fake.push(ok("pong", usage=(7, 3)))
    with ChatClient(make_config(fake, seed=1), env=ENV) as client:
        r = client.complete(
            req(temperature=0.3, max_tokens=50, seed=11, extra_body=(("reasoning_effort", "low"),))
        )
    assert r.ok and r.text == "pong" and r.error is None
    assert (r.usage.prompt_tokens, r.usage.completion_tokens) == (7, 3)
    assert r.http_requests == 1 and fake.count == 1
    sent = fake.requests[0]
    assert sent["path"] == "/v1/chat/completions"
    assert sent["headers"]["Authorization"] == f"Bearer {SECRET}"
    body = sent["body"]
    assert body["model"] == "test-model" and body["temperature"] == 0.3
    assert body["max_tokens"] == 50 and body["seed"] == 11 and body["reasoning_effort"] == "low"


def test_max_completion_tokens_param(fake: FakeOpenAI) -> None:
    with ChatClient(make_config(fake, max_tokens_param="max_completion_tokens"), env=ENV) as client:
        assert client.complete(req(max_tokens=9)).ok
    assert fake.requests[0]["body"]["max_completion_tokens"] == 9
    assert "max_tokens" not in fake.requests[0]["body"]


def test_429_retry_after_is_honoured(fake: FakeOpenAI) -> None:
    fake.push(
        status(429, "slow down", {"Retry-After": "2"}),
        status(429, "slow down", {"retry-after-ms": "1500"}),
        ok("finally"),
    )
    sleeps: list[float] = []
    with ChatClient(make_config(fake), env=ENV, sleep=sleeps.append) as client:
        r = client.complete(req())
    assert r.ok and r.text == "finally"
    assert fake.count == 3 and r.http_requests == 3
    assert len(sleeps) == 2
    assert 2.0 <= sleeps[0] <= 2.2 and 1.5 <= sleeps[1] <= 1.65  # the server's delay, plus <=10% jitter


def test_5xx_backoff_is_exponential_with_jitter_and_capped(fake: FakeOpenAI) -> None:
    fake.push(status(500), status(502), status(503), ok("ok"))
    sleeps: list[float] = []
    cfg = make_config(fake, backoff_base=0.1, backoff_max=0.3)
    with ChatClient(cfg, env=ENV, sleep=sleeps.append) as client:
        r = client.complete(req())
    assert r.ok and fake.count == 4
    assert 0.05 <= sleeps[0] <= 0.1 and 0.1 <= sleeps[1] <= 0.2 and 0.15 <= sleeps[2] <= 0.3


def test_final_failure_is_recorded_with_reason(fake: FakeOpenAI) -> None:
    fake.push(*[status(503, "overloaded")] * 4)
    with ChatClient(make_config(fake), env=ENV, sleep=lambda s: None) as client:
        r = client.complete(req())
    assert not r.ok and r.text is None
    assert (
        r.error is not None and "HTTP 503" in r.error and "overloaded" in r.error and "4 attempts" in r.error
    )
    assert fake.count == 4  # one try + max_retries=3, and the SDK's own retries are off


def test_client_errors_are_not_retried(fake: FakeOpenAI) -> None:
    fake.push(status(400, "bad temperature"))
    with ChatClient(make_config(fake), env=ENV, sleep=lambda s: None) as client:
        r = client.complete(req())
        assert r.error is not None and r.error.startswith("HTTP 400") and "bad temperature" in r.error
        assert fake.count == 1
        assert client.fatal_error is None
        assert client.complete(req("next")).ok  # a 400 affects only its own request


def test_timeout_is_retried_and_server_exits_cleanly(fake: FakeOpenAI) -> None:
    fake.push(hang(30.0), ok("after timeout"))
    with ChatClient(make_config(fake, timeout=0.5), env=ENV, sleep=lambda s: None) as client:
        r = client.complete(req())
    assert r.ok and r.text == "after timeout"
    assert fake.count == 2
    # the retry came while the server still held the first request: the client gave up on it by
    # its own timeout, it did not wait for the (30 s late) answer
    assert [q["hanging"] for q in fake.requests] == [0, 1]


def test_timeout_final_failure(fake: FakeOpenAI) -> None:
    fake.push(hang(2.0), hang(2.0))
    with ChatClient(make_config(fake, timeout=0.5, max_retries=1), env=ENV, sleep=lambda s: None) as client:
        r = client.complete(req())
    assert r.error is not None and r.error.startswith("timeout") and "0.5 s" in r.error
    assert fake.count == 2


@pytest.mark.parametrize(
    "bad",
    [
        raw(b'{"id": "x", "choices": [{"index": 0, "mess'),  # truncated JSON, honest Content-Length
        raw(b'{"id": "x", "cho', content_length=400),  # connection closed before the announced length
        raw(b"<html>gateway error</html>"),
        raw(b'{"unexpected": true}'),  # JSON, but no choices
        raw(b"[]"),
    ],
    ids=["truncated-json", "short-body", "not-json", "no-choices", "json-list"],
)
def test_malformed_bodies_are_retried(fake: FakeOpenAI, bad: object) -> None:
    fake.push(bad, ok("good"))  # type: ignore[arg-type]
    with ChatClient(make_config(fake), env=ENV, sleep=lambda s: None) as client:
        r = client.complete(req())
    assert r.ok and r.text == "good" and fake.count == 2


def test_malformed_body_final_failure_reason(fake: FakeOpenAI) -> None:
    fake.push(raw(b"not json"), raw(b"not json"))
    with ChatClient(make_config(fake, max_retries=1), env=ENV, sleep=lambda s: None) as client:
        r = client.complete(req())
    assert r.error is not None and r.error.startswith("malformed response body")


def test_connection_refused_is_a_recorded_failure() -> None:
    cfg = LLMConfig(model="m", base_url="http://127.0.0.1:9/v1", max_retries=1, backoff_base=0.0, cache="off")
    with ChatClient(cfg, env=ENV, sleep=lambda s: None) as client:
        r = client.complete(req())
    assert r.error is not None and r.error.startswith("connection error") and r.http_requests == 2


def test_auth_failure_is_fatal_and_key_is_redacted(fake: FakeOpenAI) -> None:
    fake.push(echo_auth(401))
    with ChatClient(make_config(fake), env=ENV, sleep=lambda s: None) as client:
        first = client.complete(req())
        second = client.complete(req("other"))
    assert first.error is not None and "HTTP 401" in first.error
    assert SECRET not in first.error and "Bearer ***" in first.error
    assert second.error is not None and second.error.startswith("not sent")
    assert fake.count == 1  # the second request was never sent


def test_not_found_blocks_only_that_model(fake: FakeOpenAI) -> None:
    fake.push(status(404, "model gone"))
    with ChatClient(make_config(fake), env=ENV, sleep=lambda s: None) as client:
        a = client.complete(req())
        b = client.complete(req("again"))
        other = client.complete(
            ChatRequest(stage="spec_gen", model="other-model", messages=({"role": "user", "content": "x"},))
        )
    assert a.error is not None and "HTTP 404" in a.error and "model gone" in a.error
    assert b.error is not None and b.error.startswith("not sent") and other.ok
    assert fake.count == 2


def test_batch_continues_past_failures(fake: FakeOpenAI) -> None:
    # Sample 1 always fails; the others succeed. Requests are served in arrival order, so route by content.
    def responder(body: dict[str, object]) -> str:
        return "fine"

    fake.responder = responder
    fake.push(status(400, "rejected"))  # whichever request arrives first is rejected for good
    cfg = make_config(fake, concurrency=4)
    with ModelRunner(cfg, cache=None, env=ENV, sleep=lambda s: None) as runner:
        out = runner.ask("seed_inputs", [{"role": "user", "content": "x"}], n_samples=6)
    assert [r.sample for r in out] == list(range(6))
    assert sum(r.ok for r in out) == 5
    failed = [r for r in out if not r.ok]
    assert len(failed) == 1 and failed[0].error is not None and "rejected" in failed[0].error
    assert fake.count == 6


def test_concurrency_is_bounded(fake: FakeOpenAI) -> None:
    import threading

    active = 0
    peak = 0
    lock = threading.Lock()

    def responder(body: dict[str, object]) -> str:
        nonlocal active, peak
        with lock:
            active += 1
            peak = max(peak, active)
        time.sleep(0.05)
        with lock:
            active -= 1
        return "ok"

    fake.responder = responder
    with ModelRunner(make_config(fake, concurrency=3), cache=None, env=ENV) as runner:
        out = runner.ask("seed_inputs", [{"role": "user", "content": "x"}], n_samples=12)
    assert all(r.ok for r in out) and fake.count == 12
    assert 2 <= peak <= 3


def test_key_never_in_logs_outputs_or_cache(
    fake: FakeOpenAI, tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)  # the SDK and httpx log at DEBUG too
    fake.push(
        status(429, "wait", {"Retry-After": "0"}), echo_auth(500), raw(b"oops"), ok("answer"), echo_auth(401)
    )
    cache_path = tmp_path / "cache.sqlite"
    cfg = make_config(fake, cache="on", cache_path=cache_path, max_retries=4)
    with ModelRunner(cfg, env=ENV, sleep=lambda s: None) as runner:
        good = runner.ask("seed_inputs", [{"role": "user", "content": "q1"}])
        bad = runner.ask("seed_inputs", [{"role": "user", "content": "q2"}])
        summary = runner.usage.to_json()
    assert good[0].ok and bad[0].error is not None
    everything = "\n".join(
        [
            caplog.text,
            "\n".join(r.getMessage() for r in caplog.records),
            repr(good),
            repr(bad),
            str(summary),
            repr(cfg),
            cfg.model_dump_json(),
            "\n".join(str(r.to_json()) for r in good + bad),
        ]
    )
    out = capsys.readouterr()
    assert any("retry" in r.getMessage() for r in caplog.records)  # logging did happen
    assert SECRET not in everything and SECRET not in out.out and SECRET not in out.err
    for f in tmp_path.iterdir():  # the database and its WAL/SHM files
        assert SECRET.encode() not in f.read_bytes(), f.name
    assert ResponseCache(cache_path).stats()["entries"] == 1


def test_redact() -> None:
    assert redact(f"key {SECRET} and Bearer abc.def", SECRET) == "key *** and Bearer ***"
    assert redact("nothing", None) == "nothing"
