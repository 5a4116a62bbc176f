"""Verina dataset I/O: round trip of all 189 tasks, sections, lazy decoding, and clear errors on bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from shared_data import require
from veriscale.examples import tiny_path
from veriscale.formats.verina.dataset import (
    DatasetError,
    read_dataset,
    read_task,
    task_sort_key,
    write_dataset,
    write_task,
)
from veriscale.languages.lean.sections import SectionError, parse_sections
from veriscale.values.codec import DecodeError
from veriscale.values.runtime import Struct
from veriscale.values.types import INT, TCon


def _dataset(name: str) -> Path:
    return require(name)


def test_round_trip_all_verina_tasks(tmp_path: Path) -> None:
    root = _dataset("verina")
    tasks = read_dataset(root)
    assert len(tasks) == 189
    write_dataset(tasks, tmp_path)
    back = read_dataset(tmp_path)
    assert back == tasks
    for t in tasks:
        assert (tmp_path / t.id / "task.lean").read_bytes() == (t.dir / "task.lean").read_bytes()
        assert (tmp_path / t.id / "description.txt").read_bytes() == (t.dir / "description.txt").read_bytes()
        for name in ("task.json", "test.json", "reject_inputs.json"):
            assert json.loads((tmp_path / t.id / name).read_text("utf-8")) == json.loads(
                (t.dir / name).read_text("utf-8")
            )


def test_verina_contents() -> None:
    root = _dataset("verina")
    tasks = read_dataset(root)
    assert [t.id for t in tasks[:3]] == ["verina_advanced_1", "verina_basic_1", "verina_advanced_2"]
    assert sum(len(t.tests) for t in tasks) == 1114
    assert sum(len(t.reject_inputs) for t in tasks) == 123
    b1 = next(t for t in tasks if t.id == "verina_basic_1")
    assert b1.signature.name == "hasOppositeSign"
    assert [(p.name, p.type) for p in b1.signature.params] == [("a", INT), ("b", INT)]
    assert b1.section_text("code") == "  a * b < 0\n"
    assert b1.section_text("import", type="solution") == "import Mathlib\n"
    assert b1.section_text("task_aux") == ""
    b104 = next(t for t in tasks if t.id == "verina_basic_104")
    assert b104.signature.return_type == TCon("Map", (INT, INT))
    assert b104.tests[0].decode_expected(b104, 0) == Struct(
        "Map", (("entries", ((1, 10), (2, 30), (3, 40))),)
    )
    inp = b104.tests[0].decode_input(b104, 0)
    assert set(inp) == {"m1", "m2"}


def test_verinaplus_reads_and_bad_values_stay_lazy() -> None:
    root = _dataset("verinaplus")
    t = read_task(root / "verina_basic_16")
    assert len(t.tests) > 500 and t.tests[0].unexpected is None  # unexpected lists were removed there
    bad = [
        i for i, tc in enumerate(t.tests) if len(tc.input["oldChar"]) != 1 or len(tc.input["newChar"]) != 1
    ]
    assert bad
    with pytest.raises(DecodeError) as info:
        t.tests[bad[0]].decode_input(t, bad[0])
    err = info.value
    assert err.reason == "Char is not one character"
    assert (err.dataset, err.task, err.file, err.row) == (
        "verinaplus",
        "verina_basic_16",
        "test.json",
        bad[0],
    )
    assert err.field in ("input.oldChar", "input.newChar")
    # basic_32 in VerinaPlus lost the `--` of its proof markers: readable, without a proof section
    b32 = read_task(root / "verina_basic_32")
    assert b32.section_text("proof") == ""


def test_example_round_trip(tmp_path: Path) -> None:
    tasks = read_dataset(tiny_path())
    assert [t.id for t in tasks] == ["tiny_1", "tiny_2", "tiny_3", "tiny_4"]
    for t in tasks:
        write_task(t, tmp_path / t.id)
        assert read_task(tmp_path / t.id) == t
        for i, tc in enumerate(t.tests):
            tc.decode_input(t, i)
            tc.decode_expected(t, i)
            tc.decode_unexpected(t, i)


def test_sort_key_follows_verina() -> None:
    names = ["verina_basic_10", "verina_advanced_2", "verina_basic_2", "verina_advanced_10"]
    assert sorted(names, key=task_sort_key) == [
        "verina_advanced_2",
        "verina_basic_2",
        "verina_advanced_10",
        "verina_basic_10",
    ]


def test_section_parser_rules() -> None:
    text = "head\n-- !benchmark @start code\n  x\n-- !benchmark @end code\nignored\n"
    (sec,) = parse_sections(text)
    assert (sec.name, sec.args, sec.text) == ("code", {}, "  x\n")
    with pytest.raises(SectionError, match="line 2: @start proof while section 'code'"):
        parse_sections("-- !benchmark @start code\n-- !benchmark @start proof\n")
    with pytest.raises(SectionError, match="without a matching @start"):
        parse_sections("-- !benchmark @end code\n")
    with pytest.raises(SectionError, match="never closed"):
        parse_sections("-- !benchmark @start code\nx\n")
    with pytest.raises(SectionError, match="unknown section name"):
        parse_sections("-- !benchmark @start cod\n-- !benchmark @end cod\n")


# ---------------------------------------------------------------- corrupted task folders


@pytest.fixture
def task_dir(tmp_path: Path) -> Path:
    d = tmp_path / "ds" / "tiny_2"
    shutil.copytree(tiny_path() / "tiny_2", d)
    return d


def _error(task_dir: Path) -> DatasetError:
    with pytest.raises(DatasetError) as info:
        read_task(task_dir)
    return info.value


def test_bad_json_names_file(task_dir: Path) -> None:
    (task_dir / "test.json").write_text('[{"input": {"a": "#[1]"}, "expected": 1,', encoding="utf-8")
    err = _error(task_dir)
    assert err.file is not None and err.file.endswith("test.json")
    assert "bad JSON" in str(err) and "test.json" in str(err) and "tiny_2" in str(err)


def test_missing_section_marker_names_file_and_line(task_dir: Path) -> None:
    lean = task_dir / "task.lean"
    lines = lean.read_text(encoding="utf-8").split("\n")
    idx = next(i for i, line in enumerate(lines) if "@end code" in line and "code_aux" not in line)
    del lines[idx]
    lean.write_text("\n".join(lines), encoding="utf-8")
    err = _error(task_dir)
    assert err.file is not None and err.file.endswith("task.lean")
    assert "code" in err.msg and "line" in err.msg and "not closed" in err.msg


def test_unknown_type_names_file_and_field(task_dir: Path) -> None:
    tj = json.loads((task_dir / "task.json").read_text(encoding="utf-8"))
    tj["signature"]["parameters"][0]["param_type"] = "Vector Int"
    (task_dir / "task.json").write_text(json.dumps(tj), encoding="utf-8")
    err = _error(task_dir)
    assert err.file is not None and err.file.endswith("task.json")
    assert "unknown type 'Vector'" in str(err)
    assert err.field == "signature.parameters[0].param_type"


def test_missing_file_and_bad_row(task_dir: Path) -> None:
    (task_dir / "task.lean").unlink()
    assert "missing file" in str(_error(task_dir))
    shutil.copy(tiny_path() / "tiny_2" / "task.lean", task_dir / "task.lean")
    rows = json.loads((task_dir / "test.json").read_text(encoding="utf-8"))
    del rows[2]["expected"]
    (task_dir / "test.json").write_text(json.dumps(rows), encoding="utf-8")
    err = _error(task_dir)
    assert (err.row, err.field) == (2, "expected") and "row 2" in str(err)


def test_bad_value_does_not_stop_reading(task_dir: Path) -> None:
    rows = json.loads((task_dir / "test.json").read_text(encoding="utf-8"))
    rows[1]["input"]["a"] = "#[1, 2"
    (task_dir / "test.json").write_text(json.dumps(rows), encoding="utf-8")
    t = read_task(task_dir)
    t.tests[0].decode_input(t, 0)
    with pytest.raises(
        DecodeError, match=r"tiny_2/test.json row 1 field input.a: malformed Array Int literal"
    ):
        t.tests[1].decode_input(t, 1)
