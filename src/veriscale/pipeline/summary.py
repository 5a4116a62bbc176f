"""End-of-stage summaries: figures computed from the result files, rendered as rich tables."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rich.table import Table

__all__ = ["InputsSummary", "excluded_table", "inputs_table", "summarize_inputs", "summarize_outputs"]


@dataclass
class InputsSummary:
    expected: dict[str, int] = field(default_factory=dict)  # task -> count
    unexpected: dict[str, int] = field(default_factory=dict)
    candidates: dict[str, int] = field(default_factory=dict)
    seeds: Counter[str] = field(default_factory=Counter)
    mutants: int = 0
    excluded: Counter[str] = field(default_factory=Counter)
    duplicates: int = 0
    original_mismatch: int = 0

    @property
    def tasks(self) -> int:
        return len(self.expected)

    def to_json(self) -> dict[str, Any]:
        exp = list(self.expected.values())
        unexp = list(self.unexpected.values())
        return {
            "tasks": self.tasks,
            "candidates": sum(self.candidates.values()),
            "seeds": dict(sorted(self.seeds.items())),
            "mutants": self.mutants,
            "expected": sum(exp),
            "unexpected": sum(unexp),
            "mean_expected": statistics.fmean(exp) if exp else 0.0,
            "mean_unexpected": statistics.fmean(unexp) if unexp else 0.0,
            "min_expected": min(exp, default=0),
            "max_expected": max(exp, default=0),
            "excluded": dict(sorted(self.excluded.items(), key=lambda kv: (-kv[1], kv[0]))),
            "duplicates": self.duplicates,
            "original_output_mismatch": self.original_mismatch,
        }


def summarize_inputs(docs: Iterable[dict[str, Any]]) -> InputsSummary:
    """Add up the ``counts`` of input-stage result documents."""
    s = InputsSummary()
    for doc in docs:
        c = doc["counts"]
        tid = doc["task_id"]
        s.expected[tid] = c["expected"]
        s.unexpected[tid] = c["unexpected"]
        s.candidates[tid] = c["candidates"]
        s.seeds.update(c["seeds"])
        s.mutants += c["mutants"]
        s.excluded.update(c["excluded"])
        s.duplicates += c["duplicates"]
        s.original_mismatch += c.get("original_output_mismatch", 0)
    return s


def inputs_table(
    s: InputsSummary,
    *,
    title: str = "input expansion",
    computed: int | None = None,
    resumed: int | None = None,
    failed: int | None = None,
    seconds: float | None = None,
) -> Table:
    j = s.to_json()
    table = Table(title=title)
    table.add_column("figure")
    table.add_column("value", justify="right")
    tasks = f"{j['tasks']}"
    if computed is not None:
        tasks += f" ({computed} computed, {resumed or 0} resumed, {failed or 0} failed)"
    table.add_row("tasks", tasks)
    seeds = j["seeds"]
    table.add_row(
        "seeds (original / reject / llm)",
        f"{seeds.get('original', 0)} / {seeds.get('reject', 0)} / {seeds.get('llm-seed', 0)}",
    )
    table.add_row("mutants", str(j["mutants"]))
    table.add_row("candidates", str(j["candidates"]))
    table.add_row("expected inputs (with outputs)", str(j["expected"]))
    table.add_row(
        "  per task: mean / min / max",
        f"{j['mean_expected']:.2f} / {j['min_expected']} / {j['max_expected']}",
    )
    table.add_row("unexpected inputs", str(j["unexpected"]))
    table.add_row("  per task: mean", f"{j['mean_unexpected']:.2f}")
    table.add_row("excluded", str(sum(s.excluded.values())))
    table.add_row("duplicates (canonical key)", str(j["duplicates"]))
    table.add_row(
        "original tests whose output differs from the stored one", str(j["original_output_mismatch"])
    )
    if seconds is not None:
        table.add_row("wall time", f"{seconds:.1f} s")
    return table


def excluded_table(s: InputsSummary, *, title: str = "excluded candidates by reason") -> Table:
    table = Table(title=title)
    table.add_column("reason")
    table.add_column("count", justify="right")
    for reason, n in sorted(s.excluded.items(), key=lambda kv: (-kv[1], kv[0])):
        table.add_row(reason, str(n))
    return table


def summarize_outputs(docs: list[dict[str, Any]]) -> dict[str, Any]:
    """Run-level figures: adversaries by origin, unexpected outputs per expected case, acceptance share."""
    by_origin: dict[str, int] = {}
    per_case: list[int] = []
    accepted = 0
    for d in docs:
        for k, v in d["counts"]["adversaries"].items():
            by_origin[k] = by_origin.get(k, 0) + v
        for row in d["expected"]:
            per_case.append(len(row["unexpected"]))
            accepted += sum(1 for u in row["unexpected"] if u["accepted_by"])
    total = sum(per_case)
    n = len(docs)
    return {
        "tasks": n,
        "adversaries_per_task": {k: round(v / n, 2) for k, v in sorted(by_origin.items())} if n else {},
        "expected": len(per_case),
        "unexpected": total,
        "unexpected_per_case_mean": round(total / len(per_case), 2) if per_case else 0.0,
        "unexpected_per_case_min": min(per_case, default=0),
        "unexpected_per_case_max": max(per_case, default=0),
        "accepted_share": round(accepted / total, 4) if total else 0.0,
    }
