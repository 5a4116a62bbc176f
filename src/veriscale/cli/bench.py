"""``veriscale bench``: generate, then evaluate on the suites, then one pass@k / repair@k table.

``bench`` = ``veriscale generate`` (into ``OUT/generations``) followed, for
every task kind, by ``veriscale evaluate`` of its first answers
(``OUT/eval/<kind>/pass``: pass@k, tables and chart) and, with ``--repair K``,
of the answers after K rounds (``OUT/eval/<kind>/repair``: pass@1 there is
repair@K). The closing table puts each metric's pass@k beside its repair@K
per suite (lower – upper bound, in %); ``OUT/bench.json`` holds the same
figures with the paths of every file. A kind that ``evaluate`` cannot score
(e.g. a benchmark it does not read yet) is reported and skipped; the
generations stay on disk for a later ``evaluate``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from .app import app
from .generate import BenchOpt, ModelOpt, TaskOpt, model_answerer, run_and_print
from .report import report_hint

Cell = tuple[float | None, float | None, int]  # pass@k lower, upper, samples not evaluated


def _passk(summary: dict[str, Any], k: int) -> dict[tuple[str, str], Cell]:
    """(suite, metric) -> (lower, upper, not evaluated) pass@k from an evaluate summary.json.

    A metric whose samples were all NOT_EVALUATED (proofs without Lean/Verus) has no pass@k."""
    out: dict[tuple[str, str], Cell] = {}
    for entry in summary.get("results", []):
        for metric, info in entry.get("metrics", {}).items():
            pk = info.get("passk", {}).get(f"pass@{k}") or {}
            lo = pk.get("lower")
            up = pk.get("upper") if pk.get("upper") is not None else lo
            out[(entry["suite"], metric)] = (lo, up, int(info.get("n_not_evaluated", 0) or 0))
    return out


def _cell(v: Cell | None) -> str:
    if v is None:
        return "–"
    lo, up, ne = v
    note = f" ({ne} n/e)" if ne else ""
    if lo is None or up is None:
        return "–" + note
    lo, up = 100 * lo, 100 * up
    return (f"{lo:.1f}" if abs(lo - up) < 0.05 else f"{lo:.1f} – {up:.1f}") + note


def _own_evaluator(suites: list[str]) -> bool:
    """Whether ``evaluate`` has a format-specific evaluator for the first suite (it reads that
    format's own generations lines; see ``cli/evaluate``); else lines the default (Verina)
    reader rejects cannot be scored and are reported instead of run."""
    from ..formats.api import FormatError
    from ..formats.registry import detect_format

    try:
        from .evaluate_vericontest import FORMAT_EVALUATORS  # type: ignore[import-not-found]
    except ImportError:  # this version of evaluate reads the default format only
        return False
    try:
        return detect_format(Path(suites[0].split("=", 1)[-1])).name in FORMAT_EVALUATORS
    except FormatError:
        return False


def _evaluate(
    gens: Path, suites: list[str], out: Path, ks: list[int], exclude: list[str], workers: int
) -> dict[str, Any] | str:
    """Run ``veriscale evaluate`` on one file; its summary, or why it could not score it."""
    from ..evaluate.generations import read_generations
    from .evaluate import evaluate_cmd

    read = read_generations(gens)
    if not read.generations and read.errors and not _own_evaluator(suites):
        # e.g. a benchmark whose lines this version of evaluate does not read yet
        return f"evaluate cannot read these generations ({read.errors[0]})"
    try:
        evaluate_cmd(
            generations=gens,
            suite=suites,
            out=out,
            k=ks,
            exclude_fewshot=exclude,
            workers=workers,
        )
    except typer.Exit as exc:
        return f"evaluate stopped (exit code {exc.exit_code})"
    except Exception as exc:  # a kind evaluate cannot score must not lose the rest of the bench
        return f"evaluate failed: {type(exc).__name__}: {exc}"
    try:
        return json.loads((out / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return f"no summary written ({exc})"


@app.command("bench")
def bench_command(
    model: ModelOpt,
    benchmark: BenchOpt,
    suite: Annotated[
        list[str] | None,
        typer.Option(
            "--suite", "-s", help="Suite to score on, DIR or NAME=DIR (repeatable; default: the benchmark)."
        ),
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="Output folder (resumable).")] = Path("bench"),
    task: TaskOpt = None,
    n: Annotated[int, typer.Option("-n", "--samples", min=1, help="Samples per task and kind.")] = 1,
    k: Annotated[list[int] | None, typer.Option("--k", help="pass@k (repeatable; default 1).")] = None,
    only: Annotated[list[str] | None, typer.Option("--only", help="Task id (repeatable).")] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="First N tasks in order.")] = None,
    repair: Annotated[int, typer.Option("--repair", min=0, help="repair@K rounds.")] = 0,
    max_cost: Annotated[
        float | None, typer.Option("--max-cost", help="Stop asking at this cost ($).")
    ] = None,
    exclude_fewshot: Annotated[
        list[str] | None, typer.Option("--exclude-fewshot", help="As for evaluate (e.g. 'verina').")
    ] = None,
    config: Annotated[Path | None, typer.Option("--config", help="Model config file.")] = None,
    base_url: Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint.")] = None,
    api_key_env: Annotated[str | None, typer.Option("--api-key-env")] = None,
    concurrency: Annotated[int | None, typer.Option("--concurrency", min=1)] = None,
    temperature: Annotated[float | None, typer.Option("--temperature")] = None,
    max_tokens: Annotated[int | None, typer.Option("--max-tokens", min=1)] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Evaluator processes.")] = 2,
    no_progress: Annotated[bool, typer.Option("--no-progress")] = False,
) -> None:
    """Generate with a model, evaluate on the suites, print pass@k beside repair@k."""
    from ..pipeline.generate import GenerateOptions

    suites = list(suite or [str(benchmark)])
    ks = sorted(set(k or [1]))
    answerer, conc = model_answerer(
        model, config, base_url, api_key_env, concurrency, temperature, max_tokens, False
    )
    opts = GenerateOptions(
        benchmark=benchmark,
        out=out / "generations",
        kinds=tuple(task or ()),
        n=n,
        only=tuple(only or ()),
        limit=limit,
        repair=repair,
        max_cost=max_cost,
    )
    feedback_suite = Path(suites[0].split("=", 1)[-1])
    report = run_and_print(
        opts, answerer, conc, feedback_suite=feedback_suite if repair else None, workers=workers,
        show_progress=not no_progress,
    )  # fmt: skip

    bench: dict[str, Any] = {"generate": report.to_json(), "kinds": {}}
    table = Table(
        caption="(n n/e): samples not evaluated (proofs need Lean/Verus), left out of pass@k",
        title=f"{report.model} on {benchmark.name}: pass@k"
        + (f" and repair@{repair}" if repair else "")
        + " in % (lower – upper)",
    )
    for col in (
        "task",
        "metric",
        "suite",
        *(f"pass@{x}" for x in ks),
        *([f"repair@{repair}"] if repair else []),
    ):
        table.add_column(col, justify="left" if col in ("task", "metric", "suite") else "right")
    for kind in report.kinds:
        files = report.files.get(kind, [])
        if not files:
            continue
        entry: dict[str, Any] = {"files": files}
        first = _evaluate(
            Path(files[0]), suites, out / "eval" / kind / "pass", ks, exclude_fewshot or [], workers
        )
        last = (
            _evaluate(
                Path(files[-1]), suites, out / "eval" / kind / "repair", [1], exclude_fewshot or [], workers
            )
            if repair and len(files) > 1
            else None
        )
        if isinstance(first, str):
            typer.echo(f"{kind}: not scored: {first}", err=True)
            entry["error"] = first
            bench["kinds"][kind] = entry
            continue
        per_k = {x: _passk(first, x) for x in ks}
        rep = _passk(last, 1) if isinstance(last, dict) else {}
        if isinstance(last, str):
            entry["repair_error"] = last
        rows = []
        for sname, metric in per_k[ks[0]]:
            cells = [_cell(per_k[x].get((sname, metric))) for x in ks]
            if repair:
                cells.append(_cell(rep.get((sname, metric))))
            table.add_row(kind, metric, sname, *cells)
            rows.append(
                {
                    "suite": sname,
                    "metric": metric,
                    **{f"pass@{x}": per_k[x].get((sname, metric)) for x in ks},
                    **({f"repair@{repair}": rep.get((sname, metric))} if repair else {}),
                }
            )
        entry["rows"] = rows
        bench["kinds"][kind] = entry
    Console().print(table)
    (out / "bench.json").write_text(json.dumps(bench, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    typer.echo(f"bench: {out / 'bench.json'}")
    evaluated = sorted(str(p) for p in (out / "eval").glob("*/*") if (p / "summary.json").is_file())
    if evaluated:
        typer.echo(f"make the report: {report_hint(*evaluated, out=out / 'site')}")
