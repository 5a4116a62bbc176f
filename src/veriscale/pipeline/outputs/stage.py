"""The output-expansion stage: per task, candidate specs → adversaries → unexpected outputs → kill matrix.

Reads ``<run>/inputs/<task>.json`` (the input stage's expected cases) and
writes ``<run>/outputs/<task>.json`` atomically, marking the task done in the
ledger, so an interrupted run resumes where it stopped.

Result document (one per task)::

    {"task_id", "stage": "outputs", "config": <fingerprint>, "params": {...attack settings},
     "return_type",
     "specs": [{"id", "origin", "description", "text"}],
     "adversaries": [{"id", "origin", "description", "target", "section", "text"}],
     "counts": {"specs", "adversaries": {origin: n}, "dropped": {reason: n},
                "verdicts": {"true"|"false"|"unknown": n}, "expected", "unexpected",
                "accepted": n (kept unexpected outputs accepted by ≥ 1 candidate spec)},
     "expected": [{"id", "input", "output", "provenance",
                   "unexpected": [{"output", "source", "adversaries": [id], "accepted_by": [spec id]}]}],
     "kill_matrix": {"cases": [case id], "adversaries": [adversary id],
                     "rows": ["10?…" per adversary: 1 killed (output ≠ expected), 0 survived, ? no value]}}
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ...benchmarks.verina import Task, read_task
from ...engines.base import Engine
from ...values import codec
from ..config import PipelineConfig
from ..executor import Executor
from ..inputs.stage import STAGE as INPUTS_STAGE
from ..inputs.stage import StageReport, make_engine, select_task_dirs
from ..rundir import FAILED, RunDir, result_recorder
from .adversaries import AttackConfig, Case, attack
from .model import Adversary
from .mutants import aux_mutant_adversaries, mutant_adversaries
from .templates import template_adversaries
from .weaken import weakened_specs

__all__ = [
    "STAGE",
    "OutputsJob",
    "all_adversaries",
    "expand_task_outputs",
    "run_outputs_job",
    "run_outputs_stage",
]

STAGE = "outputs"


def all_adversaries(task: Task) -> list[Adversary]:
    """Templates, then mutants of the code body, then mutants of its helpers (deduplicated by id)."""
    out: list[Adversary] = []
    seen: set[str] = set()
    for a in (
        template_adversaries(task)
        + mutant_adversaries(task.section_text("code"))
        + aux_mutant_adversaries(task.section_text("code_aux"))
    ):
        if a.id not in seen:
            seen.add(a.id)
            out.append(a)
    return out


def _adversary_engine(engine: Engine, acfg: AttackConfig) -> Engine:
    """The engine with a tighter wall-clock cap (non-terminating mutants would cost the full limit)."""
    from ...engines.native import NativeEngine

    if isinstance(engine, NativeEngine) and engine.limits.seconds > acfg.adversary_seconds:
        return NativeEngine(limits=dataclasses.replace(engine.limits, seconds=acfg.adversary_seconds))
    return engine


def _cases(task: Task, inputs_doc: dict[str, Any]) -> list[Case]:
    ret = task.signature.return_type
    cases = []
    for row in inputs_doc["expected"]:
        values = task.decode_input(row["input"], file="inputs")
        cases.append(Case(row["id"], values, codec.decode(ret, row["output"], structs=task.structs)))
    return cases


def expand_task_outputs(
    task: Task,
    inputs_doc: dict[str, Any],
    config: PipelineConfig,
    engine: Engine,
    attack_config: AttackConfig | None = None,
) -> dict[str, Any]:
    """Expand one task's outputs; the returned document is what ``outputs/<task>.json`` holds."""
    acfg = attack_config or AttackConfig()
    ret = task.signature.return_type
    cases = _cases(task, inputs_doc)
    specs = weakened_specs(task.section_text("postcond"))
    res = attack(task, engine, cases, all_adversaries(task), specs, acfg, _adversary_engine(engine, acfg))

    expected_rows: list[dict[str, Any]] = []
    n_unexp = n_acc = 0
    for row, unexp in zip(inputs_doc["expected"], res.unexpected, strict=True):
        items = [
            {
                "output": codec.to_json(ret, u.output, structs=task.structs),
                "source": u.source,
                "adversaries": u.adversaries,
                "accepted_by": u.accepted_by,
            }
            for u in unexp
        ]
        n_unexp += len(items)
        n_acc += sum(1 for u in unexp if u.accepted_by)
        expected_rows.append({**row, "unexpected": items})
    by_origin = Counter(a.origin.split(":", 1)[0] for a in res.adversaries)
    counts: dict[str, Any] = {
        "specs": len(specs),
        "adversaries": dict(sorted(by_origin.items())),
        "adversary_kinds": dict(sorted(Counter(a.origin for a in res.adversaries).items())),
        "dropped": dict(sorted(res.dropped.items())),
        "verdicts": dict(sorted(res.verdicts.items())),
        "expected": len(cases),
        "unexpected": n_unexp,
        "accepted": n_acc,
    }
    return {
        "task_id": task.id,
        "stage": STAGE,
        "config": config.fingerprint(),
        "params": asdict(acfg),
        "return_type": inputs_doc.get("return_type"),
        "counts": counts,
        "specs": [s.to_json() for s in specs],
        "adversaries": [a.to_json() for a in res.adversaries],
        "expected": expected_rows,
        "kill_matrix": {
            "cases": [c.id for c in cases],
            "adversaries": [a.id for a in res.adversaries],
            "rows": res.matrix,
        },
    }


