"""Command-line options and the progress display shared by the commands (``expand``, ``scale``;
``--executor``/``--ray-address`` also ``evaluate``, ``check`` and ``stats --adequacy``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

if TYPE_CHECKING:
    from ..runtime.executor import Executor

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
    "executor_from_options",
    "stage_progress",
]

TasksOpt = Annotated[
    list[str] | None, typer.Option("--tasks", help="Only these task ids (repeat or comma-separate).")
]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Master seed (default 42).")]
# Every command that runs work in worker processes spells this option the same way.
WorkersOpt = Annotated[
    int, typer.Option("--workers", "-j", "--jobs", min=1, help="Worker processes (--jobs is an alias).")
]
ExecutorOpt = Annotated[
    str,
    typer.Option(
        "--executor", help="local (process pool), serial, or ray (a Ray cluster: see docs/cluster.md)."
    ),
]
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
RayAddressOpt = Annotated[
    str | None,
    typer.Option(
        "--ray-address",
        help="Run on this Ray cluster (host:port or 'auto'; implies --executor ray; see docs/cluster.md).",
    ),
]
EngineOpt = Annotated[
    str | None,
    typer.Option("--engine", help="native (default) or lean (a Lean project: VERISCALE_LEAN_PROJECT)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the summary as JSON instead of tables.")]


def executor_from_options(name: str, workers: int, ray_address: str | None, serial_for_one: bool) -> Executor:
    """The executor a command's ``--executor``, worker count and ``--ray-address`` ask for.

    ``--ray-address`` alone selects Ray. ``serial_for_one``: one local worker runs in this
    process (``check``, ``evaluate``, ``stats --adequacy``). An unknown or unavailable
    executor ends the command with exit status 2 and the reason.
    """
    from ..runtime.executor import ExecutorUnavailable, make_executor, pool_executor

    if ray_address and name == "local":
        name = "ray"
    if ray_address and name != "ray":
        typer.echo(f"error: --ray-address needs --executor ray (not {name})", err=True)
        raise typer.Exit(2)
    if name == "local" and serial_for_one:
        return pool_executor(workers)
    try:
        return make_executor(name, workers, ray_address)
    except (ExecutorUnavailable, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


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


def benchmark_unavailable(benchmark: Path | None, engine_name: str, *, scale: bool = False) -> str | None:
    """Why ``expand``/``scale`` cannot run on ``benchmark`` with that engine (None: they can).

    ``scale`` on a format with its own suite builder (``Format.suite_builder``) needs no expansion stages."""
    from ..formats.api import FormatError
    from ..formats.registry import detect_format
    from ..languages.registry import language

    if benchmark is None:
        return None
    try:
        fmt = detect_format(benchmark)
    except FormatError as exc:
        return str(exc)
    if scale and fmt.suite_builder() is not None:
        return None
    if (why := fmt.expansion_unsupported()) is not None:
        return f"{benchmark}: {why}"
    return language(fmt.language).engine_unavailable(engine_name)
