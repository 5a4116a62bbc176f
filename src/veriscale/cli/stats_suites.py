"""``stats --adequacy`` for formats that build their own suites (``Format.suite_builder``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

__all__ = ["format_suite_adequacy"]


def format_suite_adequacy(dirs: list[Path], as_json: bool) -> bool:
    """Print the adequacy of every directory when all of them are such formats; False otherwise."""
    from ..formats.api import FormatError
    from ..formats.registry import detect_format

    rows: list[tuple[Path, Any]] = []
    for d in dirs:
        try:
            fmt = detect_format(d)
        except FormatError:
            return False
        builder = fmt.suite_builder()
        if builder is None or not hasattr(builder, "adequacy"):
            return False
        rows.append((d, [r for t in fmt.task_dirs(d) if (r := builder.adequacy(t)) is not None]))
    out: dict[str, Any] = {}
    for d, per in rows:
        tot = {k: sum(r[k] for r in per) for k in ("positives", "negatives", "mutants_compiled", "mutants_run",
                                                      "mutants_killed", "weakened_built", "weakened_killed",
                                                      "branches_instrumented", "branches_covered")}  # fmt: skip
        out[str(d)] = {"tasks": len(per), **tot, "per_task": per}
    if as_json:
        typer.echo(json.dumps({"datasets": out}, indent=2, ensure_ascii=False))
        return True
    table = Table(title="Suite adequacy (recorded kills of the suite's positives / negatives)")
    for col in (
        "dataset",
        "tasks",
        "positives",
        "negatives",
        "mutants killed / run",
        "weakened ensures killed / built",
        "reference branches covered / instrumented",
    ):
        table.add_column(col, justify="left" if col == "dataset" else "right")
    for d, t in out.items():
        table.add_row(d, str(t["tasks"]), str(t["positives"]), str(t["negatives"]),
                      f"{t['mutants_killed']}/{t['mutants_run']}", f"{t['weakened_killed']}/{t['weakened_built']}",
                      f"{t['branches_covered']}/{t['branches_instrumented']}")  # fmt: skip
    console = Console()
    if not console.is_terminal or console.width < 150:  # pipes and CI would fold the seven columns
        console = Console(width=max(console.width, 150))
    console.print(table)
    return True
