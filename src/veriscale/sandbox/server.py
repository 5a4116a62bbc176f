"""Starting processes inside an already-built sandbox: one server helper per Python process.

A one-shot ``Sandbox.spawn`` pays for a fresh helper, its network and mount
namespaces, the read-only view and a private directory at every start (about
4 ms of CPU on the 2-core machine). A ``SandboxServer`` sets all of that up
once — the helper in server mode (``helper_source``, ``-Z``), with one
private directory — and then starts each target through it: Python creates the
target's pipes, sends a start request with the child's ends (``SCM_RIGHTS``)
over a ``SOCK_SEQPACKET`` socket pair, and the helper forks a per-target init
that sets up and watches the target exactly as a one-shot helper does.

Guarantees for a served target, the same as a one-shot one:
every mount read-only except the private directory (its cwd, ``HOME`` and
``TMPDIR``), no network interface but loopback, the allow-listed environment,
rlimits (address space, CPU, file size, open files, processes — counted when
the target starts, as in the one-shot path —, core 0), niceness, the uid drop
when veriscale is root, ``NO_NEW_PRIVS``; when the target ends or is
terminated every process it started is killed (its init is their subreaper);
when veriscale ends (``atexit``: the socket is closed), dies (even by SIGKILL:
the socket's end, and the parent-death signal), or the server is killed, every
target and descendant is killed.

What differs (documented, accepted for veriscale's own compiled checkers, the
only users): the private directory is SHARED by every target of this Python
process (each binary is hard-linked in under a unique name and unlinked when
its process ends), so targets running at once can see and change each
other's files there; and the namespaces are shared (one loopback, one mount
view). As with a one-shot helper, a target that runs under veriscale's own
uid (veriscale not root) could signal the server — here ending the other
served targets with it (they die with it; their sessions see the end and
start again); veriscale's checkers do not signal anything. ``pid`` is the
target's init (host pid: no pid namespace), whose
process tree holds the target. A target's CPU reaches neither
``RUSAGE_CHILDREN`` nor the server's waited-for CPU until the server ends:
``ServedProcess.cpu`` is the CPU the server reports at its end (``wait4``:
the init, the target and everything it waited for).

Lifetime: the server is started lazily by a process's first ``get_server``
(a child after ``fork`` starts its own and never touches the parent's
socket), from a long-lived daemon thread (the parent-death signal follows the
thread that started a process: a short-lived caller thread would take the
server with it), and restarted by the next ``get_server`` after it died.
``VERISCALE_SANDBOX_SERVER=0`` turns it off; where the helper cannot be built
or refuses server mode (it does where it could not count the process limit:
not root, a user namespace, Linux < 5.14), ``get_server`` returns ``None``
and callers use ``Sandbox`` (one-shot) as before. Where the machine gives no
namespaces the server runs without them, like a one-shot helper there.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from .helper import helper_path, isolation
from .limits import SandboxLimits
from .process import sandbox_env

__all__ = [
    "SandboxServer",
    "ServedProcess",
    "get_server",
    "server_cpu_seconds",
    "server_enabled",
    "shutdown_server",
    "unavailable_reason",
]

_START_SECONDS = 10.0  # the server's set-up (namespaces, read-only view) must answer within this
_GRACE = 5.0  # seconds a terminated target's init gets to kill its tree before it is SIGKILLed
_MAX_REQUEST = 60000  # bytes of one start request (the helper reads up to 64 KiB)


def server_enabled() -> bool:
    """Targets through the server unless ``VERISCALE_SANDBOX_SERVER=0``."""
    return os.environ.get("VERISCALE_SANDBOX_SERVER", "1") != "0"


class ServedProcess:
    """A target started by the server (the interface of ``SandboxProcess`` that sessions use).

    ``pid``: the target's init (its process tree holds the target); ``returncode``: like ``Popen``
    (negative: killed by that signal) once ended; ``cpu``: CPU seconds of the target's tree reported by
    the server at its end (0.0 before, or when the server died first).
    """

    via_helper = True

    def __init__(self, server: SandboxServer, pid: int, link: Path,
                 stdin: IO[bytes] | None, stdout: IO[bytes] | None, stderr: IO[bytes] | None) -> None:  # fmt: skip
        self.server = server
        self.pid = pid
        self.link = link
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.returncode: int | None = None
        self.cpu = 0.0
        self.terminated = False
        self.started = time.monotonic()
        self._done = threading.Event()

    def _ended(self, status: int | None, cpu: float) -> None:
        if status is None:  # the server died: its targets were killed with it
            self.returncode = -signal.SIGKILL
        elif os.WIFEXITED(status):
            self.returncode = os.WEXITSTATUS(status)
        else:
            self.returncode = -os.WTERMSIG(status)
        self.cpu = cpu
        with contextlib.suppress(OSError):
            os.unlink(self.link)
        self._done.set()

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the end (``subprocess.TimeoutExpired`` after ``timeout``); after ``terminate`` an init
        that has not ended within the timeout is SIGKILLed (its orphans then die with the server's
        orphan kill)."""
        if not self._done.wait(timeout):
            if not self.terminated:
                raise subprocess.TimeoutExpired(str(self.link), timeout or 0.0)
            self.server._kill(self.pid, signal.SIGKILL)
            self._done.wait(_GRACE)
        if self.returncode is None:  # the server itself does not answer: give up on it
            self.server._abandon()
            self._done.wait(_GRACE)
        return self.returncode if self.returncode is not None else -signal.SIGKILL

    def terminate(self) -> None:
        """End the target and everything it started (idempotent): SIGTERM to its init."""
        self.terminated = True
        if self.returncode is None:
            self.server._kill(self.pid, signal.SIGTERM)

    def finish(self) -> None:
        """Make sure nothing is left: terminate, wait (bounded), close pipes."""
        if self.returncode is None:
            self.terminate()
            self.wait(timeout=_GRACE)
        for f in (self.stdin, self.stdout, self.stderr):
            if f is not None:
                with contextlib.suppress(OSError, ValueError):
                    f.close()

    def status(self) -> tuple[int | None, int | None, str]:
        """(exit code, signal, setup error) once ended."""
        rc = self.returncode
        if rc is None:
            return None, None, ""
        if rc < 0:
            return None, -rc, ""
        return rc, None, ""


