"""Finite quantifier domains that follow from guards, beyond the syntactic ones of ``quant``.

``quant.find_domain`` reads a bound on the quantified variable itself
(``x < e``, ``x ∈ xs``, ``x = e``). This module decides three further shapes
exactly; each gives a finite candidate set that contains every value for
which the body can differ from its value elsewhere, so evaluating the whole
body on the candidates decides the quantifier:

1. **Transitive bounds.** The *guard chain* of ``∀ x, …`` is the list of
   hypotheses on the way to the conclusion (antecedents of ``→``, split at
   ``∧``, including those below nested ``∀`` and their binder bounds); for
   ``∃`` it is the conjuncts (including those below nested ``∃``). If the
   chain holds ``x < y`` (or ``≤``, or ``x + k ≤ y`` on Nat) and ``y < e``
   for a variable ``y`` bound along the chain and a term ``e`` free of those
   variables, then ``x < e``. Proof for ``∀``: the body is false at ``x``
   only if some choice of the inner variables satisfies every hypothesis and
   falsifies the conclusion; those hypotheses give ``x < e``. So every ``x``
   outside the range makes the body true. For ``∃`` the body is true only
   where every conjunct holds, with the same conclusion. Lower bounds
   (needed on Int) are derived the same way.

2. **Structural guards.** ``l <+ xs`` (``List.Sublist``), ``l <+: xs``
   (prefix), ``l <:+ xs`` (suffix), ``l <:+: xs`` (infix), ``List.Perm l xs``
   / ``l ~ xs``, and an equation ``t = l ++ r`` / ``t = r ++ l`` (``l`` is a
   prefix / suffix of ``t``) in the guard chain bound a list variable ``l``
   to the sublists, prefixes, suffixes, infixes or permutations of ``xs``
   — finite sets, enumerated lazily, one fuel tick per candidate like any
   enumeration (sublists are exponential; the fuel limit makes that an
   UNKNOWN, never a hang).

3. **Finite support.** If every occurrence of ``x`` in the body is an atom
   ``x ∈ C``, ``C.contains x``, ``C.count x``/``List.count x C``, or
   ``x = t`` / ``x ≠ t`` / ``x == t`` / ``x != t`` (either side), where the
   collections ``C`` and terms ``t`` mention neither ``x`` nor any variable
   bound inside the body, then for every ``x`` outside
   ``S = members(C…) ∪ {t…}`` each atom has the same value (``False`` / 0 /
   ``True`` for ``≠``). The body is a function of the atoms' values only, so
   it is the same for all ``x ∉ S``: ``S`` plus one fresh value not in ``S``
   (when the type has one) decides the quantifier. This covers
   ``∀ x, x ∈ a ↔ x ∈ b`` and ``∀ x, a.count x = b.count x``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from veriscale.values.types import TCon, Type

from ..elab import ir
from .freevars import free_vars

__all__ = ["GuardDomain", "guard_domain", "runtime_helpers"]

# builtin Prop of a list relation -> the enumerator of the left operand's domain
_STRUCTURAL = {
    "List.Sublist": "sublists",
    "List.IsPrefix": "prefixes",
    "List.IsSuffix": "suffixes",
    "List.IsInfix": "infixes",
    "List.Perm": "perms",
}

# builtins whose (element, collection) arguments make a membership-like atom, by argument order
_MEMBER_CALLS = {
    "List.contains": (1, 0),
    "Array.contains": (1, 0),
    "List.elem": (0, 1),
    "List.count": (0, 1),
    "Array.count": (0, 1),
}

_MEMBER_COLLS = ("List", "Array", "Finset")


@dataclass(slots=True)
class GuardDomain:
    """``kind``: "range" (``lo``/``hi`` as in ``quant.Domain``), "enum" (``gen`` over ``coll``),
    or "support" (members of ``colls`` ∪ ``points`` ∪ one fresh value)."""

    kind: str
    lo: ir.Node | None = None
    lo_strict: bool = False
    hi: ir.Node | None = None
    hi_incl: bool = False
    gen: str = ""
    coll: ir.Node | None = None
    colls: list[ir.Node] = field(default_factory=list)
    points: list[ir.Node] = field(default_factory=list)


def _strip(n: Any) -> Any:
    while True:
        if isinstance(n, ir.Coe) and n.kind in ("nat_int", "id", "bool_prop", "prop_bool"):
            n = n.expr
        elif isinstance(n, ir.Postponed) and n.node is not None:
            n = n.node
        else:
            return n


def _var_name(n: Any) -> str | None:
    n = _strip(n)
    return n.name if isinstance(n, ir.Var) else None


def _tname(t: Type) -> str | None:
    return t.name if isinstance(t, TCon) else None


def _bltn_call(n: Any) -> tuple[str, list[ir.Node]] | None:
    n = _strip(n)
    if isinstance(n, ir.Call) and isinstance(n.target, ir.Bltn):
        return n.target.name, n.args
    return None


# ------------------------------------------------------------------ guard chain


def _split_and(n: Any, out: list[Any]) -> None:
    n = _strip(n)
    if isinstance(n, ir.Prim) and n.op == "and":
        _split_and(n.args[0], out)
        _split_and(n.args[1], out)
    else:
        out.append(n)


def _chain(q: ir.Quant) -> tuple[list[Any], list[str]]:
    """Guard atoms of ``q``'s chain and the variables bound along it (``q.var`` first)."""
    atoms: list[Any] = []
    bound: list[str] = [q.var]

    def binder(qq: ir.Quant) -> None:
        if qq.binder_bound is None:
            return
        bop, bn = qq.binder_bound
        if bop == "∈":
            atoms.append(ir.Prim(qq.ty, "mem", [ir.Var(qq.var_ty, qq.var), bn], bn.ty))
        else:
            atoms.append(bn)

    def walk(n: Any) -> None:
        n = _strip(n)
        if isinstance(n, ir.Quant) and n.kind == q.kind:
            bound.append(n.var)
            binder(n)
            walk(n.body)
            return
        if not isinstance(n, ir.Prim):
            return
        if q.kind == "∀" and n.op == "implies":
            _split_and(n.args[0], atoms)
            walk(n.args[1])
        elif q.kind == "∃":
            parts: list[Any] = []
            _split_and(n, parts)
            for p in parts:
                if isinstance(p, ir.Quant) and p.kind == "∃":
                    walk(p)
                else:
                    atoms.append(p)

    binder(q)
    walk(q.body)
    return atoms, bound


