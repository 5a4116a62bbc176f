"""Complete domains for monotone sequence binders (see ``seq_shapes``).

``monotone_plan`` walks the candidate lengths ``n`` from the binder's lower length bound upwards. For
each ``n`` the element range is the binder's element bounds (with ``x.len() == n``) narrowed by the
pinned elements: with increasing elements, ``x[0] == v`` bounds every element from below and
``x[n - 1] == v`` from above. A strictly increasing sequence of length ``n`` within a range of ``size``
values is one of ``C(size, n)`` combinations; a weakly increasing one one of ``C(size + n - 1, n)``
multisets, both enumerated in lexicographic order.

The walk stops at the upper length bound, or — with no upper bound, strict order, and a range that
does not depend on ``n`` (element bounds free of the length, pins only at the first/last index) — at
the first ``n >= 2`` above the range size (at ``n == 1`` the first and last pins both apply to the one
element, so that range may be smaller) (no longer strictly increasing sequence fits: pigeonhole). In any
other case (an unbounded element range, a weak order without a length bound, more than ``cap``
sequences) the plan is None and the caller keeps its general strategy. Deterministic: the order is
fixed by the lengths and ``itertools.combinations``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator

__all__ = ["MonotonePlan", "monotone_plan"]

Range = Callable[[int], tuple[int | None, int | None] | None]  # length -> element range (None: no plan)

MAX_LENGTHS = 100_000  # lengths walked at most when only the pigeonhole bound ends the walk


class MonotonePlan:
    """Lengths with their element ranges; iterate for the sequences."""

    def __init__(self, parts: list[tuple[int, int, int]], strict: bool) -> None:
        self.parts = parts  # (length, lo, hi)
        self.strict = strict

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        pick = itertools.combinations if self.strict else itertools.combinations_with_replacement
        for n, lo, hi in self.parts:
            if n == 0:
                yield ()
                continue
            yield from pick(range(lo, hi + 1), n)


def monotone_plan(
    strict: bool,
    len_lo: int | None,
    len_hi: int | None,
    elem_range: Range,
    uniform: bool,
    cap: int,
) -> MonotonePlan | None:
    """The complete plan, or None when it cannot be complete within ``cap`` sequences.

    ``elem_range(n)`` gives the element range for length ``n`` (None when it cannot be computed);
    ``uniform`` says the range is the same for every length (needed to stop by pigeonhole)."""
    n = max(len_lo or 0, 0)
    parts: list[tuple[int, int, int]] = []
    total = 0
    walked = 0
    while len_hi is None or n <= len_hi:
        walked += 1
        if walked > MAX_LENGTHS:
            return None
        rng = elem_range(n)
        if n == 0:
            parts.append((0, 0, -1))
            total += 1
            n += 1
            continue
        if rng is None or rng[0] is None or rng[1] is None:
            return None
        lo, hi = rng
        size = max(0, hi - lo + 1)
        if len_hi is None and not (strict and uniform):
            return None
        if strict and n > size:
            if uniform and n >= 2:
                break  # the range is the same for every length >= 2: no longer sequence fits either
            n += 1
            continue
        count = math.comb(size, n) if strict else math.comb(size + n - 1, n)
        total += count
        if total > cap:
            return None
        parts.append((n, lo, hi))
        n += 1
    return MonotonePlan(parts, strict)
