"""Shapes of a sequence binder read from the conjuncts of its quantifier: monotone order and pinned elements.

Used by ``bounds.plan_quantifier`` to give a ``Seq`` binder a smaller, still complete, domain:

* **monotone** (``"strict"`` or ``"weak"``): a conjunct says every element is below the next one —
  pairwise ``forall|k, l| 0 <= k < l < x.len() ==> x[k] < x[l]`` (``<=`` with ``k <= l`` or ``k < l``:
  weak), or consecutive ``forall|i| 0 <= i < x.len() - 1 ==> x[i] < x[i + 1]`` (also ``x[i + 1] > x[i]``,
  nested under further implications, and a guard ``0 <= i < e`` where another conjunct says
  ``x.len() == e + 1`` or ``x.len() == e``). Every guard on the way to the comparison must cover all
  of ``0 .. x.len() - 1``, so the comparison holds for every adjacent pair; anything else is not
  recognised (the binder keeps its old domain).
* **pins**: conjuncts ``x[e] == v`` (either side) with ``v`` free of ``x`` and of later binders. With a
  monotone binder, a pin at index 0 is a lower bound of every element and a pin at the last index an
  upper bound (the evaluator checks which index ``e`` is, per candidate length).

A monotone sequence within ``[lo, hi]`` is a combination (strict) or a multiset (weak) of that range, so
the evaluator enumerates ``C(size, n)`` / ``C(size + n - 1, n)`` sequences of length ``n`` instead of
``size ** n``; strict ones also have at most ``size`` elements (pigeonhole).

Everything here is syntactic and only ever *adds* facts that the body requires, so enumerating the
smaller domain visits every sequence for which the body can hold.
"""

from __future__ import annotations

from .ast import Binary, Cast, Chain, Expr, Index, Lit, Path, Quant, View
from .bounds import _flatten_and, _replace_len, _strip_int_cast, _unlined, free_vars, len_name

__all__ = ["monotone", "pins"]


def _is_var(e: Expr, name: str) -> bool:
    while isinstance(e, View | Cast):
        e = e.obj if isinstance(e, View) else e.expr
    return isinstance(e, Path) and e.is_local and e.name == name


def _index_at(e: Expr, x: str, i: str, offset: int) -> bool:
    """Is ``e`` the element ``x[i + offset]`` (offset 0 or 1)?"""
    e = _strip_int_cast(e)
    if not (isinstance(e, Index) and _is_var(e.obj, x)):
        return False
    idx = _strip_int_cast(e.index)
    if offset == 0:
        return _is_var(idx, i)
    return (
        isinstance(idx, Binary) and idx.op == "+"
        and ((_is_var(idx.lhs, i) and _is_lit(idx.rhs, 1)) or (_is_var(idx.rhs, i) and _is_lit(idx.lhs, 1)))
    )  # fmt: skip


def _is_lit(e: Expr, v: int) -> bool:
    e = _strip_int_cast(e)
    return isinstance(e, Lit) and e.value == v and not isinstance(e.value, bool)


def _cmp_kind(c: Expr, lo_is: object, hi_is: object) -> str | None:
    """For a one-operator comparison: "strict" if it says lo < hi, "weak" if lo <= hi, else None.
    ``lo_is``/``hi_is`` are predicates recognising the two operands."""
    if not (isinstance(c, Chain) and len(c.ops) == 1):
        return None
    a, b = c.operands
    op = c.ops[0]
    if lo_is(a) and hi_is(b) and op in ("<", "<="):  # type: ignore[operator]
        return "strict" if op == "<" else "weak"
    if hi_is(a) and lo_is(b) and op in (">", ">="):  # type: ignore[operator]
        return "strict" if op == ">" else "weak"
    return None


