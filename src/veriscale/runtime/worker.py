"""What every pool worker process does first: cap its memory and tie its life to its parent's.

A worker must not outlive the command that started it: a ``kill -9`` of the
CLI gives the parent no chance to stop its pool, and an orphaned worker would
go on evaluating (and holding memory) for nothing. Two mechanisms, because
neither covers every case alone:

* ``PR_SET_PDEATHSIG`` (Linux, through ``prctl``): the kernel sends the worker
  SIGKILL the moment the thread that started it exits, even while the worker
  is stuck in native code. It is only asked for when the pool was started by
  the parent's main thread (a pool started by a short-lived thread would lose
  its workers with that thread).
* a watchdog thread that polls ``os.getppid()``: an orphan is re-parented, so
  a changed parent pid means the parent is gone and the worker exits. This
  covers other platforms and pools started from other threads.

When the workers are gone, the pool's resource-tracker process (whose pipe the
workers and the parent hold) reads end-of-file and exits too.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

from .limits import cap_address_space

__all__ = ["WATCHDOG_PERIOD", "init_worker", "set_parent_death_signal"]

WATCHDOG_PERIOD = 0.5  # seconds between two looks at the parent pid
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def set_parent_death_signal(sig: int = signal.SIGKILL) -> bool:
    """Ask the kernel to send ``sig`` to this process when its parent (thread) dies. Linux only."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    event = threading.Event()
    while not event.wait(WATCHDOG_PERIOD):
        if os.getppid() != parent:
            os._exit(70)  # the parent is gone: nobody will read this worker's results


def init_worker(memory_limit: int | None, parent: int, death_signal: bool) -> None:
    """Pool initializer: address-space cap, parent-death signal, parent watchdog."""
    cap_address_space(memory_limit)
    if death_signal:
        set_parent_death_signal()
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(70)
    threading.Thread(
        target=_watch_parent, args=(parent,), name="veriscale-parent-watchdog", daemon=True
    ).start()
