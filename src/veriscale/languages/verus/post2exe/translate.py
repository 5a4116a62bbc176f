"""Post2Exe compiled: a ``spec.rs`` contract translated into a Rust checker program.

``translate(spec_text, input_names, target=None)`` reads the contract with the
same front end as the Python evaluator (``verus_spec.SpecProgram``) and emits
one Rust program (runtime: ``runtime_rs.RUNTIME``) that decides ``requires``
and ``ensures`` on JSON-lines test cases.

Algorithm. Every expression becomes a Rust expression of type ``Result<V, E>``
over dynamically typed values; spec functions become Rust functions; a
quantifier becomes nested ``while`` loops over the binder ranges that its
guard states (``forall``: the conjuncts left of ``==>``; ``exists``: the
conjuncts of the body) — each binder needs a lower and an upper bound whose
expressions mention only outer names or binders already enumerated; bounds
through another binder (``0 <= i < j < n`` gives ``i < n``) are added by
transitivity, which only widens the range (the guard is still evaluated in
the body, so the verdict is unchanged). Semantics follow the Python
evaluator exactly where both decide: three-valued ``&&``/``||``/``==>`` (an
unknown operand does not matter when the other decides), Euclidean ``/`` and
``%``, checked casts, unspecified values (out-of-bounds index, division by
zero) as UNKNOWN, and a false quantifier instance deciding even when another
instance was unknown.

A clause that uses a construct outside this fragment is emitted as an
UNKNOWN stub with the reason, so the checker still decides FALSE on the
other clauses; ``Checker.complete`` says whether every clause translated.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from veriscale.values.rust_types import INT_RANGES, value_type
from veriscale.values.types import UNIT, TCon, Type

from ..prelude import JSON_MODULE
from ..spec import SpecLoadError, SpecProgram
from ..spec.ast import (
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
    MethodCall,
    Path,
    PBind,
    Quant,
    SeqLit,
    Tuple,
    Unary,
    View,
)
from . import linear_rec, typed_fns
from .runtime_rs import RUNTIME, RUNTIME_CRATE
from .typed import int_expr, int_operand, is_int, is_int_type, typed_chain

__all__ = ["Checker", "Untranslatable", "translate"]


class Untranslatable(Exception):
    """A construct outside the compiled fragment (the message says which)."""


@dataclass
class Checker:
    source: str
    complete: bool  # every requires/ensures clause and spec fn they use translated
    untranslated: list[str] = field(default_factory=list)  # reasons, one per clause not translated
    clauses: int = 0


# `Ok(<variable>.clone())` or `Ok(<scalar literal>)`: an infallible value (see ``_Fn.val``)
_PLAIN_OK = re.compile(r"Ok\(([A-Za-z_][A-Za-z0-9_]*\.clone\(\)|V::[IBC]\([^()]*\))\)")
_INT_CONSTS = {f"{t}::{b}": v for t, (lo, hi) in INT_RANGES.items() for b, v in (("MIN", lo), ("MAX", hi))}
_I128 = (-(2**127), 2**127 - 1)
# the runtime's function for each comparison operator (one call, no operator string matched at run time)
_CMP_FN = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
# `&<variable>.clone()` as a call argument borrows a copy that is dropped at once: borrow the variable
# (characters) a right operand of `&&`/`||`/`==>` longer than this is emitted once, as a named closure
_INLINE_OPERAND = 400
_CONNECTIVES = ("&&", "||", "==>", "<==")
_BORROWED_CLONE = re.compile(r"&([A-Za-z_][A-Za-z0-9_]*)\.clone\(\)(?=[,)\]])")


def _typed_form(e: Expr) -> bool:
    """Forms the typed fast path computes as ``i128`` when they are integers (``typed.is_int``); names,
    literals and calls are as cheap either way."""
    if isinstance(e, Binary):
        return e.op in ("+", "-", "*", "/", "%")
    if isinstance(e, Unary):
        return e.op == "-"
    if isinstance(e, MethodCall):
        return e.name in ("len", "spec_index", "index")
    return isinstance(e, Cast | Index)


def _ident(name: str) -> str:
    return "v_" + "".join(c if c.isalnum() or c == "_" else "_" for c in name)


def _rust_str(s: str) -> str:
    return (
        '"'
        + "".join(c if c.isalnum() or c in " _-.,:;()[]<>=!+*/%|&@#" else f"\\u{{{ord(c):x}}}" for c in s)
        + '"'
    )


def _opt(n: int | None) -> str:
    return "None" if n is None else f"Some({n}i128)"


def _type_desc(t: Type) -> str:
    """Rust expression of the runtime type descriptor ``T`` (JSON decoding)."""
    t = value_type(t)
    if not isinstance(t, TCon):
        raise Untranslatable(f"type {t}")
    if t == UNIT:
        return "T::Unit"
    n = t.name
    if n in INT_RANGES:
        lo, hi = INT_RANGES[n]
        return f"T::Int({_opt(lo if lo >= _I128[0] else None)}, {_opt(hi if hi <= _I128[1] else None)})"
    if n in ("int", "nat"):
        return f"T::Int({_opt(0 if n == 'nat' else None)}, None)"
    if n == "bool":
        return "T::Bool"
    if n == "char":
        return "T::Char"
    if n in ("String", "str"):
        return "T::Str"
    if n in ("Vec", "Seq") and len(t.args) == 1:
        return f"T::Seq(Box::new({_type_desc(t.args[0])}))"
    if n == "Tuple":
        return f"T::Tup(vec![{', '.join(_type_desc(a) for a in t.args)}])"
    raise Untranslatable(f"values of type {n}")


def _walk(x: Any, visit: Callable[[Any], bool]) -> None:
    """Call ``visit`` on ``x`` and every sub-node (dataclass fields, tuple and list items), pre-order;
    a node for which ``visit`` returns True is not descended into."""
    if visit(x):
        return
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            _walk(getattr(x, f.name), visit)
    elif isinstance(x, tuple | list):
        for y in x:
            _walk(y, visit)


def _mentions(e: Any, names: frozenset[str]) -> set[str]:
    """The names of ``names`` that occur in ``e`` (a conservative walk over every sub-node)."""
    out: set[str] = set()

    def visit(x: Any) -> bool:
        if isinstance(x, Path):
            if len(x.segments) == 1 and x.segments[0] in names:
                out.add(x.segments[0])
            return True
        return False

    _walk(e, visit)
    return out


def _conjuncts(e: Expr) -> list[Expr]:
    if isinstance(e, Binary) and e.op == "&&":
        return _conjuncts(e.lhs) + _conjuncts(e.rhs)
    return [e]


_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _isolate(x: Expr, y: Expr, binders: frozenset[str]) -> tuple[Expr, Expr]:
    """``i + c OP y`` → ``i OP y - c`` (and ``c + i``, ``i - c``) when ``c`` has no binder: bounds
    like ``i + 2 < grid.len()``. Adding or subtracting the same value keeps the relation exact."""
    for _ in range(4):
        if not (isinstance(x, Binary) and x.op in ("+", "-")):
            break
        lhs_b, rhs_b = _mentions(x.lhs, binders), _mentions(x.rhs, binders)
        if lhs_b and not rhs_b:
            y = Binary("-" if x.op == "+" else "+", y, x.rhs, x.line)
            x = x.lhs
        elif rhs_b and not lhs_b and x.op == "+":
            y = Binary("-", y, x.lhs, x.line)
            x = x.rhs
        else:
            break
    return x, y


class _Fn:
    """Translation state of one Rust function body: the names in scope."""

    int_consts = _INT_CONSTS

    def __init__(
        self,
        tr: _Translator,
        scope: dict[str, str],
        types: dict[str, Type | None] | None = None,
        ints: dict[str, str] | None = None,
    ) -> None:
        self.tr = tr
        self.scope = scope  # spec name -> Rust variable
        self.types = types or {}  # spec name -> declared type (None: unknown), for the typed fast path
        self.ints = ints or {}  # spec name -> Rust i128 variable holding it (quantifier binders)
        # a call emitted as a given value (linear_rec: the result from the level below), by identity:
        # (the call, its R expression, its typed function's argument for `std::convert::identity`)
        self.hole: tuple[Call, str, str] | None = None

    def with_hole(self, call: Call, r_code: str, typed_code: str) -> _Fn:
        """This scope with ``call`` (a node of the body, by identity) emitted as ``r_code`` (an ``R``) or, where
        its typed function would be called, as ``typed_code`` (a ``Result`` of its kind)."""
        g = _Fn(self.tr, self.scope, self.types, self.ints)
        g.hole = (call, r_code, typed_code)
        return g

    def sub(
        self, extra: dict[str, str], types: dict[str, Type] | None = None, ints: dict[str, str] | None = None
    ) -> _Fn:
        """A scope with ``extra`` names bound; a name rebound loses its old declared type and i128 copy."""
        g = _Fn(
            self.tr,
            {**self.scope, **extra},
            {**self.types, **dict.fromkeys(extra), **(types or {})},
            {**{k: v for k, v in self.ints.items() if k not in extra}, **(ints or {})},
        )
        g.hole = self.hole
        return g

    # every method returns a Rust expression of type R (Result<V, E>)
    def ex(self, e: Expr) -> str:
        if _typed_form(e) and is_int(self, e):
            return f"Ok(V::I({int_expr(self, e)}))"
        m = getattr(self, "x_" + type(e).__name__, None)
        if m is None:
            raise Untranslatable(f"{type(e).__name__} expressions")
        return m(e)

    def val(self, e: Expr) -> str:
        """A Rust expression of type V (inside a context returning Result)."""
        if _typed_form(e) and is_int(self, e):
            return f"V::I({int_expr(self, e)})"
        x = self.ex(e)
        m = _PLAIN_OK.fullmatch(x)
        # `(Ok(v))?` is `v`: a variable or literal needs no Result round trip (which unoptimised
        # checkers pay on every use)
        return m.group(1) if m else f"({x})?"

    def x_Lit(self, e: Lit) -> str:
        if e.kind == "bool":
            return f"Ok(V::B({'true' if e.value else 'false'}))"
        if e.kind == "int":
            if not _I128[0] <= e.value <= _I128[1]:
                raise Untranslatable("an integer literal beyond i128")
            return f"Ok(V::I({e.value}i128))"
        if e.kind == "char":
            return f"Ok(V::C('\\u{{{ord(e.value):x}}}'))"
        if e.kind == "str":
            return f"Ok(str_v({_rust_str(e.value)}))"
        raise Untranslatable(f"{e.kind} literals")

    def x_Path(self, e: Path) -> str:
        segs = e.segments
        if len(segs) == 1 and segs[0] in self.scope:
            return f"Ok({self.scope[segs[0]]}.clone())"
        joined = "::".join(segs)
        if joined in _INT_CONSTS:
            v = _INT_CONSTS[joined]
            if not _I128[0] <= v <= _I128[1]:
                raise Untranslatable(f"{joined} beyond i128")
            return f"Ok(V::I({v}i128))"
        name = segs[-1]
        prog = self.tr.prog
        if name in prog.ctx.consts and (len(segs) == 1 or segs[0] in ("Self", "Solution", "crate")):
            return f"{self.tr.const_fn(name)}()"
        fn = prog.compiler.lookup_fn(segs)
        if fn is not None and not fn.params:
            return f"{self.tr.spec_fn(fn)}()"
        raise Untranslatable(f"the name {joined}")

    def x_Call(self, e: Call) -> str:
        if self.hole is not None and e is self.hole[0]:
            return self.hole[1]
        if not isinstance(e.func, Path):
            raise Untranslatable("calls of computed functions")
        segs = e.func.segments
        name = segs[-1]
        joined = "::".join(segs)
        if joined == "old" and len(e.args) == 1:
            a = e.args[0]
            while isinstance(a, Unary) and a.op == "*":
                a = a.expr
            if isinstance(a, Path) and len(a.segments) == 1 and a.segments[0] in self.scope:
                old = "#old#" + a.segments[0]
                return f"Ok({self.scope.get(old, self.scope[a.segments[0]])}.clone())"
            raise Untranslatable("old(...) of something other than a mutable argument")
        if (len(segs) >= 2 and segs[-2] == "Seq" and name == "empty") or joined == "Seq::<int>::empty":
            return "Ok(mk(vec![]))"
        if joined == "Seq::new" and len(e.args) == 2:
            n = self.val(e.args[0])
            (i,), f, body = self._closure(e.args[1], 1)
            return (f"(|| -> R {{ let n = nonneg_len(&{n})?; let mut out = Vec::with_capacity(n); "
                    f"for k in 0..n {{ let {i} = V::I(k as i128); out.push({f.val(body)}); }} Ok(mk(out)) }})()")  # fmt: skip
        prog = self.tr.prog
        fn = prog.compiler.lookup_fn(segs)
        if fn is not None:
            if len(fn.params) != len(e.args):
                raise Untranslatable(f"spec fn {fn.name} called with {len(e.args)} arguments")
            args = ", ".join(f"&{self.val(a)}" for a in e.args)
            return f"{self.tr.spec_fn(fn)}({args})"
        builtin = prog.ctx.aliases.get(name, name) if len(segs) == 1 else name
        if segs[0] == "vstd" or len(segs) == 1:
            rt = {"min": ("vmin", 2), "max": ("vmax", 2), "abs": ("vabs", 1), "pow": ("pow", 2)}.get(builtin)
            if rt is not None and rt[1] == len(e.args):
                return f"{rt[0]}({', '.join('&' + self.val(a) for a in e.args)})"
            if builtin == "pow2" and len(e.args) == 1:
                return f"pow(&V::I(2), &{self.val(e.args[0])})"
        raise Untranslatable(f"the function {joined}")

    _METHODS = {
        ("len", 0): "len",
        ("spec_index", 1): "idx",
        ("index", 1): "idx",
        ("subrange", 2): "subrange",
        ("take", 1): "take",
        ("skip", 1): "skip",
        ("push", 1): "push",
        ("add", 1): "add",
        ("drop_last", 0): "drop_last",
        ("drop_first", 0): "drop_first",
        ("last", 0): "last",
        ("first", 0): "first",
        ("contains", 1): "contains",
        ("reverse", 0): "reverse",
        ("update", 2): "update",
        ("clone", 0): "",
        ("to_multiset", 0): "to_multiset",
        ("count", 1): "mcount",
    }

    def _closure(self, c: Expr, n: int) -> tuple[list[str], _Fn, Expr]:
        """Rust variables for a closure's ``n`` parameters, the scope binding them, and its body."""
        if not isinstance(c, Closure) or len(c.params) != n:
            raise Untranslatable(f"a closure argument with {n} parameter(s) is expected")
        vs = [f"{_ident(name)}_{self.tr.fresh()}" for name, _ in c.params]
        return vs, self.sub({name: v for (name, _), v in zip(c.params, vs)}), c.body

    def _seq_closure_method(self, e: MethodCall) -> str | None:
        recv = self.val(e.recv)
        if e.name == "filter" and len(e.args) == 1:
            (x,), f, body = self._closure(e.args[0], 1)
            return (f"(|| -> R {{ let src = seq(&{recv})?.clone(); let mut out = Vec::new(); "
                    f"for {x} in src.iter() {{ let {x} = {x}.clone(); if truth(&{f.val(body)})? {{ out.push({x}); }} }} "
                    f"Ok(mk(out)) }})()")  # fmt: skip
        if e.name == "map_values" and len(e.args) == 1:
            (x,), f, body = self._closure(e.args[0], 1)
            return (f"(|| -> R {{ let src = seq(&{recv})?.clone(); let mut out = Vec::new(); "
                    f"for {x} in src.iter() {{ let {x} = {x}.clone(); out.push({f.val(body)}); }} Ok(mk(out)) }})()")  # fmt: skip
        if e.name == "map" and len(e.args) == 1:
            (i, x), f, body = self._closure(e.args[0], 2)
            return (f"(|| -> R {{ let src = seq(&{recv})?.clone(); let mut out = Vec::new(); "
                    f"for (k, {x}) in src.iter().enumerate() {{ let {i} = V::I(k as i128); let {x} = {x}.clone(); "
                    f"out.push({f.val(body)}); }} Ok(mk(out)) }})()")  # fmt: skip
        if e.name == "fold_left" and len(e.args) == 2:
            init = self.val(e.args[0])
            (acc, x), f, body = self._closure(e.args[1], 2)
            return (f"(|| -> R {{ let src = seq(&{recv})?.clone(); let mut {acc} = {init}; "
                    f"for {x} in src.iter() {{ let {x} = {x}.clone(); {acc} = {f.val(body)}; }} Ok({acc}) }})()")  # fmt: skip
        return None

    def x_MethodCall(self, e: MethodCall) -> str:
        prog = self.tr.prog
        fn = prog.ctx.fns.get(e.name)
        if fn is not None and fn.params and fn.params[0][0] == "self":
            args = ", ".join(f"&{self.val(a)}" for a in (e.recv, *e.args))
            return f"{self.tr.spec_fn(fn)}({args})"
        if e.args and isinstance(e.args[-1], Closure):
            got = self._seq_closure_method(e)
            if got is not None:
                return got
        rt = self._METHODS.get((e.name, len(e.args)))
        if rt is None:
            raise Untranslatable(f"the method .{e.name}()")
        if rt == "":
            return self.ex(e.recv)
        args = ", ".join(f"&{self.val(a)}" for a in (e.recv, *e.args))
        return f"{rt}({args})"

    def x_Field(self, e: Field) -> str:
        if e.name.isdigit():
            return f"idx(&{self.val(e.obj)}, &V::I({int(e.name)}))"
        raise Untranslatable(f"the field .{e.name}")

    def x_Index(self, e: Index) -> str:
        return f"idx(&{self.val(e.obj)}, &{self.val(e.index)})"

    def x_View(self, e: View) -> str:
        return self.ex(e.obj)

    def x_Unary(self, e: Unary) -> str:
        if e.op in ("&", "*"):
            return self.ex(e.expr)
        if e.op == "-":
            return f"neg(&{self.val(e.expr)})"
        if e.op == "!":
            return f"not(&{self.val(e.expr)})"
        raise Untranslatable(f"unary {e.op}")

    def _bool(self, e: Expr) -> str:
        """A closure call of type Result<bool, E> (errors kept local for three-valued logic); a call of a
        spec fn with a boolean result calls its typed function (``typed_fns``)."""
        if isinstance(e, Binary) and e.op in _CONNECTIVES:
            return self._connective(e)
        if isinstance(e, Chain):
            typed = typed_chain(self, e, self._chain_ops(e), as_bool=True)
            if typed is not None:
                return f"(|| -> Result<bool, E> {{ {typed} }})()"
        call = self._typed_call(e, "bool")
        # (in the closure: an argument that fails is this operand's error, not its caller's)
        if call is not None:
            return f"(|| -> Result<bool, E> {{ {call[0]}({call[1]}) }})()"
        return f"(|| -> Result<bool, E> {{ truth(&{self.val(e)}) }})()"

    def _connective(self, e: Binary) -> str:
        """``&&``, ``||``, ``==>``, ``<==`` as an expression of type Result<bool, E> with no ``?`` of its own
        (its operands are ``_bool`` forms): Kleene's logic — an operand that decides (``false`` of ``&&``,
        ``true`` of ``||``, a false antecedent) decides even when the other is UNKNOWN. Nested connectives
        nest as plain ``match`` es: no closure, no ``V::B`` built and matched per level."""
        op = e.op
        lhs, rhs = (e.rhs, e.lhs) if op == "<==" else (e.lhs, e.rhs)
        stop = "false" if op == "&&" else "true"
        a, b = self._bool_or_stub(lhs), self._bool_or_stub(rhs)
        a_val = "!x" if op in ("==>", "<==") else "x"
        # a long right operand is emitted once, as a closure called on either path (written out twice,
        # nested connectives doubled the code at every level: cf567A's checker was 389 kB); a short one
        # is written out twice, which an optimised checker runs a little faster
        fb, let = b, ""
        if len(b) > _INLINE_OPERAND:
            fb = f"fb{self.tr.fresh()}()"
            let = f"let {fb[:-2]} = || -> Result<bool, E> {{ {b} }}; "
        return (
            f"({{ {let}match {a} {{ Ok(x) => if {a_val} == {stop} {{ Ok({stop}) }} else {{ {fb} }}, "
            f"Err(er) => match {fb} {{ Ok(y) if y == {stop} => Ok({stop}), _ => Err(er) }} }} }})"
        )

    @staticmethod
    def _chain_ops(e: Chain) -> list[str]:
        ops = []
        for op in e.ops:
            norm = {"=~=": "==", "=~~=": "==", "===": "==", "!==": "!="}.get(op, op)
            if norm not in ("==", "!=", "<", "<=", ">", ">="):
                raise Untranslatable(f"comparison {op}")
            ops.append(norm)
        return ops

    def _typed_call(self, e: Expr, kind: str) -> tuple[str, str] | None:
        """(typed function, argument list) of a call of a spec fn whose result is ``kind`` (its arguments
        rendered as ``x_Call`` renders them, left to right), else None."""
        if not (isinstance(e, Call) and isinstance(e.func, Path)) or "::".join(e.func.segments) == "old":
            return None
        fn = self.tr.prog.compiler.lookup_fn(e.func.segments)
        if fn is None or len(fn.params) != len(e.args) or typed_fns.result_kind(fn.ret) != kind:
            return None
        if self.hole is not None and e is self.hole[0]:
            return "std::convert::identity", self.hole[2]
        got = self.tr.typed_fn(fn)
        assert got is not None
        return got[1], ", ".join(f"&{self.val(a)}" for a in e.args)

    def _bool_or_stub(self, e: Expr) -> str:
        """``_bool``, or an UNKNOWN stub when ``e`` is outside the fragment: the connective around it can
        still decide (``false ==> ?`` is true, ``false && ?`` false, ``true || ?`` true, Kleene's logic);
        the stub is recorded, so the checker is not complete and its UNKNOWNs still go to Python."""
        try:
            return self._bool(e)
        except Untranslatable as exc:
            self.tr.stubs.append(str(exc))
            return f"(|| -> Result<bool, E> {{ unk({_rust_str('not compiled: ' + str(exc))}) }})()"

    def x_Binary(self, e: Binary) -> str:
        op = e.op
        if op in _CONNECTIVES:
            return f"{self._connective(e)}.map(V::B)"
        if op == "<==>":
            return f"Ok(V::B(truth(&{self.val(e.lhs)})? == truth(&{self.val(e.rhs)})?))"
        a, b = self.val(e.lhs), self.val(e.rhs)
        fn = {"+": "add", "-": "sub", "*": "mul", "/": "ediv", "%": "emod", "<<": "shl", ">>": "shr"}.get(op)
        if fn is not None:
            return f"{fn}(&{a}, &{b})"
        if op in ("&", "|", "^"):
            return f"bit('{op}', &{a}, &{b})"
        raise Untranslatable(f"operator {op}")

    def x_Chain(self, e: Chain) -> str:
        ops = self._chain_ops(e)
        typed = typed_chain(self, e, ops)
        if typed is not None:
            return typed
        xs = [self.val(x) for x in e.operands]
        if len(xs) == 2:  # one comparison: no closure, no moves (operands evaluated left to right)
            return f"Ok(V::B({_CMP_FN[ops[0]]}(&{xs[0]}, &{xs[1]})?))"
        body = [f"let mut a = {xs[0]};"]
        for op, x in zip(ops, xs[1:]):
            body.append(f"let b = {x}; if !{_CMP_FN[op]}(&a, &b)? {{ return Ok(V::B(false)); }} a = b;")
        return "(|| -> R { " + " ".join(body) + " Ok(V::B(true)) })()"

    def x_Cast(self, e: Cast) -> str:
        t = e.type
        if not isinstance(t, TCon):
            raise Untranslatable("cast to a non-scalar type")
        v = self.val(e.expr)
        if t.name == "int":
            return f"Ok(V::I(to_int(&{v})?))"
        if t.name == "nat":
            return f'cast(&{v}, Some(0), None, "nat")'
        if t.name in INT_RANGES:
            lo, hi = INT_RANGES[t.name]
            lo_s = _opt(lo) if lo >= _I128[0] else "None"
            hi_s = _opt(hi) if hi <= _I128[1] else "None"
            return f'cast(&{v}, {lo_s}, {hi_s}, "{t.name}")'
        if t.name == "char":
            return f"cast_char(&{v})"
        if t.name == "bool":
            return f"Ok(V::B(truth(&{v})?))"
        raise Untranslatable(f"cast to {t.name}")

    def x_If(self, e: If) -> str:
        if e.else_ is None:
            raise Untranslatable("if without else")
        return f"if {self._bool(e.cond)}? {{ {self.ex(e.then)} }} else {{ {self.ex(e.else_)} }}"

    def x_Block(self, e: Block) -> str:
        f: _Fn = self
        parts = []
        for k, let in enumerate(e.lets):
            if not isinstance(let.pat, PBind):
                raise Untranslatable("let with a pattern")
            var = f"{_ident(let.pat.name)}_{self.tr.fresh()}"
            parts.append(f"let {var} = {f.val(let.value)};")
            f = f.sub({let.pat.name: var})
            del k
        return "(|| -> R { " + " ".join(parts) + f" {f.ex(e.tail)} }})()"

    def x_Tuple(self, e: Tuple) -> str:
        if not e.items:
            return "Ok(V::U)"
        return f"Ok(mk(vec![{', '.join(self.val(x) for x in e.items)}]))"

    def x_SeqLit(self, e: SeqLit) -> str:
        return f"Ok(mk(vec![{', '.join(self.val(x) for x in e.items)}]))"

    def x_Quant(self, q: Quant) -> str:
        if q.kind not in ("forall", "exists"):
            raise Untranslatable(f"{q.kind} quantifiers")
        exists = q.kind == "exists"
        names = [n for n, _ in q.binders]
        nameset = frozenset(names)
        # the guard: conjuncts that must hold for the body to matter
        body = q.body
        if exists:
            guard = _conjuncts(body)
        elif isinstance(body, Binary) and body.op == "==>":
            guard = _conjuncts(body.lhs)
        else:
            guard = []
        # a boolean spec fn in the guard contributes its body's conjuncts (arguments substituted)
        for _ in range(3):
            more: list[Expr] = []
            for c in guard:
                inl = self.tr.prog.compiler.inline_call(c) if isinstance(c, Call) else None
                more.extend(_conjuncts(inl) if inl is not None else [c])
            guard = more
        lows: dict[str, list[tuple[Expr, bool]]] = {n: [] for n in names}
        highs: dict[str, list[tuple[Expr, bool]]] = {n: [] for n in names}
        for c in guard:
            if not isinstance(c, Chain):
                continue
            for op, a, b in zip(c.ops, c.operands, c.operands[1:]):
                if op not in _FLIP:
                    continue
                for x, y, o in ((a, b, op), (b, a, _FLIP[op])):
                    x, y = _isolate(x, y, nameset)
                    if isinstance(x, Path) and len(x.segments) == 1 and x.segments[0] in nameset:
                        dest = highs if o in ("<", "<=") else lows
                        dest[x.segments[0]].append((y, o in ("<", ">")))
        # transitivity through other binders (widens only)
        for _ in range(len(names)):
            for n in names:
                for dest in (lows, highs):
                    for y, _strict in list(dest[n]):
                        if isinstance(y, Path) and len(y.segments) == 1 and y.segments[0] in nameset:
                            for z in dest[y.segments[0]]:
                                if z[0] != Path((n,)) and (z[0], False) not in dest[n]:
                                    dest[n].append((z[0], False))
        types = dict(q.binders)
        order: list[str] = []
        while len(order) < len(names):
            done = frozenset(order)
            pick = None
            for n in names:
                if n in done:
                    continue
                t = types[n]
                if isinstance(t, TCon) and t.name == "bool":
                    pick = n
                    break
                ok_l = any(not (_mentions(y, nameset) - done) for y, _ in lows[n]) or (
                    isinstance(t, TCon)
                    and (t.name == "nat" or (t.name in INT_RANGES and t.name.startswith("u")))
                )
                ok_h = any(not (_mentions(y, nameset) - done) for y, _ in highs[n])
                if ok_l and ok_h:
                    pick = n
                    break
            if pick is None:
                raise Untranslatable(f"a binder of the quantifier at line {q.line} without two finite bounds")
            order.append(pick)
        lines = ["(|| -> R {", "let mut err: Option<E> = None;"]
        scope: dict[str, str] = {}
        closers: list[str] = []
        f: _Fn = self
        for k, n in enumerate(order):
            t = types[n]
            var = f"{_ident(n)}_{self.tr.fresh()}"
            if isinstance(t, TCon) and t.name == "bool":
                lines.append(f"for {var} in [V::B(false), V::B(true)] {{")
                closers.append("}")
            else:
                if not (isinstance(t, TCon) and (t.name in ("int", "nat") or t.name in INT_RANGES)):
                    raise Untranslatable(f"a quantifier binder of type {t}")
                done = frozenset(order[:k])
                lo_parts = [
                    f"{{ let b = {int_operand(f, y)}; {'b + 1' if strict else 'b'} }}"
                    for y, strict in lows[n]
                    if not (_mentions(y, nameset) - done)
                ]
                hi_parts = [
                    f"{{ let b = {int_operand(f, y)}; {'b - 1' if strict else 'b'} }}"
                    for y, strict in highs[n]
                    if not (_mentions(y, nameset) - done)
                ]
                tlo, thi = INT_RANGES.get(t.name, (0 if t.name == "nat" else None, None))
                if tlo is not None and tlo >= _I128[0]:
                    lo_parts.append(f"{tlo}i128")
                if thi is not None and thi <= _I128[1]:
                    hi_parts.append(f"{thi}i128")
                lo = (
                    lo_parts[0]
                    if len(lo_parts) == 1
                    else f"[{', '.join(lo_parts)}].into_iter().max().unwrap()"
                )
                hi = (
                    hi_parts[0]
                    if len(hi_parts) == 1
                    else f"[{', '.join(hi_parts)}].into_iter().min().unwrap()"
                )
                c = f"c{self.tr.fresh()}"
                # a range the remaining budget cannot cover is searched with a share of the budget;
                # the values it does not reach make this binder's instances UNKNOWN (recorded like any
                # other unknown instance, so other outer values still count)
                lines.append(
                    f"let lo_{c}: i128 = {lo}; let hi_{c}: i128 = {hi}; let cap_{c} = search_cap(lo_{c}, hi_{c}); "
                    f"let f0_{c} = steps_used(); let mut {c} = lo_{c};"
                )
                lines.append(
                    f"while {c} <= hi_{c} {{ if cap_{c} != u64::MAX && steps_used() - f0_{c} >= cap_{c} {{ "
                    f"let e = range_cut(lo_{c}, hi_{c}, {c}, cap_{c}); if let E::Fuel(_) = e {{ return Err(e); }} "
                    f"if err.is_none() {{ err = Some(e); }} break; }} "
                    f"let {var}_i: i128 = {c}; let {var} = V::I({c}); {c} += 1;"
                )
                closers.append("}")
            scope[n] = var
            f = f.sub({n: var}, {n: t}, {n: f"{var}_i"} if is_int_type(t) else None)
        lines.append("charge()?;")
        want = "true" if exists else "false"
        lines.append(
            f"match {f._bool(q.body)} {{ Ok(b) => if b == {want} {{ return Ok(V::B({want})); }}, "
            f"Err(e) => {{ if let E::Fuel(_) = e {{ return Err(e); }} if err.is_none() {{ err = Some(e); }} }} }}"
        )
        lines.extend(closers)
        lines.append(f"match err {{ Some(e) => Err(e), None => Ok(V::B({'false' if exists else 'true'})) }}")
        lines.append("})()")
        return "\n".join(lines)


