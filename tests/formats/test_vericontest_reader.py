"""Reading VeriContest problems: files, tags, signatures and description examples."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared_data import require
from veriscale.formats.vericontest.dataset import (
    discover_problems,
    is_vericontest_root,
    parse_assignments,
    parse_cf_examples,
    parse_tags,
    read_problem,
    snake_case,
)
from veriscale.values.rust_types import parse_rust_type


def _problem(rel: str):
    return read_problem(require("vericontest", rel))


def test_tags_parse() -> None:
    lc = parse_tags("Medium\nMath, Array\nAcceptance rate: 30.9%", "leetcode")
    assert (lc.difficulty, lc.topics, lc.acceptance) == ("Medium", ("Math", "Array"), 30.9)
    cf = parse_tags("Rating: 1200\nbinary search, two pointers\nSolved by: 24939 users", "codeforces")
    assert (cf.rating, cf.topics, cf.solved) == (1200, ("binary search", "two pointers"), 24939)


def test_assignment_parsing_and_snake_case() -> None:
    assert parse_assignments("`nums = [1,2]`, `target = -3`") == [("nums", [1, 2]), ("target", -3)]
    assert parse_assignments('s = "a, b = c", k = 2') == [("s", "a, b = c"), ("k", 2)]
    assert parse_assignments("boxes = \\[[4,8],[2,8]]") == [("boxes", [[4, 8], [2, 8]])]
    with pytest.raises(ValueError):
        parse_assignments("nums = [1,2] and more")
    assert snake_case("numRows") == "num_rows" and snake_case("bottomLeft") == "bottom_left"


def test_cf_example_blocks() -> None:
    desc = "## Examples\n\n### Example 1\n\n**Input:**\n```\n2\n1 2\n```\n\n**Output:**\n```\n3\n```\n"
    (ex,) = parse_cf_examples(desc)
    assert (ex.stdin, ex.stdout, ex.canonical) == ("2\n1 2\n", "3\n", True)


def test_lc7() -> None:
    p = _problem("leetcode/lc7")
    assert p.kind == "leetcode" and p.title == "Reverse Integer" and p.main is None
    assert p.tags.difficulty == "Medium" and p.tags.acceptance == 30.9
    sig = p.signature
    assert (sig.name, sig.ret_name, sig.ret_type) == ("reverse", "res", parse_rust_type("i32"))
    assert [(q.name, q.type) for q in sig.params] == [("x", parse_rust_type("i32"))]
    assert [(e.inputs, e.output) for e in p.examples] == [
        ({"x": 123}, 321),
        ({"x": -123}, -321),
        ({"x": 120}, 21),
    ]
    assert p.starter_code is not None and "pub fn reverse" in p.starter_code


def test_cf1006c() -> None:
    p = _problem("codeforces/cf1006C")
    assert p.kind == "codeforces" and p.main is not None
    assert p.tags.rating == 1200 and p.tags.solved == 24939
    assert p.signature.name == "max_equal_outer_sum" and p.signature.ret_name == "result"
    assert [e.stdin for e in p.examples] == ["5\n1 3 1 1 4\n", "5\n1 3 2 1 4\n", "3\n4 1 2\n"]
    assert [e.stdout for e in p.examples] == ["5\n", "4\n", "0\n"]


def test_positional_binding_and_struct_params() -> None:
    p = _problem("leetcode/lc3047")  # starter names bottom_left/top_right, reference bl/tr
    assert set(p.examples[0].inputs or {}) == {q.name for q in p.ref_signature.params}
    p = _problem("leetcode/lc1095")  # struct argument given as its field's value
    assert p.examples[0].inputs == {"target": 3, "mountain_arr": {"data": [1, 2, 3, 4, 5, 3, 1]}}


def test_design_problem_calls() -> None:
    p = _problem("leetcode/lc303")
    assert p.ref_signature.receiver == "&self" and p.constructor is not None
    assert next((e.inputs, e.output) for e in p.examples) == (
        {"nums": [-2, 0, 3, -5, 2, -1], "left": 0, "right": 2},
        1,
    )


def test_discovery(vericontest_dir: Path) -> None:
    dirs = discover_problems(vericontest_dir)
    assert len(dirs) == 946
    assert sum(1 for d in dirs if d.name.startswith("cf")) == 256
    lc7 = vericontest_dir / "leetcode" / "lc7"
    assert is_vericontest_root(vericontest_dir) and is_vericontest_root(lc7)
    assert discover_problems(lc7) == [lc7]
