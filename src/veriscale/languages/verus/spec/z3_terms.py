"""Spec expressions as z3 terms over a closed instance: the translator of the z3 back end.

A *closed instance* is a clause (or a sub-formula) whose free names all have concrete values (the
inputs and outputs of a test case). ``Translator.tr(e, env)`` walks the syntax tree with an
environment whose values are either concrete (the evaluator's representation) or *symbolic*: z3
``Int``/``Bool`` terms, and sequences as Python tuples of known length whose items may be terms.

* A node none of whose free names is symbolic and that contains no quantifier (also through the spec
  fns it calls) is evaluated by the exact evaluator (``Compiler``) under a small fuel budget of its
  own; a concrete node with quantifiers is walked structurally, and each closed quantifier met is
  handed to ``decide_quant`` (``z3_decide``): the exact evaluator first, z3 after.
* Symbolic nodes are translated: ``int`` arithmetic is exact (``+ - *``; ``/`` and ``%`` only by a
  concrete non-zero divisor: Verus' Euclidean division and remainder are SMT-LIB's ``div``/``mod``);
  comparisons, connectives, ``if``, ``let``; sequences of known length (``len``, indexing, ``last``,
  ``first``, ``drop_last``, ``drop_first``, ``subrange``/``take``/``skip`` with concrete bounds,
  ``push``, ``add``, ``update``, ``contains``, ``Seq::new`` with a concrete length, ``=~=``);
  tuples; ``max``/``min``/``abs``; ``&``, ``|``, ``^`` on values proved to lie in ``[0, 2^w)`` through
  bit-vectors of width ``w``; casts to integer types as the identity with the value proved in range.
* Spec fn calls with a symbolic argument are unfolded (a ``match``/``if`` on a concrete value takes one
  branch, so a recursion whose measure is concrete after unrolling ends); deeper than ``MAX_UNFOLD``
  nested calls is untranslatable.
* Partial operations (an index, a cast, the end of a sequence) become *obligations*: the operation is
  defined whenever the path conditions (the antecedents, conjuncts and branches leading to it) hold.
  ``z3_decide`` proves them valid before it trusts a verdict; otherwise the answer is UNKNOWN.
* Quantifiers with a symbolic free name become z3 quantifiers over their binders (``binders``):
  ``bool`` binders and integer binders with a concrete range of at most ``UNROLL`` values are
  unrolled; other integer binders are z3 variables restricted to their type's range and to the bounds
  ``bounds.plan_quantifier`` derives (a superset of the values that matter, as for enumeration);
  ``Seq`` binders get a case split over the concrete length range the plan derives (at most
  ``MAX_LEN_CASES`` lengths), elements as variables in their type's range (tuples as several).

Anything else raises ``Untranslatable`` with the reason; the caller then keeps UNKNOWN.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from veriscale.runtime import limits
from veriscale.values.runtime import Some
from veriscale.values.rust_types import INT_RANGES
from veriscale.values.types import TCon, Type

from ....runtime.errors import LimitExceeded
from . import ast as A
from . import runtime as rt
from .bounds import free_vars, plan_quantifier
from .evaluate import _arith, _cmp, _match

__all__ = ["EXACT_FUEL", "Translator", "Untranslatable"]

EXACT_FUEL = 20_000  # steps of one exact evaluation of a concrete node (the clause's own run failed already)
UNROLL = 64  # an integer binder with at most this many values (concrete range) is unrolled
MAX_LEN_CASES = 64  # lengths of one sequence binder
MAX_SEQ_LEN = 64  # elements of a symbolic sequence binder
MAX_UNFOLD = 400  # nested spec fn unfoldings
MAX_LEAVES = 20_000  # body translations of one quantifier (unrolled values x lengths)
MAX_NODES = 200_000  # translated nodes of one clause
# a symbolic index into a concrete sequence is an if-chain over its elements: beyond this length the
# solver spends seconds per query to little avail (lc932 with n = 500: 15-20 s of CPU, then unknown)
MAX_SYMBOLIC_INDEX = 256
TOTAL_EXACT = 300_000  # steps of all exact evaluations of one clause (the evaluator's own SPEC_FUEL)


class Untranslatable(Exception):
    """The instance leaves the fragment the z3 back end translates exactly."""


@dataclass
class _Clo:
    """A closure whose body is translated when applied (it may capture symbolic values)."""

    params: tuple[str, ...]
    body: A.Expr
    env: dict[str, Any]


def _node_children(e: Any) -> list[Any]:
    out: list[Any] = []
    if is_dataclass(e):
        for f in fields(e):
            v = getattr(e, f.name)
            if is_dataclass(v):
                out.append(v)
            elif isinstance(v, tuple):
                stack = list(v)
                while stack:
                    x = stack.pop()
                    if is_dataclass(x):
                        out.append(x)
                    elif isinstance(x, tuple):
                        stack.extend(x)
    return out


class Translator:
    """See the module docstring. ``decide_quant(q, env)`` decides a closed quantifier (``z3_decide``)."""

    def __init__(
        self,
        compiler: Any,
        z3: Any,
        ctx: Any,
        decide_quant: Callable[[A.Quant, dict[str, Any]], bool],
        max_depth: int = 100_000,
    ):
        self.compiler = compiler
        self.z3 = z3
        self.ctx = ctx
        self.decide_quant = decide_quant
        self.max_depth = max_depth  # the caller's recursion limit holds for the exact evaluations too
        self.path: list[Any] = []  # z3 conditions under which the current node is evaluated
        self.obligations: list[Any] = []  # Implies(path, definedness) terms
        self.typing: list[Any] = []  # type ranges of every variable made (true of every value)
        self.var_typing: dict[int, list[Any]] = {}  # z3 ast id -> that variable's type range
        self._sym_ids: dict[int, bool] = {}  # id(tuple) -> holds a symbolic value (tuples kept alive)
        self.counter = 0
        self.nodes = 0
        self.exact_left = TOTAL_EXACT
        self.proves = 0
        self.unfold_depth = 0
        self._fv: dict[int, frozenset[str]] = {}
        self._quant_in: dict[int, bool] = {}
        self._fn_quant: dict[str, bool] = {}
        self._compiled: dict[tuple[int, frozenset[str]], Any] = {}
        self._keep: list[Any] = []  # nodes whose id() keys the caches
        self._memo: dict[Any, Any] = {}  # concrete spec fn calls walked structurally

    # ---- helpers on values
    def is_sym(self, v: Any) -> bool:
        if isinstance(v, self.z3.ExprRef) or v.__class__ is _Clo:
            return True
        if isinstance(v, tuple):
            if len(v) < 8:
                return any(self.is_sym(x) for x in v)
            got = self._sym_ids.get(id(v))
            if got is None:  # long concrete inputs are scanned once
                got = self._sym_ids[id(v)] = any(self.is_sym(x) for x in v)
                self._keep.append(v)
            return got
        if isinstance(v, Some):
            return self.is_sym(v.val)
        return False

    def zint(self, v: Any) -> Any:
        z3 = self.z3
        if isinstance(v, bool):
            raise Untranslatable("a boolean used as an integer")
        if isinstance(v, int):
            return z3.IntVal(v, self.ctx)
        if z3.is_int(v):
            return v
        raise Untranslatable(f"an integer operand expected, found {type(v).__name__}")

    def zbool(self, v: Any) -> Any:
        z3 = self.z3
        if isinstance(v, bool):
            return z3.BoolVal(v, self.ctx)
        if z3.is_bool(v):
            return v
        raise Untranslatable(f"a boolean expected, found {type(v).__name__}")

    def fresh_int(self, name: str, tname: str | None) -> Any:
        self.counter += 1
        v = self.z3.Int(f"{name}!{self.counter}", self.ctx)
        rng = self.type_range(v, tname)
        self.typing.extend(rng)
        self.var_typing[v.get_id()] = rng
        self._keep.append(v)
        return v

    def type_range(self, v: Any, tname: str | None) -> list[Any]:
        if tname == "nat":
            return [v >= 0]
        if tname in INT_RANGES:
            lo, hi = INT_RANGES[tname]
            return [v >= lo, v <= hi]
        return []

    def oblige(self, cond: Any) -> None:
        """The operation is defined when ``cond`` holds: required whenever the path conditions hold."""
        if isinstance(cond, bool):
            if cond:
                return
            if not self.path:
                raise Untranslatable("an operation is undefined on this instance")
            self.obligations.append(self.z3.Not(self.mk_and(self.path)))
            return
        self.obligations.append(self.z3.Implies(self.mk_and(self.path), cond) if self.path else cond)

    def mk_and(self, parts: list[Any]) -> Any:
        return self._connect(parts, True, self.z3.And)

    def mk_or(self, parts: list[Any]) -> Any:
        return self._connect(parts, False, self.z3.Or)

    def _connect(self, parts: list[Any], unit: bool, op: Any) -> Any:
        """``op`` of ``parts`` with Python booleans folded: ``unit`` (True for ``And``) is dropped, its
        opposite decides the whole; one term stands alone, none is ``unit``."""
        out = []
        for p in parts:
            if p is unit:
                continue
            if p is (not unit):
                return not unit
            out.append(self.zbool(p))
        if not out:
            return unit
        return out[0] if len(out) == 1 else op(*out)

    def mk_not(self, v: Any) -> Any:
        return (not v) if isinstance(v, bool) else self.z3.Not(self.zbool(v))

    def eq(self, a: Any, b: Any) -> Any:
        """``a == b`` (also ``=~=``) on concrete or symbolic values of the same shape."""
        if not self.is_sym(a) and not self.is_sym(b):
            return bool(a == b)
        z3 = self.z3
        if isinstance(a, Some) or isinstance(b, Some) or a is None or b is None:
            if isinstance(a, Some) and isinstance(b, Some):
                return self.eq(a.val, b.val)
            if (a is None or isinstance(a, Some)) and (b is None or isinstance(b, Some)):
                return False
            raise Untranslatable("equality of an option with another value")
        if isinstance(a, tuple) or isinstance(b, tuple):
            if not (isinstance(a, tuple) and isinstance(b, tuple)):
                raise Untranslatable("equality of a sequence with a non-sequence")
            if len(a) != len(b):
                return False
            return self.mk_and([self.eq(x, y) for x, y in zip(a, b)])
        if isinstance(a, bool) or isinstance(b, bool) or z3.is_bool(a) or z3.is_bool(b):
            return self.zbool(a) == self.zbool(b)
        pair = self._bv_pair(a, b)
        if pair is not None:
            return pair[0] == pair[1]
        return self.zint(a) == self.zint(b)

    def ite(self, c: Any, t: Any, e: Any) -> Any:
        if isinstance(c, bool):
            return t if c else e
        if isinstance(t, tuple) or isinstance(e, tuple):
            if not (isinstance(t, tuple) and isinstance(e, tuple)) or len(t) != len(e):
                raise Untranslatable("an if whose branches are sequences of different lengths")
            return tuple(self.ite(c, x, y) for x, y in zip(t, e))
        z3 = self.z3
        if isinstance(t, bool) or isinstance(e, bool) or z3.is_bool(t) or z3.is_bool(e):
            return z3.If(c, self.zbool(t), self.zbool(e))
        return z3.If(c, self.zint(t), self.zint(e))

    # ---- syntax facts
    def fv(self, e: A.Expr) -> frozenset[str]:
        got = self._fv.get(id(e))
        if got is None:
            got = self._fv[id(e)] = frozenset(free_vars(e))
            self._keep.append(e)
        return got

    def has_quant(self, e: Any) -> bool:
        """Does evaluating ``e`` meet a quantifier (also inside the spec fns it calls)?"""
        got = self._quant_in.get(id(e))
        if got is not None:
            return got
        self._keep.append(e)
        if isinstance(e, A.Quant):
            r = True
        else:
            r = False
            if isinstance(e, A.Call | A.MethodCall):
                fn = self._fn(e)
                if fn is not None and fn.body is not None:
                    r = self._fn_has_quant(fn)
            r = r or any(self.has_quant(c) for c in _node_children(e))
        self._quant_in[id(e)] = r
        return r

    def has_bitop(self, e: Any) -> bool:
        """Does evaluating ``e`` meet ``&``, ``|`` or ``^`` (also inside the spec fns it calls)?"""
        key = ("#bits", id(e))
        got = self._memo.get(key)
        if got is not None:
            return got
        self._keep.append(e)
        self._memo[key] = False  # a recursive call adds nothing by itself
        r = isinstance(e, A.Binary) and e.op in ("&", "|", "^")
        if not r and isinstance(e, A.Call | A.MethodCall):
            fn = self._fn(e)
            r = fn is not None and fn.body is not None and self.has_bitop(fn.body)
        r = r or any(self.has_bitop(c) for c in _node_children(e))
        self._memo[key] = r
        return r

    def _fn_has_quant(self, fn: Any) -> bool:
        got = self._fn_quant.get(fn.name)
        if got is None:
            self._fn_quant[fn.name] = False  # a recursive call does not add a quantifier by itself
            got = self._fn_quant[fn.name] = self.has_quant(fn.body)
        return got

    def _fn(self, e: A.Call | A.MethodCall) -> Any:
        if isinstance(e, A.Call):
            return self.compiler.lookup_fn(e.func.segments) if isinstance(e.func, A.Path) else None
        fn = self.compiler.ctx.fns.get(e.name)
        return fn if fn is not None and fn.params and fn.params[0][0] == "self" else None

    # ---- exact evaluation of concrete nodes
    def exact(self, e: A.Expr, env: dict[str, Any], fuel: int | None = None) -> Any:
        """``e`` by the exact evaluator (its free names concrete); raises ``rt.SpecError``/``LimitExceeded``."""
        # only the names ``e`` uses: the evaluator also scans its environment (witness candidates)
        env = {n: v for n, v in env.items() if n in self.fv(e) or n.startswith("#old#")}
        scope = frozenset(env)
        key = (id(e), scope)
        f = self._compiled.get(key)
        if f is None:
            f = self._compiled[key] = self.compiler.compile(e, scope)
            self._keep.append(e)
        return self.run_exact(lambda: f(env), fuel or EXACT_FUEL)

    def run_exact(self, thunk: Callable[[], Any], fuel: int) -> Any:
        """``thunk()`` under a budget of ``fuel`` steps taken from the decision's pool (``TOTAL_EXACT``)."""
        if self.exact_left <= 0:
            raise Untranslatable(f"the {TOTAL_EXACT} steps of exact evaluation of this decision are spent")
        budget = limits.Budget(
            limits.Limits(fuel=min(fuel, self.exact_left), seconds=60.0, max_depth=self.max_depth)
        )
        depth = self.compiler.depth
        try:
            with limits.using(budget):
                return thunk()
        finally:
            self.compiler.depth = depth
            self.exact_left -= max(budget.spent, 1)

    def concrete(self, e: A.Expr, env: dict[str, Any]) -> Any:
        try:
            return self.exact(e, env)
        except rt.Unspecified as exc:
            if self.path:  # defined where it matters only if this path cannot be taken
                self.oblige(False)
                return self.fresh_int("unspecified", None)
            raise Untranslatable(f"unspecified value: {exc}") from None
        except (rt.SpecError, LimitExceeded, RecursionError) as exc:
            raise Untranslatable(f"exact evaluation of a concrete part failed: {exc}") from None

    # ---- the walk
    def tr(self, e: A.Expr, env: dict[str, Any]) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise Untranslatable(f"more than {MAX_NODES} nodes translated")
        cls = e.__class__
        if cls is A.Path and e.is_local and e.name in env:  # the common leaves, without the evaluator
            return env[e.name]
        if cls is A.Lit and e.kind in ("int", "bool"):
            return e.value
        sym = any(self.is_sym(env[n]) for n in self.fv(e) if n in env)
        if not sym and not self.has_quant(e):
            return self.concrete(e, env)
        meth = getattr(self, "t_" + type(e).__name__, None)
        if meth is None:
            raise Untranslatable(f"{type(e).__name__} with symbolic values")
        return meth(e, env)

    def under(self, cond: Any, e: A.Expr, env: dict[str, Any]) -> Any:
        """``e`` translated with ``cond`` added to the path conditions."""
        if cond is True:
            return self.tr(e, env)
        self.path.append(cond)
        try:
            return self.tr(e, env)
        finally:
            self.path.pop()

    def t_Lit(self, e: A.Lit, env: dict[str, Any]) -> Any:
        return self.concrete(e, env)

    def t_Path(self, e: A.Path, env: dict[str, Any]) -> Any:
        if e.is_local and e.name in env:
            return env[e.name]
        return self.concrete(e, env)

    def t_View(self, e: A.View, env: dict[str, Any]) -> Any:
        v = self.tr(e.obj, env)
        return rt.view(v) if not self.is_sym(v) else v

    def t_Unary(self, e: A.Unary, env: dict[str, Any]) -> Any:
        v = self.tr(e.expr, env)
        if e.op in ("&", "*"):
            return v
        if not self.is_sym(v):
            return self._apply_exact(e, [v])
        if e.op == "-":
            return -self.zint(v)
        if e.op == "!" and self.z3.is_bool(v):
            return self.z3.Not(v)
        raise Untranslatable(f"unary {e.op} on a symbolic value")

    def exact_op(self, f: Callable[..., Any], *args: Any) -> Any:
        """An operation of the evaluator on concrete values, its failures as for ``concrete``."""
        try:
            return f(*args)
        except rt.Unspecified as exc:
            if self.path:
                self.oblige(False)
                return self.fresh_int("unspecified", None)
            raise Untranslatable(f"unspecified value: {exc}") from None
        except (rt.SpecError, LimitExceeded) as exc:
            raise Untranslatable(f"exact evaluation failed: {exc}") from None

    def _apply_exact(self, e: A.Expr, vals: list[Any]) -> Any:
        """Node ``e`` with its direct operands replaced by concrete values, evaluated exactly."""
        names = [f"#z{k}" for k in range(len(vals))]
        ph = [A.Path((n,)) for n in names]
        if isinstance(e, A.Unary):
            node: A.Expr = A.Unary(e.op, ph[0], e.line)
        elif isinstance(e, A.Binary):
            node = A.Binary(e.op, ph[0], ph[1], e.line)
        elif isinstance(e, A.Chain):
            node = A.Chain(e.ops, tuple(ph), e.line)
        elif isinstance(e, A.Cast):
            node = A.Cast(ph[0], e.type, e.line)
        elif isinstance(e, A.MethodCall):
            node = A.MethodCall(ph[0], e.name, tuple(ph[1:]), e.line)
        elif isinstance(e, A.Index):
            node = A.Index(ph[0], ph[1], e.line)
        elif isinstance(e, A.Field):
            node = A.Field(ph[0], e.name, e.line)
        elif isinstance(e, A.Call):
            node = A.Call(e.func, tuple(ph), e.line)
        else:
            raise Untranslatable(f"{type(e).__name__} on computed values")
        key = ("#apply", type(e).__name__, getattr(e, "op", None), getattr(e, "ops", None),
               getattr(e, "name", None), str(getattr(e, "type", "")), len(vals),
               e.func.segments if isinstance(e, A.Call) and isinstance(e.func, A.Path) else None)  # fmt: skip
        node = self._memo.setdefault(key, node)
        return self.concrete(node, dict(zip(names, vals)))

    def t_Binary(self, e: A.Binary, env: dict[str, Any]) -> Any:
        op = e.op
        if op in ("&&", "||", "==>", "<=="):
            first, second = (e.rhs, e.lhs) if op == "<==" else (e.lhs, e.rhs)
            a = self.tr(first, env)
            if op == "&&":
                if a is False:
                    return False
                return self.mk_and([a, self.under(a, second, env)])
            if op == "||":
                if a is True:
                    return True
                return self.mk_or([a, self.under(self.mk_not(a), second, env)])
            if a is False:  # an implication with a false antecedent
                return True
            b = self.under(a, second, env)
            if a is True:
                return self.zbool(b) if not isinstance(b, bool) else b
            return self.mk_or([self.mk_not(a), b])
        a, b = self.tr(e.lhs, env), self.tr(e.rhs, env)
        if op == "<==>":
            if isinstance(a, bool) and isinstance(b, bool):
                return a == b
            return self.zbool(a) == self.zbool(b)
        if not self.is_sym(a) and not self.is_sym(b):
            return self.exact_op(_arith, op, a, b)
        return self.arith(op, a, b)

    def arith(self, op: str, a: Any, b: Any) -> Any:
        z3 = self.z3
        if op == "+" and isinstance(a, tuple) and isinstance(b, tuple):
            return a + b
        if op in ("&", "|", "^") and (
            z3.is_bool(a) or z3.is_bool(b) or isinstance(a, bool) or isinstance(b, bool)
        ):
            x, y = self.zbool(a), self.zbool(b)
            return z3.And(x, y) if op == "&" else z3.Or(x, y) if op == "|" else z3.Xor(x, y)
        if op in ("&", "|", "^"):
            return self.bitop(op, a, b)
        x, y = self.zint(a), self.zint(b)
        if op == "+":
            return x + y
        if op == "-":
            return x - y
        if op == "*":
            return x * y
        if op in ("/", "%"):
            # Verus' Euclidean ``/``/``%`` are SMT-LIB's div/mod; a divisor that may be 0 is unspecified
            if isinstance(b, bool) or not isinstance(b, int) or b == 0:
                raise Untranslatable(f"{op} by a symbolic or zero divisor")
            return x / y if op == "/" else x % y
        raise Untranslatable(f"operator {op} on symbolic values")

    def _bv_of(self, v: Any) -> Any:
        """The bit-vector ``b`` of a term ``BV2Int(b)`` (unsigned), else None."""
        z3 = self.z3
        if isinstance(v, z3.ExprRef) and z3.is_app_of(v, z3.Z3_OP_BV2INT):
            return v.arg(0)
        return None

    def _bv_pair(self, a: Any, b: Any) -> tuple[Any, Any] | None:
        """Both operands as unsigned bit-vectors of one width without an int-to-bv conversion: each is a
        ``BV2Int(b)`` term or a concrete integer in the width's range; else None."""
        z3 = self.z3
        xa, xb = self._bv_of(a), self._bv_of(b)
        if xa is None and xb is None:
            return None
        w = max(x.size() for x in (xa, xb) if x is not None)
        out = []
        for bv, v in ((xa, a), (xb, b)):
            if bv is not None:
                out.append(z3.ZeroExt(w - bv.size(), bv) if bv.size() < w else bv)
            elif isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**w:
                out.append(z3.BitVecVal(v, w, self.ctx))
            else:
                return None
        return out[0], out[1]

    def bitop(self, op: str, a: Any, b: Any) -> Any:
        """``&``, ``|``, ``^`` of integers proved to lie in ``[0, 2^w)``: the same as on bit-vectors of width
        ``w`` (Python's and the evaluator's infinite two's complement agree there). Operands that are
        already bit-vectors (unsigned binders of a body with bit operations, earlier results) stay so."""
        z3 = self.z3
        pair = self._bv_pair(a, b)
        if pair is not None:
            bx, by = pair
            r = bx & by if op == "&" else bx | by if op == "|" else bx ^ by
            return z3.BV2Int(r, is_signed=False)
        x, y = self.zint(a), self.zint(b)
        for w in (8, 16, 32, 64):
            if self.prove(self.mk_and([x >= 0, x < 2**w, y >= 0, y < 2**w])):
                bx, by = z3.Int2BV(x, w), z3.Int2BV(y, w)
                r = bx & by if op == "&" else bx | by if op == "|" else bx ^ by
                return z3.BV2Int(r, is_signed=False)
        raise Untranslatable(f"{op} on values not proved to lie in [0, 2^64)")

    def prove(self, cond: Any) -> bool:
        """Is ``cond`` valid under the path conditions and the variables' types? (a small query)"""
        if isinstance(cond, bool):
            return cond
        z3 = self.z3
        self.proves += 1
        if self.proves > 200:
            raise Untranslatable("more than 200 range proofs for bit operations")
        s = z3.Solver(ctx=self.ctx)
        s.set("rlimit", 2_000_000)
        s.add(*self.typing, *[self.zbool(p) for p in self.path], z3.Not(cond))
        return bool(s.check() == z3.unsat)

    def cmp(self, op: str, a: Any, b: Any) -> Any:
        if op in ("==", "=~=", "=~~=", "==="):
            return self.eq(a, b)
        if op in ("!=", "!=="):
            return self.mk_not(self.eq(a, b))
        pair = self._bv_pair(a, b)
        if pair is not None:  # unsigned comparison of bit-vectors: the integers' order
            bx, by = pair
            z3 = self.z3
            return (
                {"<": z3.ULT, "<=": z3.ULE, ">": z3.UGT, ">=": z3.UGE}[op](bx, by)
                if op in ("<", "<=", ">", ">=")
                else self._no(op)
            )
        x, y = self.zint(a), self.zint(b)
        if op == "<":
            return x < y
        if op == "<=":
            return x <= y
        if op == ">":
            return x > y
        if op == ">=":
            return x >= y
        raise Untranslatable(f"comparison {op}")

    def _no(self, what: str) -> Any:
        raise Untranslatable(f"comparison {what}")

    def t_Chain(self, e: A.Chain, env: dict[str, Any]) -> Any:
        vals = [self.tr(e.operands[0], env)]
        conds: list[Any] = []
        for op, x in zip(e.ops, e.operands[1:]):
            b = self.under(self.mk_and(conds), x, env) if conds else self.tr(x, env)
            a = vals[-1]
            if not self.is_sym(a) and not self.is_sym(b):
                c = self.exact_op(_cmp, op, a, b)
            else:
                c = self.cmp(op, a, b)
            if c is False:
                return False
            conds.append(c)
            vals.append(b)
        return self.mk_and(conds)

    def t_Cast(self, e: A.Cast, env: dict[str, Any]) -> Any:
        v = self.tr(e.expr, env)
        t = e.type
        if not self.is_sym(v):
            if isinstance(t, TCon) and not t.args:
                return self.exact_op(rt.cast, v, t.name)
            return self._apply_exact(e, [v])
        if not isinstance(t, TCon) or t.args:
            raise Untranslatable(f"cast to {t}")
        if t.name == "int":
            return self.zint(v)
        if t.name == "nat" or t.name in INT_RANGES:
            x = self.zint(v)
            self.oblige(self.mk_and(self.type_range(x, t.name)))  # else unspecified, as in the evaluator
            return x
        raise Untranslatable(f"cast of a symbolic value to {t.name}")

    def t_If(self, e: A.If, env: dict[str, Any]) -> Any:
        c = self.tr(e.cond, env)
        if isinstance(c, bool):
            if c:
                return self.tr(e.then, env)
            return self.tr(e.else_, env) if e.else_ is not None else ()
        c = self.zbool(c)
        if e.else_ is None:
            raise Untranslatable("if without else on a symbolic condition")
        t = self.under(c, e.then, env)
        f = self.under(self.z3.Not(c), e.else_, env)
        return self.ite(c, t, f)

    def t_Block(self, e: A.Block, env: dict[str, Any]) -> Any:
        inner = dict(env)
        for let in e.lets:
            v = self.tr(let.value, inner)
            if not self._bind(let.pat, v, inner):
                raise Untranslatable("a let pattern that does not match")
        return self.tr(e.tail, inner)

    def _bind(self, p: A.Pat, v: Any, env: dict[str, Any]) -> bool:
        if isinstance(p, A.PWild):
            return True
        if isinstance(p, A.PBind):
            env[p.name] = v
            return True
        if isinstance(p, A.PTuple) and isinstance(v, tuple) and len(v) == len(p.items):
            return all(self._bind(x, y, env) for x, y in zip(p.items, v))
        if not self.is_sym(v):
            return _match(p, v, env)
        raise Untranslatable("a pattern on a symbolic value")

    def t_Match(self, e: A.Match, env: dict[str, Any]) -> Any:
        v = self.tr(e.scrutinee, env)
        if self.is_sym(v) and not isinstance(v, tuple):
            raise Untranslatable("match on a symbolic value")
        for pat, guard, body in e.arms:
            inner = dict(env)
            if not self._bind(pat, v, inner):
                continue
            if guard is not None:
                g = self.tr(guard, inner)
                if not isinstance(g, bool):
                    raise Untranslatable("a match guard on symbolic values")
                if not g:
                    continue
            return self.tr(body, inner)
        raise Untranslatable("no match arm applies")

    def t_Tuple(self, e: A.Tuple, env: dict[str, Any]) -> Any:
        return tuple(self.tr(x, env) for x in e.items)

    def t_SeqLit(self, e: A.SeqLit, env: dict[str, Any]) -> Any:
        return tuple(self.tr(x, env) for x in e.items)

    def t_Closure(self, e: A.Closure, env: dict[str, Any]) -> Any:
        return _Clo(tuple(n for n, _ in e.params), e.body, dict(env))

    def apply(self, f: Any, args: list[Any]) -> Any:
        if f.__class__ is not _Clo or len(f.params) != len(args):
            raise Untranslatable("a call of a non-closure on symbolic values")
        inner = dict(f.env)
        inner.update(zip(f.params, args))
        return self.tr(f.body, inner)

    def t_Field(self, e: A.Field, env: dict[str, Any]) -> Any:
        v = self.tr(e.obj, env)
        if not self.is_sym(v):
            return self._apply_exact(e, [v])
        if e.name.isdigit() and isinstance(v, tuple) and int(e.name) < len(v):
            return v[int(e.name)]
        if e.name.startswith("->") and isinstance(v, Some) and e.name[2:] in ("0", "Some_0"):
            return v.val
        raise Untranslatable(f"field {e.name} of a symbolic value")

    def index(self, s: Any, i: Any) -> Any:
        if isinstance(s, rt.RString) or (isinstance(s, str) and len(s) != 1):
            s = tuple(s)
        if not isinstance(s, tuple):
            raise Untranslatable("index of a non-sequence")
        if isinstance(i, int) and not isinstance(i, bool):
            if not 0 <= i < len(s):
                self.oblige(False)
                return self.fresh_int("unspecified", None)
            return s[i]
        if len(s) > MAX_SYMBOLIC_INDEX:
            raise Untranslatable(f"a solver-variable index into a sequence of {len(s)} elements")
        x = self.zint(i)
        self.oblige(self.mk_and([x >= 0, x < len(s)]))
        if not s:
            return self.fresh_int("unspecified", None)
        out = s[-1]
        for k in range(len(s) - 2, -1, -1):
            out = self.ite(x == k, s[k], out)
        return out

    def t_Index(self, e: A.Index, env: dict[str, Any]) -> Any:
        s, i = self.tr(e.obj, env), self.tr(e.index, env)
        if not self.is_sym(s) and not self.is_sym(i):
            return self._apply_exact(e, [s, i])
        return self.index(s, i)

    def t_Call(self, e: A.Call, env: dict[str, Any]) -> Any:
        if not isinstance(e.func, A.Path):
            raise Untranslatable("a computed callee")
        segs = e.func.segments
        name = segs[-1]
        if len(segs) == 1 and name in env:
            return self.apply(env[name], [self.tr(a, env) for a in e.args])
        joined = "::".join(segs)
        if joined == "old":  # the pre-call value: only the evaluator's environment has it
            return self.concrete(e, env)
        if joined == "Seq::new" and len(e.args) == 2:
            n = self.tr(e.args[0], env)
            if isinstance(n, bool) or not isinstance(n, int):
                raise Untranslatable("Seq::new with a symbolic length")
            if n < 0 or n > 100_000:
                raise Untranslatable(f"Seq::new with length {n}")
            f = self.tr(e.args[1], env)
            if f.__class__ is not _Clo:
                raise Untranslatable("Seq::new with a computed function")
            return tuple(self.apply(f, [i]) for i in range(n))
        fn = self._fn(e)
        args = [self.tr(a, env) for a in e.args]
        if fn is not None:
            return self.call(fn, args)
        if not any(self.is_sym(a) for a in args):
            return self._apply_exact(e, args)
        builtin = self.compiler.ctx.aliases.get(name, name) if len(segs) == 1 else name
        if builtin in ("max", "min") and len(args) == 2:
            x, y = self.zint(args[0]), self.zint(args[1])
            return self.z3.If(x >= y, x, y) if builtin == "max" else self.z3.If(x <= y, x, y)
        if builtin == "abs" and len(args) == 1:
            x = self.zint(args[0])
            return self.z3.If(x >= 0, x, -x)
        if name == "Some" and len(args) == 1:
            return Some(args[0])
        raise Untranslatable(f"call of {joined} on symbolic values")

    def call(self, fn: Any, args: list[Any]) -> Any:
        """A spec fn call: exact when its arguments are concrete and it meets no quantifier, else its body
        translated with the parameters bound (memoised for concrete arguments)."""
        if fn.body is None:
            raise Untranslatable(f"spec fn {fn.name} has no body")
        if len(args) != len(fn.params):
            raise Untranslatable(f"spec fn {fn.name} called with {len(args)} arguments")
        concrete = not any(self.is_sym(a) for a in args)
        key: Any = None
        if concrete:
            if not self._fn_has_quant(fn):
                try:
                    return self.run_exact(lambda: self.compiler.call_fn(fn, list(args)), EXACT_FUEL)
                except rt.Unspecified:
                    pass  # translated below: the path conditions may make it irrelevant
                except (rt.SpecError, LimitExceeded, RecursionError) as exc:
                    raise Untranslatable(f"exact evaluation of {fn.name} failed: {exc}") from None
            try:
                key = (fn.name, *args)
                hash(key)
            except TypeError:
                key = None
            if key is not None and key in self._memo:
                return self._memo[key]
        before = len(self.obligations)
        self.unfold_depth += 1
        if self.unfold_depth > MAX_UNFOLD:
            raise Untranslatable(
                f"spec fn {fn.name} unfolded more than {MAX_UNFOLD} deep (a symbolic recursion measure)"
            )
        try:
            got = self.tr(fn.body, {n: a for (n, _), a in zip(fn.params, args)})
        finally:
            self.unfold_depth -= 1
        if key is not None and len(self.obligations) == before and not self.is_sym(got):
            self._memo[key] = got  # concrete and needing no condition: the same on every path
        return got

    def t_MethodCall(self, e: A.MethodCall, env: dict[str, Any]) -> Any:
        fn = self._fn(e)
        recv = self.tr(e.recv, env)
        args = [self.tr(a, env) for a in e.args]
        if fn is not None:
            return self.call(fn, [recv, *args])
        if not self.is_sym(recv) and not any(self.is_sym(a) for a in args):
            return self._apply_exact(e, [recv, *args])
        return self.method(e.name, recv, args)

    def method(self, name: str, s: Any, args: list[Any]) -> Any:
        if name in ("view", "deep_view") and not args:
            return s
        if not isinstance(s, tuple):
            raise Untranslatable(f"method {name} of a symbolic non-sequence")
        n = len(s)

        def conc(v: Any) -> int:
            if isinstance(v, bool) or not isinstance(v, int):
                raise Untranslatable(f"{name} with a symbolic argument")
            return v

        if name == "len" and not args:
            return n
        if name in ("spec_index", "index") and len(args) == 1:
            return self.index(s, args[0])
        if name in ("last", "first") and not args:
            if not s:
                self.oblige(False)
                return self.fresh_int("unspecified", None)
            return s[-1] if name == "last" else s[0]
        if name == "drop_last" and not args:
            if not s:
                self.oblige(False)
                return ()
            return s[:-1]
        if name == "drop_first" and not args:
            if not s:
                self.oblige(False)
                return ()
            return s[1:]
        if name == "subrange" and len(args) == 2:
            a, b = conc(args[0]), conc(args[1])
            if not 0 <= a <= b <= n:
                self.oblige(False)
                return ()
            return s[a:b]
        if name == "take" and len(args) == 1:
            k = conc(args[0])
            if not 0 <= k <= n:
                self.oblige(False)
                return ()
            return s[:k]
        if name == "skip" and len(args) == 1:
            k = conc(args[0])
            if not 0 <= k <= n:
                self.oblige(False)
                return ()
            return s[k:]
        if name == "push" and len(args) == 1:
            return (*s, args[0])
        if name == "add" and len(args) == 1 and isinstance(args[0], tuple):
            return s + args[0]
        if name == "update" and len(args) == 2:
            k = conc(args[0])
            if not 0 <= k < n:
                self.oblige(False)
                return s
            return (*s[:k], args[1], *s[k + 1 :])
        if name == "contains" and len(args) == 1:
            return self.mk_or([self.eq(x, args[0]) for x in s])
        if name in ("ext_equal", "=~=") and len(args) == 1:
            return self.eq(s, args[0])
        if name in ("map", "map_values") and len(args) == 1:
            f = args[0]
            return tuple(self.apply(f, [i, x] if name == "map" else [x]) for i, x in enumerate(s))
        raise Untranslatable(f"method {name} on a symbolic sequence")

    # ---- quantifiers
    def t_Quant(self, q: A.Quant, env: dict[str, Any]) -> Any:
        if q.kind not in ("forall", "exists"):
            raise Untranslatable(f"{q.kind} over symbolic values")
        if not any(self.is_sym(env[n]) for n in self.fv(q) if n in env):
            return self.decide_quant(q, env)
        leaves = [0]
        return self.binders(q, env, 0, self.plans(q), None, leaves)

    def plans(self, q: A.Quant) -> list[Any]:
        key = ("#plan", id(q))
        got = self._memo.get(key)
        if got is None:
            c = self.compiler
            got = self._memo[key] = plan_quantifier(q, c.inline_call, c.expand_call, c._fn_of)
            self._keep.append(q)
        return got

    def bound_value(self, e: A.Expr, env: dict[str, Any]) -> Any:
        """A plan bound's value (an int or a term), or None when it does not apply or cannot be had."""
        try:
            v = self.tr(e, env)
        except Untranslatable:
            return None
        if v is None or isinstance(v, bool):
            return None
        if isinstance(v, int) or self.z3.is_int(v):
            return v
        return None

    def binders(
        self,
        q: A.Quant,
        env: dict[str, Any],
        k: int,
        plans: list[Any],
        cases: list[Any] | None,
        leaves: list[int],
    ) -> Any:
        """Binders ``k..`` of ``q``: a z3 formula (``cases`` None: the binders are quantified in z3), or —
        for a closed decision (``cases`` a list) — the *search formula* whose free variables are the
        binders: the body (exists) or its negation (forall) with the binder constraints, one disjunct
        per unrolled value; each leaf is recorded in ``cases`` as (binder values, its formula)."""
        exists = q.kind == "exists"
        if k == len(plans):
            leaves[0] += 1
            if leaves[0] > MAX_LEAVES:
                raise Untranslatable(f"more than {MAX_LEAVES} unrolled instances")
            body = self.tr(q.body, env)
            if isinstance(body, bool):
                pass
            else:
                body = self.zbool(body)
            if cases is None:
                return body
            got = body if exists else self.mk_not(body)
            cases.append(
                ({n: env[n] for n, _ in q.binders}, self.mk_and([*self.path, got]) if self.path else got)
            )
            return got
        p = plans[k]
        t = p.type
        combine = self.mk_or if (exists or cases is not None) else self.mk_and
        if isinstance(t, TCon) and t.name == "bool" and not t.args:
            return combine([self._with(env, p.name, v, lambda e2: self.binders(q, e2, k + 1, plans, cases, leaves))
                            for v in (False, True)])  # fmt: skip
        if isinstance(t, TCon) and not t.args and (t.name in INT_RANGES or t.name in ("int", "nat")):
            return self._int_binder(q, env, k, plans, cases, leaves, combine)
        if isinstance(t, TCon) and t.name == "Seq" and len(t.args) == 1 and p.length is not None:
            return self._seq_binder(q, env, k, plans, cases, leaves, combine)
        raise Untranslatable(f"binder {p.name}: {t}")

    def _with(self, env: dict[str, Any], name: str, v: Any, f: Callable[[dict[str, Any]], Any]) -> Any:
        e2 = dict(env)
        e2[name] = v
        return f(e2)

    def _range(self, p: Any, env: dict[str, Any], tname: str) -> tuple[Any, Any, list[Any], list[Any]]:
        """(concrete lo or None, concrete hi or None, symbolic constraints, fixed values) of an int binder."""
        lo, hi = None, None
        if tname == "nat":
            lo = 0
        elif tname in INT_RANGES:
            lo, hi = INT_RANGES[tname]
        cons: list[Any] = []
        fixed: list[Any] = []
        for f in p.fixed:
            v = self.bound_value(f, env)
            if v is not None:
                fixed.append(v)
        for exprs, low in ((p.lowers, True), (p.uppers, False)):
            for f, strict in exprs:
                v = self.bound_value(f, env)
                if v is None:
                    continue
                if isinstance(v, int):
                    v = v + (1 if strict else 0) if low else v - (1 if strict else 0)
                    if low:
                        lo = v if lo is None else max(lo, v)
                    else:
                        hi = v if hi is None else min(hi, v)
                else:
                    cons.append((v + 1 if strict else v, True) if low else (v - 1 if strict else v, False))
        return lo, hi, cons, fixed

    def _int_binder(self, q: A.Quant, env: dict[str, Any], k: int, plans: list[Any], cases: list[Any] | None,
                    leaves: list[int], combine: Callable[[list[Any]], Any]) -> Any:  # fmt: skip
        p = plans[k]
        exists = q.kind == "exists"
        lo, hi, cons, fixed = self._range(p, env, p.type.name)
        conc_fixed = [v for v in fixed if isinstance(v, int)]
        if conc_fixed:  # x == e: the one value (when in the range), if all such e agree
            v = conc_fixed[0]
            if any(w != v for w in conc_fixed) or (lo is not None and v < lo) or (hi is not None and v > hi):
                return False if (exists or cases is not None) else True
            values: list[Any] | None = [v]
        elif lo is not None and hi is not None and hi - lo + 1 <= UNROLL:
            values = list(range(lo, hi + 1)) if hi >= lo else []
        else:
            values = None
        if values is not None:
            parts = []
            for v in values:
                # symbolic bounds still restrict the unrolled value
                guard = self.mk_and([(v >= b) if low else (v <= b) for b, low in cons]) if cons else True
                guard = self.mk_and([guard, *[self.eq(v, f) for f in fixed if not isinstance(f, int)]])
                if guard is False:
                    continue
                inner = self._guarded(guard, lambda e2, v=v: self.binders(q, e2, k + 1, plans, cases, leaves),
                                      env, p.name, v)  # fmt: skip
                if cases is None and not exists:
                    parts.append(self.mk_or([self.mk_not(guard), inner]))
                else:
                    parts.append(self.mk_and([guard, inner]))
            return combine(parts)
        x = self.fresh_int(p.name, p.type.name)
        c = [*self.type_range(x, p.type.name)]
        if lo is not None:
            c.append(x >= lo)
        if hi is not None:
            c.append(x <= hi)
        c += [(x >= b) if low else (x <= b) for b, low in cons]
        c += [x == self.zint(f) for f in fixed]
        guard = self.mk_and(c)
        inner = self._guarded(
            guard, lambda e2: self.binders(q, e2, k + 1, plans, cases, leaves), env, p.name, x
        )
        if cases is not None:
            return self.mk_and([guard, inner])
        if exists:
            return self.z3.Exists(
                [x],
                self.mk_and([guard, inner])
                if not isinstance(inner, bool)
                else self.zbool(self.mk_and([guard, inner])),
            )
        return self.z3.ForAll([x], self.zbool(self.mk_or([self.mk_not(guard), inner])))

    def _guarded(
        self, guard: Any, f: Callable[[dict[str, Any]], Any], env: dict[str, Any], name: str, v: Any
    ) -> Any:
        e2 = dict(env)
        e2[name] = v
        if guard is True:
            return f(e2)
        self.path.append(guard)
        try:
            return f(e2)
        finally:
            self.path.pop()

    def fresh_bits(self, name: str, tname: str) -> Any:
        """An unsigned machine integer as ``BV2Int`` of a bit-vector of its width (in range by itself)."""
        self.counter += 1
        hi = INT_RANGES[tname][1]
        bv = self.z3.BitVec(f"{name}!{self.counter}", hi.bit_length(), self.ctx)
        self._keep.append(bv)
        return self.z3.BV2Int(bv, is_signed=False)

    def _elem_vars(self, base: str, t: Type, bits: bool = False) -> Any:
        if isinstance(t, TCon) and not t.args and (t.name in INT_RANGES or t.name in ("int", "nat")):
            if bits and t.name in INT_RANGES and INT_RANGES[t.name][0] == 0 and INT_RANGES[t.name][1] < 2**64:
                return self.fresh_bits(base, t.name)
            return self.fresh_int(base, t.name)
        if isinstance(t, TCon) and t.name == "bool" and not t.args:
            self.counter += 1
            return self.z3.Bool(f"{base}!{self.counter}", self.ctx)
        if isinstance(t, TCon) and t.name == "Tuple" and t.args:
            return tuple(self._elem_vars(f"{base}.{j}", a, bits) for j, a in enumerate(t.args))
        raise Untranslatable(f"sequence elements of type {t}")

    def _seq_binder(self, q: A.Quant, env: dict[str, Any], k: int, plans: list[Any], cases: list[Any] | None,
                    leaves: list[int], combine: Callable[[list[Any]], Any]) -> Any:  # fmt: skip
        p = plans[k]
        exists = q.kind == "exists"
        lo, hi, cons, fixed = self._range(p.length, env, "nat")
        if any(not isinstance(f, int) for f in fixed) or cons:
            raise Untranslatable(f"the length of binder {p.name} depends on symbolic values")
        if fixed:
            if any(f != fixed[0] for f in fixed):
                return False if (exists or cases is not None) else True
            lo, hi = max(lo or 0, fixed[0]), fixed[0] if hi is None else min(hi, fixed[0])
        if hi is None:
            raise Untranslatable(f"no finite length range for binder {p.name}")
        if hi - lo + 1 > MAX_LEN_CASES or hi > MAX_SEQ_LEN:
            raise Untranslatable(f"binder {p.name}: lengths {lo}..{hi} are too many or too long")
        parts = []
        et = p.type.args[0]
        bits = self.has_bitop(q.body)
        for n in range(lo, hi + 1):
            elems = tuple(self._elem_vars(f"{p.name}[{j}]", et, bits) for j in range(n))
            flat = [self._bv_of(v) if self._bv_of(v) is not None else v
                    for x in elems for v in (x if isinstance(x, tuple) else (x,))]  # fmt: skip
            guard = self.mk_and([c for v in flat if self.z3.is_int(v) for c in self._typing_of(v)])
            inner = self._guarded(
                guard, lambda e2: self.binders(q, e2, k + 1, plans, cases, leaves), env, p.name, elems
            )
            if cases is not None:
                parts.append(self.mk_and([guard, inner]))
            elif not flat:
                parts.append(inner)
            elif exists:
                parts.append(self.z3.Exists(flat, self.zbool(self.mk_and([guard, inner]))))
            else:
                parts.append(self.z3.ForAll(flat, self.zbool(self.mk_or([self.mk_not(guard), inner]))))
        return combine(parts)

    def _typing_of(self, v: Any) -> list[Any]:
        return self.var_typing.get(v.get_id(), [])
