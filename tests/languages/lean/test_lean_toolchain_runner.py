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

from veriscale.languages.lean.toolchain.environment import lean_environment, parse_env_dump
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
from veriscale.sandbox import isolation

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


def test_timeout_kills_the_whole_process_tree() -> None:
    # the parent starts a child that would outlive it, like lake starting lean, and one that
    # leaves its session (setsid): the timeout must end both
    script = "sleep 30 & echo child $!; setsid sleep 31 & echo child $!; echo started; wait"
    res = run_process(["sh", "-c", script], timeout=1.0)
    assert res.timed_out and res.exit_code is None
    assert "started" in res.output
    children = [int(line.split()[1]) for line in res.output.splitlines() if line.startswith("child ")]
    assert len(children) == 2
    for _ in range(50):
        if not any(_alive(c) for c in children):
            break
        time.sleep(0.05)
    assert not any(_alive(c) for c in children), "a descendant survived the timeout"


def test_candidate_sees_no_secret_and_writes_only_its_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-for-the-test")
    outside = tmp_path / "written-outside"
    script = f"env; pwd; touch {outside} 2>/dev/null; cat Given.lean"
    res = run_process(
        ["sh", "-c", script], timeout=30, files={"Given.lean": "-- given text"}, env={"LEAN_PATH": "/x"}
    )
    assert res.exit_code == 0, res.output
    assert "sk-secret-for-the-test" not in res.output and "LEAN_PATH=/x" in res.output
    assert "-- given text" in res.output
    if isolation().filesystem:
        assert not outside.exists(), "the process wrote outside its private directory"


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
    """Stand-ins for lake (answers ``lake env env -0`` with a sysroot) and that sysroot's lean
    (prints its argument and the file's first line)."""
    bindir = tmp_path / "bin"
    sysroot = tmp_path / "sysroot"
    (sysroot / "bin").mkdir(parents=True)
    bindir.mkdir()
    lean = sysroot / "bin" / "lean"
    lean.write_text(
        '#!/bin/sh\necho "lean $1 HOME=$HOME LEAN_PATH=$LEAN_PATH"\nhead -n 1 "$1"\n', encoding="utf-8"
    )
    lake = bindir / "lake"
    log = tmp_path / "lake.log"
    lake.write_text(
        f"#!/bin/sh\necho \"$@\" >> {log}\nprintf 'LEAN_SYSROOT={sysroot}\\0LEAN_PATH=/olean\\0OTHER=x\\0'\n",
        encoding="utf-8",
    )
    for exe in (lean, lake):
        exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
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
    lines = first.output.strip().splitlines()
    assert first.exit_code == 0 and not first.cached and lines[-1] == "-- hello", first.output
    # lean ran on a relative file in a private HOME, with lake's LEAN_PATH and nothing else of lake's
    word = lines[0].split()
    assert word[0] == "lean" and word[1].endswith(".lean") and "/" not in word[1]
    assert word[2] != f"HOME={Path.home()}" and word[3] == "LEAN_PATH=/olean"
    assert (tmp_path / "lake.log").read_text().split() == ["env", "env", "-0"]  # only the probe ran lake
    assert not work.exists()  # nothing kept unless asked
    second = runner("-- hello\n#eval 1\n", 30)
    assert second.cached and second.output == first.output and runner.runs == 1
    third = runner("-- other\n", 30)
    assert not third.cached and runner.runs == 2
    kept = LeanRunner(proj, work_dir=work, memory_mb=0, keep_files=True)
    kept("-- kept\n", 30)
    assert [f.read_text() for f in work.iterdir()] == ["-- kept\n"]


def test_lake_env_probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dump = b"PATH=/a:/b\0LEAN_PATH=/o\0OPENAI_API_KEY=sk\0LAKE=/l\0ELAN_TOOLCHAIN=t\0junk\0"
    got = parse_env_dump(dump)
    assert got == {"PATH": "/a:/b", "LEAN_PATH": "/o", "LAKE": "/l", "ELAN_TOOLCHAIN": "t"}
    broken = tmp_path / "bin" / "lake"
    broken.parent.mkdir()
    broken.write_text(
        "#!/bin/sh\necho 'error: lakefile.lean: unknown package' >&2\nexit 1\n", encoding="utf-8"
    )
    broken.chmod(broken.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv(ENV_LAKE, str(broken))
    proj = locate_project(_fake_project(tmp_path))
    with pytest.raises(LeanUnavailable, match="unknown package"):
        lean_environment(proj)
