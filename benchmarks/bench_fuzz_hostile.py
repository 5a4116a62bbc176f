"""Fuzz campaign: hostile Lean and Rust candidates and corrupted datasets (see ``tests/hostile_fuzz.py``).

Prints one JSON report: tracebacks, hangs past the limits, processes left,
files written outside the sandbox directories, secrets visible to a
candidate, peak memory and wall time. Exit status 1 when any of the first
five is not zero.

    PYTHONPATH=src python benchmarks/bench_fuzz_hostile.py            # full: >= 10,000 candidates, >= 1,000 datasets
    PYTHONPATH=src python benchmarks/bench_fuzz_hostile.py --scale 0.1
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from dataclasses import fields
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import hostile_fuzz


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every campaign size")
    ap.add_argument("--seed", type=int, default=20261202)
    args = ap.parse_args()
    base = hostile_fuzz.Sizes()
    sizes = hostile_fuzz.Sizes(
        **{
            f.name: (
                max(1, round(getattr(base, f.name) * args.scale)) if f.name != "cli_share" else base.cli_share
            )
            for f in fields(base)
        }
    )
    work = Path(tempfile.mkdtemp(prefix="vs-fuzz-"))
    try:
        report = hostile_fuzz.run_campaign(sizes, work, seed=args.seed)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out = report.to_json()
    c = out["counts"]
    out["hostile_candidates"] = (
        c.get("lean code candidates", 0) + c.get("lean spec candidates", 0) + c.get("rust candidates", 0)
    )
    out["corrupted_datasets"] = c.get("corrupted Verina variants", 0) + c.get(
        "corrupted VeriContest variants", 0
    )
    print(json.dumps(out, indent=1, ensure_ascii=False))
    bad = (
        out["tracebacks"]
        + out["hangs"]
        + out["processes_left"]
        + out["files_outside_sandbox"]
        + out["secrets_visible"]
    )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
