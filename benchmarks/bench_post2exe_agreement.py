"""Whole-set agreement of the compiled Post2Exe checkers with the Python evaluator.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_post2exe_agreement.py [--data DIR] [-j 2]
        [--generated 10] [--python-seconds 60] [--only lc7 ...] [--json out.json]

For every problem: its compiled checker (the share of problems that have one,
and one that translates every clause, is printed); the cases are the
description examples' function-level cases (``crosscheck.example_cases``),
``--generated`` inputs the suite builder's generators make that the checker's
``requires`` accepts, with the reference's outputs
(``post2exe_cases.generated_cases``, seed 0), and mutated outputs of all of
them (``crosscheck.mutated_outputs``: wrong-looking outputs, so FALSE verdicts
occur). The compiled checker judges all of a problem's cases in one process;
the Python evaluator (engine defaults: ``SPEC_FUEL`` steps) judges them in
order until ``--python-seconds`` of CPU per problem are spent (the rest are
counted as not run), each check with a ``--check-seconds`` clock backstop. The
compiled checker's step budget is ``VERISCALE_POST2EXE_FUEL`` (set it lower than the
engine's 64 M to keep the run short: fewer cases are decided, none differently). Printed: verdict pairs per clause kind, the cases both
decide, and every disagreement (there must be none).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))


def agree_one(args: tuple[str, int, float, float]) -> dict[str, Any]:
    """One problem's verdict pairs (runs in a pool worker)."""
    from post2exe_cases import generated_cases

    from veriscale.formats.vericontest.dataset import ProblemError, read_problem
    from veriscale.languages.verus.engine import SPEC_FUEL, VeriContestEngine
    from veriscale.languages.verus.post2exe.checker import build_checker
    from veriscale.languages.verus.post2exe.crosscheck import example_cases, mutated_outputs
    from veriscale.runtime.limits import Limits

    path, generated, py_seconds, check_seconds = args
    res: dict[str, Any] = {"problem": Path(path).name, "checker": False, "complete": False, "pairs": {},
                           "disagreements": [], "not_run": 0, "cases": 0}  # fmt: skip
    try:
        p = read_problem(path)
    except ProblemError as exc:
        res["error"] = f"does not load: {exc}"
        return res
    ck = build_checker(p)
    if ck is None or not ck.ok:
        return res
    res["checker"] = True
    res["complete"] = ck.checker.complete
    # the engine's fuel; the clock only as a backstop of one check (a timed-out check is UNKNOWN, which
    # never counts as an agreement or a disagreement)
    te = VeriContestEngine(
        post2exe=False, spec_limits=Limits(fuel=SPEC_FUEL, seconds=check_seconds, max_depth=100_000)
    ).for_task(p)
    try:
        cases = example_cases(p, te)
        if generated:
            cases += generated_cases(p, te, ck, count=generated)
    except Exception as exc:  # a reference that cannot run: no cases
        res["error"] = f"no cases: {exc!r}"
        return res
    cases = cases + mutated_outputs(cases)
    rows: list[tuple[dict[str, Any], Any]] = []
    keep: list[tuple[dict[str, Any], Any]] = []
    for inputs, output in cases:
        try:
            rows.append((te._json_inputs(inputs), te._json_output(output)))
            keep.append((inputs, output))
        except (TypeError, KeyError, AttributeError, ValueError):
            continue
    res["cases"] = len(rows)
    got = ck.check(rows)
    pairs: Counter[str] = Counter()
    t0 = time.process_time()
    for k, ((inputs, output), (req_c, ens_c)) in enumerate(zip(keep, got)):
        if time.process_time() - t0 > py_seconds:
            res["not_run"] = len(keep) - k
            break
        for kind, comp in (("requires", req_c), ("ensures", ens_c)):
            if comp is None:
                continue
            pv = te.precondition(inputs) if kind == "requires" else te.postcondition(inputs, output)
            pairs[f"{kind}: python {pv.truth.value} / compiled {comp.truth.value}"] += 1
            if not pv.is_unknown and not comp.is_unknown and pv.truth != comp.truth:
                res["disagreements"].append({"case": k, "kind": kind, "input": rows[k][0], "output": rows[k][1],
                                             "python": pv.reason, "compiled": comp.reason})  # fmt: skip
    res["pairs"] = dict(pairs)
    return res


def main() -> None:
    import bench_post2exe_agreement as me  # importable by name, so spawned workers find agree_one

    from veriscale.formats.vericontest.dataset import discover_problems
    from veriscale.runtime.executor import pool_executor

    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data" / "vericontest"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--generated", type=int, default=10)
    ap.add_argument("--python-seconds", type=float, default=60.0)
    ap.add_argument("--check-seconds", type=float, default=10.0)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--json")
    args = ap.parse_args()
    dirs = discover_problems(args.data)
    if args.only:
        dirs = [d for d in dirs if d.name in set(args.only)]
    work = [(d.name, (str(d), args.generated, args.python_seconds, args.check_seconds)) for d in dirs]
    out: dict[str, dict[str, Any]] = {}
    t0 = time.perf_counter()

    def on_done(key: str, result: Any, error: str | None, _seconds: float) -> None:
        out[key] = result if result is not None else {"problem": key, "error": error, "pairs": {},
                                                      "disagreements": [], "checker": False}  # fmt: skip
        if len(out) % 50 == 0:  # running totals, so a cut-short run still reports what it did
            done = list(out.values())
            both = sum(v for r in done for k, v in r.get("pairs", {}).items() if "UNKNOWN" not in k)
            dis = sum(len(r.get("disagreements", [])) for r in done)
            print(f"[{len(done)}/{len(work)} problems, {time.perf_counter() - t0:.0f} s] verdicts both decide: "
                  f"{both}; disagreements: {dis}", flush=True)  # fmt: skip

    pool_executor(args.jobs).run(me.agree_one, work, on_done)
    res = [out[k] for k, _ in work]
    n = len(res)
    with_ck = sum(1 for r in res if r.get("checker"))
    complete = sum(1 for r in res if r.get("complete"))
    pairs: Counter[str] = Counter()
    for r in res:
        pairs.update(r.get("pairs", {}))
    dis = [(r["problem"], d) for r in res for d in r.get("disagreements", [])]
    print(f"problems: {n}; with a compiled checker: {with_ck} ({100 * with_ck / max(n, 1):.1f}%), every clause "
          f"compiled: {complete} ({100 * complete / max(n, 1):.1f}%)  [{time.perf_counter() - t0:.0f} s wall]")  # fmt: skip
    print(f"cases: {sum(r.get('cases', 0) for r in res)}; not run in Python (per-problem CPU cap): "
          f"{sum(r.get('not_run', 0) for r in res)} in {sum(1 for r in res if r.get('not_run'))} problems")  # fmt: skip
    for k, v in sorted(pairs.items()):
        print(f"  {v:7}  {k}")
    both = sum(v for k, v in pairs.items() if "UNKNOWN" not in k)
    print(f"verdicts both decide: {both}; disagreements: {len(dis)}")
    for pid, d in dis:
        print(
            f"  DISAGREE {pid} case {d['case']} {d['kind']}: python {d['python']!r} / compiled {d['compiled']!r}"
        )
    errs = [(r["problem"], r["error"]) for r in res if r.get("error")]
    if errs:
        print(f"problems with no cases: {len(errs)}: " + ", ".join(p for p, _ in errs[:30]))
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
