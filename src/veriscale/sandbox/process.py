"""Running one untrusted process: private directory, allow-listed environment, limits, tree kill.

``Sandbox`` is a context manager owning a fresh private directory (the
process's cwd, ``HOME`` and ``TMPDIR``; removed on exit). ``spawn`` starts a
process through the init helper (``helper_source``) and returns a
``SandboxProcess`` for interactive use; ``run`` feeds stdin, collects
stdout/stderr up to their caps and enforces the wall-clock limit, returning a
``SandboxResult``.

Guarantees with the helper (the normal case on Linux with a C compiler):
the process sees every mount read-only except its private directory and has
no network (where the kernel gives new mount and network namespaces: as root,
or with unprivileged user namespaces; `Isolation` says what this machine gives);
when the target ends, is timed out, or veriscale dies (even by SIGKILL, via
the helper's parent-death signal), every process it started is SIGKILLed,
including ones that called ``setsid`` or double-forked (the helper is their
subreaper). The one escape is a process that kills the helper itself first:
impossible when veriscale runs as root (the target then runs as an
unprivileged uid), possible for a same-uid target that can send signals —
which is why callers also refuse source that can spawn or signal processes.
Without the helper (no C compiler) only the target's process group is killed.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .helper import Isolation, helper_path, isolation
from .limits import SandboxLimits

__all__ = ["ENV_ALLOW", "Sandbox", "SandboxProcess", "SandboxResult", "sandbox_env"]

# The only variables taken from veriscale's environment; nothing else (no API keys, no tokens).
ENV_ALLOW: tuple[str, ...] = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ")
_DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
SETUP_FAILURE = 125  # the helper's own exit status for "could not set up"
_GRACE = 5.0  # seconds the helper gets to kill the tree before it is killed itself


def sandbox_env(workdir: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a sandboxed process: allow-listed variables, private HOME/TMPDIR, ``extra``."""
    env = {k: os.environ[k] for k in ENV_ALLOW if k in os.environ}
    env.setdefault("PATH", _DEFAULT_PATH)
    env["HOME"] = env["TMPDIR"] = str(workdir)
    if extra:
        env.update(extra)
    return env


@dataclass
class SandboxResult:
    """How a sandboxed run ended.

    ``returncode``: exit status when the process exited; ``signal``: the signal that
    killed it; ``timed_out``: the wall-clock limit ended it; ``limit``: which limit
    ended it, if one is recognisable ("time", "cpu", "file_size", "output");
    ``setup_error``: the sandbox itself could not start the program.
    """

    returncode: int | None
    signal: int | None
    timed_out: bool
    limit: str | None
    stdout: bytes
    stderr: bytes
    seconds: float
    stdout_truncated: bool = False
    setup_error: str = ""

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out and self.limit is None and not self.setup_error

    def describe(self) -> str:
        """One line for reports."""
        if self.setup_error:
            return f"sandbox setup failed: {self.setup_error}"
        if self.timed_out:
            return "time limit exceeded"
        if self.limit == "output":
            return "output limit exceeded"
        if self.limit == "cpu":
            return "CPU time limit exceeded"
        if self.limit == "file_size":
            return "file size limit exceeded"
        if self.signal is not None:
            return f"killed by {_signame(self.signal)}"
        return f"exit status {self.returncode}"


def _signame(sig: int) -> str:
    try:
        return signal.Signals(sig).name
    except ValueError:
        return f"signal {sig}"


def _limit_of_signal(sig: int | None) -> str | None:
    if sig == signal.SIGXCPU:
        return "cpu"
    if sig == signal.SIGXFSZ:
        return "file_size"
    return None


