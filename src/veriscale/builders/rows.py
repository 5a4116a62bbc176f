"""The full ("Plus") suite of one task, assembled from a run's input and output stage results.

Rows are kept only when Verina's harness can render every value faithfully:
it writes a ``String`` as ``"<text>"`` and a ``Char`` as ``'<c>'`` without
escaping, so a quote, a backslash or a control character would make it test a
different value (or not parse). Such rows (and such unexpected outputs) are
left out and counted, never silently altered.

The benchmark's own unexpected outputs of an original test come first in its
row; ours follow, de-duplicated by canonical value.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..formats.verina.dataset import Task
from ..values import codec
from ..values.codec import DecodeError
from ..values.types import TCon, Type

__all__ = ["SuiteReject", "SuiteRows", "SuiteTest", "harness_safe", "suite_rows"]


@dataclass(slots=True)
class SuiteTest:
    case: str  # the case id of the run
    input: dict[str, Any]
    expected: Any
    unexpected: list[Any]
    details: list[dict[str, Any]]  # per unexpected output: source, adversaries (indices), accepted_by
    provenance: dict[str, Any]
    kills: list[int]  # indices of the adversaries this case kills

    def row(self) -> dict[str, Any]:
        return {"input": self.input, "expected": self.expected, "unexpected": self.unexpected}


@dataclass(slots=True)
class SuiteReject:
    id: str
    input: dict[str, Any]
    provenance: dict[str, Any]


@dataclass(slots=True)
class SuiteRows:
    tests: list[SuiteTest]
    rejects: list[SuiteReject]
    adversaries: list[dict[str, Any]]  # id, origin, description, target (text left in the run dir)
    specs: list[dict[str, Any]]
    dropped: Counter[str] = field(default_factory=Counter)


def _safe_text(t: Type, raw: Any) -> bool:
    if not (isinstance(t, TCon) and t.name in ("String", "Char") and isinstance(raw, str)):
        return True
    bad = "'\\" if t.name == "Char" else '"\\'
    allowed_ctl = "" if t.name == "Char" else "\n\t"
    return not any(c in bad or (ord(c) < 32 and c not in allowed_ctl) or ord(c) == 127 for c in raw)


def harness_safe(task: Task, raw_input: dict[str, Any]) -> bool:
    """Whether every top-level String/Char parameter renders unchanged under Verina's harness."""
    return all(_safe_text(p.type, raw_input.get(p.name)) for p in task.signature.params)


def _original_unexpected(task: Task, prov: dict[str, Any]) -> list[Any]:
    """The benchmark's own unexpected outputs of an original test row (decoded; bad ones skipped)."""
    if prov.get("origin") != "original" or not isinstance(prov.get("index"), int):
        return []
    i = prov["index"]
    if not 0 <= i < len(task.tests):
        return []
    out = []
    for j, raw in enumerate(task.tests[i].unexpected or []):
        try:
            out.append(task.decode_output(raw, file=task.files["test_file"], row=i, field=f"unexpected[{j}]"))
        except DecodeError:
            continue
    return out


def _merge_unexpected(
    task: Task, expected: Any, items: list[tuple[Any, Any, dict[str, Any]]], dropped: Counter[str]
) -> tuple[list[Any], list[dict[str, Any]]]:
    """(json, value, detail) items → de-duplicated renderable JSON values and their details, in order."""
    ret, structs = task.signature.return_type, task.structs
    seen = {codec.key(ret, codec.decode(ret, expected, structs=structs), structs=structs)}
    values: list[Any] = []
    details: list[dict[str, Any]] = []
    for js, value, detail in items:
        k = codec.key(ret, value, structs=structs)
        if k in seen:
            continue
        if not _safe_text(ret, js):
            dropped["unexpected output not renderable by Verina's harness"] += 1
            continue
        seen.add(k)
        values.append(js)
        details.append(detail)
    return values, details


def suite_rows(task: Task, inputs_doc: dict[str, Any], outputs_doc: dict[str, Any]) -> SuiteRows:
    ret = task.signature.return_type
    structs = task.structs
    advs = outputs_doc.get("adversaries", [])
    adv_index = {a["id"]: i for i, a in enumerate(advs)}
    km = outputs_doc.get("kill_matrix", {"cases": [], "rows": []})
    kills: dict[str, list[int]] = {c: [] for c in km["cases"]}
    for j, row in enumerate(km["rows"]):
        for p, mark in enumerate(row):
            if mark == "1":
                kills[km["cases"][p]].append(j)

    out = SuiteRows(
        [],
        [],
        [{k: a.get(k) for k in ("id", "origin", "description", "target")} for a in advs],
        [{k: s.get(k) for k in ("id", "origin", "description")} for s in outputs_doc.get("specs", [])],
    )
    for row in outputs_doc["expected"]:
        if row.get("postcond", "true") != "true":
            out.dropped[f"ground-truth postcondition {row['postcond']} on the expected output"] += 1
            continue
        if not harness_safe(task, row["input"]) or not _safe_text(ret, row["output"]):
            out.dropped["test row not renderable by Verina's harness"] += 1
            continue
        items: list[tuple[Any, Any, dict[str, Any]]] = [
            (codec.to_json(ret, v, structs=structs), v, {"source": "benchmark"})
            for v in _original_unexpected(task, row["provenance"])
        ]
        items += [
            (
                u["output"],
                codec.decode(ret, u["output"], structs=structs),
                {
                    "source": u["source"],
                    "adversaries": sorted(adv_index[a] for a in u["adversaries"] if a in adv_index),
                    "accepted_by": u["accepted_by"],
                },
            )
            for u in row["unexpected"]
        ]
        values, details = _merge_unexpected(task, row["output"], items, out.dropped)
        out.tests.append(
            SuiteTest(
                row["id"],
                row["input"],
                row["output"],
                values,
                details,
                row["provenance"],
                kills.get(row["id"], []),
            )
        )
    for rj in inputs_doc.get("unexpected", []):
        if not harness_safe(task, rj["input"]):
            out.dropped["reject input not renderable by Verina's harness"] += 1
            continue
        out.rejects.append(SuiteReject(rj["id"], rj["input"], rj["provenance"]))
    return out
