"""Adversary-killing reduction of expected cases (the Lite suite's test rows).

Each case kills a set of adversaries (its output differs from theirs). The
reduced suite must kill every adversary the full suite kills, so it starts
from a greedy set cover: repeatedly take the case that kills the most
adversaries not killed yet (ties: more kills in total, then the earlier
case). The cover is not cut at the budget — losing an adversary would break
the guarantee — and the remaining budget is filled with the strongest other
cases (most kills, then most unexpected outputs, then the earlier case).
Cases that must stay (the benchmark's own tests) are taken first and count
towards the cover and the budget.

Kill sets are Python ints used as bitsets: exact, fast, and order-free.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

__all__ = ["CaseChoice", "kill_bits", "select_cases"]

KEEP, COVER, FILL = "kept", "cover", "fill"


@dataclass(frozen=True, slots=True)
class CaseChoice:
    index: int  # position in the full suite
    stage: str  # "kept" (must stay) | "cover" (needed to kill an adversary) | "fill" (budget)
    newly: int  # adversaries first killed by this case (cover stage; 0 otherwise)


def kill_bits(kills: Collection[int]) -> int:
    out = 0
    for k in kills:
        out |= 1 << k
    return out


def select_cases(
    kills: Sequence[int],
    budget: int,
    *,
    keep: Collection[int] = (),
    weights: Sequence[int] | None = None,
) -> list[CaseChoice]:
    """Choose cases, in full-suite order.

    ``kills[i]`` is case i's kill set as a bitset (``kill_bits``); ``keep``
    are cases that stay whatever they kill; ``weights[i]`` (e.g. the number of
    unexpected outputs) breaks fill ties after the kill count.
    """
    n = len(kills)
    w = list(weights) if weights is not None else [0] * n
    chosen: dict[int, CaseChoice] = {}
    covered = 0
    for i in sorted(set(keep)):
        if 0 <= i < n:
            chosen[i] = CaseChoice(i, KEEP, 0)
            covered |= kills[i]
    universe = 0
    for k in kills:
        universe |= k
    counts = [k.bit_count() for k in kills]
    while covered != universe:
        best, best_key = -1, (0, 0, 0)
        for i in range(n):
            if i in chosen:
                continue
            gain = (kills[i] & ~covered).bit_count()
            if gain == 0:
                continue
            key = (gain, counts[i], -i)
            if best < 0 or key > best_key:
                best, best_key = i, key
        chosen[best] = CaseChoice(best, COVER, best_key[0])
        covered |= kills[best]
    room = budget - len(chosen)
    if room > 0:
        rest = sorted((i for i in range(n) if i not in chosen), key=lambda i: (-counts[i], -w[i], i))
        for i in rest[:room]:
            chosen[i] = CaseChoice(i, FILL, 0)
    return [chosen[i] for i in sorted(chosen)]