# ------------------------------------------------------------ transitive bounds


def _relations(atoms: list[Any]) -> list[tuple[Any, bool, Any]]:
    """Atoms ``a < b`` / ``a ≤ b`` (any spelling) as ``(a, strict, b)``; ``a + k ≤ b`` on Nat gives ``a ≤ b``."""
    out: list[tuple[Any, bool, Any]] = []
    for c in atoms:
        if not isinstance(c, ir.Prim) or c.op not in ("lt", "le", "gt", "ge"):
            continue
        a, b = c.args
        op = c.op
        if op in ("gt", "ge"):
            a, b = b, a
            op = "lt" if op == "gt" else "le"
        strict = op == "lt"
        out.append((_strip(a), strict, _strip(b)))
        a_s = _strip(a)
        if _tname(c.opty) == "Nat" and isinstance(a_s, ir.Prim) and a_s.op == "add":
            for part in a_s.args:
                out.append((_strip(part), strict, _strip(b)))
    return out


def _bound(
    var: str,
    rels: list[tuple[Any, bool, Any]],
    chain: set[str],
    upper: bool,
    seen: frozenset[str],
) -> tuple[Any, bool] | None:
    """A term bounding ``var`` (above if ``upper``) free of the chain variables, and whether strictly."""
    for a, strict, b in rels:
        near, far = (a, b) if upper else (b, a)
        if _var_name(near) != var:
            continue
        fv = free_vars(far)
        if not (fv & chain):
            return far, strict
        w = _var_name(far)
        if w is not None and w in chain and w not in seen:
            r = _bound(w, rels, chain, upper, seen | {w})
            if r is not None:
                return r[0], strict or r[1]
    return None


# ------------------------------------------------------------- structural guards


def _structural(atoms: list[Any], var: str, chain: set[str], vty: Type) -> GuardDomain | None:
    if _tname(vty) != "List":
        return None
    for c in atoms:
        call = _bltn_call(c)
        if call is not None and call[0] in _STRUCTURAL and len(call[1]) >= 2:
            lhs, rhs = call[1][0], call[1][1]
            if _var_name(lhs) == var and not (free_vars(rhs) & chain):
                return GuardDomain("enum", gen=_STRUCTURAL[call[0]], coll=rhs)
            if call[0] == "List.Perm" and _var_name(rhs) == var and not (free_vars(lhs) & chain):
                return GuardDomain("enum", gen="perms", coll=lhs)
        if isinstance(c, ir.Prim) and c.op == "eq" and _tname(c.opty) == "List":
            for side, other in ((c.args[0], c.args[1]), (c.args[1], c.args[0])):
                if free_vars(other) & chain:
                    continue
                end = _append_end(side, var)
                if end is not None:
                    return GuardDomain("enum", gen=end, coll=other)
    return None


