"""The runner: bisection (with a fake attempt function), process-group kill, memory limit, cache.

None of this runs Lean. The bisection tests inject a fake *attempt* callable;
the process tests run small shell/Python commands to check that a timed-out
command's whole process group dies and that the memory limit applies; the
``LeanRunner`` test uses a stub ``lake`` script to check file handling,
command line and caching.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from veriscale.languages.lean.toolchain.project import (
    ENV_LAKE,
    ENV_PROJECT,
    LeanUnavailable,
    lean_status,
    locate_project,
)
from veriscale.languages.lean.toolchain.runner import (
    Attempt,
    Failure,
    LeanRunner,
    RunCache,
    RunResult,
    run_bisected,
    run_process,
)

# ---------------------------------------------------------------- bisection


class FakeBatches:
    """Runs a batch of ints: ``slow`` items make the batch time out (results before them in the
    batch still arrive when ``partial``), ``crash`` items crash it, ``fatal`` fails every batch."""

    def __init__(
        self, slow: Sequence[int] = (), crash: Sequence[int] = (), partial: bool = False, fatal: bool = False
    ) -> None:
        self.slow = set(slow)
        self.crash = set(crash)
        self.partial = partial
        self.fatal = fatal
        self.batches: list[list[int]] = []

    def __call__(self, items: Sequence[int]) -> Attempt[str]:
        self.batches.append(list(items))
        if self.fatal:
            return Attempt({}, "fatal", "unknown module prefix 'Mathlib'")
        results: dict[int, str] = {}
        for j, x in enumerate(items):
            if x in self.slow or x in self.crash:
                kind = "timeout" if x in self.slow else "crash"
                return Attempt(results if self.partial else {}, kind, f"stuck at {x}")
            results[j] = f"ok{x}"
        return Attempt(results)


def test_bisection_isolates_one_slow_case() -> None:
    fake = FakeBatches(slow=[5])
    out = run_bisected(list(range(16)), fake)
    assert out[5] == Failure("timeout", "stuck at 5")
    assert [o for i, o in enumerate(out) if i != 5] == [f"ok{i}" for i in range(16) if i != 5]
    # 1 full run, then halving: the half without 5 succeeds at once, the other is split again
    assert len(fake.batches) == 1 + 2 * 4
    assert [5] in fake.batches


def test_bisection_uses_partial_results() -> None:
    fake = FakeBatches(slow=[3], partial=True)
    out = run_bisected(list(range(8)), fake)
    assert out[3] == Failure("timeout", "stuck at 3")
    assert fake.batches[0] == list(range(8))
    assert fake.batches[1] == [3, 4, 5, 6, 7]  # only the cases without results are rerun
    assert all(out[i] == f"ok{i}" for i in range(8) if i != 3)


def test_bisection_two_bad_cases_and_crashes() -> None:
    fake = FakeBatches(slow=[0], crash=[9])
    out = run_bisected(list(range(10)), fake)
    assert out[0] == Failure("timeout", "stuck at 0")
    assert out[9] == Failure("crash", "stuck at 9")
    assert all(out[i] == f"ok{i}" for i in range(1, 9))


def test_fatal_failures_are_not_retried() -> None:
    fake = FakeBatches(fatal=True)
    out = run_bisected(list(range(6)), fake)
    assert len(fake.batches) == 1
    assert out == [Failure("fatal", "unknown module prefix 'Mathlib'")] * 6


def test_bisection_of_nothing() -> None:
    fake = FakeBatches()
    assert run_bisected([], fake) == []
    assert fake.batches == []


# ---------------------------------------------------------------- processes


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0); read its state
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except OSError:
        return False


def test_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    finished = tmp_path / "child.finished"
    # the parent starts a child that would outlive it, like lake starting lean; the child leaves a
    # mark if it lives to the end of its 30 s, i.e. if the run waited for it instead of killing it
    script = f"(sleep 30; touch {finished}) & echo $! > {pidfile}; echo started; wait"
    res = run_process(["sh", "-c", script], timeout=1.0)
    assert res.timed_out and res.exit_code is None
    assert not finished.exists(), "the run waited for the grandchild instead of killing it"
    assert "started" in res.output
    child = int(pidfile.read_text().strip())
    for _ in range(50):
        if not _alive(child):
            break
        time.sleep(0.05)
    assert not _alive(child), "the grandchild survived the timeout"


def test_exit_code_and_merged_streams() -> None:
    res = run_process(["sh", "-c", "echo out; echo err 1>&2; echo out2; exit 3"], timeout=10)
    assert not res.timed_out and res.exit_code == 3
    assert res.output.split() == ["out", "err", "out2"]


def test_memory_limit_applies() -> None:
    code = "x = bytearray(1024 * 1024 * 1024); print('allocated')"
    res = run_process([sys.executable, "-c", code], timeout=30, memory_bytes=256 * 1024 * 1024)
    assert res.exit_code != 0 and "allocated" not in res.output and "MemoryError" in res.output


def test_output_is_capped() -> None:
    res = run_process([sys.executable, "-c", "print('x' * 100000)"], timeout=30, max_output=1000)
    assert res.truncated and len(res.output) == 1000


def test_killed_by_signal_flag() -> None:
    assert RunResult("", -9).killed_by_signal and RunResult("", 134).killed_by_signal
    assert not RunResult("", 1).killed_by_signal and not RunResult("", None, timed_out=True).killed_by_signal


# ---------------------------------------------------------------- cache, project, runner with a stub lake


def test_run_cache_round_trip(tmp_path: Path) -> None:
    cache = RunCache(tmp_path / "c" / "runs.sqlite3")
    assert cache.get("k") is None
    cache.put("k", RunResult("out\n", 1, seconds=2.5))
    got = cache.get("k")
    assert got == RunResult("out\n", 1, False, 2.5, cached=True)
    cache.close()
    again = RunCache(tmp_path / "c" / "runs.sqlite3")  # persists across instances (and processes)
    assert again.get("k") is not None


def _fake_project(tmp_path: Path, packages: Sequence[str] = ("plausible", "mathlib")) -> Path:
    root = tmp_path / "leanproj"
    root.mkdir(parents=True)
    (root / "lakefile.lean").write_text("import Lake\nopen Lake DSL\npackage demo\n", encoding="utf-8")
    (root / "lean-toolchain").write_text("leanprover/lean4:v4.18.0\n", encoding="utf-8")
    manifest = {"version": "1.1.0", "packages": [{"name": p, "rev": "0" * 40} for p in packages]}
    (root / "lake-manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return root


def _stub_lake(tmp_path: Path) -> Path:
    """A stand-in for lake that records its arguments and prints the file's first line."""
    lake = tmp_path / "bin" / "lake"
    lake.parent.mkdir()
    log = tmp_path / "lake.log"
    lake.write_text(f'#!/bin/sh\necho "$@" >> {log}\nhead -n 1 "$3"\n', encoding="utf-8")
    lake.chmod(lake.stat().st_mode | stat.S_IEXEC)
    return lake


