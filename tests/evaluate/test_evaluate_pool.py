"""The evaluation pool survives a job that kills its worker, and loses only that job."""

from __future__ import annotations

import os
import time
from typing import Any

from veriscale.evaluate.generations import Generation
from veriscale.evaluate.harness import Job, _Pool


def _job(tid: str) -> Job:
    g = Generation(tid, 0, ("code",), code="0")
    return Job("suite", "/nonexistent", tid, "code", (g,), "native", {}, True, None)


def crash_on_boom(job: Job) -> list[dict[str, Any]]:
    """A worker function: exits the worker process abruptly (as the OOM killer would) on one job."""
    if job.task_id == "boom":
        os._exit(1)
    time.sleep(0.3)  # still in flight when the other worker dies
    return [{"task_id": job.task_id, "ok": True}]


def test_a_job_that_kills_its_worker_is_the_only_one_lost() -> None:
    ids = ["a", "boom", "b", "c", "d"]
    pool = _Pool(2)
    ticks: list[int] = []
    try:
        out = pool.map([_job(t) for t in ids], lambda: ticks.append(1), fn=crash_on_boom)
    finally:
        pool.close()
    assert len(ticks) == len(ids)
    by_id = {t: rows for t, rows in zip(ids, out)}
    for t in ("a", "b", "c", "d"):
        assert by_id[t] == [{"task_id": t, "ok": True}], t
    (lost,) = by_id["boom"]
    m = lost["metrics"]["code"]
    assert not m.lower and "worker process died" in m.reason
