"""``veriscale check`` on VeriContest directories: examples, reference, requires/ensures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shared_data import data_path, needs
from veriscale.languages.verus.compile import rustc_available

DATA = data_path("vericontest")

pytestmark = [
    pytest.mark.skipif(not rustc_available(), reason="rustc is not installed"),
    needs("vericontest"),
]


def test_check_a_handful_of_problems() -> None:
    from veriscale.evaluate.checks.vericontest import run_vericontest_check, summarize

    checks = run_vericontest_check(DATA, only=["lc7", "lc2486", "lc905", "lc303", "cf1006C", "cf1077C"])
    s = summarize(checks)
    assert s["problems"] == 6
    assert s["leetcode.all"]["examples"] == 3 + 3 + 2 + 3
    # lc905 (any even-first order) and cf1077C (any index order) have several valid answers
    assert sorted((p, i) for p, i, _ in s["disagreements"]) == [("cf1077C", 0), ("lc905", 0)]
    assert s["requires"].get("FALSE", 0) == 0 and s["ensures"].get("FALSE", 0) == 0
    assert s["ensures"]["TRUE"] == s["cases"]  # the spec accepts the reference output, also when it differs
    assert s["postconditions_decided"] == 6


def test_check_cli_routes_vericontest(tmp_path: Path) -> None:
    from veriscale.cli.app import _load_commands, app

    _load_commands()
    res = CliRunner().invoke(app, ["check", str(DATA / "codeforces" / "cf1006C"), "--json"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.output)
    assert rep["summary"]["codeforces.all"]["agree"] == 3
    (prob,) = rep["problems"]
    assert [c["ensures"]["truth"] for e in prob["examples"] for c in e["cases"]] == ["TRUE"] * 3
