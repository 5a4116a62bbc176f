"""Evaluate a set of generations on one or more suites: jobs, a process pool, timing.

Work is split into phases, one per (suite, task kind), so the wall-clock time
of each phase is measured like the paper's Table 2 (SpecGen and CodeGen time
per suite). Within a phase, one job per task evaluates all of that task's
samples (the suite rows are decoded once per job and identical samples are
scored once). Jobs run through the one executor (``runtime.executor``: the
local process pool of ``workers`` processes, 1 runs in this process; or Ray). Results are sorted by suite (command-line order), model, task
(Verina's order) and sample, so the output does not depend on scheduling.

A worker process that dies (a crash in native code, the OOM killer) breaks
the pool: the executor rebuilds it and resubmits the unfinished jobs, the last
time one at a time; a job that still kills its worker on its own is reported
as an internal error (all its samples UNKNOWN) instead of taking the run down.
Each local worker's address space is capped at its share of 80% of the
machine's memory, so a huge value usually ends as a ``MemoryError`` in its own
check (UNKNOWN) rather than a dead worker.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from ..formats.verina.dataset import discover_task_dirs, task_sort_key
from ..runtime.executor import Executor, pool_executor
from ..runtime.shipping import Shipped, local_path, ship
from .generations import KINDS, Generation
from .scoring.aggregate import MetricResult, Score, TestResult, aggregate, untested_sample_not_passed
from .scoring.codegen import CODE_METRICS
from .scoring.errors import ErrorCategory
from .scoring.proofgen import PROOF_METRICS
from .scoring.specgen import SPEC_METRICS

__all__ = [
    "METRICS_BY_KIND",
    "NATIVE_CODE_SECONDS",
    "NATIVE_SPEC_SECONDS",
    "EvalOptions",
    "EvaluationRun",
    "SampleResult",
    "SuiteSpec",
    "evaluate_generations",
    "resolve_suites",
]

METRICS_BY_KIND: dict[str, tuple[str, ...]] = {
    "spec": SPEC_METRICS,
    "code": CODE_METRICS,
    "proof": PROOF_METRICS,
}
# Native per-check limits. Fuel (evaluation steps, about 1–2 million a second) is the limit that
# decides: it gives the same verdicts on any machine under any load. The seconds are only a
# backstop for builtins that do much work in one step; a check that needs seconds on one input
# is exponential in practice. Code gets more, and a timeout only fails a candidate when the
# ground truth runs within the same fuel (see ``codegen``).
NATIVE_SPEC_FUEL = 10_000_000
NATIVE_CODE_FUEL = 20_000_000
NATIVE_SPEC_SECONDS = 20.0
NATIVE_CODE_SECONDS = 30.0
# SpecGen, native: fuel of one metric's checks before giving up (an exponential postcondition
# over ~900 unexpected outputs of one task on a veriscale Plus suite needs some 40 million).
METRIC_FUEL = 100_000_000


@dataclass(frozen=True)
class EvalOptions:
    engine: str = "native"
    # native: wall-clock backstop per check (default: 20 s for a specification check, 30 s for a run
    # of code); lean: seconds per Lean file
    timeout: float | None = None
    # native: fuel per check (default: 10 million for a specification check, 20 million for code)
    fuel: int | None = None
    workers: int = 2
    ks: tuple[int, ...] = (1,)
    exclude: tuple[str, ...] = ()
    fail_fast: bool = True
    max_timeouts: int | None = 2  # per metric: stop running checks after this many timeouts
    # SpecGen, native: per metric, the fuel of its checks (deterministic) and optionally their
    # wall-clock seconds before the rest are not run (UNKNOWN).
    metric_fuel: int | None = METRIC_FUEL
    metric_budget: float | None = None
    # False: rows whose expected output the suite's own reference implementation contradicts are
    # suite defects, left out (counted in n_excluded); True: score against every row as stored.
    trust_suite: bool = False
    lean_project: str | None = None

    def check_seconds(self, kind: str) -> float:
        if self.timeout is not None:
            return self.timeout
        return NATIVE_CODE_SECONDS if kind == "code" else NATIVE_SPEC_SECONDS

    def check_fuel(self, kind: str) -> int:
        if self.fuel is not None:
            return self.fuel
        return NATIVE_CODE_FUEL if kind == "code" else NATIVE_SPEC_FUEL

    def engine_opts(self, kind: str) -> dict[str, Any]:
        opts: dict[str, Any] = {}
        if self.engine == "native":
            opts["seconds"] = self.check_seconds(kind)
            opts["fuel"] = self.check_fuel(kind)
        else:
            if self.timeout is not None:
                opts["lean_timeout"] = self.timeout
            if self.lean_project is not None:
                opts["lean_project"] = self.lean_project
        return opts


@dataclass(frozen=True)
class SuiteSpec:
    name: str
    path: Path


@dataclass
class SampleResult:
    suite: str
    task_id: str
    sample: int
    model: str | None
    metrics: dict[str, MetricResult] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    meta: Any = None  # the generation's ``meta``, carried along unread

    def to_json(self) -> dict[str, Any]:
        out = {
            "suite": self.suite,
            "model": self.model,
            "task_id": self.task_id,
            "sample": self.sample,
            # Verina's kinds in their order, then other tasks (VeriContest's) as scored
            "kinds": [k for k in KINDS if k in self.seconds] + [k for k in self.seconds if k not in KINDS],
            "metrics": {m: r.to_json() for m, r in self.metrics.items()},
            "seconds": {k: round(v, 4) for k, v in self.seconds.items()},
        }
        if self.meta is not None:
            out["meta"] = self.meta
        return out


@dataclass
class SuiteInfo:
    name: str
    path: Path
    task_ids: list[str]
    has_unexpected: bool = True
    wall_seconds: dict[str, float] = field(default_factory=dict)
    tasks_without_generations: list[str] = field(default_factory=list)


@dataclass
class EvaluationRun:
    options: EvalOptions
    suites: list[SuiteInfo]
    results: list[SampleResult]
    warnings: list[str] = field(default_factory=list)
    generations_file: str = ""

    def rows_json(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self.results]


# ------------------------------------------------------------------ worker side

_ENGINES: dict[tuple[str, str], Any] = {}


def _engine(name: str, opts: dict[str, Any]) -> Any:
    key = (name, json.dumps(opts, sort_keys=True))
    if key not in _ENGINES:
        from ..languages.registry import language

        # the Verina suites evaluate() scores are Lean tasks
        _ENGINES[key] = language("lean").make_engine(name, **opts)
    return _ENGINES[key]


@lru_cache(maxsize=4)
def _load(task_dir: str, validate: bool = True) -> tuple[Any, Any]:
    from ..formats.verina.dataset import read_task
    from .scoring.cases import decode_rows, exclude_contradicted
    from .suite_defects import exclude_accepted

    task = read_task(task_dir)
    rows = decode_rows(task)
    if validate:  # (a reference the engine cannot run gives no verdict: every row stays)
        exclude_contradicted(task, rows)
        exclude_accepted(task, rows)
    return task, rows


@dataclass(frozen=True)
class Job:
    suite: str
    task_dir: str | Shipped  # a snapshot when the executor's workers may be remote
    task_id: str
    kind: str
    samples: tuple[Generation, ...]
    engine: str
    engine_opts: dict[str, Any]
    fail_fast: bool
    timeout: float | None  # per check (native) or per Lean file
    max_timeouts: int | None = 2
    metric_budget: float | None = None
    validate: bool = True  # leave out rows the suite's own reference implementation contradicts
    metric_fuel: int | None = None


def _internal_error(
    job: Job, reason: str, category: ErrorCategory = ErrorCategory.RUNTIME_ERROR
) -> list[dict[str, Any]]:
    """Every sample of the job UNKNOWN for ``reason`` (an internal error, or a suite task we cannot read)."""
    metrics = METRICS_BY_KIND[job.kind]
    text = reason if category is ErrorCategory.BAD_TEST_DATA else f"internal error: {reason}"
    bad = aggregate([TestResult(Score.UNKNOWN, category, text, "task")], overestimable=False)
    return [
        {
            "task_id": g.task_id,
            "sample": g.sample,
            "model": g.model,
            "metrics": dict.fromkeys(metrics, bad),
            "seconds": 0.0,
        }
        for g in job.samples
    ]


def _warm_worker(i: int) -> int:
    from ..languages.registry import LANGUAGES

    for lang in LANGUAGES.values():
        lang.warm_up()
    from .scoring import codegen, proofgen, specgen  # noqa: F401

    time.sleep(0.05)  # keep this worker busy so the next warm-up call reaches another one
    return i


def _sample_key(kind: str, g: Generation) -> tuple[str, ...]:
    return tuple(g.fields(kind).values())


def run_job(job: Job) -> list[dict[str, Any]]:
    """Evaluate every sample of one task for one kind (runs in a worker process)."""
    from ..formats.api import FormatError
    from .scoring.codegen import CodeOptions, evaluate_code
    from .scoring.extraction import extraction_failure, extraction_metrics
    from .scoring.proofgen import evaluate_proof_sample
    from .scoring.specgen import SpecOptions, evaluate_spec

    try:
        task, rows = _load(local_path(job.task_dir), job.validate)
    except FormatError as exc:  # the suite's task files cannot be read: a defect of the suite
        return _internal_error(job, f"unreadable suite task: {exc}", ErrorCategory.BAD_TEST_DATA)
    except Exception as exc:  # report, don't crash the run
        return _internal_error(job, f"{type(exc).__name__}: {exc}")
    try:
        engine = _engine(job.engine, job.engine_opts)
    except Exception as exc:  # an unavailable engine: report, don't crash the run
        return _internal_error(job, f"{type(exc).__name__}: {exc}")
    files = job.engine != "native"
    # Backstop for the native engine's own budget (see ``watchdog``); Lean runs have their own timeout.
    hard = None if files or job.timeout is None else 1.5 * job.timeout + 0.5
    out: list[dict[str, Any]] = []
    done: dict[tuple[str, ...], dict[str, MetricResult]] = {}
    for g in job.samples:
        start = time.perf_counter()
        key = _sample_key(job.kind, g)
        try:
            if (failed := extraction_failure(g.meta)) is not None:
                metrics = extraction_metrics(METRICS_BY_KIND[job.kind], *failed)
            elif key in done:
                metrics = done[key]
            elif job.kind == "spec":
                metrics = evaluate_spec(
                    engine,
                    task,
                    rows,
                    g,
                    SpecOptions(
                        fail_fast=job.fail_fast and not files,
                        batched=files,
                        compile_errors_fail=files,
                        pass_imports=files,
                        max_timeouts=job.max_timeouts,
                        hard_timeout=hard,
                        budget_seconds=None if files else job.metric_budget,
                        budget_fuel=None if files else job.metric_fuel,
                    ),
                )
            elif job.kind == "code":
                metrics = evaluate_code(
                    engine,
                    task,
                    rows,
                    g,
                    CodeOptions(
                        fail_fast=job.fail_fast and not files,
                        batched=files,
                        compile_errors_fail=files,
                        pass_imports=files,
                        hard_timeout=hard,
                        max_timeouts=job.max_timeouts,
                    ),
                )
            else:
                metrics = evaluate_proof_sample(task, g, engine, timeout=job.timeout if files else None)
            metrics = untested_sample_not_passed(metrics, "the suite has no usable row for this task")
        except Exception as exc:  # an engine bug on one sample must not lose the others
            metrics = _internal_error(job, f"{type(exc).__name__}: {exc}")[0]["metrics"]
        done[key] = metrics
        out.append(
            {
                "task_id": g.task_id,
                "sample": g.sample,
                "model": g.model,
                "metrics": metrics,
                "seconds": time.perf_counter() - start,
            }
        )
    return out


# ------------------------------------------------------------------ main side


def resolve_suites(specs: Sequence[str | Path]) -> list[SuiteSpec]:
    """``DIR`` or ``NAME=DIR``; the default name is the directory's name, made unique."""
    out: list[SuiteSpec] = []
    for spec in specs:
        text = str(spec)
        name, sep, path = text.partition("=")
        if sep and name and not Path(text).exists():
            p = Path(path)
        else:
            name, p = "", Path(text)
        if not p.is_dir():
            raise FileNotFoundError(f"suite directory not found: {p}")
        name = name or p.resolve().name
        base, n = name, 2
        while any(s.name == name for s in out):
            name = f"{base}-{n}"
            n += 1
        out.append(SuiteSpec(name, p))
    return out


