"""`veriscale scale`: inputs → outputs → reduce → build, on the embedded example and on real Verina tasks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shared_data import data_path, needs
from veriscale.cli.app import _load_commands, app
from veriscale.formats.verina.dataset import read_dataset
from veriscale.pipeline.config import PipelineConfig
from veriscale.pipeline.rundir import RunDir
from veriscale.pipeline.scale import run_scale
from veriscale.runtime.executor import SerialExecutor

# a list task, a String task, a task with reject inputs, a task with several correct answers
REAL_TASKS = ["verina_basic_1", "verina_basic_16", "verina_basic_70", "verina_advanced_27"]


def _invoke(*args: str) -> dict:
    _load_commands()
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def example_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("scale") / "example"
    _invoke("scale", "--example", "--out", str(out), "--json", "--workers", "1", "--executor", "serial")
    return out


def test_example_writes_plus_and_lite_with_statistics(example_out: Path) -> None:
    stats = json.loads((example_out / "stats.json").read_text(encoding="utf-8"))
    names = [d["name"] for d in stats["datasets"]]
    assert names == ["original", "plus", "lite"] and stats["tasks"] == 4 and stats["kill_preserved"] == 4
    assert stats["coverage_preserved"] == 4
    orig, plus, lite = stats["datasets"]
    assert plus["expected"]["total"] > 5 * orig["expected"]["total"]
    assert orig["expected"]["total"] <= lite["expected"]["total"] <= plus["expected"]["total"]
    assert lite["unexpected_outputs"]["total"] > 0
    assert (example_out / "config.json").is_file()
    for suite in ("plus", "lite"):
        tasks = read_dataset(example_out / suite)
        assert [t.id for t in tasks] == ["tiny_1", "tiny_2", "tiny_3", "tiny_4"]
        for t in tasks:
            prov = json.loads((t.dir / "provenance.json").read_text(encoding="utf-8"))
            assert prov["suite"] == suite and len(prov["tests"]) == len(t.tests)
            assert len(prov["reject_inputs"]) == len(t.reject_inputs)


def test_lite_keeps_the_original_tests_and_at_most_the_budget_beyond_the_cover(example_out: Path) -> None:
    for t in read_dataset(example_out / "lite"):
        prov = json.loads((t.dir / "provenance.json").read_text(encoding="utf-8"))
        stages = [r["selected"] for r in prov["tests"]]
        assert stages.count("kept") == 5  # each example task has 5 original tests
        assert len(stages) <= 50 or "fill" not in stages
        killed_plus = set()
        for r in json.loads((example_out / "plus" / t.id / "provenance.json").read_text(encoding="utf-8"))[
            "tests"
        ]:
            killed_plus.update(r["kills"])
        assert {k for r in prov["tests"] for k in r["kills"]} == killed_plus
        plus_prov = json.loads((example_out / "plus" / t.id / "provenance.json").read_text(encoding="utf-8"))
        covered_plus = {p for r in plus_prov["tests"] for p in r["covers"]}
        assert covered_plus and {p for r in prov["tests"] for p in r["covers"]} == covered_plus
        assert prov["coverage"]["preserved"] is True


def test_written_suites_pass_the_ground_truth_check(example_out: Path) -> None:
    for suite in ("plus", "lite"):
        rep = _invoke("check", str(example_out / suite), "--json")
        totals = rep["totals"]
        for name, t in totals.items():
            assert t["agree"] == t["total"], (suite, name, t)
        assert totals["postcond_rejects_unexpected"]["total"] > 0
        assert rep["findings"] == []


def test_rerun_resumes_and_is_byte_identical_under_another_hash_seed(
    example_out: Path, tmp_path: Path
) -> None:
    before = _files(example_out / "lite") | {"plus/" + k: v for k, v in _files(example_out / "plus").items()}
    other = tmp_path / "again"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    cmd = [sys.executable, "-m", "veriscale", "scale", "--example", "--out", str(other), "--json"]
    subprocess.run(cmd, check=True, capture_output=True, env=env, timeout=300)
    after = _files(other / "lite") | {"plus/" + k: v for k, v in _files(other / "plus").items()}
    assert before == after


@needs("verina")
def test_real_tasks_kill_preservation_and_clean_check(tmp_path: Path) -> None:
    out = tmp_path / "verina"
    with RunDir.open(out, PipelineConfig()) as rd:
        rep = run_scale(data_path("verina"), rd, SerialExecutor(), tasks=REAL_TASKS)
    assert rep.failed == {} and sorted(rep.written) == sorted(REAL_TASKS)
    assert rep.kill_preserved == rep.coverage_preserved == len(REAL_TASKS)
    for suite in ("plus", "lite"):
        res = _invoke("check", str(out / suite), "--json")
        for name, t in res["totals"].items():
            assert t["agree"] == t["total"], (suite, name, t)
    lite = {t.id: t for t in read_dataset(out / "lite")}
    assert len(lite["verina_basic_70"].reject_inputs) > 0  # a task with a real precondition
    assert all(len(t.tests) >= 5 for t in lite.values())


@pytest.mark.slow
@needs("verina")
def test_full_offline_run_preserves_every_kill(tmp_path: Path) -> None:
    """All 189 Verina tasks: Lite kills every adversary Plus kills, in every task (several minutes)."""
    from veriscale.runtime.executor import LocalExecutor

    with RunDir.open(tmp_path / "all", PipelineConfig()) as rd:
        rep = run_scale(data_path("verina"), rd, LocalExecutor(workers=2))
    assert rep.failed == {} and len(rep.written) == 189
    assert rep.kill_preserved == rep.reduced == 189
    assert rep.coverage_preserved == 189
