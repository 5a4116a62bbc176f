"""The constraint structure of a Verus ``requires`` clause, read for input generation.

A generated input is a set of integer **cells**: ``("v", x)`` a scalar parameter,
``("len", p)`` the length of a sequence parameter, ``("e", p, k)`` its element ``k``,
and for a sequence of sequences ``("len", p, r)`` (row ``r``'s length) and
``("e", p, r, c)``. Characters and booleans are cells too (code point, 0/1).

``RequiresModel`` reads the parsed ``requires`` clauses of a ``SpecProgram``:

* calls of spec functions with a body are **inlined** (arguments substituted for the
  parameters, up to ``INLINE_DEPTH`` levels), so ``valid_inputs(a@, b@)`` or
  ``forall|i| … ==> valid_latin(s[i])`` show their conjuncts; ``@``, ``as`` casts to
  integer types and ``#[trigger]`` are looked through;
* the result is flattened at top-level ``&&``: plain conjuncts, ``forall`` conjuncts
  (binders, the guards of their ``==>`` chain, the consequent) and ``exists`` conjuncts.

``allowed(expr, cell, env)`` is the set of values of ``cell`` that ``expr`` leaves
possible, given the cells already fixed in ``env`` (``None``: no information). It is
derived from comparisons ``±cell + c op e`` where ``e`` evaluates (to a point or an
interval of possible values), from ``&&`` (intersection), ``||`` (union, only when every
disjunct constrains the cell), ``a ==> b`` when ``a`` is decided true, and ``!=`` (a
point excluded). Only **necessary** conditions are derived: a value outside the set
makes ``expr`` false; a value inside may still fail it. That is what makes the box of
``RequiresModel.static_ranges`` a superset of the valid scalar domain (the small-domain
enumeration relies on it), and why the generator's inputs are still checked by the
ground-truth ``requires``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ...values.rust_types import INT_RANGES
from ...values.types import TCon, Type
from .spec.ast import Binary, Call, Cast, Chain, Expr, Index, Lit, MethodCall, Path, Quant, Unary, View

__all__ = ["NEG", "POS", "Env", "ForallC", "RequiresModel", "ValueSet", "kind_of", "names_in"]

NEG, POS = -(10**40), 10**40  # "unbounded" ends of a value set
INLINE_DEPTH = 4
_INT_CONSTS = {f"{t}::{b}": v for t, (lo, hi) in INT_RANGES.items() for b, v in (("MIN", lo), ("MAX", hi))}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}

Cell = tuple[Any, ...]
Ival = tuple[int, int]


def _unref(t: Type) -> Type:
    while isinstance(t, TCon) and t.name in ("Ref", "MutRef", "Box") and t.args:
        t = t.args[0]
    return t


def _scalar_kind(t: Type) -> tuple[str, int, int] | None:
    """("int" | "char" | "bool", lo, hi) of a scalar type, else None."""
    t = _unref(t)
    if not isinstance(t, TCon):
        return None
    if t.name in INT_RANGES:
        lo, hi = INT_RANGES[t.name]
        return ("int", lo, hi)
    if t.name == "char":
        return ("char", 0, 0x10FFFF)
    if t.name == "bool":
        return ("bool", 0, 1)
    return None


def kind_of(t: Type) -> tuple[Any, ...] | None:
    """How a parameter type is generated: ``("scalar", k)``, ``("seq", k, as_text)``,
    ``("seq2", k)`` with ``k`` a scalar kind; None for types this model does not cover."""
    t = _unref(t)
    if not isinstance(t, TCon):
        return None
    sk = _scalar_kind(t)
    if sk is not None:
        return ("scalar", sk)
    if t.name in ("String", "str"):
        return ("seq", ("char", 0, 0x10FFFF), True)
    if t.name in ("Vec", "Seq", "Array", "Slice") and t.args:
        inner = _unref(t.args[0])
        ek = _scalar_kind(inner)
        if ek is not None:
            return ("seq", ek, ek[0] == "char")
        if isinstance(inner, TCon) and inner.name in ("Vec", "Seq", "Array", "Slice") and inner.args:
            ek2 = _scalar_kind(inner.args[0])
            if ek2 is not None and ek2[0] != "char":
                return ("seq2", ek2)
    return None


@dataclass
class ValueSet:
    """Possible values: a union of closed intervals minus ``excluded`` points; ``ordered`` records a
    bound that came from another element (``lo``: a lower one, ``hi``: an upper one)."""

    ivals: list[Ival] = field(default_factory=lambda: [(NEG, POS)])
    excluded: set[int] = field(default_factory=set)
    ordered: set[str] = field(default_factory=set)

    def meet(self, o: ValueSet) -> ValueSet:
        out: list[Ival] = []
        for a, b in self.ivals:
            for c, d in o.ivals:
                lo, hi = max(a, c), min(b, d)
                if lo <= hi:
                    out.append((lo, hi))
        return ValueSet(sorted(out), self.excluded | o.excluded, self.ordered | o.ordered)

    def join(self, o: ValueSet) -> ValueSet:
        merged: list[Ival] = []
        for lo, hi in sorted(self.ivals + o.ivals):
            if merged and lo <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
            else:
                merged.append((lo, hi))
        return ValueSet(merged, self.excluded & o.excluded, self.ordered & o.ordered)

    @property
    def empty(self) -> bool:
        return not self.ivals

    def hull(self) -> Ival | None:
        return (self.ivals[0][0], self.ivals[-1][1]) if self.ivals else None


@dataclass
class ForallC:
    binders: tuple[str, ...]
    guards: tuple[Expr, ...]
    body: Expr
    refs: dict[str, list[tuple[Expr, ...]]]  # param -> index-expression chains of references to it
    # the body reads one parameter through one index chain, binders only inside that chain's indices:
    # what it allows an element is the same at every instance (computed once)
    uniform: bool = False


@dataclass
class Env:
    """What the evaluator knows: fixed cells, static ranges of unfixed scalars/lengths, binder values."""

    vals: dict[Cell, int]
    static: dict[Cell, Ival]
    binders: dict[str, int] = field(default_factory=dict)


def _strip(e: Expr) -> Expr:
    while True:
        if isinstance(e, View):
            e = e.obj
        elif (
            isinstance(e, Cast)
            and isinstance(e.type, TCon)
            and (e.type.name in INT_RANGES or e.type.name in ("int", "nat"))
        ):
            e = e.expr
        else:
            return e


def _subst(e: Any, m: dict[str, Expr]) -> Any:
    """``e`` with the local names of ``m`` replaced (binders of an inner quantifier shadow them)."""
    if isinstance(e, Path):
        return m.get(e.segments[0], e) if e.is_local else e
    if isinstance(e, Quant):
        inner = {k: v for k, v in m.items() if k not in {b for b, _ in e.binders}}
        return dataclasses.replace(e, body=_subst(e.body, inner))
    if dataclasses.is_dataclass(e) and not isinstance(e, type):
        changes = {}
        for f in dataclasses.fields(e):
            v = getattr(e, f.name)
            if isinstance(v, tuple):
                nv = tuple(_subst(x, m) for x in v)
            elif dataclasses.is_dataclass(v):
                nv = _subst(v, m)
            else:
                continue
            if nv is not v:
                changes[f.name] = nv
        return dataclasses.replace(e, **changes) if changes else e
    return e


class RequiresModel:
    """The conjuncts of a target's ``requires`` over its parameters (see the module docstring)."""

    def __init__(self, spec: Any, kinds: dict[str, tuple[Any, ...]]) -> None:
        self.spec = spec
        self.kinds = kinds
        self.plain: list[Expr] = []
        self.plain_indexed: list[frozenset[str]] = []  # per plain conjunct: the sequences it indexes
        self.foralls: list[ForallC] = []
        self.exists: list[Quant] = []
        for c in spec.requires:
            if c.expr is None:
                continue
            for conj in self._flatten(self._inline(c.expr, 0)):
                self._add(conj)

    # ---- reading
    def _inline(self, e: Any, depth: int) -> Any:
        if isinstance(e, Call) and isinstance(e.func, Path) and depth < INLINE_DEPTH:
            fn = self.spec.ctx.fns.get(e.func.name)
            if (
                fn is not None
                and fn.body is not None
                and len(fn.params) == len(e.args)
                and fn.ret == TCon("bool")
            ):
                body = _subst(fn.body, {p: self._inline(a, depth) for (p, _), a in zip(fn.params, e.args)})
                return self._inline(body, depth + 1)
        if dataclasses.is_dataclass(e) and not isinstance(e, type):
            changes = {}
            for f in dataclasses.fields(e):
                v = getattr(e, f.name)
                if isinstance(v, tuple):
                    nv = tuple(self._inline(x, depth) for x in v)
                    if any(a is not b for a, b in zip(nv, v)):
                        changes[f.name] = nv
                elif dataclasses.is_dataclass(v):
                    nv = self._inline(v, depth)
                    if nv is not v:
                        changes[f.name] = nv
            return dataclasses.replace(e, **changes) if changes else e
        return e

    def _flatten(self, e: Expr) -> Iterator[Expr]:
        if isinstance(e, Binary) and e.op == "&&":
            yield from self._flatten(e.lhs)
            yield from self._flatten(e.rhs)
        elif isinstance(e, Quant) and e.kind == "forall":
            # forall distributes over a conjunction in its consequent
            guards, body = _split_implications(e.body)
            parts = list(self._flatten(body))
            if len(parts) > 1:
                for p in parts:
                    yield Quant("forall", e.binders, _implies(guards, p), e.line)
            else:
                yield e
        else:
            yield e

    def _add(self, e: Expr) -> None:
        if isinstance(e, Quant) and e.kind == "forall":
            guards, body = _split_implications(e.body)
            refs: dict[str, list[tuple[Expr, ...]]] = {}
            for g in (*guards, body):
                for p, chain in _index_refs(g, self.kinds):
                    refs.setdefault(p, []).append(chain)
            binders = tuple(b for b, _ in e.binders)
            body_refs = list(_index_refs(body, self.kinds))
            uniform = (
                len({p for p, _ in body_refs}) == 1
                and len({repr(ch) for _, ch in body_refs}) == 1
                and _names(body) <= {body_refs[0][0], *binders}
                and not _binder_outside_index(body, set(binders))
                and _only_indexed(body, body_refs[0][0])
            )
            self.foralls.append(ForallC(binders, tuple(guards), body, refs, uniform))
        elif isinstance(e, Quant) and e.kind == "exists":
            self.exists.append(e)
        else:
            self.plain.append(e)
            self.plain_indexed.append(frozenset(p for p, _ in _index_refs(e, self.kinds)))

    def exact_casts(self, e: Any, ranges: dict[str, Ival]) -> bool:
        """Is every cast in ``e`` the identity on the values it can see (``as int``, or a scalar parameter
        whose range — ``ranges``, else its Rust type's — fits the target type)? The reader looks through
        casts, which is exact only then."""
        if isinstance(e, Cast) and isinstance(e.type, TCon) and e.type.name != "int":
            inner = _strip(e.expr)
            k = self.kinds.get(inner.name) if isinstance(inner, Path) and inner.is_local else None
            tgt = INT_RANGES.get(e.type.name) or ((0, POS) if e.type.name == "nat" else None)
            if k is None or k[0] != "scalar" or tgt is None:
                return False
            assert isinstance(inner, Path)
            lo, hi = ranges.get(inner.name, (k[1][1], k[1][2]))
            if not (tgt[0] <= lo and hi <= tgt[1]):
                return False
        for f in dataclasses.fields(e) if dataclasses.is_dataclass(e) else ():
            v = getattr(e, f.name)
            for x in v if isinstance(v, tuple) else (v,):
                if (
                    dataclasses.is_dataclass(x)
                    and not isinstance(x, type)
                    and not self.exact_casts(x, ranges)
                ):
                    return False
        return True

    # ---- evaluation
    def cell_of(self, e: Expr, env: Env) -> Cell | None:
        """The cell ``e`` names (indices evaluated), or None."""
        e = _strip(e)
        if isinstance(e, Path) and e.is_local and e.name in self.kinds and self.kinds[e.name][0] == "scalar":
            if e.name not in env.binders:
                return ("v", e.name)
            return None
        if isinstance(e, MethodCall) and e.name == "len" and not e.args:
            r = _strip(e.recv)
            if isinstance(r, Path) and r.is_local and self.kinds.get(r.name, ("",))[0] in ("seq", "seq2"):
                return ("len", r.name)
            if isinstance(r, Index):
                o = _strip(r.obj)
                if isinstance(o, Path) and self.kinds.get(o.name, ("",))[0] == "seq2":
                    k = self.point(r.index, env)
                    return None if k is None else ("len", o.name, k)
            return None
        if isinstance(e, Index):
            o = _strip(e.obj)
            if isinstance(o, Path) and self.kinds.get(o.name, ("",))[0] == "seq":
                k = self.point(e.index, env)
                return None if k is None else ("e", o.name, k)
            if isinstance(o, Index):
                oo = _strip(o.obj)
                if isinstance(oo, Path) and self.kinds.get(oo.name, ("",))[0] == "seq2":
                    r, c = self.point(o.index, env), self.point(e.index, env)
                    return None if r is None or c is None else ("e", oo.name, r, c)
        return None

    def point(self, e: Expr, env: Env) -> int | None:
        iv = self.ival(e, env)
        return iv[0] if iv is not None and iv[0] == iv[1] else None

    def ival(self, e: Expr, env: Env) -> Ival | None:
        """The values ``e`` may have (a point when everything it reads is fixed), or None."""
        e = _strip(e)
        if isinstance(e, Lit):
            if e.kind == "int":
                return (e.value, e.value)
            if e.kind == "char" and isinstance(e.value, str) and len(e.value) == 1:
                return (ord(e.value), ord(e.value))
            if e.kind == "bool":
                return (int(e.value), int(e.value))
            return None
        if isinstance(e, Path):
            if e.is_local and e.name in env.binders:
                v = env.binders[e.name]
                return (v, v)
            key = "::".join(e.segments)
            if key in _INT_CONSTS:
                v = _INT_CONSTS[key]
                return (v, v)
        if isinstance(e, Unary) and e.op == "-":
            iv = self.ival(e.expr, env)
            return None if iv is None else (-iv[1], -iv[0])
        if isinstance(e, Binary) and e.op in ("+", "-", "*", "/", "%"):
            a, b = self.ival(e.lhs, env), self.ival(e.rhs, env)
            if a is None or b is None:
                return None
            if e.op == "+":
                return (a[0] + b[0], a[1] + b[1])
            if e.op == "-":
                return (a[0] - b[1], a[1] - b[0])
            if e.op == "*":
                ps = [x * y for x in a for y in b]
                return (min(ps), max(ps))
            if a[0] == a[1] and b[0] == b[1] and a[0] >= 0 and b[0] > 0:
                v = a[0] // b[0] if e.op == "/" else a[0] % b[0]
                return (v, v)
            return None
        c = self.cell_of(e, env)
        if c is None:
            return None
        if c in env.vals:
            v = env.vals[c]
            return (v, v)
        return env.static.get(c)

    def truth(self, e: Expr, env: Env) -> bool | None:
        """True / False when decided from what ``env`` fixes, else None."""
        e = _strip(e)
        if isinstance(e, Lit) and e.kind == "bool":
            return bool(e.value)
        if isinstance(e, Unary) and e.op == "!":
            t = self.truth(e.expr, env)
            return None if t is None else not t
        if isinstance(e, Binary) and e.op in ("&&", "||", "==>"):
            a = self.truth(e.lhs, env)
            if (e.op == "&&" and a is False) or (e.op == "||" and a is True):
                return a
            if e.op == "==>" and a is False:
                return True
            b = self.truth(e.rhs, env)
            if e.op == "&&":
                return False if b is False else (True if a and b else None)
            if e.op == "||":
                return True if b is True else (False if a is False and b is False else None)
            return True if b is True else (False if a is True and b is False else None)
        if isinstance(e, Chain):
            ivs = [self.ival(x, env) for x in e.operands]
            res: bool | None = True
            for op, a, b in zip(e.ops, ivs, ivs[1:]):
                if a is None or b is None:
                    res = None
                    continue
                t = _cmp_ival(op, a, b)
                if t is False:
                    return False
                if t is None:
                    res = None
            return res
        return None

    def allowed(self, e: Expr, cell: Cell, env: Env) -> ValueSet | None:
        """Values of ``cell`` that ``e`` leaves possible (a necessary condition), or None."""
        e = _strip(e)
        if isinstance(e, Binary) and e.op == "&&":
            a, b = self.allowed(e.lhs, cell, env), self.allowed(e.rhs, cell, env)
            return a if b is None else b if a is None else a.meet(b)
        if isinstance(e, Binary) and e.op == "||":
            a, b = self.allowed(e.lhs, cell, env), self.allowed(e.rhs, cell, env)
            if a is None or b is None:
                return None
            return a.join(b)
        if isinstance(e, Binary) and e.op == "==>":
            return self.allowed(e.rhs, cell, env) if self.truth(e.lhs, env) is True else None
        if isinstance(e, Unary) and e.op == "!" and isinstance(_strip(e.expr), Chain):
            ch = _strip(e.expr)
            assert isinstance(ch, Chain)
            if len(ch.ops) == 1:
                neg = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}[ch.ops[0]]
                return self.allowed(Chain((neg,), ch.operands, ch.line), cell, env)
            return None
        if isinstance(e, Chain):
            out: ValueSet | None = None
            for op, x, y in _chain_pairs(e):
                for lhs, o, rhs in ((x, op, y), (y, _FLIP[op], x)):
                    s = self._compare(lhs, o, rhs, cell, env)
                    if s is not None:
                        out = s if out is None else out.meet(s)
            return out
        return None

    def _compare(self, lhs: Expr, op: str, rhs: Expr, cell: Cell, env: Env) -> ValueSet | None:
        if cell[1] not in _names(lhs):  # cannot be linear in the cell
            return None
        lin = self._linear(lhs, cell, env)
        if lin is None or _mentions_cell(self, rhs, cell, env):
            return None
        r = self.ival(rhs, env)
        if r is None:
            return None
        sign, off = lin  # sign*cell + off  op  r
        lo, hi = r[0] - off[1], r[1] - off[0]
        if sign < 0:
            lo, hi, op = -hi, -lo, _FLIP[op]
        s = ValueSet()
        if op == "<":
            s.ivals = [(NEG, hi - 1)]
        elif op == "<=":
            s.ivals = [(NEG, hi)]
        elif op == ">":
            s.ivals = [(lo + 1, POS)]
        elif op == ">=":
            s.ivals = [(lo, POS)]
        elif op == "==":
            s.ivals = [(lo, hi)]
        elif op == "!=":
            if lo != hi:
                return None
            s.excluded = {lo}
        else:
            return None
        if cell[0] == "e" and _reads_elements(rhs):
            s.ordered = {"lo"} if op in (">", ">=") else {"hi"} if op in ("<", "<=") else set()
        return s

    def _linear(self, e: Expr, cell: Cell, env: Env) -> tuple[int, Ival] | None:
        """``e`` as ``sign * cell + off`` (sign ±1, ``off`` an interval), or None."""
        e = _strip(e)
        if self.cell_of(e, env) == cell:
            return (1, (0, 0))
        if isinstance(e, Unary) and e.op == "-":
            inner = self._linear(e.expr, cell, env)
            return None if inner is None else (-inner[0], (-inner[1][1], -inner[1][0]))
        if isinstance(e, Binary) and e.op in ("+", "-"):
            a = self._linear(e.lhs, cell, env)
            if a is not None and not _mentions_cell(self, e.rhs, cell, env):
                b = self.ival(e.rhs, env)
                if b is not None:
                    off = (
                        (a[1][0] + b[0], a[1][1] + b[1]) if e.op == "+" else (a[1][0] - b[1], a[1][1] - b[0])
                    )
                    return (a[0], off)
            b2 = self._linear(e.rhs, cell, env)
            if b2 is not None and not _mentions_cell(self, e.lhs, cell, env):
                a2 = self.ival(e.lhs, env)
                if a2 is not None:
                    if e.op == "+":
                        return (b2[0], (a2[0] + b2[1][0], a2[1] + b2[1][1]))
                    return (-b2[0], (a2[0] - b2[1][1], a2[1] - b2[1][0]))
        return None


