"""Executors: run one function over many jobs, in parallel, handing each result back to the parent.

This is the one process pool of veriscale: the pipeline stages, ``evaluate``,
``check`` and ``stats --adequacy`` all run their workers through it.

* ``SerialExecutor`` runs jobs in this process, in order (debugging, tests, one worker).
* ``LocalExecutor`` uses a process pool started with ``spawn`` (safe with
  threads and on every platform); two workers by default. Every worker caps
  its address space at its share of the machine's memory and dies with its
  parent (``runtime.worker``). A pool broken by a dying worker is restarted;
  after ``max_restarts`` the rest runs one job at a time, so a job that kills
  its worker by itself is the only job lost.
* ``RayExecutor`` runs jobs as Ray tasks (``pip install 'veriscale[ray]'``); ray
  is imported only when this executor runs. Without an address it starts a
  local Ray runtime with ``workers`` CPUs and shuts it down afterwards. It is
  ``remote``: callers ship the files a job reads with it (``runtime.shipping``).

The function must be importable at module level (workers import it by name)
and its job and result picklable. A job that raises is reported as an error
string; the others go on. ``on_done(key, result, error, seconds)`` is called in
the parent, in completion order, as each job finishes: that is where results
are written, so nothing is lost when a run is interrupted.

Used as a context manager (``with executor: ...``) an executor keeps its
workers between ``run`` calls (``warm`` starts them ahead, e.g. so that timed
phases exclude start-up); otherwise each ``run`` starts and stops them.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Protocol

from .limits import worker_memory_bytes
from .worker import init_worker

__all__ = [
    "EXECUTORS",
    "Executor",
    "ExecutorUnavailable",
    "LocalExecutor",
    "OnDone",
    "RayExecutor",
    "SerialExecutor",
    "make_executor",
    "pool_executor",
]

OnDone = Callable[[str, Any, "str | None", float], None]
DIED = "worker process died (pool broken too often)"


class ExecutorUnavailable(RuntimeError):
    """The requested backend cannot be used here (e.g. ray is not installed)."""


class Executor(Protocol):
    name: str
    workers: int
    remote: bool  # workers may run on another machine: jobs carry their files (runtime.shipping)

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[tuple[str, Any]], on_done: OnDone) -> None: ...

    def warm(self, fn: Callable[[int], Any]) -> None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Executor: ...

    def __exit__(self, *exc: object) -> None: ...


def _describe(exc: BaseException) -> str:
    """One line for the user: the exception's short class name and message (no module path)."""
    text = str(exc).strip()
    last = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return last[:2000]


