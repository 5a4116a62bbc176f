"""Quantifiers without a syntactic bound: sound reductions, random search, UNKNOWN otherwise."""

from __future__ import annotations

import pytest

from veriscale.languages.lean.native import NativeTaskEngine
from veriscale.runtime.engine import Truth
from veriscale.runtime.limits import Limits
from veriscale.values.types import BOOL, INT, NAT, Type


def _post(param_ty: Type, postcond: str, aux: str = "") -> NativeTaskEngine:
    return NativeTaskEngine(
        fn_name="f",
        params=[("n", param_ty)],
        ret=BOOL,
        sections={"precond": "  True", "code": "  true", "postcond": postcond, "postcond_aux": aux},
        limits=Limits(seconds=5.0),
    )


def _truth(te: NativeTaskEngine, n: int, result: bool = True) -> Truth:
    return te.postcondition({"n": n}, result).truth


BIG = 10**50


@pytest.mark.parametrize(
    ("n", "want"),
    [
        (0, Truth.TRUE),
        (11 * BIG, Truth.TRUE),
        (11 * BIG + 1, Truth.FALSE),
        (-22, Truth.TRUE),
        (-23, Truth.FALSE),
    ],
)
def test_linear_equation_is_solved(n: int, want: Truth) -> None:
    assert _truth(_post(INT, "  ∃ k : Int, n = 11 * k + 0"), n) is want
    # the ∀ form is the negation, decided through the same equation
    neg = Truth.FALSE if want is Truth.TRUE else Truth.TRUE
    assert _truth(_post(INT, "  ∀ k : Int, ¬ n = 11 * k"), n) is neg
    assert _truth(_post(INT, "  ∀ k : Int, n ≠ 11 * k"), n) is neg


@pytest.mark.parametrize(
    ("n", "want"), [(0, True), (1, True), (10**24, True), (10**24 + 1, False), (2, False)]
)
def test_increasing_equation_is_inverted(n: int, want: bool) -> None:
    te = _post(NAT, "  ∃ i : Nat, i * i = n")
    assert _truth(te, n) is (Truth.TRUE if want else Truth.FALSE)
    # solved by inverting i * i, not by a search (that would take up to 10^12 steps)
    assert te.fuel_spent <= 10_000, te.fuel_spent


def test_geometric_user_function_is_recognised() -> None:
    aux = (
        "def pow2 (base : Int) (exp : Nat) : Int :=\n"
        "  match exp with\n"
        "  | 0 => 1\n"
        "  | k+1 => base * pow2 base k\n"
    )
    te = _post(INT, "  ∃ (x : Nat), pow2 2 x = n ∧ n > 0", aux)
    assert _truth(te, 2**61) is Truth.TRUE
    assert _truth(te, 2**61 + 1) is Truth.FALSE
    assert _truth(te, 0) is Truth.FALSE


@pytest.mark.parametrize(
    ("n", "want"), [(8, True), (1234, False), (10**30 + 8 * 10**17, True), (10**30, False)]
)
def test_stabilising_body_is_cut(n: int, want: bool) -> None:
    te = _post(NAT, "  ∃ i, n / (10 ^ i) % 10 = 8")
    assert _truth(te, n) is (Truth.TRUE if want else Truth.FALSE)


def test_random_search_proves_only_what_it_finds() -> None:
    # no finite reduction applies: a witness / counterexample decides, otherwise UNKNOWN
    assert _truth(_post(NAT, "  ∃ k : Nat, k % 7 = 3 ∧ k > n"), 5) is Truth.TRUE
    assert _truth(_post(NAT, "  ∀ k : Nat, k < n + 100"), 5) is Truth.FALSE
    impossible = _post(NAT, "  ∃ k : Nat, k % 2 = 3 + n")
    v = impossible.postcondition({"n": 0}, True)
    assert v.truth is Truth.UNKNOWN and "no witness" in v.reason
    always = _post(NAT, "  ∀ k : Nat, k % 2 < 2 + n")
    v = always.postcondition({"n": 0}, True)
    assert v.truth is Truth.UNKNOWN and "no counterexample" in v.reason


def test_unbounded_over_lists_is_unknown_not_guessed() -> None:
    te = _post(NAT, "  ∃ xs : List Nat, xs.length = n + 1000 ∧ xs.sum = 0")
    v = te.postcondition({"n": 1}, True)
    assert v.truth is Truth.UNKNOWN
