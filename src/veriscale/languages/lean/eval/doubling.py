"""The "all subsequences by a doubling fold" idiom, run natively with its limits predicted.

Specifications enumerate every subsequence of a list with::

    xs.foldl (fun acc x => acc ++ acc.map (fun sub => x :: sub)) [[]]

Compiled plainly, each step calls ``List.map`` (its registry wrapper charges ``len acc`` fuel
when above 16), a Python lambda per element for the cons, and ``_append`` (which refuses a
result of ``SIZE_CHECK_FROM`` elements or more over the size limit). The list doubles per
element, so on 23 elements the run builds 2^22 lists (seconds) only to be refused at the last
step, and the fuel it will have charged by any step is known from the input lengths alone.

``match`` recognises the idiom in the IR (``List.foldl``, or ``Array.foldl`` over the whole
array); the code generator then calls ``doubling_fold(init, xs)`` instead, which:

1. replays, on a copy of the budget's counters, the exact sequence of checks the plain code
   makes — the fold wrapper's charge (``len init + len xs`` when above 16), then per element
   the map wrapper's charge of ``len acc`` (when above 16) and the append's size refusal of
   ``2 len acc`` — and finds whether one of them fails;
2. if one fails, makes the same calls on the real budget without building any list: the same
   check raises the same ``LimitExceeded`` (same reason text), after the same fuel was charged;
3. otherwise makes the same calls while building each step with a list comprehension
   (``(x,) + sub`` is exactly the cons the lambda computes), so the value is identical.

Nothing else in the idiom charges fuel or can fail (a lambda without a ``def`` body does not
tick, ``List.map`` and the cons do nothing but build), so verdicts, reasons and fuel spent are
those of the plain code; only the wall clock differs. ``ENABLED`` (read at code generation)
switches the rewrite off, for tests that compare both.
"""

from __future__ import annotations

from typing import Any

from ....runtime import limits
from ..builtins.support import SIZE_CHECK_FROM
from ..elab import ir
from ..errors import InternalError

__all__ = ["ENABLED", "doubling_fold", "match"]

ENABLED = True

# the registry wrappers charge the total length of their list/string arguments above this
_CHARGE_ABOVE = 16


def _is_var(n: Any, name: str) -> bool:
    return isinstance(n, ir.Var) and n.name == name


def _is_list(t: Any) -> bool:
    return getattr(t, "name", None) == "List"


def match(n: ir.Call) -> tuple[ir.Node, ir.Node] | None:
    """``(init, xs)`` when ``n`` is ``foldl (fun acc x => acc ++ List.map (fun s => x :: s) acc)
    init xs`` (``List.foldl``, or ``Array.foldl`` with both bounds defaulted), else None."""
    t = n.target
    if not isinstance(t, ir.Bltn) or t.inst is not None:
        return None
    if t.name == "List.foldl" and len(n.args) == 3:
        pass
    elif t.name == "Array.foldl" and len(n.args) == 5:
        if not all(isinstance(a, ir.BDefault) for a in n.args[3:]):
            return None
    else:
        return None
    f, init, xs = n.args[:3]
    if not (isinstance(f, ir.Lam) and len(f.params) == 2):
        return None
    acc, x = f.params
    body = f.body
    if not (isinstance(body, ir.Prim) and body.op == "append" and _is_list(body.opty)):
        return None
    left, right = body.args
    if not (_is_var(left, acc) and isinstance(right, ir.Call) and len(right.args) == 2):
        return None
    mt = right.target
    if not (isinstance(mt, ir.Bltn) and mt.name == "List.map" and mt.inst is None):
        return None
    g, over = right.args
    if not (_is_var(over, acc) and isinstance(g, ir.Lam) and len(g.params) == 1):
        return None
    (s,) = g.params
    cons = g.body
    if s in (acc, x) or not (isinstance(cons, ir.Prim) and cons.op == "cons"):
        return None
    if not (_is_var(cons.args[0], x) and _is_var(cons.args[1], s)):
        return None
    return init, xs


def _first_failure(budget: limits.Budget, first: int, length: int, steps: int) -> bool:
    """True if one of the plain code's checks fails: ``first`` charged, then ``steps`` doublings
    of ``length`` (each charging the list's length, then refusing the doubled size).

    Mirrors ``Budget.charge`` exactly: the fuel is only tested when it passes the next clock
    point (a budget may run a little below zero in between)."""
    state = [budget.fuel, budget.clock_point]

    def over(n: int) -> bool:
        state[0] -= n
        if state[0] < state[1]:
            if state[0] < 0:
                return True
            state[1] = budget.next_clock_point(state[0])
        return False

    cap = budget.limits.max_size
    if first > _CHARGE_ABOVE and over(first):
        return True
    for _ in range(steps):
        if length > _CHARGE_ABOVE and over(length):
            return True
        length += length
        if length >= SIZE_CHECK_FROM and length > cap:
            return True
        if length == 0:  # (an empty start stays empty: no check can fail any more)
            return False
    return False


def doubling_fold(init: tuple, xs: tuple) -> tuple:
    """The fold's value, with exactly the plain code's fuel charges and size checks (module doc)."""
    budget = limits.current()
    first = len(init) + len(xs)
    build = not _first_failure(budget, first, len(init), len(xs))
    if first > _CHARGE_ABOVE:
        budget.charge(first)
    acc = init
    length = len(init)
    for x in xs:
        if length > _CHARGE_ABOVE:
            budget.charge(length)
        doubled = length + length
        if doubled >= SIZE_CHECK_FROM:
            budget.refuse_size(doubled)
        if build:
            acc = acc + tuple([(x,) + s for s in acc])  # noqa: RUF005 (the cons as compiled)
        length = doubled
    if not build:  # the prediction said a check fails; the replay must have raised
        raise InternalError("doubling fold: predicted limit not reached")
    return acc
