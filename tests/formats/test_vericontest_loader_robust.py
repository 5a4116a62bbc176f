"""Loader robustness: misnamed/missing optional files and flattened example inputs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from shared_data import data_path
from veriscale.formats.vericontest.dataset import ProblemError, read_problem
from veriscale.formats.vericontest.files import lost_line_breaks, min_input_lines

DATA = data_path("vericontest")


def _copy(tmp_path: Path, family: str, pid: str) -> Path:
    src = DATA / family / pid
    if not src.is_dir():
        pytest.skip(f"VeriContest data not found at {src}")
    dst = tmp_path / family / pid
    shutil.copytree(src, dst)
    return dst


def test_misnamed_tags_loads_with_warning(tmp_path: Path) -> None:
    d = _copy(tmp_path, "leetcode", "lc7")
    (d / "tags").rename(d / "tag")
    (d / "verified.rs").unlink()
    p = read_problem(d)
    assert p.tags.difficulty == "Medium"  # read from the misnamed file
    assert p.verified == ""
    assert any("'tag' as 'tags'" in w for w in p.warnings)
    assert any("missing optional file 'verified.rs'" in w for w in p.warnings)


def test_exact_name_wins_and_clean_folder_has_no_warning(tmp_path: Path) -> None:
    d = _copy(tmp_path, "leetcode", "lc7")
    (d / "Tags.txt").write_text("Hard\nMath\n")
    p = read_problem(d)
    assert p.tags.difficulty == "Medium"
    assert p.warnings == []


def test_missing_required_file_is_an_error_naming_it(tmp_path: Path) -> None:
    d = _copy(tmp_path, "leetcode", "lc7")
    (d / "spec.rs").unlink()
    with pytest.raises(ProblemError, match=r"lc7: missing spec\.rs"):
        read_problem(d)


@pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")
def test_flattened_codeforces_input_is_undecodable_and_not_run(tmp_path: Path) -> None:
    d = _copy(tmp_path, "codeforces", "cf1006C")
    desc = (d / "description.md").read_text()
    assert "```\n5\n1 3 1 1 4\n```" in desc
    (d / "description.md").write_text(desc.replace("```\n5\n1 3 1 1 4\n```", "```\n5 1 3 1 1 4\n```", 1))
    p = read_problem(d)
    assert min_input_lines(p.description) == 2
    assert p.examples[0].error is not None and "line breaks were lost" in p.examples[0].error
    assert all(ex.error is None for ex in p.examples[1:])

    from veriscale.evaluate.checks.vericontest import check_problem
    from veriscale.languages.verus.engine import VeriContestEngine

    class NoRun(VeriContestEngine):
        pass

    te = NoRun().for_task(p)
    ran: list[str] = []
    real = te.runner.run_stdin
    te.runner.run_stdin = lambda stdin: (ran.append(stdin), real(stdin))[1]  # type: ignore[method-assign]
    pc = check_problem(p, te)
    assert pc.examples[0].status == "undecodable"
    assert "5 1 3 1 1 4\n" not in ran
    assert len(ran) == len(p.examples) - 1


def test_lost_line_breaks_rule() -> None:
    desc = "## Input\n\nThe first line contains n.\n\nThe second line contains a.\n\n## Output\n"
    assert lost_line_breaks(desc, "3 1 2 3\n") is not None
    assert lost_line_breaks(desc, "3\n1 2 3\n") is None
    assert lost_line_breaks("## Input\n\nOne line: n.\n\n## Output\n", "3\n") is None
