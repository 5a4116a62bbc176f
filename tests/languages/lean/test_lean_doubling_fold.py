"""The all-subsequences doubling fold runs natively with the plain code's checks (eval/doubling.py).

Every verdict, reason and fuel count must be those of the plain compiled code, including the
check that ends the run (the fold's size refusal, or running out of fuel before, in or after it).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from veriscale.languages.lean.errors import LimitExceeded
from veriscale.languages.lean.eval import doubling, subseqs
from veriscale.languages.lean.program import TaskProgram
from veriscale.runtime import limits
from veriscale.values.types import INT, NAT, array_of, list_of

LIS = (
    "  let allSubseq := (xs.foldl fun acc x => acc ++ acc.map (fun sub => x :: sub)) [[]] |>.map List.reverse\n"
    "  let lens := allSubseq.filter (fun l => List.Pairwise (· < ·) l) |>.map (·.length)\n"
    "  lens.contains result ∧ lens.all (· ≤ result)"
)


@contextmanager
def _rewrite(on: bool) -> Iterator[None]:
    # (the symbolic subsequence questions of eval/subseqs.py would bypass the fold: off here)
    saved = doubling.ENABLED, subseqs.ENABLED
    doubling.ENABLED, subseqs.ENABLED = on, False
    try:
        yield
    finally:
        doubling.ENABLED, subseqs.ENABLED = saved


def _program(post: str, container: str, on: bool) -> TaskProgram:
    ty = array_of(INT) if container == "Array" else list_of(INT)
    with _rewrite(on):
        tp = TaskProgram.build("f", [("xs", ty)], NAT, {"code": "  0", "postcond": post})
        tp.check("postcond")  # compiled now, with the rewrite on or off
        tp._postcond_fn()  # (and the version postcond() calls, compiled on first use)
    return tp


def _judge(tp: TaskProgram, xs: tuple, result: int, fuel: int, size: int) -> tuple[object, int]:
    b = limits.Budget(limits.Limits(seconds=600, fuel=fuel, max_size=size))
    try:
        with limits.using(b):
            got: object = tp.postcond({"xs": xs}, result)
    except LimitExceeded as exc:
        got = str(exc)
    return got, b.spent


def _lis(xs: tuple) -> int:
    best = [1] * len(xs)
    for i in range(len(xs)):
        for j in range(i):
            if xs[j] < xs[i]:
                best[i] = max(best[i], best[j] + 1)
    return max(best, default=0)


def test_the_idiom_is_compiled_to_the_native_fold() -> None:
    tp = _program(LIS, "List", True)
    assert any("_dfold(" in s for s in tp.compiler.sources)
    plain = _program(LIS, "List", False)
    assert not any("_dfold(" in s for s in plain.compiler.sources)
    # another step function is not the idiom
    other = _program(LIS.replace("acc ++ acc.map", "acc.map (fun s => s) ++ acc.map"), "List", True)
    assert not any("_dfold(" in s for s in other.compiler.sources)


@pytest.mark.parametrize("container", ["List", "Array"])
def test_same_verdicts_reasons_and_fuel_as_the_plain_code(container: str) -> None:
    fast, plain = _program(LIS, container, True), _program(LIS, container, False)
    seq = (5, -3, 8, 8, 1, 9, 2, 7, 0, 4, 11, -6, 3, 12)
    # size limits and fuel budgets around every check of the run: the fold's own charges, its
    # size refusals, and the later stages (reverse, filter, lengths) running out
    # (a doubled list is only measured from 10000 elements: 14 elements reach 16384)
    cases = [(14, 10**7, 5_000_000), (14, 10**7, 16384), (14, 10**7, 16383), (13, 10**7, 8191)]
    cases += [(n, fuel, 10**4) for n in (6, 12, 14) for fuel in (10, 17, 1040, 1100, 3000, 9000, 30000)]
    cases += [(14, fuel, 10**6) for fuel in range(17400, 17500, 9)]
    seen = set()
    for n, fuel, size in cases:
        xs = seq[:n]
        for result in (_lis(xs), _lis(xs) + 1):
            got = _judge(fast, xs, result, fuel, size)
            want = _judge(plain, xs, result, fuel, size)
            assert got == want, (n, fuel, size, result)
            seen.add(type(got[0]))
    assert seen == {bool, str}  # both finished verdicts and limits were exercised


def test_a_size_refusal_is_predicted_before_building() -> None:
    """With the limit under the fold's last doubling, the fast fold builds nothing and raises the
    plain code's reason after charging the plain code's fuel."""
    fast, plain = _program(LIS, "List", True), _program(LIS, "List", False)
    xs = tuple(range(14))  # the last step doubles 8192 lists to 16384 (over a 10000 limit)
    got = _judge(fast, xs, 14, 10**7, 10_000)
    assert got == _judge(plain, xs, 14, 10**7, 10_000)
    assert got[0] == "value of size 16384 exceeds the limit 10000"
    # fuel: the entry tick's block of 1024, no charge for the fold's 14 + 1 elements (at most 16),
    # then each step's map of 32, 64, ..., 8192 lists
    assert got[1] == 1024 + sum(2**k for k in range(5, 14))


def test_an_empty_start_never_grows() -> None:
    post = "  let s := (xs.foldl fun acc x => acc ++ acc.map (fun sub => x :: sub)) []\n  s.length = result"
    fast, plain = _program(post, "List", True), _program(post, "List", False)
    xs = tuple(range(40))
    assert _judge(fast, xs, 0, 10**6, 100) == _judge(plain, xs, 0, 10**6, 100) == (True, 1024 + 40)