class SandboxServer:
    """One server helper and its private directory (see the module docstring). Thread-safe."""

    def __init__(self, *, uid: int | str | None = "default") -> None:
        # uid: the uid targets run as when veriscale is root ("default": ``Isolation.drop_uid``; tests give
        # one no other process uses)
        iso = isolation()
        exe = helper_path()
        if exe is None or not iso.helper:
            raise OSError(f"no sandbox helper: {iso.reason}")
        self.owner = os.getpid()
        self.uid = iso.drop_uid if uid == "default" else uid if isinstance(uid, int) else None
        root = os.environ.get("VERISCALE_SANDBOX_TMP") or None
        self.path = Path(os.path.realpath(tempfile.mkdtemp(prefix="vs-served-", dir=root)))
        if self.uid is not None:
            os.chown(self.path, self.uid, self.uid)
        self._dir_fd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        self._sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._send_lock = threading.Lock()  # one request (and its reply) at a time
        self._replies: list[bytes] = []
        self._reply_ready = threading.Condition(threading.Lock())
        self._procs: dict[int, ServedProcess] = {}  # live targets by init pid
        self._early: dict[int, tuple[int, float]] = {}  # ends that came before their start reply was used
        self._names = itertools.count()
        self.dead = False
        self.popen: subprocess.Popen[bytes] | None = None
        self.start_cpu = 0.0  # the helper's own CPU for its set-up (namespaces, read-only view)
        self.start_own_cpu = time.process_time()  # this process's CPU for the start (set below)
        argv = [str(exe), "-P", str(os.getpid()), "-N", "-Z", str(theirs.fileno())]
        if iso.filesystem:
            argv += ["-W", str(self.path)]
        errf = tempfile.TemporaryFile()
        started = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            # this thread lives as long as the server: the helper's parent-death signal follows it
            try:
                self.popen = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                              stderr=errf, cwd=self.path, pass_fds=(theirs.fileno(),),
                                              env=sandbox_env(self.path))  # fmt: skip
            except OSError as exc:
                failure.append(exc)
                started.set()
                return
            finally:
                theirs.close()
            self._read_loop(started)

        self._thread = threading.Thread(target=run, name="veriscale-sandbox-server", daemon=True)
        self._thread.start()
        ready = started.wait(_START_SECONDS)
        if failure or not ready or self.dead or self.popen is None:
            errf.seek(0)
            msg = errf.read().decode("utf-8", "replace").strip()[-300:]
            errf.close()
            self.close()
            raise OSError(f"sandbox server did not start: {failure[0] if failure else msg or 'no answer'}")
        errf.close()
        self.pid = self.popen.pid
        self.start_cpu = self.helper_cpu()
        self.start_own_cpu = time.process_time() - self.start_own_cpu

    # ---- the reader thread
    def _read_loop(self, started: threading.Event) -> None:
        sock = self._sock
        try:
            first = sock.recv(256)
            if first.startswith(b"R "):
                started.set()
                while True:
                    msg = sock.recv(256)
                    if not msg:
                        break
                    if msg.startswith(b"X "):
                        _, pid, st, ut, stt = msg.split()
                        self._exit(int(pid), int(st), (int(ut) + int(stt)) / 1e6)
                    else:
                        with self._reply_ready:
                            self._replies.append(msg)
                            self._reply_ready.notify_all()
        except (OSError, ValueError):
            pass
        self.dead = True
        started.set()
        with self._reply_ready:
            self._reply_ready.notify_all()
            procs = list(self._procs.values())
            self._procs.clear()
        for p in procs:
            p._ended(None, 0.0)
        if self.popen is not None:
            with contextlib.suppress(Exception):
                self.popen.wait(timeout=_GRACE)

    def _exit(self, pid: int, status: int, cpu: float) -> None:
        with self._reply_ready:
            p = self._procs.pop(pid, None)
            if p is None:  # (the end came before spawn registered the process)
                self._early[pid] = (status, cpu)
        if p is not None:
            p._ended(status, cpu)

    # ---- requests
    def _request(self, payload: bytes, fds: Sequence[int]) -> bytes:
        """Send one request and return its reply (the caller holds ``_send_lock``)."""
        if self.dead:
            raise OSError("sandbox server is gone")
        socket.send_fds(self._sock, [payload], list(fds))
        deadline = time.monotonic() + _START_SECONDS
        with self._reply_ready:
            while not self._replies and not self.dead and time.monotonic() < deadline:
                self._reply_ready.wait(max(0.0, deadline - time.monotonic()))
            if self._replies:
                return self._replies.pop(0)
        # a server that does not answer (stopped, or killed) is never waited for again: it is killed (its
        # targets die with it) and the caller falls back to a one-shot sandbox
        self._abandon()
        raise OSError("sandbox server is gone or does not answer")

    def _kill(self, pid: int, sig: int) -> None:
        if self.dead:
            return
        with contextlib.suppress(OSError), self._send_lock:
            self._sock.send(b"K\0%d\0%d\0" % (pid, sig))

    def _abandon(self) -> None:
        """The server does not answer: kill it (its targets die with it: parent-death signals)."""
        if self.popen is not None:
            with contextlib.suppress(OSError):
                self.popen.kill()

    def spawn(
        self,
        binary: Path,
        argv_tail: Sequence[str] = (),
        *,
        env: Mapping[str, str] | None = None,
        limits: SandboxLimits | None = None,
        keep_uid: bool = False,
        stderr: IO[Any] | int | None = subprocess.PIPE,
    ) -> ServedProcess:
        """Start ``binary`` (hard-linked, else copied, into the private directory) with ``argv_tail``;
        stdin and stdout are pipes, ``stderr`` a pipe, a file (object or descriptor) or ``None``
        (``/dev/null``). ``env`` adds variables to the allow-listed environment."""
        lim = limits or SandboxLimits()
        if lim.network:
            raise ValueError("a served target has no network (use Sandbox for network=True)")
        name = f"prog-{next(self._names)}-{Path(binary).name}"
        link = self.path / name
        try:  # (linkat with AT_SYMLINK_FOLLOW through the directory's descriptor: a symlink's target)
            os.link(binary, name, dst_dir_fd=self._dir_fd, follow_symlinks=True)
        except OSError:
            shutil.copyfile(os.path.realpath(binary), link)
            os.chmod(link, 0o755)
        uid = None if keep_uid else self.uid
        nums = [lim.memory_bytes, lim.cpu_limit(), lim.file_bytes, lim.open_files, lim.processes]
        fields = [b"S", *(str(-1 if v is None else int(v)).encode() for v in nums), str(lim.nice).encode(),
                  str(-1 if uid is None else uid).encode(), str(-1 if uid is None else uid).encode(),
                  str(1 + len(argv_tail)).encode(), str(link).encode(), *(a.encode() for a in argv_tail),
                  *(f"{k}={v}".encode() for k, v in sandbox_env(self.path, env).items())]  # fmt: skip
        payload = b"\0".join(fields) + b"\0"
        if len(payload) > _MAX_REQUEST:
            raise ValueError("start request too large")
        mine: list[int] = []  # this process's ends, closed on failure
        theirs: list[int] = []
        try:
            in_r, in_w = os.pipe()
            mine.append(in_w)
            theirs.append(in_r)
            out_r, out_w = os.pipe()
            mine.append(out_r)
            theirs.append(out_w)
            err_r = -1
            if stderr is subprocess.PIPE:
                err_r, err_w = os.pipe()
                mine.append(err_r)
                theirs.append(err_w)
            elif stderr is None or stderr is subprocess.DEVNULL:
                theirs.append(os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC))
            else:
                theirs.append(os.dup(stderr if isinstance(stderr, int) else stderr.fileno()))
            with self._send_lock:
                reply = self._request(payload, theirs)
                if not reply.startswith(b"P "):
                    raise OSError(f"sandbox server: {reply.decode('utf-8', 'replace').strip()}")
                pid = int(reply.split()[1])
                proc = ServedProcess(
                    self,
                    pid,
                    link,
                    open(in_w, "wb"),
                    open(out_r, "rb"),
                    open(err_r, "rb") if err_r >= 0 else None,
                )
                mine.clear()
                with self._reply_ready:
                    early = self._early.pop(pid, None)
                    if early is None:
                        self._procs[pid] = proc
            if early is not None:
                proc._ended(*early)
            return proc
        except BaseException:
            for fd in mine:
                with contextlib.suppress(OSError):
                    os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(link)
            raise
        finally:
            for fd in theirs:
                with contextlib.suppress(OSError):
                    os.close(fd)

    # ---- accounting and end
    def helper_cpu(self) -> float:
        """CPU seconds the server helper itself used so far (its ``schedstat``, ns resolution: the forks
        of the per-target inits, the requests; not its targets); 0.0 once it is gone."""
        try:
            with open(f"/proc/{self.pid}/schedstat", encoding="ascii") as f:
                return int(f.read().split()[0]) / 1e9
        except (OSError, ValueError, IndexError, AttributeError):
            return 0.0

    def live(self) -> int:
        """Targets running now."""
        with self._reply_ready:
            return len(self._procs)

    def close(self) -> None:
        """End the server (every target and descendant is killed) and remove the directory."""
        if self.owner != os.getpid():
            return
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        if self.popen is not None:
            try:
                self.popen.wait(timeout=_GRACE)
            except subprocess.TimeoutExpired:
                self._abandon()
                with contextlib.suppress(Exception):
                    self.popen.wait(timeout=_GRACE)
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=_GRACE)
        with contextlib.suppress(OSError):
            self._sock.close()
        with contextlib.suppress(OSError):
            os.close(self._dir_fd)
        shutil.rmtree(self.path, ignore_errors=True)


