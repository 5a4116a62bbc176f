"""Input generation for VeriContest problems: bounds read from ``requires``, candidate families."""

from __future__ import annotations

import json

from veriscale.languages.verus.input_gen import FAMILIES, candidate_inputs
from veriscale.languages.verus.requires_bounds import read_bounds
from veriscale.values.rust_types import parse_rust_type as T

CLAUSES = [
    "1 <= nums.len() <= 100_000",
    "forall|i: int| 0 <= i < nums.len() ==> nums[i] == 0 || nums[i] == 1",
    "0 <= k <= nums.len()",
    "forall |i: int| 0 <= i < arr.len() ==> -10_000 <= #[trigger] arr[i] < 10_000",
    "n >= 3",
    "s@.len() == t@.len()",
    "m == arr.len()",
]


def test_bounds_from_chains_sets_and_links() -> None:
    b = read_bounds(CLAUSES, ["nums", "k", "arr", "n", "s", "t", "m"])
    assert (b.lo["len(nums)"], b.hi["len(nums)"]) == (1, 100_000)
    assert b.values["elem(nums)"] == [0, 1]
    assert b.lo["k"] == 0 and "k" not in b.hi  # `k <= nums.len()` is not a number
    assert (b.lo["elem(arr)"], b.hi["elem(arr)"]) == (-10_000, 9_999)  # strict upper bound moved by one
    assert b.lo["n"] == 3
    assert ("len(s)", "len(t)") in b.links and ("m", "len(arr)") in b.links
    assert 100_000 in b.consts and -10_000 in b.consts


def test_candidates_respect_bounds_links_and_are_deterministic() -> None:
    params = [("nums", T("Vec<i32>")), ("k", T("i32")), ("arr", T("Vec<i64>")), ("m", T("usize"))]
    b = read_bounds(CLAUSES, [n for n, _ in params])
    a = candidate_inputs(params, b, seed=7, count=300, max_len=50)
    again = candidate_inputs(params, b, seed=7, count=300, max_len=50)
    assert a == again and len(a) == 300
    assert {f for f, _ in a} == set(FAMILIES)
    assert len({json.dumps(x, sort_keys=True) for _, x in a}) == len(a)  # distinct
    for _, x in a:
        assert 1 <= len(x["nums"]) <= 50 and set(x["nums"]) <= {0, 1}
        assert all(-10_000 <= v <= 9_999 for v in x["arr"])
        assert x["m"] == len(x["arr"])  # the link `m == arr.len()` is applied
    assert max(len(x["nums"]) for _, x in a) == 50  # the ladder reaches the largest length allowed
    assert candidate_inputs(params, b, seed=8, count=300, max_len=50) != a


def test_strings_chars_and_small_scope() -> None:
    b = read_bounds(["1 <= s.len() <= 4", "forall|i: int| 0 <= i < s.len() ==> 'a' <= s[i] <= 'c'"], ["s"])
    got = candidate_inputs([("s", T("String")), ("flag", T("bool"))], b, seed=0, count=200, max_len=10)
    strings = [x["s"] for _, x in got]
    assert all(1 <= len(s) <= 4 and set(s) <= set("abc") for s in strings)
    small = [x for f, x in got if f == "small"]
    assert {"s": "a", "flag": False} in small and {"s": "a", "flag": True} in small


def test_parenthesised_sets_row_links_and_fixed_lengths() -> None:
    clauses = [
        "forall|i: int| 0 <= i < bits.len() ==> (#[trigger] bits[i] == 0 || bits[i] == 1)",
        "2 <= mat.len() <= 6",
        "forall |i: int| 0 <= i < mat.len() ==> 2 <= (#[trigger] mat[i]).len() <= 6",
        "forall |i: int| 0 <= i < mat.len() ==> (#[trigger] mat[i]).len() == mat[0].len()",
        "forall |i: int| 0 <= i < sq.len() ==> #[trigger] sq[i].len() == sq.len()",
        "forall |i: int| 0 <= i < logs.len() ==> logs[i].len() == 2",
    ]
    names = ["bits", "mat", "sq", "logs"]
    b = read_bounds(clauses, names)
    assert b.values["elem(bits)"] == [0, 1]
    assert ("len(elem(mat))", "len(elem(mat))") in b.links
    assert ("len(elem(sq))", "len(sq)") in b.links
    assert b.values["len(elem(logs))"] == [2]
    vv = T("Vec<Vec<i32>>")
    params = [("bits", T("Vec<i32>")), ("mat", vv), ("sq", vv), ("logs", vv)]
    cands = candidate_inputs(params, b, seed=3, count=200, max_len=20)
    assert len(cands) > 50
    for _, inp in cands:
        assert set(inp["bits"]) <= {0, 1}
        assert len({len(r) for r in inp["mat"]}) <= 1  # rectangular
        assert all(len(r) == len(inp["sq"]) for r in inp["sq"])  # square
        assert all(len(r) == 2 for r in inp["logs"])


def test_long_minimum_length_keeps_the_small_scope_pool_small() -> None:
    # `grid.len() == 25` (cf263A) once asked the small-scope pool for all 2^25 words of length 25
    params = [("grid", T("Vec<i32>"))]
    b = read_bounds(
        ["grid.len() == 25", "forall|i: int| 0 <= i < grid.len() ==> 0 <= grid[i] <= 1"], ["grid"]
    )
    got = candidate_inputs(params, b, seed=3, count=40, max_len=50)
    assert got and all(len(x["grid"]) == 25 for _, x in got)
    small = [x["grid"] for f, x in got if f == "small"]
    assert [0] * 25 in small or [1] * 25 in small
