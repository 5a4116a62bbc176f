"""``veriscale check DIR``: run an engine on a dataset's ground truth and report agreement."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..evaluate.groundtruth import CHECKS, CheckReport, Finding, TaskReport, merge_reports
from .app import app

console = Console()


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


def _task_dirs(root: Path) -> list[Path]:
    return sorted(
        (p for p in root.iterdir() if p.is_dir() and (p / "task.json").exists()),
        key=lambda p: (
            p.name.rpartition("_")[0],
            int(p.name.rpartition("_")[2] or 0) if p.name.rpartition("_")[2].isdigit() else -1,
            p.name,
        ),
    )


@dataclass(frozen=True)
class CheckJob:
    task_dir: str
    dataset: str
    seconds: float
    fuel: int
    engine: str = "native"
    checks: frozenset[str] | None = None


def _check_one(job: CheckJob) -> TaskReport:
    from ..benchmarks.verina import DatasetError, read_task
    from ..engines.factory import make_engine
    from ..evaluate.groundtruth import check_task

    path = Path(job.task_dir)
    try:
        task = read_task(path)
    except DatasetError as exc:
        rep = TaskReport(path.name)
        rep.findings.append(Finding(path.name, "read", -1, "undecodable", str(exc)))
        return rep
    engine = make_engine(job.engine, seconds=job.seconds, fuel=job.fuel)
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
            raise typer.BadParameter(
                f"unknown check {part!r}; use precond, impl, postcond or one of {', '.join(CHECKS)}",
                param_hint="--checks",
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
    progress: Callable[[int, int], None] | None = None,
) -> CheckReport:
    """Check every task; ``progress(done, total)`` after each one."""
    dirs = _task_dirs(root)
    extra = _not_task_dirs(root)
    if only:
        wanted = set(only)
        dirs = [d for d in dirs if d.name in wanted]
        extra = [r for r in extra if r.task in wanted]
    work = [CheckJob(str(d), root.name, seconds, fuel, engine, checks) for d in dirs]
    reports: list[TaskReport] = list(extra)
    if jobs <= 1:
        results: Iterable[TaskReport] = map(_check_one, work)
        for r in results:
            reports.append(r)
            if progress:
                progress(len(reports) - len(extra), len(work))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for r in pool.map(_check_one, work, chunksize=1):
                reports.append(r)
                if progress:
                    progress(len(reports) - len(extra), len(work))
    return merge_reports(reports)


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


@app.command("check")
def check_cmd(
    directory: Annotated[
        Path, typer.Argument(help="A Verina-format dataset directory.", exists=True, file_okay=False)
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes.")] = 1,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds per single check.")] = 5.0,
    task: Annotated[
        list[str] | None, typer.Option("--task", help="Only these task ids (repeatable).")
    ] = None,
    max_list: Annotated[
        int, typer.Option("--max-list", help="List at most this many findings (0: all).")
    ] = 0,
    engine: Annotated[
        str,
        typer.Option(
            "--engine",
            help="native (default) or lean (needs a Lean project: "
            "VERISCALE_LEAN_PROJECT, see docs/lean-setup.md).",
        ),
    ] = "native",
    checks: Annotated[
        str | None,
        typer.Option(
            "--checks",
            help="Only these checks, comma-separated: precond, impl, postcond, or full check names.",
        ),
    ] = None,
) -> None:
    """Run the ground truth of every task on every row and report agreement per check."""
    from ..benchmarks.vericontest import is_vericontest_root

    if is_vericontest_root(directory):  # VeriContest layout: its own check (see evaluate.vericontest_check)
        from ..evaluate.vericontest_check import check_command

        check_command(directory, as_json=as_json, jobs=jobs, timeout=timeout, only=task, max_list=max_list)
        return
    from ..engines.factory import ENGINE_NAMES

    if engine not in ENGINE_NAMES:
        raise typer.BadParameter(f"choose from {', '.join(ENGINE_NAMES)}", param_hint="--engine")
    if engine == "lean":
        from ..engines.lean_toolchain.project import lean_status

        project, why = lean_status()
        if project is None:
            typer.echo(f"check: Lean toolchain unavailable: {why}", err=True)
            raise typer.Exit(2)
    from .options import stage_progress

    with stage_progress(Console(stderr=True)) as bar:
        ticket = bar.add_task("check tasks", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(ticket, completed=done, total=total)

        rep = run_check(
            directory,
            jobs=jobs,
            seconds=timeout,
            only=task,
            engine=engine,
            checks=parse_checks(checks),
            progress=progress,
        )
    if as_json:
        json.dump(report_json(rep), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return
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
    if max_list:
        listed = listed[:max_list]
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
