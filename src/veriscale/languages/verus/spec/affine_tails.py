"""One-sided integer binders over recursive spec fns: an affine tail proved by induction.

**Where it applies.** A binder ``r`` ranging over ``[lo, ∞)`` whose body calls spec fns that recurse
on ``r`` (``cumul_profit(c, r, …) = cumul_profit(c, r - 1, …) + boarded_at(c, r) * bc - rc``, lc1599).
The affine stand-ins (``affine.py``) cannot follow such a recursion (the stand-in would be peeled one
value at a time), and the search over the first ``SEARCH_CAP`` values ``[lo, B)`` found no decision.
This module decides the rest ``[B, ∞)``.

**Hypotheses.** While the body is evaluated with an affine stand-in over ``[B, ∞)``, a spec fn call
that recurses on the stand-in (the evaluator's ``_affine_signature`` test: the same fn, the same other
arguments, a stand-in of the same piece — ``f(…, x - 1, …)`` inside ``f(…, x, …)``) is answered by a
*hypothesis*: ``f(…, y, …) = α + β·(y - T)`` for every ``y >= T`` (``T = B - D``), guessed from the
concrete values ``f(…, T, …)`` and ``f(…, T + 1, …)``. The evaluation goes on with that affine value,
so the body's comparisons on the piece are decided (or split) as usual. Each hooked argument must be
``y = x + b`` on a piece whose lowest value gives ``y >= T``; otherwise the attempt is dropped.

**Proof.** The result is used only after every hypothesis made (also while proving others) is proved,
jointly, by strong induction on ``y >= T``:

* base: ``f(…, T + j, …) == α + β·j`` computed concretely for ``j < D``;
* step: for ``y`` a stand-in over ``[T + D, ∞)``, ``f(…, y, …)`` is evaluated (its body unfolded once)
  with every recursive call answered by a hypothesis at an argument ``y + b`` with ``-D <= b <= -1``
  (strictly below ``y``, at least ``T``): the result must be exactly ``α + β·(y - T)`` on the whole
  piece (no split). By the affine stand-in argument this holds for every ``y`` of the piece, given
  the hypotheses below ``y`` — the induction step.

So every hypothesis is a theorem about the spec fn on ``[T, ∞)``, and the body's evaluation over
``[B, ∞)`` is an ordinary affine evaluation. Anything else — a value that is not an integer, a
quadratic or non-uniform tail, more than ``MAX_HYPOTHESES`` hypotheses, a hooked argument outside the
allowed window — drops the attempt and leaves the binder UNKNOWN as before, never a wrong verdict.
Example: lc1599's profit after the last customer has boarded falls by ``running_cost`` per rotation
(``cumul_profit`` affine with slope ``-rc``, ``waiting_after`` constant 0).
"""

from __future__ import annotations

from typing import Any

from .affine import Affine, Cell, NotAffine, Split
from .runtime import SpecError

__all__ = ["ACTIVE", "MAX_HYPOTHESES", "D", "answer", "decide"]

D = 4  # the window of recursive arguments below the induction variable (and the base cases)
MAX_HYPOTHESES = 16


class _Drop(Exception):
    """The tail attempt does not apply (caught by ``decide``)."""


class _Tail:
    def __init__(self, t: int) -> None:
        self.t = t
        self.hyps: dict[Any, tuple[Any, int, list[Any], int, int]] = {}  # key -> (fn, pos, args, α, β)
        self.compiler: Any = None
        self.proof_cell: Cell | None = None  # set while proving a step


ACTIVE: list[_Tail] = []  # the tail attempt in progress (empty: the evaluator's old behaviour)


def _memo_key(v: Any) -> Any:
    if v.__class__ is Affine:
        raise _Drop
    hash(v)
    return v


