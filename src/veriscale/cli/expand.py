"""``veriscale expand inputs``: the input-expansion stage over a benchmark, into a resumable run directory."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from .app import app
from .options import (
    ConfigOpt,
    EngineOpt,
    ExecutorOpt,
    JsonOpt,
    ModelOpt,
    NoCacheOpt,
    RayAddressOpt,
    RunsDirOpt,
    SeedOpt,
    TasksOpt,
    WorkersOpt,
    benchmark_unavailable,
    executor_from_options,
    stage_progress,
)

if TYPE_CHECKING:
    from ..llm.config import LLMConfig

expand_app = typer.Typer(
    name="expand",
    help="Expand a benchmark's test suites (stages write into a resumable run directory).",
    no_args_is_help=True,
)
app.add_typer(expand_app, name="expand")


def _split_ids(values: list[str] | None) -> list[str] | None:
    """``--tasks a,b --tasks c`` → [a, b, c] (order kept, repeats dropped)."""
    if not values:
        return None
    out: list[str] = []
    for v in values:
        for part in v.replace(",", " ").split():
            if part not in out:
                out.append(part)
    return out or None


def _file_has_llm_table(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8")
        data: Any = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and isinstance(data.get("llm"), dict)


def _llm_config(config: Path | None, model: str | None, no_cache: bool) -> LLMConfig:
    from ..llm.config import load_config

    # A shared config file may carry the model settings in an [llm] table; otherwise the
    # model layer reads its own sources (VERISCALE_* environment, VERISCALE_LLM_CONFIG).
    path = config if config is not None and _file_has_llm_table(config) else None
    return load_config(path, overrides={"model": model, "cache": "off" if no_cache else None})


def _fail(msg: str, code: int = 2) -> typer.Exit:
    typer.echo(f"error: {msg}", err=True)
    return typer.Exit(code)


@expand_app.command("inputs")
def inputs_command(
    benchmark: Annotated[
        Path,
        typer.Option("--benchmark", help="A Verina-format dataset directory.", exists=True, file_okay=False),
    ],
    run: Annotated[str, typer.Option("--run", help="Run name (<runs-dir>/<run>) or a path containing '/'.")],
    tasks: TasksOpt = None,
    seed: SeedOpt = None,
    workers: WorkersOpt = 2,
    executor: ExecutorOpt = "local",
    model: ModelOpt = None,
    config: ConfigOpt = None,
    no_cache: NoCacheOpt = False,
    engine: EngineOpt = None,
    runs_dir: RunsDirOpt = Path("runs"),
    ray_address: RayAddressOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Seeds (original, reject, model) → type-aware mutants → precondition classes → expected outputs."""
    from ..llm.config import ConfigError
    from ..llm.offline import model_available
    from ..pipeline.config import PipelineConfigError, load_pipeline_config
    from ..pipeline.inputs.stage import STAGE, run_inputs_stage
    from ..pipeline.rundir import RunDir, resolve_run_dir
    from ..pipeline.summary import excluded_table, inputs_table, summarize_inputs
    from ..pipeline.tasks import select_task_dirs
    from ..runtime.executor import ExecutorUnavailable

    console = Console(stderr=as_json)
    try:
        llm_cfg = _llm_config(config, model, no_cache)
        use_model = model_available(llm_cfg, ["seed_inputs"])
        cfg = load_pipeline_config(config, {"seed": seed, "engine.name": engine})
    except (ConfigError, PipelineConfigError) as exc:
        raise _fail(str(exc)) from None
    if (why := benchmark_unavailable(benchmark, cfg.engine.name)) is not None:
        raise _fail(why)
    # The seed model is recorded in the run's config: resuming with another model is refused.
    cfg = cfg.model_copy(update={"model": llm_cfg.model_for("seed_inputs") if use_model else None})
    try:
        ex = executor_from_options(executor, workers, ray_address, serial_for_one=False)
    except (ExecutorUnavailable, ValueError) as exc:
        raise _fail(str(exc)) from None
    task_ids = _split_ids(tasks)
    try:
        dirs = select_task_dirs(benchmark, task_ids)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    root = resolve_run_dir(run, runs_dir)
    try:
        rundir = RunDir.open(root, cfg)
    except PipelineConfigError as exc:
        raise _fail(str(exc)) from None

    with rundir, ex, stage_progress(console) as bar:
        bar_id = bar.add_task("expand inputs", total=len(dirs))

        def on_start(todo: int, finished: int) -> None:
            bar.update(bar_id, total=todo, description=f"expand inputs ({finished} already done)")

        def progress(task: str, status: str) -> None:
            bar.advance(bar_id)
            if status != "done":
                console.print(f"[red]failed[/red] {task}", highlight=False)

        report = run_inputs_stage(
            benchmark,
            rundir,
            ex,
            tasks=task_ids,
            llm_config=llm_cfg if use_model else None,
            progress=progress,
            on_start=on_start,
        )
        ids = [d.name for d in dirs if rundir.result_path(STAGE, d.name).exists()]
        summary = summarize_inputs(rundir.read_result(STAGE, t) for t in ids)

    if as_json:
        out = {
            "run": str(root),
            "computed": len(report.computed),
            "resumed": len(report.resumed),
            "failed": report.failed,
            "seconds": report.seconds,
            **summary.to_json(),
        }
        json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        console.print(
            inputs_table(
                summary,
                title=f"input expansion: {root}",
                computed=len(report.computed),
                resumed=len(report.resumed),
                failed=len(report.failed),
                seconds=report.seconds,
            )
        )
        if summary.excluded:
            console.print(excluded_table(summary))
        for task, err in sorted(report.failed.items()):
            console.print(f"FAILED {task}: {err}", markup=False, highlight=False, soft_wrap=True)
    if report.failed:
        raise typer.Exit(1)
