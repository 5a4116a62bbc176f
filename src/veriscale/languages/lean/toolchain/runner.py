"""Running Lean on generated files: limits, process-group kill, bisection, caching.

* ``run_process`` starts a command in its own process group (``lake`` starts
  ``lean`` as a child: killing only ``lake`` would leave ``lean`` running, as
  the reference pipeline does), with a wall-clock limit and an address-space
  limit set in the child before ``exec``. Output (stdout and stderr, in one
  stream so their order is kept) goes to a temporary file, read back up to a
  cap, so a runaway print cannot exhaust our memory.
* ``LeanRunner`` writes a file into a work directory, runs ``lake env lean``
  on it and caches completed runs in SQLite, keyed by a hash of the file
  text, the command and the project's toolchain identity.
* ``run_bisected`` runs a batch of cases through an ``attempt`` function and,
  when the batch times out or crashes, reruns only the cases without results,
  splitting them in halves when a rerun makes no progress. One slow case
  therefore costs O(log n) extra runs instead of sinking the whole batch.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from .project import LeanProject

__all__ = [
    "DEFAULT_MEMORY_MB",
    "DEFAULT_TIMEOUT",
    "ENV_CACHE_DIR",
    "ENV_MEMORY_MB",
    "Attempt",
    "Failure",
    "LeanRunner",
    "RunCache",
    "RunFn",
    "RunResult",
    "default_cache_dir",
    "run_bisected",
    "run_process",
]

DEFAULT_TIMEOUT = 120.0  # seconds per file, as Verina's harness
DEFAULT_MEMORY_MB = 16384  # address space; Mathlib's .olean files are memory-mapped (several GB)
MAX_OUTPUT_BYTES = 64 * 1024 * 1024
ENV_CACHE_DIR = "VERISCALE_CACHE_DIR"
ENV_MEMORY_MB = "VERISCALE_LEAN_MEMORY_MB"


@dataclass(frozen=True, slots=True)
class RunResult:
    output: str
    exit_code: int | None  # negative: killed by that signal
    timed_out: bool = False
    seconds: float = 0.0
    cached: bool = False
    truncated: bool = False

    @property
    def killed_by_signal(self) -> bool:
        # lake reports a child's death by signal as 128+N
        return self.exit_code is not None and (self.exit_code < 0 or self.exit_code >= 128)


# (file text, time limit in seconds) -> result. Tests inject fakes of this shape.
RunFn = Callable[[str, float], RunResult]


def _limit_memory(memory_bytes: int) -> Callable[[], None]:
    def apply() -> None:  # runs in the child between fork and exec
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))

    return apply


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def run_process(
    cmd: Sequence[str],
    *,
    cwd: str | Path | None = None,
    timeout: float,
    memory_bytes: int | None = None,
    max_output: int = MAX_OUTPUT_BYTES,
    env: dict[str, str] | None = None,
) -> RunResult:
    """Run ``cmd`` in a new process group; on timeout kill the whole group."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(
            list(cmd),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group, led by proc.pid
            preexec_fn=_limit_memory(memory_bytes) if memory_bytes else None,
            env=env,
        )
        timed_out = False
        try:
            code: int | None = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(proc.pid)
            proc.wait()
            code = None
        except BaseException:
            _kill_group(proc.pid)
            proc.wait()
            raise
        _kill_group(proc.pid)  # grandchildren that outlived their parent
        out.seek(0)
        data = out.read(max_output + 1)
    truncated = len(data) > max_output
    text = data[:max_output].decode("utf-8", errors="replace")
    return RunResult(text, code, timed_out, time.monotonic() - start, truncated=truncated)


def default_cache_dir() -> Path:
    explicit = os.environ.get(ENV_CACHE_DIR, "").strip()
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "veriscale"


