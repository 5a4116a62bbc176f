"""The reduction stage: per task, the full suite and the Lite selection from it.

Reads ``<run>/inputs/<task>.json`` and ``<run>/outputs/<task>.json`` and
writes ``<run>/reduce/<task>.json``::

    {"task_id", "stage": "reduce", "config": <fingerprint>, "settings": {...},
     "adversaries": [{"id", "origin", "description", "target"}], "specs": [...],
     "plus": {"tests": [{"case", "input", "expected", "unexpected", "details", "provenance", "kills"}],
              "reject_inputs": [{"id", "input", "provenance"}]},
     "lite": {"tests": [{"row", "stage", "newly", "unexpected": [kept output index]}],
              "reject_inputs": [{"row", "stage", "buckets"}]},
     "dropped": {reason: n},
     "counts": {...}, "kill_preserved": true,
     "coverage": {"plus": probes hit, "lite": probes hit, "preserved": bool} | null,
     "row_coverage": [[probe index] per Plus test row] | null}

The Lite test rows must kill every adversary the Plus rows kill, and (with
``reduce.keep_coverage``) execute every ground-truth branch the Plus rows
execute; the stage checks both and records the result.
The stage is cheap, so it runs in the calling process.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from ..builders.rows import suite_rows
from ..formats.verina.dataset import Task, read_task
from ..reduce.cases import kill_bits, select_cases
from ..reduce.conjunct_cover import conjunct_cover
from ..reduce.rejects import Selection, TypedFeatureView, reduce_reject_inputs
from ..reduce.unexpected_cover import select_unexpected
from ..runtime.executor import SerialExecutor
from .config import PipelineConfig
from .driver import Stage, StageReport, TaskOutput, run_stage
from .inputs.stage import STAGE as INPUTS_STAGE
from .outputs.stage import STAGE as OUTPUTS_STAGE
from .rundir import RunDir

__all__ = ["STAGE", "reduce_task", "run_reduce_stage"]

STAGE = "reduce"


def reduce_task(
    task: Task, inputs_doc: dict[str, Any], outputs_doc: dict[str, Any], config: PipelineConfig
) -> dict[str, Any]:
    s = config.reduce
    rows = suite_rows(task, inputs_doc, outputs_doc)
    kills = [kill_bits(t.kills) for t in rows.tests]
    hits = _row_coverage(task, rows.tests, config) if s.keep_coverage else None
    # branches executed join the adversaries as elements to cover (shifted past the adversary bits)
    shift = len(rows.adversaries)
    bits = [k | (kill_bits(h) << shift) for k, h in zip(kills, hits, strict=True)] if hits else kills
    # and so do the candidate specifications a row's unexpected outputs kill (past the branch bits)
    spec_shift = shift + 1 + max((max(h, default=-1) for h in hits or ()), default=-1)
    spec_bits = _spec_kill_bits(rows.tests, rows.specs)
    bits = [b | (k << spec_shift) for b, k in zip(bits, spec_bits, strict=True)]
    keep = [
        i for i, t in enumerate(rows.tests) if s.keep_original and t.provenance.get("origin") == "original"
    ]
    chosen = select_cases(bits, s.tests_budget, keep=keep, weights=[len(t.unexpected) for t in rows.tests])
    kept_u = select_unexpected(
        [t.details for t in rows.tests], [c.index for c in chosen], s.unexpected_budget
    )
    full = _union(kills, range(len(kills)))
    lite = _union(kills, (c.index for c in chosen))
    coverage: dict[str, Any] | None = None
    if hits is not None:
        plus_hit = frozenset().union(*hits)
        lite_hit = frozenset().union(*(hits[c.index] for c in chosen))
        coverage = {"plus": len(plus_hit), "lite": len(lite_hit), "preserved": plus_hit == lite_hit}

    params = [(p.name, p.type) for p in task.signature.params]
    # rows violating one precondition conjunct only come first; the boundary-preserving reduction
    # fills the rest of the budget from the other rows
    must = conjunct_cover([r.provenance for r in rows.rejects])
    rest = [i for i in range(len(rows.rejects)) if i not in set(must)]
    picked = [Selection({"input": rows.rejects[i].input}, i, "conjunct", ()) for i in must] + [
        replace(p, index=rest[p.index])
        for p in reduce_reject_inputs(
            [{"input": rows.rejects[i].input} for i in rest],
            max(0, s.rejects_budget - len(must)),
            s.per_bucket,
            features=TypedFeatureView(params, structs=task.structs),
        )
    ]
    plus_tests = [asdict(t) for t in rows.tests]
    counts = {
        "plus_tests": len(rows.tests),
        "plus_unexpected": sum(len(t.unexpected) for t in rows.tests),
        "plus_rejects": len(rows.rejects),
        "lite_tests": len(chosen),
        "lite_unexpected": sum(len(v) for v in kept_u.values()),
        "specs_killed": {
            "plus": _union(spec_bits, range(len(spec_bits))).bit_count(),
            "lite": len(
                {a for c in chosen for u in kept_u[c.index] for a in _accepted(rows.tests[c.index], u)}
            ),
        },
        "lite_rejects": len(picked),
        "killed": full.bit_count(),
        "lite_by_stage": _count(c.stage for c in chosen),
        "lite_rejects_by_stage": _count(p.stage for p in picked),
    }
    return {
        "task_id": task.id,
        "stage": STAGE,
        "config": config.fingerprint(),
        "settings": config.reduce.model_dump(mode="json"),
        "adversaries": rows.adversaries,
        "specs": rows.specs,
        "plus": {
            "tests": plus_tests,
            "reject_inputs": [asdict(r) for r in rows.rejects],
        },
        "lite": {
            "tests": [
                {"row": c.index, "stage": c.stage, "newly": c.newly, "unexpected": kept_u[c.index]}
                for c in chosen
            ],
            "reject_inputs": [{"row": p.index, "stage": p.stage, "buckets": list(p.buckets)} for p in picked],
        },
        "dropped": dict(sorted(rows.dropped.items())),
        "counts": counts,
        "kill_preserved": full == lite,
        "coverage": coverage,
        "row_coverage": [sorted(h) for h in hits] if hits is not None else None,
    }


def _accepted(t: Any, u: int) -> list[str]:
    return list(t.details[u].get("accepted_by") or ())


def _spec_kill_bits(tests: Sequence[Any], specs: Sequence[dict[str, Any]]) -> list[int]:
    """Per row, the candidate specifications (by index) some unexpected output of it kills."""
    index = {s["id"]: i for i, s in enumerate(specs)}
    return [
        kill_bits(sorted({index[a] for u in range(len(t.details)) for a in _accepted(t, u) if a in index}))
        for t in tests
    ]


def _union(bits: list[int], idx: Any) -> int:
    out = 0
    for i in idx:
        out |= bits[i]
    return out


def _row_coverage(task: Task, tests: list[Any], config: PipelineConfig) -> list[frozenset[int]] | None:
    """Per row, the ground-truth implementation's branch probes it executes (None: not measurable).

    Coverage is a native-evaluator feature; it is measured with the native engine
    whatever engine the run uses.
    """
    from ..languages.registry import language_of
    from ..runtime.limits import Limits

    lang = language_of(task)
    limits = Limits(fuel=config.engine.fuel, seconds=config.engine.seconds)
    te = lang.native_engine(limits, coverage=True).for_task(task)
    out: list[frozenset[int]] = []
    try:
        for t in tests:
            te.reset_coverage()
            te.run(task.decode_input(t.input, file="plus"))
            rep = te.coverage()
            if rep is None:
                return None
            out.append(frozenset(rep.hits))
    except lang.Error:
        return None
    return out


def _count(items: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return dict(sorted(out.items()))


@dataclass(frozen=True, slots=True)
class ReduceJob:
    task_dir: str
    inputs_path: str
    outputs_path: str
    config: dict[str, Any]


def run_reduce_job(job: ReduceJob) -> TaskOutput:
    """One task's reduction (nothing written: the driver writes)."""
    t0 = time.perf_counter()
    doc = reduce_task(
        read_task(Path(job.task_dir)),
        json.loads(Path(job.inputs_path).read_text(encoding="utf-8")),
        json.loads(Path(job.outputs_path).read_text(encoding="utf-8")),
        PipelineConfig.from_json(job.config),
    )
    return TaskOutput(doc["task_id"], doc, time.perf_counter() - t0)


