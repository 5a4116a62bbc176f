"""A task's suite rows, decoded once and shared by every sample evaluated on it.

Rows the strict codec cannot decode keep their error: the tests built from
them are UNKNOWN with category ``bad_test_data`` (a defect of the suite, not
of the candidate), so one odd literal never hides the rest of a suite.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...values.codec import DecodeError
from .aggregate import MetricResult, Score, TestResult, aggregate
from .errors import ErrorCategory

__all__ = [
    "RejectRow",
    "SuiteRows",
    "TestRow",
    "bad_data",
    "decode_rows",
    "exclude_contradicted",
    "run_tests",
]


@dataclass
class TestRow:
    __test__ = False  # not a pytest test class

    row: int
    inputs: dict[str, Any] | None = None
    input_error: str = ""
    expected: Any = None
    expected_error: str = ""
    # decoded unexpected outputs: (value, "") or (None, decode error)
    unexpected: list[tuple[Any, str]] = field(default_factory=list)


@dataclass
class RejectRow:
    row: int
    inputs: dict[str, Any] | None = None
    input_error: str = ""


@dataclass
class SuiteRows:
    task_id: str
    tests: list[TestRow]
    rejects: list[RejectRow]
    # False when no test row has an ``unexpected`` key (e.g. the shared VerinaPlus/VerinaLite)
    has_unexpected: bool

    @property
    def n_unexpected(self) -> int:
        return sum(len(t.unexpected) for t in self.tests)


def decode_rows(task: Any) -> SuiteRows:
    tests: list[TestRow] = []
    test_file = task.files["test_file"]  # (a property that builds a dict: once, not per row)
    for i, tc in enumerate(task.tests):
        tr = TestRow(i)
        try:
            tr.inputs = task.decode_input(tc.input, file=test_file, row=i)  # (= tc.decode_input)
        except DecodeError as exc:
            tr.input_error = str(exc)
        try:
            tr.expected = task.decode_output(tc.expected, file=test_file, row=i)
        except DecodeError as exc:
            tr.expected_error = str(exc)
        for u, raw in enumerate(tc.unexpected or []):
            try:
                val = task.decode_output(raw, file=test_file, row=i, field=f"unexpected[{u}]")
                tr.unexpected.append((val, ""))
            except DecodeError as exc:
                tr.unexpected.append((None, str(exc)))
        tests.append(tr)
    rejects: list[RejectRow] = []
    reject_file = task.files["reject_inputs_file"]
    for i, rj in enumerate(task.reject_inputs):
        rr = RejectRow(i)
        try:
            rr.inputs = task.decode_input(rj.input, file=reject_file, row=i)  # (= rj.decode_input)
        except DecodeError as exc:
            rr.input_error = str(exc)
        rejects.append(rr)
    has_unexpected = any(tc.unexpected is not None for tc in task.tests)
    return SuiteRows(task.id, tests, rejects, has_unexpected)


def exclude_contradicted(
    task: Any, rows: SuiteRows, fuel: int = 5_000_000, seconds: float = 20.0
) -> list[int]:
    """Mark rows whose expected output the suite's own ground truth contradicts; return their indices.

    A row whose stored output differs from what the task's reference
    implementation returns on its input (e.g. VerinaPlus rows of
    verina_basic_16, computed for a different input than the one stored) is a
    defect of the suite: it would fail every correct candidate. It is left out
    like an undecodable row. Only a definite different value counts; a
    reference run that errs or times out proves nothing and keeps the row.
    Measured with the native engine (the reference runs once per row), limited by
    ``fuel`` so that which rows stay does not depend on the machine's load
    (``seconds`` is only a backstop).
    """
    from ...languages.registry import language_of
    from ...runtime.limits import Limits
    from ...values.codec import encode_lean
    from .compare import outputs_match

    ret = task.signature.return_type
    te = language_of(task).native_engine(Limits(fuel=fuel, seconds=seconds)).for_task(task)
    bad: list[int] = []
    for tr in rows.tests:
        if tr.inputs is None or tr.expected_error:
            continue
        out = te.run(tr.inputs)
        if not out.ok or outputs_match(ret, out.value, tr.expected):
            continue
        try:
            got = encode_lean(ret, out.value, structs=task.structs)
        except Exception:  # only for the message
            got = repr(out.value)
        tr.expected_error = (
            f"suite defect: the task's own reference implementation returns {got} on this input, "
            "not the stored expected output (row left out)"
        )
        bad.append(tr.row)
    return bad


# ------------------------------------------------------------------ running one metric's tests

# A test is either already settled (an undecodable row) or an argument for the engine.
Item = tuple[str, Any]  # (where, argument); argument is a TestResult when settled


def run_tests(
    items: list[Item],
    single: Callable[[Any], Any],
    batch: Callable[[list[Any]], list[Any]],
    judge: Callable[[str, Any], TestResult],
    *,
    fail_fast: bool,
    batched: bool,
    overestimable: bool,
    note: str = "",
    max_timeouts: int | None = None,
    budget_seconds: float | None = None,
    budget_fuel: int | None = None,
    fuel_spent: Callable[[], int] | None = None,
) -> MetricResult:
    """Run one metric's tests and aggregate them.

    Rows the codec could not decode (``bad_data``) are a defect of the suite,
    not a test of the candidate: they are left out and counted in
    ``n_excluded``.

    ``batched`` sends every pending argument in one call (engines that start
    processes); otherwise tests run one by one, and with ``fail_fast`` the
    first FAIL stops the metric (its score is then settled; the rest count as
    skipped).

    ``max_timeouts``, ``budget_fuel`` and ``budget_seconds`` bound the work one
    metric may take (e.g. an exponential postcondition on large inputs): once
    that many checks were UNKNOWN by timeout, or the metric's checks spent that
    much fuel (read from ``fuel_spent``, the engine's running total: the same on
    any machine) or took that long in total, the remaining checks are not run
    and count as UNKNOWN (timeout). Both
    bounds stay sound — an unrun check is neither a pass (lower bound) nor a
    failure (upper bound) — much as Verina's whole-file timeout leaves every
    test of its batch UNKNOWN.
    """
    kept = [
        (w, a)
        for w, a in items
        if not (isinstance(a, TestResult) and a.category is ErrorCategory.BAD_TEST_DATA)
    ]
    excluded = len(items) - len(kept)
    results: list[TestResult] = []
    if batched:
        pending = [(i, arg) for i, (_, arg) in enumerate(kept) if not isinstance(arg, TestResult)]
        answers = batch([arg for _, arg in pending]) if pending else []
        by_index = {i: ans for (i, _), ans in zip(pending, answers)}
        for i, (where, arg) in enumerate(kept):
            results.append(arg if isinstance(arg, TestResult) else judge(where, by_index[i]))
    else:
        timeouts = 0
        start = time.perf_counter()
        fuel0 = fuel_spent() if fuel_spent is not None else 0
        for n, (where, arg) in enumerate(kept):
            if isinstance(arg, TestResult):
                results.append(arg)
                continue
            why = ""
            if max_timeouts is not None and timeouts >= max_timeouts:
                why = f"not run after {timeouts} timed-out checks in this metric"
            elif budget_fuel is not None and fuel_spent is not None and fuel_spent() - fuel0 > budget_fuel:
                why = f"not run: this metric's checks already spent more than {budget_fuel:,} steps of fuel"
            elif budget_seconds is not None and time.perf_counter() - start > budget_seconds:
                why = f"not run: this metric's checks already took more than {budget_seconds:g} s"
            if why:
                results.extend(
                    a
                    if isinstance(a, TestResult)
                    else TestResult(Score.UNKNOWN, ErrorCategory.TIMEOUT, f"{w}: {why}", w)
                    for w, a in kept[n:]
                )
                break
            r = judge(where, single(arg))
            results.append(r)
            if fail_fast and r.score is Score.FAIL:
                break
            if r.score is Score.UNKNOWN and r.category is ErrorCategory.TIMEOUT:
                timeouts += 1
    return aggregate(results, total=len(kept), overestimable=overestimable, note=note, excluded=excluded)


def bad_data(where: str, error: str) -> TestResult:
    return TestResult(Score.UNKNOWN, ErrorCategory.BAD_TEST_DATA, error, where)