def _suite_tasks(path: Path) -> dict[str, Path]:
    """task id → directory (ids from task.json; a directory without a readable id uses its name)."""
    tasks: dict[str, Path] = {}
    for d in discover_task_dirs(path):
        tid = d.name
        try:
            data = json.loads((d / "task.json").read_text(encoding="utf-8"))
            if isinstance(data, dict) and isinstance(data.get("id"), str) and data["id"]:
                tid = data["id"]
        except (OSError, ValueError):
            pass
        tasks.setdefault(tid, d)
    return tasks


def _suite_has_unexpected(dirs: Iterable[Path]) -> bool:
    """True if any test row of the suite carries an ``unexpected`` key (a cheap scan of test.json)."""
    for d in dirs:
        try:
            text = (d / "test.json").read_text(encoding="utf-8")
        except OSError:
            continue
        if '"unexpected"' in text:
            return True
    return False


ProgressFn = Callable[[str, int, int], None]  # (phase label, done, total)


def _cost(job: Job) -> int:
    if isinstance(job.task_dir, Shipped):
        size = sum(len(data) for rel, data in job.task_dir.files if rel == "test.json")
        return size * len(job.samples)
    try:
        return (Path(job.task_dir) / "test.json").stat().st_size * len(job.samples)
    except OSError:
        return 0


