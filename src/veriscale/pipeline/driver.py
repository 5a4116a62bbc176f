"""The stage driver: one way every pipeline stage selects, resumes, runs and records tasks.

A stage is a ``Stage``: its name, a worker entry point that turns one job into a
``TaskOutput`` (and writes nothing), how to summarise a result for the ledger, and
the stages whose results a task needs first. ``run_stage`` then

1. lists the selected tasks in the benchmark's order and splits them with
   ``RunDir.pending`` into those still to do and those already finished (reused);
2. records as failed, with the stage's message, every task to do whose required
   stages have no finished result;
3. marks the rest running and hands their jobs to the executor (in ``order`` if given:
   results never depend on the order, only the wall-clock time does);
4. writes each result atomically and marks it done, or records why it failed
   (``rundir.result_recorder``), so an interrupted run loses nothing already computed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..runtime.executor import Executor
from .rundir import RunDir, record_failure, result_recorder
from .tasks import select_task_dirs

__all__ = ["Stage", "StageReport", "TaskOutput", "run_stage"]


@dataclass(slots=True)
class TaskOutput:
    """What a stage's worker returns for one task (the parent writes ``document``)."""

    task_id: str
    document: dict[str, Any]
    seconds: float


@dataclass
class StageReport:
    stage: str
    computed: list[str] = field(default_factory=list)
    resumed: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failed


@dataclass(frozen=True)
class Stage:
    name: str
    work: Callable[[Any], TaskOutput]  # the worker entry point: one job, nothing written
    summarize: Callable[[dict[str, Any]], dict[str, Any]]  # the ledger's summary of a result
    requires: tuple[str, ...] = ()  # stages whose finished result each task needs
    missing_message: str = ""  # why a task without those results fails


def run_stage(
    stage: Stage,
    benchmark: Path | str,
    rundir: RunDir,
    executor: Executor,
    make_job: Callable[[str, Path], Any],
    *,
    tasks: Sequence[str] | None = None,
    order: Callable[[tuple[str, Any]], Any] | None = None,
    progress: Callable[[str, str], None] | None = None,
    on_start: Callable[[int, int], None] | None = None,
) -> StageReport:
    """Run ``stage`` on every selected task not finished yet (see the module docstring).

    ``make_job(task_id, task_dir)`` builds a task's job; ``on_start(todo, finished)`` is called
    once before work starts, ``progress(task, status)`` after each task ("done" or "failed").
    """
    t0 = time.perf_counter()
    report = StageReport(stage.name)
    dirs = select_task_dirs(benchmark, tasks)
    by_id = {d.name: d for d in dirs}
    todo, finished = rundir.pending(stage.name, [d.name for d in dirs])
    report.resumed = finished
    if on_start is not None:
        on_start(len(todo), len(finished))
    done = {s: rundir.ledger.done(s) for s in stage.requires}
    jobs: list[tuple[str, Any]] = []
    for t in todo:
        if any(t not in done[s] or not rundir.result_path(s, t).exists() for s in stage.requires):
            record_failure(rundir, stage.name, t, stage.missing_message, report.failed, progress)
            continue
        rundir.ledger.start(stage.name, t)
        jobs.append((t, make_job(t, by_id[t])))
    if order is not None:
        jobs.sort(key=order)
    on_done = result_recorder(
        rundir, stage.name, TaskOutput, stage.summarize, report.computed, report.failed, progress
    )
    executor.run(stage.work, jobs, on_done)
    report.seconds = time.perf_counter() - t0
    return report
