"""``veriscale generate``: run a model on a benchmark's tasks and write the generations JSONL."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from .app import app

ModelOpt = Annotated[
    str,
    typer.Option(
        "--model",
        help="Model name at the endpoint, or replay:FILE to answer from stored responses "
        "(a responses.jsonl or a generate output folder).",
    ),
]
BenchOpt = Annotated[Path, typer.Option("--benchmark", help="Benchmark folder (Verina or VeriContest).")]
TaskOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--task",
        help="Task kind (repeatable): Verina specgen|codegen|proofgen; VeriContest nl2spec|nl2code|"
        "spec2code|nl_spec2code|spec_code2proof|end2end. Default: all of the benchmark's kinds.",
    ),
]


def model_answerer(
    model: str,
    config: Path | None,
    base_url: str | None,
    api_key_env: str | None,
    concurrency: int | None,
    temperature: float | None,
    max_tokens: int | None,
    no_cache: bool,
) -> tuple[Any, int]:
    """The answerer for ``--model`` and the number of questions to run at once."""
    from ..pipeline.generate import ModelAnswerer, ReplayAnswerer

    if model.startswith("replay:"):
        path = Path(model[len("replay:") :])
        if not path.exists():
            typer.echo(f"error: replay file {path} does not exist", err=True)
            raise typer.Exit(2)
        ans = ReplayAnswerer(path)
        for e in ans.replay.errors[:20]:
            typer.echo(f"warning: {e}", err=True)
        return ans, 1
    from ..llm.config import ConfigError, load_config

    overrides: dict[str, Any] = {
        "model": model,
        "base_url": base_url,
        "api_key_env": api_key_env,
        "concurrency": concurrency,
        "cache": "off" if no_cache else None,
    }
    try:
        cfg = load_config(config, overrides=overrides)
    except ConfigError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    return ModelAnswerer(cfg, temperature=temperature, max_tokens=max_tokens), cfg.concurrency


@contextlib.contextmanager
def progress_display(enabled: bool) -> Iterator[Any]:
    """A rich progress bar per phase on stderr (None when disabled)."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bars: dict[str, Any] = {}
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=False,
    ) as progress:

        def on_progress(label: str, done: int, total: int) -> None:
            if label not in bars:
                bars[label] = progress.add_task(label, total=total)
            progress.update(bars[label], completed=done, total=total)

        yield on_progress


def print_generate_report(report: Any) -> None:
    typer.echo(
        f"generate: {report.format}, model {report.model}, {len(report.task_ids)} task(s), "
        f"kinds {', '.join(report.kinds)}"
    )
    stats = report.answerer
    typer.echo(
        f"questions: {report.asked} asked this run, {report.reused} answered by an earlier run; "
        f"HTTP requests sent: {stats.get('http_requests', 0)}"
        + (f", cache hits: {stats['cache_hits']}" if "cache_hits" in stats else "")
        + (f", replayed: {stats['replayed']}" if "replayed" in stats else "")
        + f"; cost: {report.spent:.4f} $"
    )
    for kind in report.kinds:
        rounds = report.rounds.get(kind, [])
        cats = report.extraction.get(kind, {})
        first = rounds[0] if rounds else {"lines": 0}
        typer.echo(
            f"  {kind}: {first.get('lines', 0)} line(s); extraction errors: "
            + (", ".join(f"{c} {n}" for c, n in cats.items()) or "none")
        )
        for r in rounds[1:]:
            typer.echo(
                f"    repair round {r['round']}: {r['asked_to_repair']} sample(s) to repair, "
                f"{r['repaired']} answered, {r['extraction_errors']} extraction error(s) left"
            )
    for msg in report.failed[:10]:
        typer.echo(f"  no answer: {msg}", err=True)
    if len(report.failed) > 10:
        typer.echo(f"  … and {len(report.failed) - 10} more questions without an answer", err=True)
    for msg in [*report.task_errors, *report.warnings][:20]:
        typer.echo(f"warning: {msg}", err=True)
    if report.stopped:
        typer.echo(f"stopped: {report.stopped}", err=True)
    typer.echo(
        f"written: {report.out}/<task>/generations.jsonl (+ repair_r<k>.jsonl), responses.jsonl, summary.json"
    )


