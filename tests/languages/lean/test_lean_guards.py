"""Guard-bounded quantifiers (issue 18): exact verdicts, checked against brute force in Python."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from veriscale.languages.lean.native import NativeTaskEngine
from veriscale.runtime.engine import Truth
from veriscale.runtime.limits import Limits
from veriscale.values.types import BOOL, parse_type


def _engine(postcond: str, params: list[tuple[str, str]], fuel: int | None = None) -> NativeTaskEngine:
    lim = Limits(seconds=20.0) if fuel is None else Limits(seconds=20.0, fuel=fuel)
    return NativeTaskEngine(
        fn_name="f",
        params=[(n, parse_type(t)) for n, t in params],
        ret=BOOL,
        sections={"precond": "  True", "code": "  true", "postcond": "  " + postcond},
        limits=lim,
    )


def _lists(seed: int, n: int, max_len: int = 6, lo: int = -3, hi: int = 3) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.randint(lo, hi) for _ in range(rng.randint(0, max_len))) for _ in range(n)]


def _check(postcond: str, params: list[tuple[str, str]], cases: list[dict], oracle) -> None:  # type: ignore[no-untyped-def]
    te = _engine(postcond, params)
    for inputs in cases:
        got = te.postcondition(inputs, True)
        want = Truth.TRUE if oracle(**inputs) else Truth.FALSE
        assert got.truth is want, (postcond, inputs, got)


def _sorted(xs: tuple[int, ...]) -> bool:
    return all(a <= b for a, b in itertools.pairwise(xs))


def test_bound_through_another_binder() -> None:
    cases = [{"xs": xs} for xs in _lists(1, 60)]
    _check("∀ i j, i < j → j < xs.length → xs[i]! ≤ xs[j]!", [("xs", "List Int")], cases, _sorted)
    _check("∀ i j : Nat, i ≤ j → j < xs.length → xs[i]! ≤ xs[j]!", [("xs", "List Int")], cases, _sorted)
    _check(
        "∃ i j, i < j ∧ j < xs.length ∧ xs[i]! + xs[j]! = 0",
        [("xs", "List Int")],
        cases,
        lambda xs: any(xs[i] + xs[j] == 0 for i in range(len(xs)) for j in range(i + 1, len(xs))),
    )
    # curried hypotheses below the inner binder
    _check(
        "∀ i, ∀ j, i < j → j < xs.length → xs[i]! ≠ xs[j]!",
        [("xs", "List Int")],
        cases,
        lambda xs: len(set(xs)) == len(xs),
    )


def test_int_binders_need_both_bounds() -> None:
    te = _engine("∀ i j : Int, i < j → j < 3 → i ≤ 2", [("xs", "List Int")])
    # no lower bound on i: not a finite domain, the engine must not claim TRUE by enumeration alone
    v = te.postcondition({"xs": ()}, True)
    assert v.truth is Truth.UNKNOWN
    _check(
        "∀ i j : Int, 0 ≤ i → i < j → j < xs.length → xs[i.toNat]! ≤ xs[j.toNat]!",
        [("xs", "List Int")],
        [{"xs": xs} for xs in _lists(2, 30)],
        _sorted,
    )


def test_membership_equivalence_and_counts() -> None:
    pairs = [{"xs": a, "ys": b} for a, b in zip(_lists(3, 40), _lists(4, 40), strict=True)]
    pairs += [{"xs": a, "ys": tuple(reversed(a))} for a in _lists(5, 20)]
    params = [("xs", "List Int"), ("ys", "List Int")]
    _check("∀ x, x ∈ xs ↔ x ∈ ys", params, pairs, lambda xs, ys: set(xs) == set(ys))
    _check("∀ x, xs.count x = ys.count x", params, pairs, lambda xs, ys: Counter(xs) == Counter(ys))
    _check("∀ x, x ∈ xs → x ∈ ys", params, pairs, lambda xs, ys: set(xs) <= set(ys))
    # the fresh representative decides the cases no member does
    _check("∃ x, x ∉ xs", params, pairs, lambda xs, ys: True)
    _check("∀ x, x ∈ xs", params, pairs, lambda xs, ys: False)
    _check("∀ x, x = 2 ∨ x ∈ xs", params, pairs, lambda xs, ys: False)


def test_finite_support_on_other_types() -> None:
    _check(
        "∀ b : Bool, b ∈ bs",
        [("bs", "List Bool")],
        [{"bs": b} for b in [(), (True,), (False, True), (True, True)]],
        lambda bs: set(bs) == {False, True},
    )
    _check(
        "∃ c, c ∉ s.toList ∧ c ∉ t.toList",
        [("s", "String"), ("t", "String")],
        [{"s": "abc", "t": ""}, {"s": "", "t": ""}],
        lambda s, t: True,
    )


def test_sublist_and_infix_binders() -> None:
    cases = [{"xs": xs} for xs in _lists(6, 40, max_len=7)]
    subs = lambda xs: {c for r in range(len(xs) + 1) for c in itertools.combinations(xs, r)}  # noqa: E731
    infixes = lambda xs: {xs[i:j] for i in range(len(xs) + 1) for j in range(i, len(xs) + 1)}  # noqa: E731
    p = [("xs", "List Int")]
    _check("∃ l, l <+ xs ∧ l.sum = 4", p, cases, lambda xs: any(sum(s) == 4 for s in subs(xs)))
    _check("∀ l : List Int, l <+ xs → l.sum ≤ 5", p, cases, lambda xs: all(sum(s) <= 5 for s in subs(xs)))
    _check(
        "∃ l ∈ xs.sublists, l.length = 3 ∧ l.sum = 0",
        p,
        cases,
        lambda xs: any(len(s) == 3 and sum(s) == 0 for s in subs(xs)),
    )
    _check(
        "∃ s, s <:+: xs ∧ s.length = 2 ∧ s.sum = 0",
        p,
        cases,
        lambda xs: any(len(s) == 2 and sum(s) == 0 for s in infixes(xs)),
    )
    _check(
        "∀ s, s <+: xs → s.sum ≥ -2", p, cases, lambda xs: all(sum(xs[:i]) >= -2 for i in range(len(xs) + 1))
    )
    _check(
        "∀ s, s <:+ xs → s.sum ≤ 2", p, cases, lambda xs: all(sum(xs[i:]) <= 2 for i in range(len(xs) + 1))
    )
    _check(
        "∃ l, List.Perm l xs ∧ List.Sorted (· < ·) l",
        p,
        [{"xs": xs} for xs in _lists(7, 20, max_len=5)],
        lambda xs: len(set(xs)) == len(xs),
    )


def test_append_equation_bounds_the_pieces() -> None:
    pairs = [
        {"xs": a, "ys": b}
        for a, b in zip(
            _lists(8, 40, max_len=6, lo=0, hi=1), _lists(9, 40, max_len=2, lo=0, hi=1), strict=True
        )
    ]
    infix = lambda xs, ys: any(xs[i : i + len(ys)] == ys for i in range(len(xs) - len(ys) + 1))  # noqa: E731
    _check("∃ s t : List Int, xs = s ++ ys ++ t", [("xs", "List Int"), ("ys", "List Int")], pairs, infix)


def test_exponential_domain_is_charged_fuel() -> None:
    te = _engine("∀ l, l <+ xs → l.length ≤ 100", [("xs", "List Int")], fuel=100_000)
    v = te.postcondition({"xs": tuple(range(40))}, True)
    assert v.truth is Truth.UNKNOWN
    assert "steps" in v.reason


def test_support_of_the_conclusion_decides_when_it_holds_outside() -> None:
    pairs = [{"xs": a, "ys": b} for a, b in zip(_lists(10, 40), _lists(11, 40), strict=True)]
    pairs += [{"xs": a, "ys": tuple(sorted(a))} for a in _lists(12, 20)]
    params = [("xs", "List Int"), ("ys", "List Int")]
    even_counts = lambda xs, ys: all(xs.count(x) == ys.count(x) for x in set(xs) | set(ys) if x % 2 == 0)  # noqa: E731
    _check("∀ x, x % 2 = 0 → ys.count x = xs.count x", params, pairs, even_counts)
    _check("∀ x, x > 0 → x ∈ xs → x ∈ ys", params, pairs, lambda xs, ys: all(x in ys for x in xs if x > 0))
    # outside the support the conclusion is false: the hypotheses would have to decide; UNKNOWN
    te = _engine("∀ x, x % 2 = 0 → ys.count x = xs.count x + 1", params)
    assert te.postcondition({"xs": (1, 2), "ys": (2,)}, True).truth is Truth.UNKNOWN
