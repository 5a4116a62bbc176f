"""``scale`` on VeriContest end to end: Plus/Lite in VeriContest's layout, checked and measured."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import veriscale.cli.check
import veriscale.cli.scale
import veriscale.cli.stats  # noqa: F401  (registers the commands on the app)
from shared_data import require
from veriscale.cli.app import app
from veriscale.languages.verus.compile import rustc_available

runner = CliRunner()


@pytest.mark.slow
@pytest.mark.skipif(not rustc_available(), reason="rustc is not installed")
def test_scale_check_and_adequacy_on_one_problem(tmp_path: Path) -> None:
    root = require("vericontest", "leetcode")
    out = tmp_path / "run"
    res = runner.invoke(app, ["scale", "--benchmark", str(root), "--out", str(out), "--tasks", "lc1006",
                              "--workers", "1"])  # fmt: skip
    assert res.exit_code == 0, res.output
    plus = out / "plus" / "leetcode" / "lc1006"
    lite = out / "lite" / "leetcode" / "lc1006"
    pos = (plus / "tests" / "testcases.jsonl").read_text(encoding="utf-8").splitlines()
    neg = (plus / "tests" / "mutated_testcases.jsonl").read_text(encoding="utf-8").splitlines()
    assert 150 <= len(pos) <= 200 and len(neg) >= len(pos)
    assert all(line.startswith('{"input": {"n": ') for line in pos)
    lite_pos = (lite / "tests" / "testcases.jsonl").read_text(encoding="utf-8").splitlines()
    assert 0 < len(lite_pos) <= len(pos) and set(lite_pos) <= set(pos)
    stats = json.loads((out / "stats.json").read_text(encoding="utf-8"))
    assert stats["kill_preserved"] == 1 and stats["tasks"] == 1
    # resuming recomputes nothing and writes the same files
    again = runner.invoke(app, ["scale", "--benchmark", str(root), "--out", str(out), "--tasks", "lc1006"])
    assert again.exit_code == 0 and "already done" in again.output
    assert (plus / "tests" / "testcases.jsonl").read_text(encoding="utf-8").splitlines() == pos
    for suite in ("plus", "lite"):
        chk = runner.invoke(app, ["check", str(out / suite), "--json"])
        assert chk.exit_code == 0, chk.output
        t = json.loads(chk.output)["test_files"]["summary"]
        assert t["contrary"] == 0 and t["agreement"] == 1.0
    ad = runner.invoke(app, ["stats", "--adequacy", "--json", str(out / "plus"), str(out / "lite")])
    assert ad.exit_code == 0, ad.output
    ds = json.loads(ad.output)["datasets"]
    p, lt = ds[str(out / "plus")], ds[str(out / "lite")]
    assert p["mutants_killed"] == lt["mutants_killed"] > 0
