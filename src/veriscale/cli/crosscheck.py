"""``veriscale cross-check DIR``: run the native and the Lean engine on a sample and list disagreements.

Exit codes: 0 no disagreement, 1 disagreements found, 2 Lean toolchain unavailable.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from .app import app


@app.command("cross-check")
def cross_check_cmd(
    directory: Annotated[
        Path, typer.Argument(help="A Verina-format dataset directory.", exists=True, file_okay=False)
    ],
    sample: Annotated[int, typer.Option("--sample", help="Checks to sample (0: all).")] = 50,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sample.")] = 0,
    lean_project: Annotated[
        Path | None,
        typer.Option("--lean-project", help="Lean project directory (default: $VERISCALE_LEAN_PROJECT)."),
    ] = None,
    task: Annotated[
        list[str] | None, typer.Option("--task", help="Only these task ids (repeatable).")
    ] = None,
    timeout: Annotated[float, typer.Option("--timeout", help="Native engine: seconds per check.")] = 5.0,
    lean_timeout: Annotated[float, typer.Option("--lean-timeout", help="Lean: seconds per file.")] = 120.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Compare the native engine with the real Lean toolchain on a deterministic sample of checks."""
    from ..formats.api import FormatError
    from ..formats.registry import get_format
    from ..languages.api import LanguageUnavailable
    from ..languages.registry import language

    fmt = get_format("verina")  # the toolchain backend compared here is Lean's
    lang = language(fmt.language)
    try:
        lean = lang.make_engine("lean", lean_project=lean_project, lean_timeout=lean_timeout)
    except LanguageUnavailable as exc:
        typer.echo(f"cross-check: Lean toolchain unavailable: {exc}", err=True)
        raise typer.Exit(2) from None

    from ..evaluate.checks.crosscheck import cross_check

    tasks = []
    for d in fmt.task_dirs(directory):
        if task and d.name not in task:
            continue
        try:
            tasks.append(fmt.read_task(d))
        except FormatError as exc:
            typer.echo(f"skipped unreadable task: {exc}", err=True)
    native = lang.make_engine("native", seconds=timeout)
    rep = cross_check(tasks, native, lean, sample=sample, seed=seed)

    if as_json:
        json.dump(rep.to_json(), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        typer.echo(
            f"cross-check {directory}: {rep.sampled} of {rep.total_items} checks (seed {seed}); "
            f"agree {rep.agree}, disagree {len(rep.disagreements)}, both unknown {rep.both_unknown}, "
            f"undecodable {len(rep.undecodable)}"
        )
        for d in rep.disagreements:
            typer.echo(f"DISAGREE {d.kind:8} {d.item.label()}: native {d.native} | lean {d.lean}")
        for t, why in rep.failed_tasks:
            typer.echo(f"FAILED   {t}: {why}")
    raise typer.Exit(1 if rep.disagreements or rep.failed_tasks else 0)
