"""Typed fast path of the Post2Exe translator: integer expressions as native ``i128``.

The translator's general code computes on dynamically typed values (``V``): every
``+`` builds a ``V::I``, every comparison matches two ``V`` s. Where the
expression is an integer *by construction* this module emits plain ``i128``
code instead, with the same meaning:

* what is an integer (``is_int``): integer literals and ``iN::MIN/MAX``; names
  declared with an integer type (parameters, spec fn parameters, quantifier
  binders — a binder is the loop counter itself); ``len()``; an index into a
  name declared as a sequence of integers (or ``s[i][j]`` into a sequence of
  sequences of integers); ``-``, ``*``, ``/``, ``%`` (the
  general code converts both operands with ``int`` too) and ``+`` when one
  operand is an integer (``+`` of two sequences is concatenation); casts to an
  integer type; calls of spec fns declared to return an integer;
* how (``int_expr``): checked ``i128`` arithmetic (``ck`` turns an overflow
  into the same UNKNOWN as the general code), Verus' Euclidean ``/`` and ``%``
  (``ediv_i``/``emod_i``), range-checked casts (``cast_i``), ``idx_i`` reading
  an element without cloning a ``V``; any operand that is not typed is
  converted with the runtime's ``int`` — a value that is not an integer is then
  the general code's UNKNOWN ("expected an integer"), never a wrong number;
* comparisons (``typed_chain``) whose operands are all integers compare
  ``i128`` s directly (on two integers ``V``'s ``==`` and ordering are exactly
  the integers').

Declared types come from the contract; values reach a checker through the
JSON decoder, which checks them against those types, and every value read
from a ``V`` goes through ``int`` (checked), so a wrong guess about a type can
only make a case UNKNOWN, never change a decided verdict. Operands are
evaluated left to right as in the general code.
"""

from __future__ import annotations

from typing import Any

from veriscale.values.rust_types import INT_RANGES, value_type
from veriscale.values.types import TCon, Type

from ..spec.ast import Binary, Call, Cast, Chain, Expr, If, Index, Lit, MethodCall, Path, Unary, View

__all__ = ["int_expr", "int_operand", "is_int", "is_int_type", "typed_chain"]

_I128 = (-(2**127), 2**127 - 1)
_INT_NAMES = frozenset(INT_RANGES) | {"int", "nat"}
_ARITH = {"+": "checked_add", "-": "checked_sub", "*": "checked_mul"}


def is_int_type(t: Type | None) -> bool:
    t = value_type(t) if t is not None else None
    return isinstance(t, TCon) and t.name in _INT_NAMES and not t.args


def _is_int_seq_type(t: Type | None, depth: int = 1) -> bool:
    """A sequence (``depth`` 2: a sequence of sequences) of integers."""
    t = value_type(t) if t is not None else None
    if not (isinstance(t, TCon) and t.name in ("Vec", "Seq") and len(t.args) == 1):
        return False
    return is_int_type(t.args[0]) if depth == 1 else _is_int_seq_type(t.args[0], depth - 1)


def _nested_index(f: Any, e: Expr) -> tuple[str, Expr, Expr] | None:
    """``s[i][j]`` with ``s`` a name declared as a sequence of sequences of integers: (s, i, j)."""
    outer = _index_parts(e)
    if outer is None:
        return None
    inner = _index_parts(_strip(outer[0]))
    if inner is None:
        return None
    n = _name(f, inner[0])
    if n is None or n in f.ints or not _is_int_seq_type(f.types.get(n), 2):
        return None
    # the inner index is computed before the outer one is checked: only a literal or a name, which can
    # fail in no other way than the outer index would, keeps the general code's first error
    if not isinstance(_strip(outer[1]), Lit | Path):
        return None
    return n, inner[1], outer[1]


def _strip(e: Expr) -> Expr:
    while isinstance(e, View) or (isinstance(e, Unary) and e.op in ("&", "*")):
        e = e.obj if isinstance(e, View) else e.expr
    return e


def _name(f: Any, e: Expr) -> str | None:
    e = _strip(e)
    if isinstance(e, Path) and len(e.segments) == 1 and e.segments[0] in f.scope:
        return e.segments[0]
    return None


def _index_parts(e: Expr) -> tuple[Expr, Expr] | None:
    if isinstance(e, Index):
        return e.obj, e.index
    if isinstance(e, MethodCall) and e.name in ("spec_index", "index") and len(e.args) == 1:
        return e.recv, e.args[0]
    return None


def is_int(f: Any, e: Expr) -> bool:
    """Whether ``e`` is an integer by construction (see the module doc); ``f``: the translator's ``_Fn``."""
    e = _strip(e)
    if isinstance(e, Lit):
        return e.kind == "int" and _I128[0] <= e.value <= _I128[1]
    if isinstance(e, Path):
        if len(e.segments) == 1 and e.segments[0] in f.scope:
            return e.segments[0] in f.ints or is_int_type(f.types.get(e.segments[0]))
        v = f.int_consts.get("::".join(e.segments))
        return v is not None and _I128[0] <= v <= _I128[1]
    if isinstance(e, Binary):
        if e.op in ("-", "*", "/", "%"):
            return True
        if e.op == "+":
            return is_int(f, e.lhs) or is_int(f, e.rhs)
        return False
    if isinstance(e, Unary):
        return e.op == "-"
    if isinstance(e, Cast):
        return isinstance(e.type, TCon) and e.type.name in _INT_NAMES
    if isinstance(e, MethodCall) and e.name == "len" and not e.args:
        return f.tr.prog.ctx.fns.get("len") is None
    parts = _index_parts(e)
    if parts is not None:
        n = _name(f, parts[0])
        if n is not None and n not in f.ints and _is_int_seq_type(f.types.get(n)):
            return True
        return _nested_index(f, e) is not None
    if isinstance(e, Call) and isinstance(e.func, Path):
        fn = f.tr.prog.compiler.lookup_fn(e.func.segments)
        return fn is not None and len(fn.params) == len(e.args) and is_int_type(fn.ret)
    return False


