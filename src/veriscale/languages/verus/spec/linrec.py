"""Linear self-recursion with a constant step, summed in closed form instead of call by call.

Recognised shape (syntactic, per spec fn; anything else keeps the ordinary call-by-call evaluation):

    fn f(p_0, …, p_k) = if C { B } else { E }        (or the recursive branch first)

* exactly one self-call in the whole body, in ``E`` (the recursive branch); ``B`` and ``C`` have none;
* the call passes every parameter through unchanged except one, the counter ``p_c``, which it passes
  as ``p_c - d`` or ``p_c + d`` for an integer literal ``d > 0`` (the step ``s`` is ``-d`` or ``+d``);
* ``E`` is linear in the call with coefficient 1: on the path from ``E``'s root to the call there are
  only ``+`` (either operand) and ``-`` (left operand). Then ``E == call + G`` with ``G = E[call := 0]``
  (integers), so for the counter values ``n_t = N + s*t``:

      f(N) = G(n_0) + G(n_1) + … + G(n_{T-1}) + B(n_T),   T = the first t at which C picks the base.

**Closed form.** ``t`` is split into residue classes ``t = P*u + r`` (``0 <= r < P``), and in each class
the counter is the affine stand-in ``n = (N + s*r) + s*P*u`` of ``u`` (``affine.py``). ``C`` and ``G``
are evaluated with that stand-in over pieces of ``u`` exactly as a quantifier's affine binder is: a
comparison that is not uniform on a piece splits it; a piece whose evaluation completes has the same
path, hence the same boolean (``C``) or the same polynomial value (``G``, at most quadratic in ``u``),
at every ``u`` of it (the argument of ``affine.py``). Any error met with the stand-in (``NotAffine``,
or an index by the counter, which the runtime reports as out of bounds) abandons the acceleration. ``%`` and ``/`` by an integer ``m`` are exact
on such a stand-in when ``m`` divides its coefficients (the remainder is then the constant ``b mod
m``); otherwise the evaluation asks for the period ``m`` (``affine.NeedsPeriod``) and everything is
redone with ``P = lcm(P, m)`` (up to ``MAX_PERIOD``) — ``k % 2`` in cf1077A's jump direction gives
``P = 2``. ``T`` is the least ``P*u + r`` over the classes whose ``C`` picks the base; the sum of
``G`` over each class's ``u < (T - r) / P`` is summed piece by piece with Faulhaber's formulas; the base
value is an ordinary call at ``n_T`` (which takes the base branch at once).

**Why it is the same value.** By induction on ``t`` from ``T`` down: ``f(n_T) = B(n_T)`` and
``f(n_t) = f(n_{t+1}) + G(n_t)`` for ``t < T`` (``C`` picks the recursion there), which is what the
call-by-call evaluation computes; evaluating ``G`` over a piece follows, for every ``u`` of it, the
path the plain evaluation takes at that ``u``. When the shape or the stand-in's fragment does not fit
(``NotAffine``: an index by the counter, a recursion on it, a period beyond the cap, too many pieces),
``accelerate`` returns None and the caller evaluates call by call as before; the failure is remembered
per fn for the rest of the check, so a recursion that cannot be accelerated costs one attempt. The
evaluator tries only at recursion depths ``FROM_DEPTH``, ``FROM_DEPTH + EVERY``, …: shallow recursions
(the usual case) pay nothing, and a deep one is summed from the first such depth on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from veriscale.runtime import limits

from . import affine
from .affine import Affine
from .ast import (
    Binary,
    Block,
    Call,
    Cast,
    Chain,
    Closure,
    Expr,
    Field,
    If,
    Index,
    Lit,
    Match,
    MethodCall,
    Path,
    Quant,
    SeqLit,
    StructLit,
    Tuple,
    Unary,
    View,
)
from .runtime import SpecError

if TYPE_CHECKING:
    from .evaluate import Compiler, SpecFn

__all__ = ["EVERY", "FROM_DEPTH", "MAX_PERIOD", "MAX_PIECES", "LinRec", "Unfit", "accelerate", "plan"]

MAX_PERIOD = 64  # residue classes of the step index tried at most
MAX_PIECES = 2048  # pieces (over all classes and phases) of one acceleration before it gives up
MIN_STEPS = 64  # recursions shorter than this are left to the plain evaluation (nothing to gain)
# tried only from this spec recursion depth on: shallow recursions (most) never pay for an attempt, and a
# deep one is summed from there (the frames above it finish as usual)
FROM_DEPTH = 256
# ... and then only at every EVERY-th depth: a deep recursion of f passes through such a depth in a run of
# f frames, while calls of short recursions nested in a deep one (lc1155's 30-step ways_sum inside a
# 900-deep ways/ways_sum chain, about 10^5 distinct calls) rarely sit exactly there
EVERY = 64


@dataclass(frozen=True)
class LinRec:
    cond: Expr
    rec_when: bool  # the recursive branch is taken when ``cond`` has this value
    step_expr: Expr  # G: the recursive branch with the self-call replaced by 0
    counter: int  # index of the counter parameter
    step: int  # the counter's change per call (nonzero)


def _children(e: Expr) -> list[Expr] | None:
    """Sub-expressions of ``e``; None for a node this module does not know (no plan then)."""
    if isinstance(e, Lit | Path):
        return []
    if isinstance(e, Call):
        return [e.func, *e.args]
    if isinstance(e, MethodCall):
        return [e.recv, *e.args]
    if isinstance(e, Field | View):
        return [e.obj]
    if isinstance(e, Index):
        return [e.obj, e.index]
    if isinstance(e, Unary | Cast):
        return [e.expr]
    if isinstance(e, Binary):
        return [e.lhs, e.rhs]
    if isinstance(e, Chain):
        return list(e.operands)
    if isinstance(e, If):
        return [e.cond, e.then] + ([e.else_] if e.else_ is not None else [])
    if isinstance(e, Tuple | SeqLit):
        return list(e.items)
    if isinstance(e, StructLit):
        return [v for _, v in e.fields]
    if isinstance(e, Block):
        return [*(x.value for x in e.lets), e.tail]
    if isinstance(e, Match):
        out = [e.scrutinee]
        for _, guard, body in e.arms:
            out.extend([guard, body] if guard is not None else [body])
        return out
    if isinstance(e, Quant | Closure):
        return [e.body]
    return None


def _self_calls(e: Expr, fn: SpecFn, is_self: Any) -> list[Expr] | None:
    """Every self-call in ``e`` (method-call spellings count too); None if a node is not understood."""
    out: list[Expr] = []
    todo = [e]
    while todo:
        x = todo.pop()
        if (isinstance(x, Call) and is_self(x)) or (isinstance(x, MethodCall) and x.name == fn.name):
            out.append(x)
        kids = _children(x)
        if kids is None:
            return None
        todo.extend(kids)
    return out


def _zero_call(e: Expr, call: Expr) -> Expr | None:
    """``e`` with ``call`` replaced by 0, if the path from ``e`` to it has only ``+`` and left ``-``."""
    if e is call:
        return Lit(0, "int")
    if isinstance(e, Binary) and e.op in ("+", "-"):
        lhs = _zero_call(e.lhs, call)
        if lhs is not None:
            return Binary(e.op, lhs, e.rhs, e.line)
        if e.op == "+":
            rhs = _zero_call(e.rhs, call)
            if rhs is not None:
                return Binary(e.op, e.lhs, rhs, e.line)
    return None


def _counter_step(arg: Expr, name: str) -> int | None:
    if (
        isinstance(arg, Binary)
        and arg.op in ("+", "-")
        and isinstance(arg.lhs, Path)
        and arg.lhs.is_local
        and arg.lhs.name == name
        and isinstance(arg.rhs, Lit)
        and arg.rhs.kind == "int"
        and isinstance(arg.rhs.value, int)
        and arg.rhs.value > 0
    ):
        return -arg.rhs.value if arg.op == "-" else arg.rhs.value
    return None


def plan(fn: SpecFn, is_self: Any) -> LinRec | None:
    """The ``LinRec`` of ``fn`` if its body has the recognised shape (module docstring), else None."""
    body = fn.body
    if not isinstance(body, If) or body.else_ is None:
        return None
    calls = _self_calls(body, fn, is_self)
    if calls is None or len(calls) != 1 or not isinstance(calls[0], Call):
        return None
    call = calls[0]
    names = [n for n, _ in fn.params]
    if len(call.args) != len(names):
        return None
    counter, step = -1, 0
    for k, (arg, name) in enumerate(zip(call.args, names)):
        if isinstance(arg, Path) and arg.is_local and arg.name == name:
            continue
        s = _counter_step(arg, name)
        if s is None or counter >= 0:
            return None
        counter, step = k, s
    if counter < 0:
        return None
    for rec_when, branch in ((True, body.then), (False, body.else_)):
        g = _zero_call(branch, call)
        if g is not None:
            return LinRec(body.cond, rec_when, g, counter, step)
    return None


class _GiveUp(Exception):
    """Outside the fragment (or over a cap): evaluate call by call."""


def _power_sum(lo: int, hi: int, k: int) -> int:
    """Sum of ``u**k`` for ``lo <= u <= hi`` (k in 0, 1, 2)."""

    def upto(n: int) -> int:  # sum over 0 <= u <= n (n >= -1)
        if k == 0:
            return n + 1
        if k == 1:
            return n * (n + 1) // 2
        return n * (n + 1) * (2 * n + 1) // 6

    if hi < lo:
        return 0
    if lo >= 0:
        return upto(hi) - upto(lo - 1)
    if hi < 0:  # reflect: sum of (-v)**k over -hi <= v <= -lo
        return (-1) ** k * (upto(-lo) - upto(-hi - 1))
    return upto(hi) + (-1) ** k * upto(-lo)


def _piece_sum(v: Any, lo: int, hi: int) -> int:
    if v.__class__ is Affine:
        total = (
            Fraction(v.q) * _power_sum(lo, hi, 2)
            + Fraction(v.a) * _power_sum(lo, hi, 1)
            + Fraction(v.b) * (hi - lo + 1)
        )
        if total.denominator != 1:
            raise _GiveUp("a non-integer sum")
        return int(total)
    if isinstance(v, bool) or not isinstance(v, int):
        raise _GiveUp(f"the recursive step is not an integer ({type(v).__name__})")
    return v * (hi - lo + 1)


class _Run:
    def __init__(self, compiler: Compiler, fn: SpecFn, rec: LinRec, args: list[Any]) -> None:
        self.compiler = compiler
        self.fn = fn
        self.rec = rec
        self.args = args
        self.names = [n for n, _ in fn.params]
        scope = frozenset(self.names)
        self.cond = compiler.compile(rec.cond, scope)
        self.step_fn = compiler.compile(rec.step_expr, scope)
        self.pieces = 0

    def _eval(self, f: Any, cell: affine.Cell, base: int, coef: int) -> Any:
        env = dict(zip(self.names, self.args))
        env[self.names[self.rec.counter]] = affine._make(cell, coef, base)
        self.pieces += 1
        if self.pieces > MAX_PIECES:
            raise _GiveUp(f"more than {MAX_PIECES} pieces")
        limits.charge(1)
        return f(env)

    def _pieces(self, f: Any, lo: int, hi: int | None, base: int, coef: int) -> Any:
        """Yield ``(lo, hi, value)`` of ``f`` over ``u`` in ``[lo, hi]`` in increasing order (``hi``
        None: unbounded), splitting where a comparison is not uniform."""
        todo: list[tuple[int, int | None]] = [(lo, hi)]
        while todo:
            p_lo, p_hi = todo.pop()
            cell = affine.Cell(self.names[self.rec.counter], p_lo, p_hi)
            try:
                v = self._eval(f, cell, base, coef)
            except affine.Split as sp:
                if sp.cell is not cell:
                    raise
                todo.append((sp.t + 1, p_hi))
                todo.append((p_lo, sp.t))
                continue
            yield p_lo, p_hi, v

    def first_base(self, period: int, r: int) -> int | None:
        """The least ``u >= 0`` at which the condition picks the base branch in class ``r``."""
        base, coef = self.args[self.rec.counter] + self.rec.step * r, self.rec.step * period
        for p_lo, _p_hi, v in self._pieces(self.cond, 0, None, base, coef):
            if not isinstance(v, bool):
                raise _GiveUp("the condition is not a boolean")
            if v != self.rec.rec_when:
                return p_lo
        return None

    def step_sum(self, period: int, r: int, count: int) -> int:
        """Sum of G over ``u`` in ``[0, count - 1]`` of class ``r``."""
        if count <= 0:
            return 0
        base, coef = self.args[self.rec.counter] + self.rec.step * r, self.rec.step * period
        return sum(
            _piece_sum(v, lo, hi) for lo, hi, v in self._pieces(self.step_fn, 0, count - 1, base, coef)
        )

    def run(self) -> Any:
        period = 1
        while True:
            try:
                return self._with_period(period)
            except affine.NeedsPeriod as np:
                period = math.lcm(period, abs(np.modulus))
                if period > MAX_PERIOD:
                    raise _GiveUp(f"period {period} beyond {MAX_PERIOD}") from None

    def _with_period(self, period: int) -> Any:
        firsts = [self.first_base(period, r) for r in range(period)]
        ends = [period * u + r for r, u in enumerate(firsts) if u is not None]
        if not ends:
            raise _Short("no base case found")
        t_base = min(ends)
        if t_base < MIN_STEPS:
            raise _Short("a short recursion")
        total = 0
        for r in range(period):
            total += self.step_sum(period, r, (t_base - r + period - 1) // period)
        args = list(self.args)
        args[self.rec.counter] = self.args[self.rec.counter] + self.rec.step * t_base
        return total, args


class Unfit(Exception):
    """The recursion left the fragment (``NotAffine``, a period or piece cap): the caller evaluates
    call by call and does not try this fn again during the same check."""


def accelerate(compiler: Compiler, fn: SpecFn, args: list[Any]) -> tuple[int, list[Any]] | None:
    """``(S, base_args)`` with ``f(args) == S + f(base_args)`` where ``f(base_args)`` takes the base
    branch at once; None when there is nothing to accelerate (not the recognised shape, a counter that
    is not an integer, no base case in reach, fewer than ``MIN_STEPS`` calls); ``Unfit`` when the
    evaluation left the fragment. The caller makes the base call. Must run with the evaluator's affine
    mode on (``_AFFINE_LIVE``), so spec fns recursing on the stand-in stop at once."""
    if "_linrec_plan" not in fn.__dict__:  # the syntactic plan, cached on the fn itself
        fn.__dict__["_linrec_plan"] = plan(fn, lambda c: compiler._fn_of(c) is fn)
    rec = fn.__dict__["_linrec_plan"]
    if rec is None or len(args) != len(fn.params):
        return None
    n = args[rec.counter]
    if isinstance(n, bool) or not isinstance(n, int):
        return None
    try:
        return _Run(compiler, fn, rec, args).run()
    except _Short:
        return None
    except (_GiveUp, SpecError) as exc:
        # NotAffine, but also any error met with the stand-in (an index by the counter reports
        # "out of bounds"): the plain evaluation decides what the value or the genuine error is
        raise Unfit(str(exc)) from None


class _Short(Exception):
    """No base case in reach, or a recursion too short to gain anything."""
