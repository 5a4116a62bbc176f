"""Names the elaborator treats specially: constructors, ``decide``, ``toString``, ``Id.run``, ….

They are resolved after user definitions and before builtins. Each ``sp_*``
method elaborates one of them applied to its arguments; used as a value (or
partially applied) a special is eta-expanded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veriscale.values.types import BOOL, INT, NAT, PROP, STRING, UNIT, TCon, TFun, Type

from .. import ast as A
from ..errors import ElabError, Unsupported
from . import ir
from .astx import NodeExpr
from .scope import Scope
from .typeutil import fun_type
from .unify import is_meta

if TYPE_CHECKING:
    from .infer import Elaborator

__all__ = ["SPECIALS", "SPECIAL_ARITY", "SpecialsMixin"]

SPECIALS: dict[str, str] = {
    "some": "some",
    "Option.some": "some",
    "none": "none",
    "Option.none": "none",
    "true": "true",
    "Bool.true": "true",
    "false": "false",
    "Bool.false": "false",
    "True": "True",
    "False": "False",
    "Nat.succ": "succ",
    "Nat.zero": "zero",
    "List.nil": "nil",
    "List.cons": "cons",
    "Prod.mk": "pair",
    "Prod.fst": "fst",
    "Prod.snd": "snd",
    "id": "id",
    "decide": "decide",
    "Decidable.decide": "decide",
    "Id.run": "idrun",
    "pure": "pure",
    "toString": "toString",
    "ToString.toString": "toString",
    "repr": "repr",
    "Repr.repr": "repr",
    "default": "default",
    "Inhabited.default": "default",
    "Int.ofNat": "intofnat",
    "Array.mk": "arraymk",
    "Unit.unit": "unit",
    "panic": "panic",
    "panic!": "panic",
    "not": "bnot",
    "and": "band",
    "or": "bor",
    "Not": "pnot",
}

# arity of specials when used as function values
SPECIAL_ARITY = {
    "some": 1,
    "succ": 1,
    "cons": 2,
    "pair": 2,
    "fst": 1,
    "snd": 1,
    "id": 1,
    "decide": 1,
    "toString": 1,
    "repr": 1,
    "intofnat": 1,
    "arraymk": 1,
    "bnot": 1,
    "band": 2,
    "bor": 2,
    "pnot": 1,
}


class SpecialsMixin:
    """The ``sp_*`` elaborators (mixed into ``Elaborator``)."""

    def special(
        self: Elaborator, name: str, args: list[A.Arg], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        for a in args:
            if a.name is not None:
                raise ElabError(f"named argument for {name}", pos)
        vals: list[A.Expr] = [a.value for a in args]
        arity = SPECIAL_ARITY.get(name)
        if arity is not None and len(vals) < arity:
            return self.eta_special(name, vals, arity, expected, sc, pos)
        if arity is not None and len(vals) > arity:
            head = self.special(name, [A.Arg(v) for v in vals[:arity]], None, sc, pos)
            return self.apply_value(head, [A.Arg(v) for v in vals[arity:]], expected, sc, pos)
        m = getattr(self, "sp_" + name)
        return m(vals, expected, sc, pos)

    def eta_special(
        self, name: str, vals: list[A.Expr], arity: int, expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        doms: list[Type] = []
        exp = expected
        for _ in range(arity - len(vals)):
            r = self.mc.resolve(exp) if exp is not None else None
            if isinstance(r, TFun):
                doms.append(r.arg)
                exp = r.res
            else:
                doms.append(self.fresh())
                exp = None
        names = [self.new_name("eta") for _ in doms]
        extra = [NodeExpr(ir.Var(d, nm)) for d, nm in zip(doms, names)]
        body = self.special(name, [A.Arg(v) for v in [*vals, *extra]], exp, sc, pos)
        return ir.Lam(fun_type(doms, body.ty), names, body)

    def _ex(self: Elaborator, v: A.Expr, ty: Type | None, sc: Scope) -> ir.Node:
        if isinstance(v, NodeExpr):
            return self.coerce(v.node, ty, None) if ty is not None else v.node
        return self.expect(v, ty, sc)

    def sp_some(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        inner: Type | None = None
        if expected is not None:
            r = self.mc.resolve(expected)
            if isinstance(r, TCon) and r.name == "Option":
                inner = r.args[0]
            elif is_meta(r):
                inner = self.fresh()
                self.mc.unify(r, TCon("Option", (inner,)))
        if inner is None:
            inner = self.fresh()
        v = self._ex(vals[0], inner, sc)
        return ir.MkSome(TCon("Option", (inner,)), v)

    def sp_none(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        node = ir.Lit(TCon("Option", (self.fresh(),)), None)
        return self.apply_value(node, [A.Arg(v) for v in vals], expected, sc, pos) if vals else node

    def sp_true(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        return self._const(ir.Lit(BOOL, True), vals, pos)

    def sp_false(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        return self._const(ir.Lit(BOOL, False), vals, pos)

    def sp_True(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        return self._const(ir.Lit(PROP, True), vals, pos)

    def sp_False(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        return self._const(ir.Lit(PROP, False), vals, pos)

    def sp_unit(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        return self._const(ir.Lit(UNIT, ()), vals, pos)

    def sp_zero(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        return self._const(ir.Num(NAT, 0), vals, pos)

    def sp_nil(self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos) -> ir.Node:
        return self._const(ir.MkSeq(TCon("List", (self.fresh(),)), []), vals, pos)

    def _const(self: Elaborator, node: ir.Node, vals: list[A.Expr], pos: A.Pos) -> ir.Node:
        if vals:
            raise ElabError("too many arguments", pos)
        return node

    def sp_succ(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        v = self._ex(vals[0], NAT, sc)
        return ir.Prim(NAT, "add", [v, ir.Num(NAT, 1)], NAT)

    def sp_cons(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        return self.cons(vals[0], vals[1], expected, sc, pos)

    def cons(self: Elaborator, h: A.Expr, t: A.Expr, expected: Type | None, sc: Scope, pos: A.Pos) -> ir.Node:
        elem = self.fresh()
        lt = TCon("List", (elem,))
        if expected is not None:
            r = self.mc.resolve(expected)
            if not is_meta(r):
                self.mc.unify(lt, r)
        hv = self._ex(h, elem, sc)
        tv = self._ex(t, lt, sc)
        return ir.Prim(lt, "cons", [hv, tv], lt)

    def sp_pair(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        return self.pair(vals[0], vals[1], expected, sc)

    def pair(self: Elaborator, a: A.Expr, b: A.Expr, expected: Type | None, sc: Scope) -> ir.Node:
        ta: Type | None = None
        tb: Type | None = None
        if expected is not None:
            r = self.mc.resolve(expected)
            if isinstance(r, TCon) and r.name == "Prod":
                ta, tb = r.args
        av = self._ex(a, ta, sc)
        bv = self._ex(b, tb, sc)
        return ir.MkPair(TCon("Prod", (av.ty, bv.ty)), av, bv)

    def sp_fst(self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos) -> ir.Node:
        a, b = self.fresh(), self.fresh()
        v = self._ex(vals[0], TCon("Prod", (a, b)), sc)
        return ir.Field(a, v, "fst")

    def sp_snd(self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos) -> ir.Node:
        a, b = self.fresh(), self.fresh()
        v = self._ex(vals[0], TCon("Prod", (a, b)), sc)
        return ir.Field(b, v, "snd")

    def sp_id(self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos) -> ir.Node:
        return self._ex(vals[0], expected, sc)

    def sp_pure(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        if len(vals) != 1:
            raise Unsupported("pure outside Id", pos)
        return self._ex(vals[0], expected, sc)

    def sp_decide(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        v = self._ex(vals[0], PROP, sc)
        return ir.Coe(BOOL, "prop_bool", v)

    def sp_bnot(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        v = self._ex(vals[0], BOOL, sc)
        return ir.Prim(BOOL, "not", [v], BOOL)

    def sp_pnot(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        v = self._ex(vals[0], PROP, sc)
        return ir.Prim(PROP, "not", [v], PROP)

    def sp_band(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        return ir.Prim(BOOL, "and", [self._ex(vals[0], BOOL, sc), self._ex(vals[1], BOOL, sc)], BOOL)

    def sp_bor(self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos) -> ir.Node:
        return ir.Prim(BOOL, "or", [self._ex(vals[0], BOOL, sc), self._ex(vals[1], BOOL, sc)], BOOL)

    def sp_idrun(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        if len(vals) != 1:
            raise ElabError("Id.run expects one argument", pos)
        v = vals[0]
        if isinstance(v, A.Do):
            return self.elab_do(v, expected, sc)
        return self._ex(v, expected, sc)

    def sp_toString(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        v = self._ex(vals[0], None, sc)
        return ir.ToStr(STRING, v, False)

    def sp_repr(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        v = self._ex(vals[0], None, sc)
        return ir.ToStr(STRING, v, True)

    def sp_default(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        ty = expected if expected is not None else self.fresh()
        node = ir.Default(ty)
        return self.apply_value(node, [A.Arg(v) for v in vals], None, sc, pos) if vals else node

    def sp_panic(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        for v in vals:
            self._ex(v, STRING, sc)
        return ir.Default(expected if expected is not None else self.fresh())

    def sp_intofnat(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        v = self._ex(vals[0], NAT, sc)
        return ir.Coe(INT, "nat_int", v)

    def sp_arraymk(
        self: Elaborator, vals: list[A.Expr], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        elem = self.fresh()
        if expected is not None:
            r = self.mc.resolve(expected)
            if isinstance(r, TCon) and r.name == "Array":
                elem = r.args[0]
        v = self._ex(vals[0], TCon("List", (elem,)), sc)
        return ir.Coe(TCon("Array", (elem,)), "id", v)

    def dot_ctor(
        self: Elaborator, name: str, args: list[A.Arg], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        """``.some x`` / ``.none``: the namespace comes from the expected type."""
        if expected is None or is_meta(self.mc.resolve(expected)):
            self.postpone(f"expected type of .{name} is not known", pos)
        head = self.head(expected)  # type: ignore[arg-type]
        full = f"{head}.{name}"
        if full in SPECIALS:
            return self.special(SPECIALS[full], args, expected, sc, pos)
        found = self.env.resolve_global(full, sc.ctx)
        if found is None:
            raise ElabError(f"unknown constructor '.{name}' for {head}", pos)
        return self.head_value(found[0], found[1], args, expected, sc, pos)
