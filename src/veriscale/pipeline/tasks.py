"""Which tasks of a benchmark a pipeline run covers, in the benchmark format's order."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..formats.verina.dataset import discover_task_dirs

__all__ = ["select_task_dirs"]


def select_task_dirs(benchmark: Path | str, tasks: Sequence[str] | None = None) -> list[Path]:
    """Task directories of a benchmark in Verina order, restricted to ``tasks`` (unknown ids are an error)."""
    dirs = discover_task_dirs(benchmark)
    if not tasks:
        return dirs
    by_name = {d.name: d for d in dirs}
    unknown = [t for t in tasks if t not in by_name]
    if unknown:
        raise ValueError(f"unknown task id(s) in {benchmark}: {', '.join(unknown)}")
    wanted = set(tasks)
    return [d for d in dirs if d.name in wanted]
