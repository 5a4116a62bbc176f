"""The summary of the engine's gaps behind UNKNOWN results (issue 18 item 4)."""

from __future__ import annotations

from shared_data import require
from veriscale.evaluate.gaps import engine_gaps, engine_gaps_by_kind, format_gaps, gaps_json
from veriscale.evaluate.generations import Generation
from veriscale.evaluate.harness import EvalOptions, SuiteSpec, evaluate_generations
from veriscale.evaluate.report import summarize


def _rec(*metrics: tuple[str, str, str]) -> dict:
    return {
        "metrics": {f"m{i}": {"score": s, "error": e, "reason": r} for i, (s, e, r) in enumerate(metrics)}
    }


def test_gaps_are_counted_by_name_construct_and_quantifier_shape() -> None:
    recs = [
        _rec(("UNKNOWN", "parse_error", "test 0: unknown identifier 'List.Chain'' (at line 2, column 19)")),
        _rec(
            (
                "UNKNOWN",
                "parse_error",
                "test 3: unknown constant 'List.maximum?' (field notation on List Nat)",
            )
        ),
        _rec(("UNKNOWN", "parse_error", "test 1: unknown identifier 'List.Chain'' (at line 1, column 1)")),
        _rec(("UNKNOWN", "undecided", "test 0: unbounded ∀ over Nat: no counterexample among 64 small")),
        _rec(("UNKNOWN", "unsupported_construct", "test 0: unbounded quantifier ∃ over List Int: no bound")),
        _rec(("UNKNOWN", "unsupported_construct", "reject 2: operator ∣ (at line 2, column 12)")),
        # not engine gaps: a failure, and an UNKNOWN by timeout
        _rec(("FAIL", "parse_error", "unknown identifier 'x'"), ("UNKNOWN", "timeout", "exceeded")),
    ]
    g = engine_gaps(recs)
    assert dict(g["unsupported names"]) == {"List.Chain'": 2, "List.maximum?": 1}
    assert dict(g["undecided quantifiers"]) == {"∀ over Nat": 1, "∃ over List Int": 1}
    assert dict(g["unsupported constructs"]) == {"operator ∣": 1}
    lines = format_gaps(g, top=1)
    assert lines[0] == "unsupported names: List.Chain' ×2 (+1 more)"
    assert format_gaps(engine_gaps([])) == []


def test_gaps_are_split_by_task_kind_in_a_stable_order() -> None:
    recs = [
        {
            "metrics": {
                "code": {
                    "score": "UNKNOWN",
                    "error": "parse_error",
                    "reason": "unknown identifier 'Foo.bar'",
                },
                "precond_sound": {"score": "UNKNOWN", "error": "undecided", "reason": "unbounded ∀ over Nat"},
                "precond_complete": {"score": "UNKNOWN", "error": "parse_error", "reason": "operator ∣"},
                "postcond_sound": {
                    "score": "UNKNOWN",
                    "error": "undecided",
                    "reason": "unbounded ∀ over Nat",
                },
                "postcond_complete": {"score": "PASS", "error": None, "reason": ""},
            }
        },
        {"metrics": {"code": {"score": "UNKNOWN", "error": "parse_error", "reason": "unknown type Bar"}}},
    ]
    got = gaps_json(engine_gaps_by_kind(recs))
    assert got == {
        "spec": {"unsupported constructs": {"operator ∣": 1}, "undecided quantifiers": {"∀ over Nat": 2}},
        "code": {"unsupported names": {"Bar": 1, "Foo.bar": 1}},
    }
    assert list(got) == ["spec", "code"]  # the order of KINDS, not of appearance
    assert gaps_json(engine_gaps_by_kind([])) == {}


def test_summary_json_carries_the_engine_gaps_of_the_run() -> None:
    verina = require("verina")
    gens = [
        Generation("verina_basic_1", 0, ("code",), code="Foo.frobnicate a b"),
        Generation("verina_basic_1", 1, ("code",), code="a * b < 0"),
    ]
    run = evaluate_generations(gens, [SuiteSpec("verina", verina)], EvalOptions(workers=1))
    assert run.results[0].metrics["code"].score.value == "UNKNOWN"
    # counted per (sample, metric): the candidate leaves both code metrics UNKNOWN, both of kind code
    assert summarize(run)["engine_gaps"] == {"code": {"unsupported names": {"Foo.frobnicate": 2}}}