def _covers(guard: Expr, i: str, x: str, caps: list[object]) -> bool:
    """Does ``guard`` hold for every ``i`` in ``0 .. x.len() - 1`` (exclusive)? Only the shape
    ``0 <= i < U`` is recognised, with U one of ``x.len()``, ``x.len() - 1`` or ``e`` / ``e - 1`` / ``e + 1``
    where ``x.len() == e`` or ``x.len() == e + 1`` is a conjunct (``caps`` holds those ``e``)."""
    g = _replace_len(guard, x)
    if not (
        isinstance(g, Chain)
        and g.ops == ("<=", "<")
        and _is_lit(g.operands[0], 0)
        and _is_var(g.operands[1], i)
    ):
        return False
    u = _strip_int_cast(g.operands[2])
    lname = len_name(x)
    if _is_var(u, lname):
        return True
    if isinstance(u, Binary) and u.op == "-" and _is_lit(u.rhs, 1) and _is_var(u.lhs, lname):
        return True
    # x.len() == cap: U must be at least cap - 1; recognised U = cap, U = cap - 1 (and cap == U + 1)
    uu = _unlined(u)
    for cap in caps:
        if uu == cap:
            return True
        if (
            isinstance(u, Binary)
            and u.op == "-"
            and _is_lit(u.rhs, 1)
            and _unlined(_strip_int_cast(u.lhs)) == cap
        ):
            return True
        if (
            isinstance(cap, Binary)
            and cap.op == "+"
            and _is_lit(cap.rhs, 1)
            and _unlined(_strip_int_cast(cap.lhs)) == uu
        ):
            return True
    return False


def _leaves(e: Expr, guards: list[Expr]) -> list[tuple[Expr, list[Expr]]]:
    """Conjuncts of a forall body with the implication guards above them."""
    if isinstance(e, Binary) and e.op == "==>":
        return _leaves(e.rhs, guards + _flatten_and(e.lhs, None, 0))
    if isinstance(e, Binary) and e.op == "&&":
        return _leaves(e.lhs, guards) + _leaves(e.rhs, guards)
    return [(e, guards)]


def _len_eqs(atoms: list[Expr], x: str) -> list[object]:
    """Line-free expressions ``e`` with a conjunct ``x.len() == e`` (either side, casts stripped)."""
    lname = len_name(x)
    out: list[object] = []
    for a in atoms:
        a2 = _replace_len(a, x)
        if isinstance(a2, Chain) and a2.ops == ("==",):
            p, q = (_strip_int_cast(o) for o in a2.operands)
            if _is_var(p, lname) and lname not in free_vars(q):
                out.append(_unlined(q))
            elif _is_var(q, lname) and lname not in free_vars(p):
                out.append(_unlined(p))
    return out


def _hoisted(atoms: list[Expr], x: str, caps: list[object]) -> list[Expr]:
    """``forall`` conjuncts nested in the consequent of a one-binder ``forall|j| G ==> (… && Q)`` whose
    guard ``G`` covers ``0 .. x.len() - 1`` and where ``Q`` does not mention ``j`` (Verus' quantifiers
    extend to the right, so ``A && forall|j| … ==> B && forall|i| …`` nests the second in the first).
    Whenever ``x`` has two or more elements ``G`` holds for ``j == 0``, so ``Q`` must hold: an order
    stated by ``Q`` binds every sequence that has adjacent pairs, and shorter ones have none to order."""
    out: list[Expr] = []
    for a in atoms:
        if not (isinstance(a, Quant) and a.kind == "forall" and len(a.binders) == 1):
            continue
        j = a.binders[0][0]
        for leaf, guards in _leaves(a.body, []):
            if not (isinstance(leaf, Quant) and leaf.kind == "forall") or j in free_vars(leaf):
                continue
            if guards and all(_covers(g, j, x, caps) for g in guards):
                out.append(leaf)
    return out


def monotone(atoms: list[Expr], x: str) -> str | None:
    """``"strict"`` / ``"weak"`` when a conjunct orders the elements of ``x`` (strict wins), else None."""
    caps = _len_eqs(atoms, x)
    found: str | None = None
    pieces: list[tuple[Expr, Expr, str]] = []
    for a in atoms + _hoisted(atoms, x, caps):
        if not (isinstance(a, Quant) and a.kind == "forall"):
            continue
        kind = (
            _pairwise(a, x)
            if len(a.binders) == 2
            else _consecutive(a, x, caps)
            if len(a.binders) == 1
            else None
        )
        if kind == "strict":
            return "strict"
        found = found or kind
        if len(a.binders) == 1:
            pieces.extend(_pieces(a, x))
    return _chained(pieces, x, caps) or found


def _pieces(q: Quant, x: str) -> list[tuple[Expr, Expr, str]]:
    """(A, B, kind) for leaves ``x[i] < x[i + 1]`` under the single guard ``A <= i < B`` (A, B free of i)."""
    i = q.binders[0][0]
    out: list[tuple[Expr, Expr, str]] = []
    for leaf, guards in _leaves(q.body, []):
        kind = _cmp_kind(leaf, lambda e: _index_at(e, x, i, 0), lambda e: _index_at(e, x, i, 1))
        if kind is None or len(guards) != 1:
            continue
        g = _replace_len(guards[0], x)
        if isinstance(g, Chain) and g.ops == ("<=", "<") and _is_var(g.operands[1], i):
            a, b = g.operands[0], g.operands[2]
            if i not in free_vars(a) | free_vars(b):
                out.append((a, b, kind))
    return out


