"""Chat-completions client on the official ``openai`` SDK, with our own retries and cache.

The SDK's built-in retries are switched off (``max_retries=0``) so the policy
here is the only one: exponential backoff with jitter on 429, 5xx, timeouts,
connection errors and malformed response bodies, honouring ``Retry-After``.
A request that still fails comes back as a ``Response`` with ``error`` set;
nothing is raised, so a batch always continues with the rest. The API key is
handed to the SDK and otherwise only used to scrub it from error messages.
"""

from __future__ import annotations

import logging
import random
import re
import threading
import time
from collections.abc import Callable, Mapping
from email.utils import parsedate_to_datetime
from typing import Any

import openai

from .cache import ResponseCache
from .config import LLMConfig
from .records import ChatRequest, Response, TokenUsage

__all__ = ["ChatClient", "FailureKind", "redact", "short_url"]

log = logging.getLogger("veriscale.llm")

_PLACEHOLDER_KEY = "sk-no-key-configured"  # local servers (vLLM, Ollama) accept any key


def redact(text: str, secret: str | None) -> str:
    """Remove the key (and bearer tokens generally) from text meant for logs or users."""
    if secret and len(secret) >= 4:
        text = text.replace(secret, "***")
    return re.sub(r"(?i)(bearer\s+)\S+", r"\1***", text)


def short_url(url: str | None) -> str:
    """The base URL without any user:password part, for messages."""
    if not url:
        return "the default OpenAI endpoint"
    return re.sub(r"//[^/@]*@", "//", url)


class FailureKind:
    TIMEOUT = "timeout"
    CONNECTION = "connection"
    RATE_LIMIT = "rate_limit"
    SERVER = "server_error"
    MALFORMED_BODY = "malformed_body"
    AUTH = "auth"
    NOT_FOUND = "not_found"
    CLIENT = "client_error"
    OTHER = "other"


class _Failure(Exception):
    def __init__(
        self, kind: str, reason: str, retryable: bool, retry_after: float | None = None, fatal: bool = False
    ) -> None:
        super().__init__(reason)
        self.kind, self.reason, self.retryable, self.retry_after, self.fatal = (
            kind,
            reason,
            retryable,
            retry_after,
            fatal,
        )


def _retry_after(headers: Mapping[str, str] | None) -> float | None:
    if not headers:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(float(ms) / 1000, 0.0)
        except ValueError:
            pass
    val = headers.get("retry-after")
    if not val:
        return None
    try:
        return max(float(val), 0.0)
    except ValueError:
        pass
    try:  # the HTTP-date form
        return max(parsedate_to_datetime(val).timestamp() - time.time(), 0.0)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _status_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
        if isinstance(err, str):
            return err
    text = getattr(exc.response, "text", "") or ""
    return text or str(exc.message)


def _classify(exc: BaseException, timeout: float) -> _Failure:
    if isinstance(exc, _Failure):
        return exc
    if isinstance(exc, openai.APITimeoutError):
        return _Failure(FailureKind.TIMEOUT, f"timeout: no answer within {timeout:g} s", True)
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        detail = f"{type(cause).__name__}: {cause}" if cause else str(exc)
        return _Failure(FailureKind.CONNECTION, f"connection error: {detail}", True)
    if isinstance(exc, openai.APIResponseValidationError):
        return _Failure(FailureKind.MALFORMED_BODY, f"malformed response body: {exc}", True)
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        msg = _status_message(exc)
        ra = _retry_after(exc.response.headers if exc.response is not None else None)
        if status == 429:
            return _Failure(FailureKind.RATE_LIMIT, f"HTTP 429 rate limited: {msg}", True, ra)
        if status >= 500 or status in (408, 409, 425):
            return _Failure(FailureKind.SERVER, f"HTTP {status} server error: {msg}", True, ra)
        if status in (401, 403):
            return _Failure(
                FailureKind.AUTH, f"HTTP {status} authentication failed: {msg}", False, fatal=True
            )
        if status == 404:
            # Wrong base URL or unknown model: later requests for this model would fail the same way.
            return _Failure(
                FailureKind.NOT_FOUND,
                f"HTTP 404 not found (check base URL and model): {msg}",
                False,
                fatal=True,
            )
        return _Failure(FailureKind.CLIENT, f"HTTP {status} request rejected: {msg}", False)
    if isinstance(exc, ValueError):  # JSON decoding of a 200 body inside the SDK
        return _Failure(
            FailureKind.MALFORMED_BODY, f"malformed response body: {type(exc).__name__}: {exc}", True
        )
    return _Failure(FailureKind.OTHER, f"unexpected error: {type(exc).__name__}: {exc}", False)


