"""Wall time of ``veriscale scale`` on the local executor vs a two-node Ray cluster on this machine,
and the executors' overhead per job (not a unit test: it times real runs).

    python benchmarks/bench_ray_cluster.py --tasks 40 --cpus 2

* local: ``scale --workers CPUS`` (the process pool);
* ray: a head and a worker node started as separate processes (``tests/ray_cluster_fixtures``),
  CPUS/2 CPUs each (the same total), and ``scale --ray-address``; the outputs are compared
  byte for byte with the local run's;
* overhead: ``--overhead-jobs`` jobs that do nothing (``abs`` of an int) through each executor,
  wall time divided by the number of jobs (start-up included, then excluded by a second run in
  the same ``with`` block).

The first TASKS tasks of Verina's order are used. Every figure printed is measured.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "src"), str(REPO / "tests")]

from ray_cluster_fixtures import LocalRayCluster  # noqa: E402
from veriscale.formats.verina.dataset import discover_task_dirs  # noqa: E402
from veriscale.runtime.executor import LocalExecutor, RayExecutor  # noqa: E402


def _scale(bench: Path, tasks: list[str], out: Path, extra: list[str], env: dict[str, str]) -> float:
    cmd = [sys.executable, "-m", "veriscale", "scale", "--benchmark", str(bench), "--tasks", ",".join(tasks)]
    t0 = time.perf_counter()
    res = subprocess.run([*cmd, "--out", str(out), *extra], env={**env, "PYTHONPATH": str(REPO / "src")},
                         capture_output=True, text=True)  # fmt: skip
    seconds = time.perf_counter() - t0
    if res.returncode != 0:
        raise SystemExit(f"scale failed: {res.stderr[-3000:]}")
    for line in res.stderr.splitlines():
        if line.startswith("ray: jobs per node"):
            print(f"  {line}")
    return seconds


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _overhead(ex: object, n: int) -> tuple[float, float]:
    got: dict[str, object] = {}
    jobs = [(str(i), -i) for i in range(n)]
    with ex:  # type: ignore[attr-defined]
        t0 = time.perf_counter()
        ex.run(abs, jobs, lambda k, r, e, s: got.__setitem__(k, e or r))  # type: ignore[attr-defined]
        cold = (time.perf_counter() - t0) / n
        t0 = time.perf_counter()
        ex.run(abs, jobs, lambda k, r, e, s: got.__setitem__(k, e or r))  # type: ignore[attr-defined]
        warm = (time.perf_counter() - t0) / n
    assert all(got[str(i)] == i for i in range(n))
    return cold, warm


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--benchmark", type=Path, default=REPO.parent / "shared" / "data" / "verina")
    ap.add_argument("--tasks", type=int, default=40)
    ap.add_argument("--cpus", type=int, default=2)
    ap.add_argument("--overhead-jobs", type=int, default=200)
    args = ap.parse_args()
    tasks = [d.name for d in discover_task_dirs(args.benchmark)][: args.tasks]
    per_node = max(1, args.cpus // 2)
    with tempfile.TemporaryDirectory(prefix="vs-bench-ray-") as tmp:
        root = Path(tmp)
        print(f"{len(tasks)} tasks of {args.benchmark}, {args.cpus} CPUs in total")
        local = _scale(args.benchmark, tasks, root / "local", ["--workers", str(args.cpus)], dict(os.environ))
        print(f"local executor (--workers {args.cpus}): {local:.1f} s")
        cluster = LocalRayCluster(root / "ray", head_cpus=per_node, worker_cpus=per_node)
        t0 = time.perf_counter()
        cluster.start()
        print(
            f"two-node Ray cluster ({per_node} + {per_node} CPUs) started in {time.perf_counter() - t0:.1f} s"
        )
        try:
            ray = _scale(
                args.benchmark, tasks, root / "rayrun", ["--ray-address", cluster.address], cluster.env()
            )
            print(f"ray executor (--ray-address): {ray:.1f} s ({ray / local:.2f}x local)")
            same = all(_tree(root / "local" / s) == _tree(root / "rayrun" / s) for s in ("plus", "lite"))
            print(f"plus/ and lite/ byte-identical to the local run: {same}")
            os.environ.update(cluster.env())
            rc, rw = _overhead(RayExecutor(address=cluster.address, report=False), args.overhead_jobs)
            print(
                f"ray overhead per empty job: {rc * 1000:.1f} ms (with connection), {rw * 1000:.2f} ms (connected)"
            )
        finally:
            left = cluster.stop()
            print(f"cluster stopped ({len(left)} processes left)")
        lc, lw = _overhead(LocalExecutor(workers=args.cpus), args.overhead_jobs)
        print(
            f"local overhead per empty job: {lc * 1000:.1f} ms (with pool start), {lw * 1000:.2f} ms (warm pool)"
        )


if __name__ == "__main__":
    main()
