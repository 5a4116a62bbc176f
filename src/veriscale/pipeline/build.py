"""The build stage: the Plus and Lite datasets of a run, from its finished reductions.

Only tasks whose reduction is done are written; the others are listed as missing.
Writing is idempotent: the same run gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..builders.suites import write_task_suites
from ..formats.verina.dataset import read_task
from ..runtime.files import atomic_write_json
from .reduce import STAGE as REDUCE_STAGE
from .rundir import RunDir
from .tasks import select_task_dirs

__all__ = ["BuildReport", "build_suites"]


@dataclass
class BuildReport:
    written: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # tasks without a finished reduction


def build_suites(
    benchmark: Path | str, rundir: RunDir, out: Path | str, *, tasks: Sequence[str] | None = None
) -> BuildReport:
    """Write ``out/plus`` and ``out/lite`` for every selected task whose reduction is done."""
    root = Path(out)
    report = BuildReport()
    done = rundir.ledger.done(REDUCE_STAGE)
    for d in select_task_dirs(benchmark, tasks):
        if d.name not in done or not rundir.result_path(REDUCE_STAGE, d.name).exists():
            report.missing.append(d.name)
            continue
        write_task_suites(read_task(d), rundir.read_result(REDUCE_STAGE, d.name), root, rundir.config.seed)
        report.written.append(d.name)
    atomic_write_json(
        root / "build.json", {"run": str(rundir.root), "written": report.written, "missing": report.missing}
    )
    return report
