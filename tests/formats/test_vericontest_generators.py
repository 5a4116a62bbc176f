"""Model-written input generators: refused, compiled, run in the sandbox, their lines read strictly."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from veriscale.formats.vericontest.generators import run_generator
from veriscale.formats.vericontest.suite_prompts import Generator
from veriscale.languages.verus.compile import rustc_available
from veriscale.values import rust_codec
from veriscale.values.rust_types import parse_rust_type, value_type

pytestmark = pytest.mark.skipif(not rustc_available(), reason="rustc is not installed")

VEC = value_type(parse_rust_type("Vec<i32>"))


def decode(raw: Mapping[str, Any]) -> Any:
    return {
        "nums": rust_codec.decode(VEC, raw["nums"]),
        "k": rust_codec.decode(value_type(parse_rust_type("u8")), raw["k"]),
    }


def test_lines_are_read_strictly_and_limited() -> None:
    program = """
fn main() {
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).unwrap();
    let n: usize = line.trim().parse().unwrap();
    println!("{{\\"nums\\": [1, 2], \\"k\\": 3}}");
    println!("{{\\"nums\\": [1, 2], \\"k\\": 300}}");
    println!("{{\\"nums\\": [1], \\"k\\": 1, \\"extra\\": 0}}");
    println!("[1, 2]");
    let long: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    println!("{{\\"nums\\": [{}], \\"k\\": 0}}", long.join(", "));
    if n > 100 { panic!("too big"); }
}
"""
    gen = Generator("random", program, ("3", "5", "500", "4"))
    got, rec = run_generator(gen, ["nums", "k"], decode, seconds=5.0, lines=50, cache=None, max_len=4)
    assert got == [{"nums": [1, 2], "k": 3}, {"nums": [0, 1, 2], "k": 0}, {"nums": [1, 2], "k": 3}]
    assert rec["garbage"] == {
        "a list or string longer than 4": 1,
        "does not decode: u8 out of range": 2,
        "not a JSON object": 2,
        "wrong parameter names": 2,
    }
    # the third line panics: nothing of it is kept, and the fourth is never run
    assert [r["status"] for r in rec["runs"]] == ["ok", "ok", "panic"]
    assert rec["status"] == "run_panic" and "'500'" in rec["reason"]


def test_a_forbidden_construct_is_refused_without_compiling() -> None:
    program = 'fn main() { let a: Vec<String> = std::env::args().collect(); println!("{:?}", a); }'
    got, rec = run_generator(
        Generator("adversarial", program, ("1",)), ["x"], decode, seconds=1.0, lines=5, cache=None
    )
    assert got == [] and rec["status"] == "refused" and "env" in rec["reason"] and rec["runs"] == []
