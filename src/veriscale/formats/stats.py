"""Test-suite volume statistics of datasets of any format (the layout of the VeriScale paper's Table 1).

Only counts are needed, so the raw JSON is read without decoding any value;
malformed rows are counted (and reported) rather than fatal, and a task whose
file cannot be read at all (bad JSON, not UTF-8, unreadable) is reported with
its reason and left out of the statistics while the other tasks are counted.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .api import Format, FormatError
from .registry import detect_format

__all__ = ["METRICS", "DatasetStats", "Metric", "TaskCounts", "dataset_stats", "multiplier"]

# (attribute, column title)
METRICS = (
    ("expected", "Expected Input-Output"),
    ("unexpected_outputs", "Unexpected Output"),
    ("unexpected_inputs", "Unexpected Input"),
)


@dataclass(frozen=True, slots=True)
class TaskCounts:
    task: str
    expected: int
    unexpected_outputs: int
    unexpected_inputs: int
    bad_rows: int = 0
    error: str = ""  # the task could not be read: left out of every metric


@dataclass(frozen=True, slots=True)
class Metric:
    """Per-task distribution of one count over a dataset."""

    total: int
    mean: float
    min: int
    max: int

    @staticmethod
    def of(values: list[int]) -> Metric:
        if not values:
            return Metric(0, 0.0, 0, 0)
        return Metric(sum(values), sum(values) / len(values), min(values), max(values))

    def cell(self) -> str:
        return f"{self.mean:.2f} ({self.min}–{self.max})"


@dataclass(slots=True)
class DatasetStats:
    name: str
    path: str
    tasks: list[TaskCounts] = field(default_factory=list)

    def metric(self, attr: str) -> Metric:
        return Metric.of([getattr(t, attr) for t in self.tasks if not t.error])

    @property
    def errors(self) -> dict[str, str]:
        """Unreadable tasks and why."""
        return {t.task: t.error for t in self.tasks if t.error}

    @property
    def bad_rows(self) -> int:
        return sum(t.bad_rows for t in self.tasks)

    def to_json(self, base: DatasetStats | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "path": self.path,
            "tasks": len(self.tasks) - len(self.errors),
        }
        for attr, _title in METRICS:
            m = self.metric(attr)
            out[attr] = {
                "total": m.total,
                "mean": m.mean,
                "min": m.min,
                "max": m.max,
                "multiplier": multiplier(self, base, attr) if base is not None else None,
            }
        out["bad_rows"] = self.bad_rows
        out["errors"] = self.errors
        return out


def multiplier(ds: DatasetStats, base: DatasetStats, attr: str) -> float | None:
    """Total size of ``ds`` relative to ``base`` for one metric (None when the base total is 0)."""
    b = base.metric(attr).total
    return ds.metric(attr).total / b if b else None


def dataset_stats(
    root: Path | str,
    name: str | None = None,
    *,
    only: Collection[str] | None = None,
    fmt: Format | None = None,
) -> DatasetStats:
    """Counts of every task directory (or of the tasks named in ``only``); ``fmt`` defaults to
    the format ``root`` is detected as."""
    r = Path(root)
    fmt = fmt or detect_format(r)
    stats = DatasetStats(name or r.resolve().name, str(r))
    for d in fmt.task_dirs(r):
        if only is None or d.name in only:
            try:
                c = fmt.count_suite(d)
            except FormatError as err:  # one bad task must not hide the others
                stats.tasks.append(TaskCounts(d.name, 0, 0, 0, error=str(err)))
                continue
            stats.tasks.append(
                TaskCounts(d.name, c.expected, c.unexpected_outputs, c.unexpected_inputs, c.bad_rows)
            )
    return stats