_server: SandboxServer | None = None
_unavailable = ""  # why the server cannot be used in this process ("": not tried, or it works)
_lock = threading.Lock()


def get_server() -> SandboxServer | None:
    """This process's server (started on first use; restarted after it died), or ``None`` when it is
    turned off or cannot run here (callers then use ``Sandbox``)."""
    global _server, _unavailable
    if not server_enabled():
        return None
    s = _server
    if s is not None and not s.dead and s.owner == os.getpid():
        return s
    with _lock:
        s = _server
        if s is not None and s.owner == os.getpid():
            if not s.dead:
                return s
            s.close()  # died (killed from outside): a new one
        if _unavailable:
            return None
        try:
            _server = SandboxServer()
        except OSError as exc:
            _server = None
            _unavailable = str(exc)
            return None
        return _server


def server_cpu_seconds() -> float:
    """CPU seconds this process's server helper itself has used so far (0.0 without one): for benchmarks,
    whose CPU counts must include the forks it does for every target (its targets' CPU is reported per
    process, ``ServedProcess.cpu``). Taken before and after a measured interval, the difference includes
    the server's whole start-up when it started in between."""
    s = _server
    return s.helper_cpu() if s is not None and s.owner == os.getpid() else 0.0


def unavailable_reason() -> str:
    """Why ``get_server`` returned ``None`` ("" when it did not)."""
    return _unavailable if server_enabled() else "VERISCALE_SANDBOX_SERVER=0"


def shutdown_server() -> None:
    """End this process's server (also run at interpreter exit)."""
    global _server
    with _lock:
        s, _server = _server, None
    if s is not None and s.owner == os.getpid():
        s.close()


def _forget_after_fork() -> None:
    # the child must never use (nor keep open) the parent's socket: the parent's server would not see
    # the parent's end while the child lives
    global _server, _unavailable, _lock
    s = _server
    _server = None
    _unavailable = ""
    _lock = threading.Lock()
    if s is not None:
        with contextlib.suppress(OSError):
            s._sock.close()


atexit.register(shutdown_server)
os.register_at_fork(after_in_child=_forget_after_fork)
