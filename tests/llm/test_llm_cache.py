"""The SQLite response cache: replay on rerun, key contents, bypass, concurrent writers."""

from __future__ import annotations

import multiprocessing
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from llm_fake_server import FakeOpenAI, cache_writer, ok
from veriscale.llm import ChatRequest, LLMConfig, ModelRunner, ResponseCache, TokenUsage, request_key
from veriscale.llm.extract import extract_json_array

ENV = {"VERISCALE_API_KEY": "sk-cache-test-key-123456"}
MSG = [{"role": "user", "content": "give me a JSON array"}]


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI().start()
    yield server
    server.stop()


def config(fake: FakeOpenAI, path: Path, **kw: object) -> LLMConfig:
    base: dict[str, object] = {
        "model": "m1",
        "base_url": fake.url,
        "cache_path": path,
        "max_retries": 0,
        "timeout": 2.0,
    }
    base.update(kw)
    return LLMConfig(**base)  # type: ignore[arg-type]


def test_rerun_is_served_from_cache(fake: FakeOpenAI, tmp_path: Path) -> None:
    fake.responder = lambda body: f"[{len(fake.requests)}]"
    path = tmp_path / "c.sqlite"
    with ModelRunner(config(fake, path), env=ENV) as r1:
        first = r1.ask("seed_inputs", MSG, n_samples=3)
    assert fake.count == 3 and not any(r.cached for r in first)
    with ModelRunner(config(fake, path), env=ENV) as r2:
        again = r2.ask("seed_inputs", MSG, n_samples=3)
        usage = r2.usage.to_json()["total"]
    assert fake.count == 3  # no new request
    assert all(r.cached and r.http_requests == 0 for r in again)
    assert [r.text for r in again] == [r.text for r in first]  # same answer for the same sample index
    assert usage["cache_hits"] == 3 and usage["http_requests"] == 0 and usage["prompt_tokens"] == 0


def test_reasks_replay_from_cache(fake: FakeOpenAI, tmp_path: Path) -> None:
    fake.push(ok("sorry, no JSON"), ok("still prose"), ok("[1, 2]"))
    path = tmp_path / "c.sqlite"
    with ModelRunner(config(fake, path, reask_malformed=2), env=ENV) as r1:
        [a] = r1.ask("seed_inputs", MSG, extract=extract_json_array)
    assert a.ok and a.parsed == [1, 2] and a.attempt == 2 and a.malformed_count == 2 and fake.count == 3
    with ModelRunner(config(fake, path, reask_malformed=2), env=ENV) as r2:
        [b] = r2.ask("seed_inputs", MSG, extract=extract_json_array)
        assert r2.usage.to_json()["total"]["malformed"] == 2
    assert b.parsed == [1, 2] and b.attempt == 2 and b.cached and fake.count == 3


def test_key_parts_change_the_key() -> None:
    base = ChatRequest(
        stage="s",
        model="m",
        messages=({"role": "user", "content": "x"},),
        temperature=0.5,
        template="t@v1#abc",
    )
    k = request_key(base)
    variants = [
        ChatRequest(stage="s", model="m2", messages=base.messages, temperature=0.5, template="t@v1#abc"),
        ChatRequest(
            stage="s",
            model="m",
            messages=({"role": "user", "content": "y"},),
            temperature=0.5,
            template="t@v1#abc",
        ),
        ChatRequest(stage="s", model="m", messages=base.messages, temperature=0.6, template="t@v1#abc"),
        ChatRequest(
            stage="s", model="m", messages=base.messages, temperature=0.5, template="t@v1#abc", sample=1
        ),
        ChatRequest(
            stage="s", model="m", messages=base.messages, temperature=0.5, template="t@v1#abc", attempt=1
        ),
        ChatRequest(stage="s", model="m", messages=base.messages, temperature=0.5, template="t@v2#abc"),
        ChatRequest(
            stage="s", model="m", messages=base.messages, temperature=0.5, template="t@v1#abc", max_tokens=10
        ),
    ]
    keys = {request_key(v) for v in variants}
    assert k not in keys and len(keys) == len(variants)
    # Stable across processes and runs: a fixed input gives a fixed digest.
    assert request_key(base) == k and len(k) == 64


def test_template_version_is_part_of_the_key(fake: FakeOpenAI, tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    with ModelRunner(config(fake, path), env=ENV) as runner:
        p = runner.prompt("decompose", description="Add two numbers.")
        runner.ask("decompose", p)
        runner.ask("decompose", p)
        assert fake.count == 1
        # The same messages under another template identity miss the cache.
        from veriscale.llm import Prompt

        runner.ask("decompose", Prompt(p.messages, p.template.replace("@v1", "@v2")))
        assert fake.count == 2
    assert p.template.startswith("decompose@v1#")


def test_no_cache_and_refresh(fake: FakeOpenAI, tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    with ModelRunner(config(fake, path), env=ENV) as r:
        r.ask("seed_inputs", MSG)
    assert fake.count == 1
    with ModelRunner(config(fake, path, cache="off"), env=ENV) as r:
        r.ask("seed_inputs", MSG)
        r.ask("seed_inputs", MSG)
    assert fake.count == 3  # bypassed both times
    fake.push(ok("fresh"))
    with ModelRunner(config(fake, path, cache="refresh"), env=ENV) as r:
        [a] = r.ask("seed_inputs", [{"role": "user", "content": "new"}])
    assert fake.count == 4 and not a.cached
    with ModelRunner(config(fake, path), env=ENV) as r:
        [b] = r.ask("seed_inputs", [{"role": "user", "content": "new"}])
    assert b.cached and b.text == "fresh" and fake.count == 4


def test_failures_are_not_cached(fake: FakeOpenAI, tmp_path: Path) -> None:
    from llm_fake_server import status

    fake.push(status(503))
    path = tmp_path / "c.sqlite"
    with ModelRunner(config(fake, path), env=ENV, sleep=lambda s: None) as r:
        [a] = r.ask("seed_inputs", MSG)
        [b] = r.ask("seed_inputs", MSG)
    assert a.error is not None and b.ok and not b.cached and fake.count == 2


def test_wal_mode(tmp_path: Path) -> None:
    c = ResponseCache(tmp_path / "c.sqlite")
    mode = sqlite3.connect(tmp_path / "c.sqlite").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode.lower() == "wal"
    c.close()


def _req(i: int, writer: int) -> ChatRequest:
    return ChatRequest(stage="s", model="m", messages=({"role": "user", "content": f"q{i}"},), sample=writer)


def test_concurrent_threads(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    with ThreadPoolExecutor(8) as pool:
        list(
            pool.map(
                lambda w: [cache.put(_req(i, w), f"{w}:{i}", None, TokenUsage()) for i in range(40)], range(8)
            )
        )
    assert len(cache) == 320
    hit = cache.get(_req(5, 3))
    assert hit is not None and hit.text == "3:5"
    cache.close()


def test_concurrent_processes(tmp_path: Path) -> None:
    path = str(tmp_path / "c.sqlite")
    ResponseCache(path).close()
    ctx = multiprocessing.get_context("spawn")  # fork while test threads run could inherit a held lock
    procs = [ctx.Process(target=cache_writer, args=(path, w, 60)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    assert all(p.exitcode == 0 for p in procs)
    cache = ResponseCache(path)
    assert len(cache) == 4 * 60 + 60
    hit = cache.get(_req(7, 2))
    assert hit is not None and hit.text == "w2-7" and hit.usage.completion_tokens == 2
    shared = cache.get(_req(7, 99))
    assert shared is not None and shared.text.startswith("shared-by-")  # first writer won, nothing corrupt
    cache.close()
