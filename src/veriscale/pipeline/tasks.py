"""Which tasks of a benchmark a pipeline run covers, in the benchmark format's order."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..formats.verina.dataset import discover_task_dirs

__all__ = ["select_task_dirs"]


def _task_dirs(benchmark: Path | str) -> list[Path]:
    """The benchmark format's task folders (Verina's discovery when no format recognises it)."""
    from ..formats.api import FormatError
    from ..formats.registry import detect_format

    try:
        fmt = detect_format(Path(benchmark))
    except FormatError:
        return discover_task_dirs(benchmark)
    return fmt.task_dirs(Path(benchmark))


def select_task_dirs(benchmark: Path | str, tasks: Sequence[str] | None = None) -> list[Path]:
    """Task directories of a benchmark in Verina order, restricted to ``tasks`` (unknown ids are an error)."""
    dirs = _task_dirs(benchmark)
    if not tasks:
        return dirs
    by_name = {d.name: d for d in dirs}
    unknown = [t for t in tasks if t not in by_name]
    if unknown:
        raise ValueError(f"unknown task id(s) in {benchmark}: {', '.join(unknown)}")
    wanted = set(tasks)
    return [d for d in dirs if d.name in wanted]
