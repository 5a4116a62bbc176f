"""`veriscale check`: the native engine against the ground truth that real Lean produced."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shared_data import require
from veriscale.cli.app import _load_commands, app


def _need(name: str) -> Path:
    return require(name)


@pytest.fixture(scope="module")
def verina_report() -> dict:
    root = _need("verina")
    _load_commands()
    res = CliRunner().invoke(app, ["check", str(root), "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_verina_ground_truth_agrees_everywhere(verina_report: dict) -> None:
    t = verina_report["totals"]
    assert (t["precond_accepts_tests"]["agree"], t["precond_accepts_tests"]["total"]) == (1114, 1114)
    assert (t["precond_rejects_rejects"]["agree"], t["precond_rejects_rejects"]["total"]) == (123, 123)
    assert (t["impl_matches_expected"]["agree"], t["impl_matches_expected"]["total"]) == (1114, 1114)
    assert (t["postcond_accepts_expected"]["agree"], t["postcond_accepts_expected"]["total"]) == (1114, 1114)
    assert (t["postcond_rejects_unexpected"]["agree"], t["postcond_rejects_unexpected"]["total"]) == (
        2392,
        2392,
    )
    assert verina_report["findings"] == []


def test_check_reports_a_wrong_row_as_disagreement(tmp_path: Path) -> None:
    src = _need("verina") / "verina_basic_1"
    dst = tmp_path / "ds" / "verina_basic_1"
    dst.mkdir(parents=True)
    for f in src.iterdir():
        if f.is_file():
            (dst / f.name).write_bytes(f.read_bytes())
    rows = json.loads((dst / "test.json").read_text())
    rows[0]["expected"] = not rows[0]["expected"]  # corrupt one stored output
    rows[1]["input"]["a"] = "not a number"  # and make one row undecodable
    (dst / "test.json").write_text(json.dumps(rows))
    _load_commands()
    res = CliRunner().invoke(app, ["check", str(tmp_path / "ds"), "--json"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.output)
    kinds = {(f["check"], f["row"], f["kind"]) for f in rep["findings"]}
    assert ("impl_matches_expected", 0, "disagree") in kinds
    assert ("impl_matches_expected", 1, "undecodable") in kinds
    assert rep["totals"]["impl_matches_expected"]["disagree"] == 1
    assert rep["totals"]["impl_matches_expected"]["undecodable"] == 1
