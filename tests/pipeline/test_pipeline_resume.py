"""Runs in subprocesses: byte-identical outputs across PYTHONHASHSEED, and resume after a kill."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from shared_data import data_path, needs
from veriscale.pipeline.config import PipelineConfig
from veriscale.pipeline.inputs.stage import STAGE, run_inputs_stage
from veriscale.pipeline.rundir import RunDir
from veriscale.runtime.executor import SerialExecutor

DATA = data_path("verina")
pytestmark = needs("verina")

CLI = "from veriscale.cli.app import main; main()"

# A driver that slows every task down, so a kill lands in the middle of the run.
SLOW_DRIVER = """
import sys, time
from pathlib import Path
import veriscale.pipeline.inputs.stage as stage
from veriscale.pipeline.config import PipelineConfig
from veriscale.runtime.executor import SerialExecutor
from veriscale.pipeline.rundir import RunDir

bench, run, delay, tasks = Path(sys.argv[1]), Path(sys.argv[2]), float(sys.argv[3]), sys.argv[4].split(",")
real_job = stage.run_inputs_job

def slow_job(job):
    time.sleep(delay)
    return real_job(job)

stage.run_inputs_job = slow_job
with RunDir.open(run, PipelineConfig()) as rd:
    stage.run_inputs_stage(bench, rd, SerialExecutor(), tasks=tasks)
"""

RESUME_TASKS = [f"verina_basic_{i}" for i in range(1, 13)]
HASH_TASKS = [
    "verina_basic_16",
    "verina_basic_64",
    "verina_basic_70",
    "verina_basic_104",
    "verina_advanced_13",
    "verina_advanced_26",
]


def _env(hashseed: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERISCALE_")}
    env.update(PYTHONHASHSEED=hashseed, VERISCALE_MODEL="", COLUMNS="120")
    return env


def test_outputs_do_not_depend_on_pythonhashseed(tmp_path: Path) -> None:
    procs = []
    for hs in ("0", "987654"):  # both runs at once: each uses a local pool of two spawned workers
        cmd = [
            sys.executable,
            "-c",
            CLI,
            "expand",
            "inputs",
            "--benchmark",
            str(DATA),
            "--run",
            str(tmp_path / f"hs{hs}"),
            "--tasks",
            ",".join(HASH_TASKS),
            "--workers",
            "2",
        ]
        procs.append(
            subprocess.Popen(cmd, env=_env(hs), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        )
    for p in procs:
        _out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    a, b = tmp_path / "hs0", tmp_path / "hs987654"
    names = sorted(p.name for p in (a / STAGE).iterdir())
    assert names == sorted(f"{t}.json" for t in HASH_TASKS)
    for n in names:
        assert (a / STAGE / n).read_bytes() == (b / STAGE / n).read_bytes(), n
    assert (a / "config.json").read_bytes() == (b / "config.json").read_bytes()


def _ledger(run: Path) -> dict[str, tuple[str, int, float | None]]:
    path = run / "ledger.sqlite"
    if not path.exists():
        return {}
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        rows = conn.execute(
            "SELECT task, status, attempts, finished FROM status WHERE stage = ?", (STAGE,)
        ).fetchall()
        conn.close()
    except sqlite3.OperationalError:  # the schema is not there yet
        return {}
    return {t: (s, a, f) for t, s, a, f in rows}


def test_resume_after_kill_recomputes_only_unfinished_tasks(tmp_path: Path) -> None:
    run = tmp_path / "run"
    driver = tmp_path / "driver.py"
    driver.write_text(SLOW_DRIVER)
    proc = subprocess.Popen(
        [sys.executable, str(driver), str(DATA), str(run), "0.4", ",".join(RESUME_TASKS)],
        env=_env("1"),
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            done = {t for t, (s, _a, _f) in _ledger(run).items() if s == "done"}
            if len(done) >= 3 or proc.poll() is not None:
                break
            time.sleep(0.05)
        snapshot = _ledger(run)
        mtimes = {
            t: (run / STAGE / f"{t}.json").stat().st_mtime_ns
            for t, (s, _a, _f) in snapshot.items()
            if s == "done"
        }
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the driver's own process group (start_new_session)
        proc.wait(timeout=30)
    finished_before = set(mtimes)
    assert 3 <= len(finished_before) < len(RESUME_TASKS), "the kill did not land mid-run"

    # rerun (no slow-down): only the unfinished tasks are computed
    with RunDir.open(run, PipelineConfig()) as rd:
        rep = run_inputs_stage(DATA, rd, SerialExecutor(), tasks=RESUME_TASKS)
    assert set(rep.resumed) >= finished_before
    assert not set(rep.computed) & finished_before
    assert set(rep.computed) | set(rep.resumed) == set(RESUME_TASKS) and rep.ok
    after = _ledger(run)
    for t in finished_before:
        assert after[t] == snapshot[t]  # same status, attempts and finish time: not recomputed
        assert (run / STAGE / f"{t}.json").stat().st_mtime_ns == mtimes[t]
    assert all(s == "done" for s, _a, _f in after.values())
    # every task computed now had been scheduled (marked running) before the kill: its second attempt
    assert rep.computed and all(after[t][1] == 2 for t in rep.computed)

    # the result equals an uninterrupted run, byte for byte
    with RunDir.open(tmp_path / "clean", PipelineConfig()) as rd:
        run_inputs_stage(DATA, rd, SerialExecutor(), tasks=RESUME_TASKS)
    for t in RESUME_TASKS:
        assert (run / STAGE / f"{t}.json").read_bytes() == (
            tmp_path / "clean" / STAGE / f"{t}.json"
        ).read_bytes()