def run_and_print(
    opts: Any,
    answerer: Any,
    concurrency: int,
    *,
    feedback_suite: Path | None,
    workers: int,
    show_progress: bool,
) -> Any:
    """Run generation (with repair feedback from ``feedback_suite`` when given) under the progress
    display, close the answerer, print the summary; a format error exits with status 2."""
    from ..formats.api import FormatError
    from ..pipeline.feedback import feedback_for
    from ..pipeline.generate import run_generate

    try:
        fb = feedback_for(opts.benchmark, feedback_suite, workers=workers) if feedback_suite else None
        with progress_display(show_progress) as prog:
            report = run_generate(opts, answerer, feedback=fb, concurrency=concurrency, progress=prog)
    except FormatError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    finally:
        answerer.close()
    print_generate_report(report)
    return report


@app.command("generate")
def generate_command(
    model: ModelOpt,
    benchmark: BenchOpt,
    out: Annotated[Path, typer.Option("--out", help="Output folder (resumable).")] = Path("generations"),
    task: TaskOpt = None,
    n: Annotated[int, typer.Option("-n", "--samples", min=1, help="Samples per task and kind.")] = 1,
    only: Annotated[list[str] | None, typer.Option("--only", help="Task id (repeatable).")] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="First N tasks in order.")] = None,
    repair: Annotated[
        int, typer.Option("--repair", min=0, help="repair@k: up to K rounds with the evaluator's feedback.")
    ] = 0,
    suite: Annotated[
        Path | None,
        typer.Option("--suite", help="Suite giving repair feedback (default: the benchmark folder)."),
    ] = None,
    max_cost: Annotated[
        float | None, typer.Option("--max-cost", help="Stop asking once this many dollars are spent.")
    ] = None,
    fewshot: Annotated[
        list[str] | None,
        typer.Option("--fewshot", help="Few-shot task id (repeatable; default: the benchmark's)."),
    ] = None,
    no_fewshot: Annotated[bool, typer.Option("--no-fewshot", help="Show no example task.")] = False,
    config: Annotated[Path | None, typer.Option("--config", help="Model config file.")] = None,
    base_url: Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint.")] = None,
    api_key_env: Annotated[
        str | None, typer.Option("--api-key-env", help="Environment variable holding the key.")
    ] = None,
    concurrency: Annotated[int | None, typer.Option("--concurrency", min=1, help="Requests at once.")] = None,
    temperature: Annotated[float | None, typer.Option("--temperature")] = None,
    max_tokens: Annotated[int | None, typer.Option("--max-tokens", min=1)] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not use the response cache.")] = False,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Evaluator processes (repair).")] = 2,
    no_progress: Annotated[bool, typer.Option("--no-progress")] = False,
) -> None:
    """Ask a model for a benchmark's tasks (its own prompt formats) and write generations JSONL."""
    from ..pipeline.generate import GenerateOptions

    answerer, conc = model_answerer(
        model, config, base_url, api_key_env, concurrency, temperature, max_tokens, no_cache
    )
    opts = GenerateOptions(
        benchmark=benchmark,
        out=out,
        kinds=tuple(task or ()),
        n=n,
        only=tuple(only or ()),
        limit=limit,
        repair=repair,
        max_cost=max_cost,
        fewshot=() if no_fewshot else (tuple(fewshot) if fewshot else None),
    )
    report = run_and_print(
        opts, answerer, conc, feedback_suite=(suite or benchmark) if repair else None, workers=workers,
        show_progress=not no_progress,
    )  # fmt: skip
    if not report.task_ids:
        raise typer.Exit(1)
