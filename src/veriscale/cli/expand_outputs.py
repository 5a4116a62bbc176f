"""``veriscale expand outputs``: adversaries and genuinely wrong unexpected outputs over an input-expanded run."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from .expand import _fail, _llm_config, _split_ids, expand_app
from .options import (
    ConfigOpt,
    ExecutorOpt,
    JsonOpt,
    ModelOpt,
    NoCacheOpt,
    RayAddressOpt,
    RunsDirOpt,
    TasksOpt,
    WorkersOpt,
    executor_from_options,
)


def _benchmark_of(root: Path) -> Path | None:
    try:
        data = json.loads((root / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    b = data.get("benchmark") if isinstance(data, dict) else None
    return Path(b) if isinstance(b, str) else None


@expand_app.command("outputs")
def outputs_command(
    run: Annotated[str, typer.Option("--run", help="Run name (<runs-dir>/<run>) or a path containing '/'.")],
    tasks: TasksOpt = None,
    workers: WorkersOpt = 2,
    executor: ExecutorOpt = "local",
    cap: Annotated[
        int | None, typer.Option("--cap", min=1, help="Unexpected outputs kept per expected case (10).")
    ] = None,
    minimum: Annotated[
        int | None,
        typer.Option("--min", min=0, help="Top rows up to this many by direct output mutation (3)."),
    ] = None,
    model: ModelOpt = None,
    config: ConfigOpt = None,
    no_cache: NoCacheOpt = False,
    runs_dir: RunsDirOpt = Path("runs"),
    ray_address: RayAddressOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Weakened specs → template and mutant adversaries → unexpected outputs the ground truth rejects."""
    from ..llm.config import ConfigError
    from ..llm.offline import model_available
    from ..pipeline.config import PipelineConfig, PipelineConfigError
    from ..pipeline.inputs.stage import STAGE as INPUTS_STAGE
    from ..pipeline.outputs.stage import STAGE, run_outputs_stage, with_models
    from ..pipeline.rundir import RunDir, resolve_run_dir
    from ..pipeline.summary import summarize_outputs
    from ..pipeline.tasks import select_task_dirs
    from ..runtime.executor import ExecutorUnavailable

    console = Console(stderr=as_json)
    root = resolve_run_dir(run, runs_dir)
    try:
        cfg = PipelineConfig.from_json(json.loads((root / "config.json").read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise _fail(f"{root} is not an input-expanded run ({exc})") from None
    benchmark = _benchmark_of(root)
    if benchmark is None or not benchmark.is_dir():
        raise _fail(f"{root}/run.json does not name an existing benchmark directory")
    task_ids = _split_ids(tasks)
    try:
        llm_cfg = _llm_config(config, model, no_cache)
    except ConfigError as exc:
        raise _fail(str(exc)) from None
    use_model = model_available(llm_cfg, ["spec_gen", "adversarial_impl"])
    try:
        cfg = with_models(
            cfg.with_overrides({"outputs.cap": cap, "outputs.minimum": minimum}), llm_cfg, use_model
        )
        dirs = select_task_dirs(benchmark, task_ids)
        ex = executor_from_options(executor, workers, ray_address, serial_for_one=False)
        rundir = RunDir.open(root, cfg)
        rundir.adopt("outputs", STAGE)
    except (ExecutorUnavailable, ValueError, PipelineConfigError) as exc:
        raise _fail(str(exc)) from None
    if task_ids is None:  # by default: every task whose input stage is finished
        done = rundir.ledger.done(INPUTS_STAGE)
        dirs = [d for d in dirs if d.name in done]
        task_ids = [d.name for d in dirs]
        if not task_ids:
            rundir.close()
            raise _fail(f"no task of {root} has finished the input stage")
    with rundir, ex:
        report = run_outputs_stage(benchmark, rundir, ex, tasks=task_ids)
        docs = [rundir.read_result(STAGE, d.name) for d in dirs if rundir.result_path(STAGE, d.name).exists()]
    summary = summarize_outputs(docs)
    if as_json:
        out = {
            "run": str(root),
            "computed": len(report.computed),
            "resumed": len(report.resumed),
            "failed": report.failed,
            "seconds": report.seconds,
            **summary,
        }
        json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        from rich.table import Table

        table = Table(title=f"output expansion: {root}")
        table.add_column("figure")
        table.add_column("value", justify="right")
        table.add_row(
            "computed / resumed / failed",
            f"{len(report.computed)} / {len(report.resumed)} / {len(report.failed)}",
        )
        for k, v in summary.items():
            table.add_row(k, json.dumps(v, ensure_ascii=False))
        console.print(table)
        for task, err in sorted(report.failed.items()):
            console.print(f"FAILED {task}: {err}", markup=False, highlight=False, soft_wrap=True)
    if report.failed:
        raise typer.Exit(1)
