"""Speed of the native engine on real data (prints figures; not a test).

Usage:
    python benchmarks/bench_native_engine.py [--verina DIR] [--verinaplus DIR] [--skip-plus]

Figures:
  * wall time of the full ground-truth check of Verina (all five checks, one process);
  * wall time of re-executing the ground-truth implementation on every decodable
    VerinaPlus test row (one process), with rows/s and the agreement rate.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from veriscale.cli.check import _task_dirs, run_check
from veriscale.evaluate.scoring.compare import outputs_match
from veriscale.formats.verina.dataset import DatasetError, read_task
from veriscale.languages.lean.native import NativeEngine
from veriscale.values.codec import DecodeError


def bench_verina_check(root: Path) -> None:
    t0 = time.perf_counter()
    rep = run_check(root, jobs=1)
    dt = time.perf_counter() - t0
    totals = rep.totals()
    n = sum(t["total"] for t in totals.values())
    agree = sum(t["agree"] for t in totals.values())
    print(f"verina full check: {dt:.1f} s wall (1 process), {n} checks, {agree} agree, {n / dt:.0f} checks/s")


def bench_plus_runs(root: Path) -> None:
    rows = equal = undecodable = 0
    t_exec = 0.0
    t0 = time.perf_counter()
    engine = NativeEngine()
    for d in _task_dirs(root):
        try:
            task = read_task(d)
        except DatasetError as exc:
            print(f"  skip {d.name}: {exc}", file=sys.stderr)
            continue
        te = engine.for_task(task)
        ret = task.signature.return_type
        work = []
        for i, tc in enumerate(task.tests):
            try:
                inputs = task.decode_input(tc.input, file="test.json", row=i)
                expected = task.decode_output(tc.expected, file="test.json", row=i)
            except DecodeError:
                undecodable += 1
                continue
            work.append((inputs, expected))
        s = time.perf_counter()
        for inputs, expected in work:
            out = te.run(inputs)
            rows += 1
            if out.ok and outputs_match(ret, out.value, expected):
                equal += 1
        t_exec += time.perf_counter() - s
    dt = time.perf_counter() - t0
    print(
        f"verinaplus implementation re-execution: {rows} decodable rows ({undecodable} undecodable), "
        f"{equal} equal ({100 * equal / max(rows, 1):.2f}%), {t_exec:.1f} s executing, {dt:.1f} s wall "
        f"incl. reading/decoding, {rows / max(t_exec, 1e-9):.0f} rows/s"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    here = Path(__file__).resolve().parent.parent
    ap.add_argument("--verina", type=Path, default=here.parent / "shared" / "data" / "verina")
    ap.add_argument("--verinaplus", type=Path, default=here.parent / "shared" / "data" / "verinaplus")
    ap.add_argument("--skip-plus", action="store_true")
    args = ap.parse_args()
    bench_verina_check(args.verina)
    if not args.skip_plus:
        bench_plus_runs(args.verinaplus)


if __name__ == "__main__":
    main()
