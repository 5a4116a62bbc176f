"""Elaboration of ``Id.run do`` blocks: ``let mut``, assignment, loops, ``return``.

Statements elaborate in order, threading the scope; in tail position the
last statement's value is the block's result (a ``DReturn``), also inside
the branches of a tail ``if``/``match``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from veriscale.values.types import BOOL, NAT, PROP, UNIT, TCon, Type

from .. import ast as A
from ..errors import ElabError, Unsupported
from . import ir
from .scope import DoCtx, Local, Scope
from .tyexpr import PROOF
from .unify import is_meta

if TYPE_CHECKING:
    from .infer import Elaborator

__all__ = ["DoMixin"]


class DoMixin:
    """Do-notation elaborators (mixed into ``Elaborator``)."""

    def e_Do(self: Elaborator, e: A.Do, expected: Type | None, sc: Scope) -> ir.Node:
        return self.elab_do(e, expected, sc)

    def elab_do(self: Elaborator, d: A.Do, expected: Type | None, sc: Scope) -> ir.Node:
        ret = expected if expected is not None else self.fresh()
        dsc = sc.with_do(DoCtx(ret, False))
        stmts = self.stmts(d.stmts, dsc, tail=True)
        return ir.DoBlock(ret, stmts)

    def stmts(self: Elaborator, ss: list[A.DoStmt], sc: Scope, tail: bool) -> list[Any]:
        out: list[Any] = []
        do = sc.do
        assert do is not None
        for i, s in enumerate(ss):
            last = tail and i == len(ss) - 1
            if isinstance(s, A.DoLet):
                decl = self.to_type(s.type, sc) if s.type is not None else None
                pat = s.pat
                if isinstance(pat, A.PTyped):
                    decl = self.binder_type(pat.type, sc)
                    pat = pat.pat
                val = self.expect(s.value, decl if decl is not None else self.fresh(), sc)
                if isinstance(pat, A.PVar):
                    py = self.new_name(pat.name)
                    sc = sc.bind(pat.name, Local(py, val.ty, mutable=s.mut))
                    out.append(ir.DLet(py, val))
                else:
                    binds: dict[str, Local] = {}
                    p = self.pattern(pat, val.ty, sc, binds)
                    if s.mut:
                        for b in binds.values():
                            b.mutable = True
                    sc = sc.bind_many(binds)
                    out.append(ir.DLetPat(p, val))
                if last:
                    out.append(self.unit_return(sc, s.pos))
            elif isinstance(s, A.DoAssign):
                out.append(self.assign(s, sc))
                if last:
                    out.append(self.unit_return(sc, s.pos))
            elif isinstance(s, A.DoFor):
                out.append(self.for_stmt(s, sc))
                if last:
                    out.append(self.unit_return(sc, s.pos))
            elif isinstance(s, A.DoWhile):
                cond = self.expect(s.cond, BOOL, sc) if s.cond is not None else None
                body = self.stmts(s.body, sc.with_do(DoCtx(do.ret_ty, True)), tail=False)
                out.append(ir.DWhile(cond, body))
                if last:
                    out.append(self.unit_return(sc, s.pos))
            elif isinstance(s, A.DoIf):
                cond = self.expect(s.cond, PROP, sc)
                inner = sc
                if s.hyp:
                    inner = sc.bind(s.hyp, Local(self.new_name(s.hyp), PROOF, proof=True))
                then = self.stmts(s.then, inner.extend(), tail=last)
                if s.els:
                    els = self.stmts(s.els, sc.extend(), tail=last)
                else:
                    els = [self.unit_return(sc, s.pos)] if last else []
                out.append(ir.DIf(cond, then, els))
            elif isinstance(s, A.DoMatch):
                discrs = [self.elab(x, None, sc) for x in s.discrs]
                arms = [A.MatchArm(alts, self._stmts_cb(body, last), s.pos) for alts, body in s.arms]
                out.append(ir.DMatch(discrs, self.match_core(discrs, arms, None, sc, s.pos, stmts=True)))
            elif isinstance(s, A.DoReturn):
                v = self.expect(s.value, do.ret_ty, sc) if s.value is not None else self.unit_value(sc, s.pos)
                out.append(ir.DReturn(v))
            elif isinstance(s, A.DoBreak | A.DoContinue):
                if not do.in_loop:
                    raise ElabError("break/continue outside a loop", s.pos)
                out.append(ir.DBreak() if isinstance(s, A.DoBreak) else ir.DContinue())
            elif isinstance(s, A.DoExpr):
                if last:
                    out.append(ir.DReturn(self.expect(s.expr, do.ret_ty, sc)))
                else:
                    v = self.expect(s.expr, UNIT, sc)
                    out.append(ir.DEval(v))
            else:
                raise Unsupported(f"do statement {type(s).__name__}", getattr(s, "pos", None))
        if tail and not ss:
            out.append(self.unit_return(sc, None))
        return out

    def _stmts_cb(self: Elaborator, body: list[A.DoStmt], tail: bool) -> Any:
        return lambda isc: self.stmts(body, isc, tail=tail)

    def unit_value(self: Elaborator, sc: Scope, pos: A.Pos | None) -> ir.Node:
        assert sc.do is not None
        if not self.mc.unify(sc.do.ret_ty, UNIT):
            raise ElabError(f"do block ends without a value of type {self.show(sc.do.ret_ty)}", pos)
        return ir.Lit(UNIT, ())

    def unit_return(self: Elaborator, sc: Scope, pos: A.Pos | None) -> Any:
        return ir.DReturn(self.unit_value(sc, pos))

    def assign(self: Elaborator, s: A.DoAssign, sc: Scope) -> Any:
        tgt = s.target
        if isinstance(tgt, A.PVar):
            loc = sc.lookup(tgt.name)
            if loc is None:
                raise ElabError(f"unknown variable '{tgt.name}'", s.pos)
            if not loc.mutable:
                raise ElabError(f"'{tgt.name}' is not mutable (let mut)", s.pos)
            value: A.Expr = s.value
            if s.op is not None:
                value = A.BinOp(s.op, A.Ident(tgt.name, s.pos), s.value, s.pos)
            v = self.expect(value, loc.ty, sc)
            return ir.DLet(loc.pyname, v)
        if isinstance(tgt, A.PTuple | A.PAnon):
            v = self.elab(s.value, None, sc)
            return ir.DLetPat(self.assign_pattern(tgt, v.ty, sc, s.pos), v)
        raise Unsupported("assignment target", s.pos)

    def assign_pattern(self: Elaborator, p: A.Pattern, ty: Type, sc: Scope, pos: A.Pos) -> ir.Pat:
        if isinstance(p, A.PVar):
            loc = sc.lookup(p.name)
            if loc is None or not loc.mutable:
                raise ElabError(f"'{p.name}' is not a mutable variable", pos)
            if not self.mc.unify(ty, loc.ty):
                raise ElabError("type mismatch in assignment", pos)
            return ir.PVar(loc.pyname)
        if isinstance(p, A.PWild):
            return ir.PWild()
        if isinstance(p, A.PTuple | A.PAnon):
            elems = p.elems
            if len(elems) == 1:
                return self.assign_pattern(elems[0], ty, sc, pos)
            a, b = self.fresh(), self.fresh()
            if not self.mc.unify(ty, TCon("Prod", (a, b))):
                raise ElabError("tuple assignment to a non-pair", pos)
            rest = A.PTuple(elems[1:], pos) if len(elems) > 2 else elems[1]
            return ir.PPair(self.assign_pattern(elems[0], a, sc, pos), self.assign_pattern(rest, b, sc, pos))
        raise Unsupported("assignment pattern", pos)

    def for_stmt(self: Elaborator, s: A.DoFor, sc: Scope) -> Any:
        assert sc.do is not None
        it = s.iterable
        binds: dict[str, Local] = {}
        rng: tuple[ir.Node, ir.Node, ir.Node | None] | None = None
        iterable: ir.Node | None = None
        if isinstance(it, A.Range):
            start = self.expect(it.start, NAT, sc) if it.start is not None else ir.Num(NAT, 0)
            stop = self.expect(it.stop, NAT, sc)
            step = self.expect(it.step, NAT, sc) if it.step is not None else None
            rng = (start, stop, step)
            elem: Type = NAT
        else:
            iterable = self.elab(it, None, sc)
            r = self.mc.resolve(iterable.ty)
            if is_meta(r):
                self.postpone("type of the for-loop collection is not known", s.pos)
            if isinstance(r, TCon) and r.name in ("List", "Array", "Std.HashSet"):
                elem = r.args[0]
            elif isinstance(r, TCon) and r.name == "Std.HashMap":
                elem = TCon("Prod", r.args)
            else:
                raise Unsupported(f"for loop over {self.show(r)}", s.pos)
        p = self.pattern(s.pat, elem, sc, binds)
        inner = sc.bind_many(binds).with_do(DoCtx(sc.do.ret_ty, True))
        body = self.stmts(s.body, inner, tail=False)
        return ir.DFor(p, iterable, rng, body)
