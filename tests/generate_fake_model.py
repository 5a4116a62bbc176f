"""A scripted "model" for ``veriscale generate`` tests and the end-to-end benchmark script.

It answers a generate prompt with the ground truth of the task the prompt is
about (found by the task's own text in the prompt), except where a fault is
planned for (task id, task kind): then round 0 gets a bad answer of that kind
and a repair round (a request holding the previous answer) gets the ground
truth — so repair@k has something to repair. Used as the ``responder`` of
``llm_fake_server.FakeOpenAI`` (a real HTTP round trip) or directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from veriscale.formats.registry import detect_format
from veriscale.formats.vericontest.generate import _answer_of
from veriscale.formats.verina.generate import _answer_text, _ground_truth, _task_text

FAULTS: tuple[str, ...] = ("empty", "garbage", "unclosed", "wrong_names", "forbidden", "huge", "wrong")
# the extraction category each fault must be recorded with ("wrong" extracts fine and fails the tests)
EXPECTED_CATEGORY: dict[str, dict[str, str | None]] = {
    "verina": {
        "empty": "empty",
        "garbage": "wrong_name",
        "unclosed": "unclosed_fence",
        "wrong_names": "wrong_name",
        "forbidden": "forbidden_construct",
        "huge": "huge_output",
        "wrong": None,
    },
    "vericontest": {
        "empty": "empty",
        "garbage": "no_program",
        "unclosed": "unclosed_fence",
        "wrong_names": "wrong_name",
        "forbidden": "forbidden_construct",
        "huge": "huge_output",
        "wrong": None,
    },
}


class ScriptedModel:
    def __init__(
        self, root: Path, task_ids: Sequence[str], faults: Mapping[tuple[str, str], str] | None = None
    ) -> None:
        self.fmt = detect_format(root)
        dirs = {d.name: d for d in self.fmt.task_dirs(root)}
        self.tasks = {t: self.fmt.read_task(dirs[t]) for t in task_ids}
        self.faults = dict(faults or {})
        self.calls = 0

    # ---- which task and kind a request is about
    def _verina_kind(self, system: str) -> str:
        if "-- !answer precond" in system:
            return "specgen"
        if "-- !answer code" in system:
            return "codegen"
        return "proofgen"

    def _find(self, messages: Sequence[Mapping[str, str]]) -> tuple[Any, str, int]:
        rounds = sum(1 for m in messages if m["role"] == "assistant")
        if self.fmt.name == "verina":
            kind = self._verina_kind(messages[0]["content"])
            prompt = messages[1]["content"]
            target = prompt[prompt.rindex("# Task") :]
            for t in self.tasks.values():
                # the whole task text: verina_advanced_2 and _3 share description and names
                if target.startswith(f"# Task\n{_task_text(t, kind)}\n"):
                    return t, kind, rounds
            raise LookupError("no task matches the prompt")
        prompt = messages[0]["content"]
        # section headers are whole lines; a description's own "## Input" must not count
        target = prompt[prompt.index("\n# Input\n") : prompt.rindex("\n# Output\n")]
        head = prompt[: prompt.index("\n\n")]
        kinds = {
            "natural language. Write the formal Verus": "nl2spec",
            "Rust expert": "nl2code",
            "specification whose function body is empty": "spec2code",
            "statement and its Verus specification": "nl_spec2code",
            "Add the proof annotations": "spec_code2proof",
            "complete Verus program": "end2end",
        }
        kind = next(v for k, v in kinds.items() if k in head)
        for t in self.tasks.values():
            probe = (
                t.code_spec
                if kind == "spec_code2proof"
                else (t.spec if kind == "spec2code" else t.description)
            )
            if probe.strip() and probe.strip() in target:
                return t, kind, rounds
        raise LookupError("no problem matches the prompt")

    # ---- answers
    def truth(self, task: Any, kind: str) -> str:
        if self.fmt.name == "verina":
            return "Here is my answer.\n\n" + _answer_text(kind, _ground_truth(task, kind))
        return "```rust\n" + _answer_of(task, kind).strip("\n") + "\n```"

    def bad(self, task: Any, kind: str, fault: str) -> str:
        verina = self.fmt.name == "verina"
        good = self.truth(task, kind)
        if fault == "empty":
            return "   \n"
        if fault == "garbage":
            return "I am not able to answer this question."
        if fault == "unclosed":
            return good[: good.rindex("```")].rstrip("\n")
        if fault == "huge":
            return good + "\n" + ("// filler\n" * 30_000)
        if fault == "wrong_names":
            if verina:
                return good.replace("-- !answer code", "-- !answer implementation").replace(
                    "-- !answer precond\n", "-- !answer pre\n"
                )
            name = task.signature.name
            return good.replace(f"fn {name}(", f"fn {name}_v2(").replace(f"fn {name}<", f"fn {name}_v2<")
        if fault == "forbidden":
            if verina:
                field = {"specgen": "postcond", "codegen": "code", "proofgen": "proof"}[kind]
                parts = dict(_ground_truth(task, kind))
                parts[field] = "  sorry"
                return _answer_text(kind, parts)
            return good.replace("```rust\n", "```rust\nuse std::process;\n", 1)
        if fault == "wrong":
            if verina:
                parts = dict(_ground_truth(task, kind))
                if kind == "codegen":
                    parts["code"] = "  default"
                elif kind == "specgen":
                    parts["postcond"] = "  True"
                return _answer_text(kind, parts)
            return self._wrong_rust(task, kind, good)
        raise ValueError(fault)

    def _wrong_rust(self, task: Any, kind: str, good: str) -> str:
        """Code that compiles and panics (code tasks), or an ``ensures false`` (nl2spec)."""
        from veriscale.formats.vericontest.generate import VERICONTEST_GENERATION

        if kind == "nl2spec":
            return good.replace("ensures\n", "ensures\n            false,\n", 1)
        if kind not in ("nl2code", "spec2code", "nl_spec2code"):
            return good
        ex = VERICONTEST_GENERATION.extract(task, kind, good)
        body = ex.fields.get("code")
        if not ex.ok or not body or not body.strip():
            return good
        head, _, tail = good.rpartition(body)  # the body is the last occurrence (a clause may repeat it)
        return head + "\n        todo!()\n    " + tail

    def answer(self, messages: Sequence[Mapping[str, str]]) -> str:
        self.calls += 1
        task, kind, rounds = self._find(messages)
        fault = self.faults.get((task.id, kind))
        if fault is not None and rounds == 0:
            return self.bad(task, kind, fault)
        return self.truth(task, kind)

    def responder(self, body: dict[str, Any]) -> str:
        """For ``FakeOpenAI.responder``: the body of a chat-completions request."""
        return self.answer(body["messages"])


def plan_faults(task_ids: Sequence[str], kinds: Sequence[str], every: int = 5) -> dict[tuple[str, str], str]:
    """Every ``every``-th (task, kind) pair gets the next fault, cycling through ``FAULTS``."""
    out: dict[tuple[str, str], str] = {}
    i = 0
    for n, (t, k) in enumerate((t, k) for t in task_ids for k in kinds):
        if n % every == 1:
            out[(t, k)] = FAULTS[i % len(FAULTS)]
            i += 1
    return out
