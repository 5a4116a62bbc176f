"""Codeforces description examples whose output is written on the ``**Output:**`` line itself."""

from __future__ import annotations

from shared_data import require
from veriscale.formats.vericontest.dataset import parse_cf_examples, read_problem


def test_inline_output_after_a_fenced_input() -> None:
    desc = (
        "## Example\n\n**Input:**\n```\n3\n1 1 0\n```\n**Output:** 2\n(why: a prose line)\n\n"
        "**Input:**\n```\n1\n```\n\n**Output:** `YES`\n"
    )
    a, b = parse_cf_examples(desc)
    assert (a.stdin, a.stdout) == ("3\n1 1 0\n", "2\n")
    assert (b.stdin, b.stdout) == ("1\n", "YES\n")
    assert not a.canonical  # the output is not a fenced block


def test_prose_output_line_is_no_example() -> None:
    # an "Input:" section in prose followed by "**Output:** print …": not a fenced input, no example
    desc = "**Input:**\nthe first line holds n\n\n**Output:** print the answer\n"
    assert parse_cf_examples(desc) == []


def test_fenced_output_blocks_unchanged() -> None:
    desc = "**Input:**\n```\n2\n1 2\n```\n\n**Output:**\n```\n3\n```\n"
    (ex,) = parse_cf_examples(desc)
    assert (ex.stdin, ex.stdout, ex.canonical) == ("2\n1 2\n", "3\n", True)


def test_cf231a_has_its_example() -> None:
    p = read_problem(require("vericontest", "codeforces", "cf231A"))
    assert [(e.stdin, e.stdout) for e in p.examples] == [("3\n1 1 0\n1 1 1\n1 0 0\n", "2\n")]
