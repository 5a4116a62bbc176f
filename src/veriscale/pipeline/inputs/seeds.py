"""Seed inputs of a task: its original test inputs and reject inputs, plus model-proposed candidates.

Originals come first, in file order (tests, then rejects), so an expanded suite
starts with the benchmark's own cases. Every value is decoded strictly for its
parameter type; what does not decode is dropped and counted by reason, never
repaired. Model candidates are validated the same way (exact parameter names,
strict decoding), and duplicates of earlier seeds are dropped by canonical key.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...formats.verina.dataset import Task
from ...values.codec import DecodeError
from ..config import SeedSettings
from .mutate import Candidate, input_key

if TYPE_CHECKING:
    from ...llm.runner import ModelRunner

__all__ = ["SeedReport", "collect_seeds", "llm_seeds", "original_seeds", "task_params"]

SEED_STAGE = "seed_inputs"


def task_params(task: Task) -> list[tuple[str, Any]]:
    return [(p.name, p.type) for p in task.signature.params]


@dataclass
class SeedReport:
    """Seeds in order, and what was dropped on the way (reason -> count)."""

    candidates: list[Candidate] = field(default_factory=list)
    excluded: Counter[str] = field(default_factory=Counter)
    duplicates: int = 0
    llm: dict[str, Any] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        c = Counter(x.origin for x in self.candidates)
        return {k: c.get(k, 0) for k in ("original", "reject", "llm-seed")}


def _add(report: SeedReport, seen: set[str], cand: Candidate) -> None:
    if cand.key in seen:
        report.duplicates += 1
        return
    seen.add(cand.key)
    report.candidates.append(cand)


def original_seeds(task: Task, report: SeedReport, seen: set[str]) -> None:
    """The task's test inputs, then its reject inputs, decoded strictly."""
    params = task_params(task)
    for origin, rows, fname in (
        ("original", [t.input for t in task.tests], task.files["test_file"]),
        ("reject", [r.input for r in task.reject_inputs], task.files["reject_inputs_file"]),
    ):
        for i, raw in enumerate(rows):
            try:
                values = task.decode_input(raw, file=fname, row=i)
            except DecodeError as err:
                report.excluded[f"undecodable {origin} input: {err.reason}"] += 1
                continue
            _add(report, seen, Candidate(values, input_key(params, values, task.structs), origin, index=i))


def _split(count: int, invalid_fraction: float) -> tuple[int, int]:
    # About a fifth aimed at violating the precondition, and at least two (the paper's prompt).
    invalid = min(count, max(2, round(count * invalid_fraction)))
    return count - invalid, invalid


def llm_seeds(
    task: Task, runner: ModelRunner, settings: SeedSettings, report: SeedReport, seen: set[str]
) -> None:
    """Ask the model for ``rounds`` × ``candidates_per_round`` candidates; keep the well-typed ones."""
    from ...llm.extract import extract_json_array
    from ...llm.fields import seed_fields

    stats = report.llm
    stats.update(requested=settings.rounds * settings.candidates_per_round, answers=0, items=0, valid=0)
    if settings.rounds <= 0:
        return
    fields = seed_fields(task, count=settings.candidates_per_round, example_limit=settings.example_limit)
    valid, invalid = _split(settings.candidates_per_round, settings.invalid_fraction)
    fields["valid_target"], fields["invalid_target"] = str(valid), str(invalid)
    prompt = runner.prompt(SEED_STAGE, **fields)
    responses = runner.ask(SEED_STAGE, prompt, n_samples=settings.rounds, extract=extract_json_array)
    params = task_params(task)
    names = [n for n, _ in params]
    for rnd, resp in enumerate(responses):
        if not resp.ok or not isinstance(resp.parsed, list):
            report.excluded["llm: no usable answer"] += 1
            stats.setdefault("errors", []).append(resp.error or resp.malformed or "no answer")
            continue
        stats["answers"] += 1
        for i, item in enumerate(resp.parsed):
            stats["items"] += 1
            inp = (
                item.get("input") if isinstance(item, dict) and isinstance(item.get("input"), dict) else item
            )
            if not isinstance(inp, dict):
                report.excluded["llm: not an input object"] += 1
                continue
            if sorted(inp) != sorted(names):
                report.excluded["llm: wrong parameter names"] += 1
                continue
            try:
                values = task.decode_input(inp, file=f"<{SEED_STAGE} answer {rnd}>", row=i)
            except DecodeError as err:
                report.excluded[f"llm: {err.reason}"] += 1
                continue
            stats["valid"] += 1
            cand = Candidate(values, input_key(params, values, task.structs), "llm-seed", index=i, round=rnd)
            _add(report, seen, cand)


def collect_seeds(
    task: Task, settings: SeedSettings, runner: ModelRunner | None = None, seen: set[str] | None = None
) -> SeedReport:
    """Originals and rejects always; model candidates when ``runner`` is given (and configured)."""
    report = SeedReport()
    seen = set() if seen is None else seen
    original_seeds(task, report, seen)
    if runner is not None and runner.configured:
        llm_seeds(task, runner, settings, report, seen)
    return report
