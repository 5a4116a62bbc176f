"""``veriscale stats``: test-suite volumes of Verina-format datasets (Table 1 layout)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..formats.api import FormatError
from ..formats.stats import METRICS, DatasetStats, dataset_stats, multiplier
from .app import app
from .options import ExecutorOpt, RayAddressOpt, WorkersOpt, executor_from_options

if TYPE_CHECKING:
    from ..runtime.executor import Executor


def _console(width: int = 120) -> Console:
    # Non-terminal output (pipes, CI, tests) would otherwise be folded at 80 columns.
    c = Console()
    if not c.is_terminal or c.width < width:
        c = Console(width=max(c.width, width))
    return c


def render_table(all_stats: list[DatasetStats]) -> Table:
    table = Table(title="Test-suite volume per task: mean (min–max), × total relative to the first dataset")
    table.add_column("Dataset", no_wrap=True)
    table.add_column("Tasks", justify="right", no_wrap=True)
    for _attr, title in METRICS:
        table.add_column(title, no_wrap=True)
    base = all_stats[0]
    for i, st in enumerate(all_stats):
        cells = []
        for attr, _title in METRICS:
            cell = st.metric(attr).cell()
            if i > 0:
                m = multiplier(st, base, attr)
                cell += f" (×{m:.2f})" if m is not None else " (×–)"
            cells.append(cell)
        n_bad = len(st.errors)
        n_tasks = f"{len(st.tasks) - n_bad}" + (f" (+{n_bad} unreadable)" if n_bad else "")
        table.add_row(st.name, n_tasks, *cells)
    return table


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def render_adequacy(summaries: list[dict[str, Any]], seconds: float, jobs: int) -> Table:
    table = Table(
        title=f"Suite adequacy: ground-truth coverage and adversary kills ({seconds:.0f} s, -j {jobs})"
    )
    table.add_column("Suite", no_wrap=True)
    for col in (
        "Tasks",
        "Rows run",
        "Coverage mean",
        "Tasks 100%",
        "Probes hit",
        "Branches",
        "Arms",
        "Loops",
        "Kill rate mean",
        "Killed / dist.",
        "Mutants killed / generated",
        "Weak. post killed / built",
        "Weak. pre killed / built (conjuncts covered)",
    ):
        table.add_column(col, justify="right")
    for s in summaries:
        kinds = [f"{v['hit']}/{v['total']}" for v in (s["by_kind"][k] for k in ("branch", "arm", "loop"))]
        adv = s.get("adversaries")
        tasks = f"{s['tasks']}" + (f" ({s['errors']} err)" if s["errors"] else "")
        table.add_row(
            s["name"],
            tasks,
            f"{s['used']}/{s['rows']}",
            _pct(s["coverage_mean"]),
            f"{s['tasks_full']}/{s['measured']}",
            f"{s['probes_hit']}/{s['probes_total']}",
            *kinds,
            _pct(adv["kill_rate_mean"]) if adv else "–",
            f"{adv['killed']}/{adv['distinguishable']}" if adv else "–",
            f"{adv['killed_raw']}/{adv['pool']}" if adv else "–",
            f"{sp['post_killed']}/{sp['post_built']}" if (sp := s.get("specs")) else "–",
            f"{sp['pre_killed']}/{sp['pre_built']}" if sp else "–",
        )
    return table


def _adequacy(
    dirs: list[Path],
    as_json: bool,
    jobs: int,
    tasks: list[str] | None,
    adversaries: bool,
    executor: Executor | None = None,
) -> None:
    from ..evaluate.checks.adequacy import adequacy_report

    pool = None
    if adversaries:
        from ..pipeline.outputs.stage import all_adversaries

        pool = all_adversaries
    console = _console(width=200)  # fourteen columns
    done_note = [0]

    def progress(done: int, total: int) -> None:
        if not as_json and console.is_terminal and done - done_note[0] >= max(1, total // 20):
            done_note[0] = done
            console.print(f"[dim]{done}/{total} tasks[/]")

    report = adequacy_report(
        dirs, jobs=jobs, tasks=tasks, adversary_pool=pool, progress=progress, executor=executor
    )
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
        return
    console.print(render_adequacy(report.summaries(), report.seconds, report.jobs))
    console.print(
        "[dim]Coverage: share of the ground truth's definition entries, if/else branches, match arms and"
        " loop bodies (code, code_aux) executed by the suite's inputs. Kill rate: adversaries whose output"
        " differs from an expected output, over those differing from the ground truth on some input of"
        " any suite given.[/]"
    )


@app.command("stats")
def stats_command(
    dirs: Annotated[list[Path] | None, typer.Argument(help="Verina-format dataset directories.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
    example: Annotated[
        bool, typer.Option("--example", help="Use the small benchmark embedded in veriscale (first).")
    ] = False,
    adequacy: Annotated[
        bool,
        typer.Option(
            "--adequacy",
            help="Suite adequacy: ground-truth branch coverage and adversary kill rate per suite.",
        ),
    ] = False,
    jobs: WorkersOpt = 1,
    task: Annotated[
        list[str] | None, typer.Option("--task", help="Only these task ids (--adequacy; repeatable).")
    ] = None,
    no_adversaries: Annotated[
        bool, typer.Option("--no-adversaries", help="Coverage only, no kill rate (--adequacy).")
    ] = False,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
) -> None:
    """Per-task counts of expected cases, unexpected outputs and unexpected inputs (or, with
    --adequacy, branch coverage and adversary kill rate of each suite)."""
    paths: list[tuple[Path, str | None]] = []
    if example:
        from ..examples import tiny_path

        paths.append((tiny_path(), "tiny (example)"))
    paths.extend((d, None) for d in dirs or [])
    if not paths:
        raise typer.BadParameter("give at least one dataset directory, or --example")
    if adequacy:
        from .stats_suites import format_suite_adequacy

        if format_suite_adequacy([p for p, _ in paths], as_json):  # formats that build their own suites
            return
        ex = executor_from_options(executor, jobs, ray_address, serial_for_one=True)
        try:
            with ex:
                _adequacy([p for p, _ in paths], as_json, jobs, task, not no_adversaries, ex)
        except FormatError as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(1) from None
        return
    try:
        all_stats = [dataset_stats(p, name) for p, name in paths]
    except FormatError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        base = all_stats[0]
        payload = {"datasets": [s.to_json(base if i > 0 else None) for i, s in enumerate(all_stats)]}
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        if any(st.errors for st in all_stats):
            raise typer.Exit(1)
        return
    console = _console()
    console.print(render_table(all_stats))
    for st in all_stats:
        if st.bad_rows:
            console.print(f"[yellow]{st.name}: {st.bad_rows} malformed row(s) were skipped in the counts[/]")
        for name, why in sorted(st.errors.items()):
            console.print(f"{st.name}: task {name} left out: {why}", markup=False, highlight=False)
    if any(st.errors for st in all_stats):
        raise typer.Exit(1)
