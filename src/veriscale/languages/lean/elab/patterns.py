"""Elaboration of ``match`` arms and patterns into the IR's pattern shapes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from veriscale.values.types import BOOL, CHAR, INT, NAT, STRING, TCon, Type

from .. import ast as A
from ..errors import ElabError, Unsupported
from . import ir
from .scope import Local, Scope
from .tyexpr import PROOF
from .typeutil import subst_tvars
from .unify import is_meta

if TYPE_CHECKING:
    from .infer import Elaborator
from .specials import SPECIALS

__all__ = ["PatternsMixin"]


class PatternsMixin:
    """``match_core`` and pattern elaboration (mixed into ``Elaborator``)."""

    def match_core(
        self,
        discrs: list[ir.Node],
        arms: list[A.MatchArm],
        expected: Type | None,
        sc: Scope,
        pos: A.Pos,
        stmts: bool = False,
    ) -> Any:
        res = expected if expected is not None else self.fresh()
        out: list[ir.Arm] = []
        for arm in arms:
            for alt in arm.alts:
                if len(alt) != len(discrs):
                    raise ElabError(
                        f"match arm has {len(alt)} patterns for {len(discrs)} discriminants", arm.pos
                    )
                binds: dict[str, Local] = {}
                ps = [self.pattern(p, d.ty, sc, binds) for p, d in zip(alt, discrs)]
                inner = sc.bind_many(binds)
                if stmts:
                    rhs = arm.rhs(inner)  # a callback elaborating do statements
                else:
                    rhs = self.expect(arm.rhs, res, inner)
                out.append(ir.Arm(ps, rhs))
        if stmts:
            return out
        return ir.Match(res, discrs, out)

    def is_ctor_name(self: Elaborator, name: str, sc: Scope) -> bool:
        if sc.lookup(name) is not None:
            return False
        return name in ("none", "true", "false", "True", "False")

    def pattern(self: Elaborator, p: A.Pattern, ty: Type, sc: Scope, binds: dict[str, Local]) -> ir.Pat:
        mc = self.mc
        if isinstance(p, A.PVar):
            if self.is_ctor_name(p.name, sc) or p.name in (
                "Option.none",
                "List.nil",
                "Nat.zero",
                "Bool.true",
                "Bool.false",
            ):
                return self.pattern(A.PCtor(p.name, [], p.pos), ty, sc, binds)
            if "." in p.name:
                return self.pattern(A.PCtor(p.name, [], p.pos), ty, sc, binds)
            py = self.new_name(p.name)
            binds[p.name] = Local(py, ty, proof=mc.resolve(ty) == PROOF)
            return ir.PVar(py)
        if isinstance(p, A.PWild):
            return ir.PWild()
        if isinstance(p, A.PAs):
            inner = self.pattern(p.pat, ty, sc, binds)
            py = self.new_name(p.name)
            binds[p.name] = Local(py, ty)
            return ir.PAs(py, inner)
        if isinstance(p, A.PTyped):
            t = self.binder_type(p.type, sc)
            if not mc.unify(ty, t):
                raise ElabError(f"pattern type mismatch: {self.show(t)} vs {self.show(ty)}", p.pos)
            return self.pattern(p.pat, ty, sc, binds)
        if isinstance(p, A.PLit):
            if p.kind == "nat":
                r = mc.resolve(ty)
                if is_meta(r):
                    if r.name not in mc.defaults:
                        mc.defaults[r.name] = NAT
                    if isinstance(p.value, int) and p.value < 0:
                        mc.unify(r, INT)
                elif not (isinstance(r, TCon) and r.name in ("Nat", "Int", "UInt8")):
                    raise ElabError(f"numeric pattern for a value of type {self.show(r)}", p.pos)
                if isinstance(p.value, int) and p.value < 0 and self.head(ty) != "Int":
                    raise ElabError("negative pattern on a non-Int value", p.pos)
                return ir.PLit(p.value, ty)
            lt = {"str": STRING, "char": CHAR, "bool": BOOL}[p.kind]
            if not mc.unify(ty, lt):
                raise ElabError(f"{p.kind} pattern for a value of type {self.show(ty)}", p.pos)
            return ir.PLit(p.value, lt)
        if isinstance(p, A.PCons):
            elem = self.fresh()
            lt = TCon("List", (elem,))
            if not mc.unify(ty, lt):
                raise ElabError(f"list pattern for a value of type {self.show(ty)}", p.pos)
            return ir.PCons(self.pattern(p.head, elem, sc, binds), self.pattern(p.tail, lt, sc, binds))
        if isinstance(p, A.PList | A.PArray):
            elem = self.fresh()
            lt = TCon("List" if isinstance(p, A.PList) else "Array", (elem,))
            if not mc.unify(ty, lt):
                raise ElabError(f"list/array pattern for a value of type {self.show(ty)}", p.pos)
            return ir.PSeq([self.pattern(q, elem, sc, binds) for q in p.elems])
        if isinstance(p, A.PTuple):
            return self.tuple_pattern(p.elems, ty, sc, binds, p.pos)
        if isinstance(p, A.PAnon):
            r = mc.resolve(ty)
            if is_meta(r):
                self.postpone("anonymous constructor pattern needs a known type", p.pos)
            if isinstance(r, TCon) and r.name == "Prod":
                return self.tuple_pattern(p.elems, r, sc, binds, p.pos)
            if isinstance(r, TCon) and r.name in self.env.structs:
                sd = self.env.structs[r.name]
                if len(p.elems) != len(sd.fields):
                    raise ElabError("wrong number of fields in ⟨…⟩ pattern", p.pos)
                sub = dict(zip(sd.params, r.args))
                return ir.PStruct(
                    sd.name,
                    [
                        self.pattern(q, subst_tvars(ft, sub), sc, binds)
                        for q, (_, ft) in zip(p.elems, sd.fields)
                    ],
                )
            raise ElabError(f"anonymous constructor pattern for {self.show(r)}", p.pos)
        if isinstance(p, A.PAdd):
            if not mc.unify(ty, NAT):
                raise ElabError(f"n+k pattern for a value of type {self.show(ty)}", p.pos)
            return ir.PSucc(self.pattern(p.pat, NAT, sc, binds), p.k)
        if isinstance(p, A.PCtor):
            return self.ctor_pattern(p, ty, sc, binds)
        raise Unsupported(f"pattern {type(p).__name__}", getattr(p, "pos", None))

    def tuple_pattern(
        self, elems: list[A.Pattern], ty: Type, sc: Scope, binds: dict[str, Local], pos: A.Pos
    ) -> ir.Pat:
        if len(elems) == 1:
            return self.pattern(elems[0], ty, sc, binds)
        a, b = self.fresh(), self.fresh()
        if not self.mc.unify(ty, TCon("Prod", (a, b))):
            raise ElabError(f"tuple pattern for a value of type {self.show(ty)}", pos)
        first = self.pattern(elems[0], a, sc, binds)
        rest = self.tuple_pattern(elems[1:], b, sc, binds, pos)
        return ir.PPair(first, rest)

    def ctor_pattern(self: Elaborator, p: A.PCtor, ty: Type, sc: Scope, binds: dict[str, Local]) -> ir.Pat:
        mc = self.mc
        name = p.name
        if name.startswith("."):
            r = mc.resolve(ty)
            if is_meta(r):
                self.postpone("constructor pattern needs a known type", p.pos)
            name = f"{self.head(r)}.{name[1:]}"
        key = SPECIALS.get(name)
        args = p.args
        if key == "some":
            inner = self.fresh()
            if not mc.unify(ty, TCon("Option", (inner,))):
                raise ElabError(f"some-pattern for a value of type {self.show(ty)}", p.pos)
            if len(args) != 1:
                raise ElabError("some takes one argument", p.pos)
            return ir.PSome(self.pattern(args[0], inner, sc, binds))
        if key == "none":
            if not mc.unify(ty, TCon("Option", (self.fresh(),))):
                raise ElabError(f"none-pattern for a value of type {self.show(ty)}", p.pos)
            return ir.PNone()
        if key in ("true", "false"):
            if not mc.unify(ty, BOOL):
                raise ElabError("Bool pattern on a non-Bool value", p.pos)
            return ir.PLit(key == "true", BOOL)
        if key == "succ":
            if not mc.unify(ty, NAT) or len(args) != 1:
                raise ElabError("Nat.succ pattern", p.pos)
            return ir.PSucc(self.pattern(args[0], NAT, sc, binds), 1)
        if key == "zero":
            if not mc.unify(ty, NAT):
                raise ElabError("Nat.zero pattern", p.pos)
            return ir.PLit(0, NAT)
        if key == "nil":
            if not mc.unify(ty, TCon("List", (self.fresh(),))):
                raise ElabError("List.nil pattern", p.pos)
            return ir.PSeq([])
        if key == "cons":
            if len(args) != 2:
                raise ElabError("List.cons takes two arguments", p.pos)
            return self.pattern(A.PCons(args[0], args[1], p.pos), ty, sc, binds)
        if key == "pair":
            return self.tuple_pattern(args, ty, sc, binds, p.pos)
        if key == "unit":
            return ir.PWild()
        # structure constructor
        sname = name[:-3] if name.endswith(".mk") else None
        if sname is not None:
            for cand in self.env.candidates(sname, sc.ctx):
                if cand in self.env.structs:
                    sd = self.env.structs[cand]
                    sub = self.struct_args(sd)
                    st = TCon(sd.name, tuple(sub[q] for q in sd.params))
                    if not mc.unify(ty, st):
                        raise ElabError("structure pattern type mismatch", p.pos)
                    if len(args) != len(sd.fields):
                        raise ElabError("wrong number of fields", p.pos)
                    return ir.PStruct(
                        sd.name,
                        [
                            self.pattern(q, subst_tvars(ft, sub), sc, binds)
                            for q, (_, ft) in zip(args, sd.fields)
                        ],
                    )
        raise Unsupported(f"constructor pattern {p.name}", p.pos)
