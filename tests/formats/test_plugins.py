"""The format and language registries: every command finds a dataset's format through them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shared_data import data_path
from veriscale.cli.app import _load_commands, app
from veriscale.formats.api import FormatError
from veriscale.formats.registry import FORMATS, detect_format, get_format
from veriscale.languages.registry import LANGUAGES, language, language_of

DATA = data_path()
VERINA = DATA / "verina"
LEETCODE = DATA / "vericontest" / "leetcode"
runner = CliRunner()
_load_commands()  # registers every command on the app


def _need(path: Path) -> Path:
    if not path.is_dir():
        pytest.skip(f"shared data not found: {path}")
    return path


def test_every_format_names_a_known_language() -> None:
    assert {f.name for f in FORMATS} == {"verina", "vericontest"}
    for f in FORMATS:
        assert language(f.language).name == f.language
    assert set(LANGUAGES) == {"lean", "verus"}


def test_detects_both_shared_formats_and_their_tasks_languages() -> None:
    verina = detect_format(_need(VERINA))
    lc = detect_format(_need(LEETCODE))
    assert (verina.name, lc.name) == ("verina", "vericontest")
    task = verina.read_task(verina.task_dirs(VERINA)[0])
    problem = lc.read_task(lc.task_dirs(LEETCODE)[0])
    assert language_of(task).name == "lean" and language_of(problem).name == "verus"
    # one task folder is a dataset of one task
    assert detect_format(VERINA / task.id).task_dirs(VERINA / task.id) == [VERINA / task.id]


def test_verina_order_is_by_trailing_number_then_name() -> None:
    ids = [d.name for d in get_format("verina").task_dirs(_need(VERINA))]
    assert ids[:4] == ["verina_advanced_1", "verina_basic_1", "verina_advanced_2", "verina_basic_2"]


def test_an_unknown_folder_names_every_format_tried(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    with pytest.raises(FormatError) as err:
        detect_format(tmp_path)
    msg = str(err.value)
    assert all(f.name in msg for f in FORMATS) and "not a dataset of any known format" in msg
    res = runner.invoke(app, ["check", str(tmp_path)])
    assert res.exit_code == 2 and "verina" in res.output and "vericontest" in res.output


@pytest.mark.parametrize("command", [["expand", "inputs", "--run", "OUT"]])
def test_expansion_of_vericontest_says_it_is_not_built(command: list[str], tmp_path: Path) -> None:
    args = [a.replace("OUT", str(tmp_path / "run")) for a in command]
    res = runner.invoke(app, [*args, "--benchmark", str(_need(LEETCODE))])
    assert res.exit_code != 0
    assert "VeriContest expansion" in res.output and "not built yet" in res.output
    assert "veriscale scale" in res.output
    assert "Traceback" not in res.output and not (tmp_path / "run" / "plus").exists()


def test_stats_and_check_data_on_vericontest(tmp_path: Path) -> None:
    root = _need(LEETCODE)
    few = tmp_path / "leetcode"
    few.mkdir()
    for d in get_format("vericontest").task_dirs(root)[:5]:
        (few / d.name).symlink_to(d)
    res = runner.invoke(app, ["stats", "--json", str(few)])
    assert res.exit_code == 0, res.output
    ds = json.loads(res.output)["datasets"][0]
    assert ds["tasks"] == 5 and ds["expected"]["total"] >= 5  # every problem has description examples
    res = runner.invoke(app, ["check-data", "--json", str(few)])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.output)
    assert rep["tasks"] == 5 and rep["rows"] == ds["expected"]["total"] and rep["values"] > rep["rows"]