def test_locate_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_PROJECT, raising=False)
    monkeypatch.setenv(ENV_LAKE, str(_stub_lake(tmp_path)))
    with pytest.raises(LeanUnavailable, match=ENV_PROJECT):
        locate_project()
    root = _fake_project(tmp_path)
    monkeypatch.setenv(ENV_PROJECT, str(root))
    proj = locate_project()
    assert proj.root == root.resolve() and proj.has_plausible and proj.has_mathlib
    assert proj.toolchain == "leanprover/lean4:v4.18.0"
    assert proj.command("/x/f.lean")[1:] == ["env", "lean", "/x/f.lean"]
    assert lean_status(root)[0] is not None
    (root / "lakefile.lean").unlink()
    project, why = lean_status(root)
    assert project is None and "lakefile" in why
    monkeypatch.setenv(ENV_LAKE, str(tmp_path / "nowhere" / "lake"))
    assert "lake not found" in lean_status(_fake_project(tmp_path / "b"))[1]


def test_project_without_plausible_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_LAKE, str(_stub_lake(tmp_path)))
    root = _fake_project(tmp_path, packages=("batteries",))
    with pytest.raises(LeanUnavailable, match="Plausible"):
        locate_project(root)
    assert not locate_project(root, require_plausible=False).has_mathlib


def test_lean_runner_with_stub_lake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_LAKE, str(_stub_lake(tmp_path)))
    proj = locate_project(_fake_project(tmp_path))
    cache = RunCache(tmp_path / "cache.sqlite3")
    work = tmp_path / "work"
    runner = LeanRunner(proj, cache=cache, work_dir=work, memory_mb=0)
    first = runner("-- hello\n#eval 1\n", 30)
    assert first.output.strip() == "-- hello" and first.exit_code == 0 and not first.cached
    logged = (tmp_path / "lake.log").read_text().split()
    assert logged[:2] == ["env", "lean"] and logged[2].startswith(str(work))
    assert list(work.iterdir()) == []  # generated files are removed after the run
    second = runner("-- hello\n#eval 1\n", 30)
    assert second.cached and second.output == first.output and runner.runs == 1
    third = runner("-- other\n", 30)
    assert not third.cached and runner.runs == 2
