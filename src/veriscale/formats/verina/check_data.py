"""``check-data`` for Verina datasets: decode every stored value strictly, find duplicates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...values.codec import DecodeError, key
from ..findings import EXAMPLES_PER_GROUP, CheckReport, Failure
from .dataset import DatasetError, Task, discover_task_dirs, read_task

__all__ = ["check_dataset", "check_task"]


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