# ---------------------------------------------------------------- worker side


@dataclass(frozen=True, slots=True)
class OutputsJob:
    task_dir: str
    inputs_path: str
    config: dict[str, Any]
    attack: dict[str, Any]


@dataclass(slots=True)
class OutputsResult:
    task_id: str
    document: dict[str, Any]
    seconds: float


def run_outputs_job(job: OutputsJob) -> OutputsResult:
    """Worker entry point: one task, nothing written (the parent writes)."""
    import json

    t0 = time.perf_counter()
    config = PipelineConfig.from_json(job.config)
    task = read_task(Path(job.task_dir))
    inputs_doc = json.loads(Path(job.inputs_path).read_text(encoding="utf-8"))
    doc = expand_task_outputs(task, inputs_doc, config, make_engine(config), AttackConfig(**job.attack))
    return OutputsResult(task.id, doc, time.perf_counter() - t0)


def _summary(doc: dict[str, Any]) -> dict[str, Any]:
    c = doc["counts"]
    return {
        "expected": c["expected"],
        "unexpected": c["unexpected"],
        "adversaries": sum(c["adversaries"].values()),
        "accepted": c["accepted"],
    }


def run_outputs_stage(
    benchmark: Path | str,
    rundir: RunDir,
    executor: Executor,
    *,
    tasks: Sequence[str] | None = None,
    attack_config: AttackConfig | None = None,
    progress: Callable[[str, str], None] | None = None,
    on_start: Callable[[int, int], None] | None = None,
) -> StageReport:
    """Run the stage on every selected task whose inputs are done and whose outputs are not.

    Tasks without a finished input-stage result fail with a message saying so.
    """
    t0 = time.perf_counter()
    report = StageReport(STAGE)
    dirs = select_task_dirs(benchmark, tasks)
    by_id = {d.name: d for d in dirs}
    todo, finished = rundir.pending(STAGE, [d.name for d in dirs])
    report.resumed = finished
    if on_start is not None:
        on_start(len(todo), len(finished))
    inputs_done = rundir.ledger.done(INPUTS_STAGE)
    cfg_json = rundir.config.to_json()
    acfg = asdict(attack_config or AttackConfig())
    jobs = []
    for t in todo:
        path = rundir.result_path(INPUTS_STAGE, t)
        if t not in inputs_done or not path.exists():
            msg = "input stage not finished for this task (run `veriscale expand inputs` first)"
            rundir.ledger.fail(STAGE, t, msg)
            report.failed[t] = msg
            if progress:
                progress(t, FAILED)
            continue
        rundir.ledger.start(STAGE, t)
        jobs.append((t, OutputsJob(str(by_id[t]), str(path), cfg_json, acfg)))

    on_done = result_recorder(rundir, STAGE, OutputsResult, _summary, report.computed, report.failed, progress)
    executor.run(run_outputs_job, jobs, on_done)
    report.seconds = time.perf_counter() - t0
    return report