def _chain_pairs(e: Chain) -> Iterator[tuple[str, Expr, Expr]]:
    """Every pair of operands of a chain with the comparison the chain implies between them
    (``a < b <= c``: ``a < b``, ``b <= c``, ``a < c``); mixed directions only between neighbours."""
    n = len(e.operands)
    for i in range(n - 1):
        for j in range(i + 1, n):
            ops = set(e.ops[i:j])
            if j == i + 1:
                op = e.ops[i]
            elif ops <= {"<", "<="}:
                op = "<" if "<" in ops else "<="
            elif ops <= {">", ">="}:
                op = ">" if ">" in ops else ">="
            elif ops == {"=="}:
                op = "=="
            else:
                continue
            yield op, e.operands[i], e.operands[j]


def _cmp_ival(op: str, a: Ival, b: Ival) -> bool | None:
    if op == "<":
        return True if a[1] < b[0] else False if a[0] >= b[1] else None
    if op == "<=":
        return True if a[1] <= b[0] else False if a[0] > b[1] else None
    if op == ">":
        return _cmp_ival("<", b, a)
    if op == ">=":
        return _cmp_ival("<=", b, a)
    if a[0] == a[1] == b[0] == b[1]:
        return op == "=="
    if a[1] < b[0] or b[1] < a[0]:
        return op == "!="
    return None


