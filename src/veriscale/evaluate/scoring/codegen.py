"""CodeGen: run a candidate implementation on every test input and compare with the expected output.

The candidate's ``code_aux`` and ``code`` replace the ground truth's; the
ground-truth precondition (with its ``solution_aux``) stays, as in Verina's
CodeGen file. Per test:

* the output equals the expected one (``outputs_match``: Lean ``==``, Floats
  compared as Lean prints them) → PASS;
* a different output → FAIL, ``incorrect_output``;
* a runtime error → FAIL, ``runtime_error``;
* a **timeout → FAIL**, ``timeout`` — unless the ground-truth implementation
  also times out on that input in the same engine (the native evaluator is
  slower than compiled Lean): then the test is UNKNOWN (``timeout``), since
  the time limit says nothing about the candidate. After ``max_timeouts``
  such UNKNOWN timeouts the remaining tests are not run (UNKNOWN);
* the engine cannot run the code (a construct outside our Lean fragment, a
  parse or elaboration failure of the native engine) → UNKNOWN with that
  category. With the Lean engine a compile error is definitive and FAILs
  (``compile_errors_fail``), as in Verina.

All tests PASS → the sample passes; any FAIL fails it; otherwise UNKNOWN.

**Deliberate difference from Verina's harness:** Verina runs all tests in one
Lean file and, when that file times out, finds no failure marker and counts
every test as PASS — a diverging implementation passes. We count a timed-out
run as a failure. Code has no upper-bound rule in Verina, so both bounds
coincide for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...runtime.engine import Outcome, OutcomeKind
from ...values.codec import encode_lean
from ..generations import Generation
from .aggregate import MetricResult, Score, TestResult
from .by_spec import RunCache, code_by_spec
from .cases import Item, SuiteRows, bad_data, run_tests
from .compare import outputs_match
from .errors import ErrorCategory, from_engine_category
from .watchdog import guarded

__all__ = ["CODE_METRICS", "CodeOptions", "code_overrides", "evaluate_code"]

# ``code_by_spec``: an output that differs from the stored one but that the ground-truth
# postcondition accepts counts correct (tasks with several valid answers; see ``by_spec``)
CODE_METRICS: tuple[str, ...] = ("code", "code_by_spec")


@dataclass(frozen=True)
class CodeOptions:
    fail_fast: bool = True
    batched: bool = False
    compile_errors_fail: bool = False
    pass_imports: bool = False
    hard_timeout: float | None = None  # seconds per run, enforced with a signal (see ``watchdog``)
    calibrate_timeouts: bool = True  # a timeout only fails if the ground truth runs in time
    max_timeouts: int | None = 2


def code_overrides(gen: Generation, *, pass_imports: bool = False) -> dict[str, str]:
    out = {"code_aux": gen.code_aux, "code": gen.code}
    if pass_imports:
        out["imports"] = gen.imports
    return out


def _show(task: Any, v: Any, limit: int = 120) -> str:
    try:
        text = encode_lean(task.signature.return_type, v, structs=task.structs)
    except Exception:  # a value the codec cannot print must not lose the verdict
        text = repr(v)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _hard_timeout_outcome() -> Outcome:
    return Outcome(
        OutcomeKind.TIMEOUT, reason="evaluation exceeded the hard wall-clock limit", category="timeout"
    )


def _judge(
    task: Any,
    expected: Any,
    out: Outcome,
    opts: CodeOptions,
    where: str,
    reference_times_out: Callable[[], bool] | None = None,
) -> TestResult:
    if out.kind is OutcomeKind.VALUE:
        if outputs_match(task.signature.return_type, out.value, expected):
            return TestResult(Score.PASS, where=where)
        why = f"{where}: got {_show(task, out.value)}, expected {_show(task, expected)}"
        return TestResult(Score.FAIL, ErrorCategory.INCORRECT_OUTPUT, why, where)
    reason = f"{where}: {out.reason}" if out.reason else where
    if out.kind is OutcomeKind.TIMEOUT:
        if reference_times_out is not None and reference_times_out():
            why = f"{reason} (the ground-truth implementation also exceeds the limit on this input)"
            return TestResult(Score.UNKNOWN, ErrorCategory.TIMEOUT, why, where)
        return TestResult(Score.FAIL, ErrorCategory.TIMEOUT, reason, where)
    if out.kind is OutcomeKind.ERROR:
        if out.category in ("elab", "parse"):
            if opts.compile_errors_fail:
                return TestResult(Score.FAIL, ErrorCategory.PARSE_ERROR, reason, where)
            return TestResult(Score.UNKNOWN, ErrorCategory.PARSE_ERROR, reason, where)
        return TestResult(Score.FAIL, ErrorCategory.RUNTIME_ERROR, reason, where)
    return TestResult(Score.UNKNOWN, from_engine_category(out.category), reason, where)


def evaluate_code(
    engine: Any, task: Any, rows: SuiteRows, gen: Generation, opts: CodeOptions | None = None
) -> dict[str, MetricResult]:
    """Score one CodeGen sample; returns ``{"code": MetricResult}``."""
    opts = opts or CodeOptions()
    te = engine.for_task(task, code_overrides(gen, pass_imports=opts.pass_imports))
    items: list[Item] = []
    expected: dict[str, Any] = {}
    inputs: dict[str, Any] = {}
    for t in rows.tests:
        where = f"test {t.row}"
        if t.inputs is None:
            items.append((where, bad_data(where, t.input_error)))
        elif t.expected_error:
            items.append((where, bad_data(where, t.expected_error)))
        else:
            items.append((where, t.inputs))
            expected[where] = t.expected
            inputs[where] = t.inputs
    reference: list[Any] = []

    def reference_times_out(where: str) -> bool:
        if not reference:
            reference.append(guarded(engine.for_task(task).run, opts.hard_timeout, _hard_timeout_outcome))
        return bool(reference[0](inputs[where]).kind is OutcomeKind.TIMEOUT)

    calibrate = opts.calibrate_timeouts and not opts.batched
    runs = RunCache(guarded(te.run, opts.hard_timeout, _hard_timeout_outcome), te.runs)
    result = run_tests(
        items,
        runs.single,
        runs.batch,
        lambda where, out: _judge(
            task,
            expected[where],
            out,
            opts,
            where,
            (lambda: reference_times_out(where)) if calibrate else None,
        ),
        fail_fast=opts.fail_fast,
        batched=opts.batched,
        overestimable=False,
        max_timeouts=opts.max_timeouts,
    )
    by_spec = code_by_spec(engine, task, items, expected, runs, _judge_for(task, opts, expected, calibrate, reference_times_out),
                           opts, result)  # fmt: skip
    return {"code": result, "code_by_spec": by_spec}


def _judge_for(
    task: Any, opts: CodeOptions, expected: dict[str, Any], calibrate: bool, ref: Callable[[str], bool]
) -> Callable[[str, Outcome], TestResult]:
    return lambda where, out: _judge(
        task, expected[where], out, opts, where, (lambda: ref(where)) if calibrate else None
    )
