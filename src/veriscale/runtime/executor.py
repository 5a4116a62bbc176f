"""Executors: run one function over many jobs, in parallel, handing each result back to the parent.

* ``SerialExecutor`` runs jobs in this process, in order (debugging, tests).
* ``LocalExecutor`` uses a process pool started with ``spawn`` (safe with
  threads and on every platform); two workers by default.
* ``RayExecutor`` runs jobs as Ray tasks (``pip install 'veriscale[ray]'``); ray
  is imported only when this executor runs. Without an address it starts a
  local Ray runtime with ``workers`` CPUs and shuts it down afterwards.

The function must be importable at module level (workers import it by name)
and its job and result picklable. A job that raises is reported as an error
string; the others go on. ``on_done(key, result, error, seconds)`` is called in
the parent, in completion order, as each job finishes: that is where results
are written, so nothing is lost when a run is interrupted.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol

from .limits import cap_address_space, worker_memory_bytes

__all__ = [
    "EXECUTORS",
    "Executor",
    "ExecutorUnavailable",
    "LocalExecutor",
    "OnDone",
    "RayExecutor",
    "SerialExecutor",
    "make_executor",
]

OnDone = Callable[[str, Any, "str | None", float], None]


class ExecutorUnavailable(RuntimeError):
    """The requested backend cannot be used here (e.g. ray is not installed)."""


class Executor(Protocol):
    name: str
    workers: int

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[tuple[str, Any]], on_done: OnDone) -> None: ...


def _describe(exc: BaseException) -> str:
    last = traceback.format_exception_only(type(exc), exc)[-1].strip()
    return last[:2000]


def _timed(fn: Callable[[Any], Any], job: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    return fn(job), time.perf_counter() - t0


@dataclass
class SerialExecutor:
    name: str = "serial"
    workers: int = 1

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[tuple[str, Any]], on_done: OnDone) -> None:
        for key, job in jobs:
            t0 = time.perf_counter()
            try:
                result = fn(job)
            except Exception as exc:
                on_done(key, None, _describe(exc), time.perf_counter() - t0)
                continue
            on_done(key, result, None, time.perf_counter() - t0)


@dataclass
class LocalExecutor:
    """A spawn-started process pool. A pool broken by a dying worker is restarted (bounded); each
    worker's address space is capped at its share of the machine's memory."""

    workers: int = 2
    name: str = "local"
    max_restarts: int = 2

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[tuple[str, Any]], on_done: OnDone) -> None:
        remaining = list(jobs)
        restarts = 0
        while remaining:
            broken = self._run_pool(fn, remaining, on_done, self.workers)
            if not broken:
                return
            restarts += 1
            if restarts >= self.max_restarts:
                self._isolate(fn, broken, on_done)
                return
            remaining = broken

    def _isolate(self, fn: Callable[[Any], Any], jobs: list[tuple[str, Any]], on_done: OnDone) -> None:
        """Last attempt: a dead worker breaks every job in flight or queued, so run the rest in one
        worker, in order, and re-run the first job that breaks alone. Only a job that kills its
        worker by itself is then lost."""
        remaining = list(jobs)
        while remaining:
            broken = self._run_pool(fn, remaining, on_done, 1)
            if not broken:
                return
            first, remaining = broken[0], broken[1:]
            if self._run_pool(fn, [first], on_done, 1):
                on_done(first[0], None, "worker process died (pool broken too often)", 0.0)

    def _run_pool(
        self, fn: Callable[[Any], Any], jobs: list[tuple[str, Any]], on_done: OnDone, workers: int
    ) -> list[tuple[str, Any]]:
        ctx = multiprocessing.get_context("spawn")
        broken: list[tuple[str, Any]] = []
        order = {key: i for i, (key, _) in enumerate(jobs)}
        with ProcessPoolExecutor(
            max_workers=max(1, workers),
            mp_context=ctx,
            initializer=cap_address_space,
            initargs=(worker_memory_bytes(max(1, self.workers)),),
        ) as pool:
            futures: dict[Future[Any], tuple[str, Any]] = {
                pool.submit(_timed, fn, job): (key, job) for key, job in jobs
            }
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                # Report in submission order among those finished together (stable logs).
                for fut in sorted(done, key=lambda f: order[futures[f][0]]):
                    key, job = futures[fut]
                    try:
                        result, seconds = fut.result()
                    except BrokenProcessPool:
                        broken.append((key, job))
                        continue
                    except Exception as exc:
                        on_done(key, None, _describe(exc), 0.0)
                        continue
                    on_done(key, result, None, seconds)
        broken.sort(key=lambda kj: order[kj[0]])
        return broken


@dataclass
class RayExecutor:
    """Jobs as Ray tasks. ``address`` None starts (and stops) a local runtime with ``workers`` CPUs."""

    workers: int = 2
    address: str | None = None
    name: str = "ray"

    @staticmethod
    def available() -> bool:
        try:
            import ray  # noqa: F401
        except ImportError:
            return False
        return True

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[tuple[str, Any]], on_done: OnDone) -> None:
        try:
            import ray
        except ImportError:
            raise ExecutorUnavailable("the ray executor needs ray: pip install 'veriscale[ray]'") from None
        started = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address:
                ray.init(address=self.address, **kwargs)
            else:
                ray.init(num_cpus=max(1, self.workers), **kwargs)
            started = True
        try:
            remote = ray.remote(num_cpus=1, max_retries=1)(_timed)
            refs = {remote.remote(fn, job): key for key, job in jobs}
            pending = list(refs)
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    key = refs[ref]
                    try:
                        result, seconds = ray.get(ref)
                    except Exception as exc:  # a RayTaskError wraps the job's own exception
                        on_done(key, None, _describe(getattr(exc, "cause", None) or exc), 0.0)
                        continue
                    on_done(key, result, None, seconds)
        finally:
            if started:
                ray.shutdown()


EXECUTORS: tuple[str, ...] = ("local", "serial", "ray")


def make_executor(name: str, workers: int = 2, address: str | None = None) -> Executor:
    if name == "local":
        return LocalExecutor(workers=workers)
    if name == "serial":
        return SerialExecutor()
    if name == "ray":
        if not RayExecutor.available():
            raise ExecutorUnavailable("the ray executor needs ray: pip install 'veriscale[ray]'")
        return RayExecutor(workers=workers, address=address)
    raise ValueError(f"unknown executor {name!r} (choose from {', '.join(EXECUTORS)})")