def _mentions_cell(m: RequiresModel, e: Expr, cell: Cell, env: Env) -> bool:
    """Does ``e`` read ``cell`` (so it cannot serve as the other side of a bound on it)?"""
    if cell[1] not in _names(e):
        return False
    if m.cell_of(e, env) == cell:
        return True
    for f in dataclasses.fields(e) if dataclasses.is_dataclass(e) else ():
        v = getattr(e, f.name)
        for x in v if isinstance(v, tuple) else (v,):
            if dataclasses.is_dataclass(x) and not isinstance(x, type) and _mentions_cell(m, x, cell, env):
                return True
    return False


_MEMO: dict[tuple[str, int], tuple[Any, Any]] = {}


def _memo(kind: str, e: Any, f: Any) -> Any:
    """``f(e)`` remembered per node (the identity is checked: a freed node's id may be reused)."""
    hit = _MEMO.get((kind, id(e)))
    if hit is not None and hit[0] is e:
        return hit[1]
    if len(_MEMO) > 200_000:
        _MEMO.clear()
    v = f(e)
    _MEMO[(kind, id(e))] = (e, v)
    return v


def _names(e: Any) -> frozenset[str]:
    """Local names read anywhere in ``e``."""

    def walk(x: Any) -> frozenset[str]:
        if isinstance(x, Path):
            return frozenset(x.segments[:1]) if x.is_local else frozenset()
        out: set[str] = set()
        for f in dataclasses.fields(x) if dataclasses.is_dataclass(x) else ():
            v = getattr(x, f.name)
            for y in v if isinstance(v, tuple) else (v,):
                if dataclasses.is_dataclass(y) and not isinstance(y, type):
                    out |= _names(y)
        return frozenset(out)

    return _memo("names", e, walk)


