"""Repair feedback for Verina: the generations of a round scored by ``evaluate`` on a suite.

Each kind's lines are scored with the native engine on the feedback suite
(default: the benchmark folder itself; ``--suite`` may name a larger one, e.g.
VerinaPlus, so SpecGen repair gets the Plus suite's counterexamples — the
closed-loop specification repair). A sample gets feedback when one of its
metrics FAILs (the first failing test: input, expected, got — or for a
specification the accepted wrong output / rejected right one) or is UNKNOWN
with a parse/elaboration error (the engine's message). Proofs are only checked
by real Lean, so ProofGen samples get no feedback beyond extraction failures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...evaluate.generations import parse_generations
from ...evaluate.harness import EvalOptions, SuiteSpec, evaluate_generations
from ...evaluate.scoring.aggregate import Score
from ...evaluate.scoring.errors import ErrorCategory

__all__ = ["verina_feedback"]

_KIND = {"specgen": "spec", "codegen": "code", "proofgen": "proof"}
_MAX_CHARS = 2000  # feedback text per sample; a long engine message is cut


def _has_error(line: dict[str, Any]) -> bool:
    return bool((line.get("meta") or {}).get("extraction_error"))


def verina_feedback(benchmark: Path, suite: Path, workers: int) -> Any:
    def feedback(task_kind: str, lines: list[dict[str, Any]]) -> dict[tuple[str, int], str | None]:
        kind = _KIND.get(task_kind)
        if kind is None or kind == "proof":
            return {}
        usable = [ln for ln in lines if not _has_error(ln)]
        if not usable:
            return {}
        gens = parse_generations([json.dumps(ln, ensure_ascii=False) for ln in usable], "<repair round>")
        run = evaluate_generations(
            gens.generations, [SuiteSpec("feedback", suite)], EvalOptions(workers=workers)
        )
        out: dict[tuple[str, int], str | None] = {}
        for res in run.results:
            notes: list[str] = []
            for name, m in res.metrics.items():
                if m.score is Score.FAIL or (
                    m.score is Score.UNKNOWN and m.error is ErrorCategory.PARSE_ERROR
                ):
                    what = m.error.value if m.error else m.score.value
                    note = f"{name}: {what}: {m.reason or m.where}".strip()
                    if note not in notes:
                        notes.append(note)
            text = "\n".join(notes)
            out[(res.task_id, res.sample)] = (
                text[:_MAX_CHARS] + "…" if len(text) > _MAX_CHARS else text
            ) or None
        return out

    return feedback
