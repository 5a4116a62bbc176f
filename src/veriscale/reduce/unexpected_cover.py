"""Which unexpected outputs of the Lite rows Lite keeps: every weakened-spec kill, then a budget.

An unexpected output *kills* a candidate specification (a weakened ground-truth
postcondition, or a model's) when that specification wrongly accepts it (the
output stage records the ids in ``details[u]["accepted_by"]``). Lite must keep
every such kill its rows can make, and stay small, so per task:

1. the benchmark's own unexpected outputs (``source == "benchmark"``) of the
   chosen rows are kept (the original tests stay as they are);
2. greedy cover of the specifications killed by any output of the chosen rows:
   repeatedly the output that kills the most specifications not yet killed
   (ties: the earlier row, then the earlier output), until all are killed;
3. fill: the first remaining output of every chosen row in row order, then the
   second, and so on, while fewer than ``budget`` outputs are kept.

Steps 1–2 are never cut, so Lite kills every specification that the chosen
rows' outputs kill. The result maps each chosen row to its kept output indices,
ascending, and is independent of hash order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["select_unexpected"]


def select_unexpected(
    details: Sequence[Sequence[Mapping[str, Any]]], rows: Sequence[int], budget: int
) -> dict[int, list[int]]:
    """``details[r][u]`` describes output ``u`` of row ``r``; ``rows`` are the chosen rows."""
    kept: dict[int, set[int]] = {r: set() for r in rows}
    n = 0
    for r in rows:
        for u, d in enumerate(details[r]):
            if d.get("source") == "benchmark":
                kept[r].add(u)
                n += 1
    kills = {(r, u): frozenset(d.get("accepted_by") or ()) for r in rows for u, d in enumerate(details[r])}
    killed: set[str] = set()
    for (r, u), ks in kills.items():
        if u in kept[r]:
            killed |= ks
    universe = frozenset().union(*kills.values()) if kills else frozenset()
    while not universe <= killed:
        best, gain = None, 0
        for key in sorted(kills):  # row order, then output order: the first maximum wins ties
            g = len(kills[key] - killed)
            if g > gain:
                best, gain = key, g
        assert best is not None
        kept[best[0]].add(best[1])
        killed |= kills[best]
        n += 1
    depth = 0
    longest = max((len(details[r]) for r in rows), default=0)
    while n < budget and depth < longest:
        for r in rows:
            if n >= budget:
                break
            if depth < len(details[r]) and depth not in kept[r]:
                kept[r].add(depth)
                n += 1
        depth += 1
    return {r: sorted(kept[r]) for r in rows}
