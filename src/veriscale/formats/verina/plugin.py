"""The Verina format: one folder per task (task.json, task.lean with ``-- !benchmark``
sections, description.txt, test.json, reject_inputs.json), specifications in Lean."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..api import SuiteCounts
from ..findings import CheckReport
from .dataset import Task, discover_task_dirs, read_task, task_sort_key, write_task
from .generate import VERINA_GENERATION

__all__ = ["VERINA", "VerinaFormat"]


class VerinaFormat:
    name = "verina"
    language = "lean"
    description = "folders holding task.json + task.lean (Verina, VerinaPlus, VerinaLite)"
    generation = VERINA_GENERATION  # prompts and answer extraction for `veriscale generate`

    def detect(self, path: Path) -> bool:
        if (path / "task.json").is_file():
            return True
        try:
            return any((d / "task.json").is_file() for d in path.iterdir() if d.is_dir())
        except OSError:
            return False

    def task_dirs(self, root: Path) -> list[Path]:
        if (root / "task.json").is_file():
            return [root]
        return discover_task_dirs(root)

    def read_task(self, path: Path) -> Task:
        return read_task(path)

    def read_tasks(self, root: Path, only: Sequence[str] | None = None) -> list[Task]:
        dirs = self.task_dirs(root)
        if only:
            wanted = set(only)
            dirs = [d for d in dirs if d.name in wanted]
        return [read_task(d) for d in dirs]

    def sort_key(self, task_id: str) -> tuple[Any, ...]:
        return task_sort_key(task_id)

    def count_suite(self, task_dir: Path) -> SuiteCounts:
        from .counts import count_suite

        return count_suite(task_dir)

    def check_data(self, root: Path) -> CheckReport:
        from .check_data import check_dataset

        return check_dataset(root)

    def write_task(self, task: Task, path: Path) -> None:
        write_task(task, path)

    def expansion_unsupported(self) -> str | None:
        return None

    def suite_builder(self) -> None:
        return None  # the shared pipeline stages build Verina suites


VERINA = VerinaFormat()
