"""The run directory: layout, configuration, a SQLite ledger of task × stage status, atomic writes.

Layout of ``<run>/``::

    config.json            the PipelineConfig the run was started with
    run.json               what the run reads (benchmark directory), for the record
    ledger.sqlite          task × stage status (WAL journal)
    <stage>/<task_id>.json one result file per task and stage, written atomically

Resume semantics: a task × stage marked ``done`` whose result file exists is
never recomputed. Anything else (never started, ``running`` when the process
died, ``failed``) is redone from scratch: a stale result file of an unfinished
task is deleted before the task is scheduled again. The result file is written
(atomically) *before* the ledger marks the task done, so a crash in between
only costs a recomputation.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..runtime.files import atomic_write_bytes, atomic_write_json
from .config import ConfigMismatch, PipelineConfig, config_diff

__all__ = [
    "DONE",
    "FAILED",
    "RUNNING",
    "Ledger",
    "LedgerRow",
    "RunDir",
    "record_failure",
    "resolve_run_dir",
]

RUNNING = "running"
DONE = "done"
FAILED = "failed"

# Config sections that decide every stage's results so far; a resumed run must match them.
RESULT_SECTIONS: tuple[str, ...] = ("seed", "model", "engine", "inputs")


def resolve_run_dir(run: str, runs_dir: Path | str = "runs") -> Path:
    """``--run NAME`` is ``<runs_dir>/NAME``; a value containing a path separator is a path itself."""
    if os.sep in run or (os.altsep and os.altsep in run) or run.startswith("."):
        return Path(run)
    return Path(runs_dir) / run


@dataclass(frozen=True, slots=True)
class LedgerRow:
    stage: str
    task: str
    status: str
    attempts: int
    started: float | None
    finished: float | None
    seconds: float | None
    error: str | None
    summary: dict[str, Any] | None


_SCHEMA = """
CREATE TABLE IF NOT EXISTS status (
    stage    TEXT NOT NULL,
    task     TEXT NOT NULL,
    status   TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    started  REAL,
    finished REAL,
    seconds  REAL,
    error    TEXT,
    summary  TEXT,
    PRIMARY KEY (stage, task)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class Ledger:
    """Task × stage status in SQLite (WAL). Every state change is its own transaction.

    Only the parent process writes; readers (progress pollers, tests) may open
    the file concurrently.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn = sqlite3.connect(str(path), timeout=30.0, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA busy_timeout=30000")
        self.conn.executescript(_SCHEMA)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _tx(self, sql: str, args: Sequence[Any]) -> None:
        with self.conn:  # BEGIN ... COMMIT (ROLLBACK on error)
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute(sql, args)

    def start(self, stage: str, task: str) -> None:
        self._tx(
            """INSERT INTO status (stage, task, status, attempts, started, finished, seconds, error, summary)
               VALUES (?, ?, ?, 1, ?, NULL, NULL, NULL, NULL)
               ON CONFLICT (stage, task) DO UPDATE SET status = excluded.status, attempts = attempts + 1,
                   started = excluded.started, finished = NULL, seconds = NULL, error = NULL, summary = NULL""",
            (stage, task, RUNNING, time.time()),
        )

    def finish(self, stage: str, task: str, seconds: float, summary: Mapping[str, Any] | None = None) -> None:
        self._tx(
            "UPDATE status SET status = ?, finished = ?, seconds = ?, error = NULL, summary = ? "
            "WHERE stage = ? AND task = ?",
            (
                DONE,
                time.time(),
                seconds,
                json.dumps(summary, sort_keys=True) if summary else None,
                stage,
                task,
            ),
        )

    def fail(self, stage: str, task: str, error: str) -> None:
        self._tx(
            "UPDATE status SET status = ?, finished = ?, error = ? WHERE stage = ? AND task = ?",
            (FAILED, time.time(), error, stage, task),
        )

    def rows(self, stage: str) -> dict[str, LedgerRow]:
        cur = self.conn.execute(
            "SELECT stage, task, status, attempts, started, finished, seconds, error, summary "
            "FROM status WHERE stage = ? ORDER BY task",
            (stage,),
        )
        out: dict[str, LedgerRow] = {}
        for r in cur.fetchall():
            out[r[1]] = LedgerRow(*r[:8], json.loads(r[8]) if r[8] else None)
        return out

    def done(self, stage: str) -> set[str]:
        cur = self.conn.execute("SELECT task FROM status WHERE stage = ? AND status = ?", (stage, DONE))
        return {r[0] for r in cur.fetchall()}


class RunDir:
    """A run directory bound to one configuration (checked on every open)."""

    def __init__(self, root: Path, config: PipelineConfig, ledger: Ledger) -> None:
        self.root = root
        self.config = config
        self.ledger = ledger

    @classmethod
    def open(
        cls,
        root: Path | str,
        config: PipelineConfig,
        *,
        sections: Iterable[str] = RESULT_SECTIONS,
        new_run_hint: str = "a new --run name",
    ) -> RunDir:
        """Create the run directory, or reopen it after checking its config matches ``config``.

        Raises ``ConfigMismatch`` naming the differing settings when the run was
        started with other values for ``sections``.
        """
        r = Path(root)
        r.mkdir(parents=True, exist_ok=True)
        cfg_path = r / "config.json"
        new = config.to_json()
        if cfg_path.exists():
            try:
                old = json.loads(cfg_path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise ConfigMismatch(f"{cfg_path}: unreadable run config ({exc})") from None
            keys = tuple(sections)
            diffs = config_diff({k: old.get(k) for k in keys}, {k: new.get(k) for k in keys})
            if diffs:
                raise ConfigMismatch(
                    f"run {r} was started with a different configuration ({'; '.join(diffs)}); "
                    f"use {new_run_hint}, or the same settings to resume"
                )
        else:
            atomic_write_bytes(cfg_path, config.dumps().encode("utf-8"))
        return cls(r, config, Ledger(r / "ledger.sqlite"))

    def adopt(self, section: str, stage: str) -> None:
        """Record this run's settings for ``section`` (read by ``stage``) in ``config.json``.

        A stage's own settings may be chosen when the stage first runs (e.g.
        ``expand outputs --cap``); once a task of the stage is done they are
        fixed, and other values are refused like any config mismatch.
        """
        cfg_path = self.root / "config.json"
        try:
            saved = json.loads(cfg_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigMismatch(f"{cfg_path}: unreadable run config ({exc})") from None
        new = self.config.to_json()
        if saved.get(section) == new.get(section):
            return
        if self.ledger.done(stage):
            diffs = config_diff({section: saved.get(section)}, {section: new.get(section)})
            raise ConfigMismatch(
                f"run {self.root} already has {stage} results made with other settings "
                f"({'; '.join(diffs)}); use a new run, or the same settings to resume"
            )
        saved[section] = new.get(section)
        atomic_write_bytes(
            cfg_path, (json.dumps(saved, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
        )

    def close(self) -> None:
        self.ledger.close()

    def __enter__(self) -> RunDir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def stage_dir(self, stage: str) -> Path:
        return self.root / stage

    def result_path(self, stage: str, task: str) -> Path:
        return self.stage_dir(stage) / f"{task}.json"

    def record_inputs(self, **info: str) -> None:
        """Note what the run reads (e.g. ``benchmark=...``) in ``run.json`` (first value wins)."""
        path = self.root / "run.json"
        data: dict[str, str] = {}
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {}
        changed = False
        for k, v in info.items():
            if k not in data:
                data[k] = v
                changed = True
        if changed:
            atomic_write_json(path, data)

    def pending(self, stage: str, tasks: Sequence[str]) -> tuple[list[str], list[str]]:
        """(tasks to compute, tasks already finished) for ``stage``, in the given order.

        A task is finished only when the ledger says so *and* its result file
        exists; partial output of an unfinished task is discarded here.
        """
        done = self.ledger.done(stage)
        todo: list[str] = []
        finished: list[str] = []
        for t in tasks:
            path = self.result_path(stage, t)
            if t in done and path.exists():
                finished.append(t)
            else:
                path.unlink(missing_ok=True)
                todo.append(t)
        return todo, finished

    def write_result(
        self, stage: str, task: str, document: Any, seconds: float, summary: Mapping[str, Any] | None = None
    ) -> Path:
        """Write a task's result atomically, then mark it done (in that order)."""
        path = self.result_path(stage, task)
        atomic_write_json(path, document)
        self.ledger.finish(stage, task, seconds, summary)
        return path

    def read_result(self, stage: str, task: str) -> Any:
        return json.loads(self.result_path(stage, task).read_text(encoding="utf-8"))


