"""Offline input expansion over a whole benchmark (prints figures; not a test).

Usage:
    python benchmarks/bench_expand_inputs.py [--benchmark DIR] [--workers N] [--run-dir DIR]
                                             [--per-task] [--determinism]

Figures:
  * wall time of the full offline expansion (no model) with a local process pool;
  * mean expected / unexpected inputs per task, candidates excluded by reason;
  * duplicates by canonical key, recomputed independently from the written files
    (every input decoded strictly again; must be 0);
  * whether every expected output equals a fresh ground-truth run of the engine,
    and every unexpected input is rejected by the ground-truth precondition;
  * with ``--determinism``: two more full runs through the CLI in subprocesses with
    different PYTHONHASHSEED values, and whether all result files are byte-identical.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from veriscale.formats.verina.dataset import read_task
from veriscale.pipeline.config import PipelineConfig
from veriscale.pipeline.inputs.mutate import input_key
from veriscale.pipeline.inputs.stage import STAGE, make_engine, run_inputs_stage
from veriscale.pipeline.rundir import RunDir
from veriscale.pipeline.summary import summarize_inputs
from veriscale.pipeline.tasks import select_task_dirs
from veriscale.runtime.executor import LocalExecutor
from veriscale.values.codec import decode

DEFAULT_BENCHMARK = Path(__file__).resolve().parents[2] / "shared" / "data" / "verina"


def verify_task(args: tuple[str, str]) -> dict[str, Any]:
    """Re-decode a task's written inputs and re-run the ground truth on them."""
    task_dir, result_file = args
    task = read_task(Path(task_dir))
    doc = json.loads(Path(result_file).read_text(encoding="utf-8"))
    params = [(p.name, p.type) for p in task.signature.params]
    engine = make_engine(PipelineConfig(), task).for_task(task)
    keys: set[str] = set()
    dup = out_mismatch = pre_mismatch = 0
    rows = [(r, True) for r in doc["expected"]] + [(r, False) for r in doc["unexpected"]]
    for row, is_expected in rows:
        values = {n: decode(t, row["input"][n], structs=task.structs) for n, t in params}
        k = input_key(params, values, task.structs)
        dup += k in keys
        keys.add(k)
        if is_expected:
            want = decode(task.signature.return_type, row["output"], structs=task.structs)
            got = engine.run(values)
            out_mismatch += not (got.ok and got.value == want)
        else:
            pre_mismatch += not engine.precondition(values).is_false
    return {
        "task": task.id,
        "duplicates": dup,
        "output_mismatch": out_mismatch,
        "unexpected_not_rejected": pre_mismatch,
    }