def _one_line(text: str, limit: int = 400) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _unpack(completion: Any) -> tuple[str, str | None, TokenUsage]:
    """Text, finish reason and usage of a completion, or a retryable malformed-body failure."""
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise _Failure(FailureKind.MALFORMED_BODY, "malformed response body: no choices", True)
    choice = choices[0]
    message = getattr(choice, "message", None)
    content = getattr(message, "content", None) if message is not None else None
    if content is not None and not isinstance(content, str):
        raise _Failure(
            FailureKind.MALFORMED_BODY, "malformed response body: message content is not text", True
        )
    finish = getattr(choice, "finish_reason", None)
    u = getattr(completion, "usage", None)
    details = getattr(u, "prompt_tokens_details", None)

    def _int(obj: Any, name: str) -> int:
        v = getattr(obj, name, 0) if obj is not None else 0
        return v if isinstance(v, int) else 0

    usage = TokenUsage(_int(u, "prompt_tokens"), _int(u, "completion_tokens"), _int(details, "cached_tokens"))
    return content or "", finish if isinstance(finish, str) else None, usage


class ChatClient:
    """Thread-safe: one instance may serve many worker threads."""

    def __init__(
        self,
        config: LLMConfig,
        *,
        cache: ResponseCache | None = None,
        env: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.config = config
        self.cache = cache if config.cache != "off" else None
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._rng_lock = threading.Lock()
        self._secret = config.resolve_api_key(env)
        self._fatal: str | None = None  # auth failure: nothing more is sent
        self._fatal_models: dict[str, str] = {}  # 404 per model: other models may still work
        self._sdk = openai.OpenAI(
            api_key=self._secret or _PLACEHOLDER_KEY,
            base_url=config.base_url,
            timeout=config.timeout,
            max_retries=0,  # our retry loop is the only one
        )

    # -- helpers ----------------------------------------------------------------------

    def _backoff(self, retry: int, retry_after: float | None) -> float:
        with self._rng_lock:
            jitter = self._rng.random()
        if retry_after is not None:
            # The server said when; wait at least that long, plus a little spread between workers.
            return min(retry_after, self.config.max_retry_after) * (1.0 + 0.1 * jitter)
        cap = min(self.config.backoff_max, self.config.backoff_base * (2**retry))
        return cap * (0.5 + 0.5 * jitter)

    def _params(self, req: ChatRequest) -> dict[str, Any]:
        params: dict[str, Any] = {"model": req.model, "messages": [dict(m) for m in req.messages]}
        if req.temperature is not None:
            params["temperature"] = req.temperature
        if req.top_p is not None:
            params["top_p"] = req.top_p
        if req.max_tokens is not None:
            params[self.config.max_tokens_param] = req.max_tokens
        if req.seed is not None:
            params["seed"] = req.seed
        if req.extra_body:
            params["extra_body"] = dict(req.extra_body)
        return params

    def _label(self, req: ChatRequest) -> str:
        return f"{req.stage}/{req.model} sample {req.sample}" + (
            f" attempt {req.attempt}" if req.attempt else ""
        )

    # -- public -------------------------------------------------------------------------

    @property
    def fatal_error(self) -> str | None:
        """Set after an authentication failure; later requests are not sent."""
        return self._fatal

    def _blocked(self, model: str) -> str | None:
        return self._fatal or self._fatal_models.get(model)

    def complete(self, req: ChatRequest) -> Response:
        """One answer for ``req``, from the cache or the endpoint. Never raises for API trouble."""
        resp = Response(stage=req.stage, model=req.model, sample=req.sample, attempt=req.attempt)
        if self.cache is not None and self.config.cache == "on":
            hit = self.cache.get(req)
            if hit is not None:
                resp.text, resp.finish_reason, resp.usage, resp.cached = (
                    hit.text,
                    hit.finish_reason,
                    hit.usage,
                    True,
                )
                return resp
        blocked = self._blocked(req.model)
        if blocked is not None:
            resp.error = f"not sent: an earlier request failed with {blocked}"
            return resp
        params = self._params(req)
        start = time.monotonic()
        for retry in range(self.config.max_retries + 1):
            resp.http_requests += 1
            try:
                completion = self._sdk.chat.completions.create(**params)
                text, finish, usage = _unpack(completion)
            except Exception as exc:
                fail = _classify(exc, self.config.timeout)
                reason = _one_line(redact(fail.reason, self._secret))
                if fail.fatal and fail.kind == FailureKind.AUTH:
                    self._fatal = reason
                elif fail.fatal:
                    self._fatal_models[req.model] = reason
                if not fail.retryable or retry >= self.config.max_retries:
                    resp.error = reason if retry == 0 else f"{reason} (after {retry + 1} attempts)"
                    resp.latency = time.monotonic() - start
                    log.warning("%s failed: %s", self._label(req), resp.error)
                    return resp
                delay = self._backoff(retry, fail.retry_after)
                log.warning(
                    "%s: %s; retry %d/%d in %.2f s",
                    self._label(req),
                    reason,
                    retry + 1,
                    self.config.max_retries,
                    delay,
                )
                self._sleep(delay)
                continue
            resp.text, resp.finish_reason, resp.usage = text, finish, usage
            resp.latency = time.monotonic() - start
            if self.cache is not None:
                self.cache.put(req, text, finish, usage)
            return resp
        raise AssertionError("unreachable: the retry loop always returns")  # pragma: no cover

    def close(self) -> None:
        self._sdk.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
