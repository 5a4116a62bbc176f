"""Register and elaborate top-level declarations (``def``, ``structure``, ``instance``, ``open``, ``namespace``).

Declarations are registered in file order (which fixes what each one may
see) and elaborated lazily, on first use. A definition's body is elaborated
with its own metavariable context; when it is finished, every type in its IR
is zonked, so the code generator never sees a metavariable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from veriscale.values.types import BOOL, TCon, TFun, TVar, Type

from .. import ast as A
from ..errors import ElabError, Unsupported
from . import ir
from .env import Env
from .infer import Elaborator, WhereBlock
from .scope import DeclCtx, GlobalDef, Local, Scope, StructDef
from .tyexpr import PROOF, NotAType, TypeNames, is_type_var_binder, to_type
from .zonk import zonk_node

__all__ = ["DeclState", "elaborate_def", "register_decls"]


@dataclass
class DeclState:
    """What persists from one declaration to the next: namespace and ``open``s."""

    namespace: str = ""
    opens: list[str] = field(default_factory=list)


def register_decls(env: Env, decls: list[A.Decl], st: DeclState, section: str) -> list[GlobalDef]:
    out: list[GlobalDef] = []
    for d in decls:
        if isinstance(d, A.OpenDecl):
            for n in d.names:
                full = n
                if full not in st.opens:
                    st.opens.append(full)
        elif isinstance(d, A.NamespaceDecl):
            saved = st.namespace
            st.namespace = f"{saved}.{d.name}" if saved else d.name
            try:
                out.extend(register_decls(env, d.decls, st, section))
            finally:
                st.namespace = saved
        elif isinstance(d, A.Def):
            if d.kind in ("theorem", "lemma"):
                continue
            name = f"{st.namespace}.{d.name}" if st.namespace else d.name
            if name.startswith("_root_."):
                name = name[len("_root_.") :]
            idx = env.new_index()
            ctx = DeclCtx(st.namespace, tuple(st.opens), idx, None)
            key = f"{name}#{idx}"
            g = GlobalDef(name, key, env.names.new(name, "g"), d, idx, ctx, section=section)
            g.ctx.self_key = key
            env.add_def(g)
            out.append(g)
        elif isinstance(d, A.StructureDecl):
            register_structure(env, d, st)
        elif isinstance(d, A.InstanceDecl):
            g = register_instance(env, d, st, section)
            if g is not None:
                out.append(g)
        elif isinstance(d, A.OtherDecl):
            continue
        else:  # pragma: no cover - future AST nodes
            raise Unsupported(f"declaration {type(d).__name__}", getattr(d, "pos", None))
    return out


def register_structure(env: Env, d: A.StructureDecl, st: DeclState) -> None:
    name = f"{st.namespace}.{d.name}" if st.namespace else d.name
    params: list[str] = []
    for b in d.params:
        names = is_type_var_binder(b)
        if names is not None:
            params.extend(names)
        elif b.kind == "inst":
            continue
        else:
            raise Unsupported("structure with value parameters", d.pos)
    arities = env.struct_arities()
    arities[name] = len(params)
    tn = TypeNames(arities, tuple(st.opens), {p: TVar(p) for p in params})
    fields: list[tuple[str, Type]] = []
    defaults: list[A.Expr | None] = []
    for fname, fty, fdef in d.fields:
        try:
            fields.append((fname, to_type(fty, tn)))
        except NotAType:
            raise Unsupported(f"structure field {fname} with a non-type", d.pos) from None
        defaults.append(fdef)
    inhabited = "Inhabited" in d.deriving
    env.structs[name] = StructDef(name, params, fields, defaults, inhabited, index=env.new_index())


def _class_and_type(env: Env, cls: A.Expr, st: DeclState, tvars: dict[str, Type]) -> tuple[str, Type]:
    if not isinstance(cls, A.App) or not isinstance(cls.fn, A.Ident) or len(cls.args) != 1:
        raise Unsupported("instance of an unsupported class", getattr(cls, "pos", None))
    tn = TypeNames(env.struct_arities(), tuple(st.opens), tvars)
    try:
        t = to_type(cls.args[0].value, tn)
    except NotAType:
        raise Unsupported("instance for a non-type", cls.pos) from None
    return cls.fn.name, t


def register_instance(env: Env, d: A.InstanceDecl, st: DeclState, section: str) -> GlobalDef | None:
    tvars: dict[str, Type] = {}
    for b in d.binders:
        names = is_type_var_binder(b)
        if names is not None:
            for n in names:
                tvars[n] = TVar(n)
    cname, t = _class_and_type(env, d.cls, st, tvars)
    if cname in ("Inhabited", "Repr", "ToString", "Hashable", "DecidableEq"):
        if cname == "Inhabited":
            raise Unsupported("user Inhabited instance", d.pos)
        return None  # printing/hashing instances do not change results here
    if cname != "BEq":
        raise Unsupported(f"instance of class {cname}", d.pos)
    if not isinstance(t, TCon) or t.name not in env.structs:
        raise Unsupported("BEq instance for a non-structure type", d.pos)
    body: A.Expr | None = None
    binders: list[A.Binder] = []
    for m in d.methods:
        if m.name == "beq":
            binders = m.binders
            body = m.body
    if body is None and d.value is not None:
        v = d.value
        if isinstance(v, A.AnonCtor) and len(v.elems) == 1:
            body = v.elems[0]
        else:
            body = v
    if body is None:
        raise Unsupported("BEq instance without beq", d.pos)
    idx = env.new_index()
    key = f"inst.BEq.{t.name}#{idx}"
    decl = A.Def("beq", binders, None, body, pos=d.pos)
    ctx = DeclCtx(st.namespace, tuple(st.opens), idx, key)
    g = GlobalDef(
        f"inst.BEq.{t.name}", key, env.names.new(f"beq_{t.name}", "g"), decl, idx, ctx, section=section
    )
    g.tvars = list(tvars)
    g.params = [("a", t), ("b", t)]
    g.ret = BOOL
    g.arity = 2
    g.is_prop = False
    g.state = "pending"
    env.by_key[key] = g
    env.structs[t.name].beq_key = key
    return g


# ------------------------------------------------------------------ elaboration


def _lam_parts(e: A.Expr) -> tuple[list[A.Binder], A.Expr]:
    if isinstance(e, A.Lam) and all(b.kind == "explicit" for b in e.binders):
        return list(e.binders), e.body
    return [], e


def elaborate_def(env: Env, g: GlobalDef, make_elaborator: Callable[[Env], Elaborator] = Elaborator) -> None:
    """Elaborate one global definition (``make_elaborator``: e.g. one that also records positions)."""
    decl = g.decl
    assert decl is not None
    el = make_elaborator(env)
    ctx = DeclCtx(g.ctx.namespace, g.ctx.opens, g.ctx.index, g.key, dict(g.ctx.tvars))
    sc = Scope(ctx=ctx)
    fixed = g.key.startswith("inst.")
    tvars: list[str] = list(g.tvars) if fixed else []
    for tv in tvars:
        ctx.tvars[tv] = TVar(tv)
    params: list[tuple[str, Type, A.Pattern]] = []
    if not fixed:
        el.auto_bound = {}
        for b in decl.binders:
            names = is_type_var_binder(b)
            if names is not None:
                for n in names:
                    ctx.tvars[n] = TVar(n)
                    tvars.append(n)
                continue
            if b.kind == "inst":
                continue
            if b.kind != "explicit":
                raise Unsupported("implicit value parameter", b.pos)
            t = el.binder_type(b.type, sc) if b.type is not None else el.fresh()
            params.append((_pat_name(b.pat), t, b.pat))
        ret: Type = el.to_type(decl.type, sc) if decl.type is not None else el.fresh()
        for n, tv in el.auto_bound.items():
            if n not in ctx.tvars:
                ctx.tvars[n] = tv
                tvars.append(n)
        el.auto_bound = None
    else:
        assert g.ret is not None
        ret = g.ret
    body_ast = decl.body
    # merge leading lambda binders (equation-style definitions) into the parameters
    extra, inner_body = _lam_parts(body_ast)
    if fixed:
        fixed_types = [t for _, t in g.params]
        bs = list(decl.binders) + extra
        if len(bs) != len(fixed_types):
            raise ElabError("beq must take two arguments", decl.pos)
        for b, t in zip(bs, fixed_types):
            if b.type is not None and not el.mc.unify(el.binder_type(b.type, sc), t):
                raise ElabError("beq argument type mismatch", b.pos)
            params.append((_pat_name(b.pat), t, b.pat))
        body_ast = inner_body
    elif extra:
        for b in extra:
            r = el.mc.resolve(ret)
            if isinstance(r, TFun):
                dom, ret = r.arg, r.res
            else:
                dom = el.fresh()
                res = el.fresh()
                if not el.mc.unify(r, TFun(dom, res)):
                    raise ElabError("definition has more parameters than its type", b.pos)
                ret = res
            if b.type is not None and not el.mc.unify(el.binder_type(b.type, sc), dom):
                raise ElabError("parameter type mismatch", b.pos)
            params.append((_pat_name(b.pat), dom, b.pat))
        body_ast = inner_body
    # scope with parameters
    pynames: list[str] = []
    inner = sc
    pat_params: list[tuple[str, A.Pattern, Type]] = []
    for _name, t, pat in params:
        core = pat
        while isinstance(core, A.PTyped):
            core = core.pat
        if isinstance(core, A.PVar):
            py = env.names.new(core.name)
            inner = inner.bind(core.name, Local(py, t, proof=el.mc.resolve(t) == PROOF))
        elif isinstance(core, A.PWild):
            py = env.names.new("w")
        else:
            py = env.names.new("p")
            pat_params.append((py, core, t))
        pynames.append(py)
    g.tvars = tvars
    g.params = [(n, t) for n, t, _ in params]
    g.ret = ret
    g.arity = len(params)
    g.param_pynames = pynames
    g.state = "elaborating"
    # the function's own name is visible for recursion
    if g.decl.where_defs:
        items = [(A.PVar(w.name, w.pos), *_where_item(w)) for w in g.decl.where_defs]
        wrapped: A.Expr = WhereBlock(items, body_ast)
    else:
        wrapped = body_ast
    if pat_params:
        body = el.match_core(
            [ir.Var(t, py) for py, _, t in pat_params],
            [A.MatchArm([[p for _, p, _ in pat_params]], wrapped, decl.pos)],
            ret,
            inner,
            decl.pos,
        )
    elif isinstance(wrapped, WhereBlock):
        body = el.let_rec(wrapped.items, wrapped.body, ret, inner, decl.pos)
    else:
        body = el.expect(wrapped, ret, inner)
    el.synthesize(final=True)
    mc = el.mc
    g.ret = mc.zonk(g.ret)
    g.params = [(n, mc.zonk(t)) for n, t in g.params]
    for _, t in g.params:
        if mc.has_metas(t):
            raise ElabError(f"cannot infer the type of a parameter of '{g.name}'", decl.pos)
    if mc.has_metas(g.ret):
        raise ElabError(f"cannot infer the result type of '{g.name}'", decl.pos)
    g.body = zonk_node(body, mc)
    g.is_prop = g.ret == TCon("Prop")
    g.state = "done"


def _where_item(w: A.Def) -> tuple[A.Expr | None, A.Expr]:
    """A ``where`` definition as (full function type, value), like a ``let rec``."""
    if not w.binders:
        return w.type, w.body
    body = w.body
    ty: A.Expr | None = w.type
    for b in reversed(w.binders):
        if ty is None or b.type is None or b.kind != "explicit":
            ty = None
            break
        ty = A.Arrow(b.type, ty, None, b.pos)
    if ty is None and w.type is not None:
        body = A.Typed(body, w.type, body.pos)
    return ty, A.Lam(list(w.binders), body, w.pos)


def _pat_name(p: A.Pattern) -> str:
    while isinstance(p, A.PTyped):
        p = p.pat
    if isinstance(p, A.PVar):
        return p.name
    return "_"
