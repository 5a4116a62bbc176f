"""The replay model (``--model replay:FILE``): answers from stored responses, no network.

A replay file is JSON Lines, one stored answer a line — exactly the
``responses.jsonl`` that ``veriscale generate`` writes into its output folder,
so any published run can be replayed::

    {"task_id": "tiny_1", "task": "codegen", "sample": 0, "round": 0, "text": "```lean ...```",
     "model": "some-model"}

``task_id``, ``task`` and ``text`` are required; ``sample`` and ``round``
default to 0; other fields are ignored. An answer is looked up by (task id,
task, sample, round) — not by prompt text, so a replay still works after a
prompt's wording changes. A question with no stored answer fails like a
request that got no answer (the driver records it and writes no line). Bad
lines are reported as ``FILE:LINE: message`` and skipped; a repeated key keeps
its first answer (as the response cache does).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ReplayKey", "ReplayModel", "load_replay"]

ReplayKey = tuple[str, str, int, int]  # (task_id, task, sample, round)


@dataclass
class ReplayModel:
    source: str
    answers: dict[ReplayKey, str] = field(default_factory=dict)
    models: list[str] = field(default_factory=list)  # model labels found, sorted
    errors: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        """The model name a replayed run is recorded under: the stored one when there is one."""
        return self.models[0] if len(self.models) == 1 else "replay"

    def answer(self, key: ReplayKey) -> str | None:
        return self.answers.get(key)


def _int(v: object, default: int = 0) -> int | None:
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        return None
    return v


def load_replay(path: Path | str) -> ReplayModel:
    """Read a replay file (or a ``generate`` output folder: its ``responses.jsonl``)."""
    p = Path(path)
    if p.is_dir():
        p = p / "responses.jsonl"
    rm = ReplayModel(str(p))
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        rm.errors.append(f"{p}: cannot read the replay file ({exc})")
        return rm
    models: set[str] = set()
    for no, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            rm.errors.append(f"{p}:{no}: bad JSON: {exc.msg}")
            continue
        if not isinstance(obj, dict):
            rm.errors.append(f"{p}:{no}: a line must be a JSON object")
            continue
        tid, task, text = obj.get("task_id"), obj.get("task"), obj.get("text")
        sample, rnd = _int(obj.get("sample")), _int(obj.get("round"))
        bad = [
            name
            for name, ok in (
                ("task_id", isinstance(tid, str) and tid),
                ("task", isinstance(task, str) and task),
                ("text", isinstance(text, str)),
                ("sample", sample is not None),
                ("round", rnd is not None),
            )
            if not ok
        ]
        if bad:
            rm.errors.append(f"{p}:{no}: field {bad[0]!r} missing or of the wrong type")
            continue
        key = (str(tid), str(task), int(sample or 0), int(rnd or 0))
        rm.answers.setdefault(key, str(text))
        if isinstance(obj.get("model"), str) and obj["model"]:
            models.add(obj["model"])
    rm.models = sorted(models)
    return rm