def answer(compiler: Any, fn: Any, args: list[Any]) -> Any:
    """The value of a call that recurses on a stand-in: a hypothesis's affine value. Without a tail
    attempt in progress (or outside its rules) ``NotAffine``, as before."""
    if not ACTIVE:
        raise NotAffine(f"spec fn {fn.name} recurses on a binder stand-in")
    tail = ACTIVE[-1]
    tail.compiler = compiler
    pos = [k for k, a in enumerate(args) if a.__class__ is Affine]
    if len(pos) != 1:
        raise NotAffine(f"spec fn {fn.name} recurses on several stand-ins")
    p = pos[0]
    y: Affine = args[p]
    cell = y.cell
    if y.a != 1 or y.q != 0 or not isinstance(y.b, int) or cell.lo is None:
        raise NotAffine(f"spec fn {fn.name} recurses on a scaled stand-in")
    if tail.proof_cell is not None:  # proving a step at x: only arguments x - D .. x - 1
        if cell is not tail.proof_cell or not (-D <= y.b <= -1):
            raise NotAffine(f"spec fn {fn.name}: a recursive argument outside the induction window")
    elif cell.lo + y.b < tail.t:
        raise NotAffine(f"spec fn {fn.name}: a recursive argument below the tail start")
    try:
        key = (fn.name, p, tuple(_memo_key(a) for k, a in enumerate(args) if k != p))
    except (_Drop, TypeError):
        raise NotAffine(f"spec fn {fn.name}: arguments that cannot key a hypothesis") from None
    if key not in tail.hyps:
        if len(tail.hyps) >= MAX_HYPOTHESES:
            raise NotAffine(f"more than {MAX_HYPOTHESES} tail hypotheses")
        at0 = _concrete(compiler, fn, args, p, tail.t)
        at1 = _concrete(compiler, fn, args, p, tail.t + 1)
        tail.hyps[key] = (fn, p, list(args), at0, at1 - at0)
    _, _, _, alpha, beta = tail.hyps[key]
    return _value(y, alpha, beta, tail.t)


def _value(y: Any, alpha: int, beta: int, t: int) -> Any:
    """``α + β·(y - t)`` for a stand-in or an integer ``y``."""
    return alpha + (y - t) * beta if beta else alpha


def _concrete(compiler: Any, fn: Any, args: list[Any], p: int, v: int) -> int:
    a2 = list(args)
    a2[p] = v
    r = compiler.call_fn(fn, a2)
    if isinstance(r, bool) or not isinstance(r, int):
        raise NotAffine(f"spec fn {fn.name} is not integer-valued at {v}")
    return r


def _prove(tail: _Tail) -> bool:
    """Prove every hypothesis of ``tail`` (those added on the way too): base cases and the step."""
    proved: set[Any] = set()
    while len(proved) < len(tail.hyps):
        key = next(k for k in sorted(tail.hyps, key=repr) if k not in proved)
        fn, p, args, alpha, beta = tail.hyps[key]
        compiler = tail.compiler
        for j in range(D):
            if _concrete(compiler, fn, args, p, tail.t + j) != alpha + beta * j:
                return False
        cell = Cell(f"{fn.name}#tail", tail.t + D, None)
        x = Affine(cell, 1, 0)
        a2 = list(args)
        a2[p] = x
        tail.proof_cell = cell
        try:
            got = compiler.call_fn(fn, a2)
        finally:
            tail.proof_cell = None
        want = _value(x, alpha, beta, tail.t)
        if not _same(got, want):
            return False
        proved.add(key)
    return True


def _same(got: Any, want: Any) -> bool:
    if want.__class__ is Affine:
        return (
            got.__class__ is Affine and got.cell is want.cell
            and (got.q, got.a, got.b) == (want.q, want.a, want.b)
        )  # fmt: skip
    return got.__class__ is not Affine and isinstance(got, int) and not isinstance(got, bool) and got == want


def decide(
    quant: Any, k: int, env: dict[str, Any], exists: bool, start: int, affine_live: list[int]
) -> bool | None:
    """The quantifier ``quant`` over binder ``k`` on ``[start, ∞)`` (the values below were searched
    without a decision): its truth there, or None when the tail cannot be proved. ``quant`` is the
    evaluator's ``_Quantifier`` (its ``_with_affine``); ``affine_live`` its counter of affine runs in
    progress (raised while proving, so that calls on stand-ins are tracked)."""
    tail = _Tail(start - D)
    ACTIVE.append(tail)
    affine_live[0] += 1
    try:
        r = quant._with_affine(k, env, exists, start, None)
        if tail.hyps and not _prove(tail):
            return None
        return bool(r)
    except (SpecError, Split, _Drop):
        return None
    finally:
        affine_live[0] -= 1
        ACTIVE.pop()
