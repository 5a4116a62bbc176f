"""The process limit (``SandboxLimits.processes``) gives the target's tree exactly that many tasks.

The helper sets RLIMIT_NPROC to the limit plus the tasks the target's uid already has in the scope
the kernel counts (the host's uid when veriscale is root and drops to another uid; the new user
namespace when it is not root and the kernel counts per namespace, Linux >= 5.14). A Python target
forks children that stay alive until it has tried ``3 * limit`` forks and prints how many succeeded:
the target plus its children must be exactly the limit, also while other processes of the same uid
run beside it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from veriscale.sandbox import Sandbox, SandboxLimits, isolation
from veriscale.sandbox.helper import helper_path

ISO = isolation()
LIMIT = 6
FORKER = f"""
import os, time
n = 0
for _ in range({3 * LIMIT}):
    try:
        pid = os.fork()
    except OSError:
        continue
    if pid == 0:
        time.sleep(60)
        os._exit(0)
    n += 1
print(n, flush=True)
os._exit(0)
"""


def _python() -> str | None:
    """A Python interpreter any uid may run (veriscale's own may live under a private home)."""
    for path in ("/usr/bin/python3", "/usr/local/bin/python3", shutil.which("python3") or ""):
        if path and os.access(path, os.X_OK) and os.stat(path).st_mode & 0o001:
            return path
    return None


def _scope_is_exact() -> str:
    """Why the count cannot be asserted exactly here ("" when it can)."""
    if not ISO.helper:
        return f"sandbox helper unavailable: {ISO.reason}"
    if os.geteuid() == 0:
        return "" if ISO.drop_uid is not None else "root without uid drop: no process limit"
    if not (ISO.network or ISO.filesystem):
        # the count is then over every process of this user, which other programs change at any time
        return "not root and no user namespace: the user's other processes change the count"
    return ""


def _sandbox(lim: SandboxLimits) -> Sandbox:
    sb = Sandbox(lim)
    if sb.uid is not None:
        # a uid no other process uses: sandboxes of other test runs on this machine (the default uid)
        # cannot change the count between the helper's count and the target's forks
        sb.uid = 40000 + os.getpid() % 20000
        os.chown(sb.path, sb.uid, sb.uid)
    return sb


pytestmark = pytest.mark.skipif(bool(_scope_is_exact()), reason=_scope_is_exact() or "-")


def _forks(sb: Sandbox, python: str) -> int:
    res = sb.run([python, "-I", "-S", "-c", FORKER], limits=SandboxLimits(wall_seconds=60, processes=LIMIT))
    assert res.returncode == 0, res.describe() + res.stderr.decode("utf-8", "replace")
    return int(res.stdout.decode().split()[0])


def test_the_target_tree_gets_exactly_the_limit() -> None:
    python = _python()
    if python is None:
        pytest.skip("no Python interpreter every uid may run")
    with _sandbox(SandboxLimits()) as sb:
        assert _forks(sb, python) == LIMIT - 1


def test_the_limit_is_on_top_of_the_uids_other_processes() -> None:
    python = _python()
    if python is None:
        pytest.skip("no Python interpreter every uid may run")
    with _sandbox(SandboxLimits(wall_seconds=60)) as sb:
        # the same uid already runs four processes (a shell and three sleeps) in another sandbox
        other = sb.spawn(["sh", "-c", "sleep 60 & sleep 60 & sleep 60 & echo up; wait"],
                         stdin=subprocess.DEVNULL)  # fmt: skip
        try:
            assert other.stdout is not None and other.stdout.readline().strip() == b"up"
            assert _forks(sb, python) == LIMIT - 1
        finally:
            other.finish()


@pytest.mark.skipif(os.geteuid() != 0, reason="simulates a non-root veriscale: needs root to switch uid")
def test_a_non_root_caller_in_a_user_namespace_gets_the_limit() -> None:
    """veriscale run by a user: the helper creates a user namespace (``-N``), where the target's tasks are
    counted apart from the user's other processes (Linux >= 5.14); the helper used to add every task
    of the machine (all read as the overflow uid inside the namespace): no limit at all."""
    python = _python()
    exe = helper_path()
    if python is None or exe is None:
        pytest.skip("no Python interpreter every uid may run, or no sandbox helper")
    uid = 40000 + os.getpid() % 20000
    # a directory (and a copy of the helper) the user can reach: the helper's cache may be under a private home
    work = Path(tempfile.mkdtemp(prefix="vs-nproc-"))
    try:
        os.chmod(work, 0o755)
        shutil.copy(exe, work / "init")
        _as_user(work, uid, python)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _as_user(work: Path, uid: int, python: str) -> None:
    exe = work / "init"
    as_user = {"user": uid, "group": uid, "extra_groups": [], "cwd": work}
    probe = subprocess.run([str(exe), "-N", "-Q"], capture_output=True, text=True, check=False, **as_user)
    if "net=1" not in probe.stdout:
        pytest.skip(f"no unprivileged user namespace here: {probe.stdout.strip()} {probe.stderr.strip()}")
    # the user already runs other processes outside the sandbox
    others = [subprocess.Popen(["sleep", "60"], **as_user) for _ in range(3)]  # type: ignore[call-overload]
    try:
        res = subprocess.run([str(exe), "-N", "-p", str(LIMIT), "--", python, "-I", "-S", "-c", FORKER],
                             capture_output=True, text=True, check=False, timeout=60, **as_user)  # fmt: skip
    finally:
        for p in others:
            p.kill()
            p.wait()
    assert res.returncode == 0, res.stderr
    assert int(res.stdout.split()[0]) == LIMIT - 1
