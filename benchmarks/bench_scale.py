"""Offline ``scale`` over a whole benchmark: wall time per stage (prints figures; not a test).

Usage:
    python benchmarks/bench_scale.py [--benchmark DIR] [--workers N] [--out DIR] [--tasks a,b]

Figures: seconds of the input stage, the output stage (their sum is the
"inputs + outputs" figure), the reduction, the build, and the whole run;
then the original / Plus / Lite volumes and the kill-preservation count.
A fresh output directory is used unless ``--out`` names one (then finished
stages are resumed, and their time is near zero).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from veriscale.pipeline.build import build_suites
from veriscale.pipeline.config import PipelineConfig
from veriscale.pipeline.inputs.stage import run_inputs_stage
from veriscale.pipeline.outputs.stage import run_outputs_stage
from veriscale.pipeline.reduce import STAGE as REDUCE
from veriscale.pipeline.reduce import run_reduce_stage
from veriscale.pipeline.rundir import RunDir
from veriscale.pipeline.scale import run_scale
from veriscale.runtime.executor import LocalExecutor


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = Path(__file__).resolve().parent
    ap.add_argument("--benchmark", type=Path, default=here.parent.parent / "shared" / "data" / "verina")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--tasks", default=None)
    args = ap.parse_args()
    tasks = args.tasks.split(",") if args.tasks else None
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-scale-"))
    ex = LocalExecutor(workers=args.workers)
    figures: dict[str, float] = {}
    t_all = time.perf_counter()
    with RunDir.open(out, PipelineConfig()) as rd:
        rd.record_inputs(benchmark=str(args.benchmark))
        rd.adopt("outputs", "outputs")
        rd.adopt("reduce", REDUCE)
        t = time.perf_counter()
        run_inputs_stage(args.benchmark, rd, ex, tasks=tasks)
        figures["inputs_s"] = time.perf_counter() - t
        t = time.perf_counter()
        run_outputs_stage(args.benchmark, rd, ex, tasks=tasks)
        figures["outputs_s"] = time.perf_counter() - t
        t = time.perf_counter()
        run_reduce_stage(args.benchmark, rd, tasks=tasks)
        figures["reduce_s"] = time.perf_counter() - t
        t = time.perf_counter()
        build_suites(args.benchmark, rd, out, tasks=tasks)
        figures["build_s"] = time.perf_counter() - t
        # the statistics (and a check that a finished run resumes at no cost)
        t = time.perf_counter()
        rep = run_scale(args.benchmark, rd, ex, tasks=tasks)
        figures["resume_and_stats_s"] = time.perf_counter() - t
    figures["total_s"] = time.perf_counter() - t_all
    figures["inputs_plus_outputs_s"] = figures["inputs_s"] + figures["outputs_s"]
    print(f"benchmark: {args.benchmark}  workers: {args.workers}  out: {out}")
    for k, v in figures.items():
        print(f"  {k:24s} {v:8.1f}")
    base = rep.stats[0]
    for s in rep.stats:
        j = s.to_json(base if s is not base else None)
        print(f"  {s.name:8s} " + json.dumps({k: v for k, v in j.items() if isinstance(v, dict)}))
    print(f"  kill preserved: {rep.kill_preserved}/{rep.reduced} tasks; failed: {len(rep.failed)}")


if __name__ == "__main__":
    main()
