"""``code_by_spec``: CodeGen judged by the ground-truth postcondition instead of output equality.

A task with several valid answers (any index of a maximum, any order) fails a
correct implementation under Verina's ``code`` metric whenever it returns
another valid answer than the stored one. ``code_by_spec`` judges each test
like ``code`` except for a different output: the ground-truth
``postcondition(inputs, output)`` decides — TRUE passes, FALSE fails
(``incorrect_output``), UNKNOWN is UNKNOWN (``undecided``). ``code`` itself is
unchanged and still reported.

The candidate runs once per input: ``RunCache`` keeps the outcomes of the
``code`` metric's run (keyed by the input object's identity: the same decoded
row objects are passed to both metrics) and runs only the inputs ``code`` did
not reach (it stops at its first failure). When ``code`` passes, so does
``code_by_spec`` (an equal output is accepted by construction), without any
postcondition check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...runtime.engine import Outcome
from .aggregate import MetricResult, Score, TestResult
from .cases import Item, run_tests
from .errors import ErrorCategory

__all__ = ["RunCache", "code_by_spec"]


class RunCache:
    """The candidate's outcomes per input object, shared by ``code`` and ``code_by_spec``."""

    def __init__(self, single: Callable[[Any], Outcome], batch: Callable[[list[Any]], list[Outcome]]) -> None:
        self._single = single
        self._batch = batch
        self._done: dict[int, tuple[Any, Outcome]] = {}  # id(inputs) → (inputs kept alive, outcome)

    def single(self, inputs: Any) -> Outcome:
        got = self._done.get(id(inputs))
        if got is None:
            got = self._done[id(inputs)] = (inputs, self._single(inputs))
        return got[1]

    def batch(self, rows: list[Any]) -> list[Outcome]:
        todo = [r for r in rows if id(r) not in self._done]
        for r, out in zip(todo, self._batch(todo) if todo else []):
            self._done[id(r)] = (r, out)
        return [self._done[id(r)][1] for r in rows]


def code_by_spec(
    engine: Any,
    task: Any,
    items: Sequence[Item],
    expected: dict[str, Any],
    runs: RunCache,
    judge: Callable[[str, Outcome], TestResult],
    opts: Any,
    code: MetricResult,
) -> MetricResult:
    """The ``code_by_spec`` metric of one sample (``judge`` is the ``code`` metric's test judge)."""
    if code.score is Score.PASS:
        return code
    gt = engine.for_task(task)
    inputs = {w: a for w, a in items if w in expected}

    def judge_by_spec(where: str, out: Outcome) -> TestResult:
        r = judge(where, out)
        if r.score is not Score.FAIL or r.category is not ErrorCategory.INCORRECT_OUTPUT:
            return r
        v = gt.postcondition(inputs[where], out.value)
        if v.is_true:
            return TestResult(Score.PASS, where=where)
        if v.is_false:
            return TestResult(
                Score.FAIL,
                ErrorCategory.INCORRECT_OUTPUT,
                f"{r.reason} (the postcondition rejects it)",
                where,
            )
        return TestResult(
            Score.UNKNOWN, ErrorCategory.UNDECIDED, f"{r.reason}; postcondition: {v.reason}", where
        )

    return run_tests(
        list(items),
        runs.single,
        runs.batch,
        judge_by_spec,
        fail_fast=opts.fail_fast,
        batched=opts.batched,
        overestimable=False,
        max_timeouts=opts.max_timeouts,
    )
