"""The evaluator: specification expressions compiled to Python closures over an environment.

``Compiler(ctx).compile(expr, scope)`` returns ``f(env) -> value``; ``env``
is a ``dict`` of local names. Spec functions are memoised per check (keyed
by argument identity for long sequences, so recursion over a prefix stays
linear), charge fuel, and count depth; everything honours the current
``lean.limits`` budget.

Quantifiers enumerate the domain ``bounds.plan_quantifier`` derives;
``bool`` binders take both values; a scalar binder without a finite domain
(unbounded, bounded on one side, or too large) is handled with a ``Fresh``
stand-in (sound when the body only tests it for equality: evaluate once with
the stand-in, then once per value it was compared with), then with affine
stand-ins piece by piece (``affine.py``: the range is split wherever a
comparison is not uniform), then (the last binder of a huge finite range) by
interval branch and bound (``intervals.py``), then by a search near its bound,
which can only find a witness or counterexample; anything else raises
``Unbounded``. Conjuncts over a prefix of the binders prune the later ones, and
binder-free calls of the body are witness candidates for sequence binders
(``prune.py``). Tail self-calls of spec fns run as loops (``tailcalls.py``); deep
linear self-recursion is summed in closed form (``linrec.py``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from veriscale.runtime import limits
from veriscale.values.runtime import Some, Struct
from veriscale.values.rust_types import INT_RANGES
from veriscale.values.types import TCon, Type

from ....runtime.errors import LimitExceeded
from . import (
    affine,
    affine_tails,
    enum_domains,
    intervals,
    linrec,
    prune,
    seq_choices,
    seq_covers,
    seq_matchings,
    seq_multisets,
    seq_paths,
    seq_sumcaps,
    seq_sums,
    seq_walks,
)
from . import runtime as rt
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
    Pat,
    Path,
    PBind,
    PLit,
    PTuple,
    PVariant,
    PWild,
    Quant,
    SeqLit,
    StructLit,
    Tuple,
    Unary,
    View,
)
from .bounds import _Opaque, free_vars, plan_quantifier, substitute
from .seq_domains import monotone_plan
from .tailcalls import TailCall, tail_self_calls

__all__ = ["Compiler", "Context", "SpecFn"]

Fn = Callable[[dict[str, Any]], Any]
_MISS = object()  # no memo entry
_AFFINE_LIVE = [0]  # affine runs in progress (stand-ins exist only then; saves checking every call)
_SEVERAL = object()  # stands for the witnesses of a piece of several values (choose is unspecified)
MAX_RANGE = 5_000_000  # a bounded binder with more values than this is not enumerated


@dataclass
class SpecFn:
    name: str
    owner: str | None
    params: list[tuple[str, Type]]
    ret: Type
    body: Expr | None  # None: no body (uninterpreted / closed without body)
    compiled: Fn | None = None
    line: int = 0
    error: str = ""  # why the signature or body did not parse (``body`` is then None)


@dataclass
class Context:
    """Everything name resolution needs: spec functions, constants, user types, imports."""

    fns: dict[str, SpecFn] = field(default_factory=dict)
    consts: dict[str, Expr] = field(default_factory=dict)
    structs: dict[str, list[str]] = field(default_factory=dict)  # struct -> field names
    enums: dict[str, list[str]] = field(default_factory=dict)  # enum -> variant names
    aliases: dict[str, str] = field(default_factory=dict)  # imported name -> vstd function


_INT_CONSTS = {f"{t}::{b}": v for t, (lo, hi) in INT_RANGES.items() for b, v in (("MIN", lo), ("MAX", hi))}
_INT_CONSTS.update({f"{t}::BITS": int(t[1:]) if t[1:].isdigit() else 64 for t in INT_RANGES})


def _truth(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, rt.Fresh):
        raise rt.NotEqualityOnly(f"binder {v.name} used as a boolean")
    if v.__class__ is Affine:
        raise affine.NotAffine(f"binder {v.cell.name} used as a boolean")
    raise rt.SpecUnsupported(f"expected a boolean, found {type(v).__name__}")


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        if isinstance(v, rt.Fresh):
            raise rt.NotEqualityOnly(f"binder {v.name} used in {what}")
        if v.__class__ is Affine:
            raise affine.NotAffine(f"binder {v.cell.name} used in {what}")
        raise rt.SpecUnsupported(f"{what} of a non-integer ({type(v).__name__})")
    return v


def _vstd_pow(b: Any, e: Any) -> int:
    b, e = _int(b, "pow"), _int(e, "pow")
    if e < 0:
        raise rt.Unspecified("pow with a negative exponent")
    if e > 100_000:
        raise LimitExceeded("size", "pow exponent too large")
    return b**e


def _vstd_log(base: Any, n: Any) -> int:
    base, n = _int(base, "log"), _int(n, "log")
    k = 0
    while n >= base and base > 1:
        n = n // base  # both positive here: Euclidean equals floor
        k += 1
    return k


_BUILTINS: dict[str, Callable[..., Any]] = {
    "pow": _vstd_pow,
    "pow2": lambda e: _vstd_pow(2, e),
    "log": _vstd_log,
    "max": lambda a, b: _extreme(a, b, True),
    "min": lambda a, b: _extreme(a, b, False),
    "abs": lambda a: affine.absolute(a) if a.__class__ is Affine else abs(_int(a, "abs")),
    "old": lambda a: a,
    "#max": lambda a, b: max(_int(a, "max"), _int(b, "max")),  # used by derived quantifier bounds
    "#divcap": lambda e: _divcap(e),  # |x| <= |e| for a divisor x of e (bounds.py); None: no bound
    "#neg": lambda v: None if v is None else -_int(v, "a bound"),
    "#logcap": lambda b, n, c: _logcap(b, n, c),  # c * b^x <= n (bounds._power_bound); None: no bound
    "#floordiv_pos": lambda n, d: _scaled(n, d, False),  # e * x <= n (bounds._scaled_bound); None: no bound
    "#ceildiv_pos": lambda n, d: _scaled(n, d, True),
}


def _extreme(a: Any, b: Any, largest: bool) -> Any:
    if a.__class__ is Affine or b.__class__ is Affine:  # one comparison, which may split the binder's range
        return affine.extreme(a, b, largest)
    a, b = _int(a, "max" if largest else "min"), _int(b, "max" if largest else "min")
    return max(a, b) if largest else min(a, b)


def _scaled(n: Any, d: Any, ceil: bool) -> Any:
    """``floor(n / d)`` (``ceil``) for a positive ``d``; None (no bound) otherwise.

    With ``n`` an outer binder's affine stand-in the quotient is not affine; a looser affine bound is
    returned instead (a superset of the binder's range stays sound): ``floor(n / d) <= n`` when
    ``n >= 0`` and ``<= -1`` when ``n < 0``; ``ceil(n / d) >= n`` when ``n <= 0`` and ``>= 1`` when
    ``n > 0`` (``d >= 1``). The comparison with 0 may split the outer piece, and a piece where the
    binder's range is empty is then decided as such."""
    d = _int(d, "a bound")
    if d <= 0:
        return None
    if n.__class__ is Affine:
        if ceil:
            return n if n <= 0 else 1
        return n if n >= 0 else -1
    n = _int(n, "a bound")
    return -(-n // d) if ceil else n // d


def _logcap(b: Any, n: Any, c: Any) -> int | None:
    """The largest ``k >= 0`` with ``c * b**k <= n``, for ``b >= 2`` and ``n >= c >= 1``; else None."""
    b, n, c = _int(b, "a bound"), _int(n, "a bound"), _int(c, "a bound")
    if b < 2 or c < 1 or n < c:
        return None
    k, p = 0, c
    while p * b <= n:
        p *= b
        k += 1
    return k


def _divcap(e: Any) -> int | None:
    e = _int(e, "a divisor bound")
    return abs(e) if e != 0 else None  # every integer divides 0: no bound


def _connective(lhs: Fn, rhs: Fn, stop: bool, negate_lhs: bool) -> Fn:
    """``lhs && rhs`` (stop False), ``lhs || rhs`` (stop True), ``!lhs || rhs`` (negate_lhs).

    Three-valued: an operand whose value is unknown (unspecified, unbounded,
    unsupported) does not matter when the other operand decides the result,
    since in Verus it still denotes *some* boolean.
    """

    def run(env: dict[str, Any]) -> bool:
        try:
            a = _truth(lhs(env))
        except rt.SpecError:
            if _truth(rhs(env)) == stop:
                return stop
            raise
        if negate_lhs:
            a = not a
        if a == stop:
            return stop
        return _truth(rhs(env))

    return run


def _cmp(op: str, a: Any, b: Any) -> bool:
    if op in ("==", "=~=", "=~~=", "==="):
        return bool(a == b)
    if op in ("!=", "!=="):
        return bool(a != b)
    if isinstance(a, bool) or isinstance(b, bool):
        raise rt.SpecUnsupported("ordering comparison of booleans")
    if op == "<":
        return bool(a < b)
    if op == "<=":
        return bool(a <= b)
    if op == ">":
        return bool(a > b)
    if op == ">=":
        return bool(a >= b)
    raise rt.SpecUnsupported(f"comparison {op}")


def _arith(op: str, a: Any, b: Any) -> Any:
    if a.__class__ is Affine or b.__class__ is Affine:
        return affine.arith(op, a, b)
    if op == "+":
        if isinstance(a, tuple) and isinstance(b, tuple):
            return a + b
        return _int(a, "+") + _int(b, "+") if not isinstance(a, rt.Fresh) else a + b
    if op == "-":
        return _int(a, "-") - _int(b, "-")
    if op == "*":
        a, b = _int(a, "*"), _int(b, "*")
        if a and b and a.bit_length() + b.bit_length() > 1_000_000:
            raise LimitExceeded("size", "integer too large")
        return a * b
    if op == "/":
        return rt.ediv(_int(a, "/"), _int(b, "/"))
    if op == "%":
        return rt.emod(_int(a, "%"), _int(b, "%"))
    if op in ("&", "|", "^"):
        if isinstance(a, bool) and isinstance(b, bool):
            return (a & b) if op == "&" else (a | b) if op == "|" else (a ^ b)
        a, b = _int(a, op), _int(b, op)
        return (a & b) if op == "&" else (a | b) if op == "|" else (a ^ b)
    if op == "<<":
        a, b = _int(a, "<<"), _int(b, "<<")
        if b < 0 or b > 4096:
            raise rt.Unspecified(f"shift by {b}")
        return a << b
    if op == ">>":
        a, b = _int(a, ">>"), _int(b, ">>")
        if b < 0:
            raise rt.Unspecified(f"shift by {b}")
        return a >> b
    raise rt.SpecUnsupported(f"operator {op}")


def _simple(e: Expr, self_name: str) -> bool:
    """Arithmetic over names, literals and casts only (safe to expand for bounds)."""
    if isinstance(e, Lit | Path):
        return not (isinstance(e, Path) and e.name == self_name)
    if isinstance(e, Binary) and e.op in ("+", "-", "*"):
        return _simple(e.lhs, self_name) and _simple(e.rhs, self_name)
    if isinstance(e, Unary) and e.op == "-":
        return _simple(e.expr, self_name)
    if isinstance(e, Cast):
        return _simple(e.expr, self_name)
    return False


def _unsigned_width(e: Expr) -> int | None:
    """Bit width when ``e`` is visibly of an unsigned machine type (a cast or a suffixed literal)."""
    name = ""
    if isinstance(e, Cast) and isinstance(e.type, TCon):
        name = e.type.name
    elif isinstance(e, Lit):
        name = e.suffix
    if name.startswith("u") and name in INT_RANGES:
        return 64 if name == "usize" else int(name[1:])
    return None


def _is_signed_literal(e: Expr) -> bool:
    if isinstance(e, Cast) and isinstance(e.type, TCon):
        return e.type.name.startswith("i") and e.type.name in INT_RANGES
    return isinstance(e, Lit) and e.suffix.startswith("i")


def _memo_key(v: Any) -> Any:
    # a stand-in is keyed by identity: all stand-ins hash alike, and a dict probe comparing two of them
    # with == would make them record a comparison the body never made
    if (isinstance(v, tuple) and len(v) > 16) or isinstance(v, rt.Fresh):
        return ("#id", id(v))
    if v.__class__ is Affine:  # the same function of the same binder on the same piece (affine.py)
        return ("#affine", id(v.cell), v.a, v.b, v.q)
    return v


def _affine_signature(fn: SpecFn, args: list[Any]) -> Any:
    """For a call with affine stand-in arguments: its fn, which arguments are stand-ins (and of which
    piece), and the other arguments (memo keys); None without a stand-in or with an unhashable
    argument. Two active calls with the same signature differ only in the stand-ins' coefficients."""
    if not any(a.__class__ is Affine for a in args):
        return None
    sig = (fn.name, *(("#affine", id(a.cell)) if a.__class__ is Affine else _memo_key(a) for a in args))
    try:
        hash(sig)
    except TypeError:
        return None
    return sig


class Compiler:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.memo: dict[Any, Any] = {}
        self.keep: list[Any] = []  # keeps memo-keyed objects alive (keys use their id)
        self.depth = 0
        self._const_values: dict[str, Any] = {}
        self._tail_ids: set[int] = set()  # Call nodes compiled as TailCall markers (see fn_body)
        self._affine_active: set[Any] = set()  # _affine_signature of the calls being evaluated

    def reset(self) -> None:
        """Start a new check: fresh memo table."""
        self.memo = {}
        self.keep = []
        self.depth = 0
        self._affine_active = set()

    # ---- spec functions
    def fn_body(self, fn: SpecFn) -> Fn:
        if fn.compiled is None:
            if fn.body is None:
                name = fn.name
                why = (
                    f"spec fn {name} does not parse: {fn.error}"
                    if fn.error
                    else f"spec fn {name} has no body"
                )

                def no_body(env: dict[str, Any]) -> Any:
                    raise rt.SpecUnsupported(why)

                fn.compiled = no_body
            else:
                saved = self._tail_ids
                # self-calls in tail position compile to a TailCall marker that call_fn loops on
                self._tail_ids = tail_self_calls(fn.body, lambda c: self._fn_of(c) is fn)
                try:
                    fn.compiled = self.compile(fn.body, frozenset(n for n, _ in fn.params))
                except rt.SpecError as exc:
                    err = exc

                    def failed(env: dict[str, Any]) -> Any:
                        raise err

                    fn.compiled = failed
                finally:
                    self._tail_ids = saved
        return fn.compiled

    def _probe(self, fn: SpecFn, args: list[Any]) -> tuple[Any, Any]:
        """(memo key or None when an argument is unhashable, memoised value or ``_MISS``)."""
        key = (fn.name, *(_memo_key(a) for a in args))
        try:
            return key, self.memo.get(key, _MISS)
        except TypeError:  # unhashable argument (a closure, a tuple holding a stand-in): no memo
            return None, _MISS

    def call_fn(self, fn: SpecFn, args: list[Any]) -> Any:
        """Call spec fn ``fn`` (memoised, 1 step per call). Tail self-calls (``tailcalls``) come back as
        ``TailCall`` markers and run as a loop: each is charged and memoised like a nested call (all
        calls of the chain have the final value), none adds recursion depth."""
        limits.charge(1)
        key, val = self._probe(fn, args)
        if val is not _MISS:
            return val
        body = self.fn_body(fn)
        if self.depth >= linrec.FROM_DEPTH and not self.depth % linrec.EVERY and not _AFFINE_LIVE[0]:
            fast = self._linrec(fn, args, key)
            if fast is not _MISS:
                return fast
        self.depth += 1
        if self.depth > limits.current().limits.max_depth:
            self.depth = 0
            raise LimitExceeded("depth", f"spec recursion deeper than {limits.current().limits.max_depth}")
        chain: list[tuple[Any, list[Any]]] = []
        sigs: list[Any] = []
        try:
            while True:
                if len(args) != len(fn.params):
                    raise rt.SpecUnsupported(f"spec fn {fn.name} called with {len(args)} arguments")
                sig = _affine_signature(fn, args) if _AFFINE_LIVE[0] else None
                if sig is not None:
                    if sig in self._affine_active:
                        # f(…, x - 1, …) inside f(…, x, …) with every other argument equal: the recursion
                        # runs on the stand-in itself and would only peel the range one value at a time;
                        # NotAffine unless a tail proof (affine_tails) answers it by a hypothesis
                        val = affine_tails.answer(self, fn, args)
                        chain.append((key, args))
                        break
                    self._affine_active.add(sig)
                    sigs.append(sig)
                chain.append((key, args))
                val = body({n: a for (n, _), a in zip(fn.params, args)})
                if val.__class__ is not TailCall:
                    break
                limits.charge(1)
                args = val.args
                key, val = self._probe(fn, args)
                if val is not _MISS:
                    break
        finally:
            self.depth -= 1
            for sig in sigs:
                self._affine_active.discard(sig)
        for key, args in chain:
            if key is None:
                continue
            for a in args:
                if (isinstance(a, tuple) and len(a) > 16) or isinstance(a, rt.Fresh):
                    self.keep.append(a)
                elif a.__class__ is Affine:
                    self.keep.append(a.cell)
            self.memo[key] = val
        return val

    def _linrec(self, fn: SpecFn, args: list[Any], key: Any) -> Any:
        """A long linear self-recursion summed in closed form (``linrec.py``); ``_MISS``: call by call."""
        off = ("#linrec-off", id(fn))  # in the memo: forgotten with it when the next check starts
        if off in self.memo or any(isinstance(a, rt.Fresh) for a in args):
            return _MISS
        _AFFINE_LIVE[0] += 1
        try:
            got = linrec.accelerate(self, fn, args)
        except linrec.Unfit:
            got = None
            self.memo[off] = True
        finally:
            _AFFINE_LIVE[0] -= 1
        if got is None:
            return _MISS
        val = _arith("+", got[0], self.call_fn(fn, got[1]))  # got[1]: the base case, reached at once
        if key is not None:
            self.keep.extend(a for a in args if isinstance(a, tuple) and len(a) > 16)
            self.memo[key] = val
        return val

    def lookup_fn(self, segs: tuple[str, ...]) -> SpecFn | None:
        name = segs[-1]
        fn = self.ctx.fns.get(name)
        if fn is None:
            return None
        if len(segs) == 1 or segs[0] in ("Self", "Solution", "crate", "self") or segs[-2] == fn.owner:
            return fn
        return fn if segs[-2] in self.ctx.structs or segs[-2] == "Solution" else None

    def inline_call(self, call: Call) -> Expr | None:
        """A boolean spec fn's body with the arguments substituted (for quantifier bounds)."""
        if not isinstance(call.func, Path):
            return None
        fn = self.lookup_fn(call.func.segments)
        if fn is None or fn.body is None or len(fn.params) != len(call.args):
            return None
        if not (isinstance(fn.ret, TCon) and fn.ret.name == "bool"):
            return None
        try:
            return substitute(fn.body, {n: a for (n, _), a in zip(fn.params, call.args)})
        except _Opaque:
            return None

    def expand_call(self, call: Call) -> Expr | None:
        """The body of a simple arithmetic spec fn (no branching, binding or recursion), arguments substituted."""
        if not isinstance(call.func, Path):
            return None
        fn = self.lookup_fn(call.func.segments)
        if fn is None or fn.body is None or len(fn.params) != len(call.args) or not _simple(fn.body, fn.name):
            return None
        try:
            return substitute(fn.body, {n: a for (n, _), a in zip(fn.params, call.args)})
        except _Opaque:
            return None

    def const_value(self, name: str) -> Any:
        if name not in self._const_values:
            f = self.compile(self.ctx.consts[name], frozenset())
            self._const_values[name] = f({})
        return self._const_values[name]

    # ---- expressions
    def compile(self, e: Expr, scope: frozenset[str]) -> Fn:
        method = getattr(self, "c_" + type(e).__name__, None)
        if method is None:
            raise rt.SpecUnsupported(f"{type(e).__name__} expressions are not supported")
        return method(e, scope)

    def c_Lit(self, e: Lit, scope: frozenset[str]) -> Fn:
        v = e.value
        if e.kind == "str":
            v = rt.RString(v)
        return lambda env: v

    def c_Path(self, e: Path, scope: frozenset[str]) -> Fn:
        segs = e.segments
        name = segs[-1]
        if len(segs) == 1 and name in scope:
            return lambda env: env[name]
        joined = "::".join(segs)
        if joined in _INT_CONSTS:
            v = _INT_CONSTS[joined]
            return lambda env: v
        if name == "None" and len(segs) == 1:
            return lambda env: None
        if name in self.ctx.consts and (len(segs) == 1 or segs[0] in ("Self", "Solution", "crate")):
            return lambda env: self.const_value(name)
        if len(segs) >= 2 and segs[-2] in self.ctx.enums:
            var = rt.Variant(name)
            return lambda env: var
        if joined in ("Seq::empty", "Set::empty", "Multiset::empty"):
            raise rt.SpecUnsupported(f"{joined} must be called")
        fn = self.lookup_fn(segs)
        if fn is not None and not fn.params:
            return lambda env: self.call_fn(fn, [])
        raise rt.SpecUnsupported(f"unknown name {joined} (line {e.line})")

    def c_Call(self, e: Call, scope: frozenset[str]) -> Fn:
        args = [self.compile(a, scope) for a in e.args]
        if isinstance(e.func, Path):
            segs = e.func.segments
            name = segs[-1]
            joined = "::".join(segs)
            if len(segs) == 1 and name in scope:
                return self._call_closure(name, args)
            if name == "Some" and len(segs) == 1 and len(args) == 1:
                a0 = args[0]
                return lambda env: Some(a0(env))
            if joined in ("Seq::new",) and len(args) == 2:
                n_f, f_f = args

                def seq_new(env: dict[str, Any]) -> Any:
                    n = _int(n_f(env), "Seq::new length")
                    if n < 0:
                        raise rt.Unspecified("Seq::new with a negative length")
                    limits.current().check_size(n)
                    f = f_f(env)
                    return tuple(f(i) for i in range(n))

                return seq_new
            if joined in ("Seq::empty", "Seq::<int>::empty") or (
                len(segs) >= 2 and segs[-2] == "Seq" and name == "empty"
            ):
                return lambda env: ()
            if len(segs) >= 2 and segs[-2] == "Set" and name == "empty":
                return lambda env: frozenset()
            if len(segs) >= 2 and segs[-2] == "Multiset" and name == "empty":
                return lambda env: rt.Multiset()
            if len(segs) >= 2 and segs[-2] in self.ctx.enums:
                vname = name

                def variant(env: dict[str, Any]) -> Any:
                    return rt.Variant(vname, tuple(a(env) for a in args))

                return variant
            if joined == "old" and len(e.args) == 1:
                return self._old(e.args[0], scope)
            fn = self.lookup_fn(segs)
            if fn is not None and id(e) in self._tail_ids:
                return lambda env: TailCall([a(env) for a in args])
            if fn is not None:

                def spec_call(env: dict[str, Any], fn: SpecFn = fn) -> Any:
                    return self.call_fn(fn, [a(env) for a in args])

                return spec_call
            builtin_name = self.ctx.aliases.get(name, name) if len(segs) == 1 else name
            if segs[0] == "vstd" or len(segs) == 1:
                b = _BUILTINS.get(builtin_name)
                if b is not None:
                    return lambda env: b(*(a(env) for a in args))
            raise rt.SpecUnsupported(f"unknown function {joined} (line {e.line})")
        f_f = self.compile(e.func, scope)
        return lambda env: f_f(env)(*(a(env) for a in args))

    def _old(self, arg: Expr, scope: frozenset[str]) -> Fn:
        """``old(x)``: the pre-call value of mutable argument ``x`` (``#old#x`` in the environment);
        outside a two-state context (``requires``, pure functions) ``x`` itself."""
        while isinstance(arg, Unary) and arg.op == "*":
            arg = arg.expr
        if not (isinstance(arg, Path) and len(arg.segments) == 1 and arg.segments[0] in scope):
            raise rt.SpecUnsupported(f"old(...) of something other than a mutable argument (line {arg.line})")
        name = arg.segments[0]
        key = "#old#" + name
        return lambda env: env[key] if key in env else env[name]

    def _call_closure(self, name: str, args: list[Fn]) -> Fn:
        def call(env: dict[str, Any]) -> Any:
            f = env[name]
            if not callable(f):
                raise rt.SpecUnsupported(f"{name} is not a function")
            return f(*(a(env) for a in args))

        return call

    def c_MethodCall(self, e: MethodCall, scope: frozenset[str]) -> Fn:
        recv = self.compile(e.recv, scope)
        args = [self.compile(a, scope) for a in e.args]
        name = e.name
        fn = self.ctx.fns.get(name)
        if fn is not None and fn.params and fn.params[0][0] == "self":
            return lambda env: self.call_fn(fn, [recv(env), *(a(env) for a in args)])
        if name in ("spec_index", "index") and len(args) == 1:
            return lambda env: rt.seq_index(rt.view(recv(env)), args[0](env))
        if name == "len" and not args:

            def length(env: dict[str, Any]) -> Any:
                v = recv(env)
                if isinstance(v, tuple | str | frozenset | rt.Multiset):
                    return len(v)
                return rt.call_method(v, "len", [])

            return length
        return lambda env: rt.call_method(recv(env), name, [a(env) for a in args])

    def c_Field(self, e: Field, scope: frozenset[str]) -> Fn:
        obj = self.compile(e.obj, scope)
        name = e.name
        if name.startswith("->"):
            want = name[2:]

            def variant_field(env: dict[str, Any]) -> Any:
                v = obj(env)
                if isinstance(v, Some) and want in ("0", "Some_0"):
                    return v.val
                if v is None:
                    raise rt.Unspecified(f"->{want} of None")
                if isinstance(v, rt.Variant):
                    vname, _, idx = want.rpartition("_")
                    if want.isdigit():
                        vname, idx = v.name, want
                    if vname == v.name and idx.isdigit() and int(idx) < len(v.fields):
                        return v.fields[int(idx)]
                    raise rt.Unspecified(f"->{want} of variant {v.name}")
                raise rt.SpecUnsupported(f"->{want} of {type(v).__name__}")

            return variant_field
        if name.isdigit():
            k = int(name)

            def tuple_field(env: dict[str, Any]) -> Any:
                v = obj(env)
                if isinstance(v, tuple) and k < len(v):
                    return v[k]
                if isinstance(v, rt.Variant) and k < len(v.fields):
                    return v.fields[k]
                raise rt.SpecUnsupported(f"field .{k} of {type(v).__name__}")

            return tuple_field

        def struct_field(env: dict[str, Any]) -> Any:
            v = obj(env)
            if isinstance(v, Struct):
                try:
                    return v.field(name)
                except KeyError:
                    raise rt.SpecUnsupported(f"no field {name} in {v.name}") from None
            raise rt.SpecUnsupported(f"field {name} of {type(v).__name__}")

        return struct_field

    def c_Index(self, e: Index, scope: frozenset[str]) -> Fn:
        obj = self.compile(e.obj, scope)
        idx = self.compile(e.index, scope)
        return lambda env: rt.seq_index(rt.view(obj(env)), idx(env))

    def c_View(self, e: View, scope: frozenset[str]) -> Fn:
        obj = self.compile(e.obj, scope)
        return lambda env: rt.view(obj(env))

    def c_Unary(self, e: Unary, scope: frozenset[str]) -> Fn:
        inner = self.compile(e.expr, scope)
        if e.op in ("&", "*"):
            return inner
        if e.op == "-":

            def neg(env: dict[str, Any]) -> Any:
                v = inner(env)
                return -v if v.__class__ is Affine else -_int(v, "negation")

            return neg
        if e.op == "!":
            width = _unsigned_width(e.expr)

            def not_(env: dict[str, Any]) -> Any:
                v = inner(env)
                if isinstance(v, bool):
                    return not v
                v = _int(v, "!")
                if width is not None:
                    return ((1 << width) - 1) ^ v
                if v < 0 or _is_signed_literal(e.expr):
                    return ~v  # two's complement: right for every signed width
                raise rt.SpecUnsupported("bitwise ! on an integer of unknown type")

            return not_
        raise rt.SpecUnsupported(f"unary {e.op}")

    def c_Binary(self, e: Binary, scope: frozenset[str]) -> Fn:
        lhs = self.compile(e.lhs, scope)
        rhs = self.compile(e.rhs, scope)
        op = e.op
        if op == "&&":
            return _connective(lhs, rhs, False, False)
        if op == "||":
            return _connective(lhs, rhs, True, False)
        if op == "==>":
            return _connective(lhs, rhs, True, True)
        if op == "<==":
            return _connective(rhs, lhs, True, True)
        if op == "<==>":
            return lambda env: _truth(lhs(env)) == _truth(rhs(env))
        return lambda env: _arith(op, lhs(env), rhs(env))

    def c_Chain(self, e: Chain, scope: frozenset[str]) -> Fn:
        xs = [self.compile(x, scope) for x in e.operands]
        ops = e.ops
        if len(ops) == 1:
            op = ops[0]
            a_f, b_f = xs
            return lambda env: _cmp(op, a_f(env), b_f(env))

        def chain(env: dict[str, Any]) -> bool:
            a = xs[0](env)
            for op, f in zip(ops, xs[1:]):
                b = f(env)
                if not _cmp(op, a, b):
                    return False
                a = b
            return True

        return chain

    def c_Cast(self, e: Cast, scope: frozenset[str]) -> Fn:
        inner = self.compile(e.expr, scope)
        t = e.type
        if not isinstance(t, TCon) or t.args:
            raise rt.SpecUnsupported(f"cast to {t}")
        target = t.name

        def cast(env: dict[str, Any]) -> Any:
            v = inner(env)
            return affine.cast(v, target) if v.__class__ is Affine else rt.cast(v, target)

        return cast

    def c_If(self, e: If, scope: frozenset[str]) -> Fn:
        c = self.compile(e.cond, scope)
        a = self.compile(e.then, scope)
        b = self.compile(e.else_, scope) if e.else_ is not None else (lambda env: ())
        return lambda env: a(env) if _truth(c(env)) else b(env)

    def c_Block(self, e: Block, scope: frozenset[str]) -> Fn:
        steps: list[tuple[Pat, Fn]] = []
        sc = scope
        for let in e.lets:
            steps.append((let.pat, self.compile(let.value, sc)))
            sc = sc | _pat_binds(let.pat)
        tail = self.compile(e.tail, sc)

        def block(env: dict[str, Any]) -> Any:
            env = dict(env)
            for pat, f in steps:
                if not _match(pat, f(env), env):
                    raise rt.Unspecified("let pattern does not match")
            return tail(env)

        return block

    def c_Match(self, e: Match, scope: frozenset[str]) -> Fn:
        scrut = self.compile(e.scrutinee, scope)
        arms = []
        for pat, guard, body in e.arms:
            sc = scope | _pat_binds(pat)
            arms.append((pat, self.compile(guard, sc) if guard is not None else None, self.compile(body, sc)))

        def match(env: dict[str, Any]) -> Any:
            v = scrut(env)
            for pat, g, body in arms:
                env2 = dict(env)
                if _match(pat, v, env2) and (g is None or _truth(g(env2))):
                    return body(env2)
            raise rt.Unspecified("no match arm applies")

        return match

    def c_Closure(self, e: Closure, scope: frozenset[str]) -> Fn:
        names = [n for n, _ in e.params]
        body = self.compile(e.body, scope | set(names))

        def make(env: dict[str, Any]) -> Any:
            def closure(*args: Any) -> Any:
                if len(args) != len(names):
                    raise rt.SpecUnsupported("closure called with the wrong number of arguments")
                env2 = dict(env)
                env2.update(zip(names, args))
                return body(env2)

            return closure

        return make

    def c_Tuple(self, e: Tuple, scope: frozenset[str]) -> Fn:
        items = [self.compile(x, scope) for x in e.items]
        return lambda env: tuple(f(env) for f in items)

    def c_SeqLit(self, e: SeqLit, scope: frozenset[str]) -> Fn:
        items = [self.compile(x, scope) for x in e.items]
        return lambda env: tuple(f(env) for f in items)

    def c_StructLit(self, e: StructLit, scope: frozenset[str]) -> Fn:
        name = e.name[-1]
        order = self.ctx.structs.get(name)
        fields = [(f, self.compile(x, scope)) for f, x in e.fields]
        if order is None:
            if len(e.name) >= 2 and e.name[-2] in self.ctx.enums:
                return lambda env: rt.Variant(name, tuple(f(env) for _, f in fields))
            raise rt.SpecUnsupported(f"unknown struct {name}")
        pos = {f: k for k, f in enumerate(order)}
        fields.sort(key=lambda kv: pos.get(kv[0], len(pos)))
        return lambda env: Struct(name, tuple((f, g(env)) for f, g in fields))

    # ---- quantifiers
    def c_Quant(self, q: Quant, scope: frozenset[str]) -> Fn:
        plans = plan_quantifier(q, self.inline_call, self.expand_call, self._fn_of)
        names = [p.name for p in plans]
        binders: list[_Binder] = []
        for k, p in enumerate(plans):
            sc = scope | set(names[:k])
            binders.append(self._binder(p, sc))
        body = self.compile(q.body, scope | set(names))
        quant = _Quantifier(q.kind, binders, body, q.line)
        quant.guards = prune.prefix_guards(q, self.inline_call, self.compile, scope)
        quant.ground = prune.ground_terms(q, self.compile, scope)
        quant.source = (self, q.body)  # for the interval branch and bound (intervals.py)
        quant.matching = seq_matchings.prepare(
            q, self.inline_call, plans, lambda e, extra: self.compile(e, scope | set(names) | extra)
        )
        return quant.run

    def _fn_of(self, call: Call) -> SpecFn | None:
        return self.lookup_fn(call.func.segments) if isinstance(call.func, Path) else None

    def _binder(self, p: Any, sc: frozenset[str]) -> _Binder:
        b = _Binder(
            p.name,
            p.type,
            [self.compile(x, sc) for x in p.fixed],
            [(self.compile(x, sc), s) for x, s in p.lowers],
            [(self.compile(x, sc), s) for x, s in p.uppers],
        )
        if p.enum_guards and isinstance(p.type, TCon) and p.type.name in self.ctx.enums:
            b.enum_domain = enum_domains.make_generator(self, p.type.name, p.enum_guards, sc)
        if p.length is not None and p.elem is not None:
            b.length = self._binder(p.length, sc)
            b.elem = self._binder(p.elem, sc | {p.length.name})
            b.perm_of = [self.compile(x, sc) for x in p.perm_of]
            elem_exprs = [x for x, _ in p.elem.lowers + p.elem.uppers] + list(p.elem.fixed)
            if p.sum_to and all(p.length.name not in free_vars(x) for x in elem_exprs):
                b.sum_to = [self.compile(x, sc) for x in p.sum_to]
            b.sum_caps = [self.compile(x, sc) for x in p.sum_caps]
            b.order_free = p.order_free and (p.tuple_fields is not None or not _is_tuple_seq(p.type))
            if p.cover is not None and b.order_free:
                b.cover = seq_covers.compile_cover(p.cover, self.compile, sc, p.name)
            if p.order_free and p.tuple_fields:
                fsc = sc | {p.length.name} | {f.name for f in p.tuple_fields}
                b.tuple_fields = [
                    (f.name, [(self.compile(e, fsc), st) for e, st in f.lowers],
                     [(self.compile(e, fsc), st) for e, st in f.uppers], [self.compile(e, fsc) for e in f.fixed])
                    for f in p.tuple_fields
                ]  # fmt: skip
            b.choices = [(j, [self.compile(e, sc | {j}) for e in es]) for j, es in p.choices]
            if p.path is not None:
                b.path = seq_paths.compile_shape(
                    p.path, p.name, elem_exprs, lambda e: self.compile(e, sc | {p.name})
                )
            if p.walk is not None:
                b.walk = seq_walks.compile_shape(
                    p.walk, p.name, elem_exprs, lambda e: self.compile(e, sc | {p.name})
                )
            if p.monotone is not None:
                lname = p.length.name
                b.monotone = p.monotone
                b.pins = [
                    (self.compile(i, sc | {lname}), self.compile(v, sc), w)
                    for i, v, w in p.pins
                    if lname not in free_vars(v)
                ]
                b.uniform = all(
                    lname not in free_vars(x)
                    for x, _ in p.elem.lowers + p.elem.uppers + [(f, 0) for f in p.elem.fixed]
                ) and all(w for _, _, w in p.pins)
        return b


def _pat_binds(p: Pat) -> frozenset[str]:
    if isinstance(p, PBind):
        return frozenset({p.name})
    if isinstance(p, PTuple):
        out: frozenset[str] = frozenset()
        for x in p.items:
            out |= _pat_binds(x)
        return out
    if isinstance(p, PVariant):
        out = frozenset()
        for x in p.items:
            out |= _pat_binds(x)
        for _, x in p.named or ():
            out |= _pat_binds(x)
        return out
    return frozenset()


def _match(p: Pat, v: Any, env: dict[str, Any]) -> bool:
    if isinstance(p, PWild):
        return True
    if isinstance(p, PBind):
        env[p.name] = v
        return True
    if isinstance(p, PLit):
        return bool(v == p.value)
    if isinstance(p, PTuple):
        if not isinstance(v, tuple) or len(v) != len(p.items):
            return False
        return all(_match(x, y, env) for x, y in zip(p.items, v))
    if isinstance(p, PVariant):
        name = p.path[-1]
        if name == "None":
            return v is None
        if name == "Some":
            return isinstance(v, Some) and len(p.items) == 1 and _match(p.items[0], v.val, env)
        if isinstance(v, rt.Variant):
            if v.name != name:
                return False
            if p.named is not None:
                raise rt.SpecUnsupported("struct-like enum variants are not supported")
            return len(p.items) == len(v.fields) and all(_match(x, y, env) for x, y in zip(p.items, v.fields))
        if isinstance(v, Struct) and v.name == name and p.named is not None:
            return all(_match(x, v.field(f), env) for f, x in p.named)
        return False
    raise rt.SpecUnsupported("pattern")


@dataclass
class _Binder:
    name: str
    type: Type
    fixed: list[Fn]
    lowers: list[tuple[Fn, bool]]
    uppers: list[tuple[Fn, bool]]
    length: _Binder | None = None  # sequence binders: the length and the elements
    elem: _Binder | None = None
    perm_of: list[Fn] = field(default_factory=list)  # sequence binders: sequences they must permute
    monotone: str | None = None  # sequence binders: "strict"/"weak" increasing elements
    pins: list[tuple[Fn, Fn, str]] = field(default_factory=list)  # sequence binders: x[index] == value
    uniform: bool = False  # element bounds and pins independent of the length (see seq_domains)
    sum_to: list[Fn] = field(default_factory=list)  # sequence binders: sum(x) == value (see seq_sums)
    path: Any = None  # sequence binders: a compiled path predicate (see seq_paths)
    walk: Any = None  # sequence binders: a compiled walk predicate with length conditions (seq_walks)
    cover: Any = None  # order-free sequence binders: a compiled additive vector equation (seq_covers)
    choices: list[tuple[str, list[Fn]]] = field(default_factory=list)  # x[i] in {e1(i), ...} (seq_choices)
    enum_domain: Callable[[dict[str, Any]], Any] | None = None  # user enum binders (enum_domains)
    sum_caps: list[Fn] = field(default_factory=list)  # forall: counterexamples have sum(x) <= e (seq_sumcaps)
    order_free: bool = False  # sequence binders: sorted sequences suffice (seq_multisets)
    tuple_fields: list[Any] = field(default_factory=list)  # (name, lowers, uppers, fixed) per tuple field

    def int_range(
        self, env: dict[str, Any], base: tuple[int | None, int | None]
    ) -> tuple[int | None, int | None]:
        """``base`` narrowed by the binder's bounds (and fixed values) evaluated in ``env``."""
        lo, hi = base
        for f, strict in self.lowers:
            raw = f(env)
            if raw is None:  # a conditional bound that does not apply here
                continue
            v = _bound_int(raw)
            v = v + 1 if strict else v
            lo = v if lo is None else max(lo, v)
        for f, strict in self.uppers:
            raw = f(env)
            if raw is None:
                continue
            v = _bound_int(raw)
            v = v - 1 if strict else v
            hi = v if hi is None else min(hi, v)
        for f in self.fixed:
            v = f(env)
            if (isinstance(v, int) and not isinstance(v, bool)) or v.__class__ is Affine:
                lo = v if lo is None else max(lo, v)
                hi = v if hi is None else min(hi, v)
        return lo, hi

    def concrete_range(
        self, env: dict[str, Any], base: tuple[int | None, int | None]
    ) -> tuple[int | None, int | None]:
        """``int_range`` as integers: bounds that are an outer binder's affine stand-in either leave the
        range empty for the whole piece (returned as ``(1, 0)``) or raise ``NotAffine``."""
        return _concrete(*self.int_range(env, base))

    def type_range(self) -> tuple[int | None, int | None] | None:
        """Integer range of the binder's type; None for non-integer types."""
        t = self.type
        if not isinstance(t, TCon) or t.args:
            return None
        if t.name in INT_RANGES:
            return INT_RANGES[t.name]
        if t.name == "nat":
            return (0, None)
        if t.name == "int":
            return (None, None)
        return None

    def is_scalar(self) -> bool:
        return (
            isinstance(self.type, TCon)
            and not self.type.args
            and (self.type.name in INT_RANGES or self.type.name in ("int", "nat", "char"))
        )

    def valid(self, v: Any) -> bool:
        """Is ``v`` a value of the binder's type?"""
        rng = self.type_range()
        if rng is not None:
            if isinstance(v, bool) or not isinstance(v, int):
                return False
            lo, hi = rng
            return (lo is None or v >= lo) and (hi is None or v <= hi)
        if isinstance(self.type, TCon) and self.type.name == "char":
            return isinstance(v, str) and len(v) == 1
        return True


class _Open:
    """No enumerable domain for a scalar binder within ``[lo, hi]`` (None: unbounded): first the
    equality-only ``Fresh`` stand-in, then (``affine``) the affine stand-in over the range, then a search."""

    __slots__ = ("affine", "hi", "lo")

    def __init__(self, lo: int | None, hi: int | None, affine: bool) -> None:
        self.lo = lo
        self.hi = hi
        self.affine = affine


def _bound_int(v: Any) -> Any:
    if isinstance(v, str) and len(v) == 1:
        return ord(v)
    if v.__class__ is Affine:  # an outer binder's stand-in: compared, never enumerated (``_concrete``)
        return v
    return _int(v, "a quantifier bound")


def _affine_value(b: _Binder, v: Affine) -> Affine | None:
    """The stand-in ``v`` as a value of binder ``b`` (its type's range checked by comparisons, which
    may split), None when outside it; ``NotAffine`` for a non-integer binder."""
    rng = b.type_range()
    if rng is None:
        raise affine.NotAffine(f"binder {b.name} is fixed to binder {v.cell.name}")
    lo, hi = rng
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        return None
    return v


def _concrete(lo: Any, hi: Any) -> tuple[int | None, int | None]:
    """A range whose bounds may be affine stand-ins as integers: ``(1, 0)`` when it is empty for the
    whole piece (the comparison may split it), else ``NotAffine`` if a bound is a stand-in."""
    if lo.__class__ is not Affine and hi.__class__ is not Affine:
        return lo, hi
    if lo is not None and hi is not None and hi < lo:
        return 1, 0
    raise affine.NotAffine("a quantifier range depends on an outer binder's stand-in")


_CONCRETE_PIECE = 4  # a piece of the affine strategy with at most this many values is enumerated
_CONCRETE_FALLBACK = 65_536  # a finite piece outside the affine fragment with fewer values is enumerated
_MAX_PIECES = 4096  # pieces of one affine run before it gives up (back to the search)
SEARCH_CAP = 4096  # values tried for a binder without a finite domain (semi-decision)


def _search_order(lo: int | None, hi: int | None) -> Iterator[int]:
    """Values of a binder with at most one finite bound, nearest to that bound (or to 0) first."""
    if lo is not None:
        return iter(range(lo, lo + SEARCH_CAP))
    if hi is not None:
        return iter(range(hi, hi - SEARCH_CAP, -1))

    def around_zero() -> Iterator[int]:
        yield 0
        for k in range(1, SEARCH_CAP // 2):
            yield k
            yield -k

    return around_zero()


class _Domain:
    """The values a binder ranges over; ``complete`` is False for a search prefix. ``open_range``: the
    binder's whole range ``(lo, hi)`` when the prefix is of an integer binder (tried as an affine
    stand-in before the search)."""

    __slots__ = ("complete", "open_range", "values", "why", "widened")

    def __init__(
        self,
        values: Iterable[Any],
        complete: bool = True,
        why: str = "",
        open_range: tuple[int | None, int | None] | None = None,
    ) -> None:
        self.values = values
        self.complete = complete
        self.why = why
        self.open_range = open_range
        self.widened = False  # a bound through an outer binder's stand-in was dropped (``_widened``)


SEQ_CAP = 200_000  # sequences tried for one sequence binder


def _elem_ok(t: Type, v: Any) -> bool:
    if not isinstance(t, TCon):
        return True
    if t.name in INT_RANGES or t.name in ("int", "nat"):
        if isinstance(v, bool) or not isinstance(v, int):
            return False
        lo, hi = INT_RANGES.get(t.name, (0 if t.name == "nat" else None, None))
        return (lo is None or v >= lo) and (hi is None or v <= hi)
    if t.name == "bool":
        return isinstance(v, bool)
    if t.name == "char":
        return isinstance(v, str) and len(v) == 1
    if t.name == "Tuple":  # a Seq<(int, int)> binder takes pairs, never the environment's integers
        return (
            isinstance(v, tuple) and len(v) == len(t.args) and all(_elem_ok(a, x) for a, x in zip(t.args, v))
        )
    if t.name in ("Seq", "Vec") and t.args:
        return isinstance(v, tuple) and all(_elem_ok(t.args[0], x) for x in v)
    return True


def _env_sequences(env: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Sequences found in the environment (and one level inside), for witness candidates."""
    out: list[tuple[Any, ...]] = []

    def add(v: Any, depth: int) -> None:
        if isinstance(v, str) and len(v) != 1:
            v = tuple(v)
        if isinstance(v, tuple):
            out.append(v)
            if depth < 1:
                for x in v:
                    if isinstance(x, tuple | str):
                        add(x, depth + 1)
        elif isinstance(v, Some):
            add(v.val, depth)
        elif isinstance(v, Struct):
            for _, x in v.fields:
                add(x, depth)

    for k in sorted(env):
        if "#" not in k:
            add(env[k], 0)
    return out


def _index_map(p: tuple[Any, ...], s: tuple[Any, ...]) -> tuple[int, ...] | None:
    """Indices r with p[i] == s[r[i]], each index used once (greedy), if p is a rearrangement of s."""
    used: set[int] = set()
    out: list[int] = []
    for x in p:
        for k, y in enumerate(s):
            if k not in used and y == x:
                used.add(k)
                out.append(k)
                break
        else:
            return None
    return tuple(out)


def _seq_candidates(env: dict[str, Any], elem_t: Type) -> list[tuple[Any, ...]]:
    seqs = _env_sequences(env)
    cands: list[tuple[Any, ...]] = []
    for q in seqs:
        variants = [q, q[::-1]]
        try:
            variants += [tuple(sorted(q)), tuple(sorted(q, reverse=True))]
        except TypeError:
            pass
        cands.extend(variants)
    for a in seqs:
        for b in seqs:
            if a is not b and len(a) == len(b):
                m = _index_map(a, b)
                if m is not None:
                    cands.append(m)
    out: list[tuple[Any, ...]] = []
    seen: set[Any] = set()
    for c in cands:
        if all(_elem_ok(elem_t, x) for x in c):
            try:
                if c in seen:
                    continue
                seen.add(c)
            except TypeError:
                pass
            out.append(c)
    return out


def _distinct_permutations(src: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    seen: set[tuple[Any, ...]] = set()
    for p in itertools.permutations(src):
        if p not in seen:
            seen.add(p)
            yield p


def _is_tuple_seq(t: Type) -> bool:
    return isinstance(t, TCon) and bool(t.args) and isinstance(t.args[0], TCon) and t.args[0].name == "Tuple"


def _seq_domain(b: _Binder, env: dict[str, Any], line: int) -> _Domain:
    """Sequences for a ``Seq<T>`` binder: witnesses suggested by the environment (sorted, reversed,
    index maps of its sequences), then every sequence within the length and element bounds."""
    assert b.length is not None and b.elem is not None
    if b.path is not None and (walk := seq_paths.walk_for(b, env)) is not seq_paths.UNDECIDED:
        why = f"sequence binder {b.name} of the quantifier at line {line}: the walk found does not decide the body"
        return _Domain([] if walk is None else [walk], walk is None, why)
    if b.walk is not None and (walks := seq_walks.domain_for(b, env)) is not None:
        return _Domain(walks, True)  # one walk per length: complete (seq_walks)
    if b.perm_of and b.monotone is not None:
        # an increasing rearrangement of a sequence of integers can only be that sequence sorted
        src = rt.view(b.perm_of[0](env))
        if isinstance(src, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in src):
            return _Domain([tuple(sorted(src))], True)
    if b.perm_of:
        src = rt.view(b.perm_of[0](env))
        if isinstance(src, tuple):
            count = math.factorial(len(src))
            if count <= SEQ_CAP:
                return _Domain(_distinct_permutations(src), True)
    elem_t = b.type.args[0] if isinstance(b.type, TCon) and b.type.args else TCon("int")
    if b.choices:
        lo, hi = b.length.concrete_range(env, (0, None))
        chosen = seq_choices.domain(b.choices, env, lo, hi, lambda v: _elem_ok(elem_t, v), SEQ_CAP)
        if chosen is not None:
            return _Domain(chosen, True)
    if b.sum_caps and (capped := seq_sumcaps.domain_for(b, env, SEQ_CAP)) is not None:
        return _Domain(capped, True)
    if b.sum_to:
        summed = _sum_domain(b, env, elem_t)
        if summed is not None:
            return summed
    if b.monotone is not None:
        mono = _monotone_domain(b, env, elem_t)
        if mono is not None:
            return mono
    if b.cover is not None and (sols := seq_covers.domain_for(b, env)) is not None:
        return _Domain(sols, True)  # the solutions of an additive equation: complete (seq_covers)
    if b.order_free and (ms := seq_multisets.domain_for(b, env, SEQ_CAP)) is not None:
        return _Domain(ms, True)
    lname = b.length.name
    lo, hi = b.length.concrete_range(env, (0, None))
    cands = [
        c
        for c in _seq_candidates(env, elem_t)
        if (lo is None or len(c) >= lo) and (hi is None or len(c) <= hi)
    ]
    is_bool = isinstance(elem_t, TCon) and elem_t.name == "bool"
    base = (0, 1) if is_bool else (b.elem.type_range() or (None, None))
    plan: list[tuple[int, Sequence[Any]]] = []
    total = 0
    complete = hi is not None and lo is not None
    if complete:
        assert lo is not None and hi is not None
        for n in range(max(lo, 0), hi + 1):
            env2 = dict(env)
            env2[lname] = n
            elo, ehi = b.elem.concrete_range(env2, base)
            if n == 0:
                plan.append((0, []))
                total += 1
                continue
            if elo is None or ehi is None:
                complete = False
                break
            size = 2 if is_bool else max(0, ehi - elo + 1)
            if size > SEQ_CAP or (size > 1 and n * math.log2(size) > 40):
                complete = False
                break
            total += size**n
            if total > SEQ_CAP:
                complete = False
                break
            plan.append((n, [False, True] if is_bool else range(elo, ehi + 1)))
    why = f"sequence binder {b.name} of the quantifier at line {line} cannot be enumerated completely"

    def gen() -> Iterator[tuple[Any, ...]]:
        yield from cands
        if complete:
            for n, vals in plan:
                yield from itertools.product(vals, repeat=n)
            return
        # a search prefix: short sequences over small values and values of the environment
        yield from itertools.islice(_sample_sequences(b, env, elem_t, lo, hi, is_bool), SEQ_CAP // 10)

    return _Domain(gen(), complete, why)


def _sum_domain(b: _Binder, env: dict[str, Any], elem_t: Type) -> _Domain | None:
    """Sequences with elements >= 1 (from the element bounds) summing to the pinned total: the integer
    compositions of the total (``seq_sums``); None when not applicable or above ``SEQ_CAP``."""
    assert b.length is not None and b.elem is not None
    if not (isinstance(elem_t, TCon) and (elem_t.name in INT_RANGES or elem_t.name in ("int", "nat"))):
        return None
    try:
        total = b.sum_to[0](env)
        env2 = dict(env)
        env2[b.length.name] = 0  # the element bounds do not mention the length (checked when compiling)
        lo, hi = b.elem.concrete_range(env2, b.elem.type_range() or (None, None))
        len_lo, len_hi = b.length.concrete_range(env, (0, None))
    except rt.SpecError:
        return None
    if isinstance(total, bool) or not isinstance(total, int) or lo is None or lo < 1:
        return None
    hi = total if hi is None else min(hi, total)
    len_lo = max(len_lo or 0, 0)
    if seq_sums.composition_count(total, lo, hi, len_lo, len_hi, SEQ_CAP) is None:
        return None
    return _Domain(seq_sums.compositions(total, lo, hi, len_lo, len_hi), True)


def _monotone_domain(b: _Binder, env: dict[str, Any], elem_t: Type) -> _Domain | None:
    """All increasing sequences within the length bounds, element bounds and pins (``seq_domains``);
    None when that set is not finite and small (the caller keeps its general strategy)."""
    assert b.length is not None and b.elem is not None
    if not (isinstance(elem_t, TCon) and (elem_t.name in INT_RANGES or elem_t.name in ("int", "nat"))):
        return None
    lname = b.length.name
    base = b.elem.type_range() or (None, None)
    try:
        len_lo, len_hi = b.length.int_range(env, (0, None))
    except rt.SpecError:
        return None

    def elem_range(n: int) -> tuple[int | None, int | None] | None:
        env2 = dict(env)
        env2[lname] = n
        try:
            lo, hi = b.elem.concrete_range(env2, base)  # type: ignore[union-attr]
            for idx_f, val_f, _ in b.pins:
                i, v = idx_f(env2), val_f(env2)
                if (
                    isinstance(i, bool)
                    or not isinstance(i, int)
                    or isinstance(v, bool)
                    or not isinstance(v, int)
                ):
                    continue
                if i == 0:
                    lo = v if lo is None else max(lo, v)
                if i == n - 1:
                    hi = v if hi is None else min(hi, v)
        except rt.SpecError:
            return None
        return lo, hi

    if len_lo.__class__ is Affine and b.monotone == "strict" and b.uniform:
        # a length pinned to an outer binder's stand-in: past the pigeonhole bound of a uniform element
        # range no strictly increasing sequence fits (as ``monotone_plan`` stops); the comparison may split
        rng = elem_range(2)
        if rng is not None and rng[0] is not None and rng[1] is not None:
            if len_lo >= 2 and len_lo > max(0, rng[1] - rng[0] + 1):
                return _Domain([])
    try:
        len_lo, len_hi = _concrete(len_lo, len_hi)
    except rt.SpecError:
        return None
    plan = monotone_plan(b.monotone == "strict", len_lo, len_hi, elem_range, b.uniform, SEQ_CAP)
    if plan is None:
        return None
    return _Domain(iter(plan), True)


def _env_ints(env: dict[str, Any]) -> set[int]:
    out: set[int] = set()

    def add(v: Any) -> None:
        if isinstance(v, bool):
            return
        if isinstance(v, int):
            out.add(v)
        elif isinstance(v, tuple):
            for x in v:
                add(x)
        elif isinstance(v, Some):
            add(v.val)

    for k in sorted(env):
        if "#" not in k:
            add(env[k])
    return out


def _sample_sequences(
    b: _Binder, env: dict[str, Any], elem_t: Type, lo: int | None, hi: int | None, is_bool: bool
) -> Iterator[tuple[Any, ...]]:
    assert b.length is not None and b.elem is not None
    longest = max((len(q) for q in _env_sequences(env)), default=0)
    lmin = max(lo or 0, 0)
    lmax = hi if hi is not None else max(lmin, longest + 1)
    for n in range(lmin, min(lmax, lmin + 12) + 1):
        env2 = dict(env)
        env2[b.length.name] = n
        try:
            elo, ehi = b.elem.concrete_range(
                env2, (0, 1) if is_bool else (b.elem.type_range() or (None, None))
            )
        except rt.SpecError:
            continue
        if is_bool:
            pool: list[Any] = [False, True]
        else:
            if not isinstance(elem_t, TCon) or not (
                elem_t.name in INT_RANGES or elem_t.name in ("int", "nat")
            ):
                return
            vals = _env_ints(env) | {0, 1, -1} | {x for x in (elo, ehi) if x is not None}
            pool = sorted(v for v in vals if (elo is None or v >= elo) and (ehi is None or v <= ehi))
        yield from itertools.product(pool, repeat=n)


class _Quantifier:
    def __init__(self, kind: str, binders: list[_Binder], body: Fn, line: int) -> None:
        self.kind = kind
        self.binders = binders
        self.body = body
        self.line = line
        self.guards: list[list[Fn]] = []  # prune.prefix_guards: conjuncts decided by a binder prefix
        self.ground: list[Fn] = []  # prune.ground_terms: binder-free calls, witness sources
        self.source: tuple[Compiler, Expr] | None = None  # the compiler and the body's syntax
        self.matching: Any = None  # two index sequences pairing distinct indices (seq_matchings)

    def domain(self, b: _Binder, env: dict[str, Any]) -> Any:
        """A ``_Domain`` (a superset of the binder's relevant values, or a search prefix) or ``_Open``."""
        # computing a domain evaluates its bounds: charged, so that nested quantifiers whose inner
        # domains come out empty (no instance reached, nothing else charged) still run out of fuel
        limits.charge(1 + len(b.fixed) + len(b.lowers) + len(b.uppers))
        if b.fixed:
            vals: list[Any] = []
            for f in b.fixed:
                v = f(env)
                if v.__class__ is Affine:  # an outer binder's stand-in: a value if within the type
                    v = _affine_value(b, v)
                if isinstance(v, rt.Fresh) or v.__class__ is Affine or b.valid(v):
                    if not any(v is w or v == w for w in vals):
                        vals.append(v)
                else:
                    return _Domain([])
            return _Domain(vals if len(vals) == 1 else [])  # different fixed values contradict each other
        if isinstance(b.type, TCon) and b.type.name == "bool":
            return _Domain([False, True])
        if b.length is not None and b.elem is not None:
            return _seq_domain(b, env, self.line)
        is_char = isinstance(b.type, TCon) and b.type.name == "char"
        rng = (0, 0x10FFFF) if is_char else b.type_range()
        if rng is None:
            if b.enum_domain is not None and (vals := b.enum_domain(env)) is not None:
                return _Domain(vals)
            raise rt.Unbounded(
                f"binder {b.name}: {b.type} of the quantifier at line {self.line} cannot be enumerated"
            )
        lo, hi = rng
        has_lo = has_hi = False  # bounds that applied (a conditional bound may not: None)
        for f, strict in b.lowers:
            raw = f(env)
            if raw is None:
                continue
            v = _bound_int(raw)
            v = v + 1 if strict else v
            lo = v if lo is None else max(lo, v)
            has_lo = True
        for f, strict in b.uppers:
            raw = f(env)
            if raw is None:
                continue
            v = _bound_int(raw)
            v = v - 1 if strict else v
            hi = v if hi is None else min(hi, v)
            has_hi = True
        explicit = has_lo or has_hi
        if lo.__class__ is Affine or hi.__class__ is Affine:
            return self._widened(b, lo, hi, rng)
        if lo is not None and hi is not None:
            if hi < lo:
                return _Domain([])
            size = hi - lo + 1
            if size <= MAX_RANGE and (explicit or size <= 1024):
                return _Domain([chr(i) for i in range(lo, hi + 1)] if is_char else range(lo, hi + 1))
            if has_lo and has_hi:
                if b.is_scalar() and not is_char:
                    return _Open(lo, hi, True)  # too many to enumerate: the stand-ins may still decide
                raise LimitExceeded("size", f"quantifier binder {b.name} ranges over {size} values")
        if not explicit and b.is_scalar():
            return _Open(lo, hi, not is_char)
        if is_char:
            raise rt.Unbounded(f"char binder {b.name} at line {self.line} is bounded on one side only")
        lo_e = lo if has_lo or (lo is not None and hi is None) else None
        hi_e = hi if lo_e is None else None
        return _Domain(_search_order(lo_e, hi_e), False,
                       f"binder {b.name} of the quantifier at line {self.line} is bounded on one side only",
                       (lo, hi))  # fmt: skip

    def _widened(self, b: _Binder, lo: Any, hi: Any, rng: tuple[int | None, int | None]) -> _Domain:
        """The domain when a bound is an outer binder's affine stand-in: empty if it is empty for the
        whole piece (the comparison may split it); else that bound is dropped for the type's (a
        superset of the relevant values is sound) and the binder is searched from its other bound. A
        search that ends undecided raises ``NotAffine`` (``_Domain.widened``), so the outer binder's
        piece goes back to its other strategies instead of becoming unknown; a finite outer piece of
        fewer than ``_CONCRETE_FALLBACK`` values goes back at once (it is enumerated)."""
        if lo is not None and hi is not None and hi < lo:
            return _Domain([])
        cell = (lo if lo.__class__ is Affine else hi).cell
        if cell.lo is not None and cell.hi is not None and cell.hi - cell.lo < _CONCRETE_FALLBACK:
            # a small outer piece is cheaper enumerated (exactly) than searched here for every split
            raise affine.NotAffine(f"binder {b.name} is bounded by binder {cell.name}")
        lo = rng[0] if lo.__class__ is Affine else lo
        hi = rng[1] if hi.__class__ is Affine else hi
        if lo is not None and hi is not None and hi - lo < SEARCH_CAP:
            return _Domain(range(lo, hi + 1))  # (also keeps the search below within the type's range)
        why = f"binder {b.name} of the quantifier at line {self.line} is bounded by another binder's stand-in"
        order = _search_order(lo, None) if lo is not None else _search_order(None, hi)
        dom = _Domain(order, False, why)
        dom.widened = True
        return dom

    def _fallback(self, b: _Binder) -> _Domain:
        """Search domain for a scalar binder whose ``Fresh`` evaluation failed."""
        lo, hi = b.type_range() or (None, None)
        return _Domain(_search_order(lo, None if lo is not None else hi), False,
                       f"binder {b.name} of the quantifier at line {self.line} is unbounded")  # fmt: skip

    def run(self, env: dict[str, Any]) -> Any:
        env = prune.ground_env(self.ground, env)
        if self.kind == "forall":
            return self._quant(0, dict(env), False)
        if self.kind == "exists":
            return self._quant(0, dict(env), True)
        witnesses: list[Any] = []
        complete = self._choose(0, dict(env), witnesses)
        if len(witnesses) > 1:
            raise rt.Unspecified(f"choose at line {self.line} has several witnesses")
        if not complete:
            raise rt.Unbounded(
                f"choose at line {self.line} over a domain that cannot be enumerated completely"
            )
        if not witnesses:
            raise rt.Unspecified(f"choose at line {self.line} has no witness")
        return witnesses[0]

    def _quant(self, k: int, env: dict[str, Any], exists: bool) -> bool:
        """exists: is the body true for some values of binders k..; forall (exists False): for all."""
        if k == len(self.binders):
            limits.charge(1)
            return _truth(self.body(env))
        if k == 0 and self.matching is not None:
            got = seq_matchings.decide(
                self.matching, self.binders, env, exists, lambda e: self._quant(2, e, exists)
            )
            if got is not None:
                return got
        b = self.binders[k]
        dom = self.domain(b, env)
        if isinstance(dom, _Open):
            try:
                return self._with_fresh(k, env, exists)
            except rt.NotEqualityOnly:
                pass
            if dom.affine:
                try:
                    return self._with_affine(k, env, exists, dom.lo, dom.hi)
                except affine.NotAffine:
                    pass
            got = self._with_intervals(k, env, exists, dom.lo, dom.hi)
            if got is not None:
                return got
            dom = self._fallback(b)
        elif not dom.complete and dom.open_range is not None:
            try:
                return self._with_affine(k, env, exists, *dom.open_range)
            except affine.NotAffine:
                pass
        err: rt.SpecError | None = None
        guards = self.guards[k] if k < len(self.guards) else ()
        for v in dom.values:
            env[b.name] = v
            if guards and prune.fails(guards, env):  # no witness / counterexample with this prefix
                continue
            try:
                r = self._quant(k + 1, env, exists)
            except rt.SpecError as exc:  # that instance is unknown; another may still decide
                err = err or exc
                continue
            if r == exists:
                return exists
        if err is not None:
            raise err
        if not dom.complete:
            found = "witness" if exists else "counterexample"
            if dom.widened:
                raise affine.NotAffine(f"{dom.why}: no {found} among the first {SEARCH_CAP} values")
            rng = dom.open_range
            if rng is not None and rng[0] is not None and rng[1] is None and not affine_tails.ACTIVE:
                tail = affine_tails.decide(self, k, env, exists, rng[0] + SEARCH_CAP, _AFFINE_LIVE)
                if tail is not None:
                    return tail
            raise rt.Unbounded(f"{dom.why}: no {found} among the first {SEARCH_CAP} values")
        return not exists

    def _with_intervals(
        self, k: int, env: dict[str, Any], exists: bool, lo: int | None, hi: int | None
    ) -> Any:
        """The last binder over a finite range by interval branch and bound (``intervals.py``); None when
        not applicable (another binder, an open range, stand-ins of outer binders) or undecided."""
        if k != len(self.binders) - 1 or lo is None or hi is None or self.source is None:
            return None
        if self.binders[k].type_range() is None:  # a char binder: its values are not integers
            return None
        name = self.binders[k].name
        if any(isinstance(v, rt.Fresh) or v.__class__ is Affine for n, v in env.items() if n != name):
            return None
        compiler, body = self.source
        return intervals.decide(compiler, body, name, env, exists, lo, hi,
                                lambda e: self._quant(k + 1, e, exists))  # fmt: skip

    def _with_fresh(self, k: int, env: dict[str, Any], exists: bool) -> bool:
        """Decide binder k through a ``Fresh`` stand-in (raises ``NotEqualityOnly`` when that is unsound)."""
        b = self.binders[k]
        fresh = rt.Fresh(b.name)
        env[b.name] = fresh
        r = self._quant(k + 1, env, exists)
        if r == exists:
            return exists
        seen: list[Any] = []
        seen_plain: set[Any] = set()  # the hashable non-stand-in values of ``seen`` (fast duplicate test)
        seen_fresh: list[Any] = []  # the stand-ins and unhashable values of ``seen``
        err: rt.SpecError | None = None
        for c in list(fresh.compared):
            # another binder's stand-in is a value too (this binder equal to that one)
            if c.__class__ is Affine:  # equal to another binder's affine stand-in: not a value to try
                raise rt.NotEqualityOnly(f"binder {b.name} is compared with binder {c.cell.name}")
            if c is fresh or not (isinstance(c, rt.Fresh) or b.valid(c)):
                continue
            if _seen_before(c, seen, seen_plain, seen_fresh):
                continue
            seen.append(c)
            if isinstance(c, rt.Fresh):
                seen_fresh.append(c)
            else:
                try:
                    seen_plain.add(c)
                except TypeError:
                    seen_fresh.append(c)
            limits.charge(1)
            env[b.name] = c
            try:
                if self._quant(k + 1, env, exists) == exists:
                    return exists
            except rt.SpecError as exc:
                err = err or exc
        if err is not None:
            raise err
        return not exists

    def _with_affine(self, k: int, env: dict[str, Any], exists: bool, lo: int | None, hi: int | None) -> bool:
        """Decide binder k over ``[lo, hi]`` piece by piece with affine stand-ins (``affine.py``: why a
        piece's result holds for every value of it). A piece whose evaluation compares non-uniformly is
        split at the cut and both halves are redone, lower first; pieces of at most ``_CONCRETE_PIECE``
        values are enumerated. ``NotAffine`` (the body leaves the affine fragment) goes to the caller,
        which falls back to its other strategies; other errors make that piece unknown, as an
        enumerated instance would."""
        _AFFINE_LIVE[0] += 1
        try:
            return self._affine_pieces(k, env, exists, lo, hi)
        finally:
            _AFFINE_LIVE[0] -= 1

    def _affine_pieces(
        self, k: int, env: dict[str, Any], exists: bool, lo: int | None, hi: int | None
    ) -> bool:
        found = [False]
        err: list[rt.SpecError | None] = [None]

        def step() -> None:  # the same for a stand-in piece and for one enumerated value
            try:
                r = self._quant(k + 1, env, exists)
            except affine.NotAffine:
                raise
            except rt.SpecError as exc:
                err[0] = err[0] or exc
                return
            if r == exists:
                found[0] = True

        self._walk_pieces(self.binders[k].name, env, lo, hi, step, step, lambda: found[0])
        if found[0]:
            return exists
        if err[0] is not None:
            raise err[0]
        return not exists

    def _walk_pieces(
        self,
        name: str,
        env: dict[str, Any],
        lo: int | None,
        hi: int | None,
        piece: Callable[[], None],
        value: Callable[[], None],
        done: Callable[[], bool],
    ) -> None:
        """The piece loop of ``_with_affine`` and ``_choose_affine``: binds ``name`` in ``env`` to an affine
        stand-in over each piece and calls ``piece`` (a non-uniform comparison splits the piece at its
        cut, both halves redone, lower first; ``NotAffine`` on a finite piece under
        ``_CONCRETE_FALLBACK`` values, or any piece under ``_CONCRETE_PIECE``, enumerates it instead,
        calling ``value`` per value), until ``done()`` or no piece is left. One step is charged per
        piece; more than ``_MAX_PIECES`` is ``NotAffine``."""
        todo: list[tuple[int | None, int | None]] = [(lo, hi)]
        concrete: list[tuple[int, int]] = []  # finite pieces to enumerate value by value
        pieces = 0
        while (todo or concrete) and not done():
            limits.charge(1)
            pieces += 1
            if pieces > _MAX_PIECES:
                raise affine.NotAffine(f"binder {name}: more than {_MAX_PIECES} pieces")
            if concrete:
                p_lo, p_hi = concrete.pop()
                for v in range(p_lo, p_hi + 1):
                    env[name] = v
                    value()
                    if done():
                        break
                continue
            p_lo, p_hi = todo.pop()
            if p_lo is not None and p_hi is not None and p_hi - p_lo < _CONCRETE_PIECE:
                concrete.append((p_lo, p_hi))
                continue
            cell = affine.Cell(name, p_lo, p_hi)
            env[name] = Affine(cell, 1, 0)
            try:
                piece()
            except affine.Split as sp:
                if sp.cell is not cell:
                    raise
                todo.append((sp.t + 1, p_hi))
                todo.append((p_lo, sp.t))
            except affine.NotAffine:
                # a finite piece is still enumerable (e.g. a length pinned to the binder); an infinite or
                # huge one is left to the caller's other strategies
                if p_lo is None or p_hi is None or p_hi - p_lo >= _CONCRETE_FALLBACK:
                    raise
                concrete.append((p_lo, p_hi))

    def _choose_affine(
        self, k: int, env: dict[str, Any], out: list[Any], lo: int | None, hi: int | None
    ) -> bool:
        """``choose`` over the last binder's whole range with affine stand-ins (as ``_with_affine``):
        a piece of two or more values where the body holds gives two witnesses (``choose`` is then
        unspecified), small pieces are enumerated. The enumeration is complete."""
        _AFFINE_LIVE[0] += 1
        try:
            return self._choose_pieces(k, env, out, lo, hi)
        finally:
            _AFFINE_LIVE[0] -= 1

    def _choose_pieces(
        self, k: int, env: dict[str, Any], out: list[Any], lo: int | None, hi: int | None
    ) -> bool:
        def piece() -> None:
            if _truth(self.body(env)):  # every value of the piece (two or more) is a witness
                out.extend([_SEVERAL, _SEVERAL])

        def value() -> None:
            self._choose(k + 1, env, out)

        self._walk_pieces(self.binders[k].name, env, lo, hi, piece, value, lambda: len(out) >= 2)
        return True

    def _choose(self, k: int, env: dict[str, Any], out: list[Any]) -> bool:
        """Collect witnesses (stops after two); returns whether the enumeration was complete."""
        if len(out) > 1:
            return True
        if k == len(self.binders):
            limits.charge(1)
            if _truth(self.body(env)):
                vals = tuple(env[b.name] for b in self.binders)
                out.append(vals[0] if len(vals) == 1 else vals)
            return True
        b = self.binders[k]
        dom = self.domain(b, env)
        rng = None
        if isinstance(dom, _Open):
            rng = (dom.lo, dom.hi) if dom.affine else None
        elif not dom.complete:
            rng = dom.open_range
        if rng is not None and k == len(self.binders) - 1:
            try:
                return self._choose_affine(k, env, out, *rng)
            except affine.NotAffine:
                pass
        if isinstance(dom, _Open):
            dom = self._fallback(b)
        complete = dom.complete
        for v in dom.values:
            env[b.name] = v
            complete = self._choose(k + 1, env, out) and complete
            if len(out) > 1:
                return True
        return complete


def _seen_before(c: Any, seen: list[Any], plain: set[Any], other: list[Any]) -> bool:
    """Is candidate ``c`` equal to one already tried? A stand-in equals only itself (identity); a
    hashable value is looked up in ``plain``; an unhashable one is compared with ``other``. (Comparing
    with ``==`` against stand-ins, as a plain scan would, only made them record values they were never
    compared with by the body — redundant candidates, and a quadratic growth of their lists.)"""
    if isinstance(c, rt.Fresh):
        return any(c is x for x in other)
    try:
        return c in plain
    except TypeError:
        return any(c is x or (not isinstance(x, rt.Fresh) and c == x) for x in other)


def _sort_key(v: Any) -> Any:
    return (type(v).__name__, v) if isinstance(v, int | str) else (type(v).__name__, repr(v))
