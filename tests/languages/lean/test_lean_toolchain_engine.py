"""The engine's plumbing, driven by a scripted stand-in for Lean.

``ScriptedLean`` (lean_toolchain_fixtures) is a fake *runner callable*: it reads
the generated file's markers and answers every case with messages in Lean's
documented format, chosen by a Python rule. It exercises our batching, prefetching, Mathlib
fallback, plausible combination, timeout bisection and error attribution —
not Lean itself (the live tests in test_lean_toolchain_live.py do that).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lean_toolchain_fixtures import ScriptedLean, ints, tiny_rule, tiny_task
from veriscale.evaluate.checks.verina import check_task
from veriscale.languages.lean.toolchain.engine import LeanToolchainEngine
from veriscale.languages.lean.toolchain.runner import RunResult
from veriscale.runtime.engine import OutcomeKind, Truth


@pytest.fixture
def task(tmp_path: Path):  # type: ignore[no-untyped-def]
    return tiny_task(tmp_path)


def engine(fake: ScriptedLean, **kw: object) -> LeanToolchainEngine:
    return LeanToolchainEngine(runner=fake, has_mathlib=bool(kw.pop("has_mathlib", True)), **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------- batching and prefetch


def test_one_file_per_kind_and_results(task) -> None:  # type: ignore[no-untyped-def]
    fake = ScriptedLean(tiny_rule)
    te = engine(fake, prefetch=False).for_task(task)
    rows = [{"a": -5, "b": 3}, {"a": 2000, "b": 0}, {"a": -5, "b": 3}]
    assert [v.truth for v in te.preconditions(rows)] == [Truth.TRUE, Truth.FALSE, Truth.TRUE]
    assert len(fake.files) == 1 and fake.files[0].count("#guard decide") == 2  # duplicates run once
    outs = te.runs([{"a": -5, "b": 3}, {"a": 90, "b": 30}])
    assert [(o.kind, o.value) for o in outs] == [(OutcomeKind.VALUE, -2), (OutcomeKind.VALUE, 100)]
    verdicts = te.postconditions(
        [({"a": -5, "b": 3}, -2), ({"a": -5, "b": 3}, -1), ({"a": 90, "b": 30}, 120)]
    )
    assert [v.truth for v in verdicts] == [Truth.TRUE, Truth.FALSE, Truth.FALSE]
    assert len(fake.files) == 3
    te.preconditions(rows)  # remembered
    assert len(fake.files) == 3


def test_single_checks_prefetch_the_tasks_rows(task) -> None:  # type: ignore[no-untyped-def]
    fake = ScriptedLean(tiny_rule, prefixed=True)
    rep = check_task(engine(fake), task, dataset="tiny")
    totals = {k: (rep.agree[k], rep.total[k]) for k in rep.total}
    assert totals == {
        "precond_accepts_tests": (2, 2),
        "precond_rejects_rejects": (1, 1),
        "impl_matches_expected": (2, 2),
        "postcond_accepts_expected": (2, 2),
        "postcond_rejects_unexpected": (3, 3),
    }
    assert rep.findings == []
    # one file per kind although check_task asks row by row
    assert len(fake.files) == 3
    assert fake.files[0].count("#guard decide (clampAdd_precond") == 3


# ---------------------------------------------------------------- plausible


def test_plausible_decides_what_decide_cannot(task) -> None:  # type: ignore[no-untyped-def]
    """Outputs -2, -1, 7, 8 get: counter-example to P, counter-example to ¬P, no counter-example
    either way, simp closing P."""

    def rule(body: str, text: str) -> list[tuple[str, str]] | str:
        if body.startswith("#guard"):
            return [("error", "failed to synthesize\n  Decidable (clampAdd_postcond (-5) (3) (-2) ⋯)")]
        r = ints(body)[2]
        neg = body.startswith("example : ¬")
        found = [("error", "===================\nFound a counter-example!\n-------------------")]
        unable = [("info", "Unable to find a counter-example"), ("warning", "declaration uses 'sorry'")]
        table = {
            (-2, False): found,
            (-2, True): unable,
            (-1, False): unable,
            (-1, True): found,
            (7, False): unable,
            (7, True): unable,
            (8, False): [("error", "no goals to be solved")],
            (8, True): unable,
        }
        return table[(r, neg)]

    fake = ScriptedLean(rule)
    te = engine(fake, prefetch=False, has_mathlib=False).for_task(task)
    v = te.postconditions([({"a": -5, "b": 3}, r) for r in (-2, -1, 7, 8)])
    assert [x.truth for x in v] == [Truth.FALSE, Truth.TRUE, Truth.UNKNOWN, Truth.TRUE]
    assert v[2].category == "plausible_both"
    assert len(fake.files) == 2
    plausible_file = fake.files[1]
    assert plausible_file.splitlines()[1] == "import Plausible"
    assert plausible_file.count("example : ¬(clampAdd_postcond") == 4


def test_plausible_gave_up_and_weak_sides(task) -> None:  # type: ignore[no-untyped-def]
    def rule(body: str, text: str) -> list[tuple[str, str]] | str:
        if body.startswith("#guard"):
            return [("error", "failed to synthesize\n  Decidable (clampAdd_precond (1) (2))")]
        a = ints(body)[0]
        neg = body.startswith("example : ¬")
        gave_up = [
            ("warning", "Gave up after failing to generate values that fulfill the preconditions 20 times.")
        ]
        unable = [("info", "Unable to find a counter-example")]
        if a == 1:
            return gave_up
        if a == 2:
            return unable if not neg else gave_up
        return unable if neg else [("error", "Failed to create a `testable` instance for `Foo`.")]

    te = engine(ScriptedLean(rule), prefetch=False, has_mathlib=False).for_task(task)
    v = te.preconditions([{"a": 1, "b": 0}, {"a": 2, "b": 0}, {"a": 3, "b": 0}])
    assert all(x.is_unknown for x in v)
    assert v[0].category == "undecided" and "Gave up" in v[0].reason
    assert v[1].category == "plausible_true"
    assert v[2].category == "plausible_false"


def test_plausible_disabled(task) -> None:  # type: ignore[no-untyped-def]
    fake = ScriptedLean(lambda body, text: [("error", "failed to synthesize\n  Decidable p")])
    v = (
        engine(fake, prefetch=False, plausible=False, has_mathlib=False)
        .for_task(task)
        .preconditions([{"a": 1, "b": 1}])
    )
    assert v[0].is_unknown and v[0].reason == "failed to synthesize" and len(fake.files) == 1


# ---------------------------------------------------------------- Mathlib fallback


def test_mathlib_fallback_for_missing_names(task) -> None:  # type: ignore[no-untyped-def]
    def rule(body: str, text: str) -> list[tuple[str, str]] | str:
        if "(77)" in body and "\nimport Mathlib\n" not in text:
            return [("error", "unknown constant 'Nat.choose'")]
        return tiny_rule(body, text)

    fake = ScriptedLean(rule)
    te = engine(fake, prefetch=False).for_task(task)
    outs = te.runs([{"a": 1, "b": 2}, {"a": 77, "b": 0}])
    assert [o.value for o in outs] == [3, 77]
    assert len(fake.files) == 2
    assert "import Mathlib" not in fake.files[0] and "\nimport Mathlib\n" in fake.files[1]
    assert fake.files[1].count("#eval!") == 1  # only the failing case is rerun

    fake2 = ScriptedLean(rule)
    outs = engine(fake2, prefetch=False, has_mathlib=False).for_task(task).runs([{"a": 77, "b": 0}])
    assert outs[0].kind is OutcomeKind.ERROR and "Nat.choose" in outs[0].reason and len(fake2.files) == 1


def test_definitions_that_do_not_compile(task) -> None:  # type: ignore[no-untyped-def]
    fake = ScriptedLean(tiny_rule, preamble=[("error", "type mismatch\n  a\nhas type Int")])
    te = engine(fake, prefetch=False, has_mathlib=False).for_task(task)
    v = te.preconditions([{"a": 1, "b": 1}])[0]
    assert (
        v.is_unknown and v.category == "elab" and v.reason == "the definitions do not compile: type mismatch"
    )
    o = te.runs([{"a": 1, "b": 1}])[0]
    assert o.kind is OutcomeKind.ERROR and o.category == "elab"
    assert len(fake.files) == 2  # no plausible attempt on broken definitions


def test_import_failure_is_fatal_not_retried(task) -> None:  # type: ignore[no-untyped-def]
    calls: list[str] = []

    def broken(text: str, timeout: float) -> RunResult:
        calls.append(text)
        return RunResult("/tmp/f.lean:1:0: error: unknown module prefix 'Std'\n", 1)

    te = LeanToolchainEngine(runner=broken, prefetch=False).for_task(task)
    outs = te.runs([{"a": i, "b": 0} for i in range(8)])
    assert len(calls) == 1
    # the code never ran: a missing module may be the candidate's fault or the project's, so UNKNOWN
    assert all(o.kind is OutcomeKind.UNKNOWN and "unknown module prefix" in o.reason for o in outs)


# ---------------------------------------------------------------- timeouts and crashes


def test_one_slow_case_does_not_sink_the_batch(task) -> None:  # type: ignore[no-untyped-def]
    def rule(body: str, text: str) -> list[tuple[str, str]] | str:
        return "TIMEOUT" if "(13)" in body.split("(by sorry)")[0] else tiny_rule(body, text)

    fake = ScriptedLean(rule)
    te = engine(fake, prefetch=False, timeout=5.0).for_task(task)
    outs = te.runs([{"a": i, "b": 0} for i in range(16)])
    assert outs[13].kind is OutcomeKind.TIMEOUT and "5 s" in outs[13].reason
    assert [o.value for i, o in enumerate(outs) if i != 13] == [i for i in range(16) if i != 13]
    # the first run gives 0..12 (output up to the stuck case), the rest are rerun and bisected
    assert 2 <= len(fake.files) <= 6


def test_crash_is_isolated_and_reported(task) -> None:  # type: ignore[no-untyped-def]
    def rule(body: str, text: str) -> list[tuple[str, str]] | str:
        return "CRASH" if "(4)" in body.split("(by sorry)")[0] else tiny_rule(body, text)

    te = engine(ScriptedLean(rule), prefetch=False).for_task(task)
    outs = te.runs([{"a": i, "b": 0} for i in range(6)])
    assert outs[4].kind is OutcomeKind.ERROR and outs[4].category == "crash"
    assert "Stack overflow" in outs[4].reason
    assert [o.value for i, o in enumerate(outs) if i != 4] == [0, 1, 2, 3, 5]
    v = (
        engine(ScriptedLean(lambda b, t: "CRASH"), prefetch=False)
        .for_task(task)
        .preconditions([{"a": 1, "b": 1}])
    )
    assert v[0].is_unknown and "crashed" in v[0].reason


def test_unwritable_values_are_unknown_not_errors(task) -> None:  # type: ignore[no-untyped-def]
    te = engine(ScriptedLean(tiny_rule), prefetch=False).for_task(task)
    v = te.preconditions([{"a": 1}])[0]  # missing parameter
    assert v.is_unknown and v.category == "unsupported"
    o = te.runs([{"a": object(), "b": 1}])[0]
    assert o.kind is OutcomeKind.UNKNOWN


def test_definitions_that_swallow_the_cases(task) -> None:  # type: ignore[no-untyped-def]
    """An unterminated comment in candidate code hides every marker: the code is broken (ERROR),
    whereas an import that does not resolve is not the code's fault (UNKNOWN, see above)."""
    calls: list[str] = []

    def swallowed(text: str, timeout: float) -> RunResult:
        calls.append(text)
        line = text.split("\n").index("  /- unfinished") + 1
        return RunResult(f"/tmp/f.lean:{line}:2: error: unterminated comment\n", 1)

    te = LeanToolchainEngine(runner=swallowed, prefetch=False).for_task(task, {"code": "  /- unfinished"})
    outs = te.runs([{"a": 1, "b": 2}, {"a": 3, "b": 4}])
    assert len(calls) == 1
    assert all(
        o.kind is OutcomeKind.ERROR and o.reason == "the definitions do not compile: unterminated comment"
        for o in outs
    )
