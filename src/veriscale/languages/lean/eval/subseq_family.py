"""The runtime side of ``eval/subseqs.py``: a list of all subsequences kept symbolically.

A ``Family`` stands for the let-bound list of every subsequence of ``xs`` (one per set of
positions, in order), optionally only the chains of a transitive relation or only those that are
also subsequences of another tuple. It answers the questions ``subseqs.rewrite`` leaves in the
postcondition — its longest member's length (the lengths are exactly ``0 … longest``) and
membership — and charges fuel as that module's docstring states. The ``_sq_*`` functions are
what the rewritten postcondition calls (``HELPERS``, installed in the program's namespace).
"""

from __future__ import annotations

from typing import Any

from ....runtime import limits

__all__ = ["HELPERS", "Family", "fold_charge"]

_CHARGE_ABOVE = 16

_REL = {
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
}


def fold_charge(n: int) -> int:
    """The fuel ``doubling_fold([[]], xs)`` charges for ``len xs == n`` (its checks aside)."""
    c = n + 1 if n + 1 > _CHARGE_ABOVE else 0
    length = 1
    for _ in range(n):
        if length > _CHARGE_ABOVE:
            c += length
        length += length
    return c


def _is_subseq(v: tuple, xs: tuple) -> bool:
    """Greedy embedding: take each element of ``v`` at its first occurrence after the last one."""
    i = 0
    n = len(xs)
    for a in v:
        while i < n and xs[i] != a:
            i += 1
        if i == n:
            return False
        i += 1
    return True


class Family:
    """A let-bound "list of subsequences of ``xs``", kept symbolically (module doc).

    ``rel``: only the chains of that relation; ``within``: only the subsequences of that tuple.
    ``funds``: one per doubling fold the plain code would run for the family (shared with the
    families derived from it), ``[budget, left, fold charge]``: what questions may still charge
    in the check ``budget`` (the allowance starts afresh in each check, so a family kept by the
    prefix cache charges the same in every check)."""

    __slots__ = ("_longest", "funds", "rel", "within", "xs")

    def __init__(
        self,
        xs: tuple,
        funds: tuple[list[Any], ...],
        rel: str | None = None,
        within: tuple | None = None,
    ) -> None:
        self.xs = xs
        self.funds = funds
        self.rel = rel
        self.within = within
        self._longest: int | None = None

    def _charge(self, work: int) -> None:
        """Charge ``work``, but no more than the funds left in this check."""
        budget = limits.current()
        total = 0
        for fund in self.funds:
            if fund[0] is not budget:
                fund[0], fund[1] = budget, fund[2]
            take = min(work - total, fund[1])
            fund[1] -= take
            total += take
        if total > 0:
            budget.charge(total)

    def longest(self) -> int:
        """The length of the longest member (charged per call; computed once)."""
        xs = self.xs
        n = len(xs)
        if self.rel is not None:
            self._charge(n * n)
        elif self.within is not None:
            self._charge(n * len(self.within))
        if self._longest is None:
            self._longest = self._compute()
        return self._longest

    def _compute(self) -> int:
        xs = self.xs
        if self.rel is not None:
            r = _REL[self.rel]
            best: list[int] = []
            for i, x in enumerate(xs):
                b = 1
                for j in range(i):
                    if best[j] >= b and r(xs[j], x):
                        b = best[j] + 1
                best.append(b)
            return max(best, default=0)
        if self.within is not None:
            ys = self.within
            prev = [0] * (len(ys) + 1)
            for x in xs:
                cur = [0]
                for j, y in enumerate(ys):
                    cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
                prev = cur
            return prev[-1]
        return len(xs)

    def contains(self, v: tuple) -> bool:
        xs = self.xs
        self._charge(len(xs) + len(v) * len(v) + (len(self.within) if self.within is not None else 0))
        if not _is_subseq(v, xs):
            return False
        if self.rel is not None:
            r = _REL[self.rel]
            return all(r(v[i], v[j]) for i in range(len(v)) for j in range(i + 1, len(v)))
        if self.within is not None:
            return _is_subseq(v, self.within)
        return True


def _sq_all(xs: tuple) -> Family:
    return Family(tuple(xs), ([None, 0, fold_charge(len(xs))],))


def _sq_chain(g: Family, rel: str) -> Family:
    return Family(g.xs, g.funds, rel=rel)


def _sq_within(g: Family, h: Family) -> Family:
    return Family(g.xs, g.funds + tuple(f for f in h.funds if all(f is not x for x in g.funds)), within=h.xs)


def _sq_lengths(g: Family) -> tuple:
    return tuple(range(g.longest() + 1))


def _sq_contains(g: Family, v: tuple) -> bool:
    return g.contains(v)


HELPERS: dict[str, Any] = {
    "_sq_all": _sq_all,
    "_sq_chain": _sq_chain,
    "_sq_within": _sq_within,
    "_sq_lengths": _sq_lengths,
    "_sq_contains": _sq_contains,
}
