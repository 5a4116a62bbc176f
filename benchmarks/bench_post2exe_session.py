"""CPU per case of a compiled Post2Exe checker on a RUNNING session, split into Python side and checker side.

    PYTHONPATH=src python benchmarks/bench_post2exe_session.py --only lc2395 lc523 cf1029C
        [--data DIR] [--cases 200] [--repeat 20] [--chunk 64] [--opt 3] [--profile]

Cases per problem: those of ``bench_post2exe_throughput.py`` (generated inputs
with the reference's outputs, the description examples, one mutated output
each). The checker is built as the engine builds it (default cache and
flags; ``--opt N``: compiled at that opt-level instead, as the throughput
bench's ``--opt`` does). Then, on ONE ``CompiledChecker`` whose long-lived process is already
running (a warm-up batch started it):

* ``whole``: ``check(rows)``, all cases in one batch, ``--repeat`` times;
* ``chunked``: ``check`` on ``--chunk``-row batches (the suite builder's
  ``CHECK_CHUNK``), ``--repeat`` times over all rows.

For each: the Python side (this process's CPU, ``time.process_time``: JSON
encoding, the exchange, the verdicts) and the checker side (the checker
process tree's CPU from ``/proc``, ``CheckerSession.cpu_seconds``) in µs per
case, and checks per CPU second of both together; medians over the repeats
(and the minima: the least disturbed repeat). Also the start-up: CPU of a fresh checker's
first one-case batch and its end (sandbox, helper, checker process, ``close``;
this process's CPU plus the waited-for children's, plus — for a checker started
through the sandbox server (``sandbox.server``, the default) — the CPU the
server reports for the ended checker's tree and the server helper's own CPU
over the interval). The server's one-time start-up happens before the first
measured start (while the cases are generated) and is printed apart;
``VERISCALE_SANDBOX_SERVER=0`` measures one sandbox per process as before. ``--profile`` prints the top of a cProfile
of the ``chunked`` loop. Figures are CPU, not wall time; on a loaded machine
they are still pessimistic (caches, frequency), so compare runs made under
similar load.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from post2exe_cases import generated_cases, named_problems  # noqa: E402

from veriscale.languages.verus.engine import VeriContestEngine  # noqa: E402
from veriscale.languages.verus.post2exe.build import CHECKER_FLAGS, compile_checker  # noqa: E402
from veriscale.languages.verus.post2exe.checker import CompiledChecker, build_checker  # noqa: E402
from veriscale.languages.verus.post2exe.crosscheck import example_cases, mutated_outputs  # noqa: E402
from veriscale.sandbox.server import get_server, server_cpu_seconds, unavailable_reason  # noqa: E402


def _children() -> float:
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return c.ru_utime + c.ru_stime


def _rows(p: Any, te: Any, count: int) -> tuple[CompiledChecker | None, list[Any]]:
    ck = build_checker(p)
    if ck is None or not ck.ok:
        return None, []
    cases = generated_cases(p, te, ck, count=count) + example_cases(p, te)
    ck.close()
    cases = cases + mutated_outputs(cases, per_case=1)
    return ck, [(te._json_inputs(i), te._json_output(o)) for i, o in cases]


def _loop(cc: CompiledChecker, rows: list[Any], step: int) -> list[Any]:
    got: list[Any] = []
    for k in range(0, len(rows), step):
        got.extend(cc.check(rows[k : k + step]))
    return got


def _answered(got: list[Any]) -> int:
    return sum(1 for r, _ in got if "gave no answer" not in r.reason)


def _measure(cc: CompiledChecker, rows: list[Any], step: int, repeat: int) -> dict[str, float]:
    py: list[float] = []
    ck: list[float] = []
    for _ in range(repeat):
        assert cc._session is not None
        # the checker's tree (running, or ended and reported by the server) and the server helper's own CPU
        c0 = cc._session.cpu_seconds() + server_cpu_seconds()
        t0 = time.process_time()
        got = _loop(cc, rows, step)
        t1 = time.process_time()
        c1 = cc._session.cpu_seconds() + server_cpu_seconds()
        done = _answered(got)  # (counted outside the timed part)
        if done != len(rows):
            raise SystemExit(f"only {done} of {len(rows)} cases answered")
        py.append((t1 - t0) / len(rows))
        ck.append((c1 - c0) / len(rows))
    tot = [a + b for a, b in zip(py, ck)]
    return {"py_us": 1e6 * statistics.median(py), "py_us_min": 1e6 * min(py),
            "checker_us": 1e6 * statistics.median(ck), "per_s": 1 / statistics.median(tot),
            "per_s_best": 1 / min(tot)}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data" / "vericontest"))
    ap.add_argument("--only", nargs="+", required=True)
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--chunk", type=int, default=64)
    ap.add_argument("--opt", help="compile the checker at this opt-level (default: the engine's flags)")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    server = get_server()
    if server is None:
        print(f"checkers in one sandbox each (no sandbox server: {unavailable_reason()})")
    else:
        print(f"checkers through the sandbox server; its one-time start-up: helper {1000 * server.start_cpu:.2f} ms"
              f" CPU + this process {1000 * server.start_own_cpu:.2f} ms (not in the start-up column)")  # fmt: skip
    for pid, p, te in named_problems(args.data, args.only, VeriContestEngine(post2exe=False)):
        ck, rows = _rows(p, te, args.cases)
        if ck is None or not rows:
            print(f"{pid}: no checker or no cases")
            continue
        if args.opt is not None:
            flags = tuple(f"opt-level={args.opt}" if f.startswith("opt-level=") else f for f in CHECKER_FLAGS)
            comp = compile_checker(ck.checker.source, flags=flags)
            if not comp.ok:
                print(f"{pid}: does not compile at opt-level {args.opt}")
                continue
            ck = CompiledChecker(ck.checker, comp.binary)
        starts = []
        for _ in range(9):
            fresh = CompiledChecker(ck.checker, ck.binary)
            c0, t0, h0 = _children(), time.process_time(), server_cpu_seconds()
            fresh.check(rows[:1])
            sess = fresh._session
            fresh.close()  # (a one-shot helper is waited for: its CPU is in RUSAGE_CHILDREN)
            served = sess.cpu_seconds() if sess is not None else 0.0  # (an ended served checker's tree)
            starts.append(time.process_time() - t0 + _children() - c0 + served + server_cpu_seconds() - h0)
        cc = CompiledChecker(ck.checker, ck.binary)
        _loop(cc, rows, len(rows))  # warm-up: the process starts
        whole = _measure(cc, rows, len(rows), args.repeat)
        chunked = _measure(cc, rows, args.chunk, args.repeat)
        print(f"{pid:8} cases {len(rows):4} | start-up {1000 * statistics.median(starts):5.2f} ms CPU (median of 9)"
              f" | whole batch: python {whole['py_us']:5.2f} (min {whole['py_us_min']:5.2f}) us + checker"
              f" {whole['checker_us']:5.2f} us per case, {whole['per_s']:7.0f}/s (best {whole['per_s_best']:.0f})"
              f" | {args.chunk}-row batches: python {chunked['py_us']:5.2f} (min {chunked['py_us_min']:5.2f}) us"
              f" + checker {chunked['checker_us']:5.2f} us, {chunked['per_s']:7.0f}/s"
              f" (best {chunked['per_s_best']:.0f})", flush=True)  # fmt: skip
        if args.profile:
            prof = cProfile.Profile(time.process_time)  # CPU, not wall: waiting for the checker is not ours
            prof.enable()
            for _ in range(args.repeat):
                _loop(cc, rows, args.chunk)
            prof.disable()
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(22)
            print(out.getvalue())
        cc.close()


if __name__ == "__main__":
    main()
