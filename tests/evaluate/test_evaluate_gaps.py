"""The summary of the engine's gaps behind UNKNOWN results (issue 18 item 4)."""

from __future__ import annotations

from veriscale.evaluate.gaps import engine_gaps, format_gaps


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