def _append_leaves(n: Any, out: list[Any]) -> None:
    n = _strip(n)
    if isinstance(n, ir.Prim) and n.op == "append":
        _append_leaves(n.args[0], out)
        _append_leaves(n.args[1], out)
    else:
        out.append(n)


def _append_end(side: Any, var: str) -> str | None:
    """ "prefixes"/"suffixes"/"infixes" when ``var`` is a leaf of the append chain ``side``."""
    leaves: list[Any] = []
    _append_leaves(side, leaves)
    if len(leaves) < 2:
        return None
    names = [_var_name(x) for x in leaves]
    if names[0] == var:
        return "prefixes"
    if names[-1] == var:
        return "suffixes"
    if var in names:
        return "infixes"
    return None


# ---------------------------------------------------------------- finite support


def _support(q: ir.Quant, target: Any) -> GuardDomain | None:
    """Support atoms of ``q.var`` in ``target`` (the body, or one part of it), if every occurrence is one."""
    var = q.var
    outer = free_vars(q)
    colls: list[ir.Node] = []
    points: list[ir.Node] = []
    ok = True

    def closed(t: Any) -> bool:
        return free_vars(t) <= outer

    def is_x(n: Any) -> bool:
        n0 = n
        while isinstance(n0, ir.Coe) and n0.kind == "id":
            n0 = n0.expr
        while isinstance(n0, ir.Postponed) and n0.node is not None:
            n0 = n0.node
        return isinstance(n0, ir.Var) and n0.name == var

    def walk(n: Any) -> None:
        nonlocal ok
        if not ok or n is None:
            return
        if isinstance(n, ir.Var):
            if n.name == var:
                ok = False  # an occurrence outside the recognised atoms
            return
        if isinstance(n, ir.Prim):
            if n.op == "mem" and is_x(n.args[0]):
                coll = n.args[1]
                if closed(coll) and _tname(coll.ty) in _MEMBER_COLLS:
                    colls.append(coll)
                    return
                ok = False
                return
            if n.op in ("eq", "ne", "beq", "bne") and len(n.args) == 2:
                a, b = n.args
                if is_x(a) or is_x(b):
                    other = b if is_x(a) else a
                    if closed(other):
                        points.append(other)
                        return
                    ok = False
                    return
        call = _bltn_call(n)
        if call is not None and call[0] in _MEMBER_CALLS:
            ie, ic = _MEMBER_CALLS[call[0]]
            args = call[1]
            if len(args) > max(ie, ic) and is_x(args[ie]):
                if (
                    closed(args[ic])
                    and _tname(args[ic].ty) in _MEMBER_COLLS
                    and not any(var in free_vars(a) for k, a in enumerate(args) if k not in (ie, ic))
                ):
                    colls.append(args[ic])
                    return
                ok = False
                return
        if isinstance(n, list | tuple):
            for x in n:
                walk(x)
            return
        if hasattr(n, "__dataclass_fields__"):
            for f in n.__dataclass_fields__:
                if f in ("ty", "opty", "var_ty", "inst"):
                    continue
                v = getattr(n, f)
                if isinstance(v, list | tuple) or hasattr(v, "__dataclass_fields__"):
                    walk(v)

    walk(target)
    if not ok or not (colls or points):
        return None
    if var not in free_vars(target):
        return None
    return GuardDomain("support", colls=colls, points=points)


def _guarded_support(q: ir.Quant) -> GuardDomain | None:
    """Rule 3 on one part ``C`` of the body: the conclusion of a ``∀`` chain ``H → … → C``, or a
    conjunct ``C`` of an ``∃`` body. For ``x`` outside the support ``S`` of ``C``, ``C(x) = C(fresh)``;
    if ``C(fresh)`` is true (``∀``) / false (``∃``), the body is true / false at every such ``x``, so
    ``S`` decides the quantifier. The generated code checks ``C(fresh)`` first and answers UNKNOWN
    when it does not hold (then the hypotheses alone would have to decide, which is not finite)."""
    body = _strip(q.body)
    if q.kind == "∀":
        if not (isinstance(body, ir.Prim) and body.op == "implies"):
            return None
        while isinstance(body, ir.Prim) and body.op == "implies":
            body = _strip(body.args[1])
        parts = [body]
    else:
        parts = []
        _split_and(body, parts)
        if len(parts) < 2:
            return None
    for c in parts:
        d = _support(q, c)
        if d is not None:
            d.kind = "support_part"
            d.coll = c
            return d
    return None


# ------------------------------------------------------------------ entry point