class _Pool:
    """The harness's jobs through one executor: biggest first, a tick per finished job, and an
    internal error (all samples UNKNOWN) for a job that raised or was lost with its worker."""

    def __init__(self, workers: int = 2, executor: Executor | None = None) -> None:
        self.executor = executor if executor is not None else pool_executor(workers)
        self.executor.__enter__()  # keep the workers between phases

    def warm(self) -> None:
        """Start the workers and import the evaluator in them, so phase timings exclude start-up."""
        self.executor.warm(_warm_worker)

    def map(
        self,
        jobs: list[Job],
        tick: Callable[[], None],
        fn: Callable[[Job], list[dict[str, Any]]] = run_job,
    ) -> list[list[dict[str, Any]]]:
        results: dict[int, list[dict[str, Any]]] = {}

        def on_done(key: str, result: Any, error: str | None, seconds: float) -> None:
            i = int(key)
            results[i] = result if error is None else _internal_error(jobs[i], error)
            tick()

        # the biggest jobs first, so that one long job does not run alone at the end
        order = sorted(range(len(jobs)), key=lambda i: -_cost(jobs[i]))
        self.executor.run(fn, [(str(i), jobs[i]) for i in order], on_done)
        return [results[i] for i in range(len(jobs))]

    def close(self) -> None:
        self.executor.__exit__(None, None, None)


