"""Where a compiled Post2Exe batch spends its CPU: sandbox, process start, encode, parse, evaluation, reply.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_post2exe_overheads.py [--data DIR]
        [--problems 8] [--cases 200] [--repeat 3] [--only lc523 ...]

Problems and cases: the rule of ``bench_post2exe_throughput.py`` (quantifier-heavy
``ensures``, no receiver, complete checker, evenly spaced by id; generated
positives, the description examples and one mutated output each). Per problem,
CPU seconds (user + sys of this process and its waited-for children), best of
``--repeat``:

* ``sandbox``: a sandboxed ``/bin/true`` (private directory, helper, namespaces);
* ``start``: the checker with empty input through ``run_program`` (sandbox plus
  the checker's own start-up: its 1 GiB-stack thread, reading the fuel);
* ``encode``: the Python side turning the batch into the request text;
* ``parse``: the checker run on the same batch with the ``input`` key renamed,
  so it parses every case and answers ``bad`` without evaluating (minus ``start``);
* ``eval``: the checker on the real batch, minus ``start`` and ``parse``
  (evaluation and writing the verdict lines);
* ``reply``: the Python side turning the (compact) verdict lines into ``Verdict`` pairs;
* ``batch``: ``CompiledChecker.check`` on the batch with one sandbox and process
  per batch (``VERISCALE_POST2EXE_SESSION=0``, the behaviour before sessions);
* ``session``: the same through the problem's long-lived checker process, already
  started (no sandbox or process start in it).

The figures move with the machine's load; tests never assert them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from post2exe_cases import generated_cases, quantifier_heavy  # noqa: E402

from veriscale.formats.vericontest.dataset import ProblemError, discover_problems, read_problem  # noqa: E402
from veriscale.languages.verus.engine import VeriContestEngine  # noqa: E402
from veriscale.languages.verus.execute import ExecLimits, run_program  # noqa: E402
from veriscale.languages.verus.post2exe import checker as ckmod  # noqa: E402
from veriscale.languages.verus.post2exe.checker import build_checker  # noqa: E402
from veriscale.languages.verus.post2exe.crosscheck import example_cases, mutated_outputs  # noqa: E402
from veriscale.sandbox import Sandbox  # noqa: E402


def _cpu() -> float:
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + c.ru_utime + c.ru_stime


def _best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, got = float("inf"), None
    for _ in range(repeat):
        t = _cpu()
        got = fn()
        best = min(best, _cpu() - t)
    return best, got


def _select(data: str, problems: int, only: list[str] | None) -> list[Any]:
    pool = []
    for d in discover_problems(data):
        if only and d.name not in only:
            continue
        try:
            p = read_problem(d)
        except ProblemError:
            continue
        if p.ref_signature.receiver or p.constructor is not None or not quantifier_heavy(p.spec):
            continue
        pool.append(p)
    pool.sort(key=lambda p: p.id)
    step = max(1, len(pool) // max(problems, 1))
    return [pool[k] for k in range(0, len(pool), step)] + [p for k, p in enumerate(pool) if k % step]


def _measure(ck: Any, te: Any, cases: list[Any], repeat: int, lim: ExecLimits, env: dict[str, str]
             ) -> tuple[int, list[float]]:  # fmt: skip
    """(rows, CPU ms of: sandbox, start, encode, parse, eval, reply, batch, session) of one problem."""
    rows = [(te._json_inputs(i), te._json_output(o)) for i, o in cases]
    objs = [{"input": i, "output": o} for i, o in rows]

    def sandbox_true() -> None:
        with Sandbox() as sb:
            sb.run(["/bin/true"])

    sandbox_s, _ = _best(sandbox_true, repeat)
    assert ck.binary is not None
    binary = ck.binary
    start_s, _ = _best(lambda: run_program(binary, "", lim, env=env), repeat)
    encode_s, text = _best(lambda: ckmod._ENCODE(objs) + "\n", repeat)
    blind = json.dumps([{"inpu": o["input"], "output": o["output"]} for o in objs]) + "\n"
    parse_s, _ = _best(lambda: run_program(binary, blind, lim, env=env), repeat)
    full_s, res = _best(lambda: run_program(binary, text, lim, env=env), repeat)
    lines = [ln.encode("utf-8") for ln in res.stdout.splitlines()]
    reply_s, _ = _best(lambda: ck._verdicts(lines, len(rows), True), repeat)
    os.environ["VERISCALE_POST2EXE_SESSION"] = "0"  # one sandbox and process per batch
    batch_s, _ = _best(lambda: ck.check(rows), repeat)
    os.environ["VERISCALE_POST2EXE_SESSION"] = "1"
    ck.check(rows[:1])  # starts the long-lived process (outside the timing)
    sess = ck._session
    assert sess is not None

    def through_session() -> float:  # the live process's CPU is not in RUSAGE_CHILDREN: add it
        c0, t0 = sess.cpu_seconds(), _cpu()
        ck.check(rows)
        return _cpu() - t0 + sess.cpu_seconds() - c0

    session_s = min(through_session() for _ in range(repeat))
    ck.close()
    parse_only = max(0.0, parse_s - start_s)
    ev = max(0.0, full_s - start_s - parse_only)
    ms = [1000 * x for x in (sandbox_s, start_s, encode_s, parse_only, ev, reply_s, batch_s, session_s)]
    return len(rows), ms


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data" / "vericontest"))
    ap.add_argument("--problems", type=int, default=8)
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    os.nice(10)
    py_engine = VeriContestEngine(post2exe=False)
    lim = ExecLimits(case_seconds=120.0, memory_mb=4096)
    env = ckmod._checker_env(ckmod.CHECK_FUEL)  # (the compact reply form, as CompiledChecker runs it)
    done = 0
    print("problem   cases | sandbox  start  encode  parse   eval  reply | batch  session  (CPU ms)")
    for p in _select(args.data, args.problems, args.only):
        if done >= args.problems:
            break
        ck = build_checker(p)
        if ck is None or not ck.ok or not ck.checker.complete:
            continue
        ck.seconds = 120.0
        te = py_engine.for_task(p)
        try:
            cases = generated_cases(p, te, ck, count=args.cases) + example_cases(p, te)
        except Exception as exc:  # a reference that cannot run: no cases
            print(f"  {p.id}: no cases ({exc})", file=sys.stderr)
            continue
        cases = cases + mutated_outputs(cases, per_case=1)
        if len(cases) < 20:
            continue
        done += 1
        n, ms = _measure(ck, te, cases, args.repeat, lim, env)
        print(f"{p.id:9} {n:5} | " + " ".join(f"{x:6.1f}" for x in ms[:6]) + " | "
              + " ".join(f"{x:6.1f}" for x in ms[6:]), flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
