"""Targets started through the sandbox server (``sandbox.server``) get the isolation of a one-shot sandbox.

Real processes (shell and Python programs): the read-only view, no network, the uid drop, rlimits,
two targets at once, no descendant left behind (target's end, ``terminate``, the server's end by its
socket or by the caller's SIGKILL), and fork safety. Skipped where the helper cannot run in server mode.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from shared_data import REPO_ROOT
from veriscale.sandbox import SandboxLimits, SandboxServer, ServedProcess, get_server, isolation
from veriscale.sandbox import server as servermod

ISO = isolation()


def _server_or_reason() -> tuple[SandboxServer | None, str]:
    if not ISO.helper:
        return None, f"sandbox helper unavailable: {ISO.reason}"
    try:
        return SandboxServer(), ""
    except OSError as exc:
        return None, str(exc)


_probe, _WHY = _server_or_reason()
if _probe is not None:
    _probe.close()
pytestmark = pytest.mark.skipif(_probe is None, reason=f"no sandbox server here: {_WHY}")

SH = Path(shutil.which("sh") or "/bin/sh")


@pytest.fixture
def server() -> Iterator[SandboxServer]:
    s = SandboxServer()
    try:
        yield s
    finally:
        s.close()


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


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _marker() -> str:
    return f"{5000 + os.getpid() % 1000}.{time.monotonic_ns() % 100000:05d}"


def _wait_until(cond: object, seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return bool(cond())  # type: ignore[operator]


def _run(server: SandboxServer, script: str, limits: SandboxLimits | None = None, stdin: bytes = b""
         ) -> tuple[ServedProcess, bytes, bytes]:  # fmt: skip
    p = server.spawn(SH, ["-c", script], limits=limits or SandboxLimits(wall_seconds=60))
    assert p.stdin is not None and p.stdout is not None and p.stderr is not None
    p.stdin.write(stdin)
    p.stdin.close()
    out, err = p.stdout.read(), p.stderr.read()
    p.wait(timeout=60)
    p.finish()
    return p, out, err


def _python() -> str | None:
    """A Python interpreter any uid may run."""
    for path in ("/usr/bin/python3", "/usr/local/bin/python3", shutil.which("python3") or ""):
        if path and os.access(path, os.X_OK) and os.stat(path).st_mode & 0o001:
            return path
    return None


def _forker(limit: int) -> str:
    """A Python script that tries 3 * ``limit`` forks (children sleep) and prints how many succeeded."""
    return textwrap.dedent(f"""
        import os, time
        n = 0
        for _ in range({3 * limit}):
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
    """)


def test_a_served_target_sees_the_sandbox(server: SandboxServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-value")
    outside = [Path("/tmp") / f"vs_served_escape_{os.getpid()}", Path("/dev/shm") / f"vs_served_{os.getpid()}",
               Path.cwd() / f"escape_{os.getpid()}"]  # fmt: skip
    touches = "; ".join(f"touch {p}" for p in outside)
    p, out, err = _run(server, f"{touches}; echo ok > mine; pwd; id -u; env; cat /proc/net/dev")
    assert p.returncode == 0 or p.returncode == 1  # (the failed touches)
    text = out.decode()
    lines = text.splitlines()
    assert lines[0] == str(server.path)
    assert (server.path / "mine").read_text() == "ok\n"
    assert "secret-value" not in text
    assert f"HOME={server.path}" in lines and f"TMPDIR={server.path}" in lines
    if ISO.filesystem:
        assert b"Read-only file system" in err, err
    assert not any(q.exists() for q in outside)
    if ISO.network:
        names = sorted(ln.split(":")[0].strip() for ln in lines if ":" in ln and "=" not in ln)
        assert names == ["lo"]
    if os.geteuid() == 0 and ISO.drop_uid is not None:
        assert lines[1] == str(ISO.drop_uid)


def test_rlimits_are_applied(server: SandboxServer) -> None:
    lim = SandboxLimits(wall_seconds=60, cpu_seconds=3, memory_bytes=256 << 20, open_files=32, processes=20,
                        file_bytes=1 << 20)  # fmt: skip
    p, out, _ = _run(server, "cat /proc/self/limits", limits=lim)
    assert p.returncode == 0
    rows = {ln[:26].strip(): ln[26:].split() for ln in out.decode().splitlines()[1:]}
    assert rows["Max cpu time"][:2] == ["3", "4"]
    assert rows["Max address space"][:2] == [str(256 << 20)] * 2
    assert rows["Max open files"][:2] == ["32", "32"]
    assert rows["Max file size"][:2] == [str(1 << 20)] * 2
    assert rows["Max core file size"][:2] == ["0", "0"]
    if os.geteuid() == 0 and ISO.drop_uid is not None:  # the process limit: on top of the uid's tasks
        assert int(rows["Max processes"][0]) >= 20


def test_the_cpu_limit_kills_a_busy_loop(server: SandboxServer) -> None:
    t = time.monotonic()
    p, _, _ = _run(server, "while :; do :; done", limits=SandboxLimits(wall_seconds=60, cpu_seconds=1))
    assert p.returncode in (-signal.SIGXCPU, -signal.SIGKILL), p.returncode
    assert time.monotonic() - t < 30
    assert p.cpu >= 0.9  # the CPU the server reports for the target's tree


def test_the_memory_limit_refuses_a_big_allocation(server: SandboxServer) -> None:
    python = _python()
    if python is None:
        pytest.skip("no Python interpreter every uid may run")
    code = "b = bytearray(1 << 30)\nprint('allocated')"
    p = server.spawn(Path(python), ["-I", "-S", "-c", code],
                     limits=SandboxLimits(wall_seconds=60, memory_bytes=256 << 20))  # fmt: skip
    assert p.stdin is not None and p.stdout is not None and p.stderr is not None
    p.stdin.close()
    out, err = p.stdout.read(), p.stderr.read()
    p.wait(timeout=60)
    p.finish()
    assert p.returncode != 0 and b"allocated" not in out
    assert b"MemoryError" in err


@pytest.mark.skipif(os.geteuid() != 0 or ISO.drop_uid is None, reason="the exact count is asserted as root")
def test_the_process_limit_is_exact_beside_another_target() -> None:
    python = _python()
    if python is None:
        pytest.skip("no Python interpreter every uid may run")
    limit = 6
    forker = _forker(limit)
    # a uid no other process uses: other runs' sandboxes cannot change the count
    s = SandboxServer(uid=40000 + os.getpid() % 20000)
    try:
        lim = SandboxLimits(wall_seconds=60, processes=limit)
        other = s.spawn(SH, ["-c", "sleep 60 & sleep 60 & echo up; wait"], limits=lim)
        assert other.stdout is not None and other.stdout.readline().strip() == b"up"
        for _ in range(2):  # twice: the first target's tree (3 tasks) runs beside both
            p = s.spawn(Path(python), ["-I", "-S", "-c", forker], limits=lim)
            assert p.stdout is not None and p.stdin is not None
            p.stdin.close()
            assert int(p.stdout.read().split()[0]) == limit - 1
            p.wait(timeout=60)
            p.finish()
        other.finish()
    finally:
        s.close()


def test_two_targets_at_once(server: SandboxServer) -> None:
    a = server.spawn(SH, ["-c", "read x; echo a$x"])
    b = server.spawn(SH, ["-c", "read x; echo b$x"])
    assert a.pid != b.pid and server.live() == 2
    assert a.stdin is not None and b.stdin is not None and a.stdout is not None and b.stdout is not None
    b.stdin.write(b"2\n")
    b.stdin.flush()
    assert b.stdout.readline() == b"b2\n"
    assert a.poll() is None  # the other one is still waiting for its input
    a.stdin.write(b"1\n")
    a.stdin.flush()
    assert a.stdout.readline() == b"a1\n"
    assert a.wait(10) == 0 and b.wait(10) == 0
    a.finish()
    b.finish()
    assert server.live() == 0
    assert not any(name.startswith("prog-") for name in os.listdir(server.path))  # the links are removed


def test_nothing_outlives_a_target_that_exits(server: SandboxServer) -> None:
    mark = _marker()
    p, _, _ = _run(server, f"setsid sleep {mark} & sh -c 'sleep {mark}' & sleep 0.2; exit 3")
    assert p.returncode == 3
    assert _wait_until(lambda: _alive_with(mark) == [], 2.0), _alive_with(mark)


def test_terminate_kills_the_tree(server: SandboxServer) -> None:
    mark = _marker()
    p = server.spawn(SH, ["-c", f"setsid sleep {mark} & echo up; sleep {mark}"])
    assert p.stdout is not None and p.stdout.readline() == b"up\n"
    assert _wait_until(lambda: len(_alive_with(mark)) >= 2)  # both sleeps (and the shell)
    with pytest.raises(subprocess.TimeoutExpired):
        p.wait(timeout=0.1)
    p.terminate()
    assert p.wait(timeout=10) == -signal.SIGKILL
    p.finish()
    assert _alive_with(mark) == []
    assert _gone(p.pid)


def test_the_servers_end_ends_its_targets() -> None:
    mark = _marker()
    s = SandboxServer()
    p = s.spawn(SH, ["-c", f"setsid sleep {mark} & echo up; sleep {mark}"])
    assert p.stdout is not None and p.stdout.readline() == b"up\n"
    helper = s.pid
    s.close()  # closes the socket: the server kills everything and exits
    assert p.wait(timeout=10) == -signal.SIGKILL
    assert _wait_until(lambda: _alive_with(mark) == [] and _gone(helper))
    assert not s.path.exists()


def test_a_sigkilled_caller_leaves_nothing() -> None:
    mark = _marker()
    code = textwrap.dedent(f"""
        import sys, threading
        from pathlib import Path
        from veriscale.sandbox import get_server
        s = get_server()
        assert s is not None
        def start():  # from a thread that ends at once: the server must outlive it
            global p
            p = s.spawn(Path({str(SH)!r}), ["-c", "setsid sleep {mark} & echo ready; sleep {mark}"])
        t = threading.Thread(target=start)
        t.start(); t.join()
        sys.stdout.write(p.stdout.readline().decode()); sys.stdout.write(f"{{s.pid}}\\n"); sys.stdout.flush()
        p.wait()
    """)
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT / "src"), VERISCALE_SANDBOX_SERVER="1")
    caller = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env)
    assert caller.stdout is not None
    assert caller.stdout.readline().strip() == b"ready"
    helper = int(caller.stdout.readline())
    time.sleep(0.3)
    assert len(_alive_with(mark)) >= 3 and not _gone(helper)  # still running after the thread's end
    caller.send_signal(signal.SIGKILL)
    caller.wait()
    assert _wait_until(lambda: _alive_with(mark) == [] and _gone(helper)), _alive_with(mark)


def test_a_forked_child_gets_its_own_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERISCALE_SANDBOX_SERVER", "1")  # (whatever the run's switch says)
    parent = get_server()
    assert parent is not None
    r, w = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (runs in the child)
        code = 1
        try:
            s = get_server()
            ok = s is not None and s is not parent and s.owner == os.getpid() and s.pid != parent.pid
            p = s.spawn(Path("/bin/true"), stderr=None) if s is not None else None
            ok = ok and p is not None and p.wait(10) == 0
            os.write(w, b"ok" if ok else b"no")
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        said = f.read()
    _, status = os.waitpid(child, 0)
    assert said == b"ok" and os.waitstatus_to_exitcode(status) == 0
    p = parent.spawn(Path("/bin/true"), stderr=None)  # the parent's server still serves the parent
    assert p.wait(10) == 0
    p.finish()


def test_the_switch_turns_the_server_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERISCALE_SANDBOX_SERVER", "0")
    assert get_server() is None
    assert servermod.unavailable_reason() == "VERISCALE_SANDBOX_SERVER=0"


def test_a_missing_program_is_a_clean_failure(server: SandboxServer, tmp_path: Path) -> None:
    prog = tmp_path / "not-executable"
    prog.write_text("x")
    prog.chmod(0o644)
    p = server.spawn(prog)
    assert p.stdin is not None and p.stderr is not None
    p.stdin.close()
    assert p.wait(10) == 127
    assert b"cannot run" in p.stderr.read()
    p.finish()


@pytest.mark.skipif(os.geteuid() != 0, reason="simulates a non-root veriscale: needs root to switch uid")
def test_a_non_root_server_counts_the_process_limit_in_its_namespace() -> None:
    """veriscale run by a user: the server is in a user namespace (Linux >= 5.14 counts RLIMIT_NPROC per
    namespace) and each target's base is every task of the server's tree: a second target beside a first
    one (3 tasks) still gets exactly the limit. The raw protocol, with the helper run as that user."""
    from veriscale.sandbox.helper import helper_path

    python, exe = _python(), helper_path()
    if python is None or exe is None:
        pytest.skip("no Python interpreter every uid may run, or no sandbox helper")
    uid, limit = 40000 + os.getpid() % 20000, 6
    # a directory the user can reach (pytest's tmp_path is under a root-only directory)
    tmp_path = Path(tempfile.mkdtemp(prefix="vs-served-user-"))
    try:
        _user_server(tmp_path, uid, limit, python, exe)
    finally:
        shutil.rmtree(tmp_path, ignore_errors=True)


def _user_server(tmp_path: Path, uid: int, limit: int, python: str, exe: Path) -> None:
    import socket

    work = tmp_path / "w"
    work.mkdir()
    shutil.copy(exe, tmp_path / "init")
    for d in (tmp_path, work):
        os.chown(d, uid, uid)
        os.chmod(d, 0o755)
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    helper = subprocess.Popen([str(tmp_path / "init"), "-N", "-W", str(work), "-Z", str(theirs.fileno())],
                              pass_fds=(theirs.fileno(),), user=uid, group=uid, extra_groups=[], cwd=work,
                              stderr=subprocess.PIPE)  # fmt: skip
    theirs.close()
    try:
        first = ours.recv(256)
        if not first.startswith(b"R "):
            assert helper.stderr is not None
            pytest.skip(f"no server mode as a user here: {helper.stderr.read().decode().strip()}")

        def start(argv: list[str]) -> tuple[int, int, int]:
            r0, w0 = os.pipe()
            r1, w1 = os.pipe()
            nums = [1 << 30, 60, 1 << 20, 64, limit, 0, -1, -1, len(argv)]
            payload = b"\0".join([b"S", *(str(n).encode() for n in nums), *(a.encode() for a in argv),
                                  b"PATH=/usr/bin:/bin"]) + b"\0"  # fmt: skip
            socket.send_fds(ours, [payload], [r0, w1, w1])
            os.close(r0)
            os.close(w1)
            reply = ours.recv(256)
            assert reply.startswith(b"P "), reply
            return int(reply.split()[1]), w0, r1

        forker = _forker(limit)
        _, w_other, r_other = start(["/bin/sh", "-c", "sleep 60 & sleep 60 & echo up; wait"])
        with os.fdopen(r_other, "rb") as f:
            assert f.readline() == b"up\n"
            _, w, r = start([python, "-I", "-S", "-c", forker])
            os.close(w)
            with os.fdopen(r, "rb") as g:
                assert int(g.read().split()[0]) == limit - 1
        os.close(w_other)
    finally:
        ours.close()  # the end of the socket: the server kills both trees and exits
        helper.wait(timeout=10)
    assert helper.returncode == 0


ECHO = """#!/bin/sh
while IFS= read -r line; do
  if [ "$line" = "{}" ]; then echo '{"bad":"no input object"}'; else echo TT; fi
done
"""


def test_a_checker_session_runs_served_and_survives_the_servers_death(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from veriscale.languages.verus.post2exe.session import CheckerSession

    monkeypatch.setenv("VERISCALE_SANDBOX_SERVER", "1")
    script = tmp_path / "echo.sh"
    script.write_text(ECHO, encoding="ascii")
    script.chmod(0o755)
    s = CheckerSession(script, 512)
    try:
        assert s.ask(b'{"input":{"x":1}}\n', 30.0, {}, expect=1) == [b"TT"]
        assert s._proc is not None and isinstance(s._proc.proc, ServedProcess)
        assert s.cpu_seconds() > 0  # the running tree, from /proc
        srv = get_server()
        assert srv is not None
        os.kill(srv.pid, signal.SIGKILL)  # every served process dies with it
        assert _wait_until(lambda: srv.dead)
        assert s.ask(b'{"input":{"x":2}}\n', 30.0, {}, expect=1) == [b"TT"]  # a new server, a new process
        assert s.starts == 2 and get_server() is not srv
        before = s.ended_cpu
        s.close()
        assert s.ended_cpu > before  # the CPU the server reported for the closed process
    finally:
        s.close()