def result_recorder(
    rundir: RunDir,
    stage: str,
    result_type: type,
    summarize: Callable[[Any], Any],
    computed: list[str],
    failed: dict[str, str],
    progress: Callable[[str, str], None] | None = None,
) -> Callable[[str, Any, str | None, float], None]:
    """The executor callback every stage uses: write a worker's result atomically and mark
    the task done, or record why it failed; ``computed``/``failed`` are filled in place."""

    def on_done(key: str, result: Any, error: str | None, seconds: float) -> None:
        if error is None and isinstance(result, result_type):
            doc = result.document
            try:
                rundir.write_result(stage, key, doc, result.seconds, summarize(doc))
            except OSError as exc:
                error = f"cannot write result: {exc}"
            else:
                computed.append(key)
                if progress:
                    progress(key, "done")
                return
        record_failure(rundir, stage, key, error or "worker returned no result", failed, progress)

    return on_done


def record_failure(
    rundir: RunDir,
    stage: str,
    task: str,
    msg: str,
    failed: dict[str, str],
    progress: Callable[[str, str], None] | None = None,
) -> None:
    """Mark a task failed in the ledger, in ``failed`` and on the progress display."""
    rundir.ledger.fail(stage, task, msg)
    failed[task] = msg
    if progress:
        progress(task, FAILED)
