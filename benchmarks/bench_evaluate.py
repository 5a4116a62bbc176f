"""Benchmarks of ``veriscale evaluate`` (not unit tests: they time real suites).

Two measurements::

    # the 189 ground-truth sections as generations: scores (all should pass; any that does not is
    # listed) and wall-clock SpecGen (and optionally CodeGen) per suite
    python benchmarks/bench_evaluate.py speed ../shared/data/verinaplus [more suites] --workers 2 [--kinds spec,code]

    # a corpus of flawed specifications, scored on several suites (Verina first): print the table
    python benchmarks/bench_evaluate.py flawed ../shared/data/verina ../shared/data/verinaplus

The flawed corpus is derived mechanically from the ground truth, one flaw per sample:

* ``drop-post-k``: the postcondition without its k-th top-level conjunct (under any
  leading ``let``s) — a *weaker* postcondition, caught by unexpected outputs;
* ``drop-pre-k``: the precondition without its k-th top-level conjunct — a weaker
  precondition, caught by reject inputs;
* ``pre-true``: precondition ``True`` where the ground truth has a real one.

Samples are grouped as a single "model", one sample per (task, flaw), so pass@1 is the mean
over tasks of the fraction of flaws that survive the suite.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from veriscale.evaluate.generations import Generation, ground_truth_generation
from veriscale.evaluate.harness import EvalOptions, SuiteSpec, evaluate_generations
from veriscale.evaluate.report import comparison_tables, summarize
from veriscale.formats.verina.dataset import read_dataset
from veriscale.languages.lean.conjuncts import weakened_preconditions


def drop_conjuncts(text: str) -> list[str]:
    """Variants of ``text`` with one top-level conjunct removed (an empty list if there is only one)."""
    return [c.text for c in weakened_preconditions(text) if "." not in c.label]


def flawed_corpus(verina: Path) -> list[Generation]:
    gens: list[Generation] = []
    for task in read_dataset(verina):
        gt = ground_truth_generation(task, kinds=["spec"])
        flaws: list[tuple[str, str, str]] = []
        for k, post in enumerate(drop_conjuncts(gt.postcond)):
            flaws.append((f"drop-post-{k}", gt.precond, post))
        for k, pre in enumerate(drop_conjuncts(gt.precond)):
            flaws.append((f"drop-pre-{k}", pre, gt.postcond))
        if gt.precond.strip() not in ("True", "True -- default precond"):
            flaws.append(("pre-true", "True", gt.postcond))
        for i, (name, pre, post) in enumerate(flaws):
            gens.append(
                Generation(
                    task.id,
                    i,
                    ("spec",),
                    precond_aux=gt.precond_aux,
                    precond=pre,
                    postcond_aux=gt.postcond_aux,
                    postcond=post,
                    meta={"flaw": name},
                )
            )
    return gens


def _suites(paths: list[str]) -> list[SuiteSpec]:
    return [SuiteSpec(Path(p).resolve().name, Path(p)) for p in paths]


def _options(args: argparse.Namespace) -> EvalOptions:
    kw: dict[str, Any] = {"workers": args.workers, "timeout": args.timeout, "fuel": args.fuel}
    if args.metric_fuel is not None:
        kw["metric_fuel"] = args.metric_fuel or None
    return EvalOptions(**kw)


def cmd_speed(args: argparse.Namespace) -> None:
    suites = [Path(x) for x in args.suites]
    verina = Path(args.verina) if args.verina else suites[0]
    kinds = args.kinds.split(",")
    gens = [ground_truth_generation(t, kinds=kinds) for t in read_dataset(verina)]
    opts = _options(args)
    start = time.perf_counter()
    run = evaluate_generations(gens, _suites([str(x) for x in suites]), opts)
    total = time.perf_counter() - start
    summary = summarize(run)
    console = Console(width=160)
    for t in comparison_tables(summary):
        console.print(t)
    # every metric the ground truth does not pass, with why (it should pass everywhere)
    for r in run.results:
        for name, m in r.metrics.items():
            if m.evaluated and m.n_tests and not m.lower:
                print(f"  not passed: {r.suite} {r.task_id} {name}: {m.score.name} {m.reason[:120]}")
    # the slowest tasks (seconds of the job's samples, per suite and kind): where the time goes
    slow = sorted(
        ((sec, r.suite, r.task_id, kind) for r in run.results for kind, sec in r.seconds.items()),
        key=lambda x: (-x[0], x[1], x[2], x[3]),
    )
    for sec, suite, tid, kind in slow[: args.slowest]:
        print(f"  slow: {suite} {tid} {kind}: {sec:.1f} s")
    if args.dump:  # per suite, task and metric: the verdict, its counts and reason (diff two runs' dumps)
        dump = {
            f"{r.suite} {r.task_id}": {
                k: [
                    m.score.value,
                    m.n_tests,
                    m.n_pass,
                    m.n_fail,
                    m.n_unknown,
                    m.n_excluded,
                    m.n_skipped,
                    m.reason,
                    dict(sorted(m.categories.items())),
                ]
                for k, m in sorted(r.metrics.items())
            }
            for r in run.results
        }
        Path(args.dump).write_text(json.dumps(dump, indent=0, sort_keys=True), encoding="utf-8")
    result = {
        "suites": [str(x) for x in suites],
        "samples": len(gens),
        "workers": args.workers,
        "wall_seconds_by_kind": {s["name"]: s["wall_seconds"] for s in summary["suites"]},
        "wall_seconds_total_with_startup": round(total, 2),
    }
    print(json.dumps(result, indent=1))


def cmd_flawed(args: argparse.Namespace) -> None:
    gens = flawed_corpus(Path(args.suites[0]))
    flaws: dict[str, int] = {}
    for g in gens:
        kind = g.meta["flaw"].rsplit("-", 1)[0] if g.meta["flaw"].startswith("drop") else g.meta["flaw"]
        flaws[kind] = flaws.get(kind, 0) + 1
    print(
        f"{len(gens)} flawed specifications over {len({g.task_id for g in gens})} tasks: {flaws}",
        file=sys.stderr,
    )
    opts = _options(args)
    run = evaluate_generations(gens, _suites(args.suites), opts)
    summary = summarize(run)
    console = Console()
    for t in comparison_tables(summary):
        console.print(t)
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1), encoding="utf-8")
    if args.chart:
        from veriscale.evaluate.report import plot_chart

        plot_chart(summary, args.chart)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("speed", help="score (and time) the ground truth as generations on suites")
    sp.add_argument("suites", nargs="+")
    sp.add_argument("--verina", help="where the ground-truth sections come from (default: the suite)")
    sp.add_argument("--kinds", default="spec")
    sp.add_argument("--workers", type=int, default=2)
    sp.add_argument("--timeout", type=float, default=None)
    sp.add_argument("--fuel", type=int, default=None, help="steps per check (default: evaluate's)")
    sp.add_argument("--metric-fuel", type=int, default=None, help="steps per metric (0: no limit)")
    sp.add_argument("--slowest", type=int, default=10, help="list this many slowest tasks")
    sp.add_argument("--dump", help="write every task's metric verdicts (JSON) here, to diff runs")
    sp.set_defaults(fn=cmd_speed)
    fl = sub.add_parser("flawed", help="score a corpus of flawed specifications on suites (Verina first)")
    fl.add_argument("suites", nargs="+")
    fl.add_argument("--workers", type=int, default=2)
    fl.add_argument("--timeout", type=float, default=None)
    fl.add_argument("--fuel", type=int, default=None)
    fl.add_argument("--metric-fuel", type=int, default=None)
    fl.add_argument("--json", help="write the summary JSON here")
    fl.add_argument("--chart", help="write the chart PNG here")
    fl.set_defaults(fn=cmd_flawed)
    args = ap.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
