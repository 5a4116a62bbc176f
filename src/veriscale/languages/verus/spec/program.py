"""``SpecProgram``: a ``spec.rs`` (or any Verus file with a contract) ready to evaluate.

``SpecProgram.from_source(text)`` reads the items (spec functions, consts,
structs, enums, ``use`` aliases such as ``max as spec_max``) and the target
function — the last exec fn with ``ensures``/``returns`` unless ``target``
names another — and parses its ``requires`` and ``ensures`` clauses
(``returns e`` means ``result == e``).

``requires(inputs)`` and ``ensures(inputs, output)`` evaluate the clauses on
runtime values (``values.runtime`` / ``rust_codec`` representation) keyed by
the target's parameter names and return a ``Verdict``: FALSE as soon as one
clause is false, TRUE when all are true, otherwise UNKNOWN with the first
reason (unsupported construct, unbounded quantifier, unspecified value,
fuel/time/depth limit). Nothing here raises on bad specifications: parse
errors of a clause make that clause UNKNOWN.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from veriscale.runtime import limits
from veriscale.runtime.engine import Verdict
from veriscale.values.runtime import Some
from veriscale.values.rust_types import parse_rust_type, value_type
from veriscale.values.types import TCon, Type, TypeParseError

from ....runtime.errors import LimitExceeded
from ..items import FnItem, ScanError, SourceItems, scan_items
from ..lexer import LexError
from . import linrec, z3_decide
from . import runtime as rt
from .ast import Chain, Expr, Path
from .evaluate import Compiler, Context, SpecFn
from .parser import ExprParser, SpecParseError
from .tailcalls import tail_self_calls
from .twostate import InPlaceMissing, bind_inplace

__all__ = ["Clause", "SpecLoadError", "SpecProgram", "to_spec_value"]


class SpecLoadError(ValueError):
    """The file has no usable target function (or cannot be tokenized)."""


@dataclass
class Clause:
    text: str
    expr: Expr | None
    error: str | None = None  # parse error


def to_spec_value(t: Type, v: Any) -> Any:
    """A codec value of Rust type ``t`` in the evaluator's representation (``String`` → ``RString``)."""
    t = value_type(t)
    if not isinstance(t, TCon):
        return v
    if t.name == "String":
        return rt.RString(v)
    if t.name in ("Vec", "Seq") and t.args:
        et = t.args[0]
        if isinstance(et, TCon) and (et.name in ("String", "Vec", "Seq", "Tuple", "Option") or et.args):
            return tuple(to_spec_value(et, x) for x in v)
        return v
    if t.name == "Tuple":
        return tuple(to_spec_value(a, x) for a, x in zip(t.args, v))
    if t.name == "Option" and isinstance(v, Some):
        return Some(to_spec_value(t.args[0], v.val))
    return v


def _parse_expr(items: SourceItems, a: int, b: int) -> Expr:
    return ExprParser(items.toks, a, b).parse_all()


def _parse_body(items: SourceItems, f: FnItem) -> Expr | None:
    if f.body is None:
        return None
    a, b = f.body
    if b == a + 1:
        return None
    p = ExprParser(items.toks, a, b + 1)
    e = p.block()
    if not p.at_end():
        raise SpecParseError("unexpected tokens after the function body", items.toks[p.pos].line)
    return e


_ALIAS = re.compile(r"\b(\w+)\s+as\s+(\w+)")


