"""Bad input reaches the user as a named problem and an exit status, never as a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from veriscale.cli.app import _load_commands, app
from veriscale.examples import tiny_path

_load_commands()
runner = CliRunner()


def _no_traceback(res: object) -> None:
    out = getattr(res, "output", "")
    assert "Traceback" not in out
    exc = getattr(res, "exception", None)
    assert exc is None or isinstance(exc, SystemExit), repr(exc)


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    ds = tmp_path / "tiny"
    shutil.copytree(tiny_path(), ds)
    return ds


def test_scale_on_an_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    res = runner.invoke(
        app, ["scale", "--benchmark", str(tmp_path / "empty"), "--out", str(tmp_path / "run")]
    )
    _no_traceback(res)
    assert res.exit_code != 0
    # an empty folder is no dataset of any known format: said so, naming the formats tried
    assert "not a dataset of any known format" in res.output and "verina" in res.output


def test_scale_where_every_task_fails(tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    for name, text in (("t1", "{"), ("t2", "garbage")):
        (bench / name).mkdir(parents=True)
        (bench / name / "task.json").write_text(text, encoding="utf-8")
    args = ["scale", "--benchmark", str(bench), "--out", str(tmp_path / "run"), "--executor", "serial"]
    res = runner.invoke(app, args)
    _no_traceback(res)
    assert res.exit_code == 1
    assert "FAILED t1" in res.output and "FAILED t2" in res.output and "bad JSON" in res.output
    assert "tasks written to" not in res.output  # no success sentence
    assert "2 task(s) failed" in res.output
    assert "veriscale." not in res.output  # no module paths in messages


def test_stats_goes_on_past_a_bad_task(tiny: Path) -> None:
    (tiny / "tiny_2" / "test.json").write_bytes(b"\xff\xfe not utf-8")
    res = runner.invoke(app, ["stats", "--json", str(tiny)])
    _no_traceback(res)
    assert res.exit_code == 1
    (d,) = json.loads(res.output)["datasets"]
    assert d["tasks"] == 3 and sorted(d["errors"]) == ["tiny_2"]
    assert "tiny_2" in d["errors"]["tiny_2"] and "test.json" in d["errors"]["tiny_2"]
    res = runner.invoke(app, ["stats", str(tiny)])
    assert res.exit_code == 1 and "task tiny_2 left out" in res.output


def test_check_data_table_names_the_reason(tiny: Path) -> None:
    (tiny / "tiny_4" / "test.json").write_text("[{", encoding="utf-8")
    res = runner.invoke(app, ["check-data", str(tiny)])
    _no_traceback(res)
    assert "None None" not in res.output
    assert "tiny_4 test.json: bad JSON" in res.output


def test_check_reports_empty_folders_full_reasons_and_counts_a_value_once(tiny: Path) -> None:
    (tiny / "tiny_9").mkdir()
    rows = json.loads((tiny / "tiny_2" / "test.json").read_text("utf-8"))
    long_bad = "#[" + "1, " * 60  # an unterminated array literal, far longer than 80 characters
    rows[0]["input"]["a"] = long_bad
    (tiny / "tiny_2" / "test.json").write_text(json.dumps(rows), "utf-8")
    res = runner.invoke(app, ["check", "--json", str(tiny)])
    _no_traceback(res)
    rep = json.loads(res.output)
    empty = [f for f in rep["findings"] if f["task"] == "tiny_9"]
    assert len(empty) == 1 and "no task.json" in empty[0]["detail"] and "empty" in empty[0]["detail"]
    res = runner.invoke(app, ["check", str(tiny)], terminal_width=100)
    _no_traceback(res)
    text = " ".join(res.output.split())
    assert "tiny_9: no task.json (the folder is empty)" in text
    # the row's bad input fails every check that reads it, but it is one bad value
    assert "undecodable values (data defects, not counted as disagreements): 2" in text


def test_evaluate_on_a_broken_suite_is_bad_test_data_and_keeps_meta(tiny: Path, tmp_path: Path) -> None:
    from veriscale.evaluate.generations import ground_truth_generation
    from veriscale.formats.verina.dataset import read_task

    gens = tmp_path / "gens.jsonl"
    with gens.open("w", encoding="utf-8") as f:
        for d in sorted(tiny.iterdir()):
            g = ground_truth_generation(read_task(d)).to_json()
            g["meta"] = {"origin": d.name}
            f.write(json.dumps(g) + "\n")
    (tiny / "tiny_3" / "test.json").write_text("[{", encoding="utf-8")
    out = tmp_path / "out"
    res = runner.invoke(
        app, ["evaluate", "-g", str(gens), "-s", str(tiny), "-o", str(out), "--no-chart", "-j", "1"]
    )
    _no_traceback(res)
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text("utf-8").splitlines()]
    assert [r["meta"] for r in rows] == [{"origin": r["task_id"]} for r in rows]
    bad = next(r for r in rows if r["task_id"] == "tiny_3")
    assert bad["metrics"]["code"]["error"] == "bad_test_data"
    assert "runtime_error" not in json.dumps(bad)


def test_help_texts() -> None:
    res = runner.invoke(app, ["models", "config", "--help"], terminal_width=200)
    assert "[llm]" in res.output and ".yaml with PyYAML" in res.output
    res = runner.invoke(app, ["stats", "--help"], terminal_width=200)
    assert "``" not in res.output
    res = runner.invoke(app, ["check", "--help"], terminal_width=200)
    assert "(default: 1)" not in res.output


@pytest.mark.parametrize("command", ["scale", "check", "evaluate", "stats", "expand"])
def test_one_spelling_of_the_worker_option(command: str) -> None:
    _load_commands()
    args = [command, "inputs", "--help"] if command == "expand" else [command, "--help"]
    out = runner.invoke(app, args, terminal_width=200).output
    assert "--workers" in out and "-j" in out and "--jobs" in out, out


def test_scale_resume_says_what_it_reused_and_the_hint_names_out(tmp_path: Path) -> None:
    args = ["scale", "--example", "--tasks", "tiny_1", "--out", str(tmp_path / "run"), "--executor", "serial"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert "inputs: reusing 1 task(s) already done" in again.output
    assert "outputs: reusing 1 task(s) already done" in again.output
    other = runner.invoke(app, [*args, "--seed", "7"])
    _no_traceback(other)
    assert other.exit_code != 0
    text = " ".join(other.output.split())
    assert "--out" in text and "--run" not in text


def test_a_nul_byte_in_a_file_name_is_a_dataset_error(tiny: Path) -> None:
    """Found by the fuzz campaign: a ``lean_file`` name with a NUL byte is reported, not raised."""
    from veriscale.formats.verina.dataset import DatasetError, read_task

    meta = json.loads((tiny / "tiny_1" / "task.json").read_text("utf-8"))
    meta["lean_file"] = "task\u0000.lean"
    (tiny / "tiny_1" / "task.json").write_text(json.dumps(meta), "utf-8")
    with pytest.raises(DatasetError, match="bad file name"):
        read_task(tiny / "tiny_1")
