"""Compiled Post2Exe checkers vs the Python evaluator: checks per second on quantifier-heavy specs.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_post2exe_throughput.py [--data DIR]
        [--problems 12] [--cases 200] [--python-seconds 20] [--opt 0 3] [--only lc11 ...]
        [--batch-rows 1900] [--json out.json]

Selection rule (stated, not tuned): problems without a receiver whose
``ensures`` is quantifier-heavy (``post2exe_cases.quantifier_heavy``: a
quantifier with two or more binders, or two or more quantifiers) and whose
checker translates every clause, sorted by id; ``--problems N`` evenly spaced
ones among them (the next one when a problem yields fewer than 20 cases).

Cases per problem: up to ``--cases`` generated inputs that ``requires``
accepts with the reference's outputs (the suite builder's positive inputs,
``post2exe_cases.generated_cases``), the description examples' cases, and
mutated outputs of all of them (so both verdicts occur).

Compiled: the whole batch through ONE checker process (``CompiledChecker.check``:
JSON encoding, process start-up and both ``requires`` and ``ensures`` included);
the checker is compiled once per ``--opt`` level into a fresh cache (the
runtime library and prelude copied from the default cache, so only the checker
compile is timed, reported separately). Python: the evaluator with the
engine's default limits (``SPEC_FUEL``) on the same cases in the same order,
``precondition`` + ``postcondition`` per case, until ``--python-seconds`` have
passed (its rate is over the cases it did). Rates are in CPU seconds (user +
sys; for the compiled checker its process's plus this process's JSON work), which
load on a shared machine distorts far less than wall time; the compiled checker's
wall-clock rate is kept in the JSON output. Checker processes are started
through this process's sandbox server (``sandbox.server``; off with
``VERISCALE_SANDBOX_SERVER=0``): their CPU is counted from what the server
reports (they are not this process's children) plus the server helper's own
CPU over each measured interval. The server's one-time start-up happens at
the run's first checker process: the first problem's case generation (its
``requires`` judged by the checker), before any measured batch, so it is in no
per-problem figure; it is printed apart at the end (when a server is started
inside a measured interval, the interval's server CPU includes its start-up). The compiled rate counts the
cases the checker answered (a batch cut by its 120 s backstop leaves the rest
unanswered; the CPU it spent on them still counts). Also printed apart: the
CPU of a one-case batch (sandbox set-up and process start-up, about 9 ms on the
2-core machine) and the ratio without it (the rate of a long batch). Printed per problem: cases,
checks/s of each, the ratio over the cases Python did (when Python stopped
early, the compiled checker is timed again on just those), the ratio over the
cases both decide (the compiled checker re-run on just those), compile
seconds, and disagreements (cases both decide with different verdicts: must be
0). Then the median and minimum ratios. Wall-clock figures: they move with the
machine's load; tests never assert them.

``--batch-rows N`` adds the suite builder's realistic labelling batch: N rows (the
cases Python did, cycled — the same cost distribution; the builder labels about
200 positives and 1,700 negatives per problem) in ``CHECK_CHUNK``-row batches
through one checker process started by the first batch, at the builder's
compiled budget (``SuiteSettings.checker_fuel``), against the same Python rate.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from post2exe_cases import generated_cases, quantifier_heavy  # noqa: E402

from veriscale.formats.vericontest.dataset import ProblemError, discover_problems, read_problem  # noqa: E402
from veriscale.formats.vericontest.suites import CHECK_CHUNK, SuiteSettings  # noqa: E402
from veriscale.languages.verus.compile import cache_dir  # noqa: E402
from veriscale.languages.verus.engine import SPEC_FUEL, VeriContestEngine  # noqa: E402
from veriscale.languages.verus.post2exe.build import CHECKER_FLAGS, compile_checker, runtime_rlib  # noqa: E402
from veriscale.languages.verus.post2exe.checker import CompiledChecker, build_checker  # noqa: E402
from veriscale.languages.verus.post2exe.crosscheck import example_cases, mutated_outputs  # noqa: E402
from veriscale.sandbox.server import server_cpu_seconds, unavailable_reason  # noqa: E402


def _flags(opt: str) -> tuple[str, ...]:
    return tuple(f"opt-level={opt}" if f.startswith("opt-level=") else f for f in CHECKER_FLAGS)


def _fresh_cache() -> Path:
    """A temporary cache holding only the runtime library and prelude of the default cache."""
    tmp = Path(tempfile.mkdtemp(prefix="vs-p2e-bench-"))
    src = cache_dir()
    for inline in (False, True):  # both runtime builds (opt-level 0 / optimised checkers), compiled once
        runtime_rlib(src, inline)
    for sub in ("post2exe-rt", "prelude"):
        if (src / sub).is_dir():
            shutil.copytree(src / sub, tmp / sub)
    return tmp


def _cpu() -> float:
    """CPU seconds (user + sys) of this process and its waited-for children: less load-dependent than wall."""
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + c.ru_utime + c.ru_stime


def _bench(pid: str, te: Any, ck: Any, cases: list[tuple[dict[str, Any], Any]], opts: list[str],
           cache: Path, py_seconds: float, batch_rows: int = 0) -> dict[str, Any]:  # fmt: skip
    rows = [(te._json_inputs(i), te._json_output(o)) for i, o in cases]
    # Python first: on the same cases in order, until its time is up
    py_verdicts: list[tuple[Any, Any]] = []
    py_times: list[float] = []
    t0 = time.perf_counter()
    for inputs, out in cases:
        t = time.process_time()
        py_verdicts.append((te.precondition(inputs), te.postcondition(inputs, out)))
        py_times.append(time.process_time() - t)
        if time.perf_counter() - t0 > py_seconds:
            break
    n_py = len(py_verdicts)
    py_rate = n_py / sum(py_times)
    res: dict[str, Any] = {"problem": pid, "cases": len(cases), "python_cases": n_py, "python_per_s": py_rate}
    for opt in opts:
        t, w = _cpu(), time.perf_counter()
        comp = compile_checker(ck.checker.source, cache=cache, flags=_flags(opt))
        compile_s, compile_wall = _cpu() - t, time.perf_counter() - w
        if not comp.ok:
            res[f"opt{opt}"] = {"error": comp.errors[:300]}
            continue

        def fresh(fuel: int | None = None, binary: Any = comp.binary) -> CompiledChecker:
            # a heavy spec must not hold the run: a 120 s backstop per batch
            return CompiledChecker(ck.checker, binary, seconds=120.0, fuel=fuel)

        w = time.perf_counter()
        cc = fresh()
        got, answered, all_s = _timed(cc, rows)  # the first batch of a problem: its process starts
        wall_s = time.perf_counter() - w
        both = [k for k in range(n_py) if not py_verdicts[k][0].is_unknown and not got[k][0].is_unknown
                and got[k][1] is not None and not got[k][1].is_unknown and not py_verdicts[k][1].is_unknown]  # fmt: skip
        disagree = [
            k for k in both
            if py_verdicts[k][0].truth != got[k][0].truth or py_verdicts[k][1].truth != got[k][1].truth  # type: ignore[union-attr]
        ]  # fmt: skip
        entry: dict[str, Any] = {"compile_s": compile_s, "compiled_per_s": answered / all_s,
                                 "answered": answered, "compiled_wall_per_s": answered / wall_s,
                                 "compile_wall_s": compile_wall, "both_decided": len(both),
                                 "disagreements": disagree}  # fmt: skip
        # the ratio on the same cases: when Python stopped early, the compiled checker again (a new
        # process) on just the cases Python did
        same_answered, same_s = answered, all_s
        if n_py < len(rows):
            _, same_answered, same_s = _timed(fresh(), rows[:n_py])
        entry["ratio_all"] = (same_answered / same_s) / py_rate
        # the fixed cost of a problem's first batch (sandbox set-up, process start, one case)
        warm = fresh()
        _, _, entry["startup_s"] = _timed(warm, rows[:1], close=False)
        if answered == len(rows):  # (not after a batch cut by its backstop: lc932 would cost many minutes)
            # the rate of a process already running (what every later batch of the problem costs)
            _, steady_answered, steady_s = _timed(warm, rows[:n_py])
            entry["ratio_steady"] = (steady_answered / steady_s) / py_rate
            # the suite builder's pattern: CHECK_CHUNK-row batches of one problem, through its long-lived
            # process (as now) and with one sandbox and process per batch (as before sessions)
            for key, session in (("ratio_chunked", "1"), ("ratio_chunked_one_shot", "0")):
                os.environ["VERISCALE_POST2EXE_SESSION"] = session
                try:
                    _, ch_answered, ch_s = _timed(fresh(), rows[:n_py], chunk=CHECK_CHUNK)
                finally:
                    os.environ["VERISCALE_POST2EXE_SESSION"] = "1"
                entry[key] = (ch_answered / ch_s) / py_rate
        warm.close()
        if batch_rows and answered == len(rows):  # (not after a batch cut by its backstop: lc932, hours)
            # the suite builder's realistic labelling batch: `batch_rows` rows (the cases Python did, cycled:
            # the same cost distribution) in CHECK_CHUNK-row batches through one process started by the
            # first, at the builder's compiled budget (SuiteSettings.checker_fuel)
            big = [rows[k % n_py] for k in range(batch_rows)]
            _, rb_answered, rb_s = _timed(fresh(fuel=SuiteSettings().checker_fuel), big, chunk=CHECK_CHUNK)
            entry["ratio_realistic"] = (rb_answered / rb_s) / py_rate
            entry["realistic_rows"] = rb_answered
        # budget fairness: the compiled checker with the Python evaluator's step budget (SPEC_FUEL steps
        # per clause instead of per check: still the larger of the two) on the cases Python did
        sb_got, sb_answered, sb_s = _timed(fresh(fuel=SPEC_FUEL), rows[:n_py])
        entry["ratio_same_budget"] = (sb_answered / sb_s) / py_rate
        entry["same_budget_decided"] = sum(1 for _, e in sb_got if e is not None and not e.is_unknown)
        entry["python_decided"] = sum(1 for _, e in py_verdicts if not e.is_unknown)
        if both:
            sub = [rows[k] for k in both]
            _, _, sub_s = _timed(fresh(), sub)
            py_sub = len(both) / sum(py_times[k] for k in both)
            entry.update(compiled_both_per_s=len(both) / sub_s, python_both_per_s=py_sub,
                         ratio_both=(len(both) / sub_s) / py_sub)  # fmt: skip
        res[f"opt{opt}"] = entry
    return res


def _timed(cc: CompiledChecker, rows: list[Any], chunk: int | None = None, close: bool = True
           ) -> tuple[list[Any], int, float]:  # fmt: skip
    """(verdicts, cases answered, CPU seconds) of ``rows`` through ``cc`` (in ``chunk``-row batches when
    given), the checker process's CPU included whether it has ended (waited-for children; or, started
    through the sandbox server, the CPU the server reported at its end) or still runs (a long-lived
    session: its process tree's CPU read from /proc), plus the sandbox server helper's own CPU over the
    call (the fork of each checker's init; its one-time start-up, when it falls inside: see the module
    docstring); ``close``: end the process after
    (False: a second call measures a process already running)."""

    def cpu() -> float:
        # + the checker processes RUSAGE_CHILDREN does not hold (running, or started through the sandbox
        # server and ended) + the server helper's own CPU (its forks)
        sess = cc._session
        return _cpu() + (sess.cpu_seconds() if sess is not None else 0.0) + server_cpu_seconds()

    t = cpu()
    got: list[Any] = []
    step = chunk or max(1, len(rows))
    for k in range(0, len(rows), step):
        got.extend(cc.check(rows[k : k + step]))
    spent = cpu() - t
    if close:
        cc.close()
    answered = sum(1 for r, _ in got if "gave no answer" not in r.reason)
    return got, answered, spent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data" / "vericontest"))
    ap.add_argument("--problems", type=int, default=12)
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--python-seconds", type=float, default=20.0)
    ap.add_argument("--opt", nargs="+", default=["0", "3"])
    ap.add_argument("--only", nargs="*")
    ap.add_argument(
        "--batch-rows",
        type=int,
        default=0,
        help="also time a realistic labelling batch of this many rows (e.g. 1900)",
    )
    ap.add_argument("--json")
    args = ap.parse_args()
    os.nice(10)
    py_engine = VeriContestEngine(post2exe=False)  # the engine's default Python limits (SPEC_FUEL)
    pool = []
    for d in discover_problems(args.data):
        if args.only and d.name not in args.only:
            continue
        try:
            p = read_problem(d)
        except ProblemError:
            continue
        if p.ref_signature.receiver or p.constructor is not None or not quantifier_heavy(p.spec):
            continue
        pool.append(p)
    pool.sort(key=lambda p: p.id)
    step = max(1, len(pool) // max(args.problems, 1))
    order = [pool[k] for k in range(0, len(pool), step)] + [p for k, p in enumerate(pool) if k % step]
    print(
        f"quantifier-heavy problems without a receiver: {len(pool)}; taking {args.problems} (stride {step})"
    )
    cache = _fresh_cache()
    results: list[dict[str, Any]] = []
    try:
        for p in order:
            if len(results) >= args.problems:
                break
            ck = build_checker(p)
            if ck is None or not ck.ok or not ck.checker.complete:
                continue
            ck.seconds = 120.0  # backstop of one batch (rows it did not answer are UNKNOWN)
            te = py_engine.for_task(p)
            try:
                cases = generated_cases(p, te, ck, count=args.cases) + example_cases(p, te)
            except Exception as exc:  # a reference that cannot run: no cases
                print(f"  {p.id}: no cases ({exc})", file=sys.stderr)
                continue
            ck.close()  # (its process judged the generated inputs' requires)
            cases = cases + mutated_outputs(cases, per_case=1)
            if len(cases) < 20:
                continue
            r = _bench(p.id, te, ck, cases, args.opt, cache, args.python_seconds, args.batch_rows)
            results.append(r)
            line = f"  {p.id:9} cases {r['cases']:4} (python did {r['python_cases']:4}) python {r['python_per_s']:8.1f}/s"
            for opt in args.opt:
                e = r[f"opt{opt}"]
                if "error" in e:
                    line += f" | opt{opt}: does not compile"
                    continue
                cut = "" if e["answered"] == r["cases"] else f" (answered {e['answered']})"
                line += (f" | opt{opt}: compile {e['compile_s']:5.1f}s, {e['compiled_per_s']:9.1f}/s{cut} x{e['ratio_all']:7.1f}"
                         f", both-decided {e['both_decided']} x{e.get('ratio_both', float('nan')):7.1f}"
                         f", disagree {len(e['disagreements'])}, start-up {1000 * e['startup_s']:.0f} ms"
                         f" (running process x{e.get('ratio_steady', float('nan')):.1f}; {CHECK_CHUNK}-row batches"
                         f" x{e.get('ratio_chunked', float('nan')):.1f}, one process each x{e.get('ratio_chunked_one_shot', float('nan')):.1f};"
                         f" Python's budget x{e['ratio_same_budget']:.1f}, ensures decided {e['same_budget_decided']}"
                         f" vs Python {e['python_decided']})")  # fmt: skip
                if "ratio_realistic" in e:
                    line += f" [realistic {e['realistic_rows']} rows x{e['ratio_realistic']:.1f}]"
            print(line, flush=True)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    for opt in args.opt:
        es = [r[f"opt{opt}"] for r in results if "error" not in r[f"opt{opt}"]]
        all_r = [e["ratio_all"] for e in es]
        steady = [e["ratio_steady"] for e in es if "ratio_steady" in e]
        both_r = [e["ratio_both"] for e in es if "ratio_both" in e]
        chunked = [e["ratio_chunked"] for e in es if "ratio_chunked" in e]
        chunked1 = [e["ratio_chunked_one_shot"] for e in es if "ratio_chunked_one_shot" in e]
        same_b = [e["ratio_same_budget"] for e in es]
        real = [e["ratio_realistic"] for e in es if "ratio_realistic" in e]
        if real:
            print(f"opt-level {opt}: realistic batch ({args.batch_rows} rows in {CHECK_CHUNK}-row batches, one "
                  f"process, checker_fuel {SuiteSettings().checker_fuel:_}) median x{statistics.median(real):.1f} "
                  f"min x{min(real):.1f} ({len(real)} problems)")  # fmt: skip
        if all_r:
            print(f"opt-level {opt}: {CHECK_CHUNK}-row batches through one running process median "
                  f"x{statistics.median(chunked or [0]):.1f} min x{min(chunked or [0]):.1f} ({len(chunked)} problems), "
                  f"one process per batch median x{statistics.median(chunked1 or [0]):.1f} min x{min(chunked1 or [0]):.1f}; "
                  f"with the Python evaluator's step budget median x{statistics.median(same_b):.1f} min x{min(same_b):.1f}")  # fmt: skip
            print(f"opt-level {opt}: {len(es)} problems; ratio over the cases Python did median x{statistics.median(all_r):.1f} "
                  f"min x{min(all_r):.1f}; over cases both decide median x{statistics.median(both_r or [0]):.1f} "
                  f"min x{min(both_r or [0]):.1f}; on a running process median x{statistics.median(steady or [0]):.1f} "
                  f"min x{min(steady or [0]):.1f}; compile median {statistics.median(e['compile_s'] for e in es):.1f} s; "
                  f"disagreements {sum(len(e['disagreements']) for e in es)}")  # fmt: skip
    from veriscale.sandbox import server as sandbox_server

    srv = sandbox_server._server
    if srv is not None:
        print(f"sandbox server one-time start-up (before the first measured batch): helper {1000 * srv.start_cpu:.2f} ms"
              f" CPU + this process {1000 * srv.start_own_cpu:.2f} ms")  # fmt: skip
    else:
        print(f"no sandbox server ({unavailable_reason()}): one sandbox per checker process")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
