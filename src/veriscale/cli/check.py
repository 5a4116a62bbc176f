"""``veriscale check DIR``: run an engine on a dataset's ground truth and report agreement."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .app import app
from .options import ExecutorOpt, RayAddressOpt, WorkersOpt, executor_from_options


@app.command("check")
def check_cmd(
    directory: Annotated[
        Path,
        typer.Argument(
            help="A dataset directory (Verina or VeriContest format).", exists=True, file_okay=False
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    jobs: WorkersOpt = 1,
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
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
) -> None:
    """Run the ground truth of every task on every row and report agreement per check."""
    from ..evaluate.checks.run import CheckOptions, run_dataset_check
    from ..formats.api import FormatError
    from ..formats.registry import detect_format
    from ..languages.registry import language

    try:
        lang = language(detect_format(directory).language)
    except FormatError as exc:
        typer.echo(f"check: {exc}", err=True)
        raise typer.Exit(2) from None
    why = lang.engine_unavailable(engine)
    if why is not None:
        if engine not in lang.engine_names:
            raise typer.BadParameter(why, param_hint="--engine")
        typer.echo(f"check: {why}", err=True)
        raise typer.Exit(2)
    ex = executor_from_options(executor, jobs, ray_address, serial_for_one=True)
    opts = CheckOptions(as_json, jobs, timeout, task, max_list, engine, checks, ex)
    try:
        with ex:
            code = run_dataset_check(directory, opts)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--checks") from None
    raise typer.Exit(code)
