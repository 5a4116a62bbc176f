"""Kill-driven search: expected inputs chosen from a pool because they kill a mutant nothing else kills.

The adversaries are wrong implementations derived from the ground truth
(``outputs.stage.all_adversaries``: templates, and mutants of ``code`` and
``code_aux`` by the usual mutation operators — relational, arithmetic,
boundary, constant, condition negation, statement deletion). An adversary is
*killed* by an input when it returns a value whose canonical key differs from
the ground truth's value on that input.

Algorithm (deterministic; rows and adversaries in their given order):

1. every adversary runs on the *base* rows (the stage's seeds and mutants) until
   one kills it; an adversary that runs out of fuel ``max_timeouts`` times is
   given up (a survivor, marked ``timeout``);
2. each adversary still alive runs first on the pool rows already selected (in
   selection order), then on the rest of the pool (the small-scope inputs, in
   pool order); the first pool row that kills it is selected;
3. an adversary no row kills is a *survivor*, listed with the number of rows it
   ran on (possibly an equivalent mutant).

Only the selected pool rows join the expected cases, so the suite grows by the
rows that add a kill, not by the whole pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...runtime.engine import OutcomeKind
from ...values import codec

__all__ = ["KillSearch", "kill_search"]


@dataclass
class KillSearch:
    generated: int = 0
    killed_by_base: int = 0
    killed_by_pool: int = 0
    killed_by_guided: int = 0  # survivors of the pool killed by guided mutation (``guided.py``)
    guided: dict[str, Any] | None = None  # the guided search's effort (None: not run)
    selected: list[int] = field(default_factory=list)  # pool row indices, in selection order
    survivors: list[dict[str, Any]] = field(default_factory=list)

    def report(self) -> dict[str, Any]:
        return {
            "adversaries": self.generated,
            "killed_by_base": self.killed_by_base,
            "killed_by_pool": self.killed_by_pool,
            "pool_rows_added": len(self.selected),
            **({"killed_by_guided": self.killed_by_guided, "guided": self.guided} if self.guided else {}),
            "survivors": self.survivors,
        }


def kill_search(
    task: Any,
    engine: Any,
    base: Sequence[tuple[dict[str, Any], Any]],
    pool: Sequence[tuple[dict[str, Any], Any]],
    adversaries: Sequence[Any],
    max_timeouts: int = 1,
) -> KillSearch:
    """``base``/``pool``: (input values, ground-truth output) rows; ``engine`` runs the adversaries
    (with the output stage's adversary fuel); ``adversaries`` have ``.id``, ``.origin``, ``.overrides``."""
    ret, structs = task.signature.return_type, task.structs

    def key(v: Any) -> str | None:
        try:
            return codec.key(ret, v, structs=structs)
        except Exception:  # a value the codec cannot key tells nothing
            return None

    base_keys = [key(out) for _, out in base]
    pool_keys = [key(out) for _, out in pool]
    res = KillSearch(generated=len(adversaries))
    chosen: set[int] = set()
    for adv in adversaries:
        te = engine.for_task(task, overrides=adv.overrides)
        timeouts = 0
        tried = 0

        def kills(values: dict[str, Any], want: str | None, te: Any = te) -> bool:
            nonlocal timeouts, tried
            tried += 1
            o = te.run(values)
            if not o.ok:
                timeouts += o.kind is OutcomeKind.TIMEOUT
                return False
            k = key(o.value)
            return want is not None and k is not None and k != want

        if any(timeouts < max_timeouts and kills(v, k) for (v, _), k in zip(base, base_keys, strict=True)):
            res.killed_by_base += 1
            continue
        order = res.selected + [i for i in range(len(pool)) if i not in chosen]
        hit = None
        for i in order:
            if timeouts >= max_timeouts:
                break
            if kills(pool[i][0], pool_keys[i]):
                hit = i
                break
        if hit is not None:
            res.killed_by_pool += 1
            if hit not in chosen:
                chosen.add(hit)
                res.selected.append(hit)
            continue
        res.survivors.append(
            {"id": adv.id, "origin": adv.origin, "tried": tried, "timeout": timeouts >= max_timeouts}
        )
    return res
