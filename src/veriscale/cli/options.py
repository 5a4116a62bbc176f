"""Command-line options and the progress display shared by the pipeline commands (``expand``, ``scale``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

__all__ = [
    "ConfigOpt",
    "EngineOpt",
    "ExecutorOpt",
    "JsonOpt",
    "ModelOpt",
    "NoCacheOpt",
    "RayAddressOpt",
    "RunsDirOpt",
    "SeedOpt",
    "TasksOpt",
    "WorkersOpt",
    "stage_progress",
]

TasksOpt = Annotated[
    list[str] | None, typer.Option("--tasks", help="Only these task ids (repeat or comma-separate).")
]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Master seed (default 42).")]
WorkersOpt = Annotated[int, typer.Option("--workers", min=1, help="Parallel workers.")]
ExecutorOpt = Annotated[str, typer.Option("--executor", help="local (process pool), serial, or ray.")]
ModelOpt = Annotated[str | None, typer.Option("--model", help="Model name (overrides the model config).")]
ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="Pipeline config file (.json/.toml); its 'llm' table configures the model.",
        exists=True,
        dir_okay=False,
    ),
]
NoCacheOpt = Annotated[bool, typer.Option("--no-cache", help="Do not use the model response cache.")]
RunsDirOpt = Annotated[Path, typer.Option("--runs-dir", help="Where named runs live.")]
RayAddressOpt = Annotated[str | None, typer.Option("--ray-address", help="Connect to this Ray cluster.")]
EngineOpt = Annotated[
    str | None,
    typer.Option("--engine", help="native (default) or lean (a Lean project: VERISCALE_LEAN_PROJECT)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the summary as JSON instead of tables.")]


def stage_progress(console: Console) -> Progress:
    """Progress bars per stage (shown on a terminal only)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
        disable=not console.is_terminal,
    )


def lean_unavailable(engine_name: str) -> str | None:
    """Why the configured engine cannot run here (None: it can)."""
    if engine_name != "lean":
        return None
    from ..languages.lean.toolchain.project import lean_status

    project, why = lean_status()
    return None if project is not None else f"Lean toolchain unavailable: {why}"
