"""The VeriContest format's suite generation for ``scale`` (``Format.suite_builder``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .dataset import read_problem
from .suite_files import write_problem_suite
from .suites import SuiteSettings, build_suite

__all__ = ["VeriContestSuites"]


class VeriContestSuites:
    def build(self, task_dir: Path, settings: dict[str, Any], cache: str | None) -> dict[str, Any]:
        known = {k: v for k, v in settings.items() if k in SuiteSettings.__dataclass_fields__}
        return build_suite(read_problem(Path(task_dir)), SuiteSettings(**known), cache=cache)

    def write(self, task_dir: Path, dest_root: Path, suite: str, doc: dict[str, Any],
              positives: Sequence[int], negatives: Sequence[int]) -> str:  # fmt: skip
        task_dir = Path(task_dir)
        family = task_dir.parent.name if task_dir.parent.name in ("leetcode", "codeforces") else (
            "codeforces" if task_dir.name.startswith("cf") else "leetcode")  # fmt: skip
        pos = [doc["positives"][i] for i in positives]
        remap = {i: k for k, i in enumerate(positives)}
        negs = [doc["negatives"][j] for j in negatives if doc["negatives"][j]["input_index"] in remap]
        kills = doc.get("kills") or [[] for _ in doc["positives"]]
        prov = {
            "task_id": doc["task_id"], "suite": suite, "generator": "veriscale",
            "positives": [{"family": p.get("family"), "kills": kills[i]} for p, i in zip(pos, positives)],
            "negatives": [{"positive": remap[n["input_index"]], "source": n["source"]} for n in negs],
            "alternatives": [{"positive": remap[a["input_index"]], "output": a["output"], "source": a["source"]}
                             for a in doc.get("alternatives", []) if a["input_index"] in remap],
            "defects": doc.get("defects", []) if suite == "plus" else [],
            "mutants": {k: v for k, v in (doc.get("mutants") or {}).items() if k != "names"},
            "mutant_names": (doc.get("mutants") or {}).get("names", {}),
            "settings": doc.get("settings", {}),
        }  # fmt: skip
        dest = Path(dest_root) / family / task_dir.name
        write_problem_suite(task_dir, dest, [{"input": p["input"], "output": p["output"]} for p in pos],
                            [{"input": pos[remap[n["input_index"]]]["input"], "output": n["output"]} for n in negs],
                            prov)  # fmt: skip
        return str(dest)
