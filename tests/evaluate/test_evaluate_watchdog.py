"""The hard wall-clock limit around one check: it fires, and never deep in a recursion."""

from __future__ import annotations

import signal
import sys
import threading
import time

import pytest

from veriscale.evaluate.scoring.watchdog import HEADROOM, guarded

pytestmark = pytest.mark.skipif(
    not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread(),
    reason="SIGALRM watchdog needs POSIX and the main thread",
)


def _depth() -> int:
    frame, n = sys._getframe(), 0
    while frame is not None:
        n, frame = n + 1, frame.f_back
    return n


def test_fires_on_a_runaway_check() -> None:
    def spin(_: object) -> str:
        while True:
            pass

    assert guarded(spin, 0.05, lambda: "timeout")(None) == "timeout"


def test_defers_while_the_check_is_near_the_recursion_limit() -> None:
    # The check dwells at a depth within HEADROOM of the limit past its deadline, then comes back
    # up and spins. The limit must hit only once it is shallow again: raising at the deep point is
    # what killed workers with "Cannot recover from stack overflow" on a loaded machine.
    returned: list[int] = []

    def deep(n: int) -> int:
        if n == 0:
            end = time.monotonic() + 0.3
            while time.monotonic() < end:
                pass
            return 0
        return deep(n - 1) + 1

    def check(_: object) -> str:
        target = sys.getrecursionlimit() - HEADROOM // 2
        returned.append(deep(target - _depth() - 5))
        while True:
            pass

    assert guarded(check, 0.05, lambda: "timeout")(None) == "timeout"
    assert returned, "the limit was raised deep inside the recursion"
