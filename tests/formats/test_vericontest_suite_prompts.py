"""VeriContest's model-driven suite stages: prompts, answer parsing, the round-robin across sources."""

from __future__ import annotations

from shared_data import data_path, needs
from veriscale.formats.vericontest.semantic import interleave, source_order
from veriscale.formats.vericontest.suite_prompts import (
    GENERATOR_STAGE,
    SEMANTIC_STAGE,
    parse_generator,
    parse_variants,
    suite_requests,
)


def test_variants_are_the_closed_rust_blocks_in_order_with_their_headings() -> None:
    answer = (
        "Intro.\n### Variant 1: off by one\n```rust\nfn a() {}\n```\n"
        "### Variant 2: wrong comparison\n```\nfn b() {}\n```\n"
        "Some JSON:\n```json\n{}\n```\n### Variant 3: unclosed\n```rust\nfn c() {"
    )
    got, why = parse_variants(answer, 5)
    assert why is None
    assert [(v.id, v.code, v.description) for v in got] == [
        ("v1", "fn a() {}", "off by one"),
        ("v2", "fn b() {}", "wrong comparison"),
    ]
    assert [v.id for v in parse_variants(answer, 1)[0]] == ["v1"]  # at most `count`
    assert parse_variants("no code here", 5) == ([], "no closed Rust code block")
    assert parse_variants("  ", 5) == ([], "empty answer")
    assert parse_variants(None, 5) == ([], "empty answer")


def test_generator_answers() -> None:
    prog = '```rust\nfn main() { println!("{}", 1); }\n```\n'
    g, why = parse_generator("random", prog + '```json\n["1 10", [2, 100], 3]\n```')
    assert why is None and g is not None
    assert g.kind == "random" and g.args == ("1 10", "2 100", "3") and "fn main" in g.program
    assert parse_generator("random", prog) == (None, "no JSON block of argument lines")
    assert parse_generator("random", prog + "```json\n[]\n```")[1] == (
        "the argument block is not a non-empty JSON array"
    )
    assert "neither a string" in str(parse_generator("random", prog + '```json\n[{"a": 1}]\n```')[1])
    assert parse_generator("random", '```rust\nfn f() {}\n```\n```json\n["1"]\n```')[1] == (
        "the program has no `fn main`"
    )
    assert parse_generator("adversarial", "sorry")[1] == "no closed Rust code block"
    assert parse_generator("adversarial", "")[1] == "empty answer"


def test_source_order_alternates_sources_and_keeps_the_plain_round_robin_without_them() -> None:
    assert source_order([1, 2, 3], set()) == [1, 2, 3]
    assert source_order([201], {201}) == [201]
    # two semantic, three syntactic: each source half of the pass, the smaller one cycled
    assert source_order([1, 2, 3, 201, 202], {201, 202}) == [201, 1, 202, 2, 201, 3]
    assert interleave([1, 2, 3], ["a"]) == [1, "a", 2, 3]


@needs("vericontest", "leetcode")
def test_prompts_show_the_problem_and_its_precondition() -> None:
    from veriscale.formats.vericontest.dataset import read_problem

    p = read_problem(data_path("vericontest", "leetcode", "lc509"))
    reqs = suite_requests(p, variants=5, max_lines=150)
    assert [(r.name, r.stage) for r in reqs] == [
        ("semantic_mutants", SEMANTIC_STAGE),
        ("generator_random", GENERATOR_STAGE),
        ("generator_adversarial", GENERATOR_STAGE),
    ]
    sem = reqs[0].messages[-1]["content"]
    assert "# Fibonacci Number" in sem and "pub fn fib(n: i32) -> i32" in sem and "Write 5 different" in sem
    gen = reqs[1].messages[-1]["content"]
    assert "0 <= n <= 30" in gen and "`n` (i32)" in gen and "Solution::fib(n: i32) -> i32" in gen
    assert "at most 150 inputs" in gen and "of the random kind" in gen
    assert reqs[1].messages != reqs[2].messages and reqs[1].ident == reqs[2].ident
