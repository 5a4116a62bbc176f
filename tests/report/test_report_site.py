"""``veriscale report``: the static site from a real evaluation of the tiny benchmark and a run folder."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from report_fixtures import INJECTED, make_evaluation, make_run
from shared_data import REPO_ROOT, VERICONTEST, require
from veriscale.cli.app import _load_commands, app
from veriscale.examples import tiny_path
from veriscale.formats.verina.dataset import discover_task_dirs
from veriscale.report.load import ReportInputError, load_inputs
from veriscale.report.site import build_site
from veriscale.report.views import slug


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("report-inputs")
    return make_evaluation(root), make_run(root)


@pytest.fixture(scope="module")
def site(inputs: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = build_site(list(inputs), out)
    assert result.pages > 0
    assert not [p for p in result.problems if "cannot render" in p], result.problems
    return out


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _text(html: str) -> str:
    p = _Text()
    p.feed(html)
    return "".join(p.parts)


def _all_html(site: Path) -> dict[str, str]:
    return {str(p.relative_to(site)): p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.html"))}


def test_pages_exist(site: Path) -> None:
    for name in ("index.html", "tasks.html", "models.html", "suites/tiny.html", "suites/plus.html"):
        assert (site / name).is_file(), name
    tasks = sorted(p.name for p in (site / "tasks").glob("*.html"))
    assert tasks == sorted(f"{d.name}.html" for d in discover_task_dirs(tiny_path()))
    assert len(tasks) >= 3
    assert (site / "assets" / "filter.js").is_file()
    assert (site / "assets" / "style.css").is_file()


def test_injected_script_is_shown_as_text(site: Path) -> None:
    """A candidate holding <script> (and an <img> to a remote host) is escaped on every page."""
    pages = _all_html(site)
    page = pages["tasks/tiny_1.html"]
    # what a reader sees (the text content) holds the injected markup verbatim
    assert INJECTED in _text(page)
    for name, html in pages.items():
        assert "__pwned" not in html or "<script>window.__pwned" not in html, name
        assert 'src="http://example.com' not in html, name
        # the only script element any page has is the local filter script
        for m in re.finditer(r"<script\b[^>]*>", html):
            assert m.group(0) == '<script src="assets/filter.js" defer>', (name, m.group(0))
    assert INJECTED not in "".join(pages.values())


def test_no_remote_references(site: Path) -> None:
    """Every href/src is relative (local); no http(s) URL is loaded by any page."""
    for name, html in _all_html(site).items():
        for m in re.finditer(r'\b(?:href|src)="([^"]*)"', html):
            assert not re.match(r"^[a-z]+:", m.group(1)), (name, m.group(1))


def test_task_page_content(site: Path) -> None:
    html = (site / "tasks" / "tiny_1.html").read_text(encoding="utf-8")
    assert "Model gt" in html and "Model hostile" in html
    assert "candidate text" in html
    assert 'class="hl"' in html  # highlighted
    # the provenance of the run's plus suite: origin and kills
    assert "why each row is there" in html
    assert "template:zero" in html
    assert "zero &lt;b&gt;0&lt;/b&gt;" in html
    # the hostile code fails or is unknown on some test, and the first failing test is listed
    assert "First failing" in html


def test_overview_and_models(site: Path) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "<svg" in index and "pass@1" in index
    assert "Table 1" in index
    assert "Wall clock per phase" in index
    models = (site / "models.html").read_text(encoding="utf-8")
    assert "Where the models differ" in models
    assert "tiny_1" in models  # gt passes code, hostile does not


def test_catalogue_rows_carry_filter_data(site: Path) -> None:
    html = (site / "tasks.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr data-task="([^"]+)" data-suite="([^"]+)" data-model="([^"]+)"', html)
    assert ("tiny_1", "tiny", "hostile") in rows
    assert ("tiny_1", "tiny", "gt") in rows
    hostile = re.search(
        r'data-task="tiny_1" data-suite="tiny" data-model="hostile" data-failing="([^"]*)"', html
    )
    assert hostile is not None and "code" in hostile.group(1).split()


def test_same_bytes_twice(inputs: tuple[Path, Path], site: Path, tmp_path: Path) -> None:
    """The site does not depend on the run (hash seed, set order): two builds are identical."""
    again = tmp_path / "again"
    build_site(list(inputs), again)
    assert _all_html(again) == _all_html(site)


def test_same_bytes_under_another_hash_seed(inputs: tuple[Path, Path], site: Path, tmp_path: Path) -> None:
    """Built by another interpreter with another PYTHONHASHSEED: the same pages."""
    other = tmp_path / "other"
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(REPO_ROOT / "src")}
    cmd = [sys.executable, "-m", "veriscale", "report", *map(str, inputs), "--out", str(other)]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert res.returncode == 0, res.stderr
    assert _all_html(other) == _all_html(site)


def test_bad_inputs(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    with pytest.raises(ReportInputError, match="neither an evaluation folder"):
        load_inputs([tmp_path])
    ev = tmp_path / "ev"
    ev.mkdir()
    src = inputs[0]
    (ev / "summary.json").write_text((src / "summary.json").read_text(encoding="utf-8"), encoding="utf-8")
    lines = (src / "results.jsonl").read_text(encoding="utf-8").splitlines()
    bad_sample = '{"suite": "tiny", "task_id": "tiny_1", "sample": "x", "metrics": {}}'
    (ev / "results.jsonl").write_text(
        "\n".join(["{not json", '{"suite": "tiny"}', bad_sample, *lines]) + "\n", encoding="utf-8"
    )
    loaded = load_inputs([ev])
    assert len(loaded.evaluations[0].rows) == len(lines)
    assert any("results.jsonl:1: not JSON" in p for p in loaded.problems)
    assert any("results.jsonl:2:" in p and "task_id" in p for p in loaded.problems)
    assert any("results.jsonl:3: field 'sample'" in p for p in loaded.problems)
    # the site is still built, and lists the problems on the overview
    result = build_site([ev], tmp_path / "site")
    assert "results.jsonl:3: field" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert result.pages > 0


def test_slug() -> None:
    assert slug("verina_basic_1") == "verina_basic_1"
    assert slug("a/b") != slug("a_b")
    assert "/" not in slug("../x")


def test_cli(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    _load_commands()
    res = CliRunner().invoke(app, ["report", str(inputs[0]), "--out", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    assert "report: " in res.output and "file://" in res.output
    assert (tmp_path / "s" / "index.html").is_file()
    stale = tmp_path / "s" / "tasks" / "gone.html"
    stale.write_text("old", encoding="utf-8")
    res = CliRunner().invoke(app, ["report", str(inputs[0]), "--out", str(tmp_path / "s")])
    assert res.exit_code == 0 and not stale.exists()
    res = CliRunner().invoke(app, ["report", str(tmp_path), "--out", str(tmp_path / "t")])
    assert res.exit_code == 2


def test_vericontest_results(tmp_path: Path) -> None:
    """A VeriContest suite: the task text is read through the format registry, Rust is highlighted."""
    # one problem copied, so the suite's Table-1 count stays quick
    vc = tmp_path / "vc"
    shutil.copytree(require(VERICONTEST, "leetcode", "lc7"), vc / "leetcode" / "lc7")
    ev = tmp_path / "ev"
    ev.mkdir()
    gens = tmp_path / "gens.jsonl"
    code = "fn reverse(x: i32) -> i32 { x /* <script>alert(1)</script> */ }"
    gens.write_text(
        json.dumps({"task_id": "lc7", "sample": 0, "model": "m", "code": code}) + "\n", encoding="utf-8"
    )
    metric = {"score": "FAIL", "lower": False, "upper": False, "n_tests": 3, "n_pass": 0, "n_fail": 1}
    metric |= {"error": "incorrect_output", "reason": "test 0: got 123, expected 321", "where": "test 0"}
    row = {"suite": "vc", "model": "m", "task_id": "lc7", "sample": 0, "metrics": {"code": metric}}
    (ev / "results.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    summary = {
        "suites": [{"name": "vc", "path": str(vc)}],
        "results": [],
        "ks": [1],
        "generations": str(gens),
    }
    (ev / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    result = build_site([ev], tmp_path / "site")
    assert not [p for p in result.problems if "cannot render" in p], result.problems
    html = (tmp_path / "site" / "tasks" / "lc7.html").read_text(encoding="utf-8")
    assert "reverse (x : i32) : i32" in html
    assert "Reverse" in html  # the description
    assert '<span class="k">fn</span>' in html  # Rust keywords highlighted
    assert "<script>alert" not in html and "alert(1)" in _text(html)
    assert "123" in html  # what the candidate returned
    assert len(list((tmp_path / "site" / "tasks").glob("*.html"))) == 1  # pages only for tasks with results
