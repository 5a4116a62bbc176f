"""``veriscale evaluate`` on VeriContest roots: its generations format, its six tasks (see
``docs/evaluate.md``, "VeriContest"). Reached from ``cli/evaluate.py`` through ``FORMAT_EVALUATORS``
(keyed by the suites' format name, as found by ``formats.registry``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

__all__ = ["FORMAT_EVALUATORS", "VcCliOptions", "run_vericontest_evaluation"]


@dataclass(frozen=True)
class VcCliOptions:
    verus: str | None = None
    test_seconds: float = 2.0
    verus_timeout: float = 120.0


def run_vericontest_evaluation(
    generations: Path,
    suites: list[Any],
    options: Any,
    out: Path,
    chart: bool,
    executor: Any,
    extra: VcCliOptions,
) -> None:
    from ..evaluate.gaps import engine_gaps, format_gaps
    from ..evaluate.report import comparison_tables, write_outputs
    from ..evaluate.scoring.errors import LABELS, ErrorCategory
    from ..evaluate.vericontest.generations import read_vc_generations
    from ..evaluate.vericontest.harness import VcEvalOptions, evaluate_vc_generations
    from ..evaluate.vericontest.verus import find_verus
    from ..languages.registry import language

    console = Console()
    err = Console(stderr=True)
    if (why := language("verus").engine_unavailable("native")) is not None:
        typer.echo(f"error: {why}", err=True)
        raise typer.Exit(2)
    gs = read_vc_generations(generations)
    for e in gs.errors[:20]:
        typer.echo(f"skipped {e}", err=True)
    if len(gs.errors) > 20:
        typer.echo(f"... and {len(gs.errors) - 20} more bad lines", err=True)
    if not gs.generations:
        typer.echo(f"error: {generations}: no valid VeriContest generations", err=True)
        raise typer.Exit(2)
    asked = extra.verus or os.environ.get("VERISCALE_VERUS", "").strip() or None
    verus = find_verus(asked) if asked else None
    if asked and verus is None:
        src = "--verus" if extra.verus else "VERISCALE_VERUS"
        typer.echo(f"error: {src}: {asked!r} is not an executable Verus binary", err=True)
        raise typer.Exit(2)
    vc = VcEvalOptions(
        test_seconds=extra.test_seconds,
        trust_suite=options.trust_suite,
        verus=verus,
        verus_timeout=extra.verus_timeout,
    )
    with (
        executor,
        Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=err, transient=False,
        ) as progress,
    ):  # fmt: skip
        bars: dict[str, int] = {}

        def on_progress(label: str, done: int, total: int) -> None:
            if label not in bars:
                bars[label] = progress.add_task(label, total=total)
            progress.update(bars[label], completed=done)

        run = evaluate_vc_generations(
            gs.generations, suites, options, vc, on_progress, str(generations.resolve()), executor=executor
        )
    run.warnings[:0] = [str(e) for e in gs.errors]
    paths, summary = write_outputs(run, out, chart=chart)
    for table in comparison_tables(summary):
        console.print(table)
    for entry in summary["results"]:
        for metric, info in entry["metrics"].items():
            if info["errors"]:
                shown = ", ".join(
                    f"{LABELS[ErrorCategory(c)]}: {n}" for c, n in sorted(info["errors"].items())
                )
                typer.echo(f"errors of {metric}: {shown}")
    for line in format_gaps(engine_gaps(r.to_json() for r in run.results)):
        typer.echo(f"engine gaps behind UNKNOWN results: {line}")
    if verus is None:
        typer.echo("note: no Verus (--verus / VERISCALE_VERUS): proof samples are NOT_EVALUATED", err=True)
    for w in run.warnings:
        typer.echo(f"warning: {w}", err=True)
    for name, p in paths.items():
        typer.echo(f"{name}: {p}")


FORMAT_EVALUATORS: dict[str, Callable[..., None]] = {"vericontest": run_vericontest_evaluation}
