"""Repair feedback (``generate --repair K``): what the evaluator says about an answer.

One provider per benchmark format, chosen by the format's name through
``PROVIDERS`` (a registry, like ``formats.registry``: a new format adds one
entry and one module). A provider is built once per run and called once per
task kind and repair round with all current lines of that kind; it returns,
per (task id, sample), the feedback text for a failing sample, or None for a
sample that passes or whose check could not decide (no repair is asked then).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from ...formats.registry import detect_format

__all__ = ["PROVIDERS", "feedback_for"]

# format name -> "module:factory"; factory(benchmark, suite, workers) -> FeedbackFn
PROVIDERS: dict[str, str] = {
    "verina": "veriscale.pipeline.feedback.verina:verina_feedback",
    "vericontest": "veriscale.pipeline.feedback.vericontest:vericontest_feedback",
}


def feedback_for(benchmark: Path, suite: Path, *, workers: int = 2) -> Any:
    """The feedback function for ``benchmark``'s format, or None when the format has no provider."""
    fmt = detect_format(benchmark)
    spec = PROVIDERS.get(fmt.name)
    if spec is None:
        return None
    mod, name = spec.split(":")
    return getattr(importlib.import_module(mod), name)(benchmark, suite, workers)