class SpecProgram:
    def __init__(self) -> None:
        self.ctx = Context()
        self.compiler = Compiler(self.ctx)
        self.target: FnItem | None = None
        self.params: list[tuple[str, Type]] = []
        self.receiver: str | None = None
        self.owner: str | None = None
        self.ret_name: str = "result"
        self.ret_type: Type = TCon("Unit")
        self.requires: list[Clause] = []
        self.ensures: list[Clause] = []
        self.returns: Clause | None = None
        self.fn_errors: dict[str, str] = {}  # spec fn -> parse error
        self._compiled: dict[int, Any] = {}

    # ---- loading
    @classmethod
    def from_source(cls, text: str, target: str | None = None) -> SpecProgram:
        try:
            items = scan_items(text)
        except (ScanError, LexError) as exc:
            raise SpecLoadError(str(exc)) from None
        prog = cls()
        try:
            prog._load(items, target)
        except SpecLoadError:
            raise
        except (IndexError, ValueError) as exc:  # a corrupted source the scanner half-understood
            raise SpecLoadError(f"malformed specification: {type(exc).__name__}: {exc}") from None
        return prog

    def _load(self, items: SourceItems, target: str | None) -> None:
        ctx = self.ctx
        for s in items.structs:
            if s.kind == "enum":
                ctx.enums[s.name] = [f for f, _ in s.fields]
            else:
                ctx.structs[s.name] = [f for f, _ in s.fields]
        for a, b in items.uses:
            for orig, alias in _ALIAS.findall(items.text(a, b)):
                ctx.aliases[alias] = orig
        for c in items.consts:
            try:
                ctx.consts[c.name] = _parse_expr(items, *c.value)
            except SpecParseError as exc:
                self.fn_errors[c.name] = str(exc)
        for f in items.fns:
            if f.mode != "spec":
                continue
            params: list[tuple[str, Type]] = []
            try:
                if f.receiver:
                    params.append(("self", TCon(f.owner or "Self")))
                params.extend((p.name, parse_rust_type(p.type_text)) for p in f.params)
                ret = parse_rust_type(f.ret_type or "()")
            except (SpecParseError, TypeParseError) as exc:
                self.fn_errors[f.name] = str(exc)
                ctx.fns[f.name] = SpecFn(f.name, f.owner, [], TCon("Unit"), None, error=str(exc))
                continue
            try:
                body = _parse_body(items, f)
            except (SpecParseError, TypeParseError) as exc:
                # the signature is known: a call reports the body's parse error, not a wrong arity
                self.fn_errors[f.name] = str(exc)
                ctx.fns[f.name] = SpecFn(f.name, f.owner, params, ret, None, error=str(exc))
                continue
            ctx.fns[f.name] = SpecFn(f.name, f.owner, params, ret, body, line=items.toks[f.fn_index].line)
        cands = [
            f for f in items.fns
            if f.mode == "exec" and (f.clause("ensures") or f.clause("returns")) and (target is None or f.name == target)
        ]  # fmt: skip
        if not cands and target is not None:
            cands = [f for f in items.fns if f.name == target and f.mode == "exec"]
        if not cands:
            raise SpecLoadError("no exec fn with ensures/returns")
        t = cands[-1]
        self.target = t
        self.owner = t.owner
        self.receiver = t.receiver
        try:
            self.params = [(p.name, parse_rust_type(p.type_text)) for p in t.params]
            self.ret_type = parse_rust_type(t.ret_type or "()")
        except TypeParseError as exc:
            raise SpecLoadError(f"target signature: {exc}") from None
        if t.ret_name:
            self.ret_name = t.ret_name
        for kw, out in (("requires", self.requires), ("ensures", self.ensures)):
            cl = t.clause(kw)
            if cl is None:
                continue
            for a, b in cl.exprs:
                text = items.text(a, b)
                try:
                    out.append(Clause(text, _parse_expr(items, a, b)))
                except SpecParseError as exc:
                    out.append(Clause(text, None, str(exc)))
        rc = t.clause("returns")
        if rc is not None and rc.exprs:
            a, b = rc.exprs[0]
            text = items.text(a, b)
            try:
                e = _parse_expr(items, a, b)
                self.returns = Clause(text, e)
                line = items.toks[a].line
                self.ensures.append(
                    Clause(
                        f"{self.ret_name} == ({text})",
                        Chain(("==",), (Path((self.ret_name,), line), e), line),
                    )
                )
            except SpecParseError as exc:
                self.ensures.append(Clause(text, None, str(exc)))

    # ---- evaluation
    def _scope(self, with_ret: bool) -> frozenset[str]:
        names = {n for n, _ in self.params}
        if self.receiver:
            names.add("self")
        if with_ret:
            names.add(self.ret_name)
        return frozenset(names)

    def _clause_fn(self, c: Clause, with_ret: bool) -> Any:
        key = (id(c), with_ret)
        if key not in self._compiled:
            assert c.expr is not None
            self._compiled[key] = self.compiler.compile(c.expr, self._scope(with_ret))
        return self._compiled[key]

    def env(self, inputs: Mapping[str, Any], output: Any = None, with_ret: bool = False,
            self_value: Any = None) -> dict[str, Any]:  # fmt: skip
        env: dict[str, Any] = {}
        for name, t in self.params:
            if name not in inputs:
                raise KeyError(name)
            env[name] = to_spec_value(t, inputs[name])
        if self.receiver:
            env["self"] = self_value
        if with_ret and self.mutables():
            bind_inplace(env, self.params, self.mutables(), self.ret_name, self.ret_type, output)
        elif with_ret:
            env[self.ret_name] = to_spec_value(self.ret_type, output)
        return env

    def tail_recursive(self) -> bool:
        """Does some spec fn call itself in tail position? The evaluator runs such recursion as a loop
        (``tailcalls``), so a recursion-depth limit elsewhere (the compiled checker) is worth a retry here."""
        return any(
            fn.body is not None and tail_self_calls(fn.body, lambda c, fn=fn: self.compiler._fn_of(c) is fn)
            for fn in self.ctx.fns.values()
        )

    def linear_recursive(self) -> bool:
        """Does some spec fn have the linear self-recursion that ``linrec`` sums in closed form? A
        recursion-depth limit elsewhere (the compiled checker) is then worth a retry here too."""
        return any(
            fn.body is not None
            and linrec.plan(fn, lambda c, fn=fn: self.compiler._fn_of(c) is fn) is not None
            for fn in self.ctx.fns.values()
        )

    def mutables(self) -> list[str]:
        """Names of the target's mutable arguments (``self`` for a ``&mut self`` receiver)."""
        out = [n for n, t in self.params if isinstance(t, TCon) and t.name == "RefMut"]
        if self.receiver is not None and self.receiver.replace(" ", "") == "&mutself":
            out.append("self")
        return out

    def requires_verdict(
        self, inputs: Mapping[str, Any], *, self_value: Any = None, lim: limits.Limits | None = None
    ) -> Verdict:
        return self._verdict(self.requires, inputs, None, False, self_value, lim)

    def ensures_verdict(
        self,
        inputs: Mapping[str, Any],
        output: Any,
        *,
        self_value: Any = None,
        lim: limits.Limits | None = None,
    ) -> Verdict:
        return self._verdict(self.ensures, inputs, output, True, self_value, lim)

    def _verdict(
        self,
        clauses: Sequence[Clause],
        inputs: Mapping[str, Any],
        output: Any,
        with_ret: bool,
        self_value: Any,
        lim: limits.Limits | None,
    ) -> Verdict:
        if self.receiver and self_value is None:
            return Verdict.unknown("the method's object (self) is not available", "unsupported")
        try:
            env = self.env(inputs, output, with_ret, self_value)
        except KeyError as exc:
            return Verdict.unknown(f"missing input {exc}", "error")
        except InPlaceMissing as exc:
            return Verdict.unknown(str(exc), "unsupported")
        first_unknown: Verdict | None = None
        budget = limits.Budget(lim or limits.Limits(seconds=10.0))
        self.compiler.reset()
        unknown: list[tuple[Clause, Verdict]] = []
        for c in clauses:
            v = self._eval_clause(c, env, with_ret, budget)
            if v.is_false:
                return Verdict(v.truth, f"clause `{_short(c.text)}` is false")
            if v.is_unknown:
                unknown.append((c, v))
        for c, v in unknown:  # no clause is FALSE: the z3 back end may decide the undecided ones
            # (not after the clock backstop ran out: the caller's time limit stands)
            if c.expr is not None and v.category != "parse" and time.monotonic() < budget.deadline:
                v = z3_decide.retry(self.compiler, c.expr, env, v, budget.limits.max_depth)
            if v.is_false:
                return Verdict(v.truth, f"clause `{_short(c.text)}` is false")
            if v.is_unknown and first_unknown is None:
                first_unknown = Verdict.unknown(f"clause `{_short(c.text)}`: {v.reason}", v.category)
        return first_unknown or Verdict.of(True)

    def _eval_clause(self, c: Clause, env: dict[str, Any], with_ret: bool, budget: limits.Budget) -> Verdict:
        if c.expr is None:
            return Verdict.unknown(f"parse error: {c.error}", "parse")
        try:
            f = self._clause_fn(c, with_ret)
        except rt.SpecError as exc:
            return Verdict.unknown(str(exc), exc.category)
        except RecursionError:
            return Verdict.unknown("expression nesting too deep", "unsupported")
        return _run_guarded(lambda: f(env), budget)