def names_in(e: Any) -> frozenset[str]:
    """Local names read anywhere in ``e`` (remembered per node)."""
    return _names(e)


def _reads_elements(e: Any) -> bool:
    return _memo("elems", e, _reads_elements_walk)


def _reads_elements_walk(e: Any) -> bool:
    if isinstance(e, Index):
        return True
    for f in dataclasses.fields(e) if dataclasses.is_dataclass(e) else ():
        v = getattr(e, f.name)
        for x in v if isinstance(v, tuple) else (v,):
            if dataclasses.is_dataclass(x) and not isinstance(x, type) and _reads_elements(x):
                return True
    return False


def _only_indexed(e: Any, p: str) -> bool:
    """``p`` is read only through indexing (``p[e]``, ``p[e][f]``), never as a whole (``p.len()``)."""
    if isinstance(e, Path):
        return not (e.is_local and e.name == p)
    if isinstance(e, Index):
        o = _strip(e.obj)
        while isinstance(o, Index):
            if not _only_indexed(o.index, p):
                return False
            o = _strip(o.obj)
        return (isinstance(o, Path) or _only_indexed(o, p)) and _only_indexed(e.index, p)
    for f in dataclasses.fields(e) if dataclasses.is_dataclass(e) else ():
        v = getattr(e, f.name)
        for x in v if isinstance(v, tuple) else (v,):
            if dataclasses.is_dataclass(x) and not isinstance(x, type) and not _only_indexed(x, p):
                return False
    return True


