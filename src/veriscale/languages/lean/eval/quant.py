"""Finite domains for quantifiers, found syntactically.

``∀ x, H₁ → H₂ → … → P`` and ``∃ x, C₁ ∧ C₂ ∧ … ∧ P`` are decided by
enumerating a finite set of candidates that contains every ``x`` for which
some hypothesis / every conjunct can hold, and evaluating the *whole* body
for each candidate. Any superset of the true domain is therefore sound, so
a bound may come from any hypothesis or conjunct (also below nested
quantifiers of the same kind, when it does not mention their variables):

* ``x ∈ xs`` → the elements of ``xs``;
* ``x < e``, ``x ≤ e``, ``x + k ≤ e``, ``e > x``… on ``Nat`` → ``0 … e``;
  on ``Int`` together with a lower bound ``lo ≤ x`` / ``lo < x``;
* ``x = e`` (one-point rule) → ``[e]``.

Quantifiers with no such bound are unbounded: ``unbounded_domain`` is the
single place that decides what to do with them (for now: Unsupported).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from veriscale.values.types import TCon, Type

from ..elab import ir
from ..errors import Unsupported
from .freevars import free_vars
from .guards import GuardDomain, guard_domain

__all__ = ["Domain", "find_domain", "unbounded_domain"]


@dataclass(slots=True)
class Domain:
    """``kind`` "members" (``coll``), "range" (``lo`` inclusive/None=0, ``hi`` exclusive, ``hi_incl``)
    or "points" (``points``) or "unbounded"."""

    kind: str
    coll: ir.Node | None = None
    lo: ir.Node | None = None
    lo_strict: bool = False
    hi: ir.Node | None = None
    hi_incl: bool = False
    points: list[ir.Node] | None = None
    reason: str = ""
    # kinds "enum" / "support": the domain found by ``guards.guard_domain``
    guard: GuardDomain | None = None


def _is_nat(t: Type) -> bool:
    return isinstance(t, TCon) and t.name == "Nat"


def _is_int(t: Type) -> bool:
    return isinstance(t, TCon) and t.name == "Int"


def _strip(n: ir.Node) -> ir.Node:
    while isinstance(n, ir.Coe) and n.kind in ("nat_int", "id", "bool_prop", "prop_bool"):
        n = n.expr
    while isinstance(n, ir.Postponed) and n.node is not None:
        n = n.node
    return n


def _is_var(n: ir.Node, var: str) -> bool:
    n = _strip(n)
    return isinstance(n, ir.Var) and n.name == var


@dataclass(slots=True)
class _Bounds:
    members: ir.Node | None = None
    point: ir.Node | None = None
    hi: ir.Node | None = None
    hi_incl: bool = False
    lo: ir.Node | None = None
    lo_strict: bool = False


def _usable(e: ir.Node, forbidden: set[str]) -> bool:
    return not (free_vars(e) & forbidden)


def _add_constraint(c: ir.Node, var: str, forbidden: set[str], b: _Bounds) -> None:
    c = _strip(c)
    if not isinstance(c, ir.Prim):
        return
    op = c.op
    if op == "and":
        for a in c.args:
            _add_constraint(a, var, forbidden, b)
        return
    if op == "mem":
        x, coll = c.args
        if _is_var(x, var) and _usable(coll, forbidden) and b.members is None:
            b.members = coll
        return
    if op not in ("lt", "le", "gt", "ge", "eq"):
        return
    lhs, rhs = c.args
    if op == "eq":
        if _is_var(lhs, var) and _usable(rhs, forbidden) and b.point is None:
            b.point = rhs
        elif _is_var(rhs, var) and _usable(lhs, forbidden) and b.point is None:
            b.point = lhs
        return
    # normalise to ``small (<|≤) big``
    if op in ("gt", "ge"):
        lhs, rhs = rhs, lhs
        op = "lt" if op == "gt" else "le"
    incl = op == "le"
    nat = _is_nat(c.opty)
    if _is_var(lhs, var) and _usable(rhs, forbidden):
        if b.hi is None:
            b.hi, b.hi_incl = rhs, incl
        return
    if _is_var(rhs, var) and _usable(lhs, forbidden):
        if b.lo is None:
            b.lo, b.lo_strict = lhs, not incl
        return
    # ``x + k ≤ e`` / ``k + x < e`` on Nat: x ≤ e is a sound superset
    lhs_s = _strip(lhs)
    if nat and isinstance(lhs_s, ir.Prim) and lhs_s.op == "add" and _usable(rhs, forbidden):
        a, k = lhs_s.args
        if _is_var(a, var) or _is_var(k, var):
            other = k if _is_var(a, var) else a
            if var not in free_vars(other) and b.hi is None:
                b.hi, b.hi_incl = rhs, incl


def _collect(body: ir.Node, kind: str, var: str, forbidden: set[str], b: _Bounds) -> None:
    body = _strip(body)
    if isinstance(body, ir.Quant) and body.kind == kind:
        # look below a nested quantifier of the same kind, not using its variable
        inner_forbidden = forbidden | {body.var}
        if body.binder_bound is not None:
            bop, bn = body.binder_bound
            _add_constraint(
                bn if bop != "∈" else ir.Prim(body.ty, "mem", [ir.Var(body.var_ty, body.var), bn], body.ty),
                var,
                inner_forbidden,
                b,
            )
        _collect(body.body, kind, var, inner_forbidden, b)
        return
    if not isinstance(body, ir.Prim):
        return
    if kind == "∀" and body.op == "implies":
        _add_constraint(body.args[0], var, forbidden, b)
        _collect(body.args[1], kind, var, forbidden, b)
    elif kind == "∃" and body.op == "and":
        _add_constraint(body.args[0], var, forbidden, b)
        _collect(body.args[1], kind, var, forbidden, b)
        if not _is_and(body.args[0]):
            pass
    elif kind == "∃":
        _add_constraint(body, var, forbidden, b)


def _is_and(n: ir.Node) -> bool:
    n = _strip(n)
    return isinstance(n, ir.Prim) and n.op == "and"


def find_domain(q: ir.Quant) -> Domain:
    var, vty = q.var, q.var_ty
    if q.binder_bound is not None:
        bop, bn = q.binder_bound
        if bop == "∈":
            return Domain("members", coll=bn)
        # ``∃ i < n``: ``bn`` is the relation ``i < n`` itself
        b = _Bounds()
        _add_constraint(bn, var, {var}, b)
        d = _range_domain(b, vty)
        if d is not None:
            return d
    forbidden: set[str] = {var}
    b = _Bounds()
    _collect(q.body, q.kind, var, forbidden, b)
    if b.point is not None:
        return Domain("points", points=[b.point])
    if b.members is not None:
        return Domain("members", coll=b.members)
    d = _range_domain(b, vty)
    if d is not None:
        return d
    g = guard_domain(q)
    if g is not None:
        if g.kind == "range":
            return Domain("range", lo=g.lo, lo_strict=g.lo_strict, hi=g.hi, hi_incl=g.hi_incl)
        return Domain(g.kind, guard=g)
    return Domain("unbounded", reason=f"no bound found for {q.kind} over {vty}")


def _range_domain(b: _Bounds, vty: Type) -> Domain | None:
    if b.hi is None:
        return None
    if _is_nat(vty):
        return Domain("range", lo=b.lo, lo_strict=b.lo_strict, hi=b.hi, hi_incl=b.hi_incl)
    if _is_int(vty) and b.lo is not None:
        return Domain("range", lo=b.lo, lo_strict=b.lo_strict, hi=b.hi, hi_incl=b.hi_incl)
    return None


def unbounded_domain(kind: str, var_ty: Type, reason: str) -> Any:
    """The one place that handles quantifiers without a syntactic bound."""
    raise Unsupported(f"unbounded quantifier {kind} over {var_ty}: {reason}")
