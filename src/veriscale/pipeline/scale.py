"""``scale``: every stage end to end — inputs → outputs → reduce → build — in one run directory.

The output directory *is* the run directory: ``config.json`` (the settings
used), the ledger and per-stage results sit beside ``plus/`` and ``lite/``
(the written datasets) and ``stats.json``. Each stage resumes from the
ledger, so an interrupted ``scale`` continues where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..builders.suites import LITE, PLUS
from ..formats.registry import detect_format, get_format
from ..formats.stats import DatasetStats, dataset_stats
from ..runtime.executor import Executor
from ..runtime.files import atomic_write_json
from .build import build_suites
from .driver import StageReport
from .inputs.stage import run_inputs_stage
from .outputs.stage import run_outputs_stage
from .reduce import STAGE as REDUCE_STAGE
from .reduce import run_reduce_stage
from .rundir import RunDir

if TYPE_CHECKING:
    from ..llm.config import LLMConfig

VERINA = get_format("verina")  # the suites this pipeline writes

__all__ = ["ScaleReport", "run_scale"]


@dataclass
class ScaleReport:
    stages: list[StageReport] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    stats: list[DatasetStats] = field(default_factory=list)
    kill_preserved: int = 0  # tasks whose Lite kills every adversary Plus kills
    coverage_preserved: int = 0  # tasks whose Lite executes every ground-truth branch Plus executes
    reduced: int = 0
    model_stages: dict[str, Any] = field(default_factory=dict)  # a format builder's model-driven stages

    @property
    def failed(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for r in self.stages:
            for t, why in r.failed.items():
                out.setdefault(t, f"{r.stage}: {why}")
        return out


def run_scale(
    benchmark: Path | str,
    rundir: RunDir,
    executor: Executor,
    *,
    tasks: Sequence[str] | None = None,
    llm_config: LLMConfig | None = None,
    progress: Callable[[str, str, str], None] | None = None,
    on_stage: Callable[[str, int, int], None] | None = None,
) -> ScaleReport:
    """Run (or resume) all stages; ``progress(stage, task, status)``, ``on_stage(stage, todo, done)``."""
    rundir.record_inputs(benchmark=str(Path(benchmark)))
    fmt = detect_format(Path(benchmark))
    if fmt.suite_builder() is not None:  # the format builds its own suites (e.g. VeriContest)
        from .format_suites import run_format_scale

        stages, written, st = run_format_scale(benchmark, rundir, executor, tasks=tasks, progress=progress,
                                               on_stage=on_stage, llm_config=llm_config)  # fmt: skip
        return ScaleReport(stages=stages, written=written, kill_preserved=st["kill_preserved"],
                           reduced=st["tasks"], model_stages=st.get("model_stages") or {})  # fmt: skip
    rundir.adopt("outputs", "outputs")
    rundir.adopt("reduce", REDUCE_STAGE)
    rep = ScaleReport()

    def prog(stage: str) -> Callable[[str, str], None] | None:
        return (lambda t, s: progress(stage, t, s)) if progress else None

    def start(stage: str) -> Callable[[int, int], None] | None:
        return (lambda todo, done: on_stage(stage, todo, done)) if on_stage else None

    rep.stages.append(
        run_inputs_stage(
            benchmark,
            rundir,
            executor,
            tasks=tasks,
            llm_config=llm_config,
            progress=prog("inputs"),
            on_start=start("inputs"),
        )
    )
    rep.stages.append(
        run_outputs_stage(
            benchmark,
            rundir,
            executor,
            tasks=tasks,
            llm_config=llm_config,
            progress=prog("outputs"),
            on_start=start("outputs"),
        )
    )
    rep.stages.append(run_reduce_stage(benchmark, rundir, tasks=tasks, progress=prog(REDUCE_STAGE)))
    built = build_suites(benchmark, rundir, rundir.root, tasks=tasks)
    rep.written = built.written
    ledger_rows = rundir.ledger.rows(REDUCE_STAGE)
    for t in built.written:
        s = ledger_rows.get(t)
        if s is not None and s.summary is not None:
            rep.reduced += 1
            rep.kill_preserved += bool(s.summary.get("kill_preserved"))
            rep.coverage_preserved += bool(s.summary.get("coverage_preserved"))
    only = set(built.written)
    if only:  # with nothing written there are no Plus/Lite datasets to describe
        rep.stats = [
            dataset_stats(Path(benchmark), "original", only=only, fmt=VERINA),
            dataset_stats(rundir.root / PLUS, "plus", only=only, fmt=VERINA),
            dataset_stats(rundir.root / LITE, "lite", only=only, fmt=VERINA),
        ]
    base = rep.stats[0] if rep.stats else None
    summary: dict[str, Any] = {
        "datasets": [s.to_json(base if i else None) for i, s in enumerate(rep.stats)],
        "tasks": len(built.written),
        "kill_preserved": rep.kill_preserved,
        "coverage_preserved": rep.coverage_preserved,
        "failed": rep.failed,
    }
    atomic_write_json(rundir.root / "stats.json", summary)
    return rep
