"""Token and cost accounting per (stage, model), for the run summary.

Cache hits are counted but cost nothing: the tokens were paid for on the run
that stored them. Costs come from the config's price table (dollars per million
tokens); a model with no price shows its tokens and a blank cost.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, fields
from typing import Any

from rich.table import Table

from .config import Price
from .records import Response

__all__ = ["StageUsage", "UsageTracker", "cost_of"]


def cost_of(price: Price | None, prompt: int, completion: int, cached_prompt: int = 0) -> float | None:
    if price is None:
        return None
    cached_rate = price.cached_input if price.cached_input is not None else price.input
    fresh = max(prompt - cached_prompt, 0)
    return (fresh * price.input + cached_prompt * cached_rate + completion * price.output) / 1_000_000


@dataclass(slots=True)
class StageUsage:
    responses: int = 0  # answers delivered (fresh or cached, re-asks included)
    http_requests: int = 0  # HTTP calls made, retries included
    cache_hits: int = 0
    failures: int = 0  # requests that finally failed
    malformed: int = 0  # answers that could not be parsed
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    cost: float | None = 0.0

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


class UsageTracker:
    """Thread-safe accumulator. Prices are looked up per model via ``price_for``."""

    def __init__(self, price_for: Any = None) -> None:
        self._price_for = price_for or (lambda _m: None)
        self._rows: dict[tuple[str, str], StageUsage] = {}
        self._lock = threading.Lock()

    def _row(self, stage: str, model: str) -> StageUsage:
        key = (stage, model)
        row = self._rows.get(key)
        if row is None:
            row = self._rows[key] = StageUsage()
        return row

    def record(self, resp: Response, *, http_requests: int | None = None) -> None:
        """Account one request's outcome (call once per attempt, cached or not)."""
        with self._lock:
            row = self._row(resp.stage, resp.model)
            row.http_requests += resp.http_requests if http_requests is None else http_requests
            if resp.error is not None:
                row.failures += 1
                return
            row.responses += 1
            if resp.cached:
                row.cache_hits += 1
                return
            u = resp.usage
            row.prompt_tokens += u.prompt_tokens
            row.completion_tokens += u.completion_tokens
            row.cached_prompt_tokens += u.cached_prompt_tokens
            c = cost_of(
                self._price_for(resp.model), u.prompt_tokens, u.completion_tokens, u.cached_prompt_tokens
            )
            row.cost = None if c is None or row.cost is None else row.cost + c

    def record_malformed(self, stage: str, model: str, n: int = 1) -> None:
        with self._lock:
            self._row(stage, model).malformed += n

    def rows(self) -> list[tuple[str, str, StageUsage]]:
        with self._lock:
            return [(s, m, StageUsage(**self._rows[(s, m)].to_json())) for s, m in sorted(self._rows)]

    def total(self) -> StageUsage:
        tot = StageUsage()
        for _s, _m, r in self.rows():
            for f in fields(StageUsage):
                if f.name == "cost":
                    continue
                setattr(tot, f.name, getattr(tot, f.name) + getattr(r, f.name))
            tot.cost = None if r.cost is None or tot.cost is None else tot.cost + r.cost
        return tot

    def to_json(self) -> dict[str, Any]:
        return {
            "by_stage_model": [{"stage": s, "model": m, **r.to_json()} for s, m, r in self.rows()],
            "total": self.total().to_json(),
        }

    def table(self, title: str = "Model usage") -> Table:
        t = Table(title=title)
        for name, justify in (
            ("Stage", "left"),
            ("Model", "left"),
            ("Answers", "right"),
            ("Cached", "right"),
            ("HTTP", "right"),
            ("Failed", "right"),
            ("Malformed", "right"),
            ("Prompt tok", "right"),
            ("Completion tok", "right"),
            ("Cost $", "right"),
        ):
            t.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]

        def cells(r: StageUsage) -> list[str]:
            cost = "–" if r.cost is None else f"{r.cost:.4f}"
            return [
                str(r.responses),
                str(r.cache_hits),
                str(r.http_requests),
                str(r.failures),
                str(r.malformed),
                f"{r.prompt_tokens:,}",
                f"{r.completion_tokens:,}",
                cost,
            ]

        rows = self.rows()
        for s, m, r in rows:
            t.add_row(s, m, *cells(r))
        if len(rows) > 1:
            t.add_section()
            t.add_row("total", "", *cells(self.total()))
        return t