class _Translator:
    def __init__(self, prog: SpecProgram) -> None:
        self.prog = prog
        self.fns: dict[str, str] = {}  # spec fn name -> Rust fn name
        self.bodies: list[str] = []
        self.counter = 0
        self.errors: list[str] = []
        self._memo: dict[str, bool] = {}  # spec fn name -> memoised (see `memoised`)
        self.stubs: list[str] = []  # operands of && / || / ==> outside the fragment (see _Fn._bool_or_stub)

    def fresh(self) -> int:
        self.counter += 1
        return self.counter

    def _callees(self, fn: Any) -> set[str]:
        """Names of the spec fns ``fn``'s body may call (any name of a spec fn in it: over-approximated)."""
        names = set(self.prog.ctx.fns)
        out: set[str] = set()

        def visit(x: Any) -> bool:
            if isinstance(x, Path):
                if x.segments and x.segments[-1] in names:
                    out.add(x.segments[-1])
                return True
            if isinstance(x, MethodCall) and x.name in names:
                out.add(x.name)
            return False

        _walk(fn.body, visit)
        return out

    def memoised(self, fn: Any) -> bool:
        """Whether calls of ``fn`` go through the memo: unless ``fn`` is not recursive (it cannot reach
        itself through the spec fns it may call) and its body does constant work besides calling spec
        fns — no quantifier, no closure, no sequence method but ``len``/indexing/``first``/``last``, and
        ``+`` and comparisons only on integers (``typed.is_int``: a sequence ``+`` or ``==`` is linear
        work that no step pays for). A repeated call of such a fn costs little more than a probe would
        (its callees keep their memo), and most calls (``valid_split(s, i, j)`` for every pair of a
        quantifier) are never repeated: their memo entry was pure cost (key, hash, insert). A repeated
        call is charged its callees' steps again; the verdict does not depend on the memo."""
        if fn.name in self._memo:
            return self._memo[fn.name]
        heavy = False
        fx = _Fn(self, {n: _ident(n) for n, _ in fn.params}, dict(fn.params))
        cheap_methods = ("len", "spec_index", "index", "first", "last")

        def visit(x: Any) -> bool:
            nonlocal heavy
            if (
                isinstance(x, Quant | Closure)
                or (
                    isinstance(x, MethodCall)
                    and x.name not in cheap_methods
                    and x.name not in self.prog.ctx.fns
                )
                or (isinstance(x, Binary) and x.op == "+" and not is_int(fx, x))
                or (isinstance(x, Chain) and not all(is_int(fx, y) for y in x.operands))
            ):
                heavy = True
                return True
            return False

        _walk(fn.body, visit)
        seen: set[str] = set()
        todo = sorted(self._callees(fn))
        while todo and not heavy:
            n = todo.pop()
            if n == fn.name:
                heavy = True
            elif n not in seen and n in self.prog.ctx.fns:
                seen.add(n)
                todo.extend(sorted(self._callees(self.prog.ctx.fns[n])))
        self._memo[fn.name] = heavy
        return heavy

    def linear(self, fn: Any) -> linear_rec.Shape | None:
        """``fn`` 's shape when it is a linear recursion computed as a loop (``linear_rec``), else None."""
        fns = self.prog.ctx.fns

        def reaches(name: str) -> bool:  # whether the spec fn `name` can call `fn`
            seen: set[str] = set()
            todo = [name]
            while todo:
                n = todo.pop()
                if n == fn.name:
                    return True
                if n not in seen and n in fns:
                    seen.add(n)
                    todo.extend(sorted(self._callees(fns[n])))
            return False

        methods = frozenset(self_m for self_m, rt in _Fn._METHODS.items() if rt)
        return linear_rec.recognize(fn, self.prog.compiler.lookup_fn, fns, methods, reaches)

    def const_fn(self, name: str) -> str:
        key = "#const#" + name
        if key not in self.fns:
            rust = f"k_{_ident(name)}"
            self.fns[key] = rust
            body = _Fn(self, {}).ex(self.prog.ctx.consts[name])
            self.bodies.append(f"fn {rust}() -> R {{ {body} }}")
        return self.fns[key]

    def spec_fn(self, fn: Any) -> str:
        if fn.name not in self.fns:
            rust = f"f_{_ident(fn.name)}"
            self.fns[fn.name] = rust
            fid = self.fresh()  # fixed before the body registers callees: one memo id per fn
            if fn.body is None:
                raise Untranslatable(f"spec fn {fn.name} has no body")
            if fn.name in self.prog.fn_errors:
                raise Untranslatable(f"spec fn {fn.name} does not parse")
            params = {n: f"{_ident(n)}" for n, _ in fn.params}
            kind = typed_fns.result_kind(fn.ret)
            shape = self.linear(fn) if self.memoised(fn) else None
            lname = "l_" + rust.removeprefix("f_")
            try:
                fx = _Fn(self, params, dict(fn.params))
                ps = list(params.values())
                # linear recursion: a loop in place of the body (linear_rec), in both forms
                loop = None if shape is None else linear_rec.emit(fx, shape, lname, fid, ps, kind)
                if kind is not None:  # integer / boolean result: typed_fns
                    emitted = typed_fns.emit(
                        fx, rust, fid, ps, fn.body, kind, self.memoised(fn), None if shape is None else lname
                    )
                else:
                    body = f"{lname}({', '.join(params.values())})" if shape is not None else fx.ex(fn.body)
            except Untranslatable:
                del self.fns[fn.name]
                raise
            sig = ", ".join(f"{v}: &V" for v in params.values())
            if loop is not None:
                self.bodies.append(loop)
            if kind is not None:
                self.bodies.extend(emitted)
            elif self.memoised(fn):
                # the typed memo (memo_rs): a key of machine words, the generic key only as its fallback
                args = f"&[{', '.join(params.values())}]"
                self.bodies.append(
                    f"fn {rust}({sig}) -> R {{ charge()?; let key = tkey({fid}, {args}); "
                    f"if let Some(v) = memo_get_t(key, {fid}, {args}) {{ return Ok(v); }} enter()?; "
                    f"let r = (|| -> R {{ {body} }})(); leave(); if let Ok(v) = &r {{ memo_put_t(key, {fid}, {args}, v); }} r }}"
                )
            else:  # see `memoised`: evaluating the body again costs about what a memo probe would
                self.bodies.append(
                    f"fn {rust}({sig}) -> R {{ charge()?; enter()?; let r = (|| -> R {{ {body} }})(); leave(); r }}"
                )
        return self.fns[fn.name]

    def typed_fn(self, fn: Any) -> tuple[str, str] | None:
        """(kind, Rust name) of ``fn``'s typed function (``typed_fns``), translating it if needed; None
        when its result is neither an integer nor a boolean."""
        kind = typed_fns.result_kind(fn.ret)
        if kind is None:
            return None
        return kind, typed_fns.typed_name(self.spec_fn(fn))


