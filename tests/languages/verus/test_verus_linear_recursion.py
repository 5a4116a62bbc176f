"""Linear self-recursion summed in closed form (``spec/linrec.py``) and exact ``/``/``%`` on affine
stand-ins whose coefficients the divisor divides (``affine.arith``).

Own specs: values checked against closed formulas at depths far beyond the recursion limit, and
against the plain call-by-call evaluation at depths within it; near misses that must not be
recognised (coefficient 2, two self-calls, the call subtracted, the counter used as an index) keep
the plain evaluation (decided when shallow, the depth limit when deep). Real problem: cf1077A.
"""

from __future__ import annotations

import pytest

from shared_data import require
from veriscale.languages.verus.spec import SpecProgram, linrec
from veriscale.languages.verus.spec import affine as af
from veriscale.runtime.limits import Limits

_LIM = Limits(fuel=300_000, seconds=120, max_depth=100_000)

_SPEC = """
verus! {
pub open spec fn delta(a: int, b: int, j: int) -> int { if j % 2 == 1 { a } else { -b } }
pub open spec fn walk(a: int, b: int, k: int) -> int
    decreases k
{
    if k <= 0 { 0 } else { walk(a, b, k - 1) + delta(a, b, k) }
}
pub open spec fn tri(k: int) -> int
    decreases k
{
    if k <= 0 { 7 } else { k + tri(k - 1) }
}
pub open spec fn squares(k: int) -> int
    decreases k
{
    if k > 0 { squares(k - 2) + k * k - k / 3 } else { k }
}
pub open spec fn up(i: int, n: int) -> int
    decreases n - i
{
    if i > n { 0 } else { up(i + 3, n) - (i % 5) * 2 + 1 }
}
pub open spec fn doubled(k: int) -> int
    decreases k
{
    if k <= 0 { 0 } else { 2 * doubled(k - 1) + 1 }
}
pub open spec fn fib(k: int) -> int
    decreases k
{
    if k <= 1 { k } else { fib(k - 1) + fib(k - 2) }
}
pub open spec fn neg(k: int) -> int
    decreases k
{
    if k <= 0 { 0 } else { 1 - neg(k - 1) }
}
pub open spec fn idx(s: Seq<int>, i: int) -> int
    decreases s.len() - i
{
    if i >= s.len() { 0 } else { idx(s, i + 1) + s[i] }
}
fn f_walk(a: i64, b: i64, k: i64) -> (r: i64) ensures r == walk(a as int, b as int, k as int), { }
fn f_tri(k: i64) -> (r: i64) ensures r == tri(k as int), { }
fn f_squares(k: i64) -> (r: i64) ensures r == squares(k as int), { }
fn f_up(i: i64, n: i64) -> (r: i64) ensures r == up(i as int, n as int), { }
fn f_doubled(k: i64) -> (r: i64) ensures r == doubled(k as int), { }
fn f_fib(k: i64) -> (r: i64) ensures r == fib(k as int), { }
fn f_neg(k: i64) -> (r: i64) ensures r == neg(k as int), { }
fn f_idx(s: Vec<i64>) -> (r: i64) ensures r == idx(s@, 0), { }
}
"""


def _walk(a: int, b: int, k: int) -> int:
    return sum(a if j % 2 == 1 else -b for j in range(1, k + 1))


def _squares(k: int) -> int:
    total = 0
    while k > 0:
        total += k * k - k // 3
        k -= 2
    return total + k


def _up(i: int, n: int) -> int:
    return sum(-(j % 5) * 2 + 1 for j in range(i, n + 1, 3))


def _verdict(target: str, inputs: dict[str, object], out: object, lim: Limits = _LIM) -> str:
    prog = SpecProgram.from_source(_SPEC, target)
    return prog.ensures_verdict(inputs, out, lim=lim).truth.value


