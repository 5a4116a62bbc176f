"""``run_generate``: lines, resumption, replay, the cost cap, failed requests and repair rounds."""

from __future__ import annotations

import json
import threading
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from generate_fake_model import ScriptedModel
from shared_data import FIXTURES_DIR
from veriscale.languages.verus.compile import rustc_available
from veriscale.pipeline.generate import Answer, GenerateOptions, ReplayAnswerer, run_generate

TINY = Path(str(resources.files("veriscale") / "examples" / "tiny"))
TINY_IDS = ["tiny_1", "tiny_2", "tiny_3", "tiny_4"]


class Scripted:
    """An answerer over ``ScriptedModel`` that counts questions (and may fail or cost)."""

    def __init__(self, model: ScriptedModel, *, fail: set[str] = frozenset(), price: float = 0.0) -> None:
        self.model, self.fail, self.price = model, set(fail), price
        self.label = "scripted"
        self.asked = 0
        self._lock = threading.Lock()

    def ask(self, key: Any, messages: Any, ident: str) -> Answer:
        with self._lock:
            self.asked += 1
        if key.task_id in self.fail:
            return Answer(error="HTTP 500 server error (after 3 attempts)")
        return Answer(text=self.model.answer(messages), usage={"prompt_tokens": 1, "completion_tokens": 1})

    def spent(self) -> float:
        return self.asked * self.price

    def stats(self) -> dict[str, Any]:
        return {"http_requests": self.asked}


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def strip_meta(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "meta"} for r in rows]


def test_lines_rerun_and_replay(tmp_path: Path) -> None:
    model = ScriptedModel(TINY, TINY_IDS, {("tiny_2", "codegen"): "garbage"})
    ans = Scripted(model)
    opts = GenerateOptions(TINY, tmp_path / "run", ("specgen", "codegen"), n=2)
    rep = run_generate(opts, ans, concurrency=2)
    assert ans.asked == 16 and rep.asked == 16 and rep.reused == 0
    code = lines(tmp_path / "run" / "codegen" / "generations.jsonl")
    assert [(r["task_id"], r["sample"]) for r in code] == [(t, s) for t in TINY_IDS for s in (0, 1)]
    bad = [r for r in code if r["meta"].get("extraction_error")]
    assert [(r["task_id"], r["meta"]["extraction_error"]) for r in bad] == [("tiny_2", "wrong_name")] * 2
    assert rep.extraction == {"specgen": {}, "codegen": {"wrong_name": 2}}

    again = Scripted(model)
    rep2 = run_generate(opts, again, concurrency=2)
    assert again.asked == 0 and rep2.reused == 16
    assert lines(tmp_path / "run" / "codegen" / "generations.jsonl") == code

    replay = ReplayAnswerer(tmp_path / "run" / "responses.jsonl")
    assert replay.label == "scripted"
    rep3 = run_generate(GenerateOptions(TINY, tmp_path / "replay", ("specgen", "codegen"), n=2), replay)
    assert rep3.answerer == {"http_requests": 0, "replayed": 16, "missing": 0}
    for kind in ("specgen", "codegen"):
        a = lines(tmp_path / "run" / kind / "generations.jsonl")
        b = lines(tmp_path / "replay" / kind / "generations.jsonl")
        assert strip_meta(a) == strip_meta(b)


def test_failed_requests_write_no_line_and_are_asked_again(tmp_path: Path) -> None:
    model = ScriptedModel(TINY, TINY_IDS)
    opts = GenerateOptions(TINY, tmp_path, ("codegen",))
    rep = run_generate(opts, Scripted(model, fail={"tiny_3"}))
    assert len(rep.failed) == 1 and "tiny_3 codegen sample 0 round 0: HTTP 500" in rep.failed[0]
    assert [r["task_id"] for r in lines(tmp_path / "codegen" / "generations.jsonl")] == [
        "tiny_1",
        "tiny_2",
        "tiny_4",
    ]
    ans = Scripted(model)
    run_generate(opts, ans)
    assert ans.asked == 1
    assert len(lines(tmp_path / "codegen" / "generations.jsonl")) == 4


def test_max_cost_stops_asking(tmp_path: Path) -> None:
    ans = Scripted(ScriptedModel(TINY, TINY_IDS), price=1.0)
    rep = run_generate(GenerateOptions(TINY, tmp_path, ("codegen",), n=2, max_cost=3.0), ans, concurrency=1)
    assert (
        ans.asked == 3
        and rep.stopped
        and "--max-cost 3" in rep.stopped
        and "5 question(s) not asked" in rep.stopped
    )
    assert json.loads((tmp_path / "summary.json").read_text())["stopped"] == rep.stopped


def test_unknown_kind_and_unreadable_task_are_reported(tmp_path: Path) -> None:
    from veriscale.formats.api import FormatError

    with pytest.raises(FormatError, match="no task kind 'nl2code'"):
        run_generate(GenerateOptions(TINY, tmp_path, ("nl2code",)), Scripted(ScriptedModel(TINY, [])))
    rep = run_generate(
        GenerateOptions(TINY, tmp_path, ("codegen",), only=("tiny_1", "nope")),
        Scripted(ScriptedModel(TINY, ["tiny_1"])),
    )
    assert rep.task_ids == ["tiny_1"] and any("nope: no such task" in e for e in rep.task_errors)


