"""Strict validation of every value in a Verina-format dataset.

Each input parameter, expected output, unexpected output and reject input is
decoded on its own, so one row can contribute several failures. Failures are
grouped by the codec's ``reason``. Also reported: rows that are exact
duplicates of an earlier row of the same file, inputs that repeat an earlier
input once decoded (canonical key), and reject inputs that are also test inputs.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..values.codec import DecodeError, key
from .verina.dataset import DatasetError, Task, discover_task_dirs, read_task

__all__ = ["CheckReport", "Failure", "FailureGroup", "check_dataset", "check_task"]

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


def _shown(raw: Any) -> str:
    return raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False)


def _record(report: CheckReport, err: DecodeError, task: str, file: str) -> None:
    report.failures.append(Failure(err.reason, task, file, err.row, err.field, _shown(err.text), err.detail))


def _input_key(task: Task, raw: dict[str, Any], file: str, row: int, report: CheckReport) -> str | None:
    """Decode each parameter on its own (recording failures); the canonical input key if all decode."""
    ok = True
    parts: list[str] = []
    for name in sorted(set(raw) - {p.name for p in task.signature.params}):
        report.values += 1
        err = DecodeError("unknown input parameter", row=row, field=f"input.{name}", text=raw[name])
        _record(report, err, task.id, file)
        ok = False
    for p in task.signature.params:
        report.values += 1
        try:
            if p.name not in raw:
                raise DecodeError("missing input parameter", row=row, field=f"input.{p.name}")
            value = task.decode_param(p.name, raw[p.name], file=file, row=row)
        except DecodeError as err:
            _record(report, err, task.id, file)
            ok = False
            continue
        parts.append(key(p.type, value, structs=task.structs))
    return "\n".join(parts) if ok else None


def _output_key(task: Task, raw: Any, file: str, row: int, fld: str, report: CheckReport) -> str | None:
    report.values += 1
    try:
        value = task.decode_output(raw, file=file, row=row, field=fld)
    except DecodeError as err:
        _record(report, err, task.id, file)
        return None
    return key(task.signature.return_type, value, structs=task.structs)


def _row_text(row: dict[str, Any]) -> str:
    return json.dumps(row, sort_keys=True, ensure_ascii=False)


def check_task(task: Task, report: CheckReport) -> None:
    """Decode every value of one task into ``report``."""
    test_file = task.files["test_file"]
    rej_file = task.files["reject_inputs_file"]
    seen_rows: dict[str, int] = {}
    seen_inputs: dict[str, tuple[int, str | None]] = {}
    for i, tc in enumerate(task.tests):
        report.rows += 1
        text = _row_text(tc.to_json())
        if text in seen_rows:
            report.duplicate_rows += 1
            if len(report.duplicate_examples) < EXAMPLES_PER_GROUP:
                report.duplicate_examples.append(
                    f"{task.id}/{test_file} row {i} repeats row {seen_rows[text]}"
                )
        else:
            seen_rows[text] = i
        ikey = _input_key(task, tc.input, test_file, i, report)
        ekey = _output_key(task, tc.expected, test_file, i, "expected", report)
        for j, u in enumerate(tc.unexpected or []):
            _output_key(task, u, test_file, i, f"unexpected[{j}]", report)
        if ikey is None:
            continue
        if ikey in seen_inputs:
            report.duplicate_inputs += 1
            first_expected = seen_inputs[ikey][1]
            if ekey is not None and first_expected is not None and ekey != first_expected:
                report.conflicting_expected += 1
        else:
            seen_inputs[ikey] = (i, ekey)
    seen_rej: set[str] = set()
    for i, rj in enumerate(task.reject_inputs):
        report.rows += 1
        text = _row_text(rj.to_json())
        if text in seen_rej:
            report.duplicate_rows += 1
        seen_rej.add(text)
        ikey = _input_key(task, rj.input, rej_file, i, report)
        if ikey is not None and ikey in seen_inputs:
            report.rejects_also_tests += 1


def check_dataset(root: Path | str) -> CheckReport:
    """Check every task of a dataset; a task that cannot be read at all is one failure ("unreadable task")."""
    r = Path(root)
    report = CheckReport(r.resolve().name, str(r))
    for d in discover_task_dirs(r):
        report.tasks += 1
        try:
            task = read_task(d)
        except DatasetError as err:
            file = Path(err.file).name if err.file else "?"
            report.failures.append(Failure("unreadable task", d.name, file, err.row, err.field, "", err.msg))
            continue
        check_task(task, report)
    return report
