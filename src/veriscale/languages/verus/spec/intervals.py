"""Interval branch-and-bound for a scalar binder over a huge finite range.

Used after the equality-only and affine stand-ins gave up on the last binder of a ``forall``/``exists``
whose range ``[lo, hi]`` is finite but too large to enumerate (lc3007: ``0 <= candidate <= 2^60`` under
``n / 2^i`` and ``n % 2^i``, which no affine piece survives). The body is evaluated **abstractly** on a
whole sub-range at once: the binder is the interval ``Iv(a, b)``, and every value computed from it is
an interval that contains the value at every point of ``[a, b]``:

* ``+ - *``, unary ``-``, ``/`` and ``%`` by a nonzero integer (Euclidean, monotone quotient; the
  remainder's exact range when the sub-range lies in one period, else ``[0, |m| - 1]``), ``max``/``min``,
  casts that keep every value in range; comparisons are true, false, or ``MAYBE``;
* ``&&``, ``||``, ``==>``, ``!`` in Kleene's logic (a false conjunct makes ``&&`` false even when the
  other is unknown — what the concrete evaluator does too); ``if`` on a ``MAYBE`` condition evaluates
  both branches and joins them (the hull of two intervals; two equal booleans, else ``MAYBE``);
* spec fn calls with interval arguments evaluate the body the same way (bounded depth); a call with
  concrete arguments and every sub-expression that does not mention an interval is evaluated by the
  ordinary evaluator, exactly;
* anything else that meets an interval (an index, a method, a quantifier, a division by something
  that may be zero, a cast that may leave its range, an error of the ordinary evaluator) is
  ``Opaque``: the sub-range is not decided this way.

**Branch and bound.** A sub-range whose body is definitely the quantifier's deciding value (``false``
for ``forall``, ``true`` for ``exists``) at every point decides the quantifier (it is not empty); one
whose body is definitely the other value contributes nothing; otherwise it is halved. Sub-ranges of at
most ``LEAF`` values are evaluated point by point by the ordinary evaluator (errors there are unknown
instances, as in any enumeration). Sub-ranges are visited lowest first, so the first deciding point
found is the least one. The result is exact because every abstract value contains the concrete values
(induction over the expression, and over the call depth for spec fns), so a definite truth value holds
at every point. More than ``MAX_PIECES`` sub-ranges: None (the caller's search runs as before).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from veriscale.runtime import limits
from veriscale.values.rust_types import INT_RANGES
from veriscale.values.types import TCon

from . import runtime as rt
from .ast import Binary, Block, Call, Cast, Chain, Expr, If, Lit, Path, PBind, Unary
from .bounds import free_vars

if TYPE_CHECKING:
    from .evaluate import Compiler

__all__ = ["LEAF", "MAX_PIECES", "MAYBE", "Iv", "decide"]

LEAF = 4  # sub-ranges of at most this many values are enumerated
MAX_PIECES = 4096  # sub-ranges examined before giving up
MAX_DEPTH = 64  # nested abstract spec fn calls (each costs several Python frames)


class Opaque(Exception):
    """The abstract evaluation cannot bound this value."""


class _Maybe:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MAYBE"


MAYBE = _Maybe()


class Iv:
    """The integers ``lo .. hi`` (``lo < hi``; a single value is a plain ``int``)."""

    __slots__ = ("hi", "lo")

    def __init__(self, lo: int, hi: int) -> None:
        self.lo = lo
        self.hi = hi

    def key(self) -> tuple[str, int, int]:
        return ("#iv", self.lo, self.hi)


def _iv(lo: int, hi: int) -> Any:
    return lo if lo == hi else Iv(lo, hi)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _bounds(v: Any) -> tuple[int, int]:
    if v.__class__ is Iv:
        return v.lo, v.hi
    if _is_int(v):
        return v, v
    raise Opaque(f"not an integer: {type(v).__name__}")


def _join(a: Any, b: Any) -> Any:
    if a.__class__ is Iv or b.__class__ is Iv or (_is_int(a) and _is_int(b)):
        (al, ah), (bl, bh) = _bounds(a), _bounds(b)
        return _iv(min(al, bl), max(ah, bh))
    if isinstance(a, bool | _Maybe) and isinstance(b, bool | _Maybe):
        return a if a is b else MAYBE
    if a.__class__ is b.__class__ and a == b:
        return a
    raise Opaque("branches of different values")


def _arith(op: str, a: Any, b: Any) -> Any:
    (al, ah), (bl, bh) = _bounds(a), _bounds(b)
    if op == "+":
        return _iv(al + bl, ah + bh)
    if op == "-":
        return _iv(al - bh, ah - bl)
    if op == "*":
        ps = (al * bl, al * bh, ah * bl, ah * bh)
        return _iv(min(ps), max(ps))
    if op in ("/", "%"):
        if bl != bh or bl == 0:
            raise Opaque("division by a value that may vary or be zero")
        m = bl
        if op == "/":  # Euclidean division by a fixed m is monotone in the dividend
            qs = (rt.ediv(al, m), rt.ediv(ah, m))
            return _iv(min(qs), max(qs))
        period = abs(m)
        if al // period == ah // period:
            return _iv(al % period, ah % period)
        return _iv(0, period - 1)
    raise Opaque(f"operator {op}")


def _compare(op: str, a: Any, b: Any) -> Any:
    (al, ah), (bl, bh) = _bounds(a), _bounds(b)
    if op in ("==", "!="):
        if al == ah == bl == bh:
            eq: Any = True
        elif ah < bl or bh < al:
            eq = False
        else:
            return MAYBE
        return eq if op == "==" else not eq
    if op == "<":
        return True if ah < bl else False if al >= bh else MAYBE
    if op == "<=":
        return True if ah <= bl else False if al > bh else MAYBE
    if op == ">":
        return True if al > bh else False if ah <= bl else MAYBE
    if op == ">=":
        return True if al >= bh else False if ah < bl else MAYBE
    raise Opaque(f"comparison {op}")


def _and(a: Any, b: Callable[[], Any]) -> Any:
    if a is False:
        return False
    rb = _soft(b)
    if rb is False:
        return False
    return True if a is True and rb is True else MAYBE


def _or(a: Any, b: Callable[[], Any]) -> Any:
    if a is True:
        return True
    rb = _soft(b)
    if rb is True:
        return True
    return False if a is False and rb is False else MAYBE


def _soft(f: Callable[[], Any]) -> Any:
    """A boolean operand: its value, ``MAYBE`` when unknown (Kleene's logic)."""
    try:
        v = f()
    except Opaque:
        return MAYBE
    if not isinstance(v, bool | _Maybe):
        return MAYBE
    return v


class _Abstract:
    def __init__(self, compiler: Compiler) -> None:
        self.compiler = compiler
        self.closures: dict[tuple[int, frozenset[str]], Any] = {}
        self.fvs: dict[int, set[str]] = {}
        self.memo: dict[Any, Any] = {}
        self.depth = 0
        self.keep: list[Expr] = []  # keeps the ids of cached expressions valid

    def _free(self, e: Expr) -> set[str]:
        fv = self.fvs.get(id(e))
        if fv is None:
            fv = self.fvs[id(e)] = free_vars(e)
            self.keep.append(e)
        return fv

    def _concrete(self, e: Expr, env: dict[str, Any]) -> Any:
        scope = frozenset(k for k in env if "#" not in k)
        key = (id(e), scope)
        f = self.closures.get(key)
        if f is None:
            f = self.closures[key] = self.compiler.compile(e, scope)
            self.keep.append(e)
        try:
            return f(env)
        except rt.SpecError as exc:
            raise Opaque(str(exc)) from None

    def ev(self, e: Expr, env: dict[str, Any], abstract: frozenset[str]) -> Any:
        if not (self._free(e) & abstract):
            return self._concrete(e, env)
        if isinstance(e, Path):
            return env[e.segments[0]]
        if isinstance(e, Lit):
            return e.value
        if isinstance(e, Cast):
            return self._cast(self.ev(e.expr, env, abstract), e.type)
        if isinstance(e, Unary):
            v = (
                self.ev(e.expr, env, abstract)
                if e.op != "!"
                else _soft(lambda: self.ev(e.expr, env, abstract))
            )
            if e.op == "-":
                lo, hi = _bounds(v)
                return _iv(-hi, -lo)
            if e.op == "!":
                return MAYBE if v is MAYBE else not v
            if e.op in ("&", "*"):
                return v
            raise Opaque(f"unary {e.op}")
        if isinstance(e, Binary):
            return self._binary(e, env, abstract)
        if isinstance(e, Chain):
            out: Any = True
            vals = [self.ev(x, env, abstract) for x in e.operands]
            for op, a, b in zip(e.ops, vals, vals[1:]):
                r = _compare(op, a, b)
                if r is False:
                    return False
                if r is MAYBE:
                    out = MAYBE
            return out
        if isinstance(e, If):
            c = _soft(lambda: self.ev(e.cond, env, abstract))
            if e.else_ is None:
                raise Opaque("if without else")
            if c is True:
                return self.ev(e.then, env, abstract)
            if c is False:
                return self.ev(e.else_, env, abstract)
            return _join(self.ev(e.then, env, abstract), self.ev(e.else_, env, abstract))
        if isinstance(e, Block):
            env = dict(env)
            for let in e.lets:
                if not isinstance(let.pat, PBind):
                    raise Opaque("let pattern")
                v = self.ev(let.value, env, abstract)
                env[let.pat.name] = v
                abstract = (
                    abstract | {let.pat.name}
                    if v.__class__ is Iv or v is MAYBE
                    else abstract - {let.pat.name}
                )
            return self.ev(e.tail, env, abstract)
        if isinstance(e, Call):
            return self._call(e, env, abstract)
        raise Opaque(f"{type(e).__name__} of an interval")

    def _cast(self, v: Any, t: Any) -> Any:
        if not isinstance(t, TCon) or t.args:
            raise Opaque("cast")
        lo, hi = _bounds(v)
        if t.name == "int":
            return v
        rng = (0, None) if t.name == "nat" else INT_RANGES.get(t.name)
        if rng is None:
            raise Opaque(f"cast to {t.name}")
        if (rng[0] is not None and lo < rng[0]) or (rng[1] is not None and hi > rng[1]):
            raise Opaque(f"cast to {t.name} may leave its range")
        return v

    def _binary(self, e: Binary, env: dict[str, Any], abstract: frozenset[str]) -> Any:
        op = e.op

        def lhs() -> Any:
            return self.ev(e.lhs, env, abstract)

        def rhs() -> Any:
            return self.ev(e.rhs, env, abstract)

        if op == "&&":
            return _and(_soft(lhs), rhs)
        if op == "||":
            return _or(_soft(lhs), rhs)
        if op == "==>":
            a = _soft(lhs)
            return _or(MAYBE if a is MAYBE else not a, rhs)
        if op == "<==":
            b = _soft(rhs)
            return _or(MAYBE if b is MAYBE else not b, lhs)
        if op == "<==>":
            a, b = _soft(lhs), _soft(rhs)
            return MAYBE if a is MAYBE or b is MAYBE else a == b
        return _arith(op, lhs(), rhs())

    def _call(self, e: Call, env: dict[str, Any], abstract: frozenset[str]) -> Any:
        args = [self.ev(a, env, abstract) for a in e.args]
        fn = self.compiler._fn_of(e)
        if fn is None:
            name = e.func.segments[-1] if isinstance(e.func, Path) else ""
            if name in ("max", "min") and len(args) == 2:
                (al, ah), (bl, bh) = _bounds(args[0]), _bounds(args[1])
                return _iv(max(al, bl), max(ah, bh)) if name == "max" else _iv(min(al, bl), min(ah, bh))
            raise Opaque(f"call of {name or 'a closure'} with an interval")
        if fn.body is None or len(args) != len(fn.params):
            raise Opaque(f"spec fn {fn.name}")
        names = [n for n, _ in fn.params]
        inner = frozenset(n for n, a in zip(names, args) if a.__class__ is Iv or a is MAYBE)
        if not inner:
            try:
                return self.compiler.call_fn(fn, args)
            except rt.SpecError as exc:
                raise Opaque(str(exc)) from None
        key: Any = (id(fn), *(a.key() if a.__class__ is Iv else a for a in args))
        try:
            got = self.memo.get(key)
        except TypeError:
            key, got = None, None
        if got is not None:
            return got
        limits.charge(1)
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise Opaque("abstract recursion too deep")
            val = self.ev(fn.body, dict(zip(names, args)), inner)
        finally:
            self.depth -= 1
        if key is not None:
            self.memo[key] = val
        return val


def decide(
    compiler: Compiler,
    body: Expr,
    name: str,
    env: dict[str, Any],
    exists: bool,
    lo: int,
    hi: int,
    leaf: Callable[[dict[str, Any]], bool],
) -> bool | None:
    """``exists``/``forall`` of ``body`` over ``name`` in ``[lo, hi]`` by interval branch and bound
    (module docstring); ``leaf(env)`` is the ordinary evaluation of one instance. None: undecided
    within ``MAX_PIECES`` sub-ranges. Errors of enumerated instances are raised at the end when no
    instance decided, as in the ordinary enumeration."""
    ab = _Abstract(compiler)
    todo: list[tuple[int, int]] = [(lo, hi)]
    err: rt.SpecError | None = None
    pieces = 0
    while todo:
        a, b = todo.pop()
        pieces += 1
        if pieces > MAX_PIECES:
            return None
        limits.charge(1)
        if b - a < LEAF:
            for v in range(a, b + 1):
                env[name] = v
                try:
                    if leaf(env) == exists:
                        return exists
                except rt.SpecError as exc:
                    err = err or exc
            continue
        env[name] = Iv(a, b)
        ab.memo = {}
        try:
            r = _soft(lambda: ab.ev(body, env, frozenset({name})))
        except RecursionError:  # a deep concrete call inside: the sub-range is not decided this way
            r = MAYBE
        if r is MAYBE:
            mid = (a + b) // 2
            todo.append((mid + 1, b))
            todo.append((a, mid))
        elif r == exists:
            return exists
    if err is not None:
        raise err
    return not exists
