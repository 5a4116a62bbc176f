"""SpecGen: score a candidate precondition and postcondition on a suite (Verina's unit-test proxy).

With P̂/Q̂ the candidate's precondition/postcondition:

* precondition **soundness**: every test input satisfies P̂ (desired TRUE);
* precondition **completeness**: every reject input violates P̂ (desired FALSE);
* postcondition **completeness**: Q̂(input, expected) holds for every test;
* postcondition **soundness**: Q̂(input, u) fails for every unexpected output u.

Per test, the engine's verdict is compared with the desired truth: a match
is PASS, a mismatch FAIL (``precondition_mismatch`` /
``postcondition_mismatch``), an UNKNOWN verdict stays UNKNOWN with the
engine's reason and category. Aggregation and the lower/upper bounds are in
``aggregate``; ``precond_sound_complete``, ``postcond_sound_complete`` and the
full-spec ``precond_postcond`` pass iff their parts do.

Fidelity notes:

* The candidate is embedded as Verina does: task aux, candidate precond aux
  and precondition, candidate postcond aux and postcondition. The ground
  truth's ``solution_aux`` is *not* visible (Verina's spec file omits it).
* Verina scores "plausible found no counter-example" as a pass
  (``use_plausible_pass``). The Lean engine reports that as UNKNOWN with
  category ``plausible_true``/``plausible_false``/``plausible_both``;
  ``plausible_as_pass`` (default on) scores it the way Verina does.
* A specification that does not compile fails every test in Verina. The Lean
  engine's compile errors (category ``elab``) therefore FAIL when
  ``compile_errors_fail`` is set (default for the Lean engine). The native
  engine's parse/elaboration errors may be limits of our Lean fragment, so
  with it they stay UNKNOWN (category ``parse_error``): the lower bound
  counts them failed, the upper bound does not pass them.
* Suites without ``unexpected`` lists (the shared VerinaPlus/VerinaLite) give
  postcondition soundness no tests: it is PASS by Verina's no-tests rule but
  reported with ``n_tests == 0`` and a note, never silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...runtime.engine import Verdict
from ..generations import Generation
from .aggregate import MetricResult, Score, TestResult, aggregate, combine
from .cases import Item, SuiteRows, bad_data, run_tests
from .errors import ErrorCategory, from_engine_category
from .watchdog import guarded

__all__ = ["SPEC_METRICS", "SpecOptions", "evaluate_spec", "spec_overrides"]

SPEC_METRICS: tuple[str, ...] = (
    "precond_sound",
    "precond_complete",
    "precond_sound_complete",
    "postcond_sound",
    "postcond_complete",
    "postcond_sound_complete",
    "precond_postcond",
)
NO_UNEXPECTED_NOTE = "suite has no unexpected outputs: postcondition soundness is untested"


@dataclass(frozen=True)
class SpecOptions:
    fail_fast: bool = True
    batched: bool = False
    plausible_as_pass: bool = True
    compile_errors_fail: bool = False
    pass_imports: bool = False  # only engines that render files use the candidate's imports
    max_timeouts: int | None = 2  # per metric: stop running checks after this many timeouts
    hard_timeout: float | None = None  # seconds per check, enforced with a signal (see ``watchdog``)
    budget_seconds: float | None = None  # per metric: total seconds of checks before giving up
    budget_fuel: int | None = None  # per metric: total engine fuel before giving up (native engine)


def spec_overrides(gen: Generation, *, pass_imports: bool = False) -> dict[str, str]:
    out = {
        "solution_aux": "",
        "precond_aux": gen.precond_aux,
        "precond": gen.precond,
        "postcond_aux": gen.postcond_aux,
        "postcond": gen.postcond,
    }
    if pass_imports:
        out["imports"] = gen.imports
    return out


def _hard_timeout_verdict() -> Verdict:
    return Verdict.unknown("evaluation exceeded the hard wall-clock limit", "timeout")


def _judge(v: Verdict, want: bool, mismatch: ErrorCategory, opts: SpecOptions, where: str) -> TestResult:
    if not v.is_unknown:
        if v.is_true == want:
            return TestResult(Score.PASS, where=where)
        got = "accepts" if v.is_true else "rejects"
        return TestResult(Score.FAIL, mismatch, f"{where}: the candidate {got} it", where)
    cat = v.category
    if opts.plausible_as_pass and cat in ("plausible_both", "plausible_true" if want else "plausible_false"):
        return TestResult(Score.PASS, where=where)
    if opts.compile_errors_fail and cat in ("elab", "parse"):
        return TestResult(Score.FAIL, ErrorCategory.PARSE_ERROR, f"{where}: {v.reason}", where)
    return TestResult(Score.UNKNOWN, from_engine_category(cat), f"{where}: {v.reason}", where)


def evaluate_spec(
    engine: Any, task: Any, rows: SuiteRows, gen: Generation, opts: SpecOptions | None = None
) -> dict[str, MetricResult]:
    """Score one SpecGen sample; returns the seven spec metrics."""
    opts = opts or SpecOptions()
    te = engine.for_task(task, spec_overrides(gen, pass_imports=opts.pass_imports))
    fuel_spent = (lambda: te.fuel_spent) if hasattr(te, "fuel_spent") else None

    def metric(items: list[Item], want: bool, kind: str, note: str = "", probe: Any = None) -> MetricResult:
        mismatch = ErrorCategory.PRECOND_MISMATCH if kind == "pre" else ErrorCategory.POSTCOND_MISMATCH
        if kind == "pre":
            single, batch = te.precondition, te.preconditions
        else:
            single = lambda a: te.postcondition(a[0], a[1])  # noqa: E731
            batch = te.postconditions
        single = guarded(single, opts.hard_timeout, _hard_timeout_verdict)
        if not items and probe is not None:
            # No tests would make the metric PASS; Verina fails a specification that does not
            # compile even then, so check on one suite row that the part builds at all.
            v = single(probe)
            if v.is_unknown and v.category in ("parse", "elab"):
                score = Score.FAIL if opts.compile_errors_fail else Score.UNKNOWN
                why = f"compile check: {v.reason}"
                return aggregate(
                    [TestResult(score, ErrorCategory.PARSE_ERROR, why, "compile check")], note=note
                )
        return run_tests(
            items,
            single,
            batch,
            lambda where, v: _judge(v, want, mismatch, opts, where),
            fail_fast=opts.fail_fast,
            batched=opts.batched,
            overestimable=True,
            note=note,
            max_timeouts=opts.max_timeouts,
            budget_seconds=opts.budget_seconds,
            budget_fuel=opts.budget_fuel,
            fuel_spent=fuel_spent,
        )

    pre_sound: list[Item] = []
    post_complete: list[Item] = []
    post_sound: list[Item] = []
    for t in rows.tests:
        where = f"test {t.row}"
        if t.inputs is None:
            pre_sound.append((where, bad_data(where, t.input_error)))
            post_complete.append((where, bad_data(where, t.input_error)))
            for u in range(len(t.unexpected)):
                w = f"{where}, unexpected {u}"
                post_sound.append((w, bad_data(w, t.input_error)))
            continue
        pre_sound.append((where, t.inputs))
        if t.expected_error:
            post_complete.append((where, bad_data(where, t.expected_error)))
        else:
            post_complete.append((where, (t.inputs, t.expected)))
        for u, (val, err) in enumerate(t.unexpected):
            w = f"{where}, unexpected {u}"
            post_sound.append((w, bad_data(w, err) if err else (t.inputs, val)))
    pre_complete: list[Item] = [
        (f"reject {r.row}", r.inputs if r.inputs is not None else bad_data(f"reject {r.row}", r.input_error))
        for r in rows.rejects
    ]

    pre_probe = next((a for _, a in (*pre_sound, *pre_complete) if not isinstance(a, TestResult)), None)
    post_probe = next((a for _, a in post_complete if not isinstance(a, TestResult)), None)
    ps = metric(pre_sound, True, "pre", probe=pre_probe)
    pc = metric(pre_complete, False, "pre", probe=pre_probe)
    qc = metric(post_complete, True, "post", probe=post_probe)
    qs = metric(post_sound, False, "post", "" if rows.has_unexpected else NO_UNEXPECTED_NOTE, post_probe)
    return {
        "precond_sound": ps,
        "precond_complete": pc,
        "precond_sound_complete": combine([ps, pc]),
        "postcond_sound": qs,
        "postcond_complete": qc,
        "postcond_sound_complete": combine([qs, qc]),
        "precond_postcond": combine([ps, pc, qs, qc]),
    }
