"""``veriscale stats`` and ``veriscale check-data`` through typer's CliRunner."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import veriscale.cli.check_data
import veriscale.cli.stats  # noqa: F401  (registers the commands on the app)
from shared_data import require
from veriscale.cli.app import app
from veriscale.examples import tiny_path

runner = CliRunner()


def _dataset(name: str) -> Path:
    return require(name)


def test_stats_table_1_figures() -> None:
    res = runner.invoke(app, ["stats", str(_dataset("verina")), str(_dataset("verinaplus"))])
    assert res.exit_code == 0, res.output
    out = res.output
    assert "5.89 (2–13)" in out and "12.66 (0–34)" in out and "0.65 (0–7)" in out
    assert "370.07 (5–705) (×62.79)" in out and "119.00 (0–684) (×182.85)" in out


def test_stats_json() -> None:
    res = runner.invoke(app, ["stats", "--json", str(_dataset("verina")), str(_dataset("verinaplus"))])
    assert res.exit_code == 0, res.output
    verina, plus = json.loads(res.output)["datasets"]
    assert verina["tasks"] == plus["tasks"] == 189
    e = verina["expected"]
    assert (e["total"], round(e["mean"], 2), e["min"], e["max"], e["multiplier"]) == (1114, 5.89, 2, 13, None)
    u = verina["unexpected_outputs"]
    assert (u["total"], round(u["mean"], 2), u["min"], u["max"]) == (2392, 12.66, 0, 34)
    r = verina["unexpected_inputs"]
    assert (r["total"], round(r["mean"], 2), r["min"], r["max"]) == (123, 0.65, 0, 7)
    assert (plus["expected"]["total"], round(plus["expected"]["mean"], 2)) == (69943, 370.07)
    assert (plus["expected"]["min"], plus["expected"]["max"]) == (5, 705)
    assert plus["unexpected_outputs"]["total"] == 0
    assert (plus["unexpected_inputs"]["total"], plus["unexpected_inputs"]["max"]) == (22491, 684)
    assert plus["expected"]["multiplier"] == pytest.approx(69943 / 1114)


def test_stats_example_needs_no_data() -> None:
    res = runner.invoke(app, ["stats", "--example", "--json"])
    assert res.exit_code == 0, res.output
    (tiny,) = json.loads(res.output)["datasets"]
    assert tiny["tasks"] == 4 and tiny["expected"]["total"] == 20 and tiny["unexpected_inputs"]["total"] == 1
    res = runner.invoke(app, ["stats", "--example"])
    assert res.exit_code == 0 and "tiny (example)" in res.output and "5.00 (5–5)" in res.output


def test_stats_errors_and_bad_rows(tmp_path: Path) -> None:
    res = runner.invoke(app, ["stats"])
    assert res.exit_code != 0
    res = runner.invoke(app, ["stats", str(tmp_path / "nope")])
    assert res.exit_code == 1 and "not a dataset directory" in res.output
    ds = tmp_path / "ds"
    shutil.copytree(tiny_path() / "tiny_1", ds / "tiny_1")
    rows = json.loads((ds / "tiny_1" / "test.json").read_text("utf-8"))
    rows.append("not a row")
    rows[0]["unexpected"] = "oops"
    (ds / "tiny_1" / "test.json").write_text(json.dumps(rows), "utf-8")
    res = runner.invoke(app, ["stats", "--json", str(ds)])
    assert res.exit_code == 0, res.output
    (d,) = json.loads(res.output)["datasets"]
    assert d["expected"]["total"] == 6 and d["bad_rows"] == 2


@pytest.fixture
def corrupted(tmp_path: Path) -> Path:
    """A copy of the example with one bad value of several kinds, a duplicate row and an unreadable task."""
    ds = tmp_path / "corrupt"
    shutil.copytree(tiny_path(), ds)
    rows = json.loads((ds / "tiny_2" / "test.json").read_text("utf-8"))
    rows[0]["input"]["a"] = "#[1, 2"  # malformed
    rows[1]["expected"] = "-5"  # fine: digit string for Int
    rows[2]["unexpected"].append(True)  # bool for Int
    rows.append(dict(rows[3]))  # exact duplicate
    (ds / "tiny_2" / "test.json").write_text(json.dumps(rows), "utf-8")
    rows = json.loads((ds / "tiny_3" / "test.json").read_text("utf-8"))
    rows[0]["input"]["t"] = "extra"
    (ds / "tiny_3" / "test.json").write_text(json.dumps(rows), "utf-8")
    (ds / "tiny_4" / "test.json").write_text("[{", "utf-8")
    return ds


def test_check_data_reports_failures(corrupted: Path) -> None:
    res = runner.invoke(app, ["check-data", "--json", str(corrupted)])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.output)
    reasons = {g["reason"]: g for g in rep["groups"]}
    assert set(reasons) == {
        "malformed Array Int literal",
        "JSON bool given for Int",
        "unknown input parameter",
        "unreadable task",
    }
    ex = reasons["malformed Array Int literal"]["examples"][0]
    assert (ex["task"], ex["file"], ex["row"], ex["field"], ex["text"]) == (
        "tiny_2",
        "test.json",
        0,
        "input.a",
        "#[1, 2",
    )
    assert reasons["JSON bool given for Int"]["examples"][0]["field"] == "unexpected[3]"
    assert "bad JSON" in reasons["unreadable task"]["examples"][0]["detail"]
    assert rep["duplicate_rows"] == 1 and rep["duplicate_inputs"] == 1
    assert rep["failed_values"] == 4
    res = runner.invoke(app, ["check-data", str(corrupted)])
    assert res.exit_code == 0
    assert "malformed Array Int literal" in res.output and "Exact duplicate rows: 1" in res.output


@pytest.mark.slow
def test_check_data_on_verinaplus_counts() -> None:
    res = runner.invoke(app, ["check-data", "--json", str(_dataset("verinaplus"))])
    assert res.exit_code == 0
    rep = json.loads(res.output)
    reasons = {g["reason"]: g["values"] for g in rep["groups"]}
    assert reasons["Char is not one character"] == 607
    assert reasons["UInt8 out of range"] == 75
    assert reasons["malformed Array Char literal"] > 298
    assert rep["duplicate_rows"] == 207
