"""``veriscale check``: run a dataset's ground truth with an engine and report agreement.

The dataset's format is found through ``formats.registry``; each format has one
checker below (``DATASET_CHECKS``), which runs and renders its own report.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ...formats.registry import detect_format, get_format
from ...runtime.executor import Executor, pool_executor
from ...runtime.shipping import Shipped, local_path, ship
from .verina import CHECKS, CheckReport, Finding, TaskReport, check_task, merge_reports

__all__ = ["DATASET_CHECKS", "CheckOptions", "parse_checks", "report_json", "run_check", "run_dataset_check"]


@dataclass(frozen=True)
class CheckOptions:
    as_json: bool = False
    jobs: int = 1
    timeout: float = 5.0
    only: list[str] | None = None
    max_list: int = 0
    engine: str = "native"
    checks: str | None = None
    executor: Executor | None = None  # None: the local pool of ``jobs`` workers


@dataclass(frozen=True)
class CheckJob:
    task_dir: str | Shipped  # a snapshot when the executor's workers may be remote
    dataset: str
    dataset_format: str
    seconds: float
    fuel: int
    engine: str = "native"
    checks: frozenset[str] | None = None
    language: str = "lean"


def _check_one(job: CheckJob) -> TaskReport:
    from ...formats.registry import get_format
    from ...languages.registry import language

    path = Path(local_path(job.task_dir))
    try:
        task = get_format(job.dataset_format).read_task(path)
    except ValueError as exc:
        rep = TaskReport(path.name)
        rep.findings.append(Finding(path.name, "read", -1, "undecodable", str(exc)))
        return rep
    engine = language(job.language).make_engine(job.engine, seconds=job.seconds, fuel=job.fuel)
    try:
        return check_task(engine, task, dataset=job.dataset, checks=job.checks)
    except Exception as exc:  # keep going: one task's crash must not lose the others
        rep = TaskReport(task.id)
        rep.findings.append(Finding(task.id, "internal", -1, "unknown", f"internal error: {exc!r}"))
        return rep


def parse_checks(spec: str | None) -> frozenset[str] | None:
    """``precond,impl`` / ``postcond`` / full check names → the set of checks to run."""
    if not spec:
        return None
    groups = {
        "precond": {"precond_accepts_tests", "precond_rejects_rejects"},
        "impl": {"impl_matches_expected"},
        "postcond": {"postcond_accepts_expected", "postcond_rejects_unexpected"},
    }
    out: set[str] = set()
    for part in spec.split(","):
        part = part.strip()
        if part in groups:
            out |= groups[part]
        elif part in CHECKS:
            out.add(part)
        else:
            raise ValueError(
                f"unknown check {part!r}; use precond, impl, postcond or one of {', '.join(CHECKS)}"
            )
    return frozenset(out)


def run_check(
    root: Path,
    jobs: int = 1,
    seconds: float = 5.0,
    fuel: int = 50_000_000,
    only: list[str] | None = None,
    engine: str = "native",
    checks: frozenset[str] | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> CheckReport:
    """Check every task of the Verina dataset at ``root`` (``only``: these task directories) on
    ``executor`` (default: ``jobs`` local workers); the reports merge in dataset order.
    Folders without ``task.json`` are reported, never skipped silently; ``progress(done, total)``
    is called after each task."""
    fmt = get_format("verina")
    dirs = [d for d in fmt.task_dirs(root) if (d / "task.json").exists()]
    if only:
        wanted = set(only)
        dirs = [d for d in dirs if d.name in wanted]
    extra = [r for r in _not_task_dirs(root) if not only or r.task in set(only)]
    ex = executor if executor is not None else pool_executor(jobs)
    work = [
        (
            str(i),
            CheckJob(ship(d, ex.remote), root.name, fmt.name, seconds, fuel, engine, checks, fmt.language),
        )
        for i, d in enumerate(dirs)
    ]
    reports: dict[str, TaskReport] = {}

    def on_done(key: str, rep: TaskReport | None, error: str | None, _seconds: float) -> None:
        if rep is None:  # the job raised or its worker died: a finding, not a lost task
            name = dirs[int(key)].name
            rep = TaskReport(name)
            rep.findings.append(Finding(name, "internal", -1, "unknown", f"internal error: {error}"))
        reports[key] = rep
        if progress:
            progress(len(reports), len(work))

    ex.run(_check_one, work, on_done)
    return merge_reports(extra + [reports[key] for key, _ in work])


def _not_task_dirs(root: Path) -> list[TaskReport]:
    """Folders that look like tasks but hold no ``task.json``: reported, never silently skipped."""
    out = []
    for p in sorted(root.iterdir()):
        if p.is_dir() and not p.name.startswith(".") and not (p / "task.json").exists():
            empty = not any(p.iterdir())
            why = f"{p}: no task.json" + (" (the folder is empty)" if empty else "") + "; task not checked"
            rep = TaskReport(p.name)
            rep.findings.append(Finding(p.name, "read", -1, "undecodable", why, group=why))
            out.append(rep)
    return out


def _undecodable_values(findings: list[Finding]) -> Counter[str]:
    """Undecodable values by reason, each counted once although every check reading it reports it."""
    seen: dict[tuple[str, str, int, str], str] = {}
    for f in findings:
        if f.kind == "undecodable":
            source = "reject" if f.check == "precond_rejects_rejects" else "test"
            seen.setdefault((f.task, source, f.row, f.detail), f.group or f.detail)
    return Counter(seen.values())


def report_json(rep: CheckReport) -> dict[str, Any]:
    return {
        "totals": rep.totals(),
        "findings": [
            {
                "task": f.task,
                "check": f.check,
                "row": f.row,
                "unexpected_index": f.sub,
                "kind": f.kind,
                "detail": f.detail,
            }
            for f in rep.findings()
        ],
    }


def _check_verina(directory: Path, opts: CheckOptions) -> int:
    console = Console()
    err = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err, transient=True, disable=not err.is_terminal,
    ) as bar:  # fmt: skip
        ticket = bar.add_task("check tasks", total=None)
        rep = run_check(
            directory,
            jobs=opts.jobs,
            seconds=opts.timeout,
            only=opts.only,
            engine=opts.engine,
            checks=parse_checks(opts.checks),
            executor=opts.executor,
            progress=lambda done, total: bar.update(ticket, completed=done, total=total),
        )
    if opts.as_json:
        json.dump(report_json(rep), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    totals = rep.totals()
    table = Table(title=f"veriscale check {directory}")
    for col in ("check", "agree / decodable", "disagree", "unknown", "undecodable"):
        table.add_column(col, justify="left" if col == "check" else "right")
    for name, label in CHECKS.items():
        t = totals[name]
        table.add_row(
            label,
            f"{t['agree']}/{t['decodable']}",
            str(t["disagree"]),
            str(t["unknown"]),
            str(t["undecodable"]),
        )
    console.print(table)

    findings = rep.findings()
    listed = [f for f in findings if f.kind != "undecodable"]
    if opts.max_list:
        listed = listed[: opts.max_list]
    for f in listed:
        sub = f"[{f.sub}]" if f.sub is not None else ""
        console.print(
            f"{f.kind.upper():9} {f.task} {f.check} row {f.row}{sub}: {f.detail}",
            markup=False,
            highlight=False,
        )
    undec = _undecodable_values(findings)
    if undec:
        console.print(
            f"undecodable values (data defects, not counted as disagreements): {sum(undec.values())}",
            highlight=False,
        )
        for reason, n in sorted(undec.items(), key=lambda kv: (-kv[1], kv[0])):
            console.print(f"  {n:6}  {reason}", markup=False, highlight=False)
    n_unknown = sum(1 for f in findings if f.kind == "unknown")
    n_dis = sum(1 for f in findings if f.kind == "disagree")
    console.print(
        f"summary: {n_dis} disagreements, {n_unknown} unknown, {os.cpu_count()} cpus available",
        markup=False,
        highlight=False,
    )
    return 0


def _check_vericontest(directory: Path, opts: CheckOptions) -> int:
    from .vericontest import check_command

    check_command(
        directory, as_json=opts.as_json, jobs=opts.jobs, timeout=opts.timeout, only=opts.only,
        max_list=opts.max_list, executor=opts.executor,
    )  # fmt: skip
    return 0


# One checker per format name (formats.registry).
DATASET_CHECKS = {"verina": _check_verina, "vericontest": _check_vericontest}


def run_dataset_check(directory: Path, opts: CheckOptions) -> int:
    """Check the dataset at ``directory`` in its own format; the exit status (0: ran)."""
    fmt = detect_format(directory)
    checker = DATASET_CHECKS.get(fmt.name)
    if checker is None:
        raise ValueError(f"check is not available for {fmt.name} datasets")
    return checker(directory, opts)
