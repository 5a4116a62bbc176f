"""The replay model's file reader: lookups by (task, kind, sample, round), bad lines reported."""

from __future__ import annotations

import json
from pathlib import Path

from veriscale.llm.replay import load_replay


def test_replay_lookup_and_bad_lines(tmp_path: Path) -> None:
    rows = [
        {"task_id": "t1", "task": "codegen", "text": "A", "model": "m"},
        {"task_id": "t1", "task": "codegen", "sample": 1, "round": 2, "text": "B", "model": "m"},
        {"task_id": "t1", "task": "codegen", "text": "again"},  # repeated key: the first answer stays
        {"task_id": "t2", "task": "codegen", "sample": -1, "text": "x"},
        {"task": "codegen", "text": "x"},
        ["not", "an", "object"],
    ]
    f = tmp_path / "responses.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n{broken\n\n", encoding="utf-8")
    rm = load_replay(tmp_path)  # a folder means its responses.jsonl
    assert rm.answer(("t1", "codegen", 0, 0)) == "A"
    assert rm.answer(("t1", "codegen", 1, 2)) == "B"
    assert rm.answer(("t1", "specgen", 0, 0)) is None
    assert rm.label == "m"
    assert [e.split(": ", 1)[0].rsplit(":", 1)[1] for e in rm.errors] == ["4", "5", "6", "7"]
    assert "field 'sample'" in rm.errors[0] and "field 'task_id'" in rm.errors[1]


def test_replay_missing_file_is_an_error_not_a_crash(tmp_path: Path) -> None:
    rm = load_replay(tmp_path / "nope.jsonl")
    assert rm.answers == {} and "cannot read the replay file" in rm.errors[0] and rm.label == "replay"