def _summary(doc: dict[str, Any]) -> dict[str, Any]:
    c = doc["counts"]
    summary = {k: c[k] for k in ("plus_tests", "lite_tests", "plus_rejects", "lite_rejects", "killed")}
    summary["kill_preserved"] = doc["kill_preserved"]
    summary["coverage_preserved"] = (doc["coverage"] or {}).get("preserved")
    return summary


REDUCE = Stage(
    STAGE,
    run_reduce_job,
    _summary,
    requires=(INPUTS_STAGE, OUTPUTS_STAGE),
    missing_message="output stage not finished for this task (run `veriscale expand outputs` first)",
)


def run_reduce_stage(
    benchmark: Any,
    rundir: RunDir,
    *,
    tasks: Sequence[str] | None = None,
    progress: Callable[[str, str], None] | None = None,
) -> StageReport:
    """Reduce every selected task whose output stage is done (in this process, in task order)."""
    cfg_json = rundir.config.to_json()

    def job(task_id: str, task_dir: Path) -> ReduceJob:
        paths = (str(rundir.result_path(s, task_id)) for s in (INPUTS_STAGE, OUTPUTS_STAGE))
        return ReduceJob(str(task_dir), *paths, cfg_json)

    return run_stage(REDUCE, benchmark, rundir, SerialExecutor(), job, tasks=tasks, progress=progress)
