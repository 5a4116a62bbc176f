"""``evaluate`` ends by printing the command that makes the report of its output folder."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from report_fixtures import make_generations
from veriscale.cli.app import _load_commands, app
from veriscale.cli.report import report_hint
from veriscale.examples import tiny_path


def test_report_hint_text() -> None:
    assert report_hint(Path("runs/x")) == "veriscale report runs/x --out runs/x/site"
    assert report_hint("a", "b", out="site") == "veriscale report a b --out site"


def test_evaluate_prints_the_report_command(tmp_path: Path) -> None:
    _load_commands()
    gens = tmp_path / "gens.jsonl"
    make_generations(gens)
    out = tmp_path / "ev"
    res = CliRunner().invoke(
        app,
        [
            "evaluate",
            "-g",
            str(gens),
            "-s",
            f"tiny={tiny_path()}",
            "--out",
            str(out),
            "--workers",
            "1",
            "--no-chart",
        ],
    )
    assert res.exit_code == 0, res.output
    assert f"make the report: veriscale report {out} --out {out / 'site'}" in res.output
    # and the command it prints works
    res = CliRunner().invoke(app, ["report", str(out), "--out", str(out / "site")])
    assert res.exit_code == 0, res.output
    assert (out / "site" / "index.html").is_file()


def test_scale_prints_the_report_command_and_the_report_reads_its_run(tmp_path: Path) -> None:
    _load_commands()
    run = tmp_path / "run"
    res = CliRunner().invoke(
        app, ["scale", "--example", "--tasks", "tiny_1", "--out", str(run), "--executor", "serial"]
    )
    assert res.exit_code == 0, res.output
    # on one line, whatever the terminal's width, so it can be copied
    assert f"make the report: veriscale report {run} --out {run / 'site'}" in res.output.splitlines()
    res = CliRunner().invoke(app, ["report", str(run), "--out", str(run / "site")])
    assert res.exit_code == 0, res.output
    page = (run / "site" / "tasks" / "tiny_1.html").read_text(encoding="utf-8")
    assert "why each row is there" in page  # the provenance of the real plus and lite suites
    assert "Suite lite" in page and "Suite plus" in page
    index = (run / "site" / "index.html").read_text(encoding="utf-8")
    assert "Scale run run" in index and "Lite keeps Plus" in index
