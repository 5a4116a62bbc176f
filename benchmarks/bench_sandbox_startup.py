"""CPU cost of starting one sandboxed process: ``/bin/true`` through the sandbox vs a plain subprocess.

    PYTHONPATH=src python benchmarks/bench_sandbox_startup.py [-n 300] [--breakdown] [--json out.json]

Every run is timed in CPU, not wall clock (a shared machine's load distorts
CPU far less): the children's user + sys time (``RUSAGE_CHILDREN``: the
helper and the target it waited for, counted once the helper is waited for)
and, apart, this process's own CPU for the same run (``Popen``, pipes, the
private directory). Modes, interleaved run by run so load changes hit all
alike:

* ``plain``: ``subprocess.run(["/bin/true"])``;
* ``sandbox``: ``Sandbox.spawn(["/bin/true"])`` + wait in one ``Sandbox``
  (the helper with the argv veriscale gives it: limits, uid drop when root,
  network and mount namespaces where the machine gives them);
* ``sandbox+dir``: ``with Sandbox() as sb: sb.run(["/bin/true"])`` (a fresh
  private directory per run, as ``execute.run_program`` does);
* ``served``: ``/bin/true`` started through this process's sandbox server
  (``sandbox.server``: helper, namespaces and private directory set up once;
  per run a per-target init, the same limits and uid drop) + wait. Its
  "children" CPU is what ``RUSAGE_CHILDREN`` never sees: the CPU the server
  reports for the target's tree (init + target, ``wait4``) plus the server
  helper's own CPU over the run (``schedstat``: the fork it does). The server's
  one-time start-up is made before timing and printed apart. Skipped (with
  the reason) where the server cannot run.

``--breakdown`` adds the helper run by hand with one option group at a time
(``-p`` process limit, ``-N`` network namespace, ``-W`` read-only view, uid
drop) on top of the bare helper, to show where its start-up goes.

Printed: min and median CPU ms per mode (children; and children + this
process), and the sandbox/plain ratio of the medians. The helper binary is
built (or found in its cache, keyed by the hash of its source) before timing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from veriscale.sandbox import Sandbox, SandboxLimits, isolation
from veriscale.sandbox.helper import helper_path
from veriscale.sandbox.server import get_server, unavailable_reason


def _children_cpu() -> float:
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return c.ru_utime + c.ru_stime


def _timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(children CPU s, own CPU s) of one call; a ``fn`` that returns a float gives the CPU of descendants
    that ``RUSAGE_CHILDREN`` does not hold (served targets and the server), added to the children's."""
    c0, s0 = _children_cpu(), time.process_time()
    extra = fn()
    return _children_cpu() - c0 + (extra if isinstance(extra, float) else 0.0), time.process_time() - s0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=300, help="runs per mode")
    ap.add_argument("--breakdown", action="store_true", help="also the helper by hand with option subsets")
    ap.add_argument("--json")
    args = ap.parse_args()
    exe = helper_path()
    iso = isolation()
    print(f"helper: {exe}; isolation: {iso}")
    print(f"processes on the machine: {sum(1 for d in os.listdir('/proc') if d.isdigit())}; "
          f"load average {os.getloadavg()[0]:.2f}")  # fmt: skip
    lim = SandboxLimits(wall_seconds=10)
    keep = Sandbox(lim)

    def plain() -> None:
        subprocess.run(["/bin/true"], check=True)

    def spawn() -> None:
        p = keep.spawn(["/bin/true"], stdin=None, stdout=None, stderr=None)
        if p.wait() != 0:
            raise SystemExit(f"sandboxed /bin/true failed: {p.status()}")

    def with_dir() -> None:
        with Sandbox(lim) as sb:
            res = sb.run(["/bin/true"])
            if not res.ok:
                raise SystemExit(f"sandboxed /bin/true failed: {res.describe()}")

    modes: dict[str, Callable[[], object]] = {"plain": plain, "sandbox": spawn, "sandbox+dir": with_dir}
    server = get_server()
    if server is None:
        print(f"served: not measured ({unavailable_reason()})")
    else:
        print(f"server start-up (once per process, not in the table): helper {1000 * server.start_cpu:.2f} ms CPU"
              f" + this process {1000 * server.start_own_cpu:.2f} ms")  # fmt: skip
        true = Path("/bin/true")

        def served() -> float:
            h0 = server.helper_cpu()
            p = server.spawn(true, limits=lim, stderr=None)
            if p.wait() != 0:
                raise SystemExit(f"served /bin/true failed: {p.status()}")
            p.finish()
            return p.cpu + server.helper_cpu() - h0

        modes["served"] = served
    work = tempfile.mkdtemp(prefix="vs-startup-")  # the helper's private directory for --breakdown
    try:
        return _run(args, modes, exe, iso, keep, lim, work)
    finally:
        keep.close()
        shutil.rmtree(work, ignore_errors=True)


def _run(args: argparse.Namespace, modes: dict[str, Callable[[], object]], exe: Path | None, iso: object,
         keep: Sandbox, lim: SandboxLimits, work: str) -> int:  # fmt: skip
    if args.breakdown and exe is not None:
        drop = getattr(iso, "drop_uid", None)
        uid = [] if drop is None else ["-u", str(drop), "-g", str(drop)]
        subsets = {
            "helper bare": [],
            "helper -p 64": ["-p", "64", *uid],
            "helper uid": uid,
            "helper -N": ["-N"],
            "helper -W": ["-W", work],
            "helper full": keep._helper_argv(lim)[1:-1],
        }
        for name, opts in subsets.items():
            argv = [str(exe), *opts, "--", "/bin/true"]
            modes[name] = lambda argv=argv: subprocess.run(argv, check=True, cwd=work)  # type: ignore[misc]
    for fn in modes.values():  # warm-up: helper build, imports, page cache
        fn()
    child: dict[str, list[float]] = {m: [] for m in modes}
    total: dict[str, list[float]] = {m: [] for m in modes}
    for _ in range(args.n):
        for m, fn in modes.items():
            c, s = _timed(fn)
            child[m].append(1000 * c)
            total[m].append(1000 * (c + s))
    report: dict[str, object] = {"runs": args.n, "helper": str(exe), "modes": {}}
    base = statistics.median(child["plain"])
    base_total = statistics.median(total["plain"])
    print(
        f"{'mode':16} {'child CPU ms min/median':>24} {'+ own CPU ms min/median':>24}  ratio to plain (median)"
    )
    for m in modes:
        cm, tm = statistics.median(child[m]), statistics.median(total[m])
        report["modes"][m] = {  # type: ignore[index]
            "child_ms_min": round(min(child[m]), 3), "child_ms_median": round(cm, 3),
            "total_ms_min": round(min(total[m]), 3), "total_ms_median": round(tm, 3),
        }  # fmt: skip
        print(f"{m:16} {min(child[m]):11.2f} / {cm:8.2f} {min(total[m]):13.2f} / {tm:8.2f}"
              f"  x{cm / base if base else float('nan'):.1f} (with own CPU x{tm / base_total:.1f})")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
