"""Guided mutation of existing rows: expected inputs that kill the survivors of the kill search.

After the kill search (``killsearch.py``: base rows, then the small-scope pool) some
code mutants are still alive. For each of them, in the kill search's survivor order:

1. the rows this search has already added run first (in the order they were added);
2. then up to ``attempts`` draws: a parent is taken round-robin over the base expected
   rows (the seeds and their mutants, in stage order), and ``1..max_steps`` typed edits
   (``edits.typed_edits``: an element ±1 or set to a boundary, an element inserted,
   deleted, duplicated or swapped at any depth, a character moved across a character
   class, a number moved to a type boundary) make a neighbour of it. A neighbour whose
   input key the stage has already seen is skipped (it was classified already); a new
   one must be accepted by the ground-truth precondition (TRUE, never UNKNOWN) and the
   ground truth must return a value on it. That input kills the mutant when the mutant
   returns a value whose canonical key differs; it then joins the expected cases (origin
   ``guided-mutation``, provenance: parent id, edit labels, the survivor it killed).
3. a mutant that times out ``max_timeouts`` times is given up.

The effort per survivor (draws, valid neighbours, mutant runs) is recorded in
``counts.kill_search.guided`` and, for survivors that stay alive, on their survivor entry.
Ground-truth verdicts and outputs are cached per input key, so a neighbour drawn again
for a later survivor costs one mutant run only. All randomness comes from the seeded
``random.Random`` the caller passes; candidate order is list order (no set iteration), so
the result does not depend on ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...runtime.engine import OutcomeKind
from ...values import codec
from ...values.types import Type
from .edits import typed_edits
from .mutate import Candidate, input_key

__all__ = ["GuidedSearch", "guided_search"]


@dataclass
class GuidedSearch:
    # (candidate, ground-truth output value, JSON output, extra provenance), in the order found
    rows: list[tuple[Candidate, Any, Any, dict[str, Any]]] = field(default_factory=list)
    killed: list[str] = field(default_factory=list)  # survivor ids killed, in survivor order
    effort: dict[str, dict[str, int]] = field(default_factory=dict)  # survivor id -> effort

    def report(self) -> dict[str, Any]:
        return {
            "survivors_tried": len(self.effort),
            "killed": len(self.killed),
            "rows_added": len(self.rows),
            "draws": sum(e["draws"] for e in self.effort.values()),
            "valid": sum(e["valid"] for e in self.effort.values()),
            "mutant_runs": sum(e["runs"] for e in self.effort.values()),
        }


@dataclass
class _Truth:
    """The ground truth on one neighbour: None when it is not a valid expected input."""

    value: Any
    key: str
    json: Any


def guided_search(
    task: Any,
    gt: Any,
    adv_engine: Any,
    params: list[tuple[str, Type]],
    base: Sequence[Candidate],
    survivors: Sequence[Any],
    seen: set[str],
    rng: random.Random,
    attempts: int,
    max_steps: int = 2,
    max_timeouts: int = 1,
) -> GuidedSearch:
    """``gt``: the ground truth's task engine; ``adv_engine`` runs the mutants (with the stage's
    adversary fuel); ``survivors`` have ``.id`` and ``.overrides``; ``seen`` is the stage's set of
    input keys (new rows are added to it)."""
    ret, structs = task.signature.return_type, task.structs
    res = GuidedSearch()
    if not base or attempts <= 0:
        return res
    truths: dict[str, _Truth | None] = {}

    def truth(values: dict[str, Any], k: str) -> _Truth | None:
        if k not in truths:
            t = None
            if gt.precondition(values).is_true:
                o = gt.run(values)
                if o.kind is OutcomeKind.VALUE:
                    try:
                        t = _Truth(
                            o.value,
                            codec.key(ret, o.value, structs=structs),
                            codec.to_json(ret, o.value, structs=structs),
                        )
                    except Exception:  # an output the codec cannot key or write is no row
                        t = None
            truths[k] = t
        return truths[k]

    parent = 0
    for adv in survivors:
        te = adv_engine.for_task(task, overrides=adv.overrides)
        eff = res.effort[adv.id] = {"draws": 0, "valid": 0, "runs": 0}
        timeouts = 0

        def kills(values: dict[str, Any], want: str, te: Any = te, eff: dict[str, int] = eff) -> bool:
            nonlocal timeouts
            eff["runs"] += 1
            o = te.run(values)
            if not o.ok:
                timeouts += o.kind is OutcomeKind.TIMEOUT
                return False
            try:
                return codec.key(ret, o.value, structs=structs) != want
            except Exception:  # a value the codec cannot key tells nothing
                return False

        hit = False
        for cand, _v, _js, _prov in res.rows:
            if timeouts >= max_timeouts:
                break
            if kills(cand.values, truths[cand.key].key):  # type: ignore[union-attr]
                hit = True
                break
        while not hit and eff["draws"] < attempts and timeouts < max_timeouts:
            eff["draws"] += 1
            src = base[parent % len(base)]
            parent += 1
            made = typed_edits(params, src.values, rng, rng.randint(1, max_steps))
            if made is None:
                continue
            values, labels = made
            k = input_key(params, values, structs)
            if k in seen and k not in truths:
                continue  # a candidate the stage already classified
            t = truth(values, k)
            if t is None:
                continue
            eff["valid"] += 1
            if kills(values, t.key):
                hit = True
                if k not in seen:
                    seen.add(k)
                    cand = Candidate(values, k, "guided-mutation", parent=src.key, steps=len(labels))
                    prov = {"edits": labels, "kills": adv.id}
                    res.rows.append((cand, t.value, t.json, prov))
        if hit:
            res.killed.append(adv.id)
    return res
