"""One-sided binders over spec fns that recurse on them: affine tails proved by induction (affine_tails)."""

from __future__ import annotations

from veriscale.languages.verus.spec import SpecProgram
from veriscale.runtime.limits import Limits

_FNS = """
pub open spec fn count_up(r: int) -> int
    decreases r
{
    if r <= 0 { 0 } else { count_up(r - 1) + 1 }
}
pub open spec fn late_step(r: int) -> int
    decreases r
{
    if r <= 0 { 0 } else if r < 4200 { late_step(r - 1) } else { late_step(r - 1) + 1 }
}
pub open spec fn triangle(r: int) -> int
    decreases r
{
    if r <= 0 { 0 } else { triangle(r - 1) + r }
}
"""


def _spec(body: str) -> SpecProgram:
    src = f"""use vstd::prelude::*;
verus! {{
pub struct Solution;
{_FNS}
impl Solution {{
pub fn f(n: i32) -> (r: bool)
{body}
{{ }}
}}
}}"""
    return SpecProgram.from_source(src)


_LIM = Limits(fuel=2_000_000, seconds=120, max_depth=100_000)


def _verdict(prog: SpecProgram, n: int, r: bool) -> str:
    return prog.ensures_verdict({"n": n}, r, lim=_LIM).truth.value


def test_an_affine_tail_decides_beyond_the_searched_prefix() -> None:
    # count_up(r) == r: the only counterexamples of "count_up(r) <= n" lie beyond the 4096 searched values
    prog = _spec("ensures r == (forall |m: int| 0 <= m ==> count_up(m) <= n as int),")
    assert _verdict(prog, 5000, False) == "TRUE"
    assert _verdict(prog, 5000, True) == "FALSE"
    always = _spec("ensures r == (forall |m: int| 0 <= m ==> count_up(m) >= 0),")
    assert _verdict(always, 0, True) == "TRUE"
    assert _verdict(always, 0, False) == "FALSE"
    witness = _spec("ensures r == (exists |m: int| 0 <= m && count_up(m) == n as int + 4500),")
    assert _verdict(witness, 100, True) == "TRUE"
    assert _verdict(witness, -5000, False) == "TRUE"  # count_up(m) >= 0 > -500 for every m


def test_a_tail_that_changes_later_is_not_proved() -> None:
    # late_step is constant on the searched prefix and where the hypothesis is guessed, but grows from
    # 4200 on: the induction step splits there, so no tail is claimed (TRUE would be wrong)
    prog = _spec("ensures r == (forall |m: int| 0 <= m ==> late_step(m) == 0),")
    assert _verdict(prog, 0, True) != "TRUE"
    assert _verdict(prog, 0, False) != "FALSE"


def test_a_quadratic_tail_is_not_taken_for_an_affine_one() -> None:
    # triangle(m) = m (m + 1) / 2: the slope guessed from two values is wrong one step later
    prog = _spec("ensures r == (forall |m: int| 0 <= m ==> triangle(m) <= 20_000_000),")
    assert _verdict(prog, 0, True) != "TRUE"