def guard_domain(q: ir.Quant) -> GuardDomain | None:
    """A finite domain for ``q`` by the rules of this module, or None."""
    atoms, bound = _chain(q)
    chain = set(bound)
    vty = q.var_ty
    if _tname(vty) in ("Nat", "Int"):
        rels = _relations(atoms)
        hi = _bound(q.var, rels, chain, True, frozenset({q.var}))
        lo = _bound(q.var, rels, chain, False, frozenset({q.var}))
        if hi is not None and (_tname(vty) == "Nat" or lo is not None):
            return GuardDomain(
                "range",
                lo=lo[0] if lo is not None else None,
                lo_strict=lo[1] if lo is not None else False,
                hi=hi[0],
                hi_incl=not hi[1],
            )
    d = _structural(atoms, q.var, chain, vty)
    if d is not None:
        return d
    d = _support(q, q.body)
    if d is not None:
        return d
    return _guarded_support(q)


# ------------------------------------------------------------- runtime helpers


def _sublists(xs: tuple) -> Iterator[tuple]:
    n = len(xs)
    for mask in range(1 << n):
        yield tuple(xs[i] for i in range(n) if mask >> i & 1)


def _prefixes(xs: tuple) -> Iterator[tuple]:
    for i in range(len(xs) + 1):
        yield xs[:i]


def _suffixes(xs: tuple) -> Iterator[tuple]:
    for i in range(len(xs) + 1):
        yield xs[i:]


def _infixes(xs: tuple) -> Iterator[tuple]:
    yield ()
    n = len(xs)
    for i in range(n):
        for j in range(i + 1, n + 1):
            yield xs[i:j]


def _perms(xs: tuple) -> Iterator[tuple]:
    return permutations(xs)


def _members(c: Any) -> Iterator[Any]:
    yield from c


class _NoFresh(Exception):
    pass


def fresh_value(t: Type, avoid: list[Any]) -> Any:
    """A value of type ``t`` equal to none of ``avoid``; ``_NoFresh`` when the type has none here."""
    name = _tname(t)
    if name in ("Nat", "Int"):
        ints = [v for v in avoid if isinstance(v, int)]
        return max(ints) + 1 if ints else 0
    if name == "Bool":
        for b in (False, True):
            if b not in avoid:
                return b
        raise _NoFresh()
    if name == "Char":
        taken = {v for v in avoid if isinstance(v, str)}
        c = ord("a")
        while chr(c) in taken:
            c += 1
        return chr(c)
    if name == "String":
        taken = {v for v in avoid if isinstance(v, str)}
        k = 0
        while "a" * k in taken:
            k += 1
        return "a" * k
    if name in ("List", "Array") and isinstance(t, TCon):
        from veriscale.values.runtime import default_value

        d = default_value(t.args[0])
        k = 0
        while (d,) * k in avoid:
            k += 1
        return (d,) * k
    raise _NoFresh()


def _support_values(colls: tuple, points: tuple, t: Type) -> list[Any]:
    """Members and points (first occurrence order, no repeats) and one fresh value of ``t``."""
    out = _support_base(colls, points, t)
    try:
        out.append(fresh_value(t, out))
    except _NoFresh:
        pass
    return out


def _support_base(colls: tuple, points: tuple, t: Type) -> list[Any]:
    """Members and points, first occurrence order, no repeats (Nat: the non-negative ones)."""
    out: list[Any] = []
    seen: set[Any] = set()

    def add(v: Any) -> None:
        try:
            if v in seen:
                return
            seen.add(v)
        except TypeError:  # an unhashable value: compare by ==
            if v in out:
                return
        out.append(v)

    for c in colls:
        for v in c:
            add(v)
    for p in points:
        add(p)
    if _tname(t) == "Nat":
        out = [v for v in out if isinstance(v, int) and v >= 0]
    return out


def _support_part(colls: tuple, points: tuple, t: Type) -> tuple[list[Any], Any]:
    """The support values, and a fresh value outside them (``_NO_FRESH`` when the type has none)."""
    vals = _support_base(colls, points, t)
    try:
        return vals, fresh_value(t, vals)
    except _NoFresh:
        return vals, _NO_FRESH


class _NoFreshValue:
    def __repr__(self) -> str:
        return "_NO_FRESH"


_NO_FRESH: Any = _NoFreshValue()


def _undecided(msg: str) -> None:
    from ..errors import Undecided

    raise Undecided(msg)


def runtime_helpers() -> dict[str, Any]:
    """Names the generated code may call (installed in the program namespace)."""
    return {
        "_gsublists": _sublists,
        "_gprefixes": _prefixes,
        "_gsuffixes": _suffixes,
        "_ginfixes": _infixes,
        "_gperms": _perms,
        "_gsupport": _support_values,
        "_gsupport_part": _support_part,
        "_gundecided": _undecided,
        "_GNOFRESH": _NO_FRESH,
    }