class RunCache:
    """Completed Lean runs by content hash, in one small SQLite file (safe across processes)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(str(self.path), timeout=30.0, check_same_thread=False)
        with self._lock, self._conn:
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS runs (key TEXT PRIMARY KEY, exit_code INTEGER, "
                "output TEXT NOT NULL, seconds REAL NOT NULL)"
            )

    def get(self, key: str) -> RunResult | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT exit_code, output, seconds FROM runs WHERE key = ?", (key,)
            ).fetchone()
        if row is None:
            return None
        return RunResult(row[1], row[0], False, row[2], cached=True)

    def put(self, key: str, result: RunResult) -> None:
        with self._lock, self._conn:
            self._conn.execute(
                "INSERT OR REPLACE INTO runs (key, exit_code, output, seconds) VALUES (?, ?, ?, ?)",
                (key, result.exit_code, result.output, result.seconds),
            )

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _cacheable(r: RunResult) -> bool:
    # Timeouts and crashes depend on the machine and its load: never cached.
    return not r.timed_out and not r.truncated and r.exit_code in (0, 1)


class LeanRunner:
    """``RunFn`` that runs ``lake env lean`` in ``project`` on the given file text."""

    def __init__(
        self,
        project: LeanProject,
        *,
        memory_mb: int | None = None,
        cache: RunCache | None = None,
        work_dir: str | Path | None = None,
        keep_files: bool = False,
        line_buffered: bool = True,
    ) -> None:
        self.project = project
        if memory_mb is None:
            env_mb = os.environ.get(ENV_MEMORY_MB, "").strip()
            memory_mb = int(env_mb) if env_mb.isdigit() else DEFAULT_MEMORY_MB
        self.memory_mb = memory_mb
        self.cache = cache
        self.work_dir = Path(work_dir) if work_dir else Path(tempfile.gettempdir()) / "veriscale-lean"
        self.keep_files = keep_files
        # Line-buffered stdout keeps the output of a killed run up to its last complete line.
        self.stdbuf = shutil.which("stdbuf") if line_buffered else None
        self.runs = 0  # processes actually started (cache hits excluded)

    def key(self, text: str) -> str:
        blob = json.dumps([self.project.identity(), "lake env lean", self.memory_mb, text])
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def __call__(self, text: str, timeout: float) -> RunResult:
        key = self.key(text)
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                return hit
        self.work_dir.mkdir(parents=True, exist_ok=True)
        # per process and thread: a parallel run of the same text must not delete our file
        path = self.work_dir / f"vs_{key[:20]}_{os.getpid()}_{threading.get_ident()}.lean"
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        cmd = self.project.command(path)
        if self.stdbuf:
            cmd = [self.stdbuf, "-oL", "-eL", *cmd]
        try:
            self.runs += 1
            result = run_process(
                cmd,
                cwd=self.project.root,
                timeout=timeout,
                memory_bytes=self.memory_mb * 1024 * 1024 if self.memory_mb > 0 else None,
            )
        finally:
            if not self.keep_files:
                path.unlink(missing_ok=True)
        if self.cache is not None and _cacheable(result):
            self.cache.put(key, result)
        return result


# ---------------------------------------------------------------- bisection

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a case got no result: "timeout", "crash", "fatal" (the whole file failed the
    same way every time, e.g. an import error) or "missing" (no marker, no known cause)."""

    kind: str
    detail: str = ""


@dataclass(frozen=True)
class Attempt(Generic[R]):
    """One run of a batch: results by position in the batch, and why the rest have none."""

    results: dict[int, R] = field(default_factory=dict)
    failure: str = ""  # "", "timeout", "crash" (retryable) or "fatal" (not)
    detail: str = ""


_RETRYABLE = ("timeout", "crash")


def run_bisected(items: Sequence[T], attempt: Callable[[Sequence[T]], Attempt[R]]) -> list[R | Failure]:
    """Results for every item, rerunning and splitting batches that time out or crash."""
    out: list[R | Failure | None] = [None] * len(items)

    def solve(idxs: list[int]) -> None:
        att = attempt([items[i] for i in idxs])
        for local, res in att.results.items():
            out[idxs[local]] = res
        missing = [idxs[j] for j in range(len(idxs)) if j not in att.results]
        if not missing:
            return
        if att.failure not in _RETRYABLE:
            for i in missing:
                out[i] = Failure(att.failure or "missing", att.detail)
            return
        if len(idxs) == 1:
            out[missing[0]] = Failure(att.failure, att.detail)
            return
        if len(missing) < len(idxs):
            solve(missing)  # progress: the rest may well fit now
            return
        half = len(missing) // 2
        solve(missing[:half])
        solve(missing[half:])

    if items:
        solve(list(range(len(items))))
    return [r if r is not None else Failure("missing") for r in out]
