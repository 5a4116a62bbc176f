"""veriscale on a real two-node Ray cluster (head and worker node as separate processes).

``scale`` on a Verina subset, ``evaluate`` of the ground truth on Verina and
VerinaPlus and ``check`` of VeriContest problems run through ``--ray-address``; their outputs must equal the local
executor's, both nodes must have run jobs, and a run whose worker node is killed
while it runs a job must still complete with every result. The cluster is
stopped at the end and no process of it may remain.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from shared_data import REPO_ROOT
from veriscale.runtime.executor import RayExecutor

REPO = REPO_ROOT
SHARED = REPO.parent / "shared" / "data"
TASKS = [
    "verina_basic_1",
    "verina_basic_16",
    "verina_basic_104",
    "verina_advanced_13",
    "verina_basic_29",
    "verina_advanced_1",
]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not RayExecutor.available(), reason="ray is not installed (pip install 'veriscale[ray]')"
    ),
    pytest.mark.skipif(not (SHARED / "verina").is_dir(), reason="../shared/data/verina is absent"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from ray_cluster_fixtures import LocalRayCluster

    c = LocalRayCluster(Path(tmp_path_factory.mktemp("ray")), head_cpus=1, worker_cpus=1)
    try:
        c.start()
        yield c
    finally:
        left = c.stop()
        assert not left, f"Ray processes survived the cluster's stop: {left}"


def _veriscale(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**(env or os.environ), "PYTHONPATH": str(REPO / "src")}
    return subprocess.run(
        [sys.executable, "-m", "veriscale", *args], env=env, capture_output=True, text=True, timeout=1800
    )


def _jobs_per_node(stderr: str) -> dict[str, int]:
    """The executor's report line: ``ray: jobs per node: 6 host:port, 2 host:port``."""
    m = re.findall(r"^ray: jobs per node: (.*)$", stderr, re.M)
    assert m, f"no per-node report in: {stderr[-2000:]}"
    return {label: int(n) for n, label in (part.split(" ", 1) for part in m[-1].split(", "))}


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _scale_args(out: Path) -> list[str]:
    return ["scale", "--benchmark", str(SHARED / "verina"), "--tasks", ",".join(TASKS), "--out", str(out)]


@pytest.fixture(scope="module")
def local_scale(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("local") / "run"
    res = _veriscale([*_scale_args(out), "--workers", "2"])
    assert res.returncode == 0, res.stderr[-3000:]
    return out


def _assert_same_suites(a: Path, b: Path) -> None:
    for sub in ("plus", "lite"):
        ta, tb = _tree(a / sub), _tree(b / sub)
        assert ta and sorted(ta) == sorted(tb), sub
        assert ta == tb, f"{sub}/ differs: {[k for k in ta if ta[k] != tb.get(k)]}"


def test_scale_on_two_nodes_matches_local(cluster, local_scale: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    res = _veriscale([*_scale_args(tmp_path / "run"), "--ray-address", cluster.address], cluster.env())
    assert res.returncode == 0, res.stderr[-3000:]
    _assert_same_suites(local_scale, tmp_path / "run")
    per_node = _jobs_per_node(res.stderr)
    print("scale jobs per node:", per_node)
    assert sum(per_node.values()) == 2 * len(TASKS)  # the inputs and outputs stages: a job per task each
    assert per_node.get(cluster.labels["head"], 0) > 0 and per_node.get(cluster.labels["worker"], 0) > 0


def _ground_truth(path: Path) -> None:
    from veriscale.evaluate.generations import ground_truth_generation, write_generations
    from veriscale.formats.verina.dataset import read_task

    write_generations([ground_truth_generation(read_task(SHARED / "verina" / t)) for t in TASKS], path)


def _results(path: Path) -> list[dict[str, object]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        row.pop("seconds")  # timings aside
        rows.append(row)
    return rows


@pytest.mark.skipif(not (SHARED / "verinaplus").is_dir(), reason="../shared/data/verinaplus is absent")
def test_evaluate_on_two_nodes_matches_local(cluster, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    gens = tmp_path / "gt.jsonl"
    _ground_truth(gens)
    common = ["evaluate", "-g", str(gens), "-s", str(SHARED / "verina"), "-s", str(SHARED / "verinaplus")]
    local = _veriscale([*common, "-o", str(tmp_path / "local"), "--no-chart", "-j", "2"])
    assert local.returncode == 0, local.stderr[-3000:]
    ray = _veriscale(
        [*common, "-o", str(tmp_path / "ray"), "--no-chart", "--ray-address", cluster.address], cluster.env()
    )
    assert ray.returncode == 0, ray.stderr[-3000:]
    a, b = _results(tmp_path / "local" / "results.jsonl"), _results(tmp_path / "ray" / "results.jsonl")
    assert len(a) == 2 * len(TASKS) and a == b
    per_node = _jobs_per_node(ray.stderr)
    print("evaluate jobs per node:", per_node)
    assert per_node.get(cluster.labels["head"], 0) > 0 and per_node.get(cluster.labels["worker"], 0) > 0


@pytest.mark.skipif(not (SHARED / "vericontest" / "leetcode").is_dir(), reason="VeriContest data absent")
def test_check_vericontest_on_two_nodes_matches_local(cluster, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = SHARED / "vericontest" / "leetcode"
    problems = sorted(d.name for d in root.iterdir() if d.is_dir() and d.name.startswith("lc"))[:4]
    args = ["check", str(root), "--json", *[a for p in problems for a in ("--task", p)]]
    local = _veriscale([*args, "-j", "2"])
    assert local.returncode == 0, local.stderr[-3000:]
    ray = _veriscale([*args, "--ray-address", cluster.address], cluster.env())
    assert ray.returncode == 0, ray.stderr[-3000:]
    assert json.loads(ray.stdout) == json.loads(local.stdout)
    assert local.stdout == ray.stdout
    per_node = _jobs_per_node(ray.stderr)
    print("check jobs per node:", per_node)
    assert sum(per_node.values()) == len(problems)


def test_killed_worker_node_loses_no_result(cluster, local_scale: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Last in this module: it takes the worker node down."""
    out = tmp_path / "run"
    env = {**cluster.env(), "PYTHONPATH": str(REPO / "src")}
    cmd = [sys.executable, "-m", "veriscale", *_scale_args(out), "--ray-address", cluster.address]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 600
        while proc.poll() is None and not cluster.worker.running_job() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before the worker node took a job"
        assert cluster.worker.running_job(), "the worker node never ran a job"
        cluster.worker.kill()  # the machine goes away, with the job it was running
        _, stderr = proc.communicate(timeout=1800)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, stderr[-3000:]
    _assert_same_suites(local_scale, out)
    per_node = _jobs_per_node(stderr)
    print("jobs per node with the worker node killed:", per_node)
    assert sum(per_node.values()) == 2 * len(TASKS)
    assert per_node.get(cluster.labels["head"], 0) > 0