def _chained(pieces: list[tuple[Expr, Expr, str]], x: str, caps: list[object]) -> str | None:
    """Guards ``0 <= i < P``, ``P <= i < U`` (U covering ``x.len() - 1``) together cover every adjacent
    pair whatever P is: the union of ``[0, P)`` and ``[P, U)`` is ``[0, U)``. Follows such chains from 0."""
    for kind in ("strict", "weak"):
        usable = [(a, b) for a, b, k in pieces if k == "strict" or kind == "weak"]
        starts: list[object] = [_unlined(Lit(0, "int"))]
        for _ in range(len(usable)):
            grown = False
            for a, b in usable:
                ua, ub = _unlined(_strip_int_cast(a)), _unlined(_strip_int_cast(b))
                if ua in starts and ub not in starts:
                    if _covers(
                        Chain(("<=", "<"), (Lit(0, "int"), Path(("#i",)), _strip_int_cast(b))), "#i", x, caps
                    ):
                        return kind
                    starts.append(ub)
                    grown = True
            if not grown:
                break
    return None


def _pairwise(q: Quant, x: str) -> str | None:
    body = q.body
    if not (isinstance(body, Binary) and body.op == "==>"):
        return None
    ante = _replace_len(body.lhs, x)
    if not (
        isinstance(ante, Chain) and len(ante.ops) == 3 and ante.ops[0] == "<=" and ante.ops[2] == "<"
        and ante.ops[1] in ("<", "<=") and _is_lit(ante.operands[0], 0) and _is_var(ante.operands[3], len_name(x))
    ):  # fmt: skip
        return None
    k, m = ante.operands[1], ante.operands[2]
    if not (isinstance(k, Path) and isinstance(m, Path)) or {k.name, m.name} != {n for n, _ in q.binders}:
        return None
    kind = _cmp_kind(body.rhs, lambda e: _index_at(e, x, k.name, 0), lambda e: _index_at(e, x, m.name, 0))
    if kind == "strict" and ante.ops[1] == "<=":
        return None  # x[k] < x[k] is false: the conjunct can never hold (leave it to the evaluator)
    return kind


def _consecutive(q: Quant, x: str, caps: list[object]) -> str | None:
    i = q.binders[0][0]
    found: str | None = None
    for leaf, guards in _leaves(q.body, []):
        kind = _cmp_kind(leaf, lambda e: _index_at(e, x, i, 0), lambda e: _index_at(e, x, i, 1))
        if kind is None or not guards or not all(_covers(g, i, x, caps) for g in guards):
            continue
        if kind == "strict":
            return "strict"
        found = found or kind
    return found


def pins(atoms: list[Expr], x: str, banned: set[str]) -> list[tuple[Expr, Expr, str]]:
    """(index, value, where) for conjuncts ``x[index] == value``; the index may use ``x.len()`` (as
    ``x#len``), the value mentions neither ``x`` nor a ``banned`` (later) binder. ``where`` is
    ``"first"`` for the literal index 0, ``"last"`` for ``x.len() - 1``, else ``""`` (the evaluator
    compares the index with 0 and the length per candidate length)."""
    out: list[tuple[Expr, Expr, str]] = []
    for a in atoms:
        if not (isinstance(a, Chain) and a.ops == ("==",)):
            continue
        for el, val in ((a.operands[0], a.operands[1]), (a.operands[1], a.operands[0])):
            el = _strip_int_cast(el)
            if not (isinstance(el, Index) and _is_var(el.obj, x)):
                continue
            if free_vars(val) & (banned | {x}):
                continue
            idx = _replace_len(el.index, x)
            if x in free_vars(idx) or free_vars(idx) & banned:
                continue
            lname = len_name(x)
            i2 = _strip_int_cast(idx)
            where = "first" if _is_lit(i2, 0) else ""
            if isinstance(i2, Binary) and i2.op == "-" and _is_lit(i2.rhs, 1) and _is_var(i2.lhs, lname):
                where = "last"
            out.append((idx, val, where))
    return out
