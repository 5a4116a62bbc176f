"""`veriscale expand inputs --engine lean` refuses clearly when no Lean toolchain is configured."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from veriscale.cli.app import _load_commands, app

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "verina"


def test_expand_with_lean_engine_without_lean_fails_cleanly(tmp_path: Path, monkeypatch) -> None:
    if not DATA.is_dir():
        pytest.skip(f"shared Verina data not found at {DATA}")
    if shutil.which("lake"):
        pytest.skip("a Lean toolchain is installed here; this test covers its absence")
    monkeypatch.delenv("VERISCALE_LEAN_PROJECT", raising=False)
    _load_commands()
    res = CliRunner().invoke(
        app,
        ["expand", "inputs", "--benchmark", str(DATA), "--run", str(tmp_path / "run"), "--tasks",
         "verina_basic_1", "--engine", "lean"],
    )
    assert res.exit_code == 2
    assert "Lean toolchain unavailable" in res.output
    assert "Traceback" not in res.output
