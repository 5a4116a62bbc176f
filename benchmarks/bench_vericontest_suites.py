"""VeriContest Plus/Lite suites on a fixed problem sample: volumes, mutants, speed (prints figures).

Usage:
    python benchmarks/bench_vericontest_suites.py [--benchmark DIR] [--sample 100] [--workers 2]
        [--out DIR] [--schemata 3] [--report-only] [--only ID,ID,...]

The sample is fixed: of all problems in format order (LeetCode then Codeforces),
the ones at positions ``floor(k * total / sample)``, k = 0 … sample-1. The run
goes through ``run_scale`` (the same run directory, ledger and executor as
``veriscale scale``), so ``--out`` resumes an interrupted run (wall time then
covers only the remaining work). Figures:

* positives per problem (mean, min–max, share with ≥ 150); negatives per problem
  and negatives/positives, by source (syntactic mutants, direct output mutation);
  valid alternative answers; problems flagged as benchmark defects (the
  ground-truth ``ensures`` rejects the reference's output on a valid input);
* syntactic mutants generated / compiled / killed / surviving;
* wall time, peak RSS of the largest worker, and the extrapolation to 946 problems;
* ``--schemata K``: on the first K sample problems with mutants, the mutant schema's
  one compile against one rustc per mutant (5 mutants compiled separately, uncached,
  the mean multiplied by the number of mutants).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import tempfile
import time
from pathlib import Path

from veriscale.formats.vericontest.dataset import discover_problems, read_problem
from veriscale.languages.verus.compile import compile_program
from veriscale.languages.verus.mutants import mutant_schema, selector_source
from veriscale.languages.verus.reference import ProblemRunner
from veriscale.pipeline.config import load_pipeline_config
from veriscale.pipeline.rundir import RunDir
from veriscale.pipeline.scale import run_scale
from veriscale.runtime.executor import pool_executor

TOTAL = 946


def sample(root: Path, n: int) -> list[str]:
    dirs = discover_problems(root)
    return [dirs[(k * len(dirs)) // n].name for k in range(min(n, len(dirs)))]


def schemata_speedup(root: Path, ids: list[str], k: int) -> None:
    done = 0
    for pid in ids:
        if done >= k:
            break
        fam = "codeforces" if pid.startswith("cf") else "leetcode"
        prob = read_problem(root / fam / pid)
        sch = mutant_schema(prob.reference_source)
        if len(sch.mutants) < 5:
            continue
        harness = ProblemRunner(prob, code=sch.source).harness_source() + "\n" + selector_source()
        t = time.perf_counter()
        comp = compile_program(harness, use_cache=False)
        schema_s = time.perf_counter() - t
        if not comp.ok:
            continue
        singles = []
        for m in sch.mutants[:: max(1, len(sch.mutants) // 5)][:5]:
            src = re.sub(
                r"__vs_m\((\d+)\)", lambda x, m=m: "true" if int(x.group(1)) == m.id else "false", harness
            )
            t = time.perf_counter()
            compile_program(src, use_cache=False)
            singles.append(time.perf_counter() - t)
        per = statistics.mean(singles)
        print(
            f"schemata {pid}: {len(sch.mutants)} mutants; schema compile {schema_s:.1f} s; "
            f"one rustc per mutant {per:.1f} s x {len(sch.mutants)} = {per * len(sch.mutants):.0f} s; "
            f"compile speed-up x{per * len(sch.mutants) / schema_s:.1f}"
        )
        done += 1


def _summary(d: dict) -> dict:
    """The figures of one problem's result (the documents themselves are dropped: some are large)."""
    m = d.get("mutants") or {}
    c = d.get("counts") or {}
    return {
        "task_id": d["task_id"],
        "positives": len(d["positives"]),
        "negatives": len(d["negatives"]),
        "syntactic": sum(n["source"].startswith("syntactic") for n in d["negatives"]),
        "direct": sum(n["source"] == "direct" for n in d["negatives"]),
        "alternatives": len(d["alternatives"]),
        "defects": bool(d["defects"]),
        "mutants": {k: m.get(k, 0) for k in ("generated", "compiled", "killed", "surviving", "not_run",
                                              "work_budget_kills", "clock_timeouts")},
        "clock_guard": bool(c.get("clock_guard")),
        "mutant_error": bool(m.get("error")),
        "ensures_unknown": c.get("ensures_unknown", 0),
        "domain": (d.get("domain") or {}).get("inputs") if (d.get("domain") or {}).get("exhausted") else None,
        "steered": c.get("steered_requires") or {},
        "coverage": {"probes": len((d.get("coverage") or {}).get("probes") or []),
                     "covered": (d.get("coverage") or {}).get("covered", 0),
                     "error": (d.get("coverage") or {}).get("error", "")},
        "weakened": {k: v for k, v in (d.get("weakened") or {}).items() if k not in ("kills", "clauses")},
        "seconds": {**(d.get("seconds") or {}), "mutant_compile": m.get("compile_seconds", 0.0),
                    "mutant_run": m.get("run_seconds", 0.0)},
    }  # fmt: skip


