"""Verina's aggregation: per-test results → one score per metric, with both bounds.

Per metric (e.g. "postcondition soundness" of one sample):

* **FAIL** if any test failed; else **UNKNOWN** if any test is unknown; else
  **PASS**. A metric with **no tests is PASS** (Verina's rule: precondition
  completeness of a task without reject inputs passes) — ``n_tests == 0``
  says so explicitly, and the report shows it.
* **Lower bound** (Verina's default ``results``): only PASS counts.
* **Upper bound** (Verina's ``overestimate_results``): for the sound/complete
  metrics of a specification, an UNKNOWN metric counts as passing when at
  least one of its tests passed and none failed; an all-UNKNOWN metric stays
  unknown. Verina applies this only to specification metrics, so for code
  the two bounds coincide.
* Derived metrics (``X_sound_complete``, the full-spec ``precond_postcond``)
  pass iff all their parts pass, separately in each bound.

``NOT_EVALUATED`` (a proof without Lean) is neither a pass nor a failure: it
is left out of pass@k averages and reported apart.

**No vacuous passes.** A *sample* that no test exercised at all (every metric
has ``n_tests == 0``: a task whose suite has no usable row) is
``NOT_EVALUATED`` ("no test cases"), never PASS
(``untested_sample_not_passed``, both benchmarks). Verina's per-metric rule
above still holds inside a sample that has tests. VeriContest applies the
stricter per-metric form (``untested_not_passed``): each of its metrics is a
claim about test cases, so one that would pass on none is not evaluated.
A FAIL (an extraction failure, a syntax error) stays a FAIL.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import ErrorCategory

__all__ = [
    "NO_TEST_CASES",
    "MetricResult",
    "Score",
    "TestResult",
    "aggregate",
    "combine",
    "not_evaluated",
    "untested_not_passed",
    "untested_sample_not_passed",
]

NO_TEST_CASES = "not evaluated: no test cases"


class Score(enum.StrEnum):
    PASS = "PASS"
    FAIL = "FAIL"
    UNKNOWN = "UNKNOWN"
    NOT_EVALUATED = "NOT_EVALUATED"


@dataclass(frozen=True, slots=True)
class TestResult:
    """One test of one metric. ``where`` locates it ("test 3", "test 3, unexpected 1", "reject 0")."""

    __test__ = False  # not a pytest test class

    score: Score
    category: ErrorCategory | None = None
    reason: str = ""
    where: str = ""


@dataclass(frozen=True)
class MetricResult:
    score: Score
    lower: bool
    upper: bool
    n_tests: int = 0
    n_pass: int = 0
    n_fail: int = 0
    n_unknown: int = 0
    n_skipped: int = 0  # tests not run because an earlier test already failed the metric
    n_excluded: int = 0  # suite rows left out because they cannot be decoded (a suite defect)
    error: ErrorCategory | None = None
    reason: str = ""
    where: str = ""
    categories: dict[str, int] = field(default_factory=dict)
    note: str = ""

    @property
    def evaluated(self) -> bool:
        return self.score is not Score.NOT_EVALUATED

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.score.value,
            "lower": self.lower,
            "upper": self.upper,
            "n_tests": self.n_tests,
            "n_pass": self.n_pass,
            "n_fail": self.n_fail,
            "n_unknown": self.n_unknown,
            "n_skipped": self.n_skipped,
            "n_excluded": self.n_excluded,
            "error": self.error.value if self.error else None,
            "reason": self.reason,
            "where": self.where,
            "categories": dict(sorted(self.categories.items())),
            "note": self.note,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> MetricResult:
        return cls(
            score=Score(d["score"]),
            lower=bool(d["lower"]),
            upper=bool(d["upper"]),
            n_tests=int(d.get("n_tests", 0)),
            n_pass=int(d.get("n_pass", 0)),
            n_fail=int(d.get("n_fail", 0)),
            n_unknown=int(d.get("n_unknown", 0)),
            n_skipped=int(d.get("n_skipped", 0)),
            n_excluded=int(d.get("n_excluded", 0)),
            error=ErrorCategory(d["error"]) if d.get("error") else None,
            reason=d.get("reason", ""),
            where=d.get("where", ""),
            categories=dict(d.get("categories", {})),
            note=d.get("note", ""),
        )


def aggregate(
    results: Iterable[TestResult],
    *,
    total: int | None = None,
    overestimable: bool = True,
    note: str = "",
    excluded: int = 0,
) -> MetricResult:
    """Aggregate the tests of one metric.

    ``total`` is the number of tests the metric has; tests beyond those given
    (skipped after a failure) are counted in ``n_skipped``. ``overestimable``
    enables Verina's upper-bound rule (specification metrics only).
    """
    n_pass = n_fail = n_unknown = 0
    categories: dict[str, int] = {}
    first_fail: TestResult | None = None
    first_unknown: TestResult | None = None
    for r in results:
        if r.score is Score.PASS:
            n_pass += 1
            continue
        if r.score is Score.FAIL:
            n_fail += 1
            if first_fail is None:
                first_fail = r
        else:
            n_unknown += 1
            if first_unknown is None:
                first_unknown = r
        if r.category is not None:
            categories[r.category.value] = categories.get(r.category.value, 0) + 1
    n_run = n_pass + n_fail + n_unknown
    n_tests = n_run if total is None else max(total, n_run)
    if n_fail:
        score = Score.FAIL
    elif n_unknown:
        score = Score.UNKNOWN
    else:
        score = Score.PASS
    blame = first_fail or first_unknown
    upper = score is Score.PASS or (overestimable and score is Score.UNKNOWN and n_pass > 0)
    return MetricResult(
        score=score,
        lower=score is Score.PASS,
        upper=upper,
        n_tests=n_tests,
        n_pass=n_pass,
        n_fail=n_fail,
        n_unknown=n_unknown,
        n_skipped=n_tests - n_run,
        n_excluded=excluded,
        error=blame.category if blame else None,
        reason=blame.reason if blame else "",
        where=blame.where if blame else "",
        categories=categories,
        note=note,
    )


def combine(parts: Sequence[MetricResult]) -> MetricResult:
    """A derived metric that passes iff every part passes (in each bound separately)."""
    if any(not p.evaluated for p in parts):
        blame = next(p for p in parts if not p.evaluated)
        return not_evaluated(blame.reason)
    if any(p.score is Score.FAIL for p in parts):
        score = Score.FAIL
    elif any(p.score is Score.UNKNOWN for p in parts):
        score = Score.UNKNOWN
    else:
        score = Score.PASS
    blame = next((p for p in parts if p.score is score), None) if score is not Score.PASS else None
    categories: dict[str, int] = {}
    for p in parts:
        for k, v in p.categories.items():
            categories[k] = categories.get(k, 0) + v
    notes = [p.note for p in parts if p.note]
    return MetricResult(
        score=score,
        lower=all(p.lower for p in parts),
        upper=all(p.upper for p in parts),
        n_tests=sum(p.n_tests for p in parts),
        n_pass=sum(p.n_pass for p in parts),
        n_fail=sum(p.n_fail for p in parts),
        n_unknown=sum(p.n_unknown for p in parts),
        n_skipped=sum(p.n_skipped for p in parts),
        n_excluded=sum(p.n_excluded for p in parts),
        error=blame.error if blame else None,
        reason=blame.reason if blame else "",
        where=blame.where if blame else "",
        categories=categories,
        note="; ".join(dict.fromkeys(notes)),
    )


def not_evaluated(reason: str) -> MetricResult:
    return MetricResult(
        score=Score.NOT_EVALUATED,
        lower=False,
        upper=False,
        error=ErrorCategory.NOT_EVALUATED,
        reason=reason,
        categories={ErrorCategory.NOT_EVALUATED.value: 1},
    )


def untested_not_passed(r: MetricResult, why: str = "") -> MetricResult:
    """``r``, except that a PASS or UNKNOWN resting on zero tests becomes NOT_EVALUATED."""
    if r.n_tests > 0 or r.score in (Score.FAIL, Score.NOT_EVALUATED):
        return r
    return not_evaluated(f"{NO_TEST_CASES} ({why})" if why else NO_TEST_CASES)


def untested_sample_not_passed(metrics: dict[str, MetricResult], why: str = "") -> dict[str, MetricResult]:
    """A sample's metrics; when none of them has a test, each one not failed is NOT_EVALUATED."""
    if any(r.n_tests > 0 for r in metrics.values()):
        return metrics
    return {m: untested_not_passed(r, why) for m, r in metrics.items()}