@dataclass
class SandboxProcess:
    """A running sandboxed process (``popen`` is the helper, or the target without one)."""

    popen: subprocess.Popen[bytes]
    via_helper: bool
    started: float = field(default_factory=time.monotonic)
    terminated: bool = False

    @property
    def pid(self) -> int:
        """The helper's pid (its process tree holds the target), or the target's without a helper."""
        return self.popen.pid

    @property
    def stdin(self) -> IO[bytes] | None:
        return self.popen.stdin

    @property
    def stdout(self) -> IO[bytes] | None:
        return self.popen.stdout

    @property
    def stderr(self) -> IO[bytes] | None:
        return self.popen.stderr

    def poll(self) -> int | None:
        return self.popen.poll()

    def terminate(self) -> None:
        """End the target and everything it started (idempotent)."""
        self.terminated = True
        if self.popen.poll() is not None:
            return
        if self.via_helper:
            with contextlib.suppress(ProcessLookupError):
                self.popen.send_signal(signal.SIGTERM)  # the helper kills the whole tree, then exits
        else:
            self._kill_group()

    def _kill_group(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.popen.kill()

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the end; after ``terminate`` a stuck helper is killed after a grace period."""
        try:
            return self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            if not self.terminated:
                raise
        self._kill_group()
        return self.popen.wait()

    def finish(self) -> None:
        """Make sure nothing is left: terminate, wait (bounded), close pipes."""
        if self.popen.poll() is None:
            self.terminate()
            self.wait(timeout=_GRACE)
        for f in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if f is not None:
                with contextlib.suppress(OSError, ValueError):
                    f.close()

    def status(self) -> tuple[int | None, int | None, str]:
        """(exit code, signal, helper setup error) once ended."""
        rc = self.popen.returncode
        if rc is None:
            return None, None, ""
        if rc < 0:
            return None, -rc, ""
        return rc, None, ""


class Sandbox:
    """A private directory plus the means to run untrusted programs in it.

    ``keep_uid=True`` runs as veriscale's own uid even when root (for trusted tools
    such as ``rustc`` that need veriscale's files; the input must be vetted).
    ``env`` adds variables to the allow-listed environment.
    """

    def __init__(
        self,
        limits: SandboxLimits | None = None,
        *,
        keep_uid: bool = False,
        env: Mapping[str, str] | None = None,
        parent_dir: Path | str | None = None,
    ) -> None:
        self.limits = limits or SandboxLimits()
        self.isolation: Isolation = isolation()
        self.uid = None if keep_uid else self.isolation.drop_uid
        root = parent_dir or os.environ.get("VERISCALE_SANDBOX_TMP") or None
        self.path = Path(os.path.realpath(tempfile.mkdtemp(prefix="vs-sandbox-", dir=root)))
        if self.uid is not None:
            os.chown(self.path, self.uid, self.uid)
        self.env = sandbox_env(self.path, env)

    # ---- files
    def put(self, name: str, data: bytes | str | Path, *, executable: bool = False) -> Path:
        """Place a file in the private directory (a ``Path`` is copied); returns its path."""
        dest = self.path / name
        if isinstance(data, Path):
            shutil.copyfile(data, dest)
        else:
            dest.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(dest, 0o755 if executable else 0o644)
        return dest

    def close(self) -> None:
        _remove_tree(self.path)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- processes
    def _helper_argv(self, lim: SandboxLimits) -> list[str]:
        exe = helper_path() if self.isolation.helper else None
        assert exe is not None
        argv = [str(exe), "-P", str(os.getpid()), "-c", str(lim.cpu_limit())]
        for flag, value in (("-a", lim.memory_bytes), ("-f", lim.file_bytes), ("-n", lim.open_files),
                            ("-p", lim.processes)):  # fmt: skip
            if value is not None:
                argv += [flag, str(int(value))]
        if lim.nice:
            argv += ["-y", str(lim.nice)]
        if self.uid is not None:
            argv += ["-u", str(self.uid), "-g", str(self.uid)]
        if not lim.network:
            argv.append("-N")
        if self.isolation.filesystem:
            argv += ["-W", str(self.path)]
        return [*argv, "--"]

    def spawn(
        self,
        argv: Sequence[str],
        *,
        stdin: int | IO[Any] | None = subprocess.PIPE,
        stdout: int | IO[Any] | None = subprocess.PIPE,
        stderr: int | IO[Any] | None = subprocess.PIPE,
        limits: SandboxLimits | None = None,
    ) -> SandboxProcess:
        """Start ``argv`` in the sandbox (cwd = the private directory)."""
        lim = limits or self.limits
        if self.isolation.helper:
            return SandboxProcess(
                subprocess.Popen(
                    [*self._helper_argv(lim), *argv],
                    stdin=stdin,
                    stdout=stdout,
                    stderr=stderr,
                    cwd=self.path,
                    env=self.env,
                    close_fds=True,
                ),
                via_helper=True,
            )
        return SandboxProcess(
            subprocess.Popen(
                list(argv),
                stdin=stdin,
                stdout=stdout,
                stderr=stderr,
                cwd=self.path,
                env=self.env,
                close_fds=True,
                start_new_session=True,
                preexec_fn=_fallback_preexec(lim, self.uid),
            ),
            via_helper=False,
        )

    def run(
        self, argv: Sequence[str], stdin: bytes = b"", *, limits: SandboxLimits | None = None
    ) -> SandboxResult:
        """Run ``argv`` to its end under the limits and collect its output."""
        lim = limits or self.limits
        t0 = time.monotonic()
        try:
            proc = self.spawn(argv, limits=lim)
        except OSError as exc:  # only without the helper: the program itself could not be started
            return SandboxResult(127, None, False, None, b"", str(exc).encode(), 0.0, setup_error=str(exc))
        writer = _feed(proc.popen, stdin)
        out, err = bytearray(), bytearray()
        truncated = timed_out = False
        limit: str | None = None
        assert proc.stdout is not None and proc.stderr is not None
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout.fileno(), selectors.EVENT_READ, out)
        sel.register(proc.stderr.fileno(), selectors.EVENT_READ, err)
        deadline = t0 + lim.wall_seconds
        try:
            while sel.get_map():
                wait = deadline - time.monotonic()
                if wait <= 0 and not proc.terminated:
                    timed_out, limit = True, "time"
                    proc.terminate()
                    deadline = time.monotonic() + _GRACE
                    continue
                if wait <= 0:
                    break  # the helper did not finish within the grace period
                for key, _ in sel.select(timeout=wait):
                    chunk = os.read(key.fd, 1 << 16)
                    if not chunk:
                        sel.unregister(key.fd)
                        continue
                    buf: bytearray = key.data
                    buf += chunk
                    if buf is err and len(err) > 2 * lim.stderr_bytes:
                        del err[: len(err) - lim.stderr_bytes]
                    if buf is out and len(out) > lim.output_bytes and not proc.terminated:
                        truncated, limit = True, "output"
                        del out[lim.output_bytes :]
                        proc.terminate()
                        deadline = time.monotonic() + _GRACE
                    elif buf is out and proc.terminated:
                        del out[lim.output_bytes :]
        finally:
            sel.close()
            proc.finish()
            writer.join(timeout=_GRACE)
        rc, sig, _ = proc.status()
        stderr = bytes(err[-lim.stderr_bytes :])
        setup = ""
        if proc.via_helper and rc == SETUP_FAILURE and b"veriscale-sandbox:" in stderr:
            setup = (
                stderr.decode("utf-8", "replace").split("veriscale-sandbox:", 1)[1].strip().splitlines()[0]
            )
        if limit is None:
            limit = _limit_of_signal(sig)
        return SandboxResult(rc, sig, timed_out, limit, bytes(out), stderr, time.monotonic() - t0,
                             truncated, setup)  # fmt: skip


def _feed(proc: subprocess.Popen[bytes], data: bytes) -> threading.Thread:
    """Write stdin from a thread (a target that does not read must not block us), then close it."""

    def run() -> None:
        if proc.stdin is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if data:
                proc.stdin.write(data)
            proc.stdin.close()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def _fallback_preexec(lim: SandboxLimits, uid: int | None) -> Any:
    """rlimits (and uid drop) applied in the child when there is no helper."""
    import resource

    def fn() -> None:
        def set_(res: int, v: int | None, extra: int = 0) -> None:
            if v is not None:
                resource.setrlimit(res, (int(v), int(v) + extra))

        set_(resource.RLIMIT_CORE, 0)
        set_(resource.RLIMIT_AS, lim.memory_bytes)
        set_(resource.RLIMIT_CPU, lim.cpu_limit(), 1)
        set_(resource.RLIMIT_FSIZE, lim.file_bytes)
        set_(resource.RLIMIT_NOFILE, lim.open_files)
        if lim.nice:
            os.nice(lim.nice)
        if uid is not None:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            set_(resource.RLIMIT_NPROC, lim.processes)

    return fn


def _remove_tree(path: Path) -> None:
    """Remove the private directory even if the program made parts of it unreadable."""

    def fix(func: Any, p: str, _exc: Any) -> None:
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(p), 0o700)
            os.chmod(p, 0o700)
        with contextlib.suppress(OSError):
            if os.path.isdir(p) and not os.path.islink(p):
                shutil.rmtree(p, ignore_errors=True)
            else:
                os.unlink(p)

    if path.exists():
        shutil.rmtree(path, onerror=fix)
