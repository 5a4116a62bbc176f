"""A hard wall-clock limit around one engine check.

The native engine enforces its own time budget, but it reads the clock only
when evaluation charges fuel; a builtin that does a lot of work in one step
(``contains`` over an exponentially large list) can overrun it by far. This
backstop arms ``SIGALRM`` for one check: the handler raises the engine's own
``LimitExceeded`` inside the evaluation, which the engine reports as a
timeout like any other. It works only in the main thread of a process on a
POSIX system (our pool workers); elsewhere it does nothing.

The handler does not raise when the interrupted evaluation is within
``HEADROOM`` frames of the recursion limit: unwinding from there runs the
engine's handlers, which need frames of their own, and overflowing while
handling an overflow is a fatal error that kills the worker ("Cannot recover
from stack overflow"). It re-arms the alarm for a moment instead; the
evaluation's own depth and fuel limits bring it back up.
"""

from __future__ import annotations

import _signal
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from ...runtime.errors import LimitExceeded

__all__ = ["guarded"]

T = TypeVar("T")


def _usable() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


HEADROOM = 300  # frames left below the recursion limit for the engine to unwind in
_RETRY = 0.005  # seconds before a deferred alarm fires again


def _depth(frame: Any) -> int:
    n = 0
    while frame is not None:
        n += 1
        frame = frame.f_back
    return n


def _raise(signum: int, frame: Any) -> None:
    if sys.getrecursionlimit() - _depth(frame) < HEADROOM:
        signal.setitimer(signal.ITIMER_REAL, _RETRY)
        return
    raise LimitExceeded("time", "evaluation exceeded the hard wall-clock limit of the evaluation harness")


def guarded(fn: Callable[[Any], T], seconds: float | None, on_timeout: Callable[[], T]) -> Callable[[Any], T]:
    """``fn`` with a hard limit of ``seconds`` per call; ``on_timeout()`` answers a limit hit outside the engine."""
    if not seconds or seconds <= 0 or not _usable():
        return fn

    # (the C functions ``signal`` wraps: the wrapper's enum conversions of the handlers cost more
    # than the rest of a typical check's set-up; the handlers are the same objects either way)
    install, arm = _signal.signal, _signal.setitimer
    alrm, real = _signal.SIGALRM, _signal.ITIMER_REAL

    def call(arg: Any) -> T:
        old = install(alrm, _raise)
        arm(real, seconds)
        try:
            return fn(arg)
        except LimitExceeded:  # fired after the engine returned (or in code that does not catch it)
            return on_timeout()
        finally:
            arm(real, 0)
            install(alrm, old)

    return call
