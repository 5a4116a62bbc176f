"""``veriscale check-data``: decode every value of a dataset strictly and report what fails."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..formats.api import FormatError
from ..formats.check_data import CheckReport, Failure, check_dataset
from .app import app


def _clip(s: str, n: int = 60) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def _example(e: Failure) -> str:
    """``task file [row N] [field]: what`` — the reason of an unreadable task, else the failing text."""
    where = [e.task, e.file]
    if e.row is not None:
        where.append(f"row {e.row}")
    if e.field:
        where.append(e.field)
    what = e.detail if e.detail and not e.text else _clip(repr(e.text))
    return f"{' '.join(where)}: {what}"


def print_report(report: CheckReport, console: Console) -> None:
    console.print(
        f"[bold]{escape(report.dataset)}[/]: {report.tasks} tasks, {report.rows} rows, "
        f"{report.values} values; {len(report.failures)} values in {report.failed_rows} rows fail to decode"
    )
    groups = report.groups()
    if groups:
        table = Table(title="Decoding failures by reason")
        table.add_column("Reason")
        table.add_column("Values", justify="right")
        table.add_column("Rows", justify="right")
        table.add_column("Examples (task file row field: text)")
        for g in groups:
            examples = "\n".join(escape(_example(e)) for e in g.examples)
            table.add_row(escape(g.reason), str(g.values), str(g.rows), examples)
        console.print(table)
    console.print(
        f"Exact duplicate rows: {report.duplicate_rows}; repeated inputs (canonical key): "
        f"{report.duplicate_inputs} (with a different expected output: {report.conflicting_expected}); "
        f"reject inputs that are also test inputs: {report.rejects_also_tests}"
    )
    for line in report.duplicate_examples:
        console.print(f"  {escape(line)}")


@app.command("check-data")
def check_data_command(
    dir: Annotated[Path, typer.Argument(help="A dataset directory (Verina or VeriContest format).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Decode every input, expected/unexpected output and reject input strictly; report failures (exit 0)."""
    try:
        report = check_dataset(dir)
    except FormatError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
        return
    console = Console()
    if not console.is_terminal or console.width < 120:
        console = Console(width=max(console.width, 140))
    print_report(report, console)