def test_affine_mod_and_div_when_the_divisor_divides_the_coefficients() -> None:
    cell = af.Cell("u", 0, 100)
    v = af.Affine(cell, 6, 7)  # 6u + 7
    assert af.arith("%", v, 3) == 1 and af.arith("%", v, -3) == 1
    q = af.arith("/", v, 3)
    assert all(q.at(u) == (6 * u + 7) // 3 for u in range(0, 101))
    q = af.arith("/", v, -2)  # Euclidean: 6u + 7 = -2 * (-3u - 3) + 1
    assert all(q.at(u) == -3 * u - 3 for u in range(0, 101))
    with pytest.raises(af.NeedsPeriod) as info:
        af.arith("%", af.Affine(cell, 1, 0), 2)
    assert info.value.modulus == 2
    with pytest.raises(af.NotAffine):  # still the affine fragment's refusal for the old callers
        af.arith("/", af.Affine(cell, 1, 0), 2)


@pytest.mark.parametrize("k", [64, 65, 999, 10**9, 999_999_999])
def test_periodic_step_far_beyond_the_depth_limit(k: int) -> None:
    for a, b in ((1, 1), (5, 2), (1_000_000_000, 3)):
        good = (k + 1) // 2 * a - k // 2 * b
        assert _verdict("f_walk", {"a": a, "b": b, "k": k}, good) == "TRUE"
        assert _verdict("f_walk", {"a": a, "b": b, "k": k}, good + 1) == "FALSE"
        assert _verdict("f_walk", {"a": a, "b": b, "k": k}, good - a - b) == "FALSE"


def test_agrees_with_the_plain_evaluation_within_the_depth_limit() -> None:
    for k in (0, 1, 63, 64, 65, 200, 1001):
        assert _verdict("f_walk", {"a": 9, "b": 4, "k": k}, _walk(9, 4, k)) == "TRUE"
        assert _verdict("f_squares", {"k": k}, _squares(k)) == "TRUE"
        assert _verdict("f_squares", {"k": k}, _squares(k) - 1) == "FALSE"
    for i, n in ((0, 500), (-7, 1000), (3, 2), (10, 400)):
        assert _verdict("f_up", {"i": i, "n": n}, _up(i, n)) == "TRUE"
        assert _verdict("f_up", {"i": i, "n": n}, _up(i, n) + 2) == "FALSE"


def test_quadratic_and_divided_steps_in_closed_form() -> None:
    for k in (10**6, 10**9 + 1, 12_345_678):
        assert _verdict("f_tri", {"k": k}, k * (k + 1) // 2 + 7) == "TRUE"
        assert _verdict("f_tri", {"k": k}, k * (k + 1) // 2 + 8) == "FALSE"
    k = 400_001  # 200,001 nested calls: twice the depth limit
    want = _squares(k)
    assert _verdict("f_squares", {"k": k}, want) == "TRUE"
    assert _verdict("f_up", {"i": 0, "n": 3 * 10**9}, _up_closed(0, 3 * 10**9)) == "TRUE"


def _up_closed(i: int, n: int) -> int:
    # one period of j = i + 3t is 5 steps (j mod 5 runs through all residues): -(0+1+2+3+4)*2 + 5 = -15
    count = (n - i) // 3 + 1
    full, rest = divmod(count, 5)
    return full * -15 + sum(-((i + 3 * t) % 5) * 2 + 1 for t in range(full * 5, full * 5 + rest))


@pytest.mark.parametrize("target", ["f_doubled", "f_fib", "f_neg"])
def test_near_misses_are_not_recognised(target: str) -> None:
    """Coefficient 2, two self-calls, the call subtracted: no plan; deep calls keep the depth limit."""
    prog = SpecProgram.from_source(_SPEC, target)
    fn = prog.ctx.fns[target[2:]]
    assert linrec.plan(fn, lambda c: prog.compiler._fn_of(c) is fn) is None
    shallow = {"f_doubled": 2**10 - 1, "f_fib": 55, "f_neg": 0}[target]
    assert _verdict(target, {"k": 10}, shallow) == "TRUE"
    if target != "f_fib":
        got = prog.ensures_verdict({"k": 5_000}, 0, lim=Limits(fuel=300_000, seconds=120, max_depth=2_000))
        assert got.truth.value == "UNKNOWN" and "deeper" in got.reason


def test_counter_used_as_an_index_falls_back_to_the_plain_evaluation() -> None:
    """``idx(s, i + 1) + s[i]`` has the shape, but ``s[i]`` leaves the affine fragment: call by call."""
    s = tuple(range(100, 300))
    assert _verdict("f_idx", {"s": s}, sum(s)) == "TRUE"
    assert _verdict("f_idx", {"s": s}, sum(s) + 1) == "FALSE"


def test_cf1077a_frog_jumps() -> None:
    """``spec_frog_after_jumps(a, b, k - 1) + spec_jump_delta(a, b, k)`` with k up to 10^9: the clause
    that needed 10^9 nested calls is decided alone (the other ensures clause is dropped here)."""
    src = require("vericontest", "codeforces/cf1077A", "spec.rs").read_text()
    only_rec = src[: src.index("exists|na")].rstrip().rstrip(",") + ",\n    {\n    }\n}\n\n}\n"
    assert "exists" not in only_rec
    prog = SpecProgram.from_source(only_rec, "frog_position_after_jumps")
    for a, b, k in ((1, 1, 10**9), (1, 1, 999_999_999), (3, 2, 999_999_999), (10**9, 10**9, 10**9)):
        good = (k + 1) // 2 * a - k // 2 * b
        assert prog.ensures_verdict({"a": a, "b": b, "k": k}, good, lim=_LIM).truth.value == "TRUE"
        assert prog.ensures_verdict({"a": a, "b": b, "k": k}, good + 1, lim=_LIM).truth.value == "FALSE"