def _short(text: str, n: int = 80) -> str:
    t = " ".join(text.split())
    return t if len(t) <= n else t[: n - 3] + "..."


def _classify(exc: BaseException) -> Verdict:
    if isinstance(exc, rt.SpecError):
        return Verdict.unknown(str(exc), exc.category)
    if isinstance(exc, LimitExceeded):
        return Verdict.unknown(str(exc), "timeout")
    if isinstance(exc, MemoryError):
        return Verdict.unknown("out of memory", "timeout")
    if isinstance(exc, RecursionError):
        return Verdict.unknown("recursion too deep", "timeout")
    return Verdict.unknown(f"internal error: {type(exc).__name__}: {exc}", "error")


def _to_verdict(v: Any) -> Verdict:
    if isinstance(v, bool):
        return Verdict.of(v)
    if isinstance(v, rt.Fresh):
        return Verdict.unknown("a clause evaluated to an opaque value", "error")
    return Verdict.unknown(f"clause is not boolean ({type(v).__name__})", "error")


def _run_guarded(fn: Any, budget: limits.Budget) -> Verdict:
    try:
        with limits.using(budget):
            return _to_verdict(fn())
    except RecursionError:
        pass
    except Exception as exc:
        return _classify(exc)
    return _run_deep(fn, budget)


def _run_deep(fn: Any, budget: limits.Budget) -> Verdict:
    """Re-run an evaluation that overflowed Python's stack in a thread with a big stack."""

    def target() -> Verdict:
        with limits.using(budget):
            return _to_verdict(fn())

    ok, got = limits.run_deep(target, budget.limits.max_depth * 30 + 1000)
    return got if ok else _classify(got)
