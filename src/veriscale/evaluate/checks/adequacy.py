"""Suite adequacy: branch coverage of the ground truth and adversary kill rate (``veriscale stats --adequacy``).

Per task and suite (a Verina-format dataset directory):

* **coverage** — the ground-truth implementation runs, instrumented by the
  native evaluator (``lean/eval/coverage.py``), on every test input of the
  suite; the share of its probes (definition entries, ``if``/``else``
  branches, match arms, loop bodies of ``code`` and ``code_aux``) that fire.
  Rows whose input does not decode, or that the precondition rejects, are
  skipped and counted. Branches the ground truth can never reach still count:
  this is a measurement, not a target.
* **kill rate** — every adversary of the pool (wrong implementations: offline
  templates and mutants) runs on the same inputs with a small fuel budget; it
  is *killed* when its output differs from an expected output on some row, and
  stops at its first timeout. The denominator is the adversaries that differ
  from the ground truth on at least one input of the union of the suites
  given (equivalent mutants do not count); ``killed/pool`` is reported too.

Everything is deterministic: fuel budgets (not wall clock) decide adversary
timeouts, and results are ordered by suite and task id.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...formats.verina.dataset import Task, read_dataset, read_task, task_sort_key
from ...languages.api import Language
from ...languages.registry import language_of
from ...runtime.coverage import KINDS, CoverageReport, Probe
from ...runtime.engine import OutcomeKind, Truth
from ...runtime.executor import Executor, pool_executor
from ...runtime.limits import Limits
from ...runtime.shipping import Shipped, local_path, ship
from ...values import codec

__all__ = [
    "ADVERSARY_FUEL",
    "AdequacyReport",
    "AdversaryRun",
    "SuiteAdequacy",
    "TaskAdequacy",
    "adequacy_report",
    "section_file_line",
    "task_adequacy",
]

ADVERSARY_FUEL = 1_000_000  # evaluation steps per adversary run, as in the output stage's attack
ADVERSARY_SECONDS = 2.0  # backstop for runs that are slow without using fuel (huge numbers)
GROUND_TRUTH_LIMITS = Limits(seconds=20.0)

AdversaryPool = Callable[[Task], Sequence[Any]]


@dataclass(frozen=True, slots=True)
class AdversaryRun:
    """One adversary on one suite's rows."""

    id: str
    origin: str
    killed: bool  # an output differed from an expected output
    differs: bool  # an output differed from the ground truth's output on the same input
    rows_run: int
    timeout: bool  # ran out of fuel (it was stopped there)
    values: int  # rows where it produced a value

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class TaskAdequacy:
    task: str
    suite: str = ""
    rows: int = 0  # test rows in the suite
    used: int = 0  # rows run (decoded, precondition not FALSE)
    undecodable: int = 0
    precond_false: int = 0
    precond_unknown: int = 0  # kept: the precondition could not be decided
    gt_no_value: int = 0  # ground truth gave no value (timeout/error/unsupported)
    gt_mismatch: int = 0  # ground truth's value differs from the expected output
    error: str | None = None  # the implementation could not be compiled: no coverage
    coverage: CoverageReport | None = None
    file_lines: dict[int, int] = field(default_factory=dict)  # probe index -> line in task.lean
    adversaries: list[AdversaryRun] | None = None  # None: not measured
    specs: Any = None  # ``spec_adequacy.SpecKills`` (None: not measured)
    seconds: float = 0.0

    # ------------------------------------------------------------- coverage
    @property
    def measured(self) -> bool:
        return self.coverage is not None

    @property
    def ratio(self) -> float | None:
        return self.coverage.ratio if self.coverage is not None else None

    def missed(self) -> list[Probe]:
        return self.coverage.missed() if self.coverage is not None else []

    def describe(self, p: Probe) -> str:
        line = self.file_lines.get(p.index)
        where = f"task.lean:{line}:{p.col}" if line else p.where()
        what = {"def": "entry", "branch": f"{p.label} branch"}.get(p.kind, p.label)
        return f"{what} of {p.definition} at {where}"

    # ------------------------------------------------------------ kill rate
    def differing_ids(self) -> set[str]:
        return {a.id for a in self.adversaries or [] if a.differs}

    def kills(self, distinguishable: set[str] | None = None) -> tuple[int, int]:
        """(killed, denominator): over ``distinguishable`` ids (default: those differing on this suite)."""
        d = self.differing_ids() if distinguishable is None else distinguishable
        ids = {a.id for a in self.adversaries or []}
        killed = sum(1 for a in self.adversaries or [] if a.killed and a.id in d)
        return killed, len(d & ids)

    def to_json(self, distinguishable: set[str] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "task": self.task,
            "rows": self.rows,
            "used": self.used,
            "undecodable": self.undecodable,
            "precond_false": self.precond_false,
            "precond_unknown": self.precond_unknown,
            "gt_no_value": self.gt_no_value,
            "gt_mismatch": self.gt_mismatch,
            "error": self.error,
            "seconds": round(self.seconds, 3),
        }
        cov = self.coverage
        if cov is not None:
            out["coverage"] = {
                "hit": cov.hit,
                "total": cov.total,
                "ratio": round(cov.ratio, 6),
                "by_kind": {k: {"hit": h, "total": t} for k, (h, t) in cov.by_kind().items()},
                "missed": [
                    {**p.to_json(), "file_line": self.file_lines.get(p.index), "text": self.describe(p)}
                    for p in cov.missed()
                ],
            }
        if self.adversaries is not None:
            d = self.differing_ids() if distinguishable is None else distinguishable
            killed, denom = self.kills(d)
            out["adversaries"] = {
                "pool": len(self.adversaries),
                "killed_raw": sum(a.killed for a in self.adversaries),
                "differing_here": len(self.differing_ids()),
                "distinguishable": denom,
                "killed": killed,
                "kill_rate": round(killed / denom, 6) if denom else None,
                "timeouts": sum(a.timeout for a in self.adversaries),
                "survivors": sorted(a.id for a in self.adversaries if a.id in d and not a.killed),
                "runs": [a.to_json() for a in self.adversaries],
            }
        if self.specs is not None:
            out["specs"] = self.specs.to_json()
        return out