def run_cli(benchmark: Path, run_dir: Path, hashseed: str, workers: int) -> float:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    cmd = [
        sys.executable,
        "-c",
        "from veriscale.cli.app import main; main()",
        "expand",
        "inputs",
        "--benchmark",
        str(benchmark),
        "--run",
        str(run_dir),
        "--workers",
        str(workers),
        "--json",
    ]
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def same_files(a: Path, b: Path) -> tuple[int, list[str]]:
    names = sorted(p.name for p in a.iterdir())
    diff = [n for n in names if not (b / n).exists() or not filecmp.cmp(a / n, b / n, shallow=False)]
    return len(names), diff


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--benchmark", type=Path, default=DEFAULT_BENCHMARK)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--run-dir", type=Path, default=None, help="keep the run here (default: a temp dir)")
    ap.add_argument("--per-task", action="store_true", help="print per-task counts")
    ap.add_argument(
        "--determinism", action="store_true", help="also compare two CLI runs with different PYTHONHASHSEED"
    )
    args = ap.parse_args()
    if not args.benchmark.is_dir():
        sys.exit(f"benchmark not found: {args.benchmark}")

    tmp = tempfile.TemporaryDirectory(prefix="bench-expand-")
    run_dir = args.run_dir or Path(tmp.name) / "run"
    if run_dir.exists() and any(run_dir.iterdir()):
        sys.exit(f"{run_dir} is not empty: give a fresh --run-dir")
    config = PipelineConfig()
    t0 = time.perf_counter()
    with RunDir.open(run_dir, config) as rd:
        report = run_inputs_stage(args.benchmark, rd, LocalExecutor(workers=args.workers))
    wall = time.perf_counter() - t0
    dirs = select_task_dirs(args.benchmark)
    docs = [
        json.loads((run_dir / STAGE / f"{d.name}.json").read_text(encoding="utf-8"))
        for d in dirs
        if (run_dir / STAGE / f"{d.name}.json").exists()
    ]
    s = summarize_inputs(docs).to_json()

    print(f"benchmark: {args.benchmark} ({len(dirs)} tasks), workers: {args.workers}, cpus: {os.cpu_count()}")
    print(
        f"full offline expansion: {wall:.1f} s wall ({len(report.computed)} computed, "
        f"{len(report.failed)} failed)"
    )
    for task, err in sorted(report.failed.items()):
        print(f"  FAILED {task}: {err}")
    print(f"candidates: {s['candidates']} (seeds {s['seeds']}, mutants {s['mutants']})")
    exp = [d["counts"]["expected"] for d in docs]
    unexp = [d["counts"]["unexpected"] for d in docs]
    print(
        f"expected inputs per task: mean {s['mean_expected']:.2f}, median {statistics.median(exp)}, "
        f"min {min(exp)}, max {max(exp)}; total {s['expected']}"
    )
    print(
        f"unexpected inputs per task: mean {s['mean_unexpected']:.2f}, median {statistics.median(unexp)}, "
        f"min {min(unexp)}, max {max(unexp)}; total {s['unexpected']}"
    )
    print("excluded by reason:" + ("" if s["excluded"] else " none"))
    for reason, n in s["excluded"].items():
        print(f"  {n:6}  {reason}")
    print(f"original tests whose engine output differs from the stored one: {s['original_output_mismatch']}")
    if args.per_task:
        for d in docs:
            c = d["counts"]
            print(
                f"  {d['task_id']:22} expected {c['expected']:4}  unexpected {c['unexpected']:4}  "
                f"excluded {sum(c['excluded'].values()):3}"
            )

    t1 = time.perf_counter()
    work = [
        (str(d), str(run_dir / STAGE / f"{d.name}.json"))
        for d in dirs
        if (run_dir / STAGE / f"{d.name}.json").exists()
    ]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        checks = list(pool.map(verify_task, work, chunksize=4))
    dup = sum(c["duplicates"] for c in checks)
    mism = sum(c["output_mismatch"] for c in checks)
    notrej = sum(c["unexpected_not_rejected"] for c in checks)
    print(
        f"verification ({time.perf_counter() - t1:.1f} s): duplicates by canonical key: {dup}; "
        f"expected outputs differing from a fresh ground-truth run: {mism}; "
        f"unexpected inputs not rejected by the precondition: {notrej}"
    )
    print(f"every expected output equals the engine's ground truth: {'yes' if mism == 0 else 'NO'}")

    if args.determinism:
        base = Path(tmp.name)
        ta = run_cli(args.benchmark, base / "hs-a", "0", args.workers)
        tb = run_cli(args.benchmark, base / "hs-b", "4242", args.workers)
        n, diff = same_files(base / "hs-a" / STAGE, base / "hs-b" / STAGE)
        n2, diff2 = same_files(base / "hs-a" / STAGE, run_dir / STAGE)
        print(
            f"determinism: CLI runs with PYTHONHASHSEED=0 ({ta:.1f} s) and 4242 ({tb:.1f} s): "
            f"{n - len(diff)}/{n} result files byte-identical"
            + (f" (differ: {', '.join(diff[:10])})" if diff else "")
            + f"; identical to the in-process run: {n2 - len(diff2)}/{n2}"
        )
    tmp.cleanup()


if __name__ == "__main__":
    main()