def test_repair_rounds_with_a_feedback_stub(tmp_path: Path) -> None:
    model = ScriptedModel(TINY, TINY_IDS, {("tiny_1", "codegen"): "unclosed", ("tiny_2", "codegen"): "wrong"})
    seen: list[list[str]] = []

    def feedback(kind: str, rows: list[dict[str, Any]]) -> dict[tuple[str, int], str | None]:
        seen.append([r["task_id"] for r in rows])
        return {
            (r["task_id"], r["sample"]): "test 0: got 0, expected 7" for r in rows if "default" in r["code"]
        }

    ans = Scripted(model)
    rep = run_generate(GenerateOptions(TINY, tmp_path, ("codegen",), repair=2), ans, feedback=feedback)
    assert ans.asked == 4 + 2
    assert rep.rounds["codegen"][1] == {
        "round": 1,
        "repaired": 2,
        "asked_to_repair": 2,
        "extraction_errors": 0,
    }
    assert rep.rounds["codegen"][2]["asked_to_repair"] == 0
    r1 = {r["task_id"]: r for r in lines(tmp_path / "codegen" / "repair_r1.jsonl")}
    assert r1["tiny_1"]["meta"]["round"] == 1 and "unclosed_fence" in r1["tiny_1"]["meta"]["feedback"]
    assert r1["tiny_2"]["meta"]["feedback"] == "test 0: got 0, expected 7"
    assert r1["tiny_3"]["meta"]["round"] == 0 and "feedback" not in r1["tiny_3"]["meta"]
    assert lines(tmp_path / "codegen" / "repair_r2.jsonl") == list(r1.values())


def test_verina_repair_with_the_evaluator(tmp_path: Path) -> None:
    """The real feedback provider: evaluate's first failing test goes into the repair prompt."""
    from veriscale.pipeline.feedback import feedback_for

    model = ScriptedModel(TINY, TINY_IDS, {("tiny_2", "codegen"): "wrong", ("tiny_3", "specgen"): "wrong"})
    prompts: list[str] = []

    class Recording(Scripted):
        def ask(self, key: Any, messages: Any, ident: str) -> Answer:
            if key.round:
                prompts.append(messages[-1]["content"])
            return super().ask(key, messages, ident)

    fb = feedback_for(TINY, TINY, workers=1)
    rep = run_generate(
        GenerateOptions(TINY, tmp_path, ("specgen", "codegen"), repair=1), Recording(model), feedback=fb
    )
    assert rep.rounds["codegen"][1]["repaired"] == 1 and rep.rounds["specgen"][1]["repaired"] == 1
    assert any("incorrect_output" in p and "expected" in p for p in prompts)
    assert any("postcond" in p for p in prompts)


@pytest.mark.skipif(not rustc_available(), reason="rustc is not installed")
def test_vericontest_generation_and_feedback(tmp_path: Path) -> None:
    from veriscale.pipeline.feedback import feedback_for

    root = FIXTURES_DIR / "vericontest_gen"
    faults = {
        ("lc9901", "nl2spec"): "wrong",
        ("lc9901", "end2end"): "empty",
        ("cf9901A", "nl2code"): "wrong",
        ("cf9901A", "spec2code"): "wrong",
    }
    model = ScriptedModel(root, ["lc9901", "cf9901A"], faults)
    rep = run_generate(GenerateOptions(root, tmp_path, (), only=("lc9901", "cf9901A")), Scripted(model))
    assert rep.kinds == ("nl2spec", "nl2code", "spec2code", "nl_spec2code", "spec_code2proof", "end2end")
    assert rep.extraction["end2end"] == {"empty": 1} and not rep.failed
    fb = feedback_for(root, root, workers=1)
    # Codeforces: a whole program runs on the examples' stdin; a Verus function on the reference's calls
    cf = [r for r in lines(tmp_path / "nl2code" / "generations.jsonl") if r["task_id"] == "cf9901A"]
    assert "not yet implemented" in (fb("nl2code", cf)[("cf9901A", 0)] or "")
    cf = [r for r in lines(tmp_path / "spec2code" / "generations.jsonl") if r["task_id"] == "cf9901A"]
    assert "call with n = 3" in (fb("spec2code", cf)[("cf9901A", 0)] or "")
    cf = [r for r in lines(tmp_path / "nl_spec2code" / "generations.jsonl") if r["task_id"] == "cf9901A"]
    assert fb("nl_spec2code", cf) == {("cf9901A", 0): None}
    [spec] = [r for r in lines(tmp_path / "nl2spec" / "generations.jsonl") if r["task_id"] == "lc9901"]
    assert spec["ensures"].startswith("false,")
    got = fb("nl2spec", [spec])[("lc9901", 0)]
    assert got is not None and "`ensures` rejects the correct output" in got
    [code] = [r for r in lines(tmp_path / "spec2code" / "generations.jsonl") if r["task_id"] == "lc9901"]
    assert fb("spec2code", [code]) == {("lc9901", 0): None}
    wrong = dict(code, ensures="result >= a")
    assert "specification (requires/ensures) was modified" in (fb("spec2code", [wrong])[("lc9901", 0)] or "")
