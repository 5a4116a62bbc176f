"""Write the ground truth of VeriContest problems as generations (all six tasks), for
``veriscale evaluate``: the figure "ground truth scores 100% on every task that needs no Verus".

    PYTHONPATH=src python benchmarks/vericontest_gt_generations.py ROOT OUT.jsonl [--every N] [--limit N]
"""

from __future__ import annotations

import argparse
import json

from veriscale.evaluate.vericontest.generations import VC_TASKS, ground_truth_generation
from veriscale.formats.vericontest.dataset import ProblemError, discover_problems, read_problem


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("out")
    ap.add_argument("--every", type=int, default=1, help="take every N-th problem (a spread sample)")
    ap.add_argument("--limit", type=int, default=0)
    a = ap.parse_args()
    dirs = discover_problems(a.root)[:: a.every]
    if a.limit:
        dirs = dirs[: a.limit]
    n = 0
    with open(a.out, "w", encoding="utf-8") as fh:
        for d in dirs:
            try:
                p = read_problem(d)
            except ProblemError as exc:
                print(f"skipped {d.name}: {exc}")
                continue
            for t in VC_TASKS:
                fh.write(json.dumps(ground_truth_generation(p, t).to_json(), ensure_ascii=False) + "\n")
            n += 1
    print(f"{n} problems × {len(VC_TASKS)} tasks → {a.out}")


if __name__ == "__main__":
    main()
