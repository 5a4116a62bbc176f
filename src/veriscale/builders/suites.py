"""Write the Plus and Lite datasets of a run from its reduction results.

``<out>/plus/<task>/`` holds every row of the full suite, ``<out>/lite/<task>/``
the reduced one; both are Verina-format task directories readable by
``benchmarks.verina.read_task`` and by Verina's harness conventions, each with
a ``provenance.json``. Writing is idempotent: the same run gives the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..formats.verina.dataset import Task
from .writer import write_suite_task

__all__ = ["LITE", "PLUS", "write_task_suites"]

PLUS, LITE = "plus", "lite"


def _test_prov(i: int, t: dict[str, Any], covers: list[int] | None) -> dict[str, Any]:
    out = {
        "row": i,
        "case": t["case"],
        "origin": t["provenance"],
        "kills": t["kills"],
        "unexpected": t["details"],
    }
    if covers is not None:
        out["covers"] = covers
    return out


def _lite_row(row: dict[str, Any], kept: list[int] | None) -> dict[str, Any]:
    """A Plus row with only the unexpected outputs Lite keeps (all when the reduction names none)."""
    if kept is None:
        return row
    return {**row, "unexpected": [row["unexpected"][u] for u in kept]}


def _reject_prov(i: int, r: dict[str, Any]) -> dict[str, Any]:
    return {"row": i, "id": r["id"], "origin": r["provenance"]}


def _header(doc: dict[str, Any], suite: str, seed: int) -> dict[str, Any]:
    return {
        "task_id": doc["task_id"],
        "suite": suite,
        "generator": "veriscale",
        "run": {"config": doc["config"], "seed": seed},
        "adversaries": doc["adversaries"],
        "specs": doc["specs"],
        "dropped": doc["dropped"],
    }


def write_task_suites(task: Task, doc: dict[str, Any], root: Path, seed: int) -> None:
    """Write ``root/plus/<task>`` and ``root/lite/<task>`` from the task's reduction document ``doc``."""
    tests = doc["plus"]["tests"]
    rejects = doc["plus"]["reject_inputs"]
    rows = [{"input": t["input"], "expected": t["expected"], "unexpected": t["unexpected"]} for t in tests]

    prov = _header(doc, PLUS, seed)
    cov = doc.get("row_coverage") or [None] * len(tests)
    prov["tests"] = [_test_prov(i, t, cov[i]) for i, t in enumerate(tests)]
    prov["reject_inputs"] = [_reject_prov(i, r) for i, r in enumerate(rejects)]
    write_suite_task(task, root / PLUS, rows, rejects, prov)

    lite_t = doc["lite"]["tests"]
    lite_r = doc["lite"]["reject_inputs"]
    prov = _header(doc, LITE, seed)
    prov["tests"] = [
        {
            **_test_prov(j, tests[c["row"]], cov[c["row"]]),
            "plus_row": c["row"],
            "selected": c["stage"],
            "newly": c["newly"],
            **(
                {
                    "unexpected": [tests[c["row"]]["details"][u] for u in c["unexpected"]],
                    "plus_unexpected": c["unexpected"],
                }
                if "unexpected" in c
                else {}
            ),
        }
        for j, c in enumerate(lite_t)
    ]
    prov["reject_inputs"] = [
        {
            **_reject_prov(j, rejects[c["row"]]),
            "plus_row": c["row"],
            "selected": c["stage"],
            "buckets": c["buckets"],
        }
        for j, c in enumerate(lite_r)
    ]
    prov["kill_preserved"] = doc["kill_preserved"]
    prov["coverage"] = doc.get("coverage")
    lite_rows = [_lite_row(rows[c["row"]], c.get("unexpected")) for c in lite_t]
    write_suite_task(task, root / LITE, lite_rows, [rejects[c["row"]] for c in lite_r], prov)
