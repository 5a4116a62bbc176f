"""``veriscale post2exe DIR [--out OUT]``: compile every VeriContest contract into a Rust checker."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .app import app
from .options import WorkersOpt


@app.command("post2exe")
def post2exe_cmd(
    directory: Annotated[
        Path,
        typer.Argument(help="A VeriContest root, family or problem directory.", exists=True, file_okay=False),
    ],
    out: Annotated[Path, typer.Option("--out", help="Where the checkers go.")] = Path("post2exe"),
    jobs: WorkersOpt = 1,
    no_compile: Annotated[bool, typer.Option("--no-compile", help="Write the sources only.")] = False,
) -> None:
    """Translate requires/ensures (and the spec fns they call) into Rust checkers with exact integers.

    Each problem gets OUT/<family>/<id>/post2exe.rs and status.json; the compiled binaries go to
    the rustc cache, where `veriscale check` and the evaluators find them (VERISCALE_POST2EXE=0
    turns the compiled path off).
    """
    from ..formats.api import FormatError
    from ..formats.registry import detect_format
    from ..languages.registry import language

    try:
        fmt = detect_format(directory)
    except FormatError as exc:
        typer.echo(f"post2exe: {exc}", err=True)
        raise typer.Exit(2) from None
    lang = language(fmt.language)
    if not hasattr(lang, "write_checkers"):
        typer.echo(f"post2exe: {fmt.name} specifications are not in a language Post2Exe translates", err=True)
        raise typer.Exit(2)
    problems, errors = [], []
    for d in fmt.task_dirs(directory):
        try:
            problems.append(fmt.read_task(d))
        except FormatError as exc:
            errors.append((d.name, str(exc)))
    s = lang.write_checkers(problems, out, compile_them=not no_compile, jobs=jobs, load_errors=errors)
    typer.echo(
        f"{s['problems']} problems: {s['translated']} translated ({s['complete']} with every clause compiled), "
        f"{s['compiled']} compiled; checkers in {out}"
    )
    for e in s["errors"]:
        typer.echo(f"  {e}")
    typer.echo(json.dumps({k: v for k, v in s.items() if k != "errors"}))
