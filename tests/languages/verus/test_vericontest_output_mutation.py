"""Direct output mutation by Rust type: every candidate differs from the answer and fits its type."""

from __future__ import annotations

import random

import pytest

from veriscale.languages.verus.output_mutation import output_mutants
from veriscale.values.rust_types import parse_rust_type as T


@pytest.mark.parametrize(
    ("ty", "value"),
    [
        ("i32", 2147483647), ("u8", 0), ("bool", True), ("char", "a"), ("String", "abc"),
        ("Vec<i32>", [1, 2, 3]), ("Vec<Vec<i64>>", [[1, 2], [3]]), ("Vec<i32>", []),
        ("Option<i32>", None), ("Option<i32>", 5), ("(i32, bool)", [1, False]), ("Vec<String>", ["a", "bc"]),
    ],
)  # fmt: skip
def test_mutants_differ_and_stay_in_type(ty: str, value: object) -> None:
    got = list(output_mutants(T(ty), value, random.Random(0)))
    assert got and all(g != value for g in got)
    if ty in ("i32", "u8"):
        lo, hi = {"i32": (-(2**31), 2**31 - 1), "u8": (0, 255)}[ty]
        assert all(lo <= g <= hi for g in got)
    assert got == list(output_mutants(T(ty), value, random.Random(0)))  # deterministic for a seed


def test_nested_vectors_are_mutated_at_depth() -> None:
    got = list(output_mutants(T("Vec<Vec<i32>>"), [[1, 2], [3]], random.Random(0)))
    assert [[2, 2], [3]] in got and [[1, 2], [4]] in got  # one inner element ±1
    assert [[3], [1, 2]] in got and [[1, 2]] in got  # swap, drop
