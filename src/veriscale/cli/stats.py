"""``veriscale stats``: test-suite volumes of Verina-format datasets (Table 1 layout)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..benchmarks.stats import METRICS, DatasetStats, dataset_stats, multiplier
from ..benchmarks.verina import DatasetError
from .app import app


def _console() -> Console:
    # Non-terminal output (pipes, CI, tests) would otherwise be folded at 80 columns.
    c = Console()
    if not c.is_terminal or c.width < 120:
        c = Console(width=max(c.width, 120))
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
        table.add_row(st.name, str(len(st.tasks)), *cells)
    return table


@app.command("stats")
def stats_command(
    dirs: Annotated[list[Path] | None, typer.Argument(help="Verina-format dataset directories.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
    example: Annotated[
        bool, typer.Option("--example", help="Use the small benchmark embedded in veriscale (first).")
    ] = False,
) -> None:
    """Per-task counts of expected cases, unexpected outputs and unexpected inputs."""
    paths: list[tuple[Path, str | None]] = []
    if example:
        from ..examples import tiny_path

        paths.append((tiny_path(), "tiny (example)"))
    paths.extend((d, None) for d in dirs or [])
    if not paths:
        raise typer.BadParameter("give at least one dataset directory, or --example")
    try:
        all_stats = [dataset_stats(p, name) for p, name in paths]
    except DatasetError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        base = all_stats[0]
        payload = {"datasets": [s.to_json(base if i > 0 else None) for i, s in enumerate(all_stats)]}
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    console = _console()
    console.print(render_table(all_stats))
    for st in all_stats:
        if st.bad_rows:
            console.print(f"[yellow]{st.name}: {st.bad_rows} malformed row(s) were skipped in the counts[/]")
