"""A long-lived sandboxed checker process that answers many batches.

Every compiled-checker batch used to start its own sandbox and process (about
6 ms of CPU on an idle 2-core machine, 9 ms under load: the helper, its
namespaces, the checker's 1 GiB-stack thread), which dominated cheap specs and
the suite builder's 64-row chunks. A ``CheckerSession`` starts the checker once
inside a ``Sandbox`` (the same helper, limits, private directory and no
network as ``execute.run_program``) and streams batches through it: one request
(lines) in, exactly one verdict line per case out. The checker clears its step
counter, recursion depth and spec-fn memo before every clause and keeps no other
state between cases, so a verdict does not depend on which process answers it.

Protocol with the checker (``translate``'s ``run`` loop): it reads a line, answers
every case of it, and flushes its output when it is about to wait for input, so
a batch's last verdict line arrives without closing stdin.

Failure handling, the same outcome as a one-shot run: a batch that exceeds its
wall-clock backstop kills the process tree (the cases not answered get no
verdict: UNKNOWN for the caller); a process that dies (crash, memory) leaves the
cases it did not answer unanswered; either way the next batch starts a fresh
process. ``RLIMIT_CPU`` counts a process's whole life, so the session restarts
the process before a batch whose backstop could overrun the limit (the batches'
wall-clock time so far bounds the CPU used: the checker works in one thread).

Start-up: the checker is started through this process's sandbox server
(``sandbox.server``: the helper, its namespaces, read-only view and private
directory are set up once per Python process; each checker gets its own init,
rlimits, uid drop and tree kill, as before): a fresh checker's first one-case
batch and close cost 2.4-5.0 ms of CPU instead of 4.6-7.4 ms on a loaded
2-core machine (docs/vericontest-inplace-post2exe.md, speed session 8). The
server's private directory is SHARED by the checkers of one Python process
(each binary is linked in under its own name): acceptable for these programs,
which veriscale emits itself, and only for them. Without the server
(``VERISCALE_SANDBOX_SERVER=0``, no C compiler, a server mode the helper
refuses) each process gets its own ``Sandbox`` as before. A served checker is
this process's grandchild: its CPU never reaches ``RUSAGE_CHILDREN``;
``cpu_seconds`` covers it (see there).

Lifetime: ``close()`` ends the process (by closing its input: an idle checker
ends by itself, and its helper exits without the ``/proc`` scan a SIGTERM
costs; one still running after ``_EOF_GRACE`` is terminated) and removes the
sandbox directory; a
session not closed is ended when it is garbage-collected, at interpreter exit,
and — through the sandbox helper's parent-death signal — when this process dies.
At most ``MAX_LIVE`` sessions per process are kept alive (least recently used
closed first), so a run over hundreds of problems leaves no crowd of idle
checkers; an idle process keeps the memory its largest batch grew (the memo is
cleared, not shrunk), so after a long batch one above ``SESSION_RSS_BYTES`` is
ended. A session used after a ``fork`` starts its own process (the parent's
pipes are never shared).
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import os
import select
import tempfile
import threading
import time
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from ....sandbox import Sandbox, SandboxProcess, ServedProcess, get_server
from ..execute import ExecLimits, _child_env, _sandbox_limits, _stage

__all__ = ["MAX_LIVE", "CheckerSession", "close_all", "sessions_enabled"]

MAX_LIVE = 4  # live checker processes per Python process (least recently used closed first)
# CPU-seconds rlimit of a session's process (a backstop over its whole life; see the module docstring)
SESSION_CPU_SECONDS = 3600.0
# an idle checker keeps the memory its largest batch grew (the spec-fn memo is cleared, not shrunk: up to
# hundreds of MB): after a batch long enough to have grown that much, a process above this is ended (the
# next batch starts a fresh one, about 5 ms)
SESSION_RSS_BYTES = 128 << 20
_RSS_CHECK_SECONDS = 0.05  # (growing past it takes far longer than this: shorter batches are not looked at)
_EOF_GRACE = 1.0  # seconds an idle checker gets to end at the end of its input before it is terminated


def sessions_enabled() -> bool:
    """Long-lived checker processes unless ``VERISCALE_POST2EXE_SESSION=0`` (one process per batch)."""
    return os.environ.get("VERISCALE_POST2EXE_SESSION", "1") != "0"


class _Proc:
    """One running checker: its process (served, or in its own sandbox), stderr file and the wall seconds
    its batches used."""

    def __init__(self, binary: Path, env: Mapping[str, str], memory_mb: int) -> None:
        self.pid = os.getpid()
        self.sb: Sandbox | None = None  # (only without the sandbox server: a sandbox of its own)
        self.errf: IO[bytes] = tempfile.TemporaryFile()
        self.proc: SandboxProcess | ServedProcess | None = None
        self.used = 0.0  # wall seconds of the batches answered so far (bounds the CPU the process used)
        try:
            lim = _sandbox_limits(ExecLimits(case_seconds=SESSION_CPU_SECONDS, memory_mb=memory_mb),
                                  SESSION_CPU_SECONDS)  # fmt: skip
            server = get_server()
            if server is not None:
                with contextlib.suppress(OSError):  # (the server just died: this one in its own sandbox)
                    self.proc = server.spawn(binary, env=_child_env(env), limits=lim, stderr=self.errf)
            if self.proc is None:
                self.sb = Sandbox(env=_child_env(env))
                self.proc = self.sb.spawn([_stage(self.sb, binary)], stderr=self.errf, limits=lim)
            assert self.proc.stdin is not None and self.proc.stdout is not None
            # set up once for every batch: the request is written with non-blocking writes between the
            # reads of the reply (no writer thread), both through one poll object
            self.in_fd = self.proc.stdin.fileno()
            self.out_fd = self.proc.stdout.fileno()
            os.set_blocking(self.in_fd, False)
            self.poll = select.poll()
            self.poll.register(self.out_fd, select.POLLIN)
        except BaseException:
            self.close()
            raise

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None and self.pid == os.getpid()

    def cpu_seconds(self) -> float:
        """The process tree's CPU: read from /proc while it runs; once a served process has ended, the CPU
        the server reported (a one-shot helper's is in ``RUSAGE_CHILDREN`` once waited for: 0.0 here)."""
        proc = self.proc
        if proc is None:
            return 0.0
        if isinstance(proc, ServedProcess) and proc.poll() is not None:
            return proc.cpu
        return _tree_cpu(proc.pid)

    def close(self) -> float:
        """End the process; returns the CPU of an ended served process (see ``cpu_seconds``), else 0.0."""
        if self.pid != os.getpid():  # a forked copy: the process and directory are the parent's
            return 0.0
        proc, self.proc = self.proc, None
        if proc is not None:
            # an idle checker ends by itself at the end of its input, and its init then exits without
            # the /proc scan a SIGTERM makes it do (about half the CPU of a short-lived session); one
            # that does not end soon is terminated as before
            with contextlib.suppress(Exception):
                if proc.poll() is None and proc.stdin is not None:
                    proc.stdin.close()
                    proc.wait(timeout=_EOF_GRACE)
            with contextlib.suppress(Exception):
                proc.finish()
        with contextlib.suppress(Exception):
            self.errf.close()
        if self.sb is not None:
            with contextlib.suppress(Exception):
                self.sb.close()
        return proc.cpu if isinstance(proc, ServedProcess) else 0.0


_live: collections.OrderedDict[int, CheckerSession] = collections.OrderedDict()
_live_lock = threading.Lock()


def _register(s: CheckerSession) -> None:
    """Mark ``s`` most recently used; close the least recently used beyond ``MAX_LIVE``."""
    evict: list[CheckerSession] = []
    with _live_lock:
        _live.pop(id(s), None)
        _live[id(s)] = s
        while len(_live) > MAX_LIVE:
            _, old = _live.popitem(last=False)
            evict.append(old)
    for old in evict:
        old.close()


def _unregister(s: CheckerSession) -> None:
    with _live_lock:
        if _live.get(id(s)) is s:
            del _live[id(s)]


def close_all() -> None:
    """End every live session of this process (also run at interpreter exit)."""
    with _live_lock:
        items = list(_live.values())
        _live.clear()
    for s in items:
        s.close()


atexit.register(close_all)


class CheckerSession:
    """Batches through one long-lived checker process (restarted when it died, timed out or the
    environment changed). ``ask(request, n, seconds, env)`` returns the first ``n`` verdict lines the
    process wrote for the request (fewer when it died or the backstop ended it)."""

    def __init__(self, binary: Path, memory_mb: int) -> None:
        self.binary = Path(binary)
        self.memory_mb = memory_mb
        self.starts = 0  # processes started (a meter for tests and benchmarks)
        self.ended_cpu = 0.0  # CPU seconds of this session's ended SERVED processes (see cpu_seconds)
        self._proc: _Proc | None = None
        self._env: dict[str, str] = {}
        self._lock = threading.Lock()
        # the running process, also held by the finalizer, which ends it when the session is collected
        # without close() (the finalizer must not hold the session itself)
        self._holder: list[_Proc | None] = [None]
        weakref.finalize(self, _close_box, self._holder)

    def cpu_seconds(self) -> float:
        """CPU seconds of this session's checker processes that ``RUSAGE_CHILDREN`` does not hold: the
        running process tree (its init or helper and the checker, all threads; Linux ``schedstat``,
        nanosecond resolution; 0.0 without a process or ``/proc``) plus every ended process started
        through the sandbox server (a grandchild of this process: its CPU never reaches
        ``RUSAGE_CHILDREN``; the server reports it at the end, microsecond resolution). An ended
        one-shot process is in ``RUSAGE_CHILDREN`` once waited for, so it is not counted here. For
        benchmarks: add ``RUSAGE_CHILDREN``, this process's CPU and the server helper's own CPU
        (``sandbox.server``, ``SandboxServer.helper_cpu``)."""
        p = self._proc
        return self.ended_cpu + (p.cpu_seconds() if p is not None else 0.0)

    def close(self) -> None:
        with self._lock:
            self._stop()
        _unregister(self)

    def _stop(self) -> None:
        p, self._proc = self._proc, None
        self._holder[0] = None
        if p is not None:
            self.ended_cpu += p.close()

    def ask(self, request: bytes, seconds: float, env: Mapping[str, str], expect: int | None = None
            ) -> list[bytes]:  # fmt: skip
        """The verdict lines for ``request`` in order; fewer when the process died or ``seconds`` of wall
        clock ran out. ``request``: ONE line holding a JSON array of cases (``expect`` None: the reply is
        every line before the end marker), or ``expect`` lines that each give exactly one reply line
        (single case objects: the reply must be ``expect`` lines and then the marker; anything else
        means the process is out of step, and nothing of its reply is used)."""
        with self._lock:
            want_env = dict(env)
            p = self._proc
            if p is not None and (not p.alive() or want_env != self._env
                                  or p.used + seconds + 5 > SESSION_CPU_SECONDS):  # fmt: skip
                self._stop()
                p = None
            if p is None:
                p = self._proc = _Proc(self.binary, want_env, self.memory_mb)
                self._holder[0] = p
                self._env = want_env
                self.starts += 1
            t0 = p.used
            lines, ok = _exchange(p, request, seconds, expect)
            if not ok:  # timed out or died: never reuse a process in an unknown state
                self._stop()
            elif p.used - t0 >= _RSS_CHECK_SECONDS and p.proc is not None:
                if _tree_rss(p.proc.pid) > SESSION_RSS_BYTES:
                    self._stop()
        _register(self)
        return lines


def _tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its descendants (every thread's ``schedstat`` run time)."""
    total = 0
    todo = [pid]
    while todo:
        q = todo.pop()
        try:
            tids = os.listdir(f"/proc/{q}/task")
        except OSError:
            continue
        for t in tids:
            try:
                with open(f"/proc/{q}/task/{t}/schedstat", encoding="ascii") as f:
                    total += int(f.read().split()[0])
                with open(f"/proc/{q}/task/{t}/children", encoding="ascii") as f:
                    todo.extend(int(c) for c in f.read().split())
            except (OSError, ValueError, IndexError):
                continue
    return total / 1e9


_PAGE = os.sysconf("SC_PAGESIZE") if hasattr(os, "sysconf") else 4096


def _tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and its descendants (``statm``'s resident pages, the number ``status``
    prints as ``VmRSS`` at a fraction of the kernel's formatting; 0 where ``/proc`` does not say)."""
    total = 0
    todo = [pid]
    while todo:
        q = todo.pop()
        try:
            with open(f"/proc/{q}/statm", "rb") as f:
                total += int(f.read().split()[1]) * _PAGE
            for t in os.listdir(f"/proc/{q}/task"):
                with open(f"/proc/{q}/task/{t}/children", encoding="ascii") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError, IndexError):
            continue
    return total


def _close_box(box: list[_Proc | None]) -> None:
    p = box[0]
    box[0] = None
    if p is not None:
        p.close()


# After the request the session sends END_REQUEST, a case without an input object; the checker answers it
# with END_REPLY. No case of a request can give that line (every case of a batch has its input object),
# so the reply to a request is the lines before it — however many the checker wrote (a request that does
# not parse as a whole is answered with one "bad" line, as in a one-shot run).
END_REQUEST = b"{}\n"
END_REPLY = b'{"bad":"no input object"}\n'
_READ_BYTES = 1 << 16


def _exchange(
    p: _Proc, request: bytes, seconds: float, expect: int | None = None
) -> tuple[list[bytes], bool]:
    """Send ``request`` and the end marker; (the reply lines, True) when the marker came back in time
    (after exactly ``expect`` lines when given); else the complete lines that did and False (the process
    is then in an unknown state).

    One loop, no thread: the request goes out in non-blocking writes (the first before any wait: a
    request that fits the pipe is written at once), the rest whenever the pipe has room again, while
    the reply is read as it comes (the checker answers early lines of a many-line request while later
    ones are still being written). A write to a process that is gone (EPIPE), the end of its output, or
    the wall-clock ``seconds`` ending first, ends the exchange as failed."""
    proc = p.proc
    assert proc is not None
    t0 = time.monotonic()
    pending = memoryview(request + END_REQUEST)
    in_fd, out_fd, poll = p.in_fd, p.out_fd, p.poll
    buf = bytearray()
    ok = failed = writing = False
    seen = 0  # complete lines read
    deadline = t0 + seconds
    try:
        while True:
            if pending:
                try:
                    pending = pending[os.write(in_fd, pending) :]
                except BlockingIOError:
                    pass
                except OSError:  # the process is gone (or closed its input): no complete answer
                    failed = True
                    break
                if pending and not writing:
                    poll.register(in_fd, select.POLLOUT)
                    writing = True
                elif not pending and writing:
                    poll.unregister(in_fd)
                    writing = False
            wait = deadline - time.monotonic()
            if wait <= 0:
                break
            ready = poll.poll(wait * 1000.0)
            if not any(fd == out_fd for fd, _ in ready):
                continue  # room in the input pipe (or its error: the next write says), or the time is up
            chunk = os.read(out_fd, _READ_BYTES)
            if not chunk:  # the process ended
                break
            buf += chunk
            seen += chunk.count(b"\n")
            if expect is not None and seen < expect + 1:
                continue
            if buf.endswith(END_REPLY) and (len(buf) == len(END_REPLY) or buf[-len(END_REPLY) - 1] == 10):
                ok = expect is None or seen == expect + 1
                del buf[-len(END_REPLY) :]
                if not ok:
                    buf.clear()
                break
            if expect is not None:  # the line after the expected ones is not the marker: out of step
                buf.clear()
                break
    finally:
        if writing:
            with contextlib.suppress(KeyError, ValueError, OSError):
                poll.unregister(in_fd)
    if not ok or failed:
        ok = False
        proc.terminate()
        with contextlib.suppress(Exception):
            proc.wait(timeout=5)
    p.used += time.monotonic() - t0
    lines = bytes(buf).split(b"\n")
    del lines[-1]  # after the last newline: nothing, or output cut short
    return lines, ok
