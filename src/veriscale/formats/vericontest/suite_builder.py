"""The VeriContest format's suite generation for ``scale`` (``Format.suite_builder``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..suite_models import MODEL_ANSWERS, ModelRequest
from .dataset import read_problem
from .model_stages import build_with_answers
from .suite_files import write_problem_suite
from .suite_prompts import GENERATOR_STAGE, SEMANTIC_STAGE, answer_problem, suite_requests
from .suites import SuiteSettings, build_suite

__all__ = ["VeriContestSuites", "suite_adequacy"]


def _weakened_for(doc: dict[str, Any], negatives: Sequence[int]) -> dict[str, Any]:
    """Weakened ``ensures`` built, and how many the chosen negatives kill."""
    w = doc["weakened"]
    kills = w.get("kills") or []
    hit = {k for j in negatives if j < len(kills) for k in kills[j]}
    return {"built": w.get("built", 0), "killed": len(hit)}


def _coverage_for(cov: dict[str, Any], hits: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The reference's branch probes (labels ``kind@line``) and how many of them the suite executes."""
    out = {"instrumented": len(cov.get("probes") or []), "covered": len({b for h in hits for b in h}),
           "probes": cov.get("probes") or []}  # fmt: skip
    if cov.get("error"):
        out["error"] = cov["error"]
    return out


class VeriContestSuites:
    model_stages = (SEMANTIC_STAGE, GENERATOR_STAGE)  # asked only with a model (``scale --model``)

    def model_requests(self, task_dir: Path, settings: dict[str, Any]) -> list[ModelRequest]:
        st = SuiteSettings(**{k: v for k, v in settings.items() if k in SuiteSettings.__dataclass_fields__})
        return suite_requests(
            read_problem(Path(task_dir)), st.semantic_variants, st.generator_lines, st.max_len
        )

    def answer_problem(self, stage: str, text: str) -> str | None:
        return answer_problem(stage, text)

    def adequacy(self, task_dir: Path) -> dict[str, Any] | None:
        return suite_adequacy(task_dir)

    def build(self, task_dir: Path, settings: dict[str, Any], cache: str | None) -> dict[str, Any]:
        known = {k: v for k, v in settings.items() if k in SuiteSettings.__dataclass_fields__}
        problem = read_problem(Path(task_dir))
        answers = settings.get(MODEL_ANSWERS)
        if not answers:
            return build_suite(problem, SuiteSettings(**known), cache=cache)
        return build_with_answers(problem, SuiteSettings(**known), answers, cache)

    def write(self, task_dir: Path, dest_root: Path, suite: str, doc: dict[str, Any],
              positives: Sequence[int], negatives: Sequence[int]) -> str:  # fmt: skip
        task_dir = Path(task_dir)
        family = task_dir.parent.name if task_dir.parent.name in ("leetcode", "codeforces") else (
            "codeforces" if task_dir.name.startswith("cf") else "leetcode")  # fmt: skip
        pos = [doc["positives"][i] for i in positives]
        remap = {i: k for k, i in enumerate(positives)}
        negs = [doc["negatives"][j] for j in negatives if doc["negatives"][j]["input_index"] in remap]
        kills = doc.get("kills") or [[] for _ in doc["positives"]]
        cov = doc.get("coverage") or {}
        hits = cov.get("hits") or [[] for _ in doc["positives"]]
        prov = {
            "task_id": doc["task_id"], "suite": suite, "generator": "veriscale",
            "positives": [{"family": p.get("family"), "kills": kills[i], "branches": hits[i]}
                          for p, i in zip(pos, positives)],
            "negatives": [{"positive": remap[n["input_index"]], "source": n["source"]} for n in negs],
            "alternatives": [{"positive": remap[a["input_index"]], "output": a["output"], "source": a["source"]}
                             for a in doc.get("alternatives", []) if a["input_index"] in remap],
            "defects": doc.get("defects", []) if suite == "plus" else [],
            # wall-clock figures stay in the run's results: the written suite depends on the content only
            "mutants": {k: v for k, v in (doc.get("mutants") or {}).items()
                        if k != "names" and not k.endswith("_seconds")},
            "mutant_names": (doc.get("mutants") or {}).get("names", {}),
            "weakened": _weakened_for(doc, negatives) if doc.get("weakened") else None,
            "coverage": _coverage_for(cov, [hits[i] for i in positives]) if cov else None,
            "settings": doc.get("settings", {}),
        }  # fmt: skip
        for key in ("semantic", "generators", "domain"):  # model-driven stages, when they ran; a whole domain
            if doc.get(key):
                prov[key] = doc[key]
        dest = Path(dest_root) / family / task_dir.name
        write_problem_suite(task_dir, dest, [{"input": p["input"], "output": p["output"]} for p in pos],
                            [{"input": pos[remap[n["input_index"]]]["input"], "output": n["output"]} for n in negs],
                            prov)  # fmt: skip
        return str(dest)


def suite_adequacy(task_dir: Path) -> dict[str, Any] | None:
    """Mutants killed / compiled, weakened ``ensures`` killed / built and the reference's branches covered /
    instrumented, from a written suite's provenance.

    The kills are those recorded when the suite was built (each positive's kill set): the union over
    the suite's positives. None when the folder has no provenance."""
    import json

    from .suite_files import PROVENANCE

    p = Path(task_dir) / PROVENANCE
    if not p.is_file():
        return None
    prov = json.loads(p.read_text(encoding="utf-8"))
    killed = sorted({m for row in prov.get("positives", []) for m in row.get("kills", [])})
    m = prov.get("mutants") or {}
    w = prov.get("weakened") or {}
    return {
        "task_id": prov.get("task_id", Path(task_dir).name),
        "suite": prov.get("suite"),
        "positives": len(prov.get("positives", [])),
        "negatives": len(prov.get("negatives", [])),
        "mutants_generated": m.get("generated", 0),
        "mutants_compiled": m.get("compiled", 0),
        "mutants_run": m.get("compiled", 0) - m.get("not_run", 0),
        "mutants_killed": len(killed),
        "weakened_built": w.get("built", 0),
        "weakened_killed": w.get("killed", 0),
        "branches_instrumented": (prov.get("coverage") or {}).get("instrumented", 0),
        "branches_covered": (prov.get("coverage") or {}).get("covered", 0),
    }
