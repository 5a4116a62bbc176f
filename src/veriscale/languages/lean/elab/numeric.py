"""Lean's ``binop%`` / ``binrel%`` elaboration of operator trees.

For a maximal tree of ``+ - * / % ++ &&& ||| ^^^ <<< >>>`` and unary ``-``
(parentheses are transparent), Lean

1. elaborates every leaf *without* an expected type,
2. computes the "maximal" leaf type (starting from the expected type for
   ``binop%``; a relation's expected type is ``Prop`` and is not used), where
   a type ``T`` is above ``S`` when there is a coercion ``S → T``,
3. inserts ``↑`` at the leaves whose type differs from the maximum and
   unifies leaves of still-unknown type (numerals) with it.

If some leaf types are incomparable, or no leaf type is known, it falls back
to plain elaboration (all operands of one type, by unification). The
exponent of ``^`` (``rightact%``) is outside the tree.

So ``a - b = r`` with ``a b : Nat`` and ``r : Int`` is *Int* subtraction,
and ``let x : Int := a - b`` too, but ``(a - b : Nat)`` then ``↑`` is not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from veriscale.values.types import BOOL, FLOAT, INT, NAT, PROP, TCon, Type

from .. import ast as A
from ..errors import ElabError
from . import ir
from .coerce import find_coe, has_coe
from .unify import is_meta

if TYPE_CHECKING:
    from .infer import Elaborator
    from .scope import Scope

__all__ = ["ARITH_OPS", "REL_OPS", "elab_arith", "elab_rel"]

ARITH_OPS = frozenset({"+", "-", "*", "/", "%", "++", "&&&", "|||", "^^^", "<<<", ">>>"})
REL_OPS = frozenset({"<", ">", "≤", "≥", "=", "≠", "==", "!="})
_NO_PROP = frozenset({"==", "!="})

_OP_NAMES = {
    "+": "add",
    "-": "sub",
    "*": "mul",
    "/": "div",
    "%": "mod",
    "++": "append",
    "&&&": "land",
    "|||": "lor",
    "^^^": "xor",
    "<<<": "shl",
    ">>>": "shr",
    "<": "lt",
    ">": "gt",
    "≤": "le",
    "≥": "ge",
    "=": "eq",
    "≠": "ne",
    "==": "beq",
    "!=": "bne",
}


@dataclass(eq=False, slots=True)
class _Bin:
    op: str
    lhs: _Tree
    rhs: _Tree
    pos: A.Pos


@dataclass(eq=False, slots=True)
class _Pow:
    base: _Tree
    exp: _Tree
    pos: A.Pos


@dataclass(eq=False, slots=True)
class _Neg:
    arg: _Tree
    pos: A.Pos


@dataclass(eq=False, slots=True)
class _Leaf:
    node: ir.Node
    pos: A.Pos


_Tree = _Bin | _Pow | _Neg | _Leaf


def _to_tree(el: Elaborator, e: A.Expr, sc: Scope) -> _Tree:
    if isinstance(e, A.BinOp):
        if e.op in ARITH_OPS:
            return _Bin(e.op, _to_tree(el, e.lhs, sc), _to_tree(el, e.rhs, sc), e.pos)
        if e.op == "^":
            return _Pow(_to_tree(el, e.lhs, sc), _to_tree(el, e.rhs, sc), e.pos)
    if isinstance(e, A.UnOp) and e.op == "-":
        return _Neg(_to_tree(el, e.expr, sc), e.pos)
    return _Leaf(el.elab(e, None, sc), e.pos)


def _leaves(t: _Tree, out: list[_Leaf]) -> None:
    if isinstance(t, _Bin):
        _leaves(t.lhs, out)
        _leaves(t.rhs, out)
    elif isinstance(t, _Pow):
        _leaves(t.base, out)  # the exponent does not take part (rightact%)
    elif isinstance(t, _Neg):
        _leaves(t.arg, out)
    else:
        out.append(t)


def _unknown(el: Elaborator, t: Type) -> bool:
    return is_meta(el.mc.resolve(t))


def _analyze(el: Elaborator, leaves: list[_Leaf], start: Type | None) -> tuple[Type | None, bool]:
    mc = el.mc
    mx = start
    if mx is not None and _unknown(el, mx):
        mx = None
    for lf in leaves:
        t = mc.resolve(lf.node.ty)
        if is_meta(t):
            continue
        if mx is None:
            mx = t
            continue
        if mc.same(mx, t):
            continue
        if has_coe(mc, t, mx):
            continue
        if has_coe(mc, mx, t):
            mx = t
            continue
        return mx, True
    return mx, False


def _coe_leaf(el: Elaborator, lf: _Leaf, mx: Type) -> ir.Node:
    mc = el.mc
    node = lf.node
    t = mc.resolve(node.ty)
    if is_meta(t):
        if mc.unify(t, mx):
            return node
    elif mc.same(t, mx):
        return node
    c = find_coe(mc, t, mx)
    if c is None:
        if mc.unify(t, mx):
            return node
        raise ElabError(f"type mismatch: {el.show(t)} is not {el.show(mx)}", lf.pos)
    return c(node)


def _build_coe(el: Elaborator, t: _Tree, mx: Type) -> ir.Node:
    """Rebuild the tree at the maximal type, coercing leaves."""
    if isinstance(t, _Leaf):
        return _coe_leaf(el, t, mx)
    if isinstance(t, _Bin):
        lhs = _build_coe(el, t.lhs, mx)
        rhs = _build_coe(el, t.rhs, mx)
        return _mk_bin(el, t.op, lhs, rhs, mx, t.pos)
    if isinstance(t, _Neg):
        arg = _build_coe(el, t.arg, mx)
        return _mk_neg(el, arg, mx, t.pos)
    base = _build_coe(el, t.base, mx)
    return _mk_pow(el, base, _build_plain(el, t.exp), t.pos)


def _build_plain(el: Elaborator, t: _Tree) -> ir.Node:
    """Default elaboration: operands of one type, by unification (``instHAdd`` etc.)."""
    mc = el.mc
    if isinstance(t, _Leaf):
        return t.node
    if isinstance(t, _Bin):
        lhs = _build_plain(el, t.lhs)
        rhs = _build_plain(el, t.rhs)
        if not mc.unify(lhs.ty, rhs.ty):
            c = find_coe(mc, rhs.ty, lhs.ty)
            if c is None:
                raise ElabError(
                    f"operator {t.op} applied to {el.show(lhs.ty)} and {el.show(rhs.ty)}",
                    t.pos,
                )
            rhs = c(rhs)
        return _mk_bin(el, t.op, lhs, rhs, lhs.ty, t.pos)
    if isinstance(t, _Neg):
        arg = _build_plain(el, t.arg)
        r = mc.resolve(arg.ty)
        if is_meta(r):
            # ``Neg Int`` is a default instance (above ``OfNat Nat``): ``-1`` alone is an Int
            mc.defaults[r.name] = INT
        return _mk_neg(el, arg, arg.ty, t.pos)
    base = _build_plain(el, t.base)
    return _mk_pow(el, base, _build_plain(el, t.exp), t.pos)


def _mk_bin(el: Elaborator, op: str, lhs: ir.Node, rhs: ir.Node, ty: Type, pos: A.Pos) -> ir.Node:
    if op in ("<<<", ">>>"):
        # HShiftLeft Nat Nat: both operands share the type in the fragment
        pass
    return ir.Prim(ty, _OP_NAMES[op], [lhs, rhs], ty)


def _mk_neg(el: Elaborator, arg: ir.Node, ty: Type, pos: A.Pos) -> ir.Node:
    r = el.mc.resolve(ty)
    if isinstance(r, TCon) and r.name == "Nat":
        raise ElabError("failed to synthesize Neg Nat", pos)
    return ir.Prim(ty, "neg", [arg], ty)


def _mk_pow(el: Elaborator, base: ir.Node, exp: ir.Node, pos: A.Pos) -> ir.Node:
    mc = el.mc
    bt = mc.resolve(base.ty)
    et = mc.resolve(exp.ty)
    if isinstance(bt, TCon) and bt.name == "Float":
        want = FLOAT
    else:
        want = NAT
    if not mc.unify(et, want):
        c = find_coe(mc, et, want)
        if c is None:
            raise ElabError(f"exponent of ^ must be {el.show(want)}, got {el.show(et)}", pos)
        exp = c(exp)
    return ir.Prim(base.ty, "pow", [base, exp], base.ty)


def elab_arith(el: Elaborator, e: A.Expr, expected: Type | None, sc: Scope) -> ir.Node:
    tree = _to_tree(el, e, sc)
    leaves: list[_Leaf] = []
    _leaves(tree, leaves)
    mx, uncomparable = _analyze(el, leaves, expected)
    if uncomparable or mx is None:
        return _build_plain(el, tree)
    return _build_coe(el, tree, mx)


def elab_rel(el: Elaborator, e: A.BinOp, sc: Scope) -> ir.Node:
    """``binrel%`` (``= ≠ < > ≤ ≥``, Prop) and ``binrel_no_prop%`` (``== !=``, Bool)."""
    mc = el.mc
    no_prop = e.op in _NO_PROP
    lt = _to_tree(el, e.lhs, sc)
    rt = _to_tree(el, e.rhs, sc)
    leaves: list[_Leaf] = []
    _leaves(lt, leaves)
    _leaves(rt, leaves)
    mx, uncomparable = _analyze(el, leaves, None)
    if uncomparable or mx is None:
        lhs = _build_plain(el, lt)
        rhs = _build_plain(el, rt)
        if no_prop:
            lhs = _to_bool(el, lhs)
            rhs = _to_bool(el, rhs)
        rhs = el.coerce(rhs, lhs.ty, e.pos)
        opty = lhs.ty
    else:
        if no_prop and mc.resolve(mx) == PROP:
            mx = BOOL
        lhs = _build_coe(el, lt, mx)
        rhs = _build_coe(el, rt, mx)
        opty = mx
    res = BOOL if no_prop else PROP
    if e.op in ("<", ">", "≤", "≥"):
        el.check_ordered(opty, e.pos)
    else:
        el.check_eq(opty, e.pos, beq=no_prop)
    return ir.Prim(res, _OP_NAMES[e.op], [lhs, rhs], opty)


def _to_bool(el: Elaborator, n: ir.Node) -> ir.Node:
    if el.mc.resolve(n.ty) == PROP:
        return ir.Coe(BOOL, "prop_bool", n)
    return n
