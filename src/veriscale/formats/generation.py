"""The generation hook a format plug-in may offer (``veriscale generate``).

A format that can be generated for sets ``generation`` on its plug-in object to
an object with this interface; ``generation_hooks(fmt)`` returns it or raises a
``FormatError`` saying the format offers none. The hook owns everything that is
benchmark-specific about asking a model: the task kinds and their prompts (the
benchmark harness's own structure), the repair prompt, and answer extraction
into the generations-JSONL line that ``veriscale evaluate`` reads. The driver
(``pipeline/generate.py``) only schedules requests and writes files.

Prompts are plain chat messages (``{"role", "content"}`` dicts); ``prompt_ident``
names the prompt version (it goes into the response-cache key), so editing a
prompt makes old cached answers unreachable.

Shared helpers here: fenced-block parsing and the extraction categories, so the
plug-ins report failures with the same names.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .api import Format, FormatError

__all__ = [
    "CATEGORIES",
    "HUGE_ANSWER",
    "Extracted",
    "GenerationHooks",
    "fenced_blocks",
    "generation_hooks",
    "pick_block",
    "prompt_digest",
]

# Extraction failure categories, in the order they are decided (docs/evaluate.md).
CATEGORIES: tuple[str, ...] = (
    "empty",
    "huge_output",
    "unclosed_fence",
    "no_program",
    "wrong_name",
    "parse_error",
    "forbidden_construct",
)
HUGE_ANSWER = 200_000  # characters; a longer answer is not searched


@dataclass
class Extracted:
    """The artefact fields of one answer, or the category and reason it could not be read."""

    fields: dict[str, Any] = field(default_factory=dict)
    error: str | None = None  # one of CATEGORIES
    message: str | None = None

    @classmethod
    def fail(cls, category: str, message: str) -> Extracted:
        assert category in CATEGORIES, category
        return cls({}, category, message)

    @property
    def ok(self) -> bool:
        return self.error is None


class GenerationHooks(Protocol):
    kinds: tuple[str, ...]  # the task kinds the benchmark defines, in its order

    def prompt_ident(self, kind: str) -> str:
        """Name and version of the prompt of ``kind`` (changes whenever its text changes)."""
        ...

    def fewshot(self, tasks: Sequence[Any], kind: str) -> list[Any]:
        """The example tasks shown in prompts of ``kind``, chosen from ``tasks`` (may be empty)."""
        ...

    def prompt(self, task: Any, kind: str, examples: Sequence[Any]) -> list[dict[str, str]]:
        """The chat messages asking for ``kind`` on ``task``; ``task`` itself is never its own example."""
        ...

    def repair_prompt(
        self, task: Any, kind: str, examples: Sequence[Any], previous: str, feedback: str
    ) -> list[dict[str, str]]:
        """The messages of a repair round: the first prompt, the previous answer, the feedback."""
        ...

    def extract(self, task: Any, kind: str, answer: str) -> Extracted:
        """The artefact of an answer; never raises (a failure is an ``Extracted`` with a category)."""
        ...

    def line(
        self, task: Any, kind: str, sample: int, model: str, ex: Extracted, meta: dict[str, Any]
    ) -> dict[str, Any]:
        """The generations-JSONL object of one sample (docs/evaluate.md)."""
        ...


def generation_hooks(fmt: Format) -> GenerationHooks:
    hooks = getattr(fmt, "generation", None)
    if hooks is None:
        raise FormatError(f"format {fmt.name!r} offers no prompts for `generate`")
    return hooks  # type: ignore[no-any-return]


def prompt_digest(*parts: str) -> str:
    """A short digest of prompt texts, for ``prompt_ident``."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:12]


_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+.#-]*)[^\n]*$", re.MULTILINE)


def fenced_blocks(text: str) -> list[tuple[str, str, bool]]:
    """(language, body, closed) of each fenced block in order; an unclosed last fence runs to the end.

    A fence closes at the next line holding only the same fence character, at
    least as many times (CommonMark's rule), so a body may contain shorter fences.
    """
    out: list[tuple[str, str, bool]] = []
    pos = 0
    while True:
        m = _FENCE.search(text, pos)
        if not m:
            return out
        fence, lang = m.group(1), m.group(2).lower()
        body_start = min(m.end() + 1, len(text))
        close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.MULTILINE)
        c = close.search(text, body_start)
        if c is None:
            out.append((lang, text[body_start:], False))
            return out
        out.append((lang, text[body_start : c.start()].rstrip("\n"), True))
        pos = c.end()


def pick_block(answer: str, langs: Sequence[str]) -> tuple[str | None, Extracted | None]:
    """The answer's program text: the last closed block in one of ``langs``, else the last closed block.

    Returns ``(text, None)`` or ``(None, failure)``. The last block wins because
    answers often quote their input before giving the program. An answer without
    any fence is taken whole when ``looks_like_code`` (decided by the caller from
    the text) — here only the fence structure is judged: no fence at all gives
    ``(answer, None)`` so the caller can judge the bare text.
    """
    if not answer or not answer.strip():
        return None, Extracted.fail("empty", "the answer is empty")
    if len(answer) > HUGE_ANSWER:
        return None, Extracted.fail(
            "huge_output", f"the answer has {len(answer):,} characters (limit {HUGE_ANSWER:,})"
        )
    blocks = fenced_blocks(answer)
    if not blocks:
        return answer.strip(), None
    if not blocks[-1][2]:
        # Usually an answer cut off at max_tokens: an earlier closed block is not the program.
        return None, Extracted.fail("unclosed_fence", "the last code fence is opened and never closed")
    closed = [(lang, body) for lang, body, c in blocks if c]
    wanted = [body for lang, body in closed if lang in langs]
    body = wanted[-1] if wanted else closed[-1][1]
    if not body.strip():
        return None, Extracted.fail("empty", "the code block is empty")
    return body, None
