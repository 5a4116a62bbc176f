"""What happens when no model is configured: model-driven stages are skipped, with one notice.

This is a normal mode, not an error: offline stages (mutation, classification,
reduction, evaluation of stored outputs) still run. The notice is printed once
per process for a given set of stages, on stderr, so piped JSON output stays clean.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable

from .config import LLMConfig

__all__ = ["model_available", "reset_notices", "skip_notice"]

_announced: set[tuple[str, ...]] = set()
_lock = threading.Lock()


def skip_notice(stages: Iterable[str]) -> str:
    names = sorted(set(stages))
    what = "stage" if len(names) == 1 else "stages"
    return (
        f"no model configured: skipping model-driven {what} {', '.join(names)} "
        "(set VERISCALE_MODEL / --model, and VERISCALE_BASE_URL and a key if needed)"
    )


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def model_available(
    config: LLMConfig | None,
    stages: Iterable[str],
    *,
    notify: Callable[[str], None] | None = None,
) -> bool:
    """True when the stages can ask a model; otherwise announce the skip (once) and return False."""
    if config is not None and config.configured:
        return True
    stage_key = tuple(sorted(set(stages)))
    with _lock:
        first = stage_key not in _announced
        _announced.add(stage_key)
    if first:
        (notify or _stderr)(skip_notice(stage_key))
    return False


def reset_notices() -> None:
    """Forget which notices were shown (for tests and long-lived processes)."""
    with _lock:
        _announced.clear()
