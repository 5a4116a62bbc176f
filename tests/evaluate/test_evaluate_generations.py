"""The generations JSONL format: strict reading with located errors, ground-truth builder, Verina converter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared_data import require
from veriscale.evaluate.generations import (
    Generation,
    convert_verina_output,
    ground_truth_generation,
    parse_generations,
    read_generations,
    write_generations,
)
from veriscale.formats.verina.dataset import read_task


def _lines(*objs: object) -> list[str]:
    return [o if isinstance(o, str) else json.dumps(o) for o in objs]


def test_kinds_inferred_from_fields_and_given_explicitly() -> None:
    gs = parse_generations(
        _lines(
            {"task_id": "t1", "sample": 0, "precond": "True", "postcond": "result = 1"},
            {"task_id": "t1", "sample": 1, "code": "1", "code_aux": "def h := 1"},
            {"task_id": "t2", "kind": ["spec", "proof"], "precond": "True", "postcond": "p", "proof": "simp"},
            {"task_id": "t3", "kind": "codegen", "code": "0", "imports": "import Mathlib", "meta": {"x": 1}},
        )
    )
    assert gs.errors == []
    kinds = [(g.task_id, g.sample, g.kinds) for g in gs.generations]
    assert kinds == [
        ("t1", 0, ("spec",)),
        ("t1", 1, ("code",)),
        ("t2", 0, ("spec", "proof")),
        ("t3", 0, ("code",)),
    ]
    g = gs.generations[3]
    assert g.imports == "import Mathlib" and g.meta == {"x": 1}
    assert gs.generations[1].fields("code") == {"imports": "", "code_aux": "def h := 1", "code": "1"}


def test_bad_lines_are_reported_with_line_and_field_and_skipped() -> None:
    gs = parse_generations(
        _lines(
            {"task_id": "ok", "code": "1"},
            "{not json",
            {"task_id": "t", "precond": "True"},  # spec without postcond
            {"task_id": "t", "kind": "code", "code": "1", "postcond": "x"},  # field of an unlisted kind
            {"task_id": "t", "sample": -1, "code": "1"},
            {"task_id": "t", "code": 3},
            {"task_id": "t", "code": "1", "colour": "red"},
            {"task_id": "t", "kind": "tests", "code": "1"},
            {"sample": 0, "code": "1"},
            {"task_id": "t"},
            [1, 2],
            "",
            {"task_id": "ok", "code": "2"},  # duplicate (task, sample)
            {"task_id": "ok", "sample": 1, "code": "2"},
        ),
        file="gens.jsonl",
    )
    assert [(g.task_id, g.sample) for g in gs.generations] == [("ok", 0), ("ok", 1)]
    found = {(e.line, e.field) for e in gs.errors}
    assert {
        (2, None),
        (3, "postcond"),
        (4, "postcond"),
        (5, "sample"),
        (6, "code"),
        (7, "colour"),
        (8, "kind"),
        (9, "task_id"),
        (10, None),
        (11, None),
        (13, "sample"),
    } <= found
    text = [str(e) for e in gs.errors]
    assert any(t.startswith("gens.jsonl:3: field 'postcond': required for kind 'spec'") for t in text)
    assert any("duplicate sample 0 of task 'ok'; first given on line 1" in t for t in text)


def test_models_are_separate_samples(tmp_path: Path) -> None:
    gens = [
        Generation("t", 0, ("code",), code="1", model="a"),
        Generation("t", 0, ("code",), code="2", model="b"),
    ]
    path = tmp_path / "g.jsonl"
    write_generations(gens, path)
    back = read_generations(path)
    assert back.errors == []
    assert [(g.model, g.code) for g in back.generations] == [("a", "1"), ("b", "2")]


def test_read_reports_non_utf8_lines(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(b'{"task_id": "t", "code": "1"}\n{"task_id": "\xff"}\n')
    gs = read_generations(path)
    assert len(gs.generations) == 1
    assert [(e.line, "UTF-8" in e.msg) for e in gs.errors] == [(2, True)]


def test_ground_truth_generation_follows_verina_qa() -> None:
    task = read_task(require("verina", "verina_advanced_1"))
    g = ground_truth_generation(task)
    assert g.kinds == ("spec", "code", "proof")
    # the solution aux travels with the precondition (Verina merges it there)
    assert "def filterlist" in task.section_text("solution_aux")
    assert "def filterlist" in g.precond_aux
    assert "def filterlist" not in g.code_aux
    assert g.code.strip() and g.postcond.strip() and g.proof.strip()
    only_code = ground_truth_generation(task, kinds=["code"])
    assert only_code.kinds == ("code",) and only_code.precond == "" and only_code.code == g.code


def _rounds_report(rounds: dict[str, dict[str, dict[str, dict]]]) -> dict:
    return {
        "config": {"output_dir": "out", "gen_lm_config": {"model": "some-model"}},
        "rounds": {
            r: {
                "experiment_id": "e",
                "data_reports": {
                    did: {"data_id": did, "task_reports": reports} for did, reports in data.items()
                },
            }
            for r, data in rounds.items()
        },
    }


def _report(name: str, flags: dict[str, bool], **artifact: str) -> dict:
    return {
        "task_name": name,
        "data_id": "x",
        "fewshot_example_names": ["verina_basic_15", "verina_basic_44"],
        "task_flags": {"code": False, "spec": False, "proof": False, **flags},
        "task_options": {},
        "artifact": {"imports": "", **artifact},
        "scores": {},
    }


def test_convert_verina_output_folder(tmp_path: Path) -> None:
    spec = _report(
        "execute_spec_gen", {"spec": True}, precond="True", postcond="result = 1", imports="import Mathlib"
    )
    code = _report(
        "execute_code_gen", {"code": True}, code="1", code_aux="", imports="import Std.Data.HashMap"
    )
    both = _report(
        "execute_code_spec_gen", {"code": True, "spec": True}, code="2", precond="False", postcond="False"
    )
    older = _rounds_report({"0": {"verina_basic_1": {"execute_code_gen": code}}})
    newer = _rounds_report(
        {
            "0": {
                "verina_basic_1": {
                    "execute_spec_gen": spec,
                    "execute_code_gen": code,
                    "execute_code_spec_gen": both,
                }
            },
            "1": {"verina_basic_1": {"execute_code_spec_gen": both}},
        }
    )
    (tmp_path / "rounds_report_100.json").write_text(json.dumps(older), encoding="utf-8")
    (tmp_path / "rounds_report_200.json").write_text(json.dumps(newer), encoding="utf-8")
    conv = convert_verina_output(tmp_path)
    assert conv.source.name == "rounds_report_200.json"
    assert conv.fewshot_ids == ("verina_basic_15", "verina_basic_44")
    g0, g1 = conv.generations
    assert (g0.task_id, g0.sample, g0.kinds, g0.model) == (
        "verina_basic_1",
        0,
        ("spec", "code"),
        "some-model",
    )
    # the standalone tasks win over the combined one; imports merge
    assert (g0.code, g0.precond, g0.postcond) == ("1", "True", "result = 1")
    assert g0.imports == "import Mathlib\nimport Std.Data.HashMap"
    assert any("kept over 'execute_code_spec_gen'" in w for w in conv.warnings)
    assert (g1.sample, g1.kinds, g1.code, g1.precond) == (1, ("spec", "code"), "2", "False")


def test_convert_rejects_non_reports(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        convert_verina_output(tmp_path)
    bad = tmp_path / "rounds_report_1.json"
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError):
        convert_verina_output(bad)