def _timed(fn: Callable[[Any], Any], job: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    return fn(job), time.perf_counter() - t0


@dataclass
class SerialExecutor:
    name: str = "serial"
    workers: int = 1
    remote: bool = False

    def __enter__(self) -> SerialExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def warm(self, fn: Callable[[int], Any]) -> None:
        """Nothing to start: jobs run in this process."""

    def close(self) -> None:
        pass

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
    """A spawn-started process pool (see the module docstring for its restart policy)."""

    workers: int = 2
    name: str = "local"
    max_restarts: int = 2
    remote: bool = False
    _pool: ProcessPoolExecutor | None = field(default=None, init=False, repr=False, compare=False)
    _held: int = field(default=0, init=False, repr=False, compare=False)

    def __enter__(self) -> LocalExecutor:
        self._held += 1
        return self

    def __exit__(self, *exc: object) -> None:
        self._held -= 1
        if self._held <= 0:
            self._held = 0
            self.close()

    def close(self) -> None:
        """Stop the workers (waiting for jobs in flight; queued jobs are cancelled)."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.shutdown(wait=True, cancel_futures=True)

    def warm(self, fn: Callable[[int], Any]) -> None:
        """Start every worker and run ``fn(i)`` once in each (``fn`` should keep its worker busy a
        moment, so that the next call reaches another worker). Failures show up again in ``run``."""
        pool = self._shared_pool()
        try:
            for fut in [pool.submit(fn, i) for i in range(max(1, self.workers))]:
                fut.result()
        except BrokenProcessPool:
            self._discard(pool)
        except Exception:  # a warm-up that fails is not a job: the jobs report their own errors
            pass

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[tuple[str, Any]], on_done: OnDone) -> None:
        try:
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
        finally:
            if not self._held:
                self.close()

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
                on_done(first[0], None, DIED, 0.0)

    def _new_pool(self, workers: int) -> ProcessPoolExecutor:
        # The parent-death signal is tied to the starting thread: arm it only for the main thread.
        main = threading.current_thread() is threading.main_thread()
        return ProcessPoolExecutor(
            max_workers=max(1, workers),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=init_worker,
            initargs=(worker_memory_bytes(max(1, self.workers)), os.getpid(), main),
        )

    def _shared_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = self._new_pool(self.workers)
        return self._pool

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        if pool is self._pool:
            self._pool = None
        pool.shutdown(wait=True, cancel_futures=True)

    def _run_pool(
        self, fn: Callable[[Any], Any], jobs: list[tuple[str, Any]], on_done: OnDone, workers: int
    ) -> list[tuple[str, Any]]:
        """Run ``jobs`` on a pool of ``workers``; return the jobs lost to a broken pool, in order."""
        shared = workers == self.workers
        pool = self._shared_pool() if shared else self._new_pool(workers)
        broken: list[tuple[str, Any]] = []
        order = {key: i for i, (key, _) in enumerate(jobs)}
        try:
            try:
                futures: dict[Future[Any], tuple[str, Any]] = {
                    pool.submit(_timed, fn, job): (key, job) for key, job in jobs
                }
            except BrokenProcessPool:  # broken by an earlier job's worker: start afresh
                self._discard(pool)
                return list(jobs)
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
        except BaseException:
            self._discard(pool)
            raise
        if broken or not shared:
            self._discard(pool)
        broken.sort(key=lambda kj: order[kj[0]])
        return broken


def _ray_timed(fn: Callable[[Any], Any], job: Any) -> tuple[Any, float, str]:
    """A Ray task: the job's result, its seconds, and the id of the node that ran it."""
    import ray

    result, seconds = _timed(fn, job)
    return result, seconds, ray.get_runtime_context().get_node_id()


def _package_dir() -> str:
    from pathlib import Path

    return str(Path(__file__).resolve().parents[1])  # .../veriscale


@dataclass
class RayExecutor:
    """Jobs as Ray tasks.

    ``address`` None starts (and stops) a local runtime with ``workers`` CPUs;
    otherwise the driver joins that cluster and every node's CPUs take jobs.
    ``ship_package`` sends this process's own ``veriscale`` package to the
    workers (Ray ``py_modules``), so they run the driver's code even where
    another version is installed; its dependencies must be installed on every
    node. A job lost with its node or worker is retried (``max_retries``) on
    another; a job that raises is not retried (its error is the result).
    ``jobs_per_node`` counts the jobs each node ran, by node-manager ``address:port``.
    """

    workers: int = 2
    address: str | None = None
    name: str = "ray"
    remote: bool = True
    max_retries: int = 3
    ship_package: bool = True
    report: bool = True  # print the jobs per node on stderr when closed
    jobs_per_node: dict[str, int] = field(default_factory=dict, init=False, compare=False)
    _started: bool = field(default=False, init=False, repr=False, compare=False)
    _held: int = field(default=0, init=False, repr=False, compare=False)

    @staticmethod
    def available() -> bool:
        try:
            import ray  # noqa: F401
        except ImportError:
            return False
        return True

    def __enter__(self) -> RayExecutor:
        self._held += 1
        return self

    def __exit__(self, *exc: object) -> None:
        self._held -= 1
        if self._held <= 0:
            self._held = 0
            self.close()

    def _ray(self) -> Any:
        try:
            import ray
        except ImportError:
            raise ExecutorUnavailable("the ray executor needs ray: pip install 'veriscale[ray]'") from None
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.ship_package:
                kwargs["runtime_env"] = {"py_modules": [_package_dir()], "excludes": ["__pycache__"]}
            if self.address:
                ray.init(address=self.address, **kwargs)
            else:
                ray.init(num_cpus=max(1, self.workers), **kwargs)
            self._started = True
        return ray

    def warm(self, fn: Callable[[int], Any]) -> None:
        """Connect (or start the local runtime); Ray starts its workers itself."""
        self._ray()

    def close(self) -> None:
        if self.report and self.jobs_per_node:
            import sys

            shown = ", ".join(f"{n} {k}" for k, n in sorted(self.jobs_per_node.items()))
            sys.stderr.write(f"ray: jobs per node: {shown}\n")
        if self._started:
            import ray

            ray.shutdown()
            self._started = False

    def _node_names(self, ray: Any) -> dict[str, str]:
        try:
            # address:port of the node manager: unique even for several nodes on one machine
            return {n["NodeID"]: f"{n['NodeManagerAddress']}:{n['NodeManagerPort']}" for n in ray.nodes()}
        except Exception:  # names are for the report only
            return {}

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[tuple[str, Any]], on_done: OnDone) -> None:
        ray = self._ray()
        try:
            # SPREAD: CPU-bound jobs over every node (the default packs a node before the next)
            remote = ray.remote(num_cpus=1, max_retries=self.max_retries, scheduling_strategy="SPREAD")(
                _ray_timed
            )
            refs = {remote.remote(fn, job): key for key, job in jobs}
            pending = list(refs)
            nodes: dict[str, int] = {}
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    key = refs[ref]
                    try:
                        result, seconds, node = ray.get(ref)
                    except Exception as exc:  # a RayTaskError wraps the job's own exception
                        on_done(key, None, _describe(getattr(exc, "cause", None) or exc), 0.0)
                        continue
                    nodes[node] = nodes.get(node, 0) + 1
                    on_done(key, result, None, seconds)
            names = self._node_names(ray)
            for node, n in nodes.items():
                name = names.get(node, node[:12])
                self.jobs_per_node[name] = self.jobs_per_node.get(name, 0) + n
        finally:
            if not self._held:
                self.close()


EXECUTORS: tuple[str, ...] = ("local", "serial", "ray")


def pool_executor(workers: int) -> Executor:
    """The default for commands that run in this process when given one worker: serial for one
    worker, the local pool otherwise."""
    return SerialExecutor() if workers <= 1 else LocalExecutor(workers=workers)


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
