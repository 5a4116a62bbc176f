"""What the report reads from the suites themselves: task text, failing rows, provenance, sizes.

Suites are reached through ``formats.registry`` (the format is detected per suite folder), so
the report works for any format veriscale reads. What a task page shows of a task is read with
duck typing on the format's task object — ``description``, ``signature`` (a name, parameters
with ``name`` and ``type_str``/``type_text``, a return type text), ``tests`` (rows with
``input``/``expected``/``unexpected``) and ``reject_inputs`` — and is simply left out when a
format's task has no such attribute. Every read is cached per (suite, task) and a failure
becomes a message in ``problems`` (naming the folder), never an exception.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..formats.api import Format, FormatError
from ..formats.registry import detect_format

__all__ = ["SuiteReader", "natural_key", "signature_text"]

_WHERE = re.compile(r"^(test|reject) (\d+)(?:, unexpected (\d+))?")
_NUM = re.compile(r"(\d+)")


def natural_key(task_id: str) -> tuple[Any, ...]:
    """Digits compare as numbers ("basic_9" < "basic_10"): the order when no format is known."""
    return tuple(int(p) if p.isdigit() else p for p in _NUM.split(task_id))


def signature_text(sig: Any) -> str:
    """``name (p : T) … : R`` from a format's signature object; "" when it has no such shape."""
    name = getattr(sig, "name", None)
    params = getattr(sig, "params", None)
    if not isinstance(name, str) or params is None:
        return ""
    parts = [name]
    for p in params:
        t = getattr(p, "type_str", None) or getattr(p, "type_text", None) or "?"
        parts.append(f"({getattr(p, 'name', '?')} : {t})")
    ret = getattr(sig, "return_type_str", None) or getattr(sig, "ret_type_text", None)
    return " ".join(parts) + (f" : {ret}" if ret else "")


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class FailingRow:
    """The suite row a failing test names: input and expected output (or the unexpected output
    the test was about), as the suite stores them (JSON text)."""

    kind: str  # "test", "unexpected" or "reject"
    row: int
    input: str
    expected: str | None
    unexpected: str | None


class SuiteReader:
    """Lazy, cached access to one suite folder."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        self._format: Format | None = None
        self._format_tried = False
        self._dirs: dict[str, Path] | None = None
        self._tasks: dict[str, Any] = {}
        self._prov: dict[str, dict[str, Any] | None] = {}

    @property
    def format(self) -> Format | None:
        if not self._format_tried:
            self._format_tried = True
            try:
                self._format = detect_format(self.path)
            except FormatError as exc:
                self.problems.append(f"suite {self.path}: {exc}")
        return self._format

    def task_dirs(self) -> dict[str, Path]:
        """Task id (folder name) → folder, in the format's order."""
        if self._dirs is None:
            fmt = self.format
            try:
                dirs = fmt.task_dirs(self.path) if fmt is not None else []
            except (OSError, FormatError) as exc:
                self.problems.append(f"suite {self.path}: cannot list tasks: {exc}")
                dirs = []
            self._dirs = {d.name: d for d in dirs}
        return self._dirs

    def task(self, task_id: str) -> Any:
        """The format's task object, or None (reported once)."""
        if task_id not in self._tasks:
            fmt, d = self.format, self.task_dirs().get(task_id)
            task = None
            if fmt is not None and d is not None:
                try:
                    task = fmt.read_task(d)
                except (OSError, ValueError) as exc:  # FormatError and codec errors are ValueErrors
                    self.problems.append(f"{d}: cannot read task: {exc}")
            self._tasks[task_id] = task
        return self._tasks[task_id]

    def provenance(self, task_id: str) -> dict[str, Any] | None:
        """``provenance.json`` of a task of a suite built by ``scale``, else None."""
        if task_id not in self._prov:
            d = self.task_dirs().get(task_id) or self.path / task_id
            p = d / "provenance.json"
            data = None
            if p.is_file():
                try:
                    data = json.loads(p.read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                    self.problems.append(f"{p}: cannot read: {exc}")
                if data is not None and not isinstance(data, dict):
                    self.problems.append(f"{p}: not an object; provenance not shown")
                    data = None
            self._prov[task_id] = data
        return self._prov[task_id]

    def is_scale_suite(self, task_ids: Iterable[str]) -> bool:
        return any(self.provenance(t) is not None for t in task_ids)

    def failing_row(self, task_id: str, where: str) -> FailingRow | None:
        """The row ``where`` ("test 3", "test 3, unexpected 1", "reject 0") names, or None."""
        m = _WHERE.match(where or "")
        if m is None:
            return None
        task = self.task(task_id)
        if task is None:
            return None
        kind, row = m.group(1), int(m.group(2))
        if kind == "reject":
            rows = getattr(task, "reject_inputs", None) or []
            if row >= len(rows):
                return None
            return FailingRow("reject", row, _show(getattr(rows[row], "input", None)), None, None)
        rows = getattr(task, "tests", None) or []
        if row >= len(rows):
            return None
        t = rows[row]
        unexpected = None
        if m.group(3) is not None:
            unx = getattr(t, "unexpected", None) or []
            u = int(m.group(3))
            unexpected = _show(unx[u]) if u < len(unx) else None
        return FailingRow(
            "unexpected" if m.group(3) is not None else "test",
            row,
            _show(getattr(t, "input", None)),
            _show(getattr(t, "expected", None)),
            unexpected,
        )
