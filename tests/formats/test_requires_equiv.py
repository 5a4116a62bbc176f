"""z3 equivalence of ``requires``: verdicts, confirmed witnesses, fallbacks, mutants (own sources)."""

from __future__ import annotations

import pytest

from veriscale.formats.vericontest.requires_equiv import (
    _literals,
    boundary_inputs,
    mutate_requires,
    requires_equivalence,
)
from veriscale.languages.verus.spec import SpecProgram

pytest.importorskip("z3", reason="z3-solver is not installed")

SRC = """use vstd::prelude::*;
verus! {
pub struct Solution;
impl Solution {
    pub fn pick(nums: Vec<i32>, k: i32) -> (r: i32)
        requires
            1 <= nums.len() <= 50,
            0 <= k < nums.len(),
            forall|i: int| 0 <= i < nums.len() ==> -100 <= #[trigger] nums[i] <= 100,
        ensures r == nums[k as int],
    { nums[k as usize] }
}
}
"""


def _with(requires: str, names: tuple[str, str] = ("nums", "k")) -> str:
    head = SRC.split("requires")[0].replace(
        "nums: Vec<i32>, k: i32", f"{names[0]}: Vec<i32>, {names[1]}: i32"
    )
    return head + "requires\n            " + requires + "\n        ensures" + SRC.split("ensures")[1]


def _check_by_brute_force(given: str, answer: str, kind: str) -> None:
    """Small inputs: an ``equivalent`` verdict must find no difference; others must find one."""
    from veriscale.runtime.limits import Limits

    gt = SpecProgram.from_source(given, target="pick")
    ans = SpecProgram.from_source(answer, target="pick")
    lim = Limits(fuel=100_000, seconds=5.0, max_depth=1000)
    vals = sorted(set(range(-3, 4)) | set(_literals([gt, ans])))
    differs = False
    for inp in boundary_inputs(gt.params, vals, 2000):
        a_in = dict(zip([n for n, _ in ans.params], inp.values()))
        g, a = gt.requires_verdict(inp, lim=lim), ans.requires_verdict(a_in, lim=lim)
        if not (g.is_unknown or a.is_unknown) and g.is_true != a.is_true:
            differs = True
            break
    assert differs == (kind != "equivalent")


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        # the same set written differently
        ("nums.len() >= 1 && nums.len() <= 50, k >= 0, k < nums.len(), "
         "forall|j: int| 0 <= j < nums.len() ==> nums[j] >= -100 && nums[j] <= 100,", "equivalent"),
        ("1 <= nums.len() <= 50, 0 <= k < nums.len(),", "weaker"),  # drops the element bounds
        ("1 <= nums.len() <= 50, 0 <= k < nums.len() - 1, "
         "forall|i: int| 0 <= i < nums.len() ==> -100 <= nums[i] <= 100,", "stronger"),
        ("2 <= nums.len() <= 50, 0 <= k < nums.len(), "
         "forall|i: int| 0 <= i < nums.len() ==> -100 <= nums[i] <= 100,", "stronger"),
    ],
)  # fmt: skip
def test_z3_verdicts_with_confirmed_witnesses(answer: str, kind: str) -> None:
    ans = _with(answer)
    r = requires_equivalence(SRC, ans, "pick")
    assert (r.kind, r.how) == (kind, "z3")
    if kind != "equivalent":
        gt = SpecProgram.from_source(SRC, target="pick")
        cand = SpecProgram.from_source(ans, target="pick")
        g, a = gt.requires_verdict(r.witness), cand.requires_verdict(r.witness)
        assert (g.is_true, a.is_true) == ((True, False) if kind == "stronger" else (False, True))
    _check_by_brute_force(SRC, ans, kind)


def test_parameters_are_bound_by_position_and_tokens_short_cut() -> None:
    renamed = _with(SRC.split("requires")[1].split("ensures")[0].replace("nums", "xs").replace("k ", "m "),
                    ("xs", "m"))  # fmt: skip
    assert requires_equivalence(SRC, renamed, "pick").kind == "equivalent"
    assert requires_equivalence(SRC, SRC, "pick").how == "tokens"
    assert requires_equivalence(SRC, SRC, "pick", tokens=False).how == "z3"


def test_outside_the_fragment_falls_back_to_testing_then_unknown() -> None:
    weaker = SRC.replace("0 <= k < nums.len(),", "0 <= k && nums@.contains(nums[0]),")
    r = requires_equivalence(SRC, weaker, "pick")
    assert r.kind == "weaker" and r.how == "testing" and r.witness is not None
    same = SRC.replace("0 <= k < nums.len(),", "nums@.contains(nums[0]) && 0 <= k < nums.len(),")
    r = requires_equivalence(SRC, same, "pick")
    assert r.kind == "unknown" and "outside the z3 fragment" in r.reason


def test_a_spec_fn_call_is_inlined_for_z3() -> None:
    spec_fn = SRC.replace(
        "impl Solution {", "impl Solution {\n    pub open spec fn ok(x: int) -> bool { x >= 0 }"
    )
    weaker = spec_fn.replace("0 <= k < nums.len(),", "Self::ok(k as int),")
    r = requires_equivalence(spec_fn, weaker, "pick")
    assert r.kind == "weaker" and r.how == "z3" and r.witness is not None
    same = spec_fn.replace("0 <= k < nums.len(),", "Self::ok(k as int) && k < nums.len(),")
    assert requires_equivalence(spec_fn, same, "pick").kind == "equivalent"


def test_mutants_are_reproducible_and_change_the_requires() -> None:
    seen = set()
    for pick in range(40):
        m = mutate_requires(SRC, "pick", pick)
        assert m is not None and m[0] != SRC and m == mutate_requires(SRC, "pick", pick)
        seen.add(m[1])
    assert {"1 -> 2", "<= -> <", "clause 0 dropped"} <= seen


GRID = """verus! {
pub struct Solution;
impl Solution {
    pub fn count(grid: Vec<Vec<i32>>) -> (r: i32)
        requires
            1 <= grid.len() <= 10,
            forall|i: int| 0 <= i < grid.len() ==> #[trigger] grid[i].len() == grid[0].len(),
            forall|i: int, j: int| 0 <= i < grid.len() && 0 <= j < grid[i].len() ==> 0 <= grid[i][j] <= 1,
    { 0 }
}
}
"""


def test_vectors_of_vectors() -> None:
    assert requires_equivalence(GRID, GRID, "count", tokens=False).kind == "equivalent"
    ragged = GRID.replace(
        "forall|i: int| 0 <= i < grid.len() ==> #[trigger] grid[i].len() == grid[0].len(),", ""
    )
    r = requires_equivalence(GRID, ragged, "count")
    assert (r.kind, r.how) == ("weaker", "z3")
    rows = r.witness["grid"]
    assert len({len(row) for row in rows}) > 1  # a ragged grid: the ground truth rejects it
    loose = GRID.replace("0 <= grid[i][j] <= 1", "0 <= grid[i][j] <= 2")
    r = requires_equivalence(GRID, loose, "count")
    assert (r.kind, r.how) == ("weaker", "z3") and 2 in {x for row in r.witness["grid"] for x in row}
