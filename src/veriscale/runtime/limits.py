"""Per-call resource budgets for evaluation (fuel, wall clock, sizes).

The evaluator charges fuel for every call, loop iteration and quantifier
instance; builtins charge for the size of what they build. Checking the
clock only every few thousand charges keeps the overhead small.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import LimitExceeded

__all__ = [
    "Budget",
    "Limits",
    "cap_address_space",
    "charge",
    "current",
    "run_deep",
    "using",
    "worker_memory_bytes",
]

_DEEP_STACK = 512 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Limits:
    fuel: int = 50_000_000
    seconds: float = 10.0
    max_depth: int = 20_000
    max_size: int = 5_000_000


class Budget:
    """One evaluation's resources. ``memo`` holds that evaluation's caches of builtins (indexes
    of immutable values, keyed by identity); they live and die with the budget."""

    __slots__ = ("_clock_every", "_next_clock", "deadline", "depth", "fuel", "limits", "memo")

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.fuel = self.limits.fuel
        self.deadline = time.monotonic() + self.limits.seconds
        self.depth = 0
        self._clock_every = 4096
        self._next_clock = self.fuel - self._clock_every
        self.memo: dict[Any, Any] = {}

    @property
    def clock_point(self) -> int:
        """The fuel level below which the next charge tests the budget (and the clock)."""
        return self._next_clock

    def next_clock_point(self, fuel: int) -> int:
        """The clock point ``charge`` sets once the fuel, not yet negative, fell to ``fuel``."""
        return fuel - self._clock_every

    @property
    def spent(self) -> int:
        """Fuel charged so far."""
        return self.limits.fuel - self.fuel

    def charge(self, n: int = 1) -> None:
        self.fuel -= n
        if self.fuel < self._next_clock:
            if self.fuel < 0:
                raise LimitExceeded("fuel", f"evaluation exceeded {self.limits.fuel} steps")
            self._next_clock = self.next_clock_point(self.fuel)
            if time.monotonic() > self.deadline:
                raise LimitExceeded("time", f"evaluation exceeded {self.limits.seconds:g} s")

    def check_size(self, n: int) -> None:
        self.refuse_size(n)
        self.charge(n)

    def refuse_size(self, n: int) -> None:
        """Refuse a value of ``n`` elements over the size limit, without charging fuel for it."""
        if n > self.limits.max_size:
            raise LimitExceeded("size", f"value of size {n} exceeds the limit {self.limits.max_size}")


_current = Budget(Limits(fuel=10**18, seconds=10**9))


def current() -> Budget:
    return _current


def charge(n: int = 1) -> None:
    _current.charge(n)


class using:  # a context manager: ``with using(budget): ...``
    """Install ``budget`` as the current one for the duration of a ``with`` block."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.saved: Budget | None = None

    def __enter__(self) -> Budget:
        global _current
        self.saved = _current
        _current = self.budget
        return self.budget

    def __exit__(self, *exc: object) -> None:
        global _current
        assert self.saved is not None
        _current = self.saved


def run_deep(fn: Callable[[], Any], recursion_limit: int) -> tuple[bool, Any]:
    """Run ``fn()`` in a thread with a 512 MiB stack and at least ``recursion_limit`` frames.

    For evaluations that overflowed Python's default stack (deep but legal
    recursion). Returns ``(True, value)`` or ``(False, exception)``.
    """
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["v"] = fn()
        except BaseException as exc:  # transported to the caller
            box["e"] = exc

    old_limit = sys.getrecursionlimit()
    old_stack = threading.stack_size()
    try:
        threading.stack_size(_DEEP_STACK)
        th = threading.Thread(target=target, name="veriscale-deep-eval", daemon=True)
    finally:
        threading.stack_size(old_stack)
    sys.setrecursionlimit(max(old_limit, recursion_limit))
    try:
        th.start()
        th.join()
    finally:
        sys.setrecursionlimit(old_limit)
    return ("e" not in box, box["e"] if "e" in box else box.get("v"))


def worker_memory_bytes(workers: int) -> int | None:
    """Each of ``workers`` processes' share of 80% of physical memory (None where unknown)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None
    return int(total * 0.8) // max(1, workers)


def cap_address_space(limit: int | None) -> None:
    """Cap this process's address space (a pool worker's initializer).

    Evaluating untrusted code can build huge values; with a cap that ends as a
    ``MemoryError`` in the check that built it (UNKNOWN) instead of the OOM
    killer taking the worker, or another process, down.
    """
    if limit is None:
        return
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
        if soft == resource.RLIM_INFINITY or soft > cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ImportError, ValueError, OSError):  # not POSIX, or not permitted: run without a cap
        pass