def section_file_line(task: Task, section: str, line: int) -> int | None:
    """The ``task.lean`` line of ``line`` (1-based) of the concatenated text of the ``section`` sections."""
    if line < 1:
        return None
    MARKER = language_of(task).section_marker  # type: ignore[attr-defined]

    seen = 0
    open_at: int | None = None
    for no, text in enumerate(task.lean_text.split("\n"), start=1):
        if MARKER not in text:
            continue
        words = text.split(MARKER, 1)[1].split()
        if len(words) >= 2 and words[1] == section:
            if words[0] == "@start":
                open_at = no
            elif words[0] == "@end" and open_at is not None:
                n = no - open_at - 1  # lines of this section
                if line <= seen + n:
                    return open_at + (line - seen)
                seen += n
                open_at = None
    return None


def _native_coverage_engine(lang: Language, engine: Any) -> Any:
    if engine is None:
        return lang.native_engine(GROUND_TRUTH_LIMITS, coverage=True)
    return lang.with_coverage(engine)


def _adversary_engine(lang: Language) -> Any:
    return lang.native_engine(Limits(fuel=ADVERSARY_FUEL, seconds=ADVERSARY_SECONDS))


def task_adequacy(
    task: Task,
    engine: Any = None,
    adversaries: Sequence[Any] | None = None,
    *,
    adversary_engine: Any = None,
    suite: str = "",
) -> TaskAdequacy:
    """Coverage of the ground truth by ``task``'s test suite, and the suite's kills among ``adversaries``.

    ``engine``: a native engine (coverage is switched on; default: generous limits);
    ``adversaries``: objects with ``.id``, ``.origin`` and ``.overrides`` (None: no kill rate);
    ``adversary_engine``: runs them (default: native, ``ADVERSARY_FUEL`` steps per run).
    """
    lang = language_of(task)
    t0 = time.perf_counter()
    res = TaskAdequacy(task.id, suite, rows=len(task.tests))
    te = _native_coverage_engine(lang, engine).for_task(task)
    ret = task.signature.return_type
    structs = task.structs
    rows: list[tuple[dict[str, Any], str]] = []  # (input values, expected key)
    for i, row in enumerate(task.tests):
        try:
            values = row.decode_input(task, i)
            exp_key = codec.key(ret, row.decode_expected(task, i), structs=structs)
        except Exception:  # DecodeError, or a value the codec cannot key
            res.undecodable += 1
            continue
        v = te.precondition(values)
        if v.truth is Truth.FALSE:
            res.precond_false += 1
            continue
        if v.truth is Truth.UNKNOWN:
            res.precond_unknown += 1
        rows.append((values, exp_key))
    res.used = len(rows)
    # only the implementation's own runs count (the precondition may call helpers)
    te.reset_coverage()
    gt_keys: list[str | None] = []
    for values, exp_key in rows:
        o = te.run(values)
        k = None
        if o.ok:
            try:
                k = codec.key(ret, o.value, structs=structs)
            except Exception:
                k = None
        if k is None:
            res.gt_no_value += 1
        elif k != exp_key:
            res.gt_mismatch += 1
        gt_keys.append(k)
    try:
        res.coverage = te.coverage()
    except lang.Error as exc:
        res.error = f"{type(exc).__name__}: {exc}"
    if res.coverage is not None:
        for p in res.coverage.probes:
            fl = section_file_line(task, p.section, p.line)
            if fl is not None:
                res.file_lines[p.index] = fl
    if adversaries is not None:
        aeng = adversary_engine if adversary_engine is not None else _adversary_engine(lang)
        res.adversaries = [_run_adversary(task, aeng, a, rows, gt_keys) for a in adversaries]
    res.seconds = time.perf_counter() - t0
    return res


