"""The model-driven stages of a format's own suite builder (``scale --model`` on, e.g., VeriContest).

Generic: the builder's hook (``formats.suite_models``) says what to ask for a
task; this module asks it through ``ModelRunner`` — response cache (a rerun
sends no request), retries, usage accounting — and returns the raw answers
keyed by request name, for ``build`` to read. Nothing here knows what the
questions mean. Requests are asked together (``ask_many`` shares the runner's
pool); answers keep request order and sample order.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..formats.suite_models import ModelRequest, SuiteModelHooks

if TYPE_CHECKING:
    from ..llm.runner import ModelRunner

__all__ = ["add_model_totals", "ask_suite_models", "model_stage_summary"]


def ask_suite_models(
    hooks: SuiteModelHooks, task_dir: Path, settings: dict[str, Any], runner: ModelRunner
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, int]]:
    """({request name: [{"text", "error"} per sample]}, counts).

    Counts: ``questions`` (request × sample), ``answers``, ``failed`` (no answer at all),
    ``malformed`` (unusable answers seen, re-asked ones included), and from the runner's
    usage — re-asks included — ``responses``, ``cached`` (answers from the cache),
    ``http_requests`` (retries included), prompt and completion tokens."""
    from ..llm.extract import Extraction
    from ..llm.runner import Prompt

    def extractor(stage: str) -> Any:
        def extract(text: str) -> Extraction:
            why = hooks.answer_problem(stage, text)
            return Extraction.bad(why) if why else Extraction(text)

        return extract

    requests: list[ModelRequest] = hooks.model_requests(task_dir, settings)
    answers: dict[str, list[dict[str, Any]]] = {}
    tally = {"questions": 0, "answers": 0, "failed": 0, "malformed": 0}
    before = runner.usage.total()
    by_stage: dict[tuple[str, int], list[ModelRequest]] = {}
    for r in requests:  # one ask_many per (stage, samples): its sampling settings are the stage's
        by_stage.setdefault((r.stage, r.samples), []).append(r)
    for (stage, samples), group in by_stage.items():
        prompts = [Prompt(tuple(dict(m) for m in r.messages), f"{r.ident}|{r.name}") for r in group]
        got = runner.ask_many(stage, prompts, samples, extract=extractor(stage))
        for r, responses in zip(group, got):
            rows = []
            for resp in responses:
                tally["questions"] += 1
                tally["malformed"] += resp.malformed_count  # answers found unusable (re-asked ones too)
                if resp.error is not None or resp.text is None:
                    tally["failed"] += 1
                    rows.append({"text": None, "error": resp.error or "no answer"})
                else:
                    tally["answers"] += 1
                    rows.append({"text": resp.text, "error": None})
            answers[r.name] = rows
    after = runner.usage.total()
    for key, field in (("responses", "responses"), ("cached", "cache_hits"), ("http_requests", "http_requests"),
                       ("prompt_tokens", "prompt_tokens"), ("completion_tokens", "completion_tokens")):  # fmt: skip
        tally[key] = getattr(after, field) - getattr(before, field)
    return answers, tally


def add_model_totals(totals: dict[str, dict[str, float]], doc: dict[str, Any]) -> None:
    """Add a task's ``model_stages`` figures (``{stage: {name: number}}``, set by the builder) and
    its ``model_requests`` tally to ``totals``; non-numeric entries are ignored."""
    parts = dict(doc.get("model_stages") or {})
    if doc.get("model_requests"):
        parts["requests"] = doc["model_requests"]
    for stage, figures in parts.items():
        if not isinstance(figures, dict):
            continue
        acc = totals.setdefault(stage, {})
        for k, v in figures.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                acc[k] = acc.get(k, 0) + v


def model_stage_summary(
    hooks: SuiteModelHooks | None, with_model: bool, totals: dict[str, dict[str, float]]
) -> dict[str, Any]:
    """Per model-driven stage of the builder: the summed figures, or why it was skipped."""
    if hooks is None:
        return {}
    if not with_model:
        return {s: "skipped: no model configured (give --model)" for s in hooks.model_stages}
    out: dict[str, Any] = {s: dict(totals.get(s, {})) for s in hooks.model_stages}  # the builder's order
    if "requests" in totals:
        out["requests"] = dict(totals["requests"])
    return out
