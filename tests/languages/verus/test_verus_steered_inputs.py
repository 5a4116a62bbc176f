"""Inputs built to satisfy ``requires`` (``steered_inputs``) on constraint shapes of our own.

Every generated input is checked with the Python evaluator of the same ``requires``: the generator
must not rely on that check to be right, so each shape asserts that (nearly) all inputs pass and
that the shape's structure is really present (order, distinctness, lengths, value sets).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from veriscale.languages.verus.spec.program import SpecProgram
from veriscale.languages.verus.steered_inputs import Steerer
from veriscale.values import rust_codec


def _spec(sig: str, requires: str, extra: str = "") -> SpecProgram:
    src = f"""use vstd::prelude::*;
verus! {{
{extra}
pub fn target({sig}) -> (r: i32)
    requires
        {requires}
    ensures
        r == 0,
{{
    0
}}
}}
"""
    return SpecProgram.from_source(src)


def _steer(prog: SpecProgram, **kw: Any) -> Steerer:
    s = Steerer(prog, prog.params, **kw)
    assert s.ok and s.feasible
    return s


def _accepted(prog: SpecProgram, raw: dict[str, Any]) -> bool:
    vals = {n: rust_codec.decode(t, raw[n]) for n, t in prog.params}
    return prog.requires_verdict(vals).is_true


def _check_all(prog: SpecProgram, inputs: list[dict[str, Any]], at_least: int) -> None:
    assert len(inputs) >= at_least
    bad = [x for x in inputs if not _accepted(prog, x)]
    assert not bad, bad[:3]


def test_element_ranges_and_a_length_tied_to_a_scalar() -> None:
    prog = _spec(
        "n: usize, a: Vec<i32>",
        """1 <= n <= 100_000,
        a.len() == n,
        forall|i: int| 0 <= i < a.len() ==> -5 <= #[trigger] a[i] <= n as i32,""",
    )
    s = _steer(prog, max_len=30)
    assert s.static[("v", "n")] == (1, 30)  # the length cap reaches n through `a.len() == n`
    got = s.inputs(0, 60)
    _check_all(prog, got, 60)
    assert len({x["n"] for x in got}) > 5


def test_strictly_increasing_sequence_fits_its_range() -> None:
    prog = _spec(
        "a: Vec<i64>",
        """1 <= a.len() <= 50,
        forall|i: int| 0 <= i < a.len() ==> 1 <= #[trigger] a[i] <= 60,
        forall|i: int| 0 <= i < a.len() - 1 ==> a[i] < a[i + 1],""",
    )
    got = _steer(prog).inputs(1, 120)  # one input in eight climbs the length ladder
    _check_all(prog, got, 120)
    assert max(len(x["a"]) for x in got) >= 30


def test_permutation_by_distinctness_and_range() -> None:
    prog = _spec(
        "p: Vec<i32>",
        """1 <= p.len() <= 12,
        forall|i: int| 0 <= i < p.len() ==> 1 <= #[trigger] p[i] <= p.len(),
        forall|i: int, j: int| 0 <= i < j < p.len() ==> p[i] != p[j],""",
    )
    got = _steer(prog).inputs(2, 40)
    _check_all(prog, got, 40)
    assert all(sorted(x["p"]) == list(range(1, len(x["p"]) + 1)) for x in got)


def test_weakly_sorted_pairwise_and_index_bounded_elements() -> None:
    prog = _spec(
        "a: Vec<i32>, b: Vec<i32>",
        """1 <= a.len() <= 40,
        b.len() == a.len(),
        forall|i: int, j: int| 0 <= i < j < a.len() ==> a[i] <= a[j],
        forall|i: int| 0 <= i < b.len() ==> 0 <= #[trigger] b[i] <= i,""",
    )
    got = _steer(prog).inputs(3, 50)
    _check_all(prog, got, 50)


