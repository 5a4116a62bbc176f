"""Bidirectional elaboration of terms into the typed IR.

The elaborator follows Lean 4's order of work where it changes the meaning of
a program:

* application arguments are elaborated left to right against the parameter
  types, after unifying the result type with the expected type (Lean's
  ``propagateExpectedType``), so ``xs.foldl (fun acc x => …) 0`` gets its
  accumulator type from the context;
* a term that needs a type that is still unknown (dot notation on a
  metavariable, an anonymous constructor without expected type, …) is
  *postponed* and resumed later, as Lean's synthetic metavariables are;
* numerals get a metavariable type defaulting to ``Nat`` only when nothing
  else fixed it by the end of the definition;
* operator trees use the ``binop%``/``binrel%`` rules (``numeric.py``);
* coercions ``Nat → Int``, ``α → Option α``, ``Bool ↔ Prop`` are inserted
  where unification fails (``coerce.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from veriscale.values.types import (
    BOOL,
    CHAR,
    FLOAT,
    NAT,
    PROP,
    STRING,
    UNIT,
    TCon,
    TFun,
    TVar,
    Type,
    render_type,
)

from .. import ast as A
from ..builtins import optional
from ..errors import ElabError, Unsupported
from . import ir, notation
from .astx import NodeExpr, Postpone, WhereBlock, is_proofish
from .coerce import find_coe
from .doblock import DoMixin
from .numeric import ARITH_OPS, REL_OPS, elab_arith, elab_rel
from .patterns import PatternsMixin
from .scope import Local, Scope, StructDef
from .specials import SPECIALS, SpecialsMixin
from .tyexpr import PROOF, NotAType, TypeNames, to_type
from .typeutil import fun_type, subst_tvars
from .unify import MetaCtx, is_meta

if TYPE_CHECKING:
    from .env import Env

__all__ = ["SPECIALS", "Elaborator", "Postpone", "WhereBlock"]


_ORDERED = frozenset(
    {"Nat", "Int", "Float", "UInt8", "Char", "String", "Bool", "List", "Array", "Option", "Prod"}
)
_ARITH_TYPES = {
    "add": {"Nat", "Int", "Float", "UInt8"},
    "sub": {"Nat", "Int", "Float", "UInt8"},
    "mul": {"Nat", "Int", "Float", "UInt8"},
    "div": {"Nat", "Int", "Float", "UInt8"},
    "mod": {"Nat", "Int", "UInt8"},
    "append": {"List", "Array", "String"},
    "land": {"Nat", "UInt8"},
    "lor": {"Nat", "UInt8"},
    "xor": {"Nat", "UInt8"},
    "shl": {"Nat", "UInt8"},
    "shr": {"Nat", "UInt8"},
    "neg": {"Int", "Float"},
    "pow": {"Nat", "Int", "Float"},
}


class Sig:
    """An instantiated function signature: explicit parameters and result."""

    __slots__ = ("inst", "kind", "names", "params", "required", "ret", "target")

    def __init__(
        self,
        kind: str,
        target: Any,
        params: list[Type],
        ret: Type,
        names: list[str | None] | None = None,
        inst: Type | None = None,
        required: int | None = None,
    ) -> None:
        self.kind = kind  # glob | bltn | localfn | ctor | proj
        self.target = target
        self.params = params
        self.ret = ret
        self.names = names or [None] * len(params)
        self.inst = inst
        # parameters from ``required`` on are optional (builtins only)
        self.required = len(params) if required is None else required


class Elaborator(SpecialsMixin, PatternsMixin, DoMixin):
    def __init__(self, env: Env) -> None:
        self.env = env
        self.mc = MetaCtx()
        self.postponed: list[ir.Postponed] = []
        self.may_postpone = True
        # set while elaborating a definition header: auto-bound implicit type variables
        self.auto_bound: dict[str, Type] | None = None

    # ------------------------------------------------------------ utilities
    def show(self, t: Type) -> str:
        try:
            return render_type(self.mc.zonk(t))
        except Exception:
            return str(t)

    def postpone(self, msg: str, pos: A.Pos | None = None) -> None:
        if self.may_postpone:
            raise Postpone(msg)
        raise ElabError(msg, pos)

    def fresh(self) -> TVar:
        return self.mc.fresh()

    def new_name(self, hint: str) -> str:
        return self.env.names.new(hint)

    def type_names(self, sc: Scope) -> TypeNames:
        return TypeNames(self.env.struct_arities(), sc.ctx.opens, sc.ctx.tvars, self.fresh, self.auto_bound)

    def to_type(self, e: A.Expr, sc: Scope) -> Type:
        try:
            return to_type(e, self.type_names(sc))
        except NotAType:
            raise ElabError("expected a type", getattr(e, "pos", None)) from None

    def binder_type(self, e: A.Expr, sc: Scope) -> Type:
        """A binder's type; propositions give ``PROOF``."""
        try:
            return to_type(e, self.type_names(sc))
        except NotAType:
            if isinstance(e, A.Ident) and sc.lookup(e.name) is None:
                found = self.env.resolve_any(e.name, sc.ctx)
                if found is None:
                    raise ElabError(f"unknown type {e.name}", e.pos) from None
            return PROOF

    def head(self, t: Type) -> str | None:
        r = self.mc.resolve(t)
        return r.name if isinstance(r, TCon) else None

    def proof(self) -> ir.Node:
        return ir.Lit(PROOF, None)

    # ------------------------------------------------------------- checks
    def check_ordered(self, t: Type, pos: A.Pos) -> None:
        r = self.mc.resolve(t)
        if isinstance(r, TCon) and r.name not in _ORDERED:
            raise ElabError(f"no order (<) on {self.show(r)}", pos)
        if isinstance(r, TFun):
            raise ElabError("no order (<) on functions", pos)

    def check_eq(self, t: Type, pos: A.Pos, beq: bool = False) -> None:
        r = self.mc.resolve(t)
        if isinstance(r, TFun):
            raise ElabError("equality of functions is not decidable", pos)

    def check_arith(self, op: str, t: Type, pos: A.Pos) -> None:
        r = self.mc.resolve(t)
        ok = _ARITH_TYPES.get(op)
        if ok is None:
            return
        if isinstance(r, TCon) and r.name not in ok:
            raise ElabError(f"operator {op} is not defined on {self.show(r)}", pos)
        if isinstance(r, TFun):
            raise ElabError(f"operator {op} is not defined on functions", pos)

    # ---------------------------------------------------------- top level
    def elab(self, e: A.Expr, expected: Type | None, sc: Scope) -> ir.Node:
        if not self.may_postpone:
            return self._elab(e, expected, sc)
        mark = self.mc.mark()
        plen = len(self.postponed)
        try:
            return self._elab(e, expected, sc)
        except Postpone:
            self.mc.rollback(mark)
            del self.postponed[plen:]
            ty = expected if expected is not None else self.fresh()
            node = ir.Postponed(ty, None, e, sc, expected)
            self.postponed.append(node)
            return node

    def expect(self, e: A.Expr, expected: Type | None, sc: Scope) -> ir.Node:
        node = self.elab(e, expected, sc)
        if expected is None:
            return node
        return self.coerce(node, expected, getattr(e, "pos", None))

    def coerce(self, node: ir.Node, expected: Type | None, pos: A.Pos | None) -> ir.Node:
        if expected is None:
            return node
        mc = self.mc
        if mc.unify(node.ty, expected):
            return node
        c = find_coe(mc, node.ty, expected)
        if c is not None:
            return c(node)
        raise ElabError(
            f"type mismatch: expected {self.show(expected)}, got {self.show(node.ty)}",
            pos,
        )

    def synthesize(self, final: bool = True) -> None:
        """Resume postponed terms until no progress; then defaults; then force (``final``)."""
        while True:
            progress = self._resume_round()
            if progress:
                continue
            if not final:
                return
            if self.mc.apply_defaults():
                continue
            if not any(p.node is None for p in self.postponed):
                self.postponed = []
                return
            # force: no more postponing, errors surface
            saved = self.may_postpone
            self.may_postpone = False
            try:
                pending = [p for p in self.postponed if p.node is None]
                self.postponed = []
                for p in pending:
                    self._resume(p)
            finally:
                self.may_postpone = saved
            if not self.postponed:
                self.mc.apply_defaults()
                return

    def _resume_round(self) -> bool:
        pending = [p for p in self.postponed if p.node is None]
        self.postponed = []
        progress = False
        for p in pending:
            mark = self.mc.mark()
            dlen = len(self.mc.defaults)
            plen = len(self.postponed)
            try:
                self._resume(p)
                progress = True
            except Postpone:
                # as Lean restores the whole metavariable context: the attempt's fresh numeral
                # metas must not be defaulted later (that "progress" re-ran the attempt forever)
                self.mc.rollback(mark)
                self.mc.drop_defaults_since(dlen)
                del self.postponed[plen:]
                self.postponed.append(p)
        return progress

    def _resume(self, p: ir.Postponed) -> None:
        if p.extra is not None:
            node = p.extra()
            if not self.mc.unify(p.ty, node.ty):
                node = self.coerce(node, p.ty, None)
        else:
            # the postponed term's type (possibly fixed meanwhile) is its expected type now
            exp = p.expected if p.expected is not None else p.ty
            if p.expected is None and is_meta(self.mc.resolve(p.ty)):
                exp = None
            node = self._elab(p.ast, exp, p.scope)
            if not self.mc.unify(p.ty, node.ty):
                node = self.coerce(node, p.ty, getattr(p.ast, "pos", None))
        p.node = node

    # ------------------------------------------------------------- dispatch
    def _elab(self, e: A.Expr, expected: Type | None, sc: Scope) -> ir.Node:
        m = getattr(self, "e_" + type(e).__name__, None)
        if m is None:
            raise Unsupported(f"unsupported term {type(e).__name__}", getattr(e, "pos", None))
        return m(e, expected, sc)

    def e_NodeExpr(self, e: NodeExpr, expected: Type | None, sc: Scope) -> ir.Node:
        return e.node

    def e_WhereBlock(self, e: WhereBlock, expected: Type | None, sc: Scope) -> ir.Node:
        return self.let_rec(e.items, e.body, expected, sc, (0, 0))

    # literals
    def e_NatLit(self, e: A.NatLit, expected: Type | None, sc: Scope) -> ir.Node:
        return self.numeral(e.value, expected, e.pos)

    def numeral(
        self, value: int, expected: Type | None, pos: A.Pos, float_text: str | None = None
    ) -> ir.Node:
        default = FLOAT if float_text is not None else NAT
        if expected is not None:
            r = self.mc.resolve(expected)
            if is_meta(r):
                if r.name not in self.mc.defaults:
                    self.mc.defaults[r.name] = default
                return ir.Num(r, value, float_text)
            if isinstance(r, TCon):
                ok = {"Float"} if float_text is not None else {"Nat", "Int", "Float", "UInt8"}
                if r.name in ok:
                    return ir.Num(r, value, float_text)
                what = f"OfScientific {self.show(r)}" if float_text else f"OfNat {self.show(r)} {value}"
                raise ElabError(f"failed to synthesize {what}", pos)
            if isinstance(r, TVar):
                raise Unsupported("numeral of a polymorphic type", pos)
        return ir.Num(self.mc.fresh_num(default), value, float_text)

    def e_FloatLit(self, e: A.FloatLit, expected: Type | None, sc: Scope) -> ir.Node:
        return self.numeral(0, expected, e.pos, float_text=e.text)

    def e_StrLit(self, e: A.StrLit, expected: Type | None, sc: Scope) -> ir.Node:
        return ir.Lit(STRING, e.value)

    def e_CharLit(self, e: A.CharLit, expected: Type | None, sc: Scope) -> ir.Node:
        return ir.Lit(CHAR, e.value)

    def e_UnitLit(self, e: A.UnitLit, expected: Type | None, sc: Scope) -> ir.Node:
        return ir.Lit(UNIT, ())

    def e_Sort(self, e: A.Sort, expected: Type | None, sc: Scope) -> ir.Node:
        raise ElabError(f"type {e.name} used as a value", e.pos)

    def e_ByTactic(self, e: A.ByTactic, expected: Type | None, sc: Scope) -> ir.Node:
        if expected is not None and self.mc.resolve(expected) == PROOF:
            return self.proof()
        raise Unsupported("tactic block in a computational position", e.pos)

    def e_Sorry(self, e: A.Sorry, expected: Type | None, sc: Scope) -> ir.Node:
        if expected is not None and self.mc.resolve(expected) == PROOF:
            return self.proof()
        raise Unsupported("sorry cannot be evaluated", e.pos)

    def e_Hole(self, e: A.Hole, expected: Type | None, sc: Scope) -> ir.Node:
        if expected is not None and self.mc.resolve(expected) == PROOF:
            return self.proof()
        raise Unsupported("'_' in a computational position", e.pos)

    def e_Panic(self, e: A.Panic, expected: Type | None, sc: Scope) -> ir.Node:
        self.expect(e.msg, STRING, sc)
        ty = expected if expected is not None else self.fresh()
        return ir.Default(ty)

    def e_Typed(self, e: A.Typed, expected: Type | None, sc: Scope) -> ir.Node:
        t = self.to_type(e.type, sc)
        if self.may_postpone and isinstance(e.expr, A.Ident):
            # ``(i : Int)`` on a binder whose type is still unknown (``fun i => (i : Int) + 1`` as the
            # first argument of ``List.map``): unifying now would fix the binder to ``Int`` before the
            # later argument (``List.range n : List Nat``) fixes it to ``Nat``. The ascription keeps
            # its type ``t`` and waits; once the binder's type is known, a coercion is inserted as Lean
            # does, and if it never becomes known the forced round unifies as before.
            loc = sc.lookup(e.expr.name)
            if isinstance(loc, Local) and is_meta(self.mc.resolve(loc.ty)):
                node = ir.Postponed(t, None, e, sc, t)
                self.postponed.append(node)
                return node
        return self.expect(e.expr, t, sc)

    def e_Range(self, e: A.Range, expected: Type | None, sc: Scope) -> ir.Node:
        raise Unsupported("range [a:b] outside a for loop", e.pos)

    # ------------------------------------------------------------ identifiers
    def e_Ident(self, e: A.Ident, expected: Type | None, sc: Scope) -> ir.Node:
        kind, obj, fields = self.resolve_head(e.name, sc, e.pos)
        if fields:
            recv = self.head_value(kind, obj, [], None, sc, e.pos)
            for f in fields[:-1]:
                recv = self.method(recv, f, [], None, sc, e.pos)
            return self.method(recv, fields[-1], [], expected, sc, e.pos)
        return self.head_value(kind, obj, [], expected, sc, e.pos)

    def resolve_head(self, name: str, sc: Scope, pos: A.Pos) -> tuple[str, Any, list[str]]:
        if name.startswith("."):
            return ("dotctor", name[1:], [])
        parts = name.split(".")
        loc = sc.lookup(parts[0])
        if loc is not None:
            return ("local", loc, parts[1:])
        for k in range(len(parts), 0, -1):
            prefix = ".".join(parts[:k])
            r = self.env.resolve_global(prefix, sc.ctx)
            if r is not None:
                return (r[0], r[1], parts[k:])
        raise ElabError(f"unknown identifier '{name}'", pos)

    def head_value(
        self, kind: str, obj: Any, args: list[A.Arg], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        """The value of a resolved head applied to ``args`` (possibly none)."""
        if kind == "local":
            loc: Local = obj
            if loc.proof:
                if args:
                    raise ElabError("a proof cannot be applied", pos)
                return self.proof()
            if loc.fn_arity is not None:
                sig = self.local_sig(loc)
                return self.call_sig(sig, None, -1, args, expected, sc, pos)
            node: ir.Node = ir.Var(loc.ty, loc.pyname)
            if args:
                return self.apply_value(node, args, expected, sc, pos)
            return node
        if kind == "def":
            sig = self.def_sig(obj, pos)
            return self.call_sig(sig, None, -1, args, expected, sc, pos)
        if kind == "builtin":
            sig = self.builtin_sig(obj)
            return self.call_sig(sig, None, -1, args, expected, sc, pos)
        if kind == "special":
            return self.special(obj, args, expected, sc, pos)
        if kind == "ctor":
            sig = self.ctor_sig(obj)
            return self.call_sig(sig, None, -1, args, expected, sc, pos)
        if kind == "proj":
            sd, idx = obj
            sig = self.proj_sig(sd, idx)
            return self.call_sig(sig, None, -1, args, expected, sc, pos)
        if kind == "dotctor":
            return self.dot_ctor(obj, args, expected, sc, pos)
        raise ElabError(f"cannot use {obj} as a value", pos)

    # ------------------------------------------------------------ signatures
    def local_sig(self, loc: Local) -> Sig:
        assert loc.fn_arity is not None
        params: list[Type] = []
        t = loc.ty
        for _ in range(loc.fn_arity):
            r = self.mc.resolve(t)
            if not isinstance(r, TFun):
                a, b = self.fresh(), self.fresh()
                self.mc.unify(r, TFun(a, b))
                r = TFun(a, b)
            params.append(r.arg)
            t = r.res
        return Sig("localfn", ir.LocalFn(loc.ty, loc.pyname, loc.fn_arity), params, t)

    def def_sig(self, gdef: Any, pos: A.Pos) -> Sig:
        g = self.env.signature(gdef, pos)
        sub = {tv: self.fresh() for tv in g.tvars}
        params = [subst_tvars(t, sub) for _, t in g.params]
        ret = subst_tvars(g.ret, sub)
        names: list[str | None] = [n for n, _ in g.params]
        return Sig("glob", g, params, ret, names)

    def builtin_sig(self, b: Any) -> Sig:
        sub: dict[str, Type] = {}

        def inst(t: Type) -> Type:
            if isinstance(t, TVar):
                if t.name not in sub:
                    sub[t.name] = self.fresh()
                return sub[t.name]
            if isinstance(t, TFun):
                return TFun(inst(t.arg), inst(t.res))
            if not t.args:
                return t
            return TCon(t.name, tuple(inst(a) for a in t.args))

        t = inst(b.sig)
        params: list[Type] = []
        for _ in range(b.arity):
            assert isinstance(t, TFun)
            params.append(t.arg)
            t = t.res
        inst_ty = None
        if b.inhabited is not None:
            inst_ty = sub.setdefault(b.inhabited.name, self.fresh())
        info = optional.param_info(b.name)
        names: list[str | None] = [None] * len(params)
        required = len(params)
        if info is not None and len(info.names) == len(params):
            names = list(info.names)
            required = info.required
        return Sig("bltn", b, params, t, names, inst_ty, required)

    def struct_args(self, sd: StructDef) -> dict[str, Type]:
        return {p: self.fresh() for p in sd.params}

    def ctor_sig(self, sd: StructDef) -> Sig:
        sub = self.struct_args(sd)
        params = [subst_tvars(t, sub) for _, t in sd.fields]
        ret = TCon(sd.name, tuple(sub[p] for p in sd.params))
        return Sig("ctor", sd, params, ret, [n for n, _ in sd.fields])

    def proj_sig(self, sd: StructDef, idx: int) -> Sig:
        sub = self.struct_args(sd)
        st = TCon(sd.name, tuple(sub[p] for p in sd.params))
        return Sig("proj", (sd, idx), [st], subst_tvars(sd.fields[idx][1], sub), ["self"])

    # ---------------------------------------------------------- application
    def e_App(self, e: A.App, expected: Type | None, sc: Scope) -> ir.Node:
        fn = e.fn
        if isinstance(fn, A.Ident):
            kind, obj, fields = self.resolve_head(fn.name, sc, fn.pos)
            if fields:
                recv = self.head_value(kind, obj, [], None, sc, fn.pos)
                for f in fields[:-1]:
                    recv = self.method(recv, f, [], None, sc, fn.pos)
                return self.method(recv, fields[-1], e.args, expected, sc, e.pos)
            return self.head_value(kind, obj, e.args, expected, sc, e.pos)
        if isinstance(fn, A.Proj):
            recv = self.elab(fn.expr, None, sc)
            return self.method(recv, fn.field, e.args, expected, sc, e.pos)
        f = self.elab(fn, None, sc)
        return self.apply_value(f, e.args, expected, sc, e.pos)

    def apply_value(
        self, f: ir.Node, args: list[A.Arg], expected: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        out: list[ir.Node] = []
        t = f.ty
        for a in args:
            if a.name is not None:
                raise ElabError(f"named argument ({a.name} := …) for a function value", pos)
            r = self.mc.resolve(t)
            if is_meta(r):
                dom, res = self.fresh(), self.fresh()
                if not self.mc.unify(r, TFun(dom, res)):
                    raise ElabError("function expected", pos)
                r = TFun(dom, res)
            if not isinstance(r, TFun):
                raise ElabError(f"function expected, got a value of type {self.show(r)}", pos)
            out.append(self.arg(a.value, r.arg, sc))
            t = r.res
        if not out:
            return f
        return ir.App(t, f, out)

    def arg(self, a: A.Expr | ir.Node, ty: Type, sc: Scope) -> ir.Node:
        if isinstance(a, ir.BDefault):
            return a
        if self.mc.resolve(ty) == PROOF:
            return self.proof()
        if isinstance(a, ir.Node):
            return self.coerce(a, ty, None)
        return self.expect(a, ty, sc)

    def call_sig(
        self,
        sig: Sig,
        recv: ir.Node | None,
        recv_idx: int,
        args: list[A.Arg],
        expected: Type | None,
        sc: Scope,
        pos: A.Pos,
    ) -> ir.Node:
        n = len(sig.params)
        if recv is None and not args and sig.required > 0:
            return self.value_of_sig(sig, pos)
        slots: list[Any] = [None] * n
        if recv is not None:
            slots[recv_idx] = recv
        positional: list[A.Expr] = []
        for a in args:
            if a.name is not None:
                try:
                    i = sig.names.index(a.name)
                except ValueError:
                    raise ElabError(f"unknown named argument '{a.name}'", pos) from None
                if slots[i] is not None:
                    raise ElabError(f"argument '{a.name}' given twice", pos)
                slots[i] = a.value
            else:
                positional.append(a.value)
        pi = 0
        for i in range(n):
            if slots[i] is None and pi < len(positional):
                slots[i] = positional[pi]
                pi += 1
        extra = positional[pi:]
        missing = [i for i in range(n) if slots[i] is None]
        if missing and sig.kind == "bltn" and any(i >= sig.required for i in missing):
            # Lean fills optional parameters with their defaults; only required ones are abstracted
            for i in missing:
                if i >= sig.required:
                    slots[i] = ir.BDefault(sig.params[i], sig.target.name, i - sig.required)
            missing = [i for i in missing if i < sig.required]
        # Lean's propagateExpectedType: before the first argument still to elaborate
        if expected is not None and not extra and not missing:
            if any(not isinstance(s, ir.Node) and not is_proofish(s) for s in slots):
                er = self.mc.resolve(expected)
                if not is_meta(er):
                    self.mc.unify(sig.ret, expected)
        vals: list[ir.Node | None] = [None] * n
        for i in range(n):
            s = slots[i]
            if s is None:
                continue
            vals[i] = self.arg(s, sig.params[i], sc)
        if missing:
            # partial application: a lambda over the missing parameters
            if extra:
                raise ElabError("too many arguments", pos)
            names = [self.new_name("eta") for _ in missing]
            for nm, i in zip(names, missing):
                vals[i] = ir.Var(sig.params[i], nm)
            body = self.mk_call(sig, [v for v in vals if v is not None], pos)
            lam_ty = fun_type([sig.params[i] for i in missing], body.ty)
            return ir.Lam(lam_ty, names, body)
        node = self.mk_call(sig, [v for v in vals if v is not None], pos)
        if extra:
            node = self.apply_value(node, [A.Arg(x) for x in extra], None, sc, pos)
        return node

    def mk_call(self, sig: Sig, vals: list[ir.Node], pos: A.Pos) -> ir.Node:
        if sig.kind == "glob":
            g = sig.target
            return ir.Call(sig.ret, ir.Glob(fun_type(sig.params, sig.ret), g.key), vals)
        if sig.kind == "bltn":
            b = sig.target
            return ir.Call(sig.ret, ir.Bltn(fun_type(sig.params, sig.ret), b.name, sig.inst), vals)
        if sig.kind == "localfn":
            return ir.Call(sig.ret, sig.target, vals)
        if sig.kind == "ctor":
            sd: StructDef = sig.target
            return ir.MkStruct(sig.ret, sd.name, [(fname, v) for (fname, _), v in zip(sd.fields, vals)])
        if sig.kind == "proj":
            sd, idx = sig.target
            return ir.Field(sig.ret, vals[0], "struct", idx)
        raise AssertionError(sig.kind)

    def value_of_sig(self, sig: Sig, pos: A.Pos) -> ir.Node:
        """A function used as a value, without arguments."""
        ty = fun_type(sig.params, sig.ret)
        if sig.kind == "glob":
            if not sig.params:
                return self.mk_call(sig, [], pos)
            return ir.Glob(ty, sig.target.key)
        if sig.kind == "bltn":
            if not sig.params:
                return self.mk_call(sig, [], pos)
            # optional parameters are filled when the function is applied (``Fn`` of the required arity)
            return ir.Bltn(fun_type(sig.params[: sig.required], sig.ret), sig.target.name, sig.inst)
        if sig.kind == "localfn":
            return sig.target
        names = [self.new_name("eta") for _ in sig.params]
        body = self.mk_call(sig, [ir.Var(p, n) for p, n in zip(sig.params, names)], pos)
        return ir.Lam(ty, names, body) if names else body

    # ---------------------------------------------------------- dot notation
    def method(
        self,
        recv: ir.Node,
        fname: str,
        args: list[A.Arg],
        expected: Type | None,
        sc: Scope,
        pos: A.Pos,
    ) -> ir.Node:
        mc = self.mc
        t = mc.resolve(recv.ty)
        if is_meta(t):
            self.postpone(f"type of the receiver of .{fname} is not known", pos)
        if isinstance(t, TFun):
            raise ElabError(f"invalid field notation .{fname} on a function", pos)
        if isinstance(t, TVar):
            raise Unsupported(f"field notation .{fname} on a value of polymorphic type {t.name}", pos)
        head = t.name
        node: ir.Node | None = None
        if fname.isdigit():
            node = self.num_proj(recv, t, int(fname), pos)
        elif head == "Prod" and fname in ("fst", "snd"):
            node = ir.Field(t.args[0] if fname == "fst" else t.args[1], recv, fname)
        elif head in self.env.structs:
            sd = self.env.structs[head]
            for i, (fn, ft) in enumerate(sd.fields):
                if fn == fname:
                    sub = dict(zip(sd.params, t.args))
                    node = ir.Field(subst_tvars(ft, sub), recv, "struct", i)
                    break
        if node is not None:
            if args:
                return self.apply_value(node, args, expected, sc, pos)
            return node
        full = f"{head}.{fname}"
        found = self.env.resolve_method(full, sc.ctx)
        if found is None:
            raise ElabError(f"unknown constant '{full}' (field notation on {self.show(t)})", pos)
        kind, obj = found
        if kind == "special":
            return self.special(obj, [A.Arg(NodeExpr(recv)), *args], expected, sc, pos)
        if kind == "def":
            sig = self.def_sig(obj, pos)
        elif kind == "builtin":
            sig = self.builtin_sig(obj)
        else:
            raise ElabError(f"cannot use '{full}' with field notation", pos)
        idx = -1
        for i, p in enumerate(sig.params):
            if self.head(p) == head:
                idx = i
                break
        if idx < 0:
            raise ElabError(f"invalid field notation: '{full}' has no argument of type {head}", pos)
        return self.call_sig(sig, recv, idx, args, expected, sc, pos)

    def num_proj(self, recv: ir.Node, t: TCon, i: int, pos: A.Pos) -> ir.Node:
        if t.name == "Prod":
            if i == 1:
                return ir.Field(t.args[0], recv, "fst")
            if i == 2:
                return ir.Field(t.args[1], recv, "snd")
        elif t.name in self.env.structs:
            sd = self.env.structs[t.name]
            if 1 <= i <= len(sd.fields):
                sub = dict(zip(sd.params, t.args))
                return ir.Field(subst_tvars(sd.fields[i - 1][1], sub), recv, "struct", i - 1)
        raise ElabError(f"invalid projection .{i} on {self.show(t)}", pos)

    def e_Proj(self, e: A.Proj, expected: Type | None, sc: Scope) -> ir.Node:
        recv = self.elab(e.expr, None, sc)
        return self.method(recv, e.field, [], expected, sc, e.pos)

    # ------------------------------------------------------------- lambdas
    def split_fun(self, exp: Type | None) -> tuple[Type, Type | None]:
        if exp is None:
            return self.fresh(), None
        r = self.mc.resolve(exp)
        if isinstance(r, TFun):
            return r.arg, r.res
        if is_meta(r):
            a, b = self.fresh(), self.fresh()
            self.mc.unify(r, TFun(a, b))
            return a, b
        return self.fresh(), None

    def e_Lam(self, e: A.Lam, expected: Type | None, sc: Scope) -> ir.Node:
        exp = expected
        names: list[str] = []
        doms: list[Type] = []
        pats: list[tuple[str, A.Pattern, Type]] = []
        inner = sc
        for b in e.binders:
            if b.kind in ("implicit", "inst", "strict"):
                raise Unsupported("implicit binder in fun", b.pos)
            dom, exp = self.split_fun(exp)
            if b.type is not None:
                t = self.binder_type(b.type, sc)
                if not self.mc.unify(dom, t):
                    raise ElabError(
                        f"binder type mismatch: {self.show(t)} vs expected {self.show(dom)}", b.pos
                    )
            pat = b.pat
            while isinstance(pat, A.PTyped):
                t = self.binder_type(pat.type, sc)
                if not self.mc.unify(dom, t):
                    raise ElabError("binder type mismatch", b.pos)
                pat = pat.pat
            if isinstance(pat, A.PVar) and not self.is_ctor_name(pat.name, sc):
                py = self.new_name(pat.name)
                inner = inner.bind(pat.name, Local(py, dom, proof=self.mc.resolve(dom) == PROOF))
            elif isinstance(pat, A.PWild):
                py = self.new_name("w")
            else:
                py = self.new_name("p")
                pats.append((py, pat, dom))
            names.append(py)
            doms.append(dom)
        if pats:
            body = self.pattern_body(pats, e.body, exp, inner, e.pos)
        else:
            body = self.expect(e.body, exp, inner)
        return ir.Lam(fun_type(doms, body.ty), names, body)

    def pattern_body(
        self, pats: list[tuple[str, A.Pattern, Type]], body: A.Expr, exp: Type | None, sc: Scope, pos: A.Pos
    ) -> ir.Node:
        """``fun (a, b) => e``: a match on the parameters, postponed (as Lean does) while
        their types are unknown, so the body gets the expected type known by then."""

        def run() -> ir.Node:
            return self.match_core(
                [ir.Var(t, py) for py, _, t in pats],
                [A.MatchArm([[p for _, p, _ in pats]], body, pos)],
                exp,
                sc,
                pos,
            )

        if self.may_postpone and any(is_meta(self.mc.resolve(t)) for _, _, t in pats):
            ty = exp if exp is not None else self.fresh()
            node = ir.Postponed(ty, None, None, sc, exp, run)
            self.postponed.append(node)
            return node
        return run()

    # --------------------------------------------------------------- let
    def e_Let(self, e: A.Let, expected: Type | None, sc: Scope) -> ir.Node:
        if e.is_have:
            inner = sc
            if isinstance(e.pat, A.PVar):
                inner = sc.bind(e.pat.name, Local(self.new_name(e.pat.name), PROOF, proof=True))
            return self.expect(e.body, expected, inner)
        if e.is_rec:
            return self.let_rec([(e.pat, e.type, e.value)], e.body, expected, sc, e.pos)
        pat = e.pat
        decl_ty = self.to_type(e.type, sc) if e.type is not None else None
        if isinstance(pat, A.PVar) and not self.is_ctor_name(pat.name, sc):
            if isinstance(e.value, A.Lam) and _lam_fun_def(e.value):
                fd, local = self.local_fun(pat.name, e.type, e.value, sc, rec=False)
                inner = sc.bind(pat.name, local)
                body = self.expect(e.body, expected, inner)
                return ir.LetFun(body.ty, [fd], body)
            val = self.expect(e.value, decl_ty if decl_ty is not None else self.fresh(), sc)
            py = self.new_name(pat.name)
            inner = sc.bind(pat.name, Local(py, val.ty))
            body = self.expect(e.body, expected, inner)
            return ir.Let(body.ty, py, val, body)
        # pattern let: a one-arm match
        if isinstance(pat, A.PTyped):
            decl_ty = self.binder_type(pat.type, sc)
            pat = pat.pat
        val = self.expect(e.value, decl_ty, sc) if decl_ty is not None else self.elab(e.value, None, sc)
        return self.match_core([val], [A.MatchArm([[pat]], e.body, e.pos)], expected, sc, e.pos)

    def local_fun(
        self, name: str, type_ast: A.Expr | None, lam: A.Lam, sc: Scope, rec: bool
    ) -> tuple[ir.FunDef, Local]:
        """``let f (x : A) : B := e`` / ``let rec``: a direct-callable local function."""
        doms, ret = self.fun_header(type_ast, lam, sc)
        py = self.new_name(name)
        fty = fun_type(doms, ret)
        local = Local(py, fty, fn_arity=len(doms))
        body_scope = sc.bind(name, local) if rec else sc
        fd = ir.FunDef(py, [], None, fty, charge=rec)
        self.fill_fun(fd, lam, doms, ret, body_scope)
        return fd, local

    def fun_header(self, type_ast: A.Expr | None, lam: A.Lam, sc: Scope) -> tuple[list[Type], Type]:
        """Parameter types and result type of a local function from its binders and annotation."""
        doms: list[Type] = []
        for b in lam.binders:
            if b.type is not None:
                doms.append(self.binder_type(b.type, sc))
            elif isinstance(b.pat, A.PTyped):
                doms.append(self.binder_type(b.pat.type, sc))
            else:
                doms.append(self.fresh())
        if type_ast is None:
            return doms, self.fresh()
        # the parser gives the full function type (``let f (x : A) : B`` has type ``A → B``)
        r: Type = self.to_type(type_ast, sc)
        for d in doms:
            r = self.mc.resolve(r)
            if isinstance(r, TFun):
                if not self.mc.unify(d, r.arg):
                    raise ElabError("parameter type does not match the function's type", lam.pos)
                r = r.res
            elif is_meta(r):
                res = self.fresh()
                self.mc.unify(r, TFun(d, res))
                r = res
            else:
                raise ElabError("function annotation has fewer arguments than its parameters", lam.pos)
        return doms, r

    def fill_fun(self, fd: ir.FunDef, lam: A.Lam, doms: list[Type], ret: Type, sc: Scope) -> None:
        names: list[str] = []
        inner = sc
        pats: list[tuple[str, A.Pattern, Type]] = []
        for b, d in zip(lam.binders, doms):
            pat = b.pat
            while isinstance(pat, A.PTyped):
                pat = pat.pat
            if isinstance(pat, A.PVar) and not self.is_ctor_name(pat.name, sc):
                py = self.new_name(pat.name)
                inner = inner.bind(pat.name, Local(py, d, proof=self.mc.resolve(d) == PROOF))
            elif isinstance(pat, A.PWild):
                py = self.new_name("w")
            else:
                py = self.new_name("p")
                pats.append((py, pat, d))
            names.append(py)
        fd.params = names
        if pats:
            fd.body = self.pattern_body(pats, lam.body, ret, inner, lam.pos)
        else:
            fd.body = self.expect(lam.body, ret, inner)

    def let_rec(
        self,
        items: list[tuple[A.Pattern, A.Expr | None, A.Expr]],
        body: A.Expr | None,
        expected: Type | None,
        sc: Scope,
        pos: A.Pos,
    ) -> ir.Node:
        """A group of mutually visible local recursive functions (``let rec`` / ``where``)."""
        heads = []
        inner = sc
        for pat, type_ast, value in items:
            if not isinstance(pat, A.PVar):
                raise ElabError("let rec needs a name", pos)
            lam = value if isinstance(value, A.Lam) else A.Lam([], value, getattr(value, "pos", pos))
            doms, ret = self.fun_header(type_ast, lam, sc)
            if not doms:
                # ``let rec f : A → B := fun …`` is handled by fun_header; a constant needs no recursion
                pass
            py = self.new_name(pat.name)
            fty = fun_type(doms, ret)
            local = Local(py, fty, fn_arity=len(doms))
            inner = inner.bind(pat.name, local)
            heads.append((py, lam, doms, ret, fty))
        fds = []
        for py, lam, doms, ret, fty in heads:
            fd = ir.FunDef(py, [], None, fty, charge=True)
            self.fill_fun(fd, lam, doms, ret, inner)
            fds.append(fd)
        if body is None:
            return ir.LetFun(UNIT, fds, ir.Lit(UNIT, ()))
        b = self.expect(body, expected, inner)
        return ir.LetFun(b.ty, fds, b)

    # ------------------------------------------------------------- match
    def e_Match(self, e: A.Match, expected: Type | None, sc: Scope) -> ir.Node:
        discrs = [self.elab(d, None, sc) for d in e.discrs]
        if any(
            is_meta(self.mc.resolve(d.ty)) and self.mc.resolve(d.ty).name not in self.mc.defaults
            for d in discrs
        ):
            self.postpone("type of the match discriminant is not known", e.pos)
        inner = sc
        for name in e.discr_names or []:
            if name:
                inner = inner.bind(name, Local(self.new_name(name), PROOF, proof=True))
        return self.match_core(discrs, e.arms, expected, inner, e.pos)

    def e_If(self, e: A.If, expected: Type | None, sc: Scope) -> ir.Node:
        cond = self.expect(e.cond, PROP, sc)
        inner = sc
        if e.hyp:
            inner = sc.bind(e.hyp, Local(self.new_name(e.hyp), PROOF, proof=True))
        res = expected if expected is not None else self.fresh()
        then = self.expect(e.then, res, inner)
        els = self.expect(e.els, res, inner)
        return ir.If(res, cond, then, els)

    # ------------------------------------------------------------- tuples etc.
    def e_Tuple(self, e: A.Tuple, expected: Type | None, sc: Scope) -> ir.Node:
        return self.tuple_of(e.elems, expected, sc)

    def tuple_of(self, elems: list[A.Expr], expected: Type | None, sc: Scope) -> ir.Node:
        if len(elems) == 1:
            return self.expect(elems[0], expected, sc)
        ta: Type | None = None
        tb: Type | None = None
        if expected is not None:
            r = self.mc.resolve(expected)
            if isinstance(r, TCon) and r.name == "Prod":
                ta, tb = r.args
            elif is_meta(r):
                ta, tb = self.fresh(), self.fresh()
                self.mc.unify(r, TCon("Prod", (ta, tb)))
        a = self.expect(elems[0], ta, sc) if ta is not None else self.elab(elems[0], None, sc)
        b = self.tuple_of(elems[1:], tb, sc)
        return ir.MkPair(TCon("Prod", (a.ty, b.ty)), a, b)

    def e_ListLit(self, e: A.ListLit, expected: Type | None, sc: Scope) -> ir.Node:
        return self.seq_lit("List", e.elems, expected, sc)

    def e_ArrayLit(self, e: A.ArrayLit, expected: Type | None, sc: Scope) -> ir.Node:
        return self.seq_lit("Array", e.elems, expected, sc)

    def seq_lit(self, head: str, elems: list[A.Expr], expected: Type | None, sc: Scope) -> ir.Node:
        elem = self.fresh()
        st = TCon(head, (elem,))
        if expected is not None:
            r = self.mc.resolve(expected)
            if not is_meta(r):
                self.mc.unify(st, r)
        vals = [self.expect(x, elem, sc) for x in elems]
        return ir.MkSeq(st, vals)

    def e_AnonCtor(self, e: A.AnonCtor, expected: Type | None, sc: Scope) -> ir.Node:
        r = self.mc.resolve(expected) if expected is not None else None
        if r is None or is_meta(r):
            self.postpone("anonymous constructor ⟨…⟩ needs a known expected type", e.pos)
        if isinstance(r, TCon) and r.name == "Prod":
            return self.tuple_of(e.elems, r, sc)
        if isinstance(r, TCon) and r.name in self.env.structs:
            sd = self.env.structs[r.name]
            if len(e.elems) != len(sd.fields):
                raise ElabError(f"⟨…⟩ for {sd.name} needs {len(sd.fields)} field(s)", e.pos)
            sub = dict(zip(sd.params, r.args))
            vals = [(fn, self.expect(x, subst_tvars(ft, sub), sc)) for x, (fn, ft) in zip(e.elems, sd.fields)]
            return ir.MkStruct(r, sd.name, vals)
        if isinstance(r, TCon) and r.name == "Array" and len(e.elems) == 1:
            v = self.expect(e.elems[0], TCon("List", r.args), sc)
            return ir.Coe(r, "id", v)
        raise Unsupported(f"anonymous constructor for {self.show(r)}", e.pos)  # type: ignore[arg-type]

    def e_StructInst(self, e: A.StructInst, expected: Type | None, sc: Scope) -> ir.Node:
        r = self.mc.resolve(expected) if expected is not None else None
        if r is None or is_meta(r):
            self.postpone("structure instance {…} needs a known expected type", e.pos)
        assert r is not None
        if (
            isinstance(r, TCon)
            and r.name in ("Std.HashMap", "Std.HashSet")
            and not e.fields
            and e.with_expr is None
        ):
            return ir.Default(r)
        if isinstance(r, TCon) and r.name in self.env.structs:
            sd = self.env.structs[r.name]
            sub = dict(zip(sd.params, r.args))
            given = dict(e.fields)
            base = self.expect(e.with_expr, r, sc) if e.with_expr is not None else None
            vals: list[tuple[str, ir.Node]] = []
            for i, (fn, ft) in enumerate(sd.fields):
                t = subst_tvars(ft, sub)
                if fn in given:
                    vals.append((fn, self.expect(given.pop(fn), t, sc)))
                elif base is not None:
                    vals.append((fn, ir.Field(t, base, "struct", i)))
                elif sd.defaults[i] is not None:
                    vals.append((fn, self.expect(sd.defaults[i], t, sc)))  # type: ignore[arg-type]
                else:
                    raise ElabError(f"field {fn} missing in structure instance", e.pos)
            if given:
                raise ElabError(f"unknown field(s) {', '.join(sorted(given))}", e.pos)
            if base is not None:
                return ir.Let(r, "_", ir.Lit(UNIT, ()), ir.MkStruct(r, sd.name, vals))
            return ir.MkStruct(r, sd.name, vals)
        raise Unsupported(f"structure instance for {self.show(r)}", e.pos)

    # ------------------------------------------------------------ operators
    def e_BinOp(self, e: A.BinOp, expected: Type | None, sc: Scope) -> ir.Node:
        op = e.op
        if op in ARITH_OPS or op == "^":
            node = elab_arith(self, e, expected, sc)
            if isinstance(node, ir.Prim):
                self.check_arith(node.op, node.opty, e.pos)
            return node
        if op in REL_OPS:
            return elab_rel(self, e, sc)
        if op in ("∧", "∨", "↔"):
            a = self.expect(e.lhs, PROP, sc)
            b = self.expect(e.rhs, PROP, sc)
            return ir.Prim(PROP, {"∧": "and", "∨": "or", "↔": "iff"}[op], [a, b], PROP)
        if op in ("&&", "||"):
            a = self.expect(e.lhs, BOOL, sc)
            b = self.expect(e.rhs, BOOL, sc)
            return ir.Prim(BOOL, "and" if op == "&&" else "or", [a, b], BOOL)
        if op == "::":
            return self.cons(e.lhs, e.rhs, expected, sc, e.pos)
        if op == "∈":
            return self.membership(e.lhs, e.rhs, sc, e.pos)
        if op == "×":
            raise ElabError("a type (×) used as a value", e.pos)
        if op == "∘":
            return self.compose(e, expected, sc)
        if op in notation.STRUCTURAL_OPS:
            return self.elab(notation.call(notation.STRUCTURAL_OPS[op], [e.lhs, e.rhs], e.pos), expected, sc)
        if op == "∣":
            return self.elab(notation.dvd(e), expected, sc)
        if op == "<|>":
            return self.elab(notation.or_else(e), expected, sc)
        if op in notation.SET_OPS:
            lhs = self.elab(e.lhs, None, sc)
            r = self.mc.resolve(lhs.ty)
            if is_meta(r):
                self.postpone(f"type of the left operand of {op} is not known", e.pos)
            if not isinstance(r, TCon) or r.name not in ("List", "Finset"):
                raise Unsupported(f"operator {op} on {self.show(r)}", e.pos)
            fn = f"{r.name}.{notation.SET_OPS[op]}"
            return self.elab(notation.call(fn, [NodeExpr(lhs), e.rhs], e.pos), expected, sc)
        if op in notation.LATTICE_OPS:
            lhs = self.elab(e.lhs, expected, sc)
            r = self.mc.resolve(lhs.ty)
            if is_meta(r):
                self.postpone(f"type of the left operand of {op} is not known", e.pos)
            if not isinstance(r, TCon) or r.name not in ("Nat", "Int"):
                raise Unsupported(f"operator {op} on {self.show(r)}", e.pos)
            fn = notation.LATTICE_OPS[op]
            return self.elab(notation.call(fn, [NodeExpr(lhs), e.rhs], e.pos), expected, sc)
        raise Unsupported(f"operator {op}", e.pos)

    def compose(self, e: A.BinOp, expected: Type | None, sc: Scope) -> ir.Node:
        """``f ∘ g`` is ``fun x => f (g x)``."""
        a, b, c = self.fresh(), self.fresh(), self.fresh()
        if expected is not None:
            self.mc.unify(expected, TFun(a, c))
        f = self.expect(e.lhs, TFun(b, c), sc)
        g = self.expect(e.rhs, TFun(a, b), sc)
        x = self.new_name("x")
        body = ir.App(c, f, [ir.App(b, g, [ir.Var(a, x)])])
        return ir.Lam(TFun(a, c), [x], body)

    def membership(self, x: A.Expr | ir.Node, coll_e: A.Expr | ir.Node, sc: Scope, pos: A.Pos) -> ir.Node:
        coll = coll_e if isinstance(coll_e, ir.Node) else self.elab(coll_e, None, sc)
        r = self.mc.resolve(coll.ty)
        if is_meta(r):
            self.postpone("type of the collection in ∈ is not known", pos)
        if not isinstance(r, TCon):
            raise ElabError(f"∈ on {self.show(r)}", pos)
        if r.name in ("List", "Array", "Std.HashSet", "Finset"):
            elem = r.args[0]
        elif r.name == "Std.HashMap":
            elem = r.args[0]
        else:
            raise ElabError(f"no membership (∈) on {self.show(r)}", pos)
        xv = self.coerce(x, elem, pos) if isinstance(x, ir.Node) else self.expect(x, elem, sc)
        return ir.Prim(PROP, "mem", [xv, coll], r)

    def e_UnOp(self, e: A.UnOp, expected: Type | None, sc: Scope) -> ir.Node:
        if e.op == "-":
            node = elab_arith(self, e, expected, sc)
            if isinstance(node, ir.Prim):
                self.check_arith(node.op, node.opty, e.pos)
            return node
        if e.op == "¬":
            v = self.expect(e.expr, PROP, sc)
            return ir.Prim(PROP, "not", [v], PROP)
        if e.op == "!":
            v = self.expect(e.expr, BOOL, sc)
            return ir.Prim(BOOL, "not", [v], BOOL)
        if e.op == "↑":
            if expected is None or is_meta(self.mc.resolve(expected)):
                self.postpone("↑ needs a known expected type", e.pos)
            v = self.elab(e.expr, None, sc)
            return self.coerce(v, expected, e.pos)
        raise Unsupported(f"unary operator {e.op}", e.pos)

    def e_Arrow(self, e: A.Arrow, expected: Type | None, sc: Scope) -> ir.Node:
        # in term position an arrow is an implication
        a = self.expect(e.lhs, PROP, sc)
        inner = sc
        if e.name:
            inner = sc.bind(e.name, Local(self.new_name(e.name), PROOF, proof=True))
        b = self.expect(e.rhs, PROP, inner)
        return ir.Prim(PROP, "implies", [a, b], PROP)

    # ---------------------------------------------------------------- index
    def e_Index(self, e: A.Index, expected: Type | None, sc: Scope) -> ir.Node:
        coll = self.elab(e.expr, None, sc)
        r = self.mc.resolve(coll.ty)
        if is_meta(r):
            self.postpone("type of the indexed collection is not known", e.pos)
        if not isinstance(r, TCon):
            raise ElabError(f"cannot index a value of type {self.show(r)}", e.pos)
        if r.name in ("List", "Array"):
            elem = r.args[0]
            idx = self.expect(e.index, NAT, sc)
            kind = "seq"
        elif r.name == "Std.HashMap":
            elem = r.args[1]
            idx = self.expect(e.index, r.args[0], sc)
            kind = "map"
        else:
            raise ElabError(f"cannot index a value of type {self.show(r)}", e.pos)
        ty = TCon("Option", (elem,)) if e.kind == "?" else elem
        return ir.Index(ty, coll, idx, e.kind, kind)

    # ----------------------------------------------------------- quantifiers
    def e_Quant(self, e: A.Quant, expected: Type | None, sc: Scope) -> ir.Node:
        pat = e.pat
        vty: Type | None = None
        prop_ty: A.Expr | None = None
        while isinstance(pat, A.PTyped):
            vty = self.binder_type(pat.type, sc)
            prop_ty = pat.type
            pat = pat.pat
        if e.type is not None:
            prop_ty = e.type
        if prop_ty is not None and e.bound is None and self.binder_type(prop_ty, sc) == PROOF:
            # ``∀ (h : P), Q`` is ``P → Q``; ``∃ (h : P), Q`` is ``P ∧ Q`` (proofs are irrelevant)
            hyp = self.expect(prop_ty, PROP, sc)
            inner_sc = sc
            if isinstance(pat, A.PVar):
                inner_sc = sc.bind(pat.name, Local(self.new_name(pat.name), PROOF, proof=True))
            rest = self.expect(e.body, PROP, inner_sc)
            return ir.Prim(PROP, "implies" if e.kind == "∀" else "and", [hyp, rest], PROP)
        if e.type is not None:
            t = self.binder_type(e.type, sc)
            if vty is not None and not self.mc.unify(vty, t):
                raise ElabError("quantifier binder type mismatch", e.pos)
            vty = t
        if vty is None:
            vty = self.fresh()
        if isinstance(pat, A.PWild):
            name = "_"
        elif isinstance(pat, A.PVar):
            name = pat.name
        else:
            raise Unsupported("pattern binder in a quantifier", e.pos)
        py = self.new_name(name)
        var = ir.Var(vty, py)
        inner = sc.bind(name, Local(py, vty, proof=self.mc.resolve(vty) == PROOF))
        bound: tuple[str, ir.Node] | None = None
        if e.bound is not None:
            bop, bexpr = e.bound
            if bop == "∈":
                rel = self.membership(var, bexpr, sc, e.pos)
                assert isinstance(rel, ir.Prim)
                bound = ("∈", rel.args[1])
            else:
                rel = elab_rel(self, A.BinOp(bop, NodeExpr(var), bexpr, e.pos), sc)
                assert isinstance(rel, ir.Prim)
                bound = (bop, rel)
        body = self.expect(e.body, PROP, inner)
        return ir.Quant(PROP, e.kind, py, vty, bound, body)


def _lam_fun_def(lam: A.Lam) -> bool:
    """A ``let f := fun …`` / ``let f (x) := …`` whose binders are simple enough to compile as a def."""
    return all(b.kind == "explicit" for b in lam.binders)
