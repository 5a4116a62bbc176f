"""The z3 back end of the Verus spec evaluator (``spec/z3_terms.py``, ``spec/z3_decide.py``).

Semantics: Verus' Euclidean ``/``/``%`` are z3's ``div``/``mod`` (checked by brute force). Own specs:
clauses enumeration cannot decide within a small budget, decided both ways by z3; near misses that
must stay UNKNOWN (an index or a cast that may be undefined, nonlinear arithmetic beyond the solver,
a recursion on a symbolic measure, char sequences). Real problems (shared data): the reference
answer TRUE and wrong answers FALSE, each UNKNOWN with the back end off — so each verdict is the
back end's.
"""

from __future__ import annotations

import pytest

from shared_data import require
from veriscale.languages.verus.spec import SpecProgram
from veriscale.languages.verus.spec import runtime as rt
from veriscale.runtime.limits import Limits
from veriscale.values.runtime import Some

z3 = pytest.importorskip("z3", reason="z3-solver is not installed: the z3 back end is off")

FUEL = 20_000  # the evaluator gives up early; the z3 back end then decides


def _truth(prog: SpecProgram, inputs: dict[str, object], output: object, fuel: int = FUEL) -> str:
    lim = Limits(fuel=fuel, seconds=120, max_depth=100_000)
    return prog.ensures_verdict(inputs, output, lim=lim).truth.value


def _off(
    monkeypatch: pytest.MonkeyPatch, prog: SpecProgram, inputs: dict[str, object], output: object
) -> str:
    with monkeypatch.context() as m:
        m.setenv("VERISCALE_SPEC_Z3", "0")
        return _truth(prog, inputs, output)


# ---- semantics shared with z3


def test_euclidean_division_matches_z3() -> None:
    ctx = z3.Context()
    for a in range(-13, 14):
        for b in [*range(-5, 0), *range(1, 6)]:
            x, y = z3.IntVal(a, ctx), z3.IntVal(b, ctx)
            assert z3.simplify(x / y).as_long() == rt.ediv(a, b), (a, b)
            assert z3.simplify(x % y).as_long() == rt.emod(a, b), (a, b)


# ---- own specs

_COMBO = """
verus! {
pub open spec fn weighted(w: int, c: Seq<int>) -> int
    decreases c.len(),
{
    if c.len() == 0 { 0 } else { c[0] + w * weighted(w, c.subrange(1, c.len() as int)) }
}
fn f(w: i64, m: i64) -> (r: bool)
    ensures
        r == (exists|c: Seq<int>| c.len() <= 12
            && (forall|i: int| 0 <= i < c.len() ==> -1 <= #[trigger] c[i] <= 1)
            && weighted(w as int, c) == m as int),
{ }
fn g(a: i64, b: i64) -> (r: bool)
    ensures
        r == (forall|x: int, y: int| a * x + b * y != 1),
{ }
}
"""


def test_sequence_binder_by_length_cases(monkeypatch: pytest.MonkeyPatch) -> None:
    """Balanced base-w digits: 3^13 sequences for enumeration, 13 length cases for z3."""
    prog = SpecProgram.from_source(_COMBO, "f")
    assert _off(monkeypatch, prog, {"w": 10, "m": 5}, False) == "UNKNOWN"
    assert _truth(prog, {"w": 10, "m": 5}, False) == "TRUE"  # 5 = c0 (mod 10) with |c0| <= 1: none
    assert _truth(prog, {"w": 10, "m": 5}, True) == "FALSE"
    assert _truth(prog, {"w": 10, "m": 909}, True) == "TRUE"  # 909 = 1 - 10 + 1000 - ... : a witness
    assert _truth(prog, {"w": 10, "m": 909}, False) == "FALSE"


def test_unbounded_pair_of_binders(monkeypatch: pytest.MonkeyPatch) -> None:
    """``a*x + b*y != 1`` for all integers iff gcd(a, b) != 1 (Bezout): linear, two unbounded binders."""
    prog = SpecProgram.from_source(_COMBO, "g")
    assert _off(monkeypatch, prog, {"a": 6, "b": 10}, True) == "UNKNOWN"
    assert _truth(prog, {"a": 6, "b": 10}, True) == "TRUE"
    assert _truth(prog, {"a": 6, "b": 10}, False) == "FALSE"
    assert _truth(prog, {"a": 6, "b": 35}, False) == "TRUE"  # 6*6 + 35*(-1) == 1: a confirmed counterexample
    assert _truth(prog, {"a": 6, "b": 35}, True) == "FALSE"


