"""``veriscale scale``: expand, reduce and write the Plus and Lite suites of a benchmark, end to end."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from .app import app
from .expand import _fail, _llm_config, _split_ids
from .options import (
    ConfigOpt,
    EngineOpt,
    ExecutorOpt,
    JsonOpt,
    ModelOpt,
    NoCacheOpt,
    RayAddressOpt,
    SeedOpt,
    TasksOpt,
    WorkersOpt,
    benchmark_unavailable,
    executor_from_options,
    stage_progress,
)
from .report import report_hint


@app.command("scale")
def scale_command(
    benchmark: Annotated[
        Path | None,
        typer.Option("--benchmark", help="A Verina-format dataset directory.", exists=True, file_okay=False),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Output (and run) directory: plus/, lite/, stats.json, config."),
    ] = None,
    example: Annotated[
        bool, typer.Option("--example", help="Scale the small benchmark embedded in veriscale.")
    ] = False,
    tasks: TasksOpt = None,
    seed: SeedOpt = None,
    workers: WorkersOpt = 2,
    executor: ExecutorOpt = "local",
    model: ModelOpt = None,
    config: ConfigOpt = None,
    no_cache: NoCacheOpt = False,
    engine: EngineOpt = None,
    ray_address: RayAddressOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Inputs → outputs → reduce → build; ends with the original/Plus/Lite statistics."""
    from ..formats.api import FormatError
    from ..llm.config import ConfigError
    from ..llm.offline import model_available
    from ..pipeline.config import PipelineConfigError, load_pipeline_config
    from ..pipeline.outputs.stage import with_models
    from ..pipeline.rundir import RunDir
    from ..pipeline.scale import run_scale
    from ..pipeline.tasks import select_task_dirs
    from ..runtime.executor import ExecutorUnavailable
    from .stats import _console, render_table

    if example:
        from ..examples import tiny_path

        benchmark = benchmark or tiny_path()
        out = out or Path("runs/example")
    if benchmark is None or out is None:
        raise _fail("give --benchmark DIR and --out DIR (or --example)")
    try:
        llm_cfg = _llm_config(config, model, no_cache)
        model_stages = _model_stages(benchmark)
        use_model = model_available(llm_cfg, model_stages)
        cfg = load_pipeline_config(config, {"seed": seed, "engine.name": engine})
    except (ConfigError, PipelineConfigError) as exc:
        raise _fail(str(exc)) from None
    if (why := benchmark_unavailable(benchmark, cfg.engine.name, scale=True)) is not None:
        raise _fail(why)
    # The models are recorded in the run's config: resuming with other models is refused.
    cfg = cfg.model_copy(update={"model": llm_cfg.model_for(model_stages[0]) if use_model else None})
    cfg = with_models(cfg, llm_cfg, use_model)
    task_ids = _split_ids(tasks)
    try:
        dirs = select_task_dirs(benchmark, task_ids)
        if not dirs:
            raise _fail(f"{benchmark}: no task folders (a task folder holds task.json); nothing to scale")
        ex = executor_from_options(executor, workers, ray_address, serial_for_one=False)
        rundir = RunDir.open(out, cfg, new_run_hint="another --out directory")
    except (ExecutorUnavailable, ValueError, PipelineConfigError) as exc:
        raise _fail(str(exc)) from None

    console = _console() if not as_json else Console(stderr=True)
    with rundir, ex, stage_progress(console) as bar:
        bars: dict[str, int] = {}

        def on_stage(stage: str, todo: int, done: int) -> None:
            bars[stage] = bar.add_task(f"{stage} ({done} already done)", total=todo)
            if done:
                console.print(f"{stage}: reusing {done} task(s) already done in {out}", highlight=False)

        def progress(stage: str, task: str, status: str) -> None:
            if stage not in bars:
                bars[stage] = bar.add_task(stage, total=len(dirs))
            bar.advance(bars[stage])
            if status != "done":
                console.print(f"[red]failed[/red] {stage} {task}", highlight=False)

        try:
            report = run_scale(
                benchmark,
                rundir,
                ex,
                tasks=task_ids,
                llm_config=llm_cfg if use_model else None,
                progress=progress,
                on_stage=on_stage,
            )
        except (PipelineConfigError, FormatError) as exc:
            raise _fail(str(exc)) from None

    failed = report.failed
    if as_json:
        payload = json.loads((Path(out) / "stats.json").read_text(encoding="utf-8"))
        json.dump(payload, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        if report.stats:
            console.print(render_table(report.stats))
        for stage, what in report.model_stages.items():  # a format builder's model-driven stages
            shown = what if isinstance(what, str) else ", ".join(f"{k} {v:g}" for k, v in what.items())
            console.print(f"{stage}: {shown}", markup=False, highlight=False)
        for task, err in sorted(failed.items()):
            console.print(f"FAILED {task}: {err}", markup=False, highlight=False)
        if report.written:
            console.print(
                f"{len(report.written)} tasks written to {out}/plus and {out}/lite; "
                f"Lite kills every adversary Plus kills in {report.kill_preserved}/{report.reduced} tasks "
                f"and executes every ground-truth branch Plus executes in {report.coverage_preserved}/{report.reduced}",
                highlight=False,
            )
            console.print(
                f"make the report: {report_hint(out)}", markup=False, highlight=False, soft_wrap=True
            )
        if failed:
            console.print(
                f"[red]{len(failed)} task(s) failed[/red] (reasons above); "
                + ("nothing was written." if not report.written else "the other tasks were written."),
                highlight=False,
            )
    if failed or not report.written:
        raise typer.Exit(1)


def _model_stages(benchmark: Path) -> list[str]:
    """The model-driven stages ``scale`` runs on ``benchmark`` (a format builder's own, if it has any)."""
    from ..formats.api import FormatError
    from ..formats.registry import detect_format

    try:
        builder = detect_format(benchmark).suite_builder()
    except FormatError:  # an unrecognised folder is refused later, with its own message
        builder = None
    own = tuple(getattr(builder, "model_stages", ()) or ()) if builder is not None else ()
    return list(own) or ["seed_inputs", "spec_gen", "adversarial_impl"]
