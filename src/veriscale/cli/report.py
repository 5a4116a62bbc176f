"""``veriscale report``: a static HTML site from evaluation output folders and scale run folders."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .app import app


def report_hint(*paths: Path | str, out: Path | str | None = None) -> str:
    """The command that makes the report of ``paths`` (printed by ``evaluate`` and ``scale``)."""
    first = Path(paths[0])
    site = Path(out) if out is not None else first / "site"
    return "veriscale report " + " ".join(str(p) for p in paths) + f" --out {site}"


@app.command("report")
def report_cmd(
    paths: Annotated[
        list[Path],
        typer.Argument(
            exists=True,
            file_okay=False,
            help="Evaluation output folders (summary.json, results.jsonl) and/or `veriscale scale` run folders.",
        ),
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder of the site (index.html inside).")] = Path(
        "report"
    ),
    title: Annotated[str, typer.Option(help="Title shown on every page.")] = "veriscale report",
) -> None:
    """Write a static HTML report (overview, models, suites, one page per task) that opens from file://."""
    import time

    from ..report.load import ReportInputError
    from ..report.site import build_site

    start = time.perf_counter()
    try:
        result = build_site(paths, out, title=title)
    except ReportInputError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    for p in result.problems[:30]:
        typer.echo(f"warning: {p}", err=True)
    if len(result.problems) > 30:
        typer.echo(
            f"... and {len(result.problems) - 30} more warnings (listed on the overview page)", err=True
        )
    secs = time.perf_counter() - start
    typer.echo(
        f"report: {result.pages} pages, {result.bytes / 1e6:.1f} MB in {secs:.1f} s: "
        f"{result.index.resolve().as_uri()}"
    )