G = TypeVar("G")


def group_by_task(
    generations: Iterable[G],
    known: Container[str],
    excluded: Container[str],
    sort_key: Callable[[str], Any],
    suite: str,
    noun: str,
) -> tuple[dict[str, list[G]], str | None]:
    """The generations of ``known`` ids grouped by task id (``excluded`` ids dropped, order kept),
    and the warning naming the ids the suite does not have (``None`` when there are none)."""
    by_task: dict[str, list[G]] = {}
    unknown: set[str] = set()
    for g in generations:
        tid = g.task_id  # type: ignore[attr-defined]
        if tid in excluded:
            continue
        if tid not in known:
            unknown.add(tid)
            continue
        by_task.setdefault(tid, []).append(g)
    if not unknown:
        return by_task, None
    shown = ", ".join(sorted(unknown, key=sort_key)[:5])
    more = f" (+{len(unknown) - 5} more)" if len(unknown) > 5 else ""
    return by_task, (
        f"suite {suite}: {len(unknown)} {noun} id(s) of the generations are not in the suite "
        f"and were skipped: {shown}{more}"
    )


def evaluate_generations(
    generations: Sequence[Generation],
    suites: Sequence[SuiteSpec],
    options: EvalOptions | None = None,
    progress: ProgressFn | None = None,
    generations_file: str = "",
    executor: Executor | None = None,
) -> EvaluationRun:
    """Score every generation on every suite (see the module docstring). ``executor`` runs the
    jobs (default: the local pool of ``options.workers``)."""
    options = options or EvalOptions()
    excluded = set(options.exclude)
    warnings: list[str] = []
    infos: list[SuiteInfo] = []
    results: list[SampleResult] = []
    pool = _Pool(max(1, options.workers), executor)
    metas = {(g.model or "", g.task_id, g.sample): g.meta for g in generations if g.meta is not None}
    try:
        pool.warm()
        for suite in suites:
            tasks = _suite_tasks(suite.path)
            info = SuiteInfo(suite.name, suite.path, sorted(tasks, key=task_sort_key))
            info.has_unexpected = _suite_has_unexpected(tasks.values())
            infos.append(info)
            by_task, unknown = group_by_task(generations, tasks, excluded, task_sort_key, suite.name, "task")
            if unknown:
                warnings.append(unknown)
            info.tasks_without_generations = [
                t for t in info.task_ids if t not in by_task and t not in excluded
            ]
            merged: dict[tuple[str, str, int], SampleResult] = {}
            for kind in KINDS:
                jobs = []
                for tid in sorted(by_task, key=task_sort_key):
                    samples = tuple(
                        sorted(
                            (g for g in by_task[tid] if kind in g.kinds),
                            key=lambda g: (g.model or "", g.sample),
                        )
                    )
                    if samples:
                        jobs.append(
                            Job(
                                suite.name,
                                ship(tasks[tid], pool.executor.remote),
                                tid,
                                kind,
                                samples,
                                options.engine,
                                options.engine_opts(kind),
                                options.fail_fast,
                                options.check_seconds(kind)
                                if options.engine == "native"
                                else options.timeout,
                                options.max_timeouts,
                                options.metric_budget,
                                not options.trust_suite,
                                options.metric_fuel,
                            )
                        )
                if not jobs:
                    continue
                label = f"{suite.name}: {kind}"
                done = 0

                def tick(label: str = label, total: int = len(jobs)) -> None:
                    nonlocal done
                    done += 1
                    if progress is not None:
                        progress(label, done, total)

                if progress is not None:
                    progress(label, 0, len(jobs))
                start = time.perf_counter()
                outs = pool.map(jobs, tick)
                info.wall_seconds[kind] = time.perf_counter() - start
                for out in outs:
                    for row in out:
                        key = (row["model"] or "", row["task_id"], row["sample"])
                        sr = merged.get(key)
                        if sr is None:
                            sr = merged[key] = SampleResult(
                                suite.name, row["task_id"], row["sample"], row["model"], meta=metas.get(key)
                            )
                        sr.metrics.update(row["metrics"])
                        sr.seconds[kind] = row["seconds"]
            order = {t: i for i, t in enumerate(info.task_ids)}
            results.extend(
                merged[k] for k in sorted(merged, key=lambda k: (k[0], order.get(k[1], len(order)), k[2]))
            )
    finally:
        pool.close()
    return EvaluationRun(options, infos, results, warnings, generations_file)
