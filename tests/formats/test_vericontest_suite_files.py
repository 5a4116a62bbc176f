"""VeriContest's own test files: written in upstream's line shape, read back tolerantly."""

from __future__ import annotations

from pathlib import Path

from veriscale.formats.vericontest.suite_files import (
    NEGATIVES,
    POSITIVES,
    dumps_line,
    read_suite_files,
    write_problem_suite,
)


def test_line_shape_is_upstreams() -> None:
    assert dumps_line({"nums": [1, 0, 1], "k": 2}, 3) == '{"input": {"nums": [1,0,1], "k": 2}, "output": 3}'
    assert dumps_line({"s": "é"}, [[1, 2], []]) == '{"input": {"s": "é"}, "output": [[1,2],[]]}'


def test_write_then_read_and_bad_lines(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "spec.rs").write_text("spec", encoding="utf-8")
    (src / "code.rs").write_text("code", encoding="utf-8")
    dest = tmp_path / "out" / "lc1"
    pos = [{"input": {"n": 1}, "output": 1}, {"input": {"n": 2}, "output": 4}]
    neg = [{"input": {"n": 1}, "output": 0}]
    write_problem_suite(src, dest, pos, neg, {"task_id": "lc1"})
    assert (dest / "spec.rs").read_text(encoding="utf-8") == "spec"
    got = read_suite_files(dest)
    assert got is not None and got.positives == pos and got.negatives == neg and not got.errors
    with (dest / NEGATIVES).open("a", encoding="utf-8") as f:
        f.write('not json\n{"n": 3, "output": 9}\n[1]\n')
    got = read_suite_files(dest)
    assert got is not None
    assert got.negatives[-1] == {"input": {"n": 3}, "output": 9}  # the flattened form
    assert len(got.errors) == 2 and all(NEGATIVES in e for e in got.errors)
    assert ":2:" in got.errors[0] and ":4:" in got.errors[1]
    assert read_suite_files(src) is None
    assert POSITIVES.endswith("testcases.jsonl")
