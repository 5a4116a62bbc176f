"""Verina's aggregation (per test → per metric, both bounds), pass@k, few-shot exclusion."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from veriscale.evaluate.scoring.aggregate import (
    NO_TEST_CASES,
    Score,
    TestResult,
    aggregate,
    combine,
    not_evaluated,
    untested_not_passed,
    untested_sample_not_passed,
)
from veriscale.evaluate.scoring.errors import ErrorCategory, from_engine_category
from veriscale.evaluate.scoring.passk import VERINA_FEWSHOT, mean_pass_at_k, parse_exclusions, pass_at_k

P = TestResult(Score.PASS)
U = TestResult(Score.UNKNOWN, ErrorCategory.UNDECIDED, "u", "test 1")
F = TestResult(Score.FAIL, ErrorCategory.POSTCOND_MISMATCH, "f", "test 2")


def test_any_fail_fails_even_with_unknowns() -> None:
    m = aggregate([P, U, F, P])
    assert m.score is Score.FAIL and not m.lower and not m.upper
    assert (m.n_pass, m.n_fail, m.n_unknown, m.n_tests) == (2, 1, 1, 4)
    assert m.error is ErrorCategory.POSTCOND_MISMATCH and m.where == "test 2"
    assert m.categories == {"postcondition_mismatch": 1, "undecided": 1}


def test_unknown_without_fail_is_unknown_and_upper_needs_a_pass() -> None:
    m = aggregate([P, U])
    assert m.score is Score.UNKNOWN
    assert not m.lower and m.upper  # Verina's overestimate: pass_count > 0 and fail_count == 0
    all_unknown = aggregate([U, U])
    assert all_unknown.score is Score.UNKNOWN and not all_unknown.lower and not all_unknown.upper
    # code metrics have no overestimate in Verina
    code = aggregate([P, U], overestimable=False)
    assert not code.lower and not code.upper


def test_all_pass_and_no_tests_pass() -> None:
    assert aggregate([P, P, P]).score is Score.PASS
    empty = aggregate([], note="no unexpected outputs")
    assert empty.score is Score.PASS and empty.lower and empty.upper
    assert empty.n_tests == 0 and empty.note == "no unexpected outputs"


def test_a_sample_without_any_test_is_not_evaluated_never_passed() -> None:
    empty = aggregate([])
    failed = aggregate([TestResult(Score.FAIL, ErrorCategory.EXTRACTION_FAILED, "empty")])
    got = untested_sample_not_passed({"a": empty, "b": combine([empty, empty]), "c": not_evaluated("x")})
    assert {m: r.score for m, r in got.items()} == dict.fromkeys("abc", Score.NOT_EVALUATED)
    assert got["a"].reason == NO_TEST_CASES and not got["a"].lower and not got["a"].upper
    assert got["c"].reason == "x"
    # a failure is kept; a sample with one tested metric keeps Verina's per-metric rule
    assert untested_not_passed(failed) is failed
    tested = {"a": empty, "b": aggregate([P])}
    assert untested_sample_not_passed(tested) == tested
    assert untested_not_passed(aggregate([U])).score is Score.UNKNOWN  # it has a test
    assert untested_not_passed(empty, "why").reason == f"{NO_TEST_CASES} (why)"


def test_skipped_tests_after_a_failure_are_counted() -> None:
    m = aggregate([P, F], total=10)
    assert m.score is Score.FAIL and m.n_tests == 10 and m.n_skipped == 8


def test_combine_each_bound_separately() -> None:
    sound = aggregate([P, U])  # UNKNOWN, upper PASS
    complete = aggregate([P])  # PASS
    both = combine([sound, complete])
    assert both.score is Score.UNKNOWN and not both.lower and both.upper
    failing = combine([complete, aggregate([F])])
    assert failing.score is Score.FAIL and failing.error is ErrorCategory.POSTCOND_MISMATCH
    assert combine([complete, complete]).lower
    ne = combine([complete, not_evaluated("not evaluated (requires Lean)")])
    assert ne.score is Score.NOT_EVALUATED and not ne.evaluated


def test_metric_json_round_trip() -> None:
    m = aggregate([P, U, F], total=5, note="n")
    back = type(m).from_json(m.to_json())
    assert back == m


def test_engine_categories_map() -> None:
    assert from_engine_category("parse") is ErrorCategory.PARSE_ERROR
    assert from_engine_category("elab") is ErrorCategory.PARSE_ERROR
    assert from_engine_category("unsupported") is ErrorCategory.UNSUPPORTED
    assert from_engine_category("timeout") is ErrorCategory.TIMEOUT
    assert from_engine_category("error") is ErrorCategory.RUNTIME_ERROR
    assert from_engine_category("something new") is ErrorCategory.UNDECIDED


def _brute_pass_at_k(n: int, c: int, k: int) -> Fraction:
    """Probability that a uniformly drawn k-subset of n samples (c passing) holds a pass."""
    samples = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    hits = sum(1 for s in subsets if any(samples[i] for i in s))
    return Fraction(hits, len(subsets))


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_pass_at_k_equals_brute_force(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            assert pass_at_k(n, c, k) == pytest.approx(float(_brute_pass_at_k(n, c, k)), abs=1e-12)


def test_pass_at_k_edges() -> None:
    assert pass_at_k(10, 0, 1) == 0.0
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3)
    assert pass_at_k(200, 199, 5) == 1.0
    assert 0 < pass_at_k(1000, 1, 10) < 1  # exact arithmetic, no overflow
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 3)
    with pytest.raises(ValueError):
        pass_at_k(2, 3, 1)


def test_mean_pass_at_k_skips_tasks_with_too_few_samples() -> None:
    res = mean_pass_at_k({"a": (4, 2), "b": (4, 0), "c": (1, 1)}, 2)
    assert res.n_tasks == 2 and res.n_tasks_short == 1
    assert res.value == pytest.approx((pass_at_k(4, 2, 2) + 0.0) / 2)
    assert mean_pass_at_k({"a": (1, 1)}, 5).value is None


def test_parse_exclusions(tmp_path: Path) -> None:
    assert parse_exclusions(["verina"]) == tuple(sorted(VERINA_FEWSHOT))
    assert parse_exclusions(["b, a", "a"]) == ("a", "b")
    listing = tmp_path / "ids.txt"
    listing.write_text("verina_basic_2  # why\n\nverina_basic_3,verina_basic_4\n", encoding="utf-8")
    assert parse_exclusions([str(listing)]) == ("verina_basic_2", "verina_basic_3", "verina_basic_4")
    as_json = tmp_path / "ids.json"
    as_json.write_text('["x", "y"]', encoding="utf-8")
    assert parse_exclusions([str(as_json)]) == ("x", "y")