def report(out: Path, ids: list[str], wall: float | None) -> None:
    docs = []
    for pid in ids:
        p = out / "suites" / f"{pid}.json"
        if p.is_file():
            docs.append(_summary(json.loads(p.read_text(encoding="utf-8"))))
    if not docs:
        print("no finished problems")
        return
    pos = [d["positives"] for d in docs]
    negs = [d["negatives"] for d in docs]
    syn = [d["syntactic"] for d in docs]
    direct = [d["direct"] for d in docs]
    alts = [d["alternatives"] for d in docs]
    defects = sorted(d["task_id"] for d in docs if d["defects"])
    zero = sorted(d["task_id"] for d in docs if not d["positives"])
    m = [d["mutants"] for d in docs]
    print(f"problems finished: {len(docs)}/{len(ids)}")
    print(
        f"positives per problem: mean {statistics.mean(pos):.1f}, min {min(pos)}, max {max(pos)}, "
        f">=150: {sum(x >= 150 for x in pos)}/{len(pos)} ({100 * sum(x >= 150 for x in pos) / len(pos):.0f}%), "
        f"none: {len(zero)} {zero[:20]}"
    )
    tp = sum(pos) or 1
    print(
        f"negatives per problem: mean {statistics.mean(negs):.1f} (ratio {sum(negs) / tp:.2f}); "
        f"syntactic mean {statistics.mean(syn):.1f} (ratio {sum(syn) / tp:.2f}); "
        f"direct mean {statistics.mean(direct):.1f} (ratio {sum(direct) / tp:.2f})"
    )
    print(
        f"valid alternative answers: {sum(alts)} in {sum(a > 0 for a in alts)} problems "
        f"{sorted(d['task_id'] for d in docs if d['alternatives'])[:20]}"
    )
    print(f"benchmark defects (ensures rejects the reference): {len(defects)} {defects}")
    g = sum(x.get("generated", 0) for x in m)
    c = sum(x.get("compiled", 0) for x in m)
    k = sum(x.get("killed", 0) for x in m)
    s = sum(x.get("surviving", 0) for x in m)
    errs = sorted(d["task_id"] for d in docs if d["mutant_error"])
    print(
        f"syntactic mutants: generated {g}, compiled {c}, killed {k}, surviving {s}; "
        f"no schema: {len(errs)} {errs[:20]}"
    )
    cov = [d["coverage"] for d in docs if d["positives"]]
    print(
        f"reference branches: instrumented {sum(c['probes'] for c in cov)}, covered by Plus "
        f"{sum(c['covered'] for c in cov)}; problems without probes measured: "
        f"{sorted(d['task_id'] for d in docs if d['positives'] and d['coverage'].get('error'))[:20]}"
    )
    w = [d["weakened"] for d in docs if d["weakened"]]
    print(
        f"weakened ensures: built {sum(x.get('built', 0) for x in w)}, killed {sum(x.get('killed', 0) for x in w)} "
        f"(problems with >= 2 clauses: {sum(x.get('built', 0) > 0 for x in w)}; negatives without a clause "
        f"vector: {sum(x.get('unevaluated', 0) for x in w)})"
    )
    stats_p = out / "stats.json"
    if stats_p.is_file():
        per = json.loads(stats_p.read_text(encoding="utf-8")).get("per_task", {})
        per = [per[t] for t in ids if t in per]
        lite = [x for x in per if x.get("plus_positives")]
        print(
            f"Lite (of {len(lite)} problems with positives): positives mean "
            f"{statistics.mean(x['lite_positives'] for x in lite) if lite else 0:.1f}, negatives mean "
            f"{statistics.mean(x['lite_negatives'] for x in lite) if lite else 0:.1f}; branches covered "
            f"Plus {sum(x.get('plus_branches', 0) for x in lite)} / Lite {sum(x.get('lite_branches', 0) for x in lite)}"
            f" (of {sum(x.get('branches', 0) for x in lite)} instrumented); coverage preserved "
            f"{sum(bool(x.get('coverage_preserved')) for x in lite)}/{len(lite)}, mutant kills preserved "
            f"{sum(bool(x.get('kill_preserved')) for x in lite)}/{len(lite)}, weakened kills preserved "
            f"{sum(bool(x.get('weakened_preserved')) for x in lite)}/{len(lite)} (weakened killed Plus "
            f"{sum(x.get('plus_weakened', 0) for x in lite)} / Lite {sum(x.get('lite_weakened', 0) for x in lite)})"
        )
    print(
        f"mutant cases stopped by the work budget: {sum(x.get('work_budget_kills', 0) for x in m)}; by the clock "
        f"backstop: {sum(x.get('clock_timeouts', 0) for x in m)}; mutants not run: "
        f"{sum(x.get('not_run', 0) for x in m)}; problems that reached the problem clock guard: "
        f"{sorted(d['task_id'] for d in docs if d['clock_guard'])}"
    )
    unk = sum(d["ensures_unknown"] for d in docs)
    print(f"positives dropped as ensures UNKNOWN: {unk}")
    dom = [(d["task_id"], d["domain"], d["positives"]) for d in docs if d["domain"] is not None]
    print(
        f"whole valid domain enumerated (domain exhausted: inputs -> positives): {len(dom)} problems "
        + ", ".join(f"{t} {n}->{p}" for t, n, p in dom)
    )
    st = [(d["task_id"], d["steered"]) for d in docs if d["steered"]]
    print(
        f"requires-steered inputs used by {len(st)} problems; requires TRUE "
        f"{sum(x.get('true', 0) for _, x in st)} / FALSE {sum(x.get('false', 0) for _, x in st)} / "
        f"UNKNOWN {sum(x.get('unknown', 0) for _, x in st)}"
    )
    short = sorted((d["positives"], d["task_id"]) for d in docs if d["positives"] < 150)
    print("under 150 positives: " + ", ".join(f"{t} {n}" for n, t in short))
    stages: dict[str, float] = {}
    for d in docs:
        for k, v in d["seconds"].items():
            stages[k] = stages.get(k, 0.0) + v
    print("worker seconds by stage: " + ", ".join(f"{k} {v:.0f}" for k, v in sorted(stages.items())))
    slow = sorted(docs, key=lambda d: -sum(v for k, v in d["seconds"].items() if not k.startswith("mutant_")))
    print(
        "slowest problems: "
        + ", ".join(
            f"{d['task_id']} {sum(v for k, v in d['seconds'].items() if not k.startswith('mutant_')):.0f} s"
            for d in slow[:8]
        )
    )
    if wall is not None:
        print(
            f"wall {wall:.0f} s for {len(docs)} problems; extrapolated to {TOTAL}: {wall * TOTAL / len(docs) / 3600:.2f} h"
        )
    ch, me = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"CPU user+sys: children {ch.ru_utime + ch.ru_stime:.0f} s, this process {me.ru_utime + me.ru_stime:.0f} s; "
        f"load average now {os.getloadavg()[0]:.1f} (1 min) {os.getloadavg()[1]:.1f} (5 min)"
    )
    rss = ch.ru_maxrss / 1024
    print(
        f"peak RSS of the largest child process: {rss:.0f} MiB; this process "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = Path(__file__).resolve().parent
    ap.add_argument("--benchmark", type=Path, default=here.parent.parent / "shared" / "data" / "vericontest")
    ap.add_argument("--sample", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--schemata", type=int, default=0)
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--only", default="", help="comma-separated problem ids instead of the fixed sample")
    args = ap.parse_args()
    ids = [x for x in args.only.split(",") if x] if args.only else sample(args.benchmark, args.sample)
    out = args.out or Path(tempfile.mkdtemp(prefix="vc-suites-"))
    print(
        f"sample: {len(ids)} problems ({sum(i.startswith('lc') for i in ids)} lc, "
        f"{sum(i.startswith('cf') for i in ids)} cf); run directory {out}"
    )
    wall = None
    print(f"load average at start: {os.getloadavg()[0]:.1f} (1 min) {os.getloadavg()[1]:.1f} (5 min)")
    if not args.report_only:
        cfg = load_pipeline_config(None, {})
        t = time.perf_counter()
        with RunDir.open(out, cfg) as rd, pool_executor(args.workers) as ex:
            rep = run_scale(args.benchmark, rd, ex, tasks=ids)
        wall = time.perf_counter() - t
        print(f"failed: {rep.failed}")
    report(out, ids, wall)
    if args.schemata:
        schemata_speedup(args.benchmark, ids, args.schemata)


if __name__ == "__main__":
    main()
