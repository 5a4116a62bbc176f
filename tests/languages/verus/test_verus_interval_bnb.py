"""Interval branch and bound for a scalar binder over a huge finite range (``spec/intervals.py``).

Unit level: interval arithmetic contains every concrete value (brute force); ``decide`` agrees with
brute force on own predicates over ranges small enough to enumerate (both quantifiers), including
non-monotone ones (``/``, ``%``, ``if``) and ones where an instance is unknown. Real problem: lc3007
(``0 <= candidate <= 2^60`` under ``n / 2^i`` and ``n % 2^i``): the reference answer TRUE, the
neighbours FALSE, checked against a brute-force count for small ``k``.
"""

from __future__ import annotations

import itertools

import pytest

from shared_data import require
from veriscale.languages.verus.spec import SpecProgram
from veriscale.languages.verus.spec import intervals as iv
from veriscale.runtime.limits import Limits

_LIM = Limits(fuel=300_000, seconds=120, max_depth=100_000)


@pytest.mark.parametrize("op", ["+", "-", "*", "/", "%"])
def test_interval_arithmetic_contains_every_value(op: str) -> None:
    from veriscale.languages.verus.spec import runtime as rt

    conc = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
            "/": rt.ediv, "%": rt.emod}[op]  # fmt: skip
    for a, b in itertools.combinations(range(-9, 10, 2), 2):
        for m in (-4, -3, 2, 5, 7):
            got = iv._arith(op, iv.Iv(a, b), m)
            lo, hi = iv._bounds(got)
            vals = [conc(x, m) for x in range(a, b + 1)]
            assert lo <= min(vals) and max(vals) <= hi, (op, a, b, m, lo, hi)
            if op in ("+", "-", "*", "/"):
                assert (lo, hi) == (min(vals), max(vals))  # monotone in x: exact


_PREDS = """
verus! {
pub open spec fn p1(v: int, t: int) -> bool { (v / 7) % 3 == 1 && v % 5 == t ==> v * 2 != t + 40 }
pub open spec fn p2(v: int, t: int) -> bool { if v % 4 == 0 { v / 4 <= t } else { v + t > 30 } }
pub open spec fn sq(v: int) -> int decreases v { if v <= 0 { 0 } else { v + sq(v - 1) } }
pub open spec fn p3(v: int, t: int) -> bool { 0 <= v <= 50 ==> sq(v) != t }
pub open spec fn p4(v: int, t: int) -> bool { v / (t - 3) >= 0 || v > 20 }
fn f(v: i32) -> (r: bool) ensures r, { }
}
"""


@pytest.mark.parametrize("pred", ["p1", "p2", "p3", "p4"])
def test_decide_agrees_with_brute_force(pred: str) -> None:
    prog = SpecProgram.from_source(_PREDS, "f")
    fn = prog.ctx.fns[pred]
    comp = prog.compiler

    def leaf(env: dict[str, object]) -> bool:
        return comp.call_fn(fn, [env["v"], env["t"]])

    decided = 0
    if True:  # the default budget: no fuel limit
        for t in (-2, 0, 1, 3, 4, 55, 66, 1275):
            truths: list[bool | None] = []
            for v in range(0, 300):
                try:
                    truths.append(bool(leaf({"v": v, "t": t})))
                except Exception:
                    truths.append(None)
            for exists in (False, True):
                comp.reset()
                try:
                    got = iv.decide(comp, fn.body, "v", {"t": t}, exists, 0, 299, leaf)
                except Exception:
                    got = "error"
                want_hit = exists in truths
                if want_hit:
                    assert got is exists, (pred, t, exists)
                elif None in truths:
                    assert got == "error", (pred, t, exists)
                else:
                    assert got is (not exists), (pred, t, exists)
                decided += got in (True, False)
    assert decided >= 8


def test_lc3007_over_two_to_the_sixty() -> None:
    src = require("vericontest", "leetcode/lc3007", "spec.rs").read_text()
    prog = SpecProgram.from_source(src, "find_maximum_number")

    def price(num: int, x: int) -> int:
        return sum(bin(v)[::-1][i - 1 : i] == "1" for v in range(1, num + 1) for i in range(x, 62, x))

    for k, x in ((9, 1), (40, 3)):
        best = 0
        while price(best + 1, x) <= k:
            best += 1
        assert prog.ensures_verdict({"k": k, "x": x}, best, lim=_LIM).truth.value == "TRUE"
        assert prog.ensures_verdict({"k": k, "x": x}, best - 1, lim=_LIM).truth.value == "FALSE"
        assert prog.ensures_verdict({"k": k, "x": x}, best + 1, lim=_LIM).truth.value == "FALSE"
