"""Samples whose answer could not be extracted (``generate`` wrote ``meta.extraction_error``).

Such a sample was never a candidate: every metric of its kind is FAIL with the
category ``extraction_failed`` and the reason naming the extraction category
(``empty``, ``unclosed_fence``, ``wrong_name``, … — docs/evaluate.md), in both
bounds. Nothing is run for it.
"""

from __future__ import annotations

from typing import Any

from .aggregate import MetricResult, Score
from .errors import ErrorCategory

__all__ = ["extraction_failure", "extraction_metrics"]


def extraction_failure(meta: Any) -> tuple[str, str] | None:
    """(category, message) when ``meta`` records a failed extraction, else None."""
    if not isinstance(meta, dict) or not meta.get("extraction_error"):
        return None
    return str(meta["extraction_error"]), str(meta.get("extraction_message") or "")


def extraction_metrics(metrics: tuple[str, ...], category: str, message: str) -> dict[str, MetricResult]:
    reason = f"answer not extracted ({category})" + (f": {message}" if message else "")
    return {
        m: MetricResult(
            score=Score.FAIL,
            lower=False,
            upper=False,
            error=ErrorCategory.EXTRACTION_FAILED,
            reason=reason,
            categories={ErrorCategory.EXTRACTION_FAILED.value: 1},
        )
        for m in metrics
    }