def translate(
    spec_text: str,
    input_names: Sequence[str] | None = None,
    target: str | None = None,
    *,
    standalone: bool = False,
) -> Checker:
    """A checker for the contract of ``target`` in ``spec_text``.

    ``input_names`` are the JSON keys of test inputs (the reference's parameter
    names), bound to the spec's parameters by position; default: the spec's names.
    Raises ``Untranslatable`` when the target has a receiver or an unsupported parameter type.
    ``standalone``: a single file for plain ``rustc``; otherwise the source links the
    precompiled runtime crate (``build.compile_checker``).
    """
    try:
        prog = SpecProgram.from_source(spec_text, target=target)
    except SpecLoadError as exc:
        raise Untranslatable(f"spec does not load: {exc}") from None
    if prog.receiver:
        raise Untranslatable("methods with a receiver")
    tr = _Translator(prog)
    names = list(input_names) if input_names is not None else [n for n, _ in prog.params]
    if len(names) != len(prog.params):
        raise Untranslatable("the input names do not match the spec's parameters")
    muts = set(prog.mutables())
    main: list[str] = []
    pre_scope: dict[str, str] = {}
    for (pname, ptype), key in zip(prog.params, names):
        var = _ident(pname)
        pre_scope[pname] = var
        main.append(
            f"let {var} = from_j(&{_type_desc(ptype)}, field(inp, {json.dumps(key)})"
            f".ok_or_else(|| {json.dumps('missing input ' + key)}.to_string())?)?;"
        )
    post_scope = dict(pre_scope)
    post_lines: list[str] = []
    if muts:
        post_lines.append('let ret_j = field(outj, "return").unwrap_or(JS_NULL);')
        post_lines.append('let after = field(outj, "after");')
        for (pname, ptype), key in zip(prog.params, names):
            if pname not in muts:
                continue
            var = _ident(pname) + "_after"
            post_lines.append(
                f"let {var} = from_j(&{_type_desc(ptype)}, after.and_then(|a| field(&a, {json.dumps(key)}))"
                f".ok_or_else(|| {json.dumps('missing the final value of ' + key)}.to_string())?)?;"
            )
            post_scope["#old#" + pname] = _ident(pname)
            post_scope[pname] = var
    else:
        post_lines.append("let ret_j = outj.clone();")
    rvar = _ident(prog.ret_name) + "_ret"
    post_lines.append(f"let {rvar} = from_j(&{_type_desc(prog.ret_type)}, &ret_j)?;")
    post_scope[prog.ret_name] = rvar
    # declared types of the names in scope (the typed fast path); `old(x)` has the type of `x`
    types: dict[str, Type | None] = {n: t for n, t in prog.params}
    types[prog.ret_name] = prog.ret_type
    untranslated: list[str] = []
    req_items: list[str] = []
    ens_items: list[str] = []
    for clauses, scope, items in (
        (prog.requires, pre_scope, req_items),
        (prog.ensures, post_scope, ens_items),
    ):
        for c in clauses:
            text = " ".join(c.text.split())
            short = text if len(text) <= 80 else text[:77] + "..."
            stubs = len(tr.stubs)
            try:
                if c.expr is None:
                    raise Untranslatable(f"parse error: {c.error}")
                body = _Fn(tr, scope, types)._bool(c.expr)  # (Result<bool, E>, as truth(&val) was)
            except Untranslatable as exc:
                untranslated.append(f"{short}: {exc}")
                body = f"unk({_rust_str('not compiled: ' + str(exc))})"
            else:
                if (
                    len(tr.stubs) > stubs
                ):  # compiled around an UNKNOWN stub: decided only where it does not matter
                    untranslated.append(f"{short}: partly: {'; '.join(tr.stubs[stubs:])}")
            items.append(f"({_rust_str(short)}, &|| -> Result<bool, E> {{ {body} }})")
    if standalone:  # one file that plain rustc builds: JSON reader and runtime inline
        head = ["#![allow(warnings)]", JSON_MODULE, RUNTIME]
    else:  # links the precompiled runtime crate (see build)
        head = ["#![allow(warnings)]", f"extern crate {RUNTIME_CRATE};", f"use {RUNTIME_CRATE}::*;",
                "use std::io::{BufRead, Write};", "use std::rc::Rc;"]  # fmt: skip
    src = [*head, *tr.bodies]
    src.append(
        "fn case(o: &mut String, inp: &Js, outj: Option<&Js>) -> Result<(), String> {\n"
        + "\n".join("    " + m for m in main)
        + "\n    o.push('{');\n"
        f'    verdict(o, "requires", &[{", ".join(req_items)}]);\n'
        "    if let Some(outj) = outj {\n"
        + "\n".join("        " + m for m in post_lines)
        + "\n        o.push(',');\n"
        f'        verdict(o, "ensures", &[{", ".join(ens_items)}]);\n'
        "    }\n"
        "    o.push('}');\n"
        "    Ok(())\n"
        "}\n"
        "fn run() { serve(case) }  // the request loop and reply forms: the runtime's `serve`\n"
        "fn main() {\n"
        '    let h = std::thread::Builder::new().stack_size(1 << 30).spawn(run).expect("thread");\n'
        "    h.join().ok();\n"
        "}\n"
    )
    # (the rewrite touches the emitted code only, never the runtime text of a standalone checker)
    text = "\n".join([*head, _BORROWED_CLONE.sub(r"&\1", "\n".join(src[len(head) :]))])
    return Checker(text, complete=not untranslated, untranslated=untranslated,
                   clauses=len(prog.requires) + len(prog.ensures))  # fmt: skip