def _run_adversary(
    task: Task, engine: Any, adv: Any, rows: list[tuple[dict[str, Any], str]], gt_keys: list[str | None]
) -> AdversaryRun:
    ret = task.signature.return_type
    ate = engine.for_task(task, overrides=adv.overrides)
    killed = differs = timeout = False
    n = values_n = 0
    for (values, exp_key), gt_key in zip(rows, gt_keys):
        n += 1
        o = ate.run(values)
        if not o.ok:
            if o.kind is OutcomeKind.TIMEOUT:
                timeout = True
                break
            continue
        try:
            k = codec.key(ret, o.value, structs=task.structs)
        except Exception:
            continue
        values_n += 1
        killed = killed or k != exp_key
        differs = differs or (gt_key is not None and k != gt_key)
        if killed and differs:
            break
    return AdversaryRun(adv.id, getattr(adv, "origin", ""), killed, differs, n, timeout, values_n)


# ------------------------------------------------------------------ datasets


@dataclass
class SuiteAdequacy:
    name: str
    path: str
    tasks: list[TaskAdequacy]

    def summary(self, distinguishable: dict[str, set[str]] | None = None) -> dict[str, Any]:
        ok = [t for t in self.tasks if t.coverage is not None]
        ratios = [t.coverage.ratio for t in ok if t.coverage is not None]
        kinds = {k: [0, 0] for k in KINDS}
        hit = total = 0
        for t in ok:
            assert t.coverage is not None
            hit += t.coverage.hit
            total += t.coverage.total
            for k, (h, n) in t.coverage.by_kind().items():
                kinds[k][0] += h
                kinds[k][1] += n
        out: dict[str, Any] = {
            "name": self.name,
            "path": self.path,
            "tasks": len(self.tasks),
            "measured": len(ok),
            "errors": len(self.tasks) - len(ok),
            "rows": sum(t.rows for t in self.tasks),
            "used": sum(t.used for t in self.tasks),
            "undecodable": sum(t.undecodable for t in self.tasks),
            "precond_false": sum(t.precond_false for t in self.tasks),
            "gt_no_value": sum(t.gt_no_value for t in self.tasks),
            "gt_mismatch": sum(t.gt_mismatch for t in self.tasks),
            "coverage_mean": _mean(ratios),
            "tasks_full": sum(1 for r in ratios if r >= 1.0),
            "probes_hit": hit,
            "probes_total": total,
            "by_kind": {k: {"hit": h, "total": n} for k, (h, n) in kinds.items()},
            "seconds": round(sum(t.seconds for t in self.tasks), 3),
        }
        with_adv = [t for t in self.tasks if t.adversaries is not None]
        if with_adv:
            rates: list[float] = []
            killed = denom = raw = pool = timeouts = 0
            for t in with_adv:
                d = distinguishable.get(t.task) if distinguishable is not None else None
                k, n = t.kills(d)
                killed += k
                denom += n
                if n:
                    rates.append(k / n)
                assert t.adversaries is not None
                raw += sum(a.killed for a in t.adversaries)
                pool += len(t.adversaries)
                timeouts += sum(a.timeout for a in t.adversaries)
            out["adversaries"] = {
                "pool": pool,
                "killed_raw": raw,
                "distinguishable": denom,
                "killed": killed,
                "kill_rate_mean": _mean(rates),
                "kill_rate_pooled": killed / denom if denom else None,
                "raw_rate": raw / pool if pool else None,
                "tasks_all_killed": sum(1 for r in rates if r >= 1.0),
                "tasks_with_adversaries": len(rates),
                "timeouts": timeouts,
                # every adversary of the pool counts (mutants that might be equivalent included):
                # no denominator that only counts what some row already tells apart
                "survivors": {
                    t.task: sorted(a.id for a in t.adversaries or [] if not a.killed)
                    for t in with_adv
                    if any(not a.killed for a in t.adversaries or [])
                },
            }
        with_specs = [t.specs for t in self.tasks if t.specs is not None]
        if with_specs:
            out["specs"] = {
                k: sum(getattr(x, k) for x in with_specs)
                for k in ("post_built", "post_killed", "pre_built", "pre_killed")
            }
        return out


