"""A SIGKILL of a veriscale command leaves no process behind: pool workers die with their parent.

The commands run their workers through the one process pool (``runtime.executor``);
each worker arms a parent-death signal and watches its parent pid (``runtime.worker``).
These tests start a real command, wait until its workers run, ``kill -9`` the command,
and check through ``/proc`` that every process it had started is gone.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shared_data import REPO_ROOT
from veriscale.runtime.executor import LocalExecutor
from veriscale.runtime.worker import set_parent_death_signal

REPO = REPO_ROOT
SHARED = REPO.parent / "shared" / "data"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a live process, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()  # the command name may hold spaces and parentheses
    return int(fields[1]), fields[0], int(fields[19])


def _descendants(root: int) -> dict[int, int]:
    """pid → start time of every live descendant of ``root``."""
    children: dict[int, list[int]] = {}
    starts: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (st := _stat(int(entry.name))) is not None:
            children.setdefault(st[0], []).append(int(entry.name))
            starts[int(entry.name)] = st[2]
    out: dict[int, int] = {}
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        if pid not in out and pid in starts:
            out[pid] = starts[pid]
            todo += children.get(pid, [])
    return out


def _alive(pid: int, start: int) -> bool:
    st = _stat(pid)
    return st is not None and st[2] == start and st[1] != "Z"  # a zombie has finished


def _kill_and_check(cmd: list[str], cwd: Path, min_workers: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    seen: dict[int, int] = {}
    try:
        # Wait for the pool: worker processes are the command's python children.
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            seen = _descendants(proc.pid)
            if len(seen) >= min_workers:
                break
            time.sleep(0.2)
        assert proc.poll() is None, f"the command ended before its workers were seen: {proc.stderr.read()!r}"
        assert len(seen) >= min_workers, f"only {len(seen)} worker processes appeared"
        time.sleep(1.0)  # let the workers take jobs
        seen = _descendants(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait() == -signal.SIGKILL  # killed mid-run, not finished
        deadline = time.monotonic() + 30
        left = seen
        while left and time.monotonic() < deadline:
            time.sleep(0.2)
            left = {p: s for p, s in left.items() if _alive(p, s)}
        assert not left, f"processes outlived the killed command: {sorted(left)}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid, start in seen.items():  # never leave a survivor behind, even when failing
            if _alive(pid, start):
                os.kill(pid, signal.SIGKILL)
        if proc.stderr is not None:
            proc.stderr.close()


def test_kill_9_of_scale_leaves_no_worker(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "veriscale", "scale", "--example", "--out", str(tmp_path / "run")]
    _kill_and_check([*cmd, "--workers", "2"], tmp_path, min_workers=2)
    # the run was interrupted, not completed
    assert not (tmp_path / "run" / "stats.json").exists()


@pytest.mark.skipif(not (SHARED / "verinaplus").is_dir(), reason="../shared/data/verinaplus is absent")
def test_kill_9_of_check_leaves_no_worker(tmp_path: Path) -> None:
    # VerinaPlus, not Verina: the Verina check now ends within a second of its workers starting,
    # before the kill (about 50 s on 2 cores for VerinaPlus)
    cmd = [sys.executable, "-m", "veriscale", "check", str(SHARED / "verinaplus"), "--json", "-j", "2"]
    _kill_and_check(cmd, tmp_path, min_workers=2)


@pytest.mark.skipif(not (SHARED / "verinaplus").is_dir(), reason="../shared/data/verinaplus is absent")
def test_kill_9_of_evaluate_leaves_no_worker(tmp_path: Path) -> None:
    from veriscale.evaluate.generations import ground_truth_generation, write_generations
    from veriscale.formats.verina.dataset import read_dataset

    gens = tmp_path / "gt.jsonl"
    write_generations([ground_truth_generation(t) for t in read_dataset(SHARED / "verina")], gens)
    cmd = [sys.executable, "-m", "veriscale", "evaluate", "-g", str(gens), "-s", str(SHARED / "verinaplus")]
    _kill_and_check([*cmd, "-o", str(tmp_path / "out"), "--no-chart", "-j", "2"], tmp_path, min_workers=2)
    assert not (tmp_path / "out" / "results.jsonl").exists()


def test_parent_death_signal_is_available_on_linux() -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("PR_SET_PDEATHSIG is Linux only")
    # Armed in a child, so that this test process keeps its own settings.
    code = (
        "from veriscale.runtime.worker import set_parent_death_signal as s; raise SystemExit(0 if s() else 1)"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    assert subprocess.run([sys.executable, "-c", code], env=env).returncode == 0
    assert not set_parent_death_signal.__module__.startswith("multiprocessing")


def _workers() -> set[int]:
    """This process's live pool workers (spawned children; the resource tracker is not one)."""
    out = set()
    for pid, start in _descendants(os.getpid()).items():
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline and _alive(pid, start):
            out.add(pid)
    return out


def test_executor_workers_are_gone_after_a_run() -> None:
    got: dict[str, object] = {}
    seen: list[set[int]] = []
    ex = LocalExecutor(workers=2)
    with ex:
        ex.warm(abs)
        seen.append(_workers())
        ex.run(abs, [("a", -1), ("b", -2)], lambda k, r, e, s: got.__setitem__(k, e or r))
        assert _workers() == seen[0]  # the same workers serve every run inside ``with``
    assert got == {"a": 1, "b": 2}
    assert len(seen[0]) == 2
    assert not _workers() & seen[0]