def _binder_outside_index(e: Any, binders: set[str]) -> bool:
    if isinstance(e, Path):
        return e.is_local and e.name in binders
    if isinstance(e, Index):
        return _binder_outside_index(e.obj, binders)
    for f in dataclasses.fields(e) if dataclasses.is_dataclass(e) else ():
        v = getattr(e, f.name)
        for x in v if isinstance(v, tuple) else (v,):
            if dataclasses.is_dataclass(x) and not isinstance(x, type) and _binder_outside_index(x, binders):
                return True
    return False


def _split_implications(e: Expr) -> tuple[list[Expr], Expr]:
    guards: list[Expr] = []
    while isinstance(e, Binary) and e.op == "==>":
        guards.append(e.lhs)
        e = e.rhs
    return guards, e


def _implies(guards: list[Expr], body: Expr) -> Expr:
    for g in reversed(guards):
        body = Binary("==>", g, body)
    return body


def _index_refs(e: Any, kinds: dict[str, tuple[Any, ...]]) -> Iterator[tuple[str, tuple[Expr, ...]]]:
    """References ``p[e1]`` / ``p[e1][e2]`` / ``p[e1].len()`` to sequence parameters, as index chains
    (outermost first; a row length is the chain of its row)."""
    s = _strip(e) if isinstance(e, (View, Cast)) else e
    if isinstance(s, Index):
        o = _strip(s.obj)
        if isinstance(o, Path) and kinds.get(o.name, ("",))[0] in ("seq", "seq2"):
            yield (o.name, (s.index,))
        elif isinstance(o, Index):
            oo = _strip(o.obj)
            if isinstance(oo, Path) and kinds.get(oo.name, ("",))[0] == "seq2":
                yield (oo.name, (o.index, s.index))
    if dataclasses.is_dataclass(s) and not isinstance(s, type):
        for f in dataclasses.fields(s):
            v = getattr(s, f.name)
            for x in v if isinstance(v, tuple) else (v,):
                if dataclasses.is_dataclass(x) and not isinstance(x, type):
                    yield from _index_refs(x, kinds)