@dataclass
class AdequacyReport:
    suites: list[SuiteAdequacy]
    seconds: float = 0.0  # wall time of the whole measurement
    jobs: int = 1

    def distinguishable(self) -> dict[str, set[str]]:
        """Per task id: adversaries differing from the ground truth on some input of any suite."""
        out: dict[str, set[str]] = {}
        for s in self.suites:
            for t in s.tasks:
                out.setdefault(t.task, set()).update(t.differing_ids())
        return out

    def summaries(self) -> list[dict[str, Any]]:
        d = self.distinguishable()
        return [s.summary(d) for s in self.suites]

    def to_json(self) -> dict[str, Any]:
        d = self.distinguishable()
        return {
            "seconds": round(self.seconds, 3),
            "jobs": self.jobs,
            "suites": [
                {**s.summary(d), "task_details": [t.to_json(d.get(t.task)) for t in s.tasks]}
                for s in self.suites
            ],
        }


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


@dataclass(frozen=True)
class _Job:
    suite: int
    suite_name: str
    task_dir: str | Shipped  # a snapshot when the executor's workers may be remote
    pool: AdversaryPool | None


def _task_dir_of(job: _Job) -> str:
    """The task directory's path as the driver knows it (its name for a snapshot)."""
    return job.task_dir.name if isinstance(job.task_dir, Shipped) else job.task_dir


def _run_job(job: _Job) -> tuple[int, TaskAdequacy]:
    from .spec_adequacy import spec_kills

    task = read_task(local_path(job.task_dir))
    advs = job.pool(task) if job.pool is not None else None
    res = task_adequacy(task, None, advs, suite=job.suite_name)
    if job.pool is not None:  # with the adversaries, the weakened specifications too
        t0 = time.perf_counter()
        res.specs = spec_kills(task)
        res.seconds += time.perf_counter() - t0
    return job.suite, res


def adequacy_report(
    dirs: Iterable[Path | str],
    *,
    jobs: int = 1,
    tasks: Iterable[str] | None = None,
    adversary_pool: AdversaryPool | None = None,
    names: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
) -> AdequacyReport:
    """Adequacy of every task of every suite in ``dirs``.

    ``adversary_pool(task)`` gives the adversaries (e.g. the output stage's
    ``all_adversaries``; None: coverage only). ``jobs > 1`` runs tasks in a
    process pool, ``executor`` on any executor (``adversary_pool`` must then be a
    module-level function). A failing job does not stop the others; then a RuntimeError
    names every failed task.
    """
    t0 = time.perf_counter()
    paths = [Path(d) for d in dirs]
    wanted = set(tasks) if tasks is not None else None
    suite_names = list(names) if names is not None else [p.name for p in paths]
    ex = executor if executor is not None else pool_executor(jobs)
    work: list[_Job] = []
    sizes: list[int] = []
    for si, p in enumerate(paths):
        for task in read_dataset(p):
            if wanted is not None and task.id not in wanted:
                continue
            work.append(_Job(si, suite_names[si], ship(task.dir, ex.remote), adversary_pool))
            sizes.append(len(task.tests))
    results: list[list[TaskAdequacy]] = [[] for _ in paths]
    errors: list[str] = []
    done = 0

    def on_done(key: str, result: tuple[int, TaskAdequacy] | None, error: str | None, _s: float) -> None:
        nonlocal done
        if result is None:
            job = work[int(key)]
            errors.append(f"{suite_names[job.suite]}: task {Path(_task_dir_of(job)).name}: {error}")
        else:
            si, r = result
            results[si].append(r)
        done += 1
        if progress is not None:
            progress(done, len(work))

    if executor is None and len(work) <= 1:
        ex = pool_executor(1)
    # the biggest suites first, so that one long task does not finish alone at the end
    order = sorted(range(len(work)), key=lambda i: -sizes[i])
    ex.run(_run_job, [(str(i), work[i]) for i in order], on_done)
    if errors:
        raise RuntimeError("adequacy failed on " + "; ".join(sorted(errors)))
    suites = [
        SuiteAdequacy(suite_names[i], str(p), sorted(results[i], key=lambda t: task_sort_key(t.task)))
        for i, p in enumerate(paths)
    ]
    return AdequacyReport(suites, time.perf_counter() - t0, max(1, jobs))
