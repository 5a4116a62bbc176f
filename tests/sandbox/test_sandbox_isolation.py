"""The sandbox against hostile processes (shell and Python programs; no rustc needed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from shared_data import REPO_ROOT
from veriscale.sandbox import Sandbox, SandboxLimits, isolation

ISO = isolation()
needs_helper = pytest.mark.skipif(not ISO.helper, reason=f"sandbox helper unavailable: {ISO.reason}")


def _alive_with(marker: str) -> list[int]:
    """Pids of live (non-zombie) processes whose command line contains ``marker``."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            state = (d / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmd and state != "Z" and int(d.name) != os.getpid():
            out.append(int(d.name))
    return sorted(out)


def _marker() -> str:
    # an unusual sleep length identifies this test's processes
    return f"{4000 + os.getpid() % 1000}.{time.monotonic_ns() % 100000:05d}"


def test_environment_is_an_allow_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-value")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-value")
    with Sandbox(env={"EXTRA": "1"}) as sb:
        res = sb.run(["sh", "-c", "env"])
        assert res.returncode == 0, res.describe()
        env = dict(line.split("=", 1) for line in res.stdout.decode().splitlines() if "=" in line)
        assert "OPENAI_API_KEY" not in env and "AWS_SECRET_ACCESS_KEY" not in env
        assert b"secret-value" not in res.stdout
        assert env["HOME"] == env["TMPDIR"] == str(sb.path)
        assert env["EXTRA"] == "1"


def test_private_directory_is_cwd_and_removed() -> None:
    with Sandbox() as sb:
        res = sb.run(["sh", "-c", "pwd; echo hi > inside.txt; mkdir d; chmod 000 d"])
        assert res.stdout.decode().strip() == str(sb.path)
        assert (sb.path / "inside.txt").read_text() == "hi\n"
        path = sb.path
    assert not path.exists()


@needs_helper
def test_setsid_descendants_do_not_survive_exit() -> None:
    mark = _marker()
    with Sandbox() as sb:
        script = f"setsid sleep {mark} & setsid sh -c 'sleep {mark} & sleep {mark}' & sleep 0.2; exit 3"
        res = sb.run(["sh", "-c", script])
    assert res.returncode == 3
    assert _alive_with(mark) == []


@needs_helper
def test_timeout_kills_the_whole_tree() -> None:
    mark = _marker()
    with Sandbox(SandboxLimits(wall_seconds=1.0)) as sb:
        res = sb.run(["sh", "-c", f"setsid sleep {mark} & sleep {mark}"])
    assert res.timed_out and res.limit == "time"
    assert res.seconds < 8
    assert _alive_with(mark) == []


@needs_helper
def test_sigkill_of_the_caller_leaves_nothing(tmp_path: Path) -> None:
    mark = _marker()
    code = textwrap.dedent(f"""
        import sys
        from veriscale.sandbox import Sandbox, SandboxLimits
        # the caller dies by SIGKILL, so its private directory stays: keep it under tmp_path
        with Sandbox(SandboxLimits(wall_seconds=60), parent_dir={str(tmp_path)!r}) as sb:
            p = sb.spawn(["sh", "-c", "setsid sleep {mark} & echo ready; sleep {mark}"])
            sys.stdout.write(p.stdout.readline().decode()); sys.stdout.flush()
            p.wait()
    """)
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT / "src"))
    caller = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env)
    assert caller.stdout is not None
    assert caller.stdout.readline().strip() == b"ready"
    assert _alive_with(mark)  # the tree is running
    caller.send_signal(signal.SIGKILL)
    caller.wait()
    for _ in range(100):  # the helper gets SIGTERM from the kernel and kills the tree
        if not _alive_with(mark):
            break
        time.sleep(0.05)
    assert _alive_with(mark) == []


def test_output_is_capped() -> None:
    with Sandbox(SandboxLimits(output_bytes=100_000)) as sb:
        res = sb.run(["sh", "-c", "yes"])
    assert res.limit == "output" and res.stdout_truncated
    assert len(res.stdout) == 100_000


def test_file_size_limit() -> None:
    with Sandbox(SandboxLimits(file_bytes=1 << 20)) as sb:
        res = sb.run(["sh", "-c", "head -c 5000000 /dev/zero > big"])
        assert not res.ok
        assert (sb.path / "big").stat().st_size <= 1 << 20
    assert res.limit == "file_size" or res.returncode != 0


def test_cpu_limit() -> None:
    with Sandbox(SandboxLimits(wall_seconds=20, cpu_seconds=1)) as sb:
        res = sb.run(["sh", "-c", "while :; do :; done"])
    assert res.limit == "cpu", res.describe()


@needs_helper
@pytest.mark.skipif(
    os.geteuid() == 0 and ISO.drop_uid is None, reason="root without uid drop: no process limit"
)
def test_fork_bomb_is_bounded_and_cleaned_up() -> None:
    mark = _marker()
    with Sandbox(SandboxLimits(wall_seconds=2.0, processes=16)) as sb:
        res = sb.run(["sh", "-c", f"f() {{ sleep {mark} & f & }}; f; wait"])
    assert not res.ok
    assert _alive_with(mark) == []


@pytest.mark.skipif(not ISO.filesystem, reason=f"no private mount namespace here: {ISO.reason}")
def test_cannot_write_outside_its_directory() -> None:
    target = Path("/tmp") / f"vs_sandbox_escape_{os.getpid()}"
    shm = Path("/dev/shm") / f"vs_sandbox_escape_{os.getpid()}"
    with Sandbox() as sb:
        res = sb.run(
            [
                "sh",
                "-c",
                f"touch {target}; touch {shm}; touch {Path.cwd()}/escape_{os.getpid()}; echo ok > mine",
            ],
            limits=SandboxLimits(wall_seconds=120),  # the default 10 s is tight on a loaded machine
        )
        assert (sb.path / "mine").read_text() == "ok\n"
    assert b"Read-only file system" in res.stderr, res.describe() + res.stderr.decode("utf-8", "replace")
    assert not target.exists() and not shm.exists() and not (Path.cwd() / f"escape_{os.getpid()}").exists()


@pytest.mark.skipif(not ISO.network, reason=f"no private network namespace here: {ISO.reason}")
def test_no_network_interface_but_loopback() -> None:
    with Sandbox() as sb:
        res = sb.run(["cat", "/proc/net/dev"])
    names = sorted(line.split(":")[0].strip() for line in res.stdout.decode().splitlines() if ":" in line)
    assert names == ["lo"]


def test_missing_program_is_a_clean_failure() -> None:
    with Sandbox() as sb:
        res = sb.run(["/nonexistent/program"])
    assert not res.ok and res.returncode == 127
    assert b"cannot run" in res.stderr or res.setup_error
