"""`veriscale expand inputs --engine lean` refuses clearly when no Lean toolchain is configured."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from veriscale.cli.app import _load_commands, app


def test_expand_with_lean_engine_without_lean_fails_cleanly(
    verina_dir: Path, tmp_path: Path, monkeypatch
) -> None:
    if shutil.which("lake"):
        pytest.skip("a Lean toolchain is installed here; this test covers its absence")
    monkeypatch.delenv("VERISCALE_LEAN_PROJECT", raising=False)
    _load_commands()
    res = CliRunner().invoke(
        app,
        [
            "expand",
            "inputs",
            "--benchmark",
            str(verina_dir),
            "--run",
            str(tmp_path / "run"),
            "--tasks",
            "verina_basic_1",
            "--engine",
            "lean",
        ],
    )
    assert res.exit_code == 2
    assert "Lean toolchain unavailable" in res.output
    assert "Traceback" not in res.output
