"""Arithmetic on big numbers is charged fuel by operand size (issue 18): verdicts by fuel, not clock."""

from __future__ import annotations

import pytest

from veriscale.languages.lean.builtins import ops
from veriscale.languages.lean.native import NativeTaskEngine
from veriscale.runtime import limits
from veriscale.runtime.engine import OutcomeKind
from veriscale.values.types import NAT

_SQUARE = "  let rec sq (x : Nat) (k : Nat) : Nat :=\n    if k = 0 then x else sq (x * x) (k - 1)\n  sq (n + 3) {k} % 10"


def _engine(code: str) -> NativeTaskEngine:
    return NativeTaskEngine(
        fn_name="f",
        params=[("n", NAT)],
        ret=NAT,
        sections={"precond": "  True", "code": code, "postcond": "  True"},
        # a generous clock: the verdict must come from fuel
        limits=limits.Limits(seconds=600.0, fuel=2_000_000),
    )


@pytest.mark.parametrize("k", [25, 40])
def test_repeated_squaring_runs_out_of_fuel_the_same_way_twice(k: int) -> None:
    te = _engine(_SQUARE.format(k=k))
    first = te.run({"n": 4})
    second = te.run({"n": 4})
    assert first.kind is OutcomeKind.TIMEOUT and "steps" in first.reason
    assert (second.kind, second.reason) == (first.kind, first.reason)


def test_small_squaring_still_computes() -> None:
    assert _engine(_SQUARE.format(k=10)).run({"n": 4}).value == pow(7, 2**10, 10)


def test_multiplication_cost_grows_with_operand_size() -> None:
    def spent(a: int, b: int) -> int:
        budget = limits.Budget(limits.Limits(fuel=10**12))
        with limits.using(budget):
            assert ops.int_mul(a, b) == a * b
        return budget.spent

    assert spent(3, 5) == 0
    small, big = spent(7**5000, 7**5000), spent(7**50000, 7**50000)
    assert 0 < small < big


def test_to_string_of_a_huge_number_is_charged() -> None:
    budget = limits.Budget(limits.Limits(fuel=10**12))
    with limits.using(budget):
        ops.int_str(7**100000)
    assert budget.spent > 1000
