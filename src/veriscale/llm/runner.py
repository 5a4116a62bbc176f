"""The API stages use: ``ask(stage, messages, n_samples) -> list[Response]``.

The runner turns a prompt into per-sample requests with the stage's sampling
settings, runs them on a bounded thread pool, extracts structured output with
the stage's extractor, re-asks (as a new attempt, a distinct cache entry) when
the answer is malformed, and accounts usage. It never raises for model
trouble: failures and malformed answers come back as ``Response`` records.
"""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from .cache import ResponseCache
from .client import ChatClient
from .config import LLMConfig
from .extract import Extraction
from .offline import skip_notice
from .records import ChatRequest, Message, Response
from .templates import get_template
from .usage import UsageTracker

__all__ = ["Extractor", "ModelRunner", "Prompt", "runner_from_json"]

log = logging.getLogger("veriscale.llm")

Extractor = Callable[[str], Extraction]


@dataclass(frozen=True, slots=True)
class Prompt:
    """Rendered messages plus the identity of the template they came from (for the cache key)."""

    messages: tuple[Message, ...]
    template: str = ""


def _as_prompt(p: Prompt | Sequence[Message]) -> Prompt:
    if isinstance(p, Prompt):
        return p
    return Prompt(tuple(dict(m) for m in p))


class ModelRunner:
    def __init__(
        self,
        config: LLMConfig,
        *,
        cache: ResponseCache | Literal["auto"] | None = "auto",
        usage: UsageTracker | None = None,
        env: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
        template_dir: Path | str | None = None,
    ) -> None:
        self.config = config
        self.usage = usage or UsageTracker(config.price_for)
        self.template_dir = template_dir
        self._own_cache = False
        if cache == "auto":
            cache = self._open_cache()
            self._own_cache = cache is not None
        self.cache = cache if isinstance(cache, ResponseCache) else None
        self._client_args = {"env": env, "sleep": sleep, "rng": rng}
        self._client: ChatClient | None = None
        self._pool: ThreadPoolExecutor | None = None

    def _open_cache(self) -> ResponseCache | None:
        if self.config.cache == "off" or not self.config.configured:
            return None
        path = self.config.resolved_cache_path()
        try:
            return ResponseCache(path)
        except Exception as exc:  # an unwritable cache must not stop a run
            log.warning("response cache %s unavailable (%s); continuing without a cache", path, exc)
            return None

    @property
    def configured(self) -> bool:
        return self.config.configured

    @property
    def client(self) -> ChatClient:
        if self._client is None:
            self._client = ChatClient(self.config, cache=self.cache, **self._client_args)  # type: ignore[arg-type]
        return self._client

    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(
                max_workers=self.config.concurrency, thread_name_prefix="veriscale-llm"
            )
        return self._pool

    # -- prompts ---------------------------------------------------------------------------

    def prompt(self, template: str, **fields: Any) -> Prompt:
        """Render the packaged (or overriding) template ``template`` with ``fields``."""
        tpl = get_template(template, self.template_dir)
        return Prompt(tuple(tpl.render(**fields)), tpl.ident)

    # -- asking ----------------------------------------------------------------------------

    def _request(self, stage: str, model: str, prompt: Prompt, sample: int, attempt: int) -> ChatRequest:
        st = self.config.stage(stage)
        seed = None if self.config.seed is None else self.config.seed + sample + 7919 * attempt
        return ChatRequest(
            stage=stage,
            model=model,
            messages=prompt.messages,
            temperature=st.temperature,
            top_p=st.top_p,
            max_tokens=st.max_tokens,
            seed=seed,
            extra_body=tuple(sorted(st.extra_body.items())),
            sample=sample,
            attempt=attempt,
            template=prompt.template,
        )

    def _one(
        self,
        client: ChatClient,
        stage: str,
        model: str,
        prompt: Prompt,
        sample: int,
        extract: Extractor | None,
    ) -> Response:
        malformed = 0
        resp: Response | None = None
        for attempt in range(self.config.reask_malformed + 1):
            resp = client.complete(self._request(stage, model, prompt, sample, attempt))
            self.usage.record(resp)
            if resp.error is not None or extract is None:
                break
            try:
                ex = extract(resp.text or "")
            except Exception as exc:  # a buggy extractor must not kill the batch
                ex = Extraction.bad(f"extractor raised {type(exc).__name__}: {exc}")
            if not ex.malformed:
                resp.parsed, resp.notes, resp.malformed = ex.items, list(ex.notes), None
                break
            malformed += 1
            self.usage.record_malformed(stage, model)
            reason = ex.reason or "malformed output"
            if resp.finish_reason == "length":
                reason += " (the answer was cut off at max_tokens)"
            resp.malformed, resp.notes = reason, list(ex.notes)
            log.info(
                "%s/%s sample %d attempt %d: malformed output: %s", stage, model, sample, attempt, reason
            )
        assert resp is not None
        resp.malformed_count = malformed
        return resp

    def _offline(self, stage: str, model: str, n: int) -> list[Response]:
        reason = skip_notice([stage])
        return [Response(stage=stage, model=model, sample=i, error=reason) for i in range(n)]

    def ask_many(
        self,
        stage: str,
        prompts: Sequence[Prompt | Sequence[Message]],
        n_samples: int | None = None,
        *,
        extract: Extractor | None = None,
        model: str | None = None,
    ) -> list[list[Response]]:
        """Answers for many prompts at once (all samples of all prompts share the pool), in order."""
        n = n_samples if n_samples is not None else self.config.stage(stage).samples
        mdl = model or self.config.model_for(stage) or ""
        if not self.configured or not mdl:
            return [self._offline(stage, mdl, n) for _ in prompts]
        ps = [_as_prompt(p) for p in prompts]
        client = self.client  # created here, not lazily inside the workers
        pool = self._executor()
        futures = [[pool.submit(self._one, client, stage, mdl, p, i, extract) for i in range(n)] for p in ps]
        return [[f.result() for f in row] for row in futures]

    def ask(
        self,
        stage: str,
        messages: Prompt | Sequence[Message],
        n_samples: int | None = None,
        *,
        extract: Extractor | None = None,
        model: str | None = None,
    ) -> list[Response]:
        """``n_samples`` answers (default: the stage's ``samples``) to one prompt, in sample order."""
        return self.ask_many(stage, [messages], n_samples, extract=extract, model=model)[0]

    # -- lifecycle ---------------------------------------------------------------------------

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._client is not None:
            self._client.close()
            self._client = None
        if self.cache is not None and self._own_cache:
            self.cache.close()

    def __enter__(self) -> ModelRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def runner_from_json(config: Mapping[str, Any] | None) -> Iterator[ModelRunner | None]:
    """A runner for a model config shipped to a worker as JSON (None: offline, yields None)."""
    if config is None:
        yield None
        return
    with ModelRunner(LLMConfig(**config)) as runner:
        yield runner
