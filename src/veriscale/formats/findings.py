"""What ``check-data`` finds in a dataset: values that do not decode, grouped by reason."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["CheckReport", "Failure", "FailureGroup"]

EXAMPLES_PER_GROUP = 3


@dataclass(frozen=True, slots=True)
class Failure:
    reason: str
    task: str
    file: str
    row: int | None
    field: str | None
    text: str
    detail: str | None = None


@dataclass(slots=True)
class FailureGroup:
    reason: str
    values: int = 0
    rows: int = 0
    examples: list[Failure] = field(default_factory=list)


@dataclass(slots=True)
class CheckReport:
    dataset: str
    path: str
    tasks: int = 0
    rows: int = 0
    values: int = 0
    failures: list[Failure] = field(default_factory=list)
    duplicate_rows: int = 0
    duplicate_inputs: int = 0
    conflicting_expected: int = 0
    rejects_also_tests: int = 0
    duplicate_examples: list[str] = field(default_factory=list)

    @property
    def failed_rows(self) -> int:
        return len({(f.task, f.file, f.row) for f in self.failures})

    def groups(self) -> list[FailureGroup]:
        """Failure groups, largest first (ties by reason, so the order is deterministic)."""
        by: dict[str, FailureGroup] = {}
        rows: dict[str, set[tuple[str, str, int | None]]] = {}
        for f in self.failures:
            g = by.setdefault(f.reason, FailureGroup(f.reason))
            g.values += 1
            rows.setdefault(f.reason, set()).add((f.task, f.file, f.row))
            if len(g.examples) < EXAMPLES_PER_GROUP:
                g.examples.append(f)
        for reason, g in by.items():
            g.rows = len(rows[reason])
        return sorted(by.values(), key=lambda g: (-g.values, g.reason))

    def to_json(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset,
            "path": self.path,
            "tasks": self.tasks,
            "rows": self.rows,
            "values": self.values,
            "failed_values": len(self.failures),
            "failed_rows": self.failed_rows,
            "groups": [
                {
                    "reason": g.reason,
                    "values": g.values,
                    "rows": g.rows,
                    "examples": [asdict(e) for e in g.examples],
                }
                for g in self.groups()
            ],
            "duplicate_rows": self.duplicate_rows,
            "duplicate_inputs": self.duplicate_inputs,
            "conflicting_expected": self.conflicting_expected,
            "rejects_also_tests": self.rejects_also_tests,
            "duplicate_examples": self.duplicate_examples,
        }
