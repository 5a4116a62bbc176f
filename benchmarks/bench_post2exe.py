"""Post2Exe compiled checkers vs the Python evaluator: agreement and checks per second.

    .venv/bin/python benchmarks/bench_post2exe.py [--data DIR] [--only lc7 ...] [--speed N]
        [--python-fuel F] [--json out.json]

For every problem (or ``--only``): the reference runs on the description's
examples (function-level cases), a deterministic sample of mutated outputs is
added, and both evaluators judge ``requires``/``ensures`` on every case. It
prints the share of problems with a compiled checker (translated at all /
every clause compiled), the verdict pairs, and every case where both decide
and disagree (there must be none).

``--speed N``: on the N problems whose ensures is quantifier-heavy (a
quantifier with two or more binders, or nested quantifiers) and whose cases
both evaluators decide, measure checks per second: Python repeats the cases
for at least one second; the compiled checker gets the cases replicated to
20,000 lines in one process (start-up included). Figures depend on the
machine and its load: the script prints them, tests never assert them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from veriscale.formats.vericontest.dataset import ProblemError, discover_problems, read_problem
from veriscale.languages.verus.engine import VeriContestEngine
from veriscale.languages.verus.post2exe.checker import build_checker
from veriscale.languages.verus.post2exe.crosscheck import crosscheck, example_cases, mutated_outputs
from veriscale.runtime.limits import Limits


def quantifier_heavy(spec: str) -> bool:
    import re

    ens = spec[spec.rfind("ensures") :]
    multi = re.search(r"(forall|exists)\s*\|\s*\w+\s*:\s*\w+\s*,", ens)
    return bool(multi) or ens.count("forall") + ens.count("exists") >= 2


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data" / "vericontest")
    )
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--speed", type=int, default=10)
    ap.add_argument("--python-fuel", type=int, default=2_000_000)
    ap.add_argument("--json")
    args = ap.parse_args()
    os.nice(10)
    engine = VeriContestEngine(post2exe=False,
                               spec_limits=Limits(fuel=args.python_fuel, seconds=120.0, max_depth=100_000))  # fmt: skip
    pairs: Counter[str] = Counter()
    disagreements: list[tuple[str, int, str, str, str]] = []
    n = translated = complete = 0
    speed_pool: list[tuple[str, object, object, list]] = []
    t0 = time.time()
    for d in discover_problems(args.data):
        if args.only and d.name not in args.only:
            continue
        n += 1
        try:
            p = read_problem(d)
        except ProblemError:
            continue
        ck = build_checker(p)
        if ck is None or not ck.ok:
            continue
        translated += 1
        complete += int(ck.checker.complete)
        te = engine.for_task(p)
        try:
            cases = example_cases(p, te)
        except Exception as exc:  # a problem whose reference cannot run: no cases
            print(f"{p.id}: no cases ({exc})", file=sys.stderr)
            continue
        cases = cases + mutated_outputs(cases)
        rows = crosscheck(p, te, cases, checker=ck)
        for r in rows:
            pairs[f"{r.kind}: python {r.python.truth.value} / compiled {r.compiled.truth.value}"] += 1
            if r.disagree:
                disagreements.append((p.id, r.case, r.kind, r.python.reason, r.compiled.reason))
        if quantifier_heavy(p.spec) and rows and all(r.both_decided for r in rows):
            speed_pool.append((p.id, te, ck, cases))
    print(f"problems: {n}; compiled checker: {translated} ({100 * translated / max(n, 1):.1f}%), "
          f"every clause compiled: {complete} ({100 * complete / max(n, 1):.1f}%)  [{time.time() - t0:.0f} s]")  # fmt: skip
    for k, v in sorted(pairs.items()):
        print(f"  {v:6}  {k}")
    decided = sum(v for k, v in pairs.items() if "UNKNOWN" not in k)
    print(f"cases both decide: {decided}; disagreements: {len(disagreements)}")
    for x in disagreements:
        print("  DISAGREE", x)
    speed: list[dict[str, object]] = []
    for pid, te, ck, cases in speed_pool[: args.speed]:
        t = time.perf_counter()
        k = 0
        while time.perf_counter() - t < 1.0:
            for inputs, out in cases:
                te.precondition(inputs)
                te.postcondition(inputs, out)
                k += 1
        py = k / (time.perf_counter() - t)
        rows = [(te._json_inputs(i), te._json_output(o)) for i, o in cases]
        batch = (rows * (20_000 // len(rows) + 1))[:20_000]
        t = time.perf_counter()
        ck.check(batch)
        comp = len(batch) / (time.perf_counter() - t)
        speed.append({"problem": pid, "python_per_s": py, "compiled_per_s": comp, "ratio": comp / py})
        print(f"  speed {pid}: python {py:9.1f} checks/s, compiled {comp:10.1f} checks/s, x{comp / py:7.1f}")
    if speed:
        import statistics

        print(f"median ratio over {len(speed)} quantifier-heavy problems: "
              f"x{statistics.median(s['ratio'] for s in speed):.1f}")  # type: ignore[misc]  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps({"problems": n, "translated": translated, "complete": complete,
                                               "pairs": pairs, "disagreements": disagreements, "speed": speed},
                                              indent=1), encoding="utf-8")  # fmt: skip


if __name__ == "__main__":
    main()