def test_characters_from_a_set_and_an_inlined_predicate() -> None:
    prog = _spec(
        "s: String, t: Vec<u8>",
        """1 <= s@.len() <= 30,
        forall|i: int| 0 <= i < s@.len() ==> s@[i] == 'Y' || s@[i] == 'N',
        t.len() <= 10,
        forall|i: int| 0 <= i < t.len() ==> letter(#[trigger] t[i]),""",
        extra="pub open spec fn letter(c: u8) -> bool { (c >= 65u8 && c <= 90u8) || (c >= 97u8 && c <= 122u8) }",
    )
    got = _steer(prog).inputs(4, 40)
    _check_all(prog, got, 40)
    assert {c for x in got for c in x["s"]} == {"Y", "N"}


def test_rectangular_matrix_increasing_along_rows_and_columns() -> None:
    prog = _spec(
        "m: Vec<Vec<i32>>",
        """1 <= m.len() <= 300,
        1 <= m[0].len() <= 300,
        forall|i: int| 0 <= i < m.len() ==> #[trigger] m[i].len() == m[0].len(),
        forall|i: int, j: int| 0 <= i < m.len() && 0 <= j < m[i].len() ==> -1000 <= #[trigger] m[i][j] <= 1000,
        forall|i: int, j: int| 0 <= i < m.len() && 0 <= j < m[i].len() - 1 ==> #[trigger] m[i][j] < m[i][j + 1],
        forall|i: int, j: int| 0 <= j < m[0].len() && 0 <= i < m.len() - 1 ==> #[trigger] m[i][j] < m[i + 1][j],""",
    )
    got = _steer(prog, max_len2=8).inputs(5, 30)
    _check_all(prog, got, 30)
    assert any(len(x["m"]) > 2 and len(x["m"][0]) > 2 for x in got)


def test_length_tied_to_a_scalar_minus_one_and_an_existing_witness() -> None:
    prog = _spec(
        "m: i32, cuts: Vec<i32>, t: i32",
        """1 <= m <= 20,
        cuts.len() == m - 1,
        forall|i: int| 0 <= i < cuts.len() ==> 1 <= #[trigger] cuts[i] <= 1000,
        exists|i: int| 0 <= i < cuts.len() && cuts[i] == t,""",
    )
    got = _steer(prog).inputs(6, 40)
    _check_all(prog, got, 40)


def test_whole_small_domain_equals_the_brute_force_domain() -> None:
    prog = _spec("a: i32, b: i32", "1 <= a <= b <= 10,")
    s = _steer(prog)
    box = s.domain(1000)
    assert box is not None and len(box) == 100
    valid = [x for x in box if _accepted(prog, x)]
    brute = [
        {"a": a, "b": b}
        for a, b in itertools.product(range(-3, 14), repeat=2)
        if _accepted(prog, {"a": a, "b": b})
    ]
    assert sorted(map(str, valid)) == sorted(map(str, brute)) and len(valid) == 55


@pytest.mark.parametrize("cap", [10, 99])
def test_no_domain_when_the_box_is_over_the_cap_or_a_parameter_is_a_sequence(cap: int) -> None:
    assert _steer(_spec("a: i32, b: i32", "1 <= a <= b <= 10,")).domain(cap) is None
    assert _steer(_spec("a: Vec<i32>", "a.len() <= 1,")).domain(10**6) is None


def test_deterministic_for_a_seed() -> None:
    prog = _spec(
        "a: Vec<i32>", "a.len() <= 20, forall|i: int| 0 <= i < a.len() ==> 0 <= #[trigger] a[i] <= 9,"
    )
    assert _steer(prog).inputs(7, 30) == _steer(prog).inputs(7, 30)
    assert _steer(prog).inputs(7, 30) != _steer(prog).inputs(8, 30)


def test_a_narrowing_cast_gives_no_domain_unless_the_box_makes_it_exact() -> None:
    wraps = _spec("x: i32", "(x as u8) == 3,")  # x = 259 may satisfy it too: no box claim
    assert _steer(wraps).domain(10**6) is None
    exact = _spec("x: i32", "0 <= x <= 37, (x as u8) <= 200,")  # exact on the box 0..37 of the other conjunct
    dom = _steer(exact).domain(1000)
    assert dom is not None and len(dom) == 38
