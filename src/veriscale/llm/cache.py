"""Persistent response cache: SQLite in WAL mode, one row per request key.

The key is a SHA-256 of a canonical JSON of model, messages, sampling
parameters, sample index, re-ask attempt and prompt-template version, so a rerun
with the same inputs replays the same answers without a single HTTP request.
Only successful responses are stored; endpoint, key and timing never are.
Several threads and several processes may write at once: each thread has its
own connection, writes are single autocommit statements, and SQLite's busy
timeout serialises writers across processes.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from .records import ChatRequest, TokenUsage

__all__ = ["CACHE_SCHEMA", "CachedAnswer", "ResponseCache", "request_key"]

CACHE_SCHEMA = 1

_DDL = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    stage TEXT NOT NULL,
    model TEXT NOT NULL,
    template TEXT NOT NULL,
    text TEXT NOT NULL,
    finish_reason TEXT,
    usage TEXT NOT NULL,
    created REAL NOT NULL
)
"""


def request_key(req: ChatRequest) -> str:
    payload = {
        "schema": CACHE_SCHEMA,
        "model": req.model,
        "messages": [dict(sorted(m.items())) for m in req.messages],
        "sampling": req.sampling(),
        "sample": req.sample,
        "attempt": req.attempt,
        "template": req.template,
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class CachedAnswer:
    __slots__ = ("finish_reason", "text", "usage")

    def __init__(self, text: str, finish_reason: str | None, usage: TokenUsage) -> None:
        self.text = text
        self.finish_reason = finish_reason
        self.usage = usage


class ResponseCache:
    def __init__(self, path: Path | str, *, busy_timeout: float = 60.0) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._busy_ms = int(busy_timeout * 1000)
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        conn = self._conn()
        conn.execute(_DDL)

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(
                self.path, timeout=self._busy_ms / 1000, isolation_level=None, check_same_thread=False
            )
            conn.execute(f"PRAGMA busy_timeout={self._busy_ms}")
            # WAL lets readers proceed while another process writes; NORMAL sync is safe under WAL.
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    def get(self, req: ChatRequest) -> CachedAnswer | None:
        row = (
            self._conn()
            .execute("SELECT text, finish_reason, usage FROM responses WHERE key = ?", (request_key(req),))
            .fetchone()
        )
        if row is None:
            return None
        try:
            usage = TokenUsage.from_json(json.loads(row[2]))
        except (ValueError, TypeError):
            usage = TokenUsage()
        return CachedAnswer(row[0], row[1], usage)

    def put(self, req: ChatRequest, text: str, finish_reason: str | None, usage: TokenUsage) -> None:
        # First writer wins: a concurrent duplicate request must not change a replayed answer.
        self._conn().execute(
            "INSERT OR IGNORE INTO responses (key, stage, model, template, text, finish_reason, usage, created)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                request_key(req),
                req.stage,
                req.model,
                req.template,
                text,
                finish_reason,
                json.dumps(usage.to_json(), sort_keys=True),
                time.time(),
            ),
        )

    def __len__(self) -> int:
        return int(self._conn().execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def stats(self) -> dict[str, Any]:
        rows = (
            self._conn()
            .execute(
                "SELECT stage, model, COUNT(*) FROM responses GROUP BY stage, model ORDER BY stage, model"
            )
            .fetchall()
        )
        return {
            "path": str(self.path),
            "entries": sum(r[2] for r in rows),
            "by_stage_model": [{"stage": r[0], "model": r[1], "entries": r[2]} for r in rows],
        }

    def close(self) -> None:
        with self._lock:
            conns, self._all = self._all, []
        for c in conns:
            try:
                c.close()
            except sqlite3.Error:
                pass
        self._local = threading.local()

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