def int_operand(f: Any, e: Expr) -> str:
    """An ``i128`` expression of any operand: typed when it is an integer, else through ``int``. An ``if``
    with an ``else`` converts inside the branch it takes (``if c { 1 } else { 0 }`` as ``i128`` s, no ``V``):
    the condition first, then that branch and its conversion — the general code's order and errors, since
    nothing is evaluated between a branch's value and its conversion. (``is_int`` is not widened: it also
    decides which spec fns are memoised.)"""
    if is_int(f, e):
        return int_expr(f, e)
    s = _strip(e)
    if isinstance(s, If) and s.else_ is not None:
        return f"(if {f._bool(s.cond)}? {{ {int_operand(f, s.then)} }} else {{ {int_operand(f, s.else_)} }})"
    return f"int(&{f.val(e)})?"


def int_expr(f: Any, e: Expr) -> str:
    """A Rust ``i128`` expression (it may use ``?``) of an expression for which ``is_int`` holds."""
    e = _strip(e)
    if isinstance(e, Lit):
        return f"{e.value}i128"
    if isinstance(e, Path):
        if len(e.segments) == 1 and e.segments[0] in f.ints:
            return f.ints[e.segments[0]]
        if len(e.segments) != 1:
            return f"{f.int_consts['::'.join(e.segments)]}i128"
        return f"int(&{f.val(e)})?"
    if isinstance(e, Binary):
        a, b = int_operand(f, e.lhs), int_operand(f, e.rhs)
        if e.op in _ARITH:
            return f"ck(({a}).{_ARITH[e.op]}({b}))?"
        return f"{'ediv_i' if e.op == '/' else 'emod_i'}({a}, {b})?"
    if isinstance(e, Unary):  # "-"
        return f"ck(({int_operand(f, e.expr)}).checked_neg())?"
    if isinstance(e, Cast):
        t = e.type
        assert isinstance(t, TCon)
        x = int_operand(f, e.expr) if is_int(f, e.expr) else f"to_int(&{f.val(e.expr)})?"
        if t.name == "int":
            return x
        lo, hi = (0, None) if t.name == "nat" else INT_RANGES[t.name]
        lo_s = f"Some({lo}i128)" if lo is not None and lo >= _I128[0] else "None"
        hi_s = f"Some({hi}i128)" if hi is not None and hi <= _I128[1] else "None"
        return f'cast_i({x}, {lo_s}, {hi_s}, "{t.name}")?'
    if isinstance(e, MethodCall) and e.name == "len":
        return f"len_i(&{f.val(e.recv)})?"
    nested = _nested_index(f, e)
    if nested is not None:  # the inner sequence is borrowed, not cloned
        n, i, j = nested
        return f"idx2_i(&{f.val(Path((n,)))}, {int_operand(f, i)}, {int_operand(f, j)})?"
    parts = _index_parts(e)
    if parts is not None:
        return f"idx_i(&{f.val(parts[0])}, {int_operand(f, parts[1])})?"
    call = f._typed_call(e, "int")
    if call is not None:  # a spec fn with an integer result: its typed function (typed_fns), no V between
        return f"{call[0]}({call[1]})?"
    return f"int(&{f.val(e)})?"  # a spec fn call: its value, checked to be an integer


_CMP = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def typed_chain(f: Any, e: Chain, ops: list[str], as_bool: bool = False) -> str | None:
    """A chain of comparisons of integers as ``i128`` comparisons (an ``R`` expression; ``as_bool``: a
    ``Result<bool, E>`` one, which may use ``?``), or None when an operand is not an integer by
    construction. Like the general code, a false link stops the chain before the next operand is
    evaluated."""
    if not all(is_int(f, x) for x in e.operands):
        return None
    xs = [int_expr(f, x) for x in e.operands]
    ty, false, true = (
        ("Result<bool, E>", "Ok(false)", "Ok(true)")
        if as_bool
        else ("R", "Ok(V::B(false))", "Ok(V::B(true))")
    )
    if len(xs) == 2:
        cmp = f"({xs[0]}) {_CMP[ops[0]]} ({xs[1]})"
        return f"Ok({cmp})" if as_bool else f"Ok(V::B({cmp}))"
    body = [f"let mut a: i128 = {xs[0]};"]
    for op, x in zip(ops, xs[1:]):
        body.append(f"let b: i128 = {x}; if !(a {_CMP[op]} b) {{ return {false}; }} a = b;")
    return f"(|| -> {ty} {{ " + " ".join(body) + f" {true} }})()"
