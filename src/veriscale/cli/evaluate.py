"""``veriscale evaluate``: score model outputs (SpecGen, CodeGen, ProofGen) on one or more suites."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .app import app
from .options import ExecutorOpt, RayAddressOpt, WorkersOpt, executor_from_options
from .report import report_hint

_ROUNDS = re.compile(r"^rounds_report_\d+\.json$")


def _fail(msg: str, code: int = 2) -> typer.Exit:
    typer.echo(f"error: {msg}", err=True)
    return typer.Exit(code)


def _format_evaluator(suites: list) -> object | None:
    """The evaluator of the suites' format when it has its own (``FORMAT_EVALUATORS``), else None."""
    from ..formats.api import FormatError
    from ..formats.registry import detect_format
    from .evaluate_vericontest import FORMAT_EVALUATORS

    names = set()
    for s in suites:
        try:
            names.add(detect_format(s.path).name)
        except FormatError:
            names.add("")  # Verina-style folders veriscale builds: the default evaluator
    own = sorted(n for n in names if n in FORMAT_EVALUATORS)
    if not own:
        return None
    if len(names) > 1:
        raise _fail(f"suites of different formats cannot be evaluated together: {', '.join(sorted(names))}")
    return FORMAT_EVALUATORS[own[0]]


@app.command("evaluate")
def evaluate_cmd(
    generations: Annotated[
        Path,
        typer.Option(
            "--generations",
            "-g",
            exists=True,
            help="Generations JSONL (format: veriscale.evaluate.generations), or a Verina harness output "
            "folder / rounds_report_*.json (converted on the fly).",
        ),
    ],
    suite: Annotated[
        list[str],
        typer.Option("--suite", "-s", help="A Verina-format suite directory, or NAME=DIR (repeatable)."),
    ],
    engine: Annotated[
        str, typer.Option(help="native (default) or lean (needs VERISCALE_LEAN_PROJECT).")
    ] = "native",
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")] = Path("evaluation"),
    k: Annotated[
        list[int] | None, typer.Option("--k", help="pass@k to report (repeatable; default 1).")
    ] = None,
    exclude_fewshot: Annotated[
        list[str] | None,
        typer.Option(
            "--exclude-fewshot",
            help="Tasks to leave out: 'verina' (its 2 few-shot tasks), a file of ids, or comma-separated ids.",
        ),
    ] = None,
    workers: WorkersOpt = 2,
    timeout: Annotated[
        float | None,
        typer.Option(
            help="Lean: seconds per Lean file. Native: a wall-clock backstop per check (default 20 s for "
            "a specification check, 30 s for code); fuel is the limit that decides."
        ),
    ] = None,
    fuel: Annotated[
        int | None,
        typer.Option(
            help="Native: evaluation steps per check (default 10,000,000 for a specification check, "
            "20,000,000 for code). Verdicts then do not depend on the machine or its load."
        ),
    ] = None,
    all_tests: Annotated[
        bool,
        typer.Option(
            "--all-tests", help="Run every test even after a metric has failed (slower; same scores)."
        ),
    ] = False,
    max_timeouts: Annotated[
        int, typer.Option(help="Per metric: stop running checks after this many timeouts (0: never).")
    ] = 2,
    metric_fuel: Annotated[
        int,
        typer.Option(
            help="SpecGen, native engine: evaluation steps of one metric's checks before the rest are "
            "not run (UNKNOWN) (0: no limit)."
        ),
    ] = 100_000_000,
    metric_budget: Annotated[
        float,
        typer.Option(
            help="SpecGen, native engine: also a wall-clock limit in seconds per metric (0: none; "
            "makes results depend on the machine's speed)."
        ),
    ] = 0.0,
    trust_suite: Annotated[
        bool,
        typer.Option(
            "--trust-suite",
            help="Score every row as stored (default: rows the suite's own ground truth contradicts "
            "are suite defects, left out and counted as excluded: expected outputs its implementation "
            "does not return, unexpected outputs its postcondition accepts, reject inputs its "
            "precondition accepts).",
        ),
    ] = False,
    chart: Annotated[bool, typer.Option("--chart/--no-chart", help="Write chart.png.")] = True,
    verus: Annotated[
        str | None,
        typer.Option(
            help="VeriContest proof tasks: a Verus binary (default: VERISCALE_VERUS; none: not evaluated)."
        ),
    ] = None,
    test_seconds: Annotated[
        float, typer.Option(help="VeriContest code tasks: wall-clock seconds per test (the paper's 2 s).")
    ] = 2.0,
    verus_timeout: Annotated[
        float, typer.Option(help="VeriContest proof tasks: Verus wall-clock seconds per program.")
    ] = 120.0,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
) -> None:
    """Score generations on suites: results.jsonl, summary.json, chart.png, and a table.

    CodeGen counts a timed-out run as a failure (Verina's harness counts it as a pass).
    """
    from ..evaluate.gaps import engine_gaps, format_gaps
    from ..evaluate.generations import convert_verina_output, read_generations
    from ..evaluate.harness import EvalOptions, evaluate_generations, resolve_suites
    from ..evaluate.report import comparison_tables, write_outputs
    from ..evaluate.scoring.errors import LABELS, ErrorCategory
    from ..evaluate.scoring.passk import parse_exclusions
    from ..languages.registry import language

    lean = language("lean")  # the suites evaluate scores today are Verina's (Lean)
    console = Console()
    err = Console(stderr=True)
    if engine not in lean.engine_names:
        raise typer.BadParameter(f"choose from {', '.join(lean.engine_names)}", param_hint="--engine")
    if (why := lean.engine_unavailable(engine)) is not None:
        raise _fail(why)
    ks = tuple(sorted(set(k or [1])))
    if any(x < 1 for x in ks):
        raise typer.BadParameter("k must be at least 1", param_hint="--k")
    try:
        suites = resolve_suites(suite)
    except FileNotFoundError as exc:
        raise _fail(str(exc)) from None
    try:
        exclude = set(parse_exclusions(exclude_fewshot or []))
    except (OSError, ValueError) as exc:
        raise _fail(f"--exclude-fewshot: {exc}") from None

    fmt_runner = _format_evaluator(suites)
    if fmt_runner is not None:  # a format with its own generations and tasks (VeriContest)
        from .evaluate_vericontest import VcCliOptions

        options = EvalOptions(
            workers=workers, ks=ks, exclude=tuple(sorted(exclude)), fail_fast=not all_tests,
            trust_suite=trust_suite,
        )  # fmt: skip
        ex = executor_from_options(executor, workers, ray_address, serial_for_one=True)
        fmt_runner(
            generations, suites, options, out, chart, ex, VcCliOptions(verus, test_seconds, verus_timeout)
        )
        return

    warnings: list[str] = []
    if generations.is_dir() or _ROUNDS.match(generations.name):
        try:
            conv = convert_verina_output(generations)
        except (OSError, ValueError) as exc:
            raise _fail(f"cannot read Verina output {generations}: {exc}") from None
        gens = conv.generations
        warnings.extend(conv.warnings)
        if conv.fewshot_ids and not exclude_fewshot:
            exclude.update(conv.fewshot_ids)
            typer.echo(f"excluding the report's few-shot tasks: {', '.join(conv.fewshot_ids)}", err=True)
        source = str(Path(conv.source).resolve())
    else:
        gs = read_generations(generations)
        for e in gs.errors[:20]:
            typer.echo(f"skipped {e}", err=True)
        if len(gs.errors) > 20:
            typer.echo(f"... and {len(gs.errors) - 20} more bad lines", err=True)
        warnings.extend(str(e) for e in gs.errors)
        gens = gs.generations
        source = str(generations.resolve())  # the report finds candidate text through it
    if not gens:
        raise _fail(f"{generations}: no valid generations")
    ex = executor_from_options(executor, workers, ray_address, serial_for_one=True)

    options = EvalOptions(
        engine=engine,
        timeout=timeout,
        workers=workers,
        ks=ks,
        exclude=tuple(sorted(exclude)),
        fail_fast=not all_tests,
        fuel=fuel,
        max_timeouts=max_timeouts or None,
        metric_fuel=metric_fuel or None,
        metric_budget=metric_budget or None,
        trust_suite=trust_suite,
    )
    with (
        ex,
        Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            transient=False,
        ) as progress,
    ):
        bars: dict[str, int] = {}

        def on_progress(label: str, done: int, total: int) -> None:
            if label not in bars:
                bars[label] = progress.add_task(label, total=total)
            progress.update(bars[label], completed=done)

        run = evaluate_generations(
            gens, suites, options, progress=on_progress, generations_file=source, executor=ex
        )
    run.warnings[:0] = warnings
    paths, summary = write_outputs(run, out, chart=chart)
    for table in comparison_tables(summary):
        console.print(table)
    for entry in summary["results"]:
        errs = {}
        for info in entry["metrics"].values():
            for cat, n in info["errors"].items():
                errs[cat] = errs.get(cat, 0) + n
        if errs:
            shown = ", ".join(f"{LABELS[ErrorCategory(c)]}: {n}" for c, n in sorted(errs.items()))
            who = entry["suite"] + (f" ({entry['model']})" if entry["model"] else "")
            typer.echo(f"non-passing metric results on {who}: {shown}")
    for line in format_gaps(engine_gaps(r.to_json() for r in run.results)):
        typer.echo(f"engine gaps behind UNKNOWN results: {line}")
    for s in summary["suites"]:
        if s["n_tasks_without_generations"]:
            typer.echo(
                f"note: {s['n_tasks_without_generations']} task(s) of suite {s['name']} have no "
                "generations and are not counted",
                err=True,
            )
        if not s["has_unexpected"]:
            typer.echo(
                f"note: suite {s['name']} has no unexpected outputs: postcondition soundness is "
                "untested there (n/a)",
                err=True,
            )
    for w in run.warnings:
        if w not in warnings:
            typer.echo(f"warning: {w}", err=True)
    for name, p in paths.items():
        typer.echo(f"{name}: {p}")
    typer.echo(f"make the report: {report_hint(out)}")
