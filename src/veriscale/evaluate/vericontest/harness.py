"""Evaluate VeriContest generations on one or more VeriContest roots: one job per problem.

A job reads the problem, builds its cases once (``cases.build_cases``, with the
ground-truth engine under generous limits), then scores every sample of every
task on it (``scoring.score_sample``; identical programs of one task are scored
once). Jobs run through the executor like Verina's (``runtime.executor``); a job
that raises or loses its worker makes its samples UNKNOWN with the reason.
Results come back sorted by suite, model, problem (the format's order), task and
sample, so the output does not depend on scheduling. The run is an
``EvaluationRun`` and is written by ``evaluate.report`` like Verina's.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...formats.vericontest.dataset import discover_problems, problem_sort_key
from ...runtime.executor import Executor, pool_executor
from ...runtime.shipping import Shipped, local_path, ship
from ..harness import EvalOptions, EvaluationRun, SampleResult, SuiteInfo, SuiteSpec, group_by_task
from ..scoring.aggregate import MetricResult, Score, TestResult, aggregate
from ..scoring.errors import ErrorCategory
from .generations import CODE_TASKS, VC_TASKS, VcGeneration
from .scoring import VcOptions, metrics_of_task, score_sample, spec_not_kept

__all__ = ["VcEvalOptions", "evaluate_vc_generations"]

DEFAULT_TEST_SECONDS = 2.0  # the paper's per-test limit for generated code
REFERENCE_SECONDS = 10.0  # the ground truth building the cases


@dataclass(frozen=True)
class VcEvalOptions:
    test_seconds: float = DEFAULT_TEST_SECONDS
    memory_mb: int = 2048
    trust_suite: bool = False
    verus: str | None = None  # path of a Verus binary (``--verus`` / ``VERISCALE_VERUS``)
    verus_timeout: float = 120.0


@dataclass(frozen=True)
class VcJob:
    suite: str
    problem_dir: str | Shipped
    task_id: str
    samples: tuple[VcGeneration, ...]
    options: VcEvalOptions


def _internal(
    job: VcJob, reason: str, cat: ErrorCategory = ErrorCategory.RUNTIME_ERROR
) -> list[dict[str, Any]]:
    text = reason if cat is ErrorCategory.BAD_TEST_DATA else f"internal error: {reason}"
    bad = aggregate([TestResult(Score.UNKNOWN, cat, text, "task")], overestimable=False)
    return [
        {
            "task_id": g.task_id,
            "task": g.task,
            "sample": g.sample,
            "model": g.model,
            "metrics": dict.fromkeys(metrics_of_task(g.task), bad),
            "seconds": 0.0,
        }
        for g in job.samples
    ]


def run_vc_job(job: VcJob) -> list[dict[str, Any]]:
    """Score every sample of one problem (runs in a worker process)."""
    from ...formats.vericontest.dataset import ProblemError, read_problem
    from ...languages.registry import language
    from .cases import build_cases
    from .scoring import verus_candidates
    from .spec_verdicts import SpecVerdicts
    from .verus import verus_verifier

    try:
        problem = read_problem(Path(local_path(job.problem_dir)))
    except ProblemError as exc:
        return _internal(job, f"unreadable problem: {exc}", ErrorCategory.BAD_TEST_DATA)
    verus = language("verus")
    o = job.options
    try:
        engine = verus.make_engine(
            "native", exec_limits=verus.exec_limits(case_seconds=o.test_seconds, memory_mb=o.memory_mb)
        )
        ref_engine = verus.make_engine(
            "native", exec_limits=verus.exec_limits(case_seconds=REFERENCE_SECONDS, memory_mb=o.memory_mb)
        )
        te_gt = ref_engine.for_task(problem)
        cases = build_cases(problem, te_gt, trust=o.trust_suite)
    except Exception as exc:  # report, don't crash the run
        return _internal(job, f"{type(exc).__name__}: {exc}")
    backend = verus_verifier(o.verus, o.verus_timeout) if o.verus else None
    if backend is not None:
        try:  # one batched Verus run for the job's proofs; a failure here is retried per sample below
            backend.prefetch(verus_candidates(problem, job.samples))
        except Exception:
            pass
    memo = SpecVerdicts(cases)
    try:  # the ground truth's verdicts, computed while building the cases, serve identical specs
        memo.seed_ground_truth(te_gt)
    except Exception:  # only a lost saving: every verdict is then computed
        pass
    vopts = VcOptions(verify=backend, spec_verdicts=memo)
    out: list[dict[str, Any]] = []
    done: dict[tuple[str, str | None, str], dict[str, MetricResult]] = {}
    for g in job.samples:
        start = time.perf_counter()
        # the code tasks score a program alike (``score_sample`` -> ``score_code``) once the tasks
        # given ``spec.rs`` have passed their spec-kept gate: one run serves all of them
        key = ("code" if g.task in CODE_TASKS else g.task, g.extraction_error, g.program)
        refused = None
        try:
            seen = done.get(key)
            refused = spec_not_kept(problem, g)
            if refused is not None:
                metrics = dict.fromkeys(metrics_of_task(g.task), refused)
            elif seen is not None:  # same results under this task's metric names (same order)
                metrics = dict(zip(metrics_of_task(g.task), seen.values()))
            else:
                metrics = score_sample(engine, problem, te_gt, cases, g, vopts)
        except Exception as exc:  # an engine bug on one sample must not lose the others
            metrics = _internal(
                VcJob(job.suite, job.problem_dir, job.task_id, (g,), o), f"{type(exc).__name__}: {exc}"
            )[0]["metrics"]
        if refused is None:
            done[key] = metrics
        out.append(
            {
                "task_id": g.task_id,
                "task": g.task,
                "sample": g.sample,
                "model": g.model,
                "metrics": metrics,
                "seconds": time.perf_counter() - start,
                "cases": {
                    "positives": len(cases.positives),
                    "negatives": len(cases.negatives),
                    "excluded": len(cases.excluded),
                },
            }
        )
    return out


ProgressFn = Callable[[str, int, int], None]


def evaluate_vc_generations(
    generations: Sequence[VcGeneration],
    suites: Sequence[SuiteSpec],
    options: EvalOptions,
    vc: VcEvalOptions | None = None,
    progress: ProgressFn | None = None,
    generations_file: str = "",
    executor: Executor | None = None,
) -> EvaluationRun:
    """Score ``generations`` on every VeriContest root of ``suites`` (see the module docstring)."""
    vc = vc or VcEvalOptions(verus=os.environ.get("VERISCALE_VERUS") or None)
    excluded = set(options.exclude)
    warnings: list[str] = []
    infos: list[SuiteInfo] = []
    results: list[SampleResult] = []
    ex = executor if executor is not None else pool_executor(max(1, options.workers))
    metas = {(g.model or "", g.task_id, g.sample): g.meta for g in generations if g.meta is not None}
    for suite in suites:
        dirs = {d.name: d for d in discover_problems(suite.path)}
        info = SuiteInfo(suite.name, suite.path, sorted(dirs, key=problem_sort_key), has_unexpected=False)
        infos.append(info)
        by_task, unknown = group_by_task(generations, dirs, excluded, problem_sort_key, suite.name, "problem")
        if unknown:
            warnings.append(unknown)
        info.tasks_without_generations = [t for t in info.task_ids if t not in by_task and t not in excluded]
        task_order = {t: i for i, t in enumerate(VC_TASKS)}
        jobs = [
            VcJob(
                suite.name,
                ship(dirs[tid], ex.remote),
                tid,
                tuple(sorted(by_task[tid], key=lambda g: (g.model or "", task_order[g.task], g.sample))),
                vc,
            )
            for tid in sorted(by_task, key=problem_sort_key)
        ]
        label = f"{suite.name}: vericontest"
        got: dict[int, list[dict[str, Any]]] = {}

        def on_done(
            key: str,
            result: Any,
            error: str | None,
            _s: float,
            jobs: list[VcJob] = jobs,
            got: dict[int, list[dict[str, Any]]] = got,
            label: str = label,
        ) -> None:
            i = int(key)
            got[i] = result if error is None else _internal(jobs[i], error)
            if progress is not None:
                progress(label, len(got), len(jobs))

        if progress is not None:
            progress(label, 0, len(jobs))
        start = time.perf_counter()
        ex.run(run_vc_job, [(str(i), j) for i, j in enumerate(jobs)], on_done)
        info.wall_seconds["vericontest"] = time.perf_counter() - start
        merged: dict[tuple[str, str, int], SampleResult] = {}
        for i in range(len(jobs)):
            for row in got[i]:
                key = (row["model"] or "", row["task_id"], row["sample"])
                sr = merged.get(key)
                if sr is None:
                    sr = merged[key] = SampleResult(
                        suite.name, row["task_id"], row["sample"], row["model"], meta=metas.get(key)
                    )
                sr.metrics.update(row["metrics"])
                sr.seconds[row["task"]] = row["seconds"]
        order = {t: i for i, t in enumerate(info.task_ids)}
        results.extend(
            merged[k] for k in sorted(merged, key=lambda k: (k[0], order.get(k[1], len(order)), k[2]))
        )
    return EvaluationRun(options, infos, results, warnings, generations_file)