_NEAR = """
verus! {
pub open spec fn sq(n: int) -> int
    decreases n,
{
    if n <= 0 { 0 } else { n * n + sq(n - 1) }
}
fn idx(s: Vec<i64>) -> (r: bool)
    ensures
        r == (exists|i: int| 0 <= i && s@[i] == 7),
{ }
fn cast(t: i64) -> (r: bool)
    ensures
        r == (exists|x: int| x > 1000 + t && (x as u8) == 3),
{ }
fn cubes(t: i64) -> (r: bool)
    ensures
        r == (exists|x: int, y: int, z: int| x > t && y > t && z > t && x * x * x + y * y * y == z * z * z),
{ }
fn rec(t: i64) -> (r: bool)
    ensures
        r == (forall|n: int| sq(n) >= t),
{ }
fn chars(t: String) -> (r: bool)
    ensures
        r == (exists|s: Seq<char>| s.len() == 2 && s =~= t@),
{ }
}
"""


def test_index_that_may_be_undefined_stays_unknown() -> None:
    """No upper bound on ``i``: ``s[i]`` past the end is unspecified in Verus and may be 7."""
    prog = SpecProgram.from_source(_NEAR, "idx")
    assert _truth(prog, {"s": (1, 2, 3)}, False) == "UNKNOWN"
    assert _truth(prog, {"s": (1, 7, 3)}, True) == "TRUE"  # a witness inside the sequence is exact


def test_cast_out_of_range_stays_unknown() -> None:
    prog = SpecProgram.from_source(_NEAR, "cast")
    assert _truth(prog, {"t": 0}, False) == "UNKNOWN"


def test_nonlinear_beyond_the_solver_stays_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    from veriscale.languages.verus.spec import z3_decide

    monkeypatch.setattr(z3_decide, "Z3_RLIMIT", 2_000_000)  # keep the test short; z3 answers unknown
    prog = SpecProgram.from_source(_NEAR, "cubes")
    assert _truth(prog, {"t": 0}, False) == "UNKNOWN"


def test_recursion_on_a_symbolic_measure_stays_unknown() -> None:
    prog = SpecProgram.from_source(_NEAR, "rec")
    assert _truth(prog, {"t": 0}, True) == "UNKNOWN"


def test_char_sequences_stay_unknown() -> None:
    prog = SpecProgram.from_source(_NEAR, "chars")
    assert _truth(prog, {"t": "ab"}, True) != "FALSE"
    assert _truth(prog, {"t": "abc"}, True) != "TRUE"


# ---- real problems: each verdict needs the back end (UNKNOWN without it)


def _prog(rel: str) -> SpecProgram:
    return SpecProgram.from_source(require("vericontest", rel, "spec.rs").read_text())


_SLOW = pytest.mark.slow  # the same construct as a default case: only in the slow run

REAL = [
    # exists a {-1,0,1} sequence of length <= 31 with sum c[i]*w^i == m (a congruence refutes it)
    pytest.param("codeforces/cf552C", {"w": 100, "m": 50}, False, [True], id="cf552C-0"),
    pytest.param("codeforces/cf552C", {"w": 10**9, "m": 10**9 - 2}, False, [True], id="cf552C-1", marks=_SLOW),
    # forall x: is_candidate(x) ==> x in result, is_candidate an exists over start, d and miss
    pytest.param("codeforces/cf382C", {"nums": (1, 4, 7)}, Some((-2, 10)), [Some((-2,)), Some((10,)), Some(())],
                 id="cf382C-0"),
    pytest.param("codeforces/cf382C", {"nums": (2, 4)}, Some((0, 3, 6)), [Some((0, 6))], id="cf382C-1", marks=_SLOW),
    pytest.param("codeforces/cf382C", {"nums": (10,)}, None, [], id="cf382C-2", marks=_SLOW),
    # exists m (3 changes) with max - min == res and forall m2: a closed inner forall
    pytest.param("leetcode/lc1509", {"nums": (1, 5, 0, 10, 14)}, 1, [0, 2], id="lc1509"),
    # forall alt: y_valid(x, alt) ==> lex_le(y, alt), bitwise conditions on u32 elements
    pytest.param("codeforces/cf1547D", {"n": 4, "x": (11, 13, 15, 1)}, (0, 2, 0, 14), [], id="cf1547D"),
    # lc1526 and lc1679 are decided before this back end is reached (seq_covers, seq_matchings:
    # test_verus_structural_deciders.py), so they cannot show it here.
]  # fmt: skip


@pytest.mark.parametrize(("rel", "inputs", "good", "bad"), REAL)
def test_real_problems(
    monkeypatch: pytest.MonkeyPatch, rel: str, inputs: dict[str, object], good: object, bad: list[object]
) -> None:
    prog = _prog(rel)
    assert _off(monkeypatch, prog, inputs, good) == "UNKNOWN"
    assert _truth(prog, inputs, good) == "TRUE"
    for wrong in bad:
        assert _truth(prog, inputs, wrong) == "FALSE", wrong
