"""Running Lean on generated files: the sandbox, limits, bisection, caching.

* ``run_process`` runs a command in a fresh sandbox (``veriscale.sandbox``:
  private directory, read-only filesystem elsewhere, no network, allow-listed
  environment, the whole process tree killed at the end or on timeout — a
  candidate's ``#eval`` can run arbitrary IO), with an address-space limit.
  Output (stdout and stderr, in one stream so their order is kept) goes to a
  temporary file, read back up to a cap, so a runaway print cannot exhaust our
  memory.
* ``LeanRunner`` puts the file text into the sandbox and runs the project's
  ``lean`` there with the environment ``lake env`` sets (probed once, see
  ``environment``); completed runs are cached in SQLite, keyed by a hash of the
  file text, the command and the project's toolchain identity.
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
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from ....sandbox import Sandbox, SandboxLimits
from .environment import lean_environment
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


def run_process(
    cmd: Sequence[str],
    *,
    timeout: float,
    memory_bytes: int | None = None,
    max_output: int = MAX_OUTPUT_BYTES,
    env: Mapping[str, str] | None = None,
    files: Mapping[str, str] | None = None,
    keep_in: Path | None = None,
) -> RunResult:
    """Run ``cmd`` in a fresh sandbox holding ``files``; on timeout kill everything it started.

    The sandbox's private directory is the working directory (``cmd`` names
    ``files`` relatively); ``env`` adds to the sandbox's allow-listed
    environment. stdout and stderr go to one temporary file, so their order is
    kept and a runaway print is cut at ``max_output`` by the file-size limit.
    ``keep_in``: copy ``files`` there afterwards (debugging).
    """
    limits = SandboxLimits(
        wall_seconds=timeout,
        cpu_seconds=timeout * (os.cpu_count() or 1) + 1,  # Lean elaborates on several threads
        memory_bytes=memory_bytes,
        file_bytes=max_output + 1,
        open_files=None,  # Lean opens every imported .olean
        processes=None,
        output_bytes=max_output,
    )
    start = time.monotonic()
    with Sandbox(limits, keep_uid=True, env=env) as box, tempfile.TemporaryFile() as out:
        for name, text in (files or {}).items():
            box.put(name, text)
        proc = box.spawn(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            proc.finish()  # terminates the whole tree if still running; bounded wait
        rc, sig, _ = proc.status()
        if keep_in is not None:
            keep_in.mkdir(parents=True, exist_ok=True)
            for name in files or {}:
                with contextlib.suppress(OSError):
                    shutil.copyfile(box.path / name, keep_in / name)
        out.seek(0)
        data = out.read(max_output + 1)
    code: int | None = None if timed_out else (rc if rc is not None else -(sig or 0))
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
    """``RunFn`` that elaborates the given file text with ``project``'s Lean, in the sandbox."""

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
        environment = lean_environment(self.project)
        name = f"Candidate_{key[:12]}.lean"
        cmd = [environment.lean, name]
        if self.stdbuf:
            cmd = [self.stdbuf, "-oL", "-eL", *cmd]
        self.runs += 1
        result = run_process(
            cmd,
            timeout=timeout,
            memory_bytes=self.memory_mb * 1024 * 1024 if self.memory_mb > 0 else None,
            env=environment.as_dict(),
            files={name: text},
            keep_in=self.work_dir if self.keep_files else None,
        )
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
