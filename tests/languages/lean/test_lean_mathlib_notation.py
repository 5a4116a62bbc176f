"""Mathlib / core notations and names the native engine evaluates (issue 18), with Lean's values."""

from __future__ import annotations

import pytest

from veriscale.languages.lean.native import NativeTaskEngine
from veriscale.languages.lean.parser import parse_expr
from veriscale.languages.lean.printer import print_expr, strip_pos
from veriscale.runtime.engine import Truth
from veriscale.runtime.limits import Limits
from veriscale.values.types import BOOL, INT, parse_type


def _prop(text: str, n: int) -> Truth:
    te = NativeTaskEngine(
        fn_name="f",
        params=[("n", INT)],
        ret=BOOL,
        sections={"precond": "  True", "code": "  true", "postcond": "  " + text},
        limits=Limits(seconds=10.0),
    )
    return te.postcondition({"n": n}, True).truth


@pytest.mark.parametrize(
    ("text", "n", "want"),
    [
        ("(11 : Int) ∣ n", 121, True),
        ("(11 : Int) ∣ n", 12, False),
        ("0 ∣ n", 0, True),  # 0 ∣ b ↔ b = 0
        ("0 ∣ n", 5, False),
        ("3 ∣ n", -9, True),
        ("(2 : Nat) ∣ n.natAbs ∧ ¬ 4 ∣ n", 6, True),
        ("[1, 2] <+ [1, 3, 2]", 0, True),
        ("[2, 1] <+ [1, 3, 2]", 0, False),
        ("[1, 3] <+: [1, 3, 2] ∧ [3, 2] <:+ [1, 3, 2] ∧ [3] <:+: [1, 3, 2]", 0, True),
        ("[1, 2] <:+: [1, 3, 2]", 0, False),
        ("[1, 2, 2] ~ [2, 1, 2] ∧ ¬ [1, 2] ~ [1, 2, 2]", 0, True),
        ("((none : Option Int) <|> some n) = some n", 4, True),
        ("((some 1 : Option Int) <|> some n) = some 1", 4, True),
        ("∑ i ∈ Finset.range 4, i * i = 14", 0, True),
        ("∑ i ∈ Finset.range 4, i + 1 = 7", 0, True),  # the body stops at +: (∑ i) + 1
        ("∏ i ∈ Finset.Icc 1 5, i = 120", 0, True),
        ("∑ x ∈ [3, 1, 3].toFinset, x = 4", 0, True),
        ("[1, 2, 2].toFinset = [2, 1].toFinset", 0, True),
        (
            "([1, 2].toFinset ∪ [3].toFinset).card = 3 ∧ ([1, 2].toFinset \\ [2].toFinset) = [1].toFinset",
            0,
            True,
        ),
        ("n.toNat ∈ Finset.range 5", 4, True),
        ("n.toNat ∈ Finset.range 5", 5, False),
        ("((Finset.range 10).filter (fun i => i % 3 = 0)).card = 4", 0, True),
        ("Nat.ofDigits 2 [1, 0, 1, 1] = 13", 0, True),
        ("List.Chain' (· < ·) [1, 2, 5] ∧ ¬ List.Chain' (· < ·) [1, 1]", 0, True),
        (
            "List.Forall₂ (fun a b => a ≤ b) [1, 2] [1, 3] ∧ ¬ List.Forall₂ (fun a b => a ≤ b) [1] [1, 3]",
            0,
            True,
        ),
        ("[1, 2, 3].scanl (· + ·) 0 = [0, 1, 3, 6]", 0, True),
        ("Nat.Coprime 8 15 ∧ ¬ Nat.Coprime 8 12", 0, True),
        ("[1, 2] ∪ [2, 3] = [1, 2, 3] ∧ [1, 2, 3] ∩ [3, 1] = [1, 3]", 0, True),
        ("[3, 1, 3] ⊆ [1, 2, 3] ∧ ([] : List Int) ⊆ []", 0, True),
        ("[n, 4] ⊆ [1, 2, 3]", 1, False),
        ("[[1], [2]] ⊆ [[2], [1]] ∧ Finset.range 3 ⊆ Finset.range 4", 0, True),
        ("Finset.range 5 ⊆ Finset.range 4", 0, False),
        ("n ⊔ 2 = 2 ∧ n ⊓ 2 = n", -3, True),
        ("1 + n ⊔ 4 = 5", 0, True),  # ⊔ (68) binds tighter than + (65)
        ("(1 ⊔ 2 ⊓ 0 : Int) = 1", 0, True),  # ⊓ (69) tighter than ⊔
        ("Nat.log 2 8 = 3 ∧ Nat.log 2 7 = 2 ∧ Nat.log 10 0 = 0 ∧ Nat.log 1 5 = 0", 0, True),
        ("Nat.divisors 12 = [1, 2, 3, 4, 6, 12].toFinset ∧ Nat.divisors 0 = [].toFinset", 0, True),
        ("(Nat.divisors 36).card = 9 ∧ ∑ d ∈ Nat.properDivisors 28, d = 28", 0, True),
        ("n.toNat ∈ Nat.divisors 7 ∧ Nat.properDivisors 1 = [].toFinset", 7, True),
        ("n.toNat ∈ Nat.properDivisors 7", 7, False),
        ("[1, 1, 2, 3, 3].splitBy (· == ·) = [[1, 1], [2], [3, 3]]", 0, True),
        (
            "[1, 2, 3, 2, 3].groupBy (· < ·) = [[1, 2, 3], [2, 3]] ∧ ([] : List Int).splitBy (· == ·) = []",
            0,
            True,
        ),
    ],
)
def test_notation_values(text: str, n: int, want: bool) -> None:
    assert _prop(text, n) is (Truth.TRUE if want else Truth.FALSE)


@pytest.mark.parametrize(
    "text",
    [
        "a <+ b ∧ c <:+: d",
        "a ~ b",
        "x <|> y <|> z",
        "s ∪ t ∩ u",
        "s \\ t",
        "a ∣ b",
        "s ⊆ t ∪ u",
        "a ⊔ b ⊓ c + d",
    ],
)
def test_notation_round_trips_through_the_printer(text: str) -> None:
    e = parse_expr(text)
    assert strip_pos(parse_expr(print_expr(e))) == strip_pos(e)


def test_big_operator_is_finset_sum() -> None:
    assert print_expr(parse_expr("∑ i ∈ Finset.range n, f i")) == print_expr(
        parse_expr("Finset.sum (Finset.range n) (fun i => f i)")
    )


def test_finset_type_in_signatures() -> None:
    assert parse_type("Finset Int") == parse_type("Finset Int")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[true] ⊔ [false] = [true]", "operator ⊔ on List Bool"),  # not a lattice Lean knows here
        ('"a" ⊆ "ab"', "operator ⊆ on String"),
    ],
)
def test_notation_on_other_types_is_unsupported(text: str, reason: str) -> None:
    te = NativeTaskEngine(
        fn_name="f",
        params=[("n", INT)],
        ret=BOOL,
        sections={"precond": "  True", "code": "  true", "postcond": "  " + text},
        limits=Limits(seconds=10.0),
    )
    v = te.postcondition({"n": 0}, True)
    assert v.is_unknown and reason in v.reason, v
