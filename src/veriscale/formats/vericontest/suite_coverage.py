"""What a VeriContest suite covers beyond mutant kills: the reference's branches and weakened ``ensures``.

* ``branch_coverage``: the reference ``code.rs`` instrumented with a probe at
  every branch outcome (``languages.verus.coverage``), run once over the
  positives; per positive, the probe ids it executes.
* ``weakened_kills``: per negative, the weakened specifications (one top-level
  ``ensures`` clause dropped) that still reject it, all derived from one
  per-clause verdict vector per negative (``languages.verus.clause_verdicts``):
  exact for a conjunction of clauses, UNKNOWN clauses never make a kill.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...languages.verus.clause_verdicts import clause_vectors, weakened_false
from ...languages.verus.coverage import measure_branches
from ...languages.verus.execute import ExecLimits

__all__ = ["branch_coverage", "weakened_kills"]


def branch_coverage(problem: Any, positives: list[dict[str, Any]], limits: ExecLimits,
                    cache: Path | str | None) -> dict[str, Any]:  # fmt: skip
    """``{"probes": [labels], "hits": [[ids] per positive], "covered", "unmeasured", "error"?}``.

    A positive whose instrumented run fails or whose result differs from its expected output is not
    measured (``hits`` entry ``[]``, counted in ``unmeasured``): probes must not change the result."""
    run = measure_branches(problem, [p["input"] for p in positives], [p["output"] for p in positives],
                           cache=cache, limits=limits)  # fmt: skip
    hits = [h if h is not None else [] for h in run.hits]
    out: dict[str, Any] = {
        "probes": [p.label for p in run.probes],
        "hits": hits,
        "covered": len({b for h in hits for b in h}),
        "unmeasured": sum(h is None for h in run.hits),
    }
    if run.error:
        out["error"] = run.error
    return out


def weakened_kills(te: Any, inputs: list[dict[str, Any]], negatives: list[dict[str, Any]], st: Any,
                   until_all_killed: bool = True) -> dict[str, Any]:  # fmt: skip
    """Per ``ensures`` clause dropped: which negatives the weakened specification still rejects.

    ``built`` counts the weakened specifications (every clause of a specification with at least two);
    ``kills[k]`` are the clause indices whose weakening negative ``k`` kills; ``unevaluated``: negatives
    without a verdict vector (every weakening already killed by earlier ones — ``evaluated_until`` —, the
    step budget spent, or the checker without an answer)."""
    spec = te.spec()
    clauses = [c.text for c in spec.ensures] if spec is not None else []
    out: dict[str, Any] = {"built": 0, "killed": 0, "clauses": [], "kills": [[] for _ in negatives],
                           "unevaluated": 0, "steps": 0, "python_checks": 0}  # fmt: skip
    if len(clauses) < 2 or not negatives:
        return out
    pairs = []
    idx = []
    for k, n in enumerate(negatives):
        try:
            pairs.append((inputs[n["input_index"]], te.decode_output(n["output"])))
            idx.append(k)
        except Exception:  # a negative that no longer decodes cannot kill anything (counted unevaluated)
            continue
    # every negative's kill set is not needed: Lite covers each weakening Plus kills through a positive
    # with a recorded killing negative, so the checker stops once every weakening has one
    run = clause_vectors(te, pairs, checker_fuel=st.checker_fuel, step_budget=st.weakened_steps,
                         python_checks=st.python_unknown, seconds=st.check_seconds,
                         until_all_killed=until_all_killed)  # fmt: skip
    vectors: list[list[str] | None] = [None] * len(negatives)
    for k, vec in zip(idx, run.vectors):
        vectors[k] = vec
    out.update(built=len(clauses), steps=run.steps, python_checks=run.python_checks, source=run.source,
               evaluated_until=run.stopped)  # fmt: skip
    if run.notes:
        out["notes"] = run.notes
    hit = [False] * len(clauses)
    for k, vec in enumerate(vectors):
        if vec is None:
            out["unevaluated"] += 1
            continue
        for w in range(len(clauses)):
            if weakened_false(vec, w):
                out["kills"][k].append(w)
                hit[w] = True
    out["killed"] = sum(hit)
    out["clauses"] = [{"index": w, "text": t[:200], "killed": hit[w]} for w, t in enumerate(clauses)]
    return out
