"""Compile typed IR to Python source, executed into one namespace per program.

Every Lean definition becomes a Python function; local functions (``let
rec``, ``where``, ``let f x := …``) become nested ``def``s and lambdas
become Python lambdas (or nested ``def``s when their body needs
statements), wrapped in ``Fn`` when used as values. ``let`` becomes an
assignment (every binder has a unique name), ``match`` an ``if``/``elif``
chain over pattern tests, ``Id.run do`` a nested function with real loops,
``break``/``continue``/``return``. Lazy constructs (``if``, ``∧ ∨ →``,
match arms, quantifier bodies) keep the statements of their branches inside
the branch. Fuel is charged on entry of every (possibly recursive) function,
in every loop iteration and quantifier step.

Generated identifiers all come from ``NameGen`` (letters, digits, ``_`` and a
numeric suffix) and literals are written with ``repr`` or stored in the
namespace, so no Lean source text ever reaches the generated code verbatim.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from veriscale.runtime import limits
from veriscale.values.runtime import Fn, Struct, default_value
from veriscale.values.types import TCon, TFun, TVar, Type, render_type

from ..builtins import ops, optional
from ..builtins import registry as breg
from ..elab import ir
from ..elab.env import Env
from ..elab.scope import GlobalDef
from ..errors import ElabError, Unsupported
from . import doubling
from .analysis import has_self_tail_call, is_self_call, param_types, rebinds, wants_memo
from .freevars import free_vars
from .guards import runtime_helpers as guard_helpers
from .quant import find_domain, unbounded_domain
from .unbounded import domain_code as unbounded_domain_code
from .unbounded import runtime_helpers as unbounded_helpers

if TYPE_CHECKING:
    from .coverage import CoverageMap

__all__ = ["Compiler"]

# fuel is taken from the budget in blocks; generated code decrements a counter cell
FUEL_BLOCK = 1024

_SCALAR_EQ = frozenset({"Nat", "Int", "UInt8", "Bool", "Prop", "Char", "String", "Unit", "Float"})
_SCALAR_ORD = frozenset({"Nat", "Int", "UInt8", "Bool", "Prop", "Char", "String", "Float"})
_REL_FN = {
    "lt": ops.rel_lt,
    "le": ops.rel_le,
    "gt": ops.rel_gt,
    "ge": ops.rel_ge,
    "eq": ops.rel_eq,
    "ne": ops.rel_ne,
    "beq": ops.rel_eq,
    "bne": ops.rel_ne,
}
_PY_REL = {"lt": "<", "le": "<=", "gt": ">", "ge": ">="}


# Python templates of the arithmetic operators per operand type (``{a}``, ``{b}``: the operands)
_ARITH: dict[str, dict[str, str]] = {
    "Nat": {
        "add": "({a} + {b})",
        "sub": "_nsub({a}, {b})",
        "mul": "_imul({a}, {b})",
        "div": "_ndiv({a}, {b})",
        "mod": "_nmod({a}, {b})",
        "pow": "_npow({a}, {b})",
        "land": "({a} & {b})",
        "lor": "({a} | {b})",
        "xor": "({a} ^ {b})",
        "shl": "_nshl({a}, {b})",
        "shr": "({a} >> {b})",
    },
    "Int": {
        "add": "({a} + {b})",
        "sub": "({a} - {b})",
        "mul": "_imul({a}, {b})",
        "div": "_idiv({a}, {b})",
        "mod": "_imod({a}, {b})",
        "pow": "_npow({a}, {b})",
    },
    "Float": {
        "add": "({a} + {b})",
        "sub": "({a} - {b})",
        "mul": "({a} * {b})",
        "div": "_fdiv({a}, {b})",
        "pow": "_fpow({a}, {b})",
    },
    "UInt8": {
        "add": "_u8add({a}, {b})",
        "sub": "_u8sub({a}, {b})",
        "mul": "_u8mul({a}, {b})",
        "div": "_u8div({a}, {b})",
        "mod": "_u8mod({a}, {b})",
        "land": "({a} & {b})",
        "lor": "({a} | {b})",
        "xor": "({a} ^ {b})",
    },
}


def _name(t: Type) -> str | None:
    return t.name if isinstance(t, TCon) else None


class Compiler:
    """Owns the namespace of one program and compiles globals into it on demand."""

    def __init__(self, env: Env, ns: dict[str, Any], coverage: CoverageMap | None = None) -> None:
        self.env = env
        self.ns = ns
        # coverage probes (None: off); ``cov_defs`` names the instrumented definitions being generated
        self.cov = coverage
        self.cov_section: str | None = None
        self.cov_defs: list[str] = []
        if coverage is not None:
            ns["_H"] = coverage.hits
        self.consts: dict[Any, str] = {}
        self.nconst = 0
        self.compiled: set[str] = set()
        self.pending: list[GlobalDef] = []
        self.sources: list[str] = []  # generated code, for debugging
        ns["_unbounded"] = unbounded_domain
        ns.update(unbounded_helpers())
        ns.update(guard_helpers())
        ns.setdefault("_memos", [])
        ns["_MISS"] = _MISS
        cell = [0]
        ns["_F"] = cell

        def refuel() -> None:
            limits.charge(FUEL_BLOCK)
            cell[0] = FUEL_BLOCK - 1

        ns["_refuel"] = refuel
        self.hoisted: list[str] = []

    # -------------------------------------------------------------- namespace
    def const(self, value: Any, key: Any = None) -> str:
        k = key if key is not None else ("id", id(value))
        name = self.consts.get(k)
        if name is None:
            self.nconst += 1
            name = f"k_{self.nconst}"
            self.consts[k] = name
            self.ns[name] = value
        return name

    def builtin_impl(self, name: str) -> str:
        b = breg.lookup(name)
        if b is None:
            raise Unsupported(f"builtin {name} is not available")
        return self.const(b.impl, ("bltn", name))

    def default_of(self, t: Type) -> Any:
        try:
            return default_value(t, self.struct_defaults())
        except TypeError as exc:
            raise Unsupported(f"no default value for type {_show(t)}: {exc}") from None

    def struct_defaults(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, sd in self.env.structs.items():
            if not sd.inhabited:
                continue
            try:
                out[name] = Struct(name, tuple((fn, default_value(ft, out)) for fn, ft in sd.fields))
            except TypeError:
                continue
        return out

    def default_const(self, t: Type) -> str:
        return self.const(self.default_of(t), ("default", t))

    # --------------------------------------------------------------- globals
    def need(self, g: GlobalDef) -> None:
        if g.key not in self.compiled:
            self.compiled.add(g.key)
            self.pending.append(g)

    def compile_global(self, g: GlobalDef) -> None:
        self.need(g)
        self.drain()

    def drain(self) -> None:
        while self.pending:
            cur = self.pending.pop()
            if cur.state != "done":
                self.env.signature(cur, None)
            self.hoisted = []
            if self.cov is not None:
                self.cov_enter_global(cur)
            src = self.gen_global(cur)
            self.exec_src(src, cur.name)

    def exec_src(self, src: str, what: str) -> None:
        if self.hoisted:
            src = "\n".join(self.hoisted) + "\n" + src
            self.hoisted = []
        self.sources.append(src)
        try:
            code = compile(src, f"<lean {what}>", "exec")
        except (SyntaxError, RecursionError, MemoryError) as exc:  # absurd nesting or a generator bug
            raise Unsupported(f"could not compile '{what}': {type(exc).__name__}: {exc}") from None
        exec(code, self.ns)

    def gen_global(self, g: GlobalDef) -> str:
        memo = None
        ptypes = [t for _, t in g.params]
        if wants_memo(g.body, ("glob", g.key), ptypes):
            memo = f"m_{g.pyname}"
            self.ns[memo] = {}
            self.ns["_memos"].append(self.ns[memo])
        entry = (g.name, g.decl.pos) if g.decl is not None else (g.name, None)
        lines = gen_function(
            self, g.pyname, g.param_pynames, g.body, 0, ("glob", g.key), True, memo, set(), entry
        )
        return "\n".join(lines) + "\n"

    # --------------------------------------------------------------- coverage
    def cov_enter_global(self, g: GlobalDef) -> None:
        """Instrument ``g`` only if it belongs to the implementation."""
        from .coverage import IMPL_SECTIONS

        self.cov_section = g.section if g.section in IMPL_SECTIONS else None
        self.cov_defs = []

    def cov_probe(self, kind: str, label: str, pos: Any) -> int | None:
        if self.cov is None or self.cov_section is None:
            return None
        name = ".".join(self.cov_defs) if self.cov_defs else "?"
        return self.cov.add(kind, label, name, self.cov_section, pos)

    def compile_expr_fn(self, node: ir.Node, name: str) -> str:
        """A zero-argument Python function evaluating ``node`` (for test-input lambdas)."""
        self.hoisted = []
        self.cov_section = None
        fg = FnGen(self, 1)
        fg.prepare(node)
        e = fg.ex(node)
        fg.emit(f"return {e}")
        self.exec_src("\n".join([f"def {name}():", *fg.lines]) + "\n", "input")
        self.drain()
        return name


def _simple(e: str) -> bool:
    """An identifier or an integer literal: safe to evaluate twice."""
    return e.isidentifier() or e.isdigit()


def _show(t: Type) -> str:
    try:
        return render_type(t)
    except Exception:
        return str(t)


def _contains(t: Type, pred: Callable[[TCon], bool]) -> bool:
    if isinstance(t, TCon):
        return pred(t) or any(_contains(a, pred) for a in t.args)
    if isinstance(t, TFun):
        return _contains(t.arg, pred) or _contains(t.res, pred)
    return False


class FnGen:
    """Emits the body of one Python function."""

    def __init__(self, comp: Compiler, indent: int) -> None:
        self.c = comp
        self.lines: list[str] = []
        self.ind = indent
        self.rebound: set[str] = set()
        self.tail: tuple[tuple[str, str], list[str]] | None = None

    # ----------------------------------------------------------- plumbing
    def emit(self, s: str) -> None:
        self.lines.append("    " * self.ind + s)

    def tick(self) -> None:
        """Charge one unit of fuel (a cheap counter; the budget is charged in blocks)."""
        self.emit("_F[0] -= 1")
        self.emit("if _F[0] < 0: _refuel()")

    def probe(self, kind: str, label: str, pos: Any) -> None:
        """A coverage probe here (nothing when coverage is off or outside the implementation)."""
        if self.c.cov is None:
            return
        k = self.c.cov_probe(kind, label, pos)
        if k is not None:
            self.emit(f"_H[{k}] = 1")

    def cov_info(self, obj: Any) -> Any:
        return self.c.cov.info(obj) if self.c.cov is not None else None

    def probe_branch(self, node: Any, idx: int, label: str) -> None:
        if self.c.cov is None:
            return
        info = self.c.cov.info(node)
        self.probe("branch", label, info[idx] if info else None)

    def branch(self, node: Any, idx: int, label: str, body: ir.Node) -> str:
        """``body`` (a branch of ``node``) as an expression, after its coverage probe."""
        self.probe_branch(node, idx, label)
        return self.ex(body)

    def sub(self, fn: Callable[[], str]) -> tuple[list[str], str]:
        saved = self.lines
        self.lines = []
        self.ind += 1
        try:
            r = fn()
        finally:
            out = self.lines
            self.lines = saved
            self.ind -= 1
        return out, r

    def tmp(self, hint: str = "t") -> str:
        return self.c.env.names.new(hint, "t")

    def prepare(self, body: Any) -> None:
        """Find the names this function rebinds (loop bodies, mutable variables)."""
        counts: dict[str, int] = {}
        rebinds(body, False, self.rebound, counts)
        self.rebound |= {k for k, v in counts.items() if v > 1}

    def simple(self, e: str) -> str:
        """Bind a non-trivial expression to a temporary (for multiple use)."""
        if e.isidentifier():
            return e
        t = self.tmp()
        self.emit(f"{t} = {e}")
        return t

    def gen_tail(self, n: ir.Node) -> None:
        """Emit ``n`` in tail position of a self-recursive function compiled as a loop."""
        assert self.tail is not None
        self_ref, params = self.tail
        while isinstance(n, ir.Postponed):
            assert n.node is not None
            n = n.node
        if is_self_call(n, self_ref, len(params)):
            assert isinstance(n, ir.Call)
            vals = [self.ex(a) for a in n.args]
            if params:
                self.emit(f"{', '.join(params)} = {', '.join(vals)}")
            self.emit("continue")
            return
        if isinstance(n, ir.If):
            c = self.ex(n.cond)
            self.emit(f"if {c}:")
            self.ind += 1
            self.probe_branch(n, 1, "then")
            self.gen_tail(n.then)
            self.ind -= 1
            owner = n
            els = n.els
            while isinstance(els, ir.If):
                cl, ce = self.sub(lambda els=els: self.ex(els.cond))
                if cl:
                    break
                self.emit(f"elif {ce}:")
                self.ind += 1
                self.probe_branch(els, 1, "then")
                self.gen_tail(els.then)
                self.ind -= 1
                owner = els
                els = els.els
            self.emit("else:")
            self.ind += 1
            if not isinstance(els, ir.If):
                self.probe_branch(owner, 2, "else")
            self.gen_tail(els)
            self.ind -= 1
            return
        if isinstance(n, ir.Let):
            self.emit(f"{n.name} = {self.ex(n.value)}")
            self.gen_tail(n.body)
            return
        if isinstance(n, ir.LetFun):
            self.letfun_defs(n)
            self.gen_tail(n.body)
            return
        if isinstance(n, ir.Match):
            self.match(n.discrs, n.arms, stmts=False, tail=True)
            return
        self.emit(f"return {self.ex(n)}")

    # --------------------------------------------------------- expressions
    def ex(self, n: ir.Node) -> str:
        m = getattr(self, "x_" + type(n).__name__, None)
        if m is None:
            raise Unsupported(f"cannot compile {type(n).__name__}")
        return m(n)

    def x_Postponed(self, n: ir.Postponed) -> str:
        if n.node is None:
            raise ElabError("unresolved postponed term")
        return self.ex(n.node)

    def x_Var(self, n: ir.Var) -> str:
        return n.name

    def x_Lit(self, n: ir.Lit) -> str:
        v = n.value
        if v is None or v is True or v is False:
            return repr(v)
        if type(v) is int or type(v) is str:
            return repr(v)
        if type(v) is tuple and not v:
            return "()"
        return self.c.const(v, ("lit", type(v).__name__, repr(v)))

    def x_Num(self, n: ir.Num) -> str:
        t = n.ty
        name = _name(t)
        if name in ("Nat", "Int"):
            if n.text is not None:
                raise ElabError(f"scientific literal {n.text} of type {name}")
            return repr(int(n.value))
        if name == "UInt8":
            return repr(int(n.value) % 256)
        if name == "Float":
            val = ops.float_of_literal(n.text) if n.text is not None else ops.float_of_nat(n.value)
            return self.c.const(val, ("float", repr(val)))
        raise ElabError(f"numeral of type {_show(t)}")

    def x_Glob(self, n: ir.Glob) -> str:
        g = self.c.env.by_key[n.key]
        self.c.need(g)
        if g.arity == 0:
            return f"{g.pyname}()"
        return f"_Fn({g.arity}, {g.pyname})"

    def x_Bltn(self, n: ir.Bltn) -> str:
        b = breg.lookup(n.name)
        if b is None:
            raise Unsupported(f"builtin {n.name} is not available")
        impl = b.impl
        dflt: Any = optional.NO_DEFAULT
        if b.inhabited is not None:
            assert n.inst is not None
            dflt = self.c.default_of(n.inst)
            impl = functools.partial(impl, dflt)
            key: Any = ("bfn", n.name, n.inst)
        else:
            key = ("bfn", n.name)
        required = optional.required_arity(b)
        if b.arity == 0:
            return f"{self.c.const(impl, ('bimpl', key))}()"
        if required < b.arity:
            if required == 0:
                return f"{self.c.const(lambda: optional.invoke(b, (), dflt), ('bimpl0', key))}()"
            fn = Fn(required, lambda *a: optional.invoke(b, a, dflt), n.name)
            return self.c.const(fn, key)
        return self.c.const(Fn(b.arity, impl, n.name), key)

    def x_LocalFn(self, n: ir.LocalFn) -> str:
        return f"_Fn({n.arity}, {n.name})"

    def x_Call(self, n: ir.Call) -> str:
        t = n.target
        if doubling.ENABLED and (dbl := doubling.match(n)) is not None:  # all subsequences: see there
            # (arguments evaluated in the order, and with the temporaries, of the plain call)
            wrap = self.simple if len(n.args) > 3 else (lambda e: e)
            init, xs = (wrap(self.ex(a)) for a in dbl)
            return f"_dfold({init}, {xs})"
        if isinstance(t, ir.Bltn) and any(isinstance(a, ir.BDefault) for a in n.args):
            return self.call_with_defaults(t, n.args)
        args = [self.ex(a) for a in n.args]
        if isinstance(t, ir.Glob):
            g = self.c.env.by_key[t.key]
            self.c.need(g)
            return f"{g.pyname}({', '.join(args)})"
        if isinstance(t, ir.Bltn):
            b = breg.lookup(t.name)
            if b is None:
                raise Unsupported(f"builtin {t.name} is not available")
            f = self.c.builtin_impl(t.name)
            if b.inhabited is not None:
                assert t.inst is not None
                args = [self.c.default_const(t.inst), *args]
            return f"{f}({', '.join(args)})"
        if isinstance(t, ir.LocalFn):
            return f"{t.name}({', '.join(args)})"
        raise Unsupported("call of an unknown target")

    def call_with_defaults(self, t: ir.Bltn, nargs: list[ir.Node]) -> str:
        b = breg.lookup(t.name)
        if b is None:
            raise Unsupported(f"builtin {t.name} is not available")
        info = optional.param_info(t.name)
        assert info is not None
        vals: list[str] = []
        for a in nargs:
            if isinstance(a, ir.BDefault):
                d = self.c.const(info.defaults[a.k], ("bdefault", t.name, a.k))
                prev = "".join(f"{v}, " for v in vals)
                vals.append(self.simple(f"{d}(({prev}))"))
            else:
                vals.append(self.simple(self.ex(a)))
        f = self.c.builtin_impl(t.name)
        if b.inhabited is not None:
            assert t.inst is not None
            vals = [self.c.default_const(t.inst), *vals]
        return f"{f}({', '.join(vals)})"

    def x_BDefault(self, n: ir.BDefault) -> str:  # pragma: no cover - handled by x_Call
        raise Unsupported("optional argument outside a call")

    def x_App(self, n: ir.App) -> str:
        f = self.ex(n.fn)
        args = [self.ex(a) for a in n.args]
        return f"_call({f}, {', '.join(args)})"

    # lambdas and local functions
    def x_Lam(self, n: ir.Lam) -> str:
        rel = self._rel_lambda(n)
        if rel is not None:
            return rel
        eta = self._eta_builtin(n)
        if eta is not None:
            return eta
        fvs = free_vars(n)
        k = len(n.params)
        if not fvs:
            return self.hoist_lam(n)
        captured = sorted(fvs & self.rebound)
        sub = FnGen(self.c, self.ind + 1 + (1 if captured else 0))
        sub.prepare(n.body)
        body = sub.ex(n.body)
        if not sub.lines:
            lam = f"lambda {', '.join(n.params)}: {body}" if n.params else f"lambda: {body}"
            if captured:
                cs = ", ".join(captured)
                return f"_Fn({k}, (lambda {cs}: ({lam}))({cs}))"
            return f"_Fn({k}, {lam})"
        fname = self.tmp("lam")
        if captured:
            mk = self.tmp("mk")
            cs = ", ".join(captured)
            self.emit(f"def {mk}({cs}):")
            self.ind += 1
            self.emit(f"def {fname}({', '.join(n.params)}):")
            self.lines.extend(sub.lines)
            self.emit(f"    return {body}")
            self.emit(f"return {fname}")
            self.ind -= 1
            return f"_Fn({k}, {mk}({cs}))"
        self.emit(f"def {fname}({', '.join(n.params)}):")
        self.lines.extend(sub.lines)
        self.emit(f"    return {body}")
        return f"_Fn({k}, {fname})"

    def hoist_lam(self, n: ir.Lam) -> str:
        """A closed lambda: built once, at module level."""
        sub = FnGen(self.c, 1)
        sub.prepare(n.body)
        body = sub.ex(n.body)
        k = len(n.params)
        name = self.tmp("lamv")
        if not sub.lines:
            lam = f"lambda {', '.join(n.params)}: {body}" if n.params else f"lambda: {body}"
            self.c.hoisted.append(f"{name} = _Fn({k}, {lam})")
            return name
        fname = self.tmp("lam")
        self.c.hoisted.extend([f"def {fname}({', '.join(n.params)}):", *sub.lines, f"    return {body}"])
        self.c.hoisted.append(f"{name} = _Fn({k}, {fname})")
        return name

    def _eta_builtin(self, n: ir.Lam) -> str | None:
        """``fun x => B c x`` (a builtin applied to closed constants, then to the parameters in
        order) as the builtin itself, or a ``functools.partial`` of it: the same calls, charges
        and errors (a lambda does not tick), one Python frame less per call, and list builtins
        that loop over it see the charging wrapper (``support.charged_parts``)."""
        b = n.body
        while isinstance(b, ir.Coe) and b.kind != "some":  # (the other coercions compile to nothing)
            b = b.expr
        k = len(n.params)
        if not (k and isinstance(b, ir.Call) and isinstance(b.target, ir.Bltn) and len(b.args) >= k):
            return None
        bi = breg.lookup(b.target.name)
        if bi is None or bi.arity != len(b.args) or any(isinstance(a, ir.BDefault) for a in b.args):
            return None
        pre, last = b.args[: len(b.args) - k], b.args[len(b.args) - k :]
        if not all(isinstance(a, ir.Var) and a.name == p for a, p in zip(last, n.params, strict=True)):
            return None
        if any(free_vars(a) for a in pre):
            return None
        sub = FnGen(self.c, self.ind)
        codes = [sub.ex(a) for a in pre]
        if sub.lines or not all(c.isidentifier() for c in codes):
            return None
        if bi.inhabited is not None:
            assert b.target.inst is not None
            codes = [self.c.default_const(b.target.inst), *codes]
        f = self.c.builtin_impl(b.target.name)
        if not codes:
            return f"_Fn({k}, {f})"
        return f"_Fn({k}, _partial({f}, {', '.join(codes)}))"

    def _rel_lambda(self, n: ir.Lam) -> str | None:
        """``(· ≤ ·)`` on scalars: the shared relation functions that builtins run natively."""
        if len(n.params) != 2:
            return None
        b = n.body
        if not isinstance(b, ir.Prim) or b.op not in _REL_FN or len(b.args) != 2:
            return None
        x, y = b.args
        if not (isinstance(x, ir.Var) and isinstance(y, ir.Var)):
            return None
        if (x.name, y.name) != (n.params[0], n.params[1]):
            return None
        if _name(b.opty) not in ("Nat", "Int", "Char", "String", "UInt8"):
            return None
        return self.c.const(Fn(2, _REL_FN[b.op], b.op), ("relfn", b.op))

    def x_LetFun(self, n: ir.LetFun) -> str:
        self.letfun_defs(n)
        return self.ex(n.body)

    def letfun_defs(self, n: ir.LetFun) -> None:
        group = {fd.name for fd in n.funs}
        closed = all(not (free_vars(ir.Lam(fd.ty, fd.params, fd.body)) - group) for fd in n.funs)
        for fd in n.funs:
            if closed:
                self.hoist_fundef(fd)
            else:
                self.gen_fundef(fd, group)

    def hoist_fundef(self, fd: ir.FunDef) -> None:
        """A local function that captures nothing: defined once, at module level."""
        assert fd.body is not None
        memo = None
        if fd.charge and wants_memo(fd.body, ("local", fd.name), param_types(fd.ty, len(fd.params))):
            memo = self.tmp("memo")
            self.c.ns[memo] = {}
            self.c.ns["_memos"].append(self.c.ns[memo])
        saved = self.c.hoisted
        self.c.hoisted = []
        lines = gen_function(
            self.c,
            fd.name,
            fd.params,
            fd.body,
            0,
            ("local", fd.name),
            fd.charge,
            memo,
            set(),
            self.fun_entry(fd),
        )
        inner = self.c.hoisted
        self.c.hoisted = saved
        self.c.hoisted.extend(inner)
        self.c.hoisted.extend(lines)

    def gen_fundef(self, fd: ir.FunDef, group: set[str]) -> None:
        assert fd.body is not None
        probe = ir.Lam(fd.ty, fd.params, fd.body)
        captured = sorted((free_vars(probe) - group) & self.rebound)
        ptypes = param_types(fd.ty, len(fd.params))
        memo = None
        if fd.charge and wants_memo(fd.body, ("local", fd.name), ptypes):
            memo = self.tmp("memo")
        base = self.ind + (1 if captured else 0)
        lines = gen_function(
            self.c,
            fd.name,
            fd.params,
            fd.body,
            base,
            ("local", fd.name),
            fd.charge,
            memo,
            set(captured),
            self.fun_entry(fd),
        )
        if captured:
            mk = self.tmp("mk")
            cs = ", ".join(captured)
            self.emit(f"def {mk}({cs}):")
            self.ind += 1
            if memo:
                self.emit(f"{memo} = {{}}")
            self.lines.extend(lines)
            self.emit(f"return {fd.name}")
            self.ind -= 1
            self.emit(f"{fd.name} = {mk}({cs})")
            return
        if memo:
            self.emit(f"{memo} = {{}}")
        self.lines.extend(lines)

    def fun_entry(self, fd: ir.FunDef) -> tuple[str, Any] | None:
        if self.c.cov is None:
            return None
        info = self.c.cov.info(fd)
        return (info[0], info[1]) if info else (fd.name, None)

    def x_Let(self, n: ir.Let) -> str:
        v = self.ex(n.value)
        self.emit(f"{n.name} = {v}")
        return self.ex(n.body)

    def x_If(self, n: ir.If) -> str:
        """``if``/``else if`` chains become one ``if``/``elif`` (or one conditional expression),
        so long chains do not nest Python blocks."""
        chain = [n]
        while isinstance(chain[-1].els, ir.If):
            chain.append(chain[-1].els)  # type: ignore[arg-type]
        parts: list[tuple[str, list[str], str]] = []
        c0 = self.ex(n.cond)
        lines0, e0 = self.sub(lambda: self.branch(n, 1, "then", n.then))
        parts.append((c0, lines0, e0))
        rest: ir.Node = chain[-1].els
        for k in range(1, len(chain)):
            node = chain[k]
            cl, ce = self.sub(lambda node=node: self.ex(node.cond))
            if cl:  # the condition needs statements: continue the chain in a nested block
                rest = node
                break
            tl, te = self.sub(lambda node=node: self.branch(node, 1, "then", node.then))
            parts.append((ce, tl, te))
        if isinstance(rest, ir.If):  # a nested chain: its own probes
            el, ee = self.sub(lambda: self.ex(rest))
        else:
            el, ee = self.sub(lambda: self.branch(chain[-1], 2, "else", rest))
        if not el and all(not pl for _, pl, _ in parts):
            return "(" + " else ".join(f"({te}) if {ce}" for ce, _, te in parts) + f" else ({ee}))"
        t = self.tmp()
        for i, (ce, tl, te) in enumerate(parts):
            self.emit(f"{'if' if i == 0 else 'elif'} {ce}:")
            self.lines.extend(tl)
            self.emit(f"    {t} = {te}")
        self.emit("else:")
        self.lines.extend(el)
        self.emit(f"    {t} = {ee}")
        return t

    # ------------------------------------------------------------- matching
    def pat(self, p: ir.Pat, path: str, conds: list[str], binds: list[str]) -> None:
        if isinstance(p, ir.PVar):
            binds.append(f"{p.name} = {path}")
        elif isinstance(p, ir.PWild):
            return
        elif isinstance(p, ir.PLit):
            conds.append(f"{path} == {self.lit_code(p.value, p.ty)}")
        elif isinstance(p, ir.PCons | ir.PSeq):
            self.pat_list(p, path, 0, conds, binds)
        elif isinstance(p, ir.PPair):
            self.pat(p.fst, f"{path}[0]", conds, binds)
            self.pat(p.snd, f"{path}[1]", conds, binds)
        elif isinstance(p, ir.PSome):
            conds.append(f"{path} is not None")
            self.pat(p.pat, f"{path}.val", conds, binds)
        elif isinstance(p, ir.PNone):
            conds.append(f"{path} is None")
        elif isinstance(p, ir.PStruct):
            for i, q in enumerate(p.fields):
                self.pat(q, f"{path}.fields[{i}][1]", conds, binds)
        elif isinstance(p, ir.PSucc):
            conds.append(f"{path} >= {p.k}")
            self.pat(p.pat, f"({path} - {p.k})", conds, binds)
        elif isinstance(p, ir.PAs):
            binds.append(f"{p.name} = {path}")
            self.pat(p.pat, path, conds, binds)
        else:  # pragma: no cover
            raise Unsupported(f"pattern {type(p).__name__}")

    def pat_list(self, p: ir.Pat, base: str, off: int, conds: list[str], binds: list[str]) -> None:
        if isinstance(p, ir.PCons):
            conds.append(f"len({base}) > {off}")
            self.pat(p.head, f"{base}[{off}]", conds, binds)
            self.pat_list(p.tail, base, off + 1, conds, binds)
        elif isinstance(p, ir.PSeq):
            conds.append(f"len({base}) == {off + len(p.elems)}")
            for i, q in enumerate(p.elems):
                self.pat(q, f"{base}[{off + i}]", conds, binds)
        else:
            self.pat(p, base if off == 0 else f"{base}[{off}:]", conds, binds)

    def lit_code(self, v: Any, t: Type) -> str:
        if isinstance(v, bool) or v is None:
            return repr(v)
        if isinstance(v, int):
            if _name(t) == "UInt8":
                return repr(v % 256)
            return repr(v)
        if isinstance(v, str):
            return repr(v)
        return self.c.const(v, ("lit", repr(v)))

    def x_Match(self, n: ir.Match) -> str:
        return self.match(n.discrs, n.arms, stmts=False)

    def match(self, discrs: list[ir.Node], arms: list[ir.Arm], stmts: bool, tail: bool = False) -> str:
        ds = [self.simple(self.ex(d)) for d in discrs]
        # a single irrefutable arm: no test
        if len(arms) >= 1:
            conds0: list[str] = []
            binds0: list[str] = []
            for p, d in zip(arms[0].pats, ds):
                self.pat(p, d, conds0, binds0)
            if not conds0:
                for b in binds0:
                    self.emit(b)
                if stmts:
                    self.do_stmts(arms[0].rhs)
                    return ""
                if tail:
                    self.gen_tail(arms[0].rhs)
                    return ""
                return self.ex(arms[0].rhs)
        t = self.tmp()
        first = True
        exhaustive = False
        for i, arm in enumerate(arms):
            conds: list[str] = []
            binds: list[str] = []
            for p, d in zip(arm.pats, ds):
                self.pat(p, d, conds, binds)

            def body(arm: ir.Arm = arm, binds: list[str] = binds, i: int = i) -> str:
                self.probe("arm", f"arm {i + 1}/{len(arms)}", self.cov_info(arm))
                for b in binds:
                    self.emit(b)
                if stmts:
                    self.do_stmts(arm.rhs)
                    return ""
                if tail:
                    self.gen_tail(arm.rhs)
                    return ""
                return self.ex(arm.rhs)

            lines, e = self.sub(body)
            if conds:
                self.emit(f"{'if' if first else 'elif'} {' and '.join(conds)}:")
            else:
                self.emit("else:" if not first else "if True:")
            self.lines.extend(lines)
            if not stmts and not tail:
                self.emit(f"    {t} = {e}")
            elif not lines:
                self.emit("    pass")
            first = False
            if not conds:
                exhaustive = True
                break
        if not exhaustive:
            self.emit("else:")
            self.emit("    _match_fail()")
        return t

    # ------------------------------------------------------------- builders
    def x_MkPair(self, n: ir.MkPair) -> str:
        return f"({self.ex(n.fst)}, {self.ex(n.snd)})"

    def x_MkSeq(self, n: ir.MkSeq) -> str:
        if not n.elems:
            return "()"
        return "(" + ", ".join(self.ex(e) for e in n.elems) + ",)"

    def x_MkSome(self, n: ir.MkSome) -> str:
        return f"_Some({self.ex(n.expr)})"

    def x_MkStruct(self, n: ir.MkStruct) -> str:
        parts = ", ".join(f"({f!r}, {self.ex(v)})" for f, v in n.fields)
        return f"_Struct({n.name!r}, ({parts},))" if n.fields else f"_Struct({n.name!r}, ())"

    def x_Field(self, n: ir.Field) -> str:
        e = self.ex(n.expr)
        if n.kind == "fst":
            return f"{e}[0]"
        if n.kind == "snd":
            return f"{e}[1]"
        return f"{e}.fields[{n.index}][1]"

    def x_Index(self, n: ir.Index) -> str:
        c = self.ex(n.coll)
        i = self.ex(n.index)
        if n.coll_kind == "map":
            if n.kind == "?":
                return f"_hgetq({c}, {i})"
            return f"_hgetb({c}, {i}, {self.c.default_const(n.ty)})"
        if n.kind == "?":
            return f"_getq({c}, {i})"
        return f"_getb({c}, {i}, {self.c.default_const(n.ty)})"

    def x_Default(self, n: ir.Default) -> str:
        return self.c.default_const(n.ty)

    def x_ToStr(self, n: ir.ToStr) -> str:
        v = self.ex(n.arg)
        t = n.arg.ty
        if isinstance(t, TVar) or _contains(t, lambda c: c.name in self.c.env.structs and not n.repr):
            raise Unsupported(f"toString of {_show(t)}")
        tc = self.c.const(t, ("type", t))
        return f"{'_torepr' if n.repr else '_tostr'}({v}, {tc})"

    def x_Coe(self, n: ir.Coe) -> str:
        if n.kind == "some":
            return f"_Some({self.ex(n.expr)})"
        return self.ex(n.expr)

    # ------------------------------------------------------------ operators
    def x_Prim(self, n: ir.Prim) -> str:
        op = n.op
        if op in ("and", "or", "implies"):
            return self.lazy(op, n.args[0], n.args[1])
        if op == "not":
            return f"(not {self.ex(n.args[0])})"
        if op == "iff":
            a, b = (self.ex(x) for x in n.args)
            return f"({a} == {b})"
        if op == "cons":
            h, tl = (self.ex(x) for x in n.args)
            return f"(({h},) + {tl})"
        if op == "mem":
            x, c = (self.ex(a) for a in n.args)
            t = n.opty
            if _name(t) in ("Std.HashSet", "Std.HashMap"):
                return f"({x} in {c})"
            elem = t.args[0] if isinstance(t, TCon) and t.args else None
            if elem is not None and _name(elem) in ("Nat", "Int", "Char", "String", "Bool", "UInt8"):
                return f"({x} in {c})"
            return f"_mem({x}, {c})"
        if op in ("eq", "ne", "beq", "bne"):
            a, b = (self.ex(x) for x in n.args)
            code = self.eq_code(a, b, n.opty, user=op in ("beq", "bne"))
            return code if op in ("eq", "beq") else f"(not {code})"
        if op in _PY_REL:
            a, b = (self.ex(x) for x in n.args)
            t = n.opty
            if _name(t) in _SCALAR_ORD:
                return f"({a} {_PY_REL[op]} {b})"
            if _name(t) is None:
                raise ElabError(f"cannot compare values of type {_show(t)}")
            if op == "lt":
                return f"_lt({a}, {b})"
            if op == "le":
                return f"_le({a}, {b})"
            if op == "gt":
                return f"_lt({b}, {a})"
            return f"_le({b}, {a})"
        return self.arith(n)

    def lazy(self, op: str, x: ir.Node, y: ir.Node) -> str:
        a = self.ex(x)
        lines, b = self.sub(lambda: self.ex(y))
        if not lines:
            if op == "and":
                return f"({a} and {b})"
            if op == "or":
                return f"({a} or {b})"
            return f"((not {a}) or {b})"
        t = self.tmp()
        if op == "implies":
            self.emit(f"{t} = not {a}")
            self.emit(f"if not {t}:")
        else:
            self.emit(f"{t} = {a}")
            self.emit(f"if {t}:" if op == "and" else f"if not {t}:")
        self.lines.extend(lines)
        self.emit(f"    {t} = {b}")
        return t

    def eq_code(self, a: str, b: str, t: Type, user: bool) -> str:
        name = _name(t)
        if name in _SCALAR_EQ:
            return f"({a} == {b})"
        env = self.c.env
        if user and name is not None and name in env.structs:
            g = env.user_beq(name)
            if g is not None:
                self.c.need(g)
                return f"{g.pyname}({a}, {b})"
        if _contains(t, lambda c: c.name in env.structs and env.structs[c.name].beq_key is not None):
            if user:
                raise Unsupported("== on a container of a structure with a user BEq instance")
        if isinstance(t, TFun):
            raise ElabError("equality of functions is not decidable")
        if isinstance(t, TVar) or _contains(t, lambda c: c.name == "Float"):
            return f"_beq({a}, {b})"
        return f"({a} == {b})"

    def arith(self, n: ir.Prim) -> str:
        op = n.op
        t = n.opty
        name = _name(t)
        args = [self.ex(x) for x in n.args]
        if op == "neg":
            if name in ("Int", "Float"):
                return f"(-{args[0]})"
            raise ElabError(f"negation on {_show(t)}")
        a, b = args
        rhs = n.args[1]
        lit = rhs.value if isinstance(rhs, ir.Num) and rhs.text is None and rhs.value > 0 else None
        if lit is not None and name in ("Nat", "Int") and op in ("div", "mod"):
            # a positive constant divisor: Python's floor division and remainder agree with Lean's
            return f"({a} // {lit})" if op == "div" else f"({a} % {lit})"
        if name == "Nat" and op == "sub" and _simple(a) and _simple(b):
            return f"({a} - {b} if {a} > {b} else 0)"
        if op == "append":
            if name in ("List", "Array", "String"):
                return f"_append({a}, {b})"
            raise ElabError(f"++ on {_show(t)}")
        tmpl = _ARITH.get(name or "", {}).get(op)
        if tmpl is not None:
            return tmpl.format(a=a, b=b)
        raise ElabError(f"operator {op} on {_show(t)}")

    # ---------------------------------------------------------- quantifiers
    def x_Quant(self, n: ir.Quant) -> str:
        d = find_domain(n)
        if d.kind == "members":
            assert d.coll is not None
            c = self.ex(d.coll)
            if _name(d.coll.ty) == "Std.HashMap":
                c = f"_qkeys({c})"
            dom = c
            ct = d.coll.ty
            src = ct.args[0] if isinstance(ct, TCon) and ct.args else None
            if _name(n.var_ty) == "Nat" and src is not None and _name(src) != "Nat":
                # a Nat variable compared through ``↑``: only non-negative candidates are Nats
                dom = f"[_v for _v in {dom} if _v >= 0]"
        elif d.kind == "points":
            assert d.points is not None
            dom = "(" + ", ".join(self.ex(p) for p in d.points) + ",)"
            if _name(n.var_ty) == "Nat" and any(_name(p.ty) != "Nat" for p in d.points):
                dom = f"[_v for _v in {dom} if _v >= 0]"
        elif d.kind == "range":
            assert d.hi is not None
            hi = self.ex(d.hi)
            if d.hi_incl:
                hi = f"{hi} + 1"
            if d.lo is None:
                lo = "0"
            else:
                lo = self.ex(d.lo)
                if d.lo_strict:
                    lo = f"{lo} + 1"
                if _name(n.var_ty) == "Nat":
                    lo = f"max(0, {lo})"
            dom = f"range({lo}, {hi})"
        elif d.kind == "enum":
            assert d.guard is not None and d.guard.coll is not None
            dom = f"_g{d.guard.gen}({self.ex(d.guard.coll)})"
        elif d.kind == "support":
            assert d.guard is not None
            colls = "".join(f"{self.ex(c)}, " for c in d.guard.colls)
            pts = "".join(f"{self.ex(p)}, " for p in d.guard.points)
            kc = self.c.const(n.var_ty, ("type", n.var_ty))
            dom = f"_gsupport(({colls}), ({pts}), {kc})"
        elif d.kind == "support_part":
            # the part C decides outside the support only if C(fresh) is true (∀) / false (∃)
            assert d.guard is not None and d.guard.coll is not None
            colls = "".join(f"{self.ex(c)}, " for c in d.guard.colls)
            pts = "".join(f"{self.ex(p)}, " for p in d.guard.points)
            kc = self.c.const(n.var_ty, ("type", n.var_ty))
            sp = self.tmp("sp")
            self.emit(f"{sp}, {n.var} = _gsupport_part(({colls}), ({pts}), {kc})")
            self.emit(f"if {n.var} is not _GNOFRESH:")
            self.ind += 1
            cv = self.ex(d.guard.coll)
            want = "not " if n.kind == "∀" else ""
            msg = f"{n.kind} over {_name(n.var_ty) or n.var_ty}: the part outside the support of its conclusion is not finite"
            self.emit(f"if {want}{cv}:")
            self.emit(f"    _gundecided({msg!r})")
            self.ind -= 1
            dom = sp
        else:
            dom = unbounded_domain_code(self, n)
            if dom is None:
                kc = self.c.const(n.var_ty, ("type", n.var_ty))
                dom = f"_unbounded({n.kind!r}, {kc}, {d.reason!r})"
        t = self.tmp("q")
        forall = n.kind == "∀"
        self.emit(f"{t} = {forall!r}")
        self.emit(f"for {n.var} in {dom}:")
        self.ind += 1
        self.tick()
        # a binder-bounded ``∃ i < n`` has its relation as part of the domain only
        be = self.ex(n.body)
        if forall:
            self.emit(f"if not {be}:")
            self.emit(f"    {t} = False")
        else:
            self.emit(f"if {be}:")
            self.emit(f"    {t} = True")
        self.emit("    break")
        self.ind -= 1
        return t

    # ------------------------------------------------------------- do blocks
    def x_DoBlock(self, n: ir.DoBlock) -> str:
        name = self.tmp("do")
        captured = sorted(free_vars(n) & self.rebound)
        sub = FnGen(self.c, self.ind + 1)
        sub.prepare(n.stmts)
        sub.do_stmts(n.stmts)
        sub.emit("return ()")
        if captured:
            cs = ", ".join(captured)
            self.emit(f"def {name}({cs}):")
            self.lines.extend(sub.lines)
            return f"{name}({cs})"
        self.emit(f"def {name}():")
        self.lines.extend(sub.lines)
        return f"{name}()"

    def block(self, ss: list[Any], probe: tuple[str, str, Any] | None = None) -> None:
        before = len(self.lines)
        self.ind += 1
        if probe is not None:
            self.probe(*probe)
        self.do_stmts(ss)
        if len(self.lines) == before:
            self.emit("pass")
        self.ind -= 1

    def do_stmts(self, ss: list[Any]) -> None:
        for s in ss:
            if isinstance(s, ir.DLet):
                self.emit(f"{s.name} = {self.ex(s.value)}")
            elif isinstance(s, ir.DLetPat):
                v = self.simple(self.ex(s.value))
                conds: list[str] = []
                binds: list[str] = []
                self.pat(s.pat, v, conds, binds)
                if conds:
                    self.emit(f"if not ({' and '.join(conds)}):")
                    self.emit("    _match_fail()")
                for b in binds:
                    self.emit(b)
            elif isinstance(s, ir.DFor):
                self.gen_for(s)
            elif isinstance(s, ir.DWhile):
                self.emit("while True:")
                self.ind += 1
                self.tick()
                if s.cond is not None:
                    c = self.ex(s.cond)
                    self.emit(f"if not {c}:")
                    self.emit("    break")
                self.ind -= 1
                info = self.cov_info(s)
                self.block(s.body, ("loop", "while body", info[1] if info else None))
            elif isinstance(s, ir.DIf):
                self.do_if(s)
            elif isinstance(s, ir.DMatch):
                self.match(s.discrs, s.arms, stmts=True)
            elif isinstance(s, ir.DReturn):
                self.emit(f"return {self.ex(s.value)}")
            elif isinstance(s, ir.DBreak):
                self.emit("break")
            elif isinstance(s, ir.DContinue):
                self.emit("continue")
            elif isinstance(s, ir.DEval):
                self.emit(self.ex(s.value))
            else:  # pragma: no cover
                raise Unsupported(f"do statement {type(s).__name__}")

    def do_if(self, s: ir.DIf) -> None:
        """A statement-level ``if`` (``else if`` chains become ``elif``)."""
        c = self.ex(s.cond)
        self.emit(f"if {c}:")
        self.block(s.then, self.do_branch(s, 1, "then"))
        owner = s
        els = s.els
        while len(els) == 1 and isinstance(els[0], ir.DIf):
            nxt = els[0]
            cl, ce = self.sub(lambda nxt=nxt: self.ex(nxt.cond))
            if cl:
                break
            self.emit(f"elif {ce}:")
            self.block(nxt.then, self.do_branch(nxt, 1, "then"))
            owner = nxt
            els = nxt.els
        chained = len(els) == 1 and isinstance(els[0], ir.DIf)
        if els:
            self.emit("else:")
            self.block(els, None if chained else self.do_branch(owner, 2, "else"))
        elif self.c.cov is not None and self.c.cov_section is not None:
            # the implicit empty ``else`` is a branch too (only emitted when instrumenting)
            info = self.cov_info(owner)
            k = self.c.cov_probe("branch", "else (implicit)", info[0] if info else None)
            if k is not None:
                self.emit("else:")
                self.emit(f"    _H[{k}] = 1")

    def do_branch(self, s: ir.DIf, idx: int, label: str) -> tuple[str, str, Any] | None:
        if self.c.cov is None:
            return None
        info = self.cov_info(s)
        if info is None:
            return ("branch", label, None)
        if idx == 2 and info[2] is None:  # no ``else`` in the source: the implicit branch
            return ("branch", "else (implicit)", info[0])
        return ("branch", label, info[idx])

    def gen_for(self, s: ir.DFor) -> None:
        if s.range is not None:
            lo, hi, step = s.range
            los, his = self.ex(lo), self.ex(hi)
            if step is not None:
                st = self.simple(self.ex(step))
                self.emit(f"if {st} == 0:")
                self.emit("    _match_fail()")
                it = f"range({los}, {his}, {st})"
            else:
                it = f"range({los}, {his})"
        else:
            assert s.iterable is not None
            it = self.ex(s.iterable)
            if _name(s.iterable.ty) == "Std.HashMap":
                it = f"{it}.items()"
        if isinstance(s.pat, ir.PVar):
            self.emit(f"for {s.pat.name} in {it}:")
            self.ind += 1
            self.tick()
        else:
            v = self.tmp("it")
            self.emit(f"for {v} in {it}:")
            self.ind += 1
            self.tick()
            conds: list[str] = []
            binds: list[str] = []
            self.pat(s.pat, v, conds, binds)
            if conds:
                self.emit(f"if not ({' and '.join(conds)}):")
                self.emit("    _match_fail()")
            for b in binds:
                self.emit(b)
        self.ind -= 1
        info = self.cov_info(s)
        self.block(s.body, ("loop", "for body", info[1] if info else None))


class _Miss:
    __slots__ = ()


_MISS = _Miss()
_MEMO_CAP = 200_000


def gen_function(
    c: Compiler,
    name: str,
    params: list[str],
    body: ir.Node,
    indent: int,
    self_ref: tuple[str, str],
    charge: bool,
    memo: str | None,
    extra_rebound: set[str],
    entry: tuple[str, Any] | None = None,
) -> list[str]:
    """Source lines of ``def name(params)`` at ``indent``, with self tail calls turned into a loop
    and, for branching recursion, a memo table (Lean functions are pure).

    ``entry`` (Lean name, position) names the definition for coverage probes."""
    instrument = entry is not None and c.cov is not None and c.cov_section is not None
    if not instrument:
        return _gen_function(c, name, params, body, indent, self_ref, charge, memo, extra_rebound, None)
    assert entry is not None
    c.cov_defs.append(entry[0])
    try:
        return _gen_function(c, name, params, body, indent, self_ref, charge, memo, extra_rebound, entry[1])
    finally:
        c.cov_defs.pop()


def _gen_function(
    c: Compiler,
    name: str,
    params: list[str],
    body: ir.Node,
    indent: int,
    self_ref: tuple[str, str],
    charge: bool,
    memo: str | None,
    extra_rebound: set[str],
    entry_pos: Any,
) -> list[str]:
    impl = f"{name}__impl" if memo else name
    fg = FnGen(c, indent + 1)
    if c.cov is not None and c.cov_defs:
        fg.probe("def", "entry", entry_pos)
    tail = has_self_tail_call(body, self_ref, len(params))
    if tail:
        fg.rebound |= set(params)
        counts: dict[str, int] = {}
        rebinds(body, True, fg.rebound, counts)
        fg.rebound |= extra_rebound
        fg.emit("while True:")
        fg.ind += 1
        if charge:
            fg.tick()
        fg.tail = (self_ref, params)
        fg.gen_tail(body)
        fg.ind -= 1
    else:
        fg.prepare(body)
        fg.rebound |= extra_rebound
        if charge:
            fg.tick()
        e = fg.ex(body)
        fg.emit(f"return {e}")
    pad = "    " * indent
    out = [f"{pad}def {impl}({', '.join(params)}):", *fg.lines]
    if memo:
        key = (
            params[0]
            if len(params) == 1
            else "(" + ", ".join(params) + ("," if len(params) == 1 else "") + ")"
        )
        if not params:
            key = "()"
        out += [
            f"{pad}def {name}({', '.join(params)}):",
            f"{pad}    _k = {key}",
            f"{pad}    _r = {memo}.get(_k, _MISS)",
            f"{pad}    if _r is _MISS:",
            f"{pad}        _r = {impl}({', '.join(params)})",
            f"{pad}        if len({memo}) < {_MEMO_CAP}:",
            f"{pad}            {memo}[_k] = _r",
            f"{pad}    return _r",
        ]
    return out
