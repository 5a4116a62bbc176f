"""Where `veriscale check` spends its time on VeriContest: per problem and per stage.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_vericontest_check.py [--data DIR] [-j 2]
        [--only lc3007 ...] [--top 25] [--json out.json]

Runs exactly the per-problem job of ``veriscale check`` (``_check_path``), with
each stage timed inside the worker (wall seconds): ``checker_build`` (translate
and compile a Post2Exe checker, or find it cached), ``checker_run`` (the
checker processes), ``python_spec`` (the Python evaluator: the fallback on
compiled UNKNOWNs, or everything without a checker), ``reference`` (the
reference program's harness build and runs). It prints the totals, the
problems with the largest total and, per stage, the largest items. Wall
figures move with machine load; compare runs on the same machine, and use
``/usr/bin/time`` on the whole command for CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

_TIMES: dict[str, float] = defaultdict(float)
_PATCHED = False


def _timed(fn: Callable[..., Any], stage: str) -> Callable[..., Any]:
    def wrapper(*a: Any, **k: Any) -> Any:
        t = time.perf_counter()
        try:
            return fn(*a, **k)
        finally:
            _TIMES[stage] += time.perf_counter() - t

    return wrapper


def _patch() -> None:
    """Wrap the stage entry points once per worker process (stages do not nest, except that
    ``checker_build`` happens inside the first ``compiled()`` call, which is not itself timed)."""
    global _PATCHED
    if _PATCHED:
        return
    _PATCHED = True
    from veriscale.languages.verus import engine as eng
    from veriscale.languages.verus import reference as ref
    from veriscale.languages.verus.post2exe import checker as ck

    ck.CompiledChecker.check = _timed(ck.CompiledChecker.check, "checker_run")  # type: ignore[method-assign]
    eng.VeriContestTaskEngine.compiled = _timed(eng.VeriContestTaskEngine.compiled, "checker_build")  # type: ignore[method-assign]
    eng.VeriContestTaskEngine._python_pre = _timed(eng.VeriContestTaskEngine._python_pre, "python_spec")  # type: ignore[method-assign]
    eng.VeriContestTaskEngine._python_post = _timed(eng.VeriContestTaskEngine._python_post, "python_spec")  # type: ignore[method-assign]
    for name in ("harness", "run_inputs", "run_stdin"):
        setattr(ref.ProblemRunner, name, _timed(getattr(ref.ProblemRunner, name), "reference"))


def timed_check(args: tuple[Any, ...]) -> tuple[Any, dict[str, float]]:
    """``_check_path`` with per-stage seconds (runs in a pool worker)."""
    from veriscale.evaluate.checks.vericontest import _check_path

    _patch()
    _TIMES.clear()
    t = time.perf_counter()
    pc = _check_path(args)  # type: ignore[arg-type]
    times = dict(_TIMES)
    times["total"] = time.perf_counter() - t
    return pc, times


def main() -> None:
    import bench_vericontest_check as me  # importable by name, so spawned workers find timed_check

    from veriscale.formats.vericontest.dataset import discover_problems
    from veriscale.runtime.executor import pool_executor

    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data" / "vericontest"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--json")
    args = ap.parse_args()
    dirs = discover_problems(args.data)
    if args.only:
        dirs = [d for d in dirs if d.name in set(args.only)]
    # the arguments `veriscale check` passes by default (case 10 s, 2048 MB, spec 10 s, default cache)
    work = [(d.name, (str(d), 10.0, 2048, 10.0, None)) for d in dirs]
    per: dict[str, dict[str, float]] = {}
    t0 = time.perf_counter()

    checks: dict[str, Any] = {}

    def on_done(key: str, result: Any, error: str | None, _seconds: float) -> None:
        per[key] = result[1] if result is not None else {"total": _seconds, "error": 1.0}
        if result is not None:
            checks[key] = result[0]

    pool_executor(args.jobs).run(me.timed_check, work, on_done)
    wall = time.perf_counter() - t0
    stages = ("checker_build", "checker_run", "python_spec", "reference", "total")
    print(f"problems: {len(per)}; wall {wall:.1f} s with {args.jobs} workers")
    from veriscale.evaluate.checks.vericontest import summarize

    s = summarize([checks[k] for k, _ in work if k in checks])
    print(
        "summary (as `veriscale check`): "
        + json.dumps({k: s[k] for k in ("postconditions_decided", "postconditions_with_cases") if k in s})
    )
    for k in ("ensures", "requires"):
        if k in s:
            print(f"  {k}: {json.dumps(s[k])}")
    for s in stages:
        print(f"  {s:14} {sum(t.get(s, 0.0) for t in per.values()):9.1f} s (sum over problems)")
    print(f"largest {args.top} problems by total:")
    for pid, t in sorted(per.items(), key=lambda kv: (-kv[1].get("total", 0.0), kv[0]))[: args.top]:
        print(f"  {pid:10} " + "  ".join(f"{s} {t.get(s, 0.0):7.2f}" for s in stages))
    for s in stages[:-1]:
        top = sorted(per.items(), key=lambda kv: (-kv[1].get(s, 0.0), kv[0]))[:8]
        print(f"largest {s}: " + ", ".join(f"{pid} {t.get(s, 0.0):.1f}" for pid, t in top))
    if args.json:
        Path(args.json).write_text(
            json.dumps({"wall": wall, "problems": per, "summary": s}, indent=1, default=str), encoding="utf-8"
        )


if __name__ == "__main__":
    main()
