"""Questions about all subsequences answered symbolically (eval/subseqs.py).

Every verdict must be the plain code's wherever the plain code decides, on fewer fuel; shapes
that are not recognised exactly (near misses) must keep the plain code.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from shared_data import VERINAPLUS, require
from veriscale.languages.lean.errors import LimitExceeded
from veriscale.languages.lean.eval import subseqs
from veriscale.languages.lean.program import TaskProgram
from veriscale.runtime import limits
from veriscale.values.types import INT, NAT, STRING, array_of, list_of

SUBSEQ = "(xs.foldl fun acc x => acc ++ acc.map (fun sub => x :: sub)) [[]] |>.map List.reverse"
LIS = (
    f"  let allSubseq := {SUBSEQ}\n"
    "  let lens := allSubseq.filter (fun l => List.Pairwise (REL) l) |>.map (·.length)\n"
    "  lens.contains result ∧ lens.all (· ≤ result)"
)
LCS_LENS = (
    "  let allSubseq (arr : Array Int) := (arr.foldl fun acc x => acc ++ acc.map (fun sub => x :: sub)) [[]] |>.map List.reverse\n"
    "  let subseqA := allSubseq a\n"
    "  let subseqB := allSubseq b\n"
    "  let lens := subseqA.filter (fun l => subseqB.contains l) |>.map (·.length)\n"
    "  lens.contains result ∧ lens.all (· ≤ result)"
)
LCS_LISTS = (
    "  let allSubseq (arr : List Char) := (arr.foldl fun acc x => acc ++ acc.map (fun sub => x :: sub)) [[]] |>.map List.reverse\n"
    "  let subseqA := allSubseq s1.toList\n"
    "  let subseqB := allSubseq s2.toList\n"
    "  let common := subseqA.filter (fun l => subseqB.contains l)\n"
    "  common.contains result.toList ∧ common.all (fun l => l.length ≤ result.length)"
)


@contextmanager
def _symbolic(on: bool) -> Iterator[None]:
    saved = subseqs.ENABLED
    subseqs.ENABLED = on
    try:
        yield
    finally:
        subseqs.ENABLED = saved


def _program(params: list[tuple[str, Any]], ret: Any, post: str, on: bool) -> TaskProgram:
    with _symbolic(on):
        tp = TaskProgram.build("f", params, ret, {"code": "  default", "postcond": post})
        tp._postcond_fn()  # compiled now, with the rewrite on or off
    return tp


def _symbolic_used(tp: TaskProgram) -> bool:
    return any("_sq_" in s for s in tp.compiler.sources)


def _judge(tp: TaskProgram, args: dict[str, Any], result: Any, fuel: int = 10**7) -> tuple[object, int]:
    b = limits.Budget(limits.Limits(seconds=600, fuel=fuel))
    try:
        with limits.using(b):
            got: object = tp.postcond(args, result)
    except LimitExceeded as exc:
        got = str(exc)
    return got, b.spent


def _agree(fast: TaskProgram, plain: TaskProgram, args: dict[str, Any], result: Any) -> bool:
    """Same verdict as the plain code, and no more fuel; returns the verdict."""
    got, fuel = _judge(fast, args, result)
    want, plain_fuel = _judge(plain, args, result)
    assert got == want, (args, result)
    assert fuel <= plain_fuel, (args, result, fuel, plain_fuel)
    assert isinstance(got, bool)
    return got


@pytest.mark.parametrize("rel", ["· < ·", "· ≤ ·", "· > ·", "· ≥ ·"])
@pytest.mark.parametrize("ty", [list_of(INT), array_of(INT), list_of(NAT)])
def test_longest_chain_agrees_with_the_plain_code(rel: str, ty: Any) -> None:
    post = LIS.replace("REL", rel)
    ret = NAT
    fast, plain = _program([("xs", ty)], ret, post, True), _program([("xs", ty)], ret, post, False)
    assert _symbolic_used(fast) and not _symbolic_used(plain)
    rng = random.Random(f"lis {rel} {ty}")
    nat = "Nat" in str(ty)
    truths = set()
    for n in list(range(0, 9)) * 4:
        xs = tuple(rng.randint(0 if nat else -3, 4) for _ in range(n))
        for result in range(0, n + 2):
            truths.add(_agree(fast, plain, {"xs": xs}, result))
    assert truths == {True, False}


def test_longest_common_subsequence_lengths_agree_with_the_plain_code() -> None:
    params = [("a", array_of(INT)), ("b", array_of(INT))]
    fast, plain = _program(params, INT, LCS_LENS, True), _program(params, INT, LCS_LENS, False)
    assert _symbolic_used(fast)
    rng = random.Random("lcs")
    truths = set()
    for _ in range(60):
        a = tuple(rng.randint(0, 3) for _ in range(rng.randint(0, 7)))
        b = tuple(rng.randint(0, 3) for _ in range(rng.randint(0, 7)))
        for result in range(-1, 5):
            truths.add(_agree(fast, plain, {"a": a, "b": b}, result))
    assert truths == {True, False}


def test_common_subsequence_lists_agree_with_the_plain_code() -> None:
    params = [("s1", STRING), ("s2", STRING)]
    fast, plain = _program(params, STRING, LCS_LISTS, True), _program(params, STRING, LCS_LISTS, False)
    assert _symbolic_used(fast)
    rng = random.Random("lcs lists")
    truths = set()
    for _ in range(40):
        s1 = "".join(rng.choice("abc") for _ in range(rng.randint(0, 7)))
        s2 = "".join(rng.choice("abc") for _ in range(rng.randint(0, 7)))
        # every subsequence of s1 (common or not, longest or not) and a few others
        outs = {s1[i:j] for i in range(len(s1) + 1) for j in range(i, len(s1) + 1)}
        outs |= {"".join(c for k, c in enumerate(s1) if (m >> k) & 1) for m in range(0, 1 << len(s1), 3)}
        outs |= {"d", "ab" * 4}
        for result in sorted(outs):
            truths.add(_agree(fast, plain, {"s1": s1, "s2": s2}, result))
    assert truths == {True, False}


@pytest.mark.parametrize(
    "post",
    [
        # a relation that is not transitive: the longest-chain DP would be wrong
        LIS.replace("REL", "· ≠ ·"),
        # the lengths used as a list (its length counts duplicates)
        LIS.replace("REL", "· < ·").replace("lens.contains result ∧ ", "lens.length ≥ result ∧ "),
        # a predicate that is not a simple comparison
        LIS.replace("REL", "· < ·").replace("lens.all (· ≤ result)", "lens.all (fun k => k * k ≤ result)"),
        # no reverse: the members are the reversed subsequences
        LIS.replace("REL", "· < ·").replace(" |>.map List.reverse", ""),
        # another filter
        LIS.replace("REL", "· < ·").replace("List.Pairwise (· < ·) l", "l.sum > 0"),
        # a fold from another start
        LIS.replace("REL", "· < ·").replace("[[]] |>", "[[0]] |>"),
    ],
)
def test_near_misses_keep_the_plain_code(post: str) -> None:
    fast = _program([("xs", list_of(INT))], NAT, post, True)
    plain = _program([("xs", list_of(INT))], NAT, post, False)
    assert not _symbolic_used(fast)
    for xs in ((), (3, 1, 2), (1, 2, 2, 5, 4, 0)):
        for result in range(0, 5):
            assert _judge(fast, {"xs": xs}, result) == _judge(plain, {"xs": xs}, result)


def test_a_filtered_family_as_the_filter_keeps_the_plain_code() -> None:
    post = LCS_LENS.replace(
        "let subseqB := allSubseq b", "let subseqB := (allSubseq b).filter (fun l => l.length > 1)"
    )
    params = [("a", array_of(INT)), ("b", array_of(INT))]
    assert not _symbolic_used(_program(params, INT, post, True))


def test_long_inputs_are_decided_where_the_plain_code_gives_up() -> None:
    """24 elements: the plain code runs out of 10 million steps building 2^24 lists; the DP
    charges at most the plain folds' fuel and decides (checked against the O(n²) recurrence)."""
    post = LIS.replace("REL", "· < ·")
    fast = _program([("xs", list_of(INT))], NAT, post, True)
    xs = (5, -3, 8, 8, 1, 9, 2, 7, 0, 4, 11, -6, 3, 12, 13, 6, 14, 10, 15, -1, 16, 17, 2, 18)
    best = [1] * len(xs)
    for i in range(len(xs)):
        for j in range(i):
            if xs[j] < xs[i]:
                best[i] = max(best[i], best[j] + 1)
    want = max(best)
    # fuel: the entry tick's block, the DP's n² cells, the contains scan of the lengths (1)
    assert _judge(fast, {"xs": xs}, want) == (True, 1024 + len(xs) ** 2 + 1)
    assert _judge(fast, {"xs": xs}, want - 1)[0] is False
    assert _judge(fast, {"xs": xs}, want + 1)[0] is False


def test_fold_charge_mirrors_the_doubling_fold() -> None:
    # (n + 1 above 16, then each step's list of 2^k lists above 16)
    assert [subseqs.fold_charge(n) for n in (0, 4, 5, 6, 16)] == [
        0,
        0,
        0,
        32,
        17 + sum(2**k for k in range(5, 16)),
    ]


@pytest.mark.parametrize(
    ("task", "row", "fuel"), [("verina_advanced_32", 574, 4000), ("verina_advanced_2", 37, 4000)]
)
def test_verinaplus_rows_the_plain_code_left_unknown(task: str, row: int, fuel: int) -> None:
    """Rows the plain code ran out of fuel on (10 million steps) are decided within a few
    thousand (confirmed by benchmarks/confirm_subseq_verdicts.py)."""
    from veriscale.evaluate.scoring.cases import decode_rows
    from veriscale.formats.verina.dataset import read_task
    from veriscale.languages.lean.native import NativeEngine

    t = read_task(require(VERINAPLUS, task))
    r = decode_rows(t).tests[row]
    te = NativeEngine(limits.Limits(fuel=10_000_000, seconds=600)).for_task(t)
    v = te.postcondition(r.inputs, r.expected)
    assert v.is_true
    assert te.fuel_spent <= fuel
