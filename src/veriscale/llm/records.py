"""Plain records passed between the client, the cache, the runner and the stages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["ChatRequest", "Message", "Response", "TokenUsage"]

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": "..."}


@dataclass(frozen=True, slots=True)
class TokenUsage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0  # prompt tokens the endpoint served from its own prefix cache

    def to_json(self) -> dict[str, int]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cached_prompt_tokens": self.cached_prompt_tokens,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any] | None) -> TokenUsage:
        d = d or {}
        return cls(
            int(d.get("prompt_tokens") or 0),
            int(d.get("completion_tokens") or 0),
            int(d.get("cached_prompt_tokens") or 0),
        )


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """One chat completion to obtain: a (prompt, sample, attempt) triple for one model.

    ``sample`` distinguishes the independent samples of one prompt and ``attempt``
    the re-asks after malformed output; both are part of the cache key, so a rerun
    replays exactly the same sequence of answers.
    """

    stage: str
    model: str
    messages: tuple[Message, ...]
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = None
    seed: int | None = None
    extra_body: tuple[tuple[str, Any], ...] = ()
    sample: int = 0
    attempt: int = 0
    template: str = ""  # "name@version#hash" of the prompt template, "" for ad-hoc prompts

    def sampling(self) -> dict[str, Any]:
        """The parameters that change the answer distribution (all part of the cache key)."""
        return {
            "temperature": self.temperature,
            "top_p": self.top_p,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
            "extra_body": dict(self.extra_body),
        }


@dataclass(slots=True)
class Response:
    """The outcome of one request: text on success, a reason on final failure.

    ``parsed``/``malformed`` are filled by the runner when the stage supplies an
    extractor; ``attempts`` counts re-asks, ``http_requests`` the HTTP calls made
    (retries included; 0 for a cache hit).
    """

    stage: str
    model: str
    sample: int
    text: str | None = None
    error: str | None = None
    finish_reason: str | None = None
    usage: TokenUsage = field(default_factory=TokenUsage)
    cached: bool = False
    http_requests: int = 0
    attempt: int = 0
    parsed: Any = None
    malformed: str | None = None  # why the final text could not be used
    malformed_count: int = 0  # malformed answers seen for this sample (re-asked ones included)
    notes: list[str] = field(default_factory=list)  # repairs made while extracting
    latency: float = 0.0

    @property
    def ok(self) -> bool:
        """A usable answer: the request succeeded and (when checked) the output parsed."""
        return self.error is None and self.malformed is None and self.text is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "model": self.model,
            "sample": self.sample,
            "attempt": self.attempt,
            "ok": self.ok,
            "text": self.text,
            "error": self.error,
            "malformed": self.malformed,
            "malformed_count": self.malformed_count,
            "notes": list(self.notes),
            "finish_reason": self.finish_reason,
            "usage": self.usage.to_json(),
            "cached": self.cached,
            "http_requests": self.http_requests,
        }
