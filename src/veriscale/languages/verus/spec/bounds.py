"""Static bounds of quantifier binders, read from comparison chains.

For ``forall`` the constraints come from the antecedents of ``==>`` (also
nested: ``A ==> C ==> B``); for ``exists``/``choose`` from the top-level
conjuncts of the body. Conjunctions (``&&``/``&&&``) are flattened and calls
of boolean spec functions are inlined (their body with the arguments
substituted) to find bounds hidden in helpers such as ``valid_split(s, a, j)``.

A chain ``e0 op e1 op …`` with all ops ascending (``<``/``<=``) or all
descending gives a relation between every pair of its operands (strict if
any step is). A binder ``x`` (also ``x as int``, ``x + c``, ``c + x``,
``x - c``) related to an expression that mentions neither ``x`` nor a later
binder gets a lower or upper bound (offsets are moved to the other side); an
equality ``x == e`` fixes it. One step of transitivity through a later binder
is followed (``i < j`` and ``j < n`` bound ``i`` by ``n``).

Every bound comes from a conjunct that must hold for the body to matter, so
enumerating only values within all bounds is sound for all three kinds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from veriscale.values.types import TCon, Type

from .ast import (
    Binary,
    Block,
    Call,
    Cast,
    Chain,
    Closure,
    Expr,
    Field,
    If,
    Index,
    Let,
    Lit,
    Match,
    MethodCall,
    Path,
    Quant,
    SeqLit,
    StructLit,
    Tuple,
    Unary,
    View,
)

__all__ = ["BinderPlan", "conjuncts", "free_vars", "plan_quantifier", "substitute"]

Inliner = Callable[[Call], Expr | None]
_MAX_INLINE = 4


@dataclass
class BinderPlan:
    name: str
    type: Type
    lowers: list[tuple[Expr, bool]] = field(default_factory=list)  # x > e (strict) / x >= e
    uppers: list[tuple[Expr, bool]] = field(default_factory=list)  # x < e (strict) / x <= e
    fixed: list[Expr] = field(default_factory=list)  # x == e
    # sequence binders: bounds of the length (the name ``x#len`` stands for ``x.len()``) and of
    # every element (from ``forall|j| 0 <= j < x.len() ==> lo <= x[j] <= hi``; may mention ``x#len``)
    length: BinderPlan | None = None
    elem: BinderPlan | None = None
    perm_of: list[Expr] = field(default_factory=list)  # x.to_multiset() == e.to_multiset(): x permutes e
    nonneg_only: list[tuple[Expr, bool]] = field(default_factory=list)  # bounds valid only if x >= 0 by type
    monotone: str | None = None  # sequence binders: "strict"/"weak" increasing (see seq_shapes)
    sum_to: list[Expr] = field(default_factory=list)  # sequence binders: sum(x) == e (see seq_sums)
    pins: list[tuple[Expr, Expr, str]] = field(default_factory=list)  # sequence binders: x[index] == value
    path: Any = None  # sequence binders: a path predicate (``seq_paths.PathShape``)
    walk: Any = None  # sequence binders: a path predicate with length conditions (``seq_walks``)
    cover: Any = None  # order-free sequence binders: an additive vector equation (``seq_covers``)
    choices: list[tuple[str, list[Expr]]] = field(default_factory=list)  # x[i] in {e1(i), ...} (seq_choices)
    enum_guards: list[tuple[Call, int]] = field(default_factory=list)  # G(.., x, ..) (enum_domains)
    sum_caps: list[Expr] = field(default_factory=list)  # forall: sum(x) <= e in counterexamples (seq_sumcaps)
    order_free: bool = False  # sequence binders: the body ignores the order (seq_multisets)
    tuple_fields: list[BinderPlan] | None = None  # tuple elements: bounds of each field (seq_multisets)


class _Opaque(Exception):
    pass


def free_vars(e: Expr) -> set[str]:
    """Single-segment names used free in ``e``."""
    out: set[str] = set()
    _fv(e, frozenset(), out)
    return out


def _fv(e: Expr, bound: frozenset[str], out: set[str]) -> None:
    if isinstance(e, Path):
        if e.is_local and e.name not in bound:
            out.add(e.name)
    elif isinstance(e, Quant):
        _fv(e.body, bound | {n for n, _ in e.binders}, out)
    elif isinstance(e, Closure):
        _fv(e.body, bound | {n for n, _ in e.params}, out)
    elif isinstance(e, Block):
        b = bound
        for let in e.lets:
            _fv(let.value, b, out)
            b = b | _pat_names(let.pat)
        _fv(e.tail, b, out)
    elif isinstance(e, Match):
        _fv(e.scrutinee, bound, out)
        for pat, guard, body in e.arms:
            b = bound | _pat_names(pat)
            if guard is not None:
                _fv(guard, b, out)
            _fv(body, b, out)
    else:
        for c in _children(e):
            _fv(c, bound, out)


def _pat_names(p: object) -> frozenset[str]:
    from .ast import PBind, PTuple, PVariant

    if isinstance(p, PBind):
        return frozenset({p.name})
    if isinstance(p, PTuple):
        return frozenset().union(*(_pat_names(x) for x in p.items)) if p.items else frozenset()
    if isinstance(p, PVariant):
        names: frozenset[str] = frozenset()
        for x in p.items:
            names |= _pat_names(x)
        for _, x in p.named or ():
            names |= _pat_names(x)
        return names
    return frozenset()


def _children(e: Expr) -> list[Expr]:
    if isinstance(e, Call):
        return [e.func, *e.args]
    if isinstance(e, MethodCall):
        return [e.recv, *e.args]
    if isinstance(e, Field | View):
        return [e.obj]
    if isinstance(e, Index):
        return [e.obj, e.index]
    if isinstance(e, Unary):
        return [e.expr]
    if isinstance(e, Binary):
        return [e.lhs, e.rhs]
    if isinstance(e, Chain):
        return list(e.operands)
    if isinstance(e, Cast):
        return [e.expr]
    if isinstance(e, If):
        return [e.cond, e.then] + ([e.else_] if e.else_ is not None else [])
    if isinstance(e, Tuple | SeqLit):
        return list(e.items)
    if isinstance(e, StructLit):
        return [v for _, v in e.fields]
    return []


def _all_children(e: Expr) -> list[Expr]:
    """``_children`` plus the insides of binding constructs, blocks and matches (for scans that only
    ask whether a name is used, not what it is bound to)."""
    if isinstance(e, Quant | Closure):
        return [e.body]
    if isinstance(e, Block):
        return [let.value for let in e.lets] + [e.tail]
    if isinstance(e, Match):
        out = [e.scrutinee]
        for _, guard, body in e.arms:
            out += ([guard] if guard is not None else []) + [body]
        return out
    return _children(e)


def substitute(e: Expr, mapping: dict[str, Expr]) -> Expr:
    """``e`` with free names replaced; raises ``_Opaque`` on binding constructs (not needed for bounds)."""
    if isinstance(e, Path):
        if e.is_local and e.name in mapping:
            return mapping[e.name]
        return e
    if isinstance(e, Lit):
        return e
    if isinstance(e, Quant | Closure):
        names = {n for n, _ in (e.binders if isinstance(e, Quant) else e.params)}
        inner = _inner_mapping(mapping, names)
        if isinstance(e, Quant):
            return Quant(e.kind, e.binders, substitute(e.body, inner), e.line)
        return Closure(e.params, substitute(e.body, inner), e.line)
    if isinstance(e, Block):
        lets = []
        cur = mapping
        for let in e.lets:
            lets.append(Let(let.pat, let.type, substitute(let.value, cur)))
            cur = _inner_mapping(cur, set(_pat_names(let.pat)))
        return Block(tuple(lets), substitute(e.tail, cur), e.line)
    if isinstance(e, Match):
        arms = []
        for pat, guard, body in e.arms:
            inner = _inner_mapping(mapping, set(_pat_names(pat)))
            arms.append(
                (pat, substitute(guard, inner) if guard is not None else None, substitute(body, inner))
            )
        return Match(substitute(e.scrutinee, mapping), tuple(arms), e.line)
    if isinstance(e, Call):
        return Call(substitute(e.func, mapping), tuple(substitute(a, mapping) for a in e.args), e.line)
    if isinstance(e, MethodCall):
        return MethodCall(
            substitute(e.recv, mapping), e.name, tuple(substitute(a, mapping) for a in e.args), e.line
        )
    if isinstance(e, Field):
        return Field(substitute(e.obj, mapping), e.name, e.line)
    if isinstance(e, View):
        return View(substitute(e.obj, mapping), e.line)
    if isinstance(e, Index):
        return Index(substitute(e.obj, mapping), substitute(e.index, mapping), e.line)
    if isinstance(e, Unary):
        return Unary(e.op, substitute(e.expr, mapping), e.line)
    if isinstance(e, Binary):
        return Binary(e.op, substitute(e.lhs, mapping), substitute(e.rhs, mapping), e.line)
    if isinstance(e, Chain):
        return Chain(e.ops, tuple(substitute(x, mapping) for x in e.operands), e.line)
    if isinstance(e, Cast):
        return Cast(substitute(e.expr, mapping), e.type, e.line)
    if isinstance(e, If):
        els = substitute(e.else_, mapping) if e.else_ is not None else None
        return If(substitute(e.cond, mapping), substitute(e.then, mapping), els, e.line)
    if isinstance(e, Tuple):
        return Tuple(tuple(substitute(x, mapping) for x in e.items), e.line)
    if isinstance(e, SeqLit):
        return SeqLit(tuple(substitute(x, mapping) for x in e.items), e.line)
    raise _Opaque


def _inner_mapping(mapping: dict[str, Expr], bound: set[str]) -> dict[str, Expr]:
    """The mapping under binders ``bound``: shadowed names drop out; capture is refused."""
    inner = {k: v for k, v in mapping.items() if k not in bound}
    for v in inner.values():
        if free_vars(v) & bound:
            raise _Opaque
    return inner


_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def conjuncts(e: Expr, kind: str, inline: Inliner | None, depth: int = 0) -> list[Expr]:
    """The conjuncts that must hold for the body to matter (antecedents for ``forall``)."""
    out: list[Expr] = []
    if kind == "forall":
        body = e
        while isinstance(body, Binary) and body.op in ("==>", "<=="):
            ante = body.lhs if body.op == "==>" else body.rhs
            out.extend(_flatten_and(ante, inline, depth))
            body = body.rhs if body.op == "==>" else body.lhs
        if isinstance(body, Unary) and body.op == "!":  # forall x. !(A && B): the body holds outside A and B
            out.extend(_flatten_and(body.expr, inline, depth))
        return out
    return _flatten_and(e, inline, depth)


def _flatten_and(e: Expr, inline: Inliner | None, depth: int) -> list[Expr]:
    if isinstance(e, Binary) and e.op == "&&":
        return _flatten_and(e.lhs, inline, depth) + _flatten_and(e.rhs, inline, depth)
    if isinstance(e, Block) and e.lets:
        # ``let n = e; A && B`` (a helper's body) is ``A && B`` with n replaced by e: spec expressions
        # are pure, so the conjuncts are the tail's with the lets substituted
        tail = _let_free(e)
        if tail is not None:
            return _flatten_and(tail, inline, depth)
    if isinstance(e, Call) and inline is not None and depth < _MAX_INLINE:
        body = inline(e)
        if body is not None:
            return [e, *_flatten_and(body, inline, depth + 1)]
    return [e]


def _let_free(e: Block) -> Expr | None:
    """The block's tail with its simple ``let x = v;`` bindings substituted (None: another pattern,
    or a substitution that would capture a name)."""
    from .ast import PBind

    mapping: dict[str, Expr] = {}
    try:
        for let in e.lets:
            if not isinstance(let.pat, PBind):
                return None
            value = substitute(let.value, mapping) if mapping else let.value
            mapping = {**mapping, let.pat.name: value}
        return substitute(e.tail, mapping)
    except _Opaque:
        return None


def _relations(atom: Expr) -> list[tuple[str, Expr, Expr, bool]]:
    """(kind, a, b, strict) with kind "le" (a < b or a <= b) or "eq" (a == b)."""
    if not isinstance(atom, Chain):
        return []
    ops, xs = atom.ops, atom.operands
    out: list[tuple[str, Expr, Expr, bool]] = []
    if len(ops) == 1 and ops[0] == "==":
        return [("eq", xs[0], xs[1], False)]
    for p in range(len(xs)):
        for q in range(p + 1, len(xs)):
            seg = ops[p:q]
            if all(o in ("<", "<=") for o in seg):
                out.append(("le", xs[p], xs[q], any(o == "<" for o in seg)))
            elif all(o in (">", ">=") for o in seg):
                out.append(("le", xs[q], xs[p], any(o == ">" for o in seg)))
    return out


def _strip_int_cast(e: Expr) -> Expr:
    while isinstance(e, Cast) and isinstance(e.type, TCon) and e.type.name in ("int", "nat"):
        e = e.expr
    return e


_EXPAND: list[Inliner] = []  # set while planning: expands calls of simple value-returning spec fns


def _linear(e: Expr, sign: int = 1, depth: int = 0) -> list[tuple[int, Expr]]:
    """``e`` as a sum of (coefficient, term); terms that are not sums/differences/constant multiples stay whole."""
    e = _strip_int_cast(e)
    if isinstance(e, Call) and _EXPAND and depth < _MAX_INLINE:
        body = _EXPAND[-1](e)
        if body is not None:
            return _linear(body, sign, depth + 1)
    if isinstance(e, Binary) and e.op == "+":
        return _linear(e.lhs, sign) + _linear(e.rhs, sign)
    if isinstance(e, Binary) and e.op == "-":
        return _linear(e.lhs, sign) + _linear(e.rhs, -sign)
    if isinstance(e, Unary) and e.op == "-":
        return _linear(e.expr, -sign)
    if isinstance(e, Binary) and e.op == "*":
        lhs, rhs = _strip_int_cast(e.lhs), _strip_int_cast(e.rhs)
        if isinstance(lhs, Lit) and isinstance(lhs.value, int) and not isinstance(lhs.value, bool):
            return [(sign * lhs.value * c, t) for c, t in _linear(rhs)]
        if isinstance(rhs, Lit) and isinstance(rhs.value, int) and not isinstance(rhs.value, bool):
            return [(sign * rhs.value * c, t) for c, t in _linear(lhs)]
    if isinstance(e, Lit) and isinstance(e.value, int) and not isinstance(e.value, bool):
        return [(sign * e.value, Lit(1, "int"))]
    return [(sign, e)]


def _sum(terms: list[tuple[int, Expr]], line: int) -> Expr:
    acc: Expr = Lit(0, "int", line)
    for c, t in terms:
        if c == 0:
            continue
        mag = abs(c)
        term = t if mag == 1 else Binary("*", Lit(mag, "int", line), t, line)
        acc = Binary("+" if c > 0 else "-", acc, term, line)
    return acc


def _binder_of(t: Expr, names: list[str]) -> str | None:
    t = _strip_int_cast(t)
    if isinstance(t, Path) and t.is_local and t.name in names:
        return t.name
    return None


Bounds = dict[str, tuple[list[tuple[Expr, bool]], list[tuple[Expr, bool]]]]


def _derive(
    x: str,
    names: list[str],
    rels: list[tuple[str, Expr, Expr, bool]],
    allowed: set[str],
    closed: Bounds | None,
) -> BinderPlan:
    """Bounds of binder ``x`` from linear relations. ``allowed`` binders may stay in a bound;
    other binders of the quantifier are replaced by their ``closed`` bounds (None: not allowed)."""
    plan = BinderPlan(x, TCon("int"))
    quant = set(names)
    for kind, a, b, strict in rels:
        pairs = [(a, b)] if kind == "le" else [(a, b), (b, a)]
        for lhs, rhs in pairs:
            # x <= e / x  =>  x <= max(e, 1)  (for x > 0 it says x*x <= e; otherwise x < 1)
            r2 = _strip_int_cast(rhs)
            if (
                _binder_of(lhs, [x]) == x
                and isinstance(r2, Binary) and r2.op == "/" and _binder_of(r2.rhs, [x]) == x
                and x not in free_vars(r2.lhs) and not (free_vars(r2.lhs) & (quant - allowed))
            ):  # fmt: skip
                plan.uppers.append((Call(Path(("#max",)), (r2.lhs, Lit(1, "int"))), False))
                continue
            # lhs <= rhs (strict: <), i.e. sum(lhs) - sum(rhs) <= 0
            terms = _linear(lhs) + [(-c, t) for c, t in _linear(rhs)]
            cx = sum(c for c, t in terms if _binder_of(t, [x]) == x)
            growth = [(c, g) for c, t in terms if (g := _growth(t, x)) is not None]
            if cx == 0 and len(growth) == 1 and growth[0][0] > 0:
                _growth_bound(plan, x, names, terms, growth[0][1], allowed, quant)
                continue
            if cx == 0:
                _scaled_bound(plan, x, terms, strict, quant - allowed)
                _power_bound(plan, x, terms, strict, quant - allowed)
                continue
            rest: list[tuple[int, Expr]] = []
            ok = True
            # cx * x <= -sum(rest) =: bound. Whatever the sign of cx, a sound bound of x needs the
            # largest value the bound can take, so later binders are replaced by the bound maximising it.
            for c, t in terms:
                y = _binder_of(t, names)
                if y == x:
                    continue
                fv = free_vars(t)
                if x in fv:
                    ok = False
                    break
                if y is not None and y not in allowed:
                    if closed is None:
                        ok = False
                        break
                    lows, ups = closed[y]
                    # the term contributes -c*y to the bound; maximise (or minimise) it
                    use_upper = -c > 0
                    cands = ups if use_upper else lows
                    if not cands:
                        ok = False
                        break
                    bexpr, bstrict = cands[0]
                    adj = (-1 if bstrict else 0) if use_upper else (1 if bstrict else 0)
                    rest.append((c, Binary("+", bexpr, Lit(adj, "int"), 0) if adj else bexpr))
                    continue
                if fv & (quant - allowed - {x}):
                    ok = False
                    break
                rest.append((c, t))
            if not ok:
                continue
            bound = _sum([(-c, t) for c, t in rest], 0)  # cx * x <= bound  (strict: <)
            if strict:
                bound = Binary("-", bound, Lit(1, "int"), 0)
            strict_flag = False
            mag = abs(cx)
            if cx > 0:
                plan.uppers.append(
                    (bound if mag == 1 else Binary("/", bound, Lit(mag, "int"), 0), strict_flag)
                )
            else:
                # -mag * x <= bound  =>  x >= -bound / mag (Euclidean division rounds down: a looser bound)
                neg = Unary("-", bound, 0)
                plan.lowers.append((neg if mag == 1 else Binary("/", neg, Lit(mag, "int"), 0), strict_flag))
        if kind == "eq":
            for side, other in ((a, b), (b, a)):
                m, off, sign = _offset(side, x)
                if m:
                    target = _move(other, off, sign)
                    if not (free_vars(target) & (quant - allowed)) and x not in free_vars(target):
                        plan.fixed.append(target)
    return plan


def _growth(t: Expr, x: str) -> str | None:
    """``"sq"`` for ``x * x`` / ``pow(x, 2)``, ``"exp"`` for ``pow2(x)`` / ``pow(b, x)`` with b >= 2."""
    t = _strip_int_cast(t)
    if isinstance(t, Binary) and t.op == "*":
        if _binder_of(t.lhs, [x]) == x and _binder_of(t.rhs, [x]) == x:
            return "sq"
    if isinstance(t, Call) and isinstance(t.func, Path) and t.func.name in ("pow", "pow2"):
        args = [_strip_nat_cast(a) for a in t.args]
        if t.func.name == "pow2" and len(args) == 1 and _binder_of(args[0], [x]) == x:
            return "exp"
        if t.func.name == "pow" and len(args) == 2:
            base, ex = args
            if _binder_of(base, [x]) == x and isinstance(ex, Lit) and ex.value == 2:
                return "sq"
            if (
                _binder_of(ex, [x]) == x
                and isinstance(base, Lit)
                and isinstance(base.value, int)
                and base.value >= 2
            ):
                return "exp"
    return None


def _strip_nat_cast(e: Expr) -> Expr:
    while isinstance(e, Cast) and isinstance(e.type, TCon) and e.type.name in ("int", "nat"):
        e = e.expr
    return e


def _is_square(t: Expr, names: list[str]) -> bool:
    t = _strip_int_cast(t)
    if isinstance(t, Binary) and t.op == "*":
        a, b = _binder_of(t.lhs, names), _binder_of(t.rhs, names)
        return a is not None and a == b
    if isinstance(t, Call) and isinstance(t.func, Path) and t.func.name == "pow" and len(t.args) == 2:
        ex = t.args[1]
        return (
            isinstance(ex, Lit)
            and ex.value == 2
            and _binder_of(_strip_nat_cast(t.args[0]), names) is not None
        )
    return False


def _growth_bound(
    plan: BinderPlan, x: str, names: list[str], terms: list[tuple[int, Expr]], kind: str, allowed: set[str],
    quant: set[str],
) -> None:  # fmt: skip
    """``c * g(x) + rest <= 0`` with g growing at least linearly: bound x by ``-rest`` (loosely)."""
    rest: list[tuple[int, Expr]] = []
    for c, t in terms:
        if _growth(t, x) is not None:
            continue
        if x in free_vars(t):
            return
        if _is_square(t, names) and c > 0:
            continue  # c * y*y >= 0 only lowers the bound: dropping it keeps the bound sound
        if free_vars(t) & (quant - allowed - {x}):
            return
        rest.append((c, t))
    bound = _sum([(-c, t) for c, t in rest], 0)
    if kind == "sq":  # x*x <= B  =>  |x| <= max(B, 1)
        m = Call(Path(("#max",)), (bound, Lit(1, "int")))
        plan.uppers.append((m, False))
        plan.lowers.append((Unary("-", m), False))
    else:  # b^x >= x + 1 for x >= 0: sound when the binder's type makes it non-negative
        b = (bound, False)
        plan.uppers.append(b)
        plan.nonneg_only.append(b)


def _offset(e: Expr, x: str) -> tuple[bool, Expr | None, int]:
    """Is ``e`` the binder ``x`` plus an offset? Returns (match, offset expr, sign of offset)."""
    e = _strip_int_cast(e)
    if isinstance(e, Path) and e.is_local and e.name == x:
        return True, None, 0
    if isinstance(e, Binary) and e.op in ("+", "-"):
        lhs, rhs = _strip_int_cast(e.lhs), _strip_int_cast(e.rhs)
        if isinstance(lhs, Path) and lhs.is_local and lhs.name == x and x not in free_vars(e.rhs):
            return True, e.rhs, 1 if e.op == "+" else -1
        if (
            e.op == "+"
            and isinstance(rhs, Path)
            and rhs.is_local
            and rhs.name == x
            and x not in free_vars(e.lhs)
        ):
            return True, e.lhs, 1
    return False, None, 0


def _move(bound: Expr, off: Expr | None, sign: int) -> Expr:
    """From ``x + off REL bound`` to ``x REL bound - off``."""
    if off is None:
        return bound
    return Binary("-" if sign > 0 else "+", bound, off, getattr(bound, "line", 0))


def len_name(x: str) -> str:
    return f"{x}#len"


def _is_seq_var(e: Expr, x: str) -> bool:
    while isinstance(e, View):
        e = e.obj
    return isinstance(e, Path) and e.is_local and e.name == x


def _replace_len(e: Expr, x: str) -> Expr:
    """``e`` with ``x.len()`` / ``x@.len()`` replaced by the name ``x#len``."""
    if isinstance(e, MethodCall) and e.name == "len" and not e.args and _is_seq_var(e.recv, x):
        return Path((len_name(x),), e.line)
    if isinstance(e, Cast):
        return Cast(_replace_len(e.expr, x), e.type, e.line)
    if isinstance(e, Binary):
        return Binary(e.op, _replace_len(e.lhs, x), _replace_len(e.rhs, x), e.line)
    if isinstance(e, Unary):
        return Unary(e.op, _replace_len(e.expr, x), e.line)
    if isinstance(e, Chain):
        return Chain(e.ops, tuple(_replace_len(o, x) for o in e.operands), e.line)
    return e


def _unlined(e: Any) -> Any:
    """``e`` with every ``line`` set to 0 (for comparing expressions by structure)."""
    if isinstance(e, tuple):
        return tuple(_unlined(v) for v in e)
    if not dataclasses.is_dataclass(e) or isinstance(e, type):
        return e
    changes = {
        f.name: (0 if f.name == "line" else _unlined(getattr(e, f.name))) for f in dataclasses.fields(e)
    }
    return dataclasses.replace(e, **changes)


def _len_caps(len_rels: list[tuple[str, Expr, Expr, bool]], x: str) -> list[Any]:
    """Expressions ``e`` (line-free) with a conjunct ``x.len() == e``, ``x.len() <= e`` or ``x.len() < e``:
    a guard ``0 <= j < e`` then covers every index of ``x``."""
    lname = len_name(x)
    out: list[Any] = []
    for kind, a, b, _strict in len_rels:
        a_len = isinstance(a, Path) and a.name == lname
        b_len = isinstance(b, Path) and b.name == lname
        if a_len and not b_len and lname not in free_vars(b):
            out.append(_unlined(b))
        elif kind == "eq" and b_len and not a_len and lname not in free_vars(a):
            out.append(_unlined(a))
    return out


def _elem_relations(
    atoms: list[Expr], x: str, inline: Inliner | None, caps: list[Any] | None = None
) -> list[tuple[str, Expr, Expr, bool]]:
    """Relations on ``x[j]`` (renamed ``x#elem``) from ``forall|j| 0 <= j < x.len() ==> …`` conjuncts
    (or ``0 <= j < e`` where ``caps`` says ``x.len() <= e``: the guard still covers every element)."""
    out: list[tuple[str, Expr, Expr, bool]] = []
    caps = caps or []
    elem = Path((f"{x}#elem",))
    for a in atoms:
        if not (isinstance(a, Quant) and a.kind == "forall" and len(a.binders) == 1):
            continue
        j = a.binders[0][0]
        body = a.body
        if not (isinstance(body, Binary) and body.op == "==>"):
            continue
        ante = _replace_len(body.lhs, x)
        # the antecedent must be exactly ``0 <= j < x.len()`` (so the bound covers every element)
        if not (
            isinstance(ante, Chain)
            and ante.ops in (("<=", "<"),)
            and isinstance(ante.operands[0], Lit) and ante.operands[0].value == 0
            and isinstance(ante.operands[1], Path) and ante.operands[1].name == j
            and (
                (isinstance(ante.operands[2], Path) and ante.operands[2].name == len_name(x))
                or (j not in free_vars(ante.operands[2]) and _unlined(ante.operands[2]) in caps)
            )
        ):  # fmt: skip
            continue

        def rename(e: Expr, j: str = j) -> Expr:
            e2 = _strip_int_cast(e)
            if (
                isinstance(e2, Index)
                and _is_seq_var(e2.obj, x)
                and isinstance(e2.index, Path)
                and e2.index.name == j
            ):
                return elem
            return _replace_len(e, x)

        for c in _flatten_and(body.rhs, inline, 0):
            for kind, lhs, rhs, strict in _relations(c):
                lhs2, rhs2 = rename(lhs), rename(rhs)
                if elem in (lhs2, rhs2) and j not in free_vars(lhs2) | free_vars(rhs2):
                    out.append((kind, lhs2, rhs2, strict))
    return out


def _is_index_of(e: Expr, x: str, j: str) -> bool:
    e = _strip_int_cast(e)
    return isinstance(e, Index) and _is_seq_var(e.obj, x) and isinstance(e.index, Path) and e.index.name == j


def _has_distinct(atoms: list[Expr], x: str) -> bool:
    """Is there a conjunct ``forall|k, l| 0 <= k < l < x.len() ==> x[k] != x[l]`` (also ``<``/``>``:
    strictly monotone sequences are pairwise distinct)?"""
    for a in atoms:
        if not (isinstance(a, Quant) and a.kind == "forall" and len(a.binders) == 2):
            continue
        body = a.body
        if not (isinstance(body, Binary) and body.op == "==>"):
            continue
        ante, concl = _replace_len(body.lhs, x), body.rhs
        if not (
            isinstance(ante, Chain) and ante.ops == ("<=", "<", "<")
            and isinstance(ante.operands[0], Lit) and ante.operands[0].value == 0
            and isinstance(ante.operands[3], Path) and ante.operands[3].name == len_name(x)
            and isinstance(ante.operands[1], Path) and isinstance(ante.operands[2], Path)
        ):  # fmt: skip
            continue
        k, m = ante.operands[1].name, ante.operands[2].name
        if {k, m} != {n for n, _ in a.binders} or k == m:
            continue
        if (
            isinstance(concl, Chain) and len(concl.ops) == 1 and concl.ops[0] in ("!=", "<", ">")
            and {_is_index_of(concl.operands[0], x, k), _is_index_of(concl.operands[1], x, m)} == {True}
        ) or (
            isinstance(concl, Chain) and len(concl.ops) == 1 and concl.ops[0] in ("!=", "<", ">")
            and {_is_index_of(concl.operands[0], x, m), _is_index_of(concl.operands[1], x, k)} == {True}
        ):  # fmt: skip
            return True
    return False


def _distinct_cap(ep: BinderPlan, lname: str, banned: set[str]) -> Expr | None:
    """Pairwise distinct elements within ``[lo, hi]`` (bounds free of the length and of later binders):
    the length is at most ``hi - lo + 1`` (pigeonhole)."""
    los = [(b, st) for b, st in ep.lowers if not (free_vars(b) & (banned | {lname}))]
    his = [
        (b, st)
        for b, st in ep.uppers
        if not (free_vars(b) & (banned | {lname})) and all(b is not n for n, _ in ep.nonneg_only)
    ]
    if not los or not his:
        return None
    (lo, slo), (hi, shi) = los[0], his[0]
    return Binary("+", Binary("-", hi, lo), Lit(1 - int(slo) - int(shi), "int"))


def _is_seq_type(t: Type) -> bool:
    return isinstance(t, TCon) and t.name in ("Seq", "Vec") and len(t.args) == 1


_FN_OF: list[Any] = []  # set while planning: a call -> its spec fn (or None)


def plan_quantifier(
    q: Quant, inline: Inliner | None = None, expand: Inliner | None = None, fn_of: Any = None
) -> list[BinderPlan]:
    """``fn_of`` (a call -> its spec fn, or None) lets sequence binders find counting permutations."""
    if expand is not None:
        _EXPAND.append(expand)
    try:
        if inline is not None:
            _INLINE.append(inline)
        _FN_OF.append(fn_of)
        try:
            return _plan_quantifier(q, inline, fn_of)
        finally:
            _FN_OF.pop()
            if inline is not None:
                _INLINE.pop()
    finally:
        if expand is not None:
            _EXPAND.pop()


def negated_consequent(q: Quant) -> Expr | None:
    """For ``forall|..| A ==> a <= b`` (one comparison as the consequent): ``a > b``. Only instances where
    the consequent is false can be counterexamples, so this atom bounds the binders too
    (``forall|m| P(m) ==> r <= m`` needs only ``m < r``)."""
    if q.kind != "forall":
        return None
    body = q.body
    seen_ante = False
    while isinstance(body, Binary) and body.op in ("==>", "<=="):
        seen_ante = True
        body = body.rhs if body.op == "==>" else body.lhs
    if seen_ante and isinstance(body, Call) and _INLINE:  # a boolean helper wrapping one comparison
        inlined = _INLINE[-1](body)
        if inlined is not None:
            body = inlined
    if seen_ante and isinstance(body, Chain) and len(body.ops) == 1 and body.ops[0] in _NEGATE:
        return Chain((_NEGATE[body.ops[0]],), body.operands, body.line)
    return None


_INLINE: list[Inliner] = []  # set while planning: the boolean spec fn inliner


def _plan_quantifier(q: Quant, inline: Inliner | None, fn_of: Any = None) -> list[BinderPlan]:
    names = [n for n, _ in q.binders]
    atoms = conjuncts(q.body, "exists" if q.kind in ("exists", "choose") else "forall", inline)
    rels: list[tuple[str, Expr, Expr, bool]] = []
    for a in atoms:
        rels.extend(_relations(a))
    plans = _plan_scalars(q, names, rels)
    neg = negated_consequent(q)
    if neg is not None:
        # the negated consequent is used for a scalar binder only where it closes a range left open
        # (one-sided or unbounded stays with the other strategies, e.g. equality-only stand-ins)
        wider = _plan_scalars(q, names, rels + _relations(neg))
        for k, (p0, p1) in enumerate(zip(plans, wider)):
            if not p0.fixed and not (p0.lowers and p0.uppers) and p1.lowers and p1.uppers:
                plans[k] = p1
    for k, (x, t) in enumerate(q.binders):
        if not _is_seq_type(t):
            plans[k].enum_guards = enum_domains.guard_calls(atoms, x)
            continue
        allowed = set(names[:k])
        lname = len_name(x)
        len_rels = [(kd, _replace_len(a, x), _replace_len(b, x), st) for kd, a, b, st in rels]
        lp = _derive(lname, [*names, lname], len_rels, allowed, None)
        if neg is not None and not lp.uppers and not lp.fixed:
            lp = seq_lengths.with_negated_consequent(lp, neg, x, [*names, lname], allowed, len_rels)
        lp.type = TCon("nat")
        ename = f"{x}#elem"
        ep = _derive(
            ename,
            [*names, lname, ename],
            _elem_relations(atoms, x, inline, _len_caps(len_rels, x)),
            allowed | {lname},
            None,
        )
        ep.type = t.args[0]  # type: ignore[union-attr]
        if _has_distinct(atoms, x):
            cap = _distinct_cap(ep, lname, set(names) - allowed)
            if cap is not None:
                lp.uppers.append((cap, False))
        plans[k].length = lp
        plans[k].elem = ep
        plans[k].perm_of = _perm_sources(atoms, x, set(names) - allowed)
        if fn_of is not None:
            plans[k].perm_of += seq_perms.count_perm_sources(atoms, x, t.args[0], set(names) - allowed, fn_of)  # type: ignore[union-attr]
            plans[k].sum_to = seq_sums.sum_targets(atoms, x, set(names) - allowed, fn_of)
            plans[k].sum_to += seq_sumcaps.range_sum_targets(atoms, x, set(names) - allowed, fn_of)
            plans[k].sum_caps = seq_sumcaps.sum_caps(neg, x, set(names) - allowed, fn_of)
        plans[k].monotone = seq_shapes.monotone(atoms, x)
        plans[k].pins = seq_shapes.pins(atoms, x, set(names) - allowed)
        plans[k].choices = seq_choices.choice_sets(
            atoms, x, inline, _len_caps(len_rels, x), set(names) - allowed
        )
        if len(names) == 1 and fn_of is not None and seq_multisets.order_free(q.body, x, fn_of):
            plans[k].order_free = True
            et = t.args[0]  # type: ignore[union-attr]
            if isinstance(et, TCon) and et.name == "Tuple":
                plans[k].tuple_fields = seq_multisets.element_plans(atoms, x, len(et.args), inline)
            plans[k].cover = seq_covers.plan_cover(plans[k], atoms, x, fn_of)
        if len(names) == 1:
            plans[k].path = seq_paths.path_shape(q.body, q.kind, x, inline)
            if plans[k].path is None:
                plans[k].walk = seq_walks.walk_shape(q.body, q.kind, x, inline)
    return plans


from . import (  # noqa: E402  (they import helpers of this module)
    enum_domains,
    seq_choices,
    seq_covers,
    seq_lengths,
    seq_multisets,
    seq_paths,
    seq_perms,
    seq_shapes,
    seq_sumcaps,
    seq_sums,
    seq_walks,
)


def _perm_sources(atoms: list[Expr], x: str, banned: set[str]) -> list[Expr]:
    """Sequences ``e`` with a conjunct ``x.to_multiset() =~= e.to_multiset()`` (either side)."""
    out: list[Expr] = []
    for a in atoms:
        if not (isinstance(a, Chain) and len(a.ops) == 1 and a.ops[0] in ("==", "=~=", "=~~=", "===")):
            continue
        sides = [a.operands[0], a.operands[1]]
        if not all(isinstance(e, MethodCall) and e.name == "to_multiset" and not e.args for e in sides):
            continue
        recvs = [e.recv for e in sides]  # type: ignore[union-attr]
        for me, other in ((recvs[0], recvs[1]), (recvs[1], recvs[0])):
            if _is_seq_var(me, x) and not (free_vars(other) & banned):
                out.append(other)
    return out


def _plan_scalars(q: Quant, names: list[str], rels: list[tuple[str, Expr, Expr, bool]]) -> list[BinderPlan]:
    types = dict(q.binders)

    def valid(x: str, p: BinderPlan) -> tuple[list[tuple[Expr, bool]], list[tuple[Expr, bool]]]:
        # a bound that holds only for x >= 0 is dropped unless x's type makes it so, also before it
        # is substituted into another binder's bounds (a wrong bound would shrink a domain)
        if p.nonneg_only and not _unsigned(types.get(x)):
            return p.lowers, [b for b in p.uppers if all(b is not n for n in p.nonneg_only)]
        return p.lowers, p.uppers

    # bounds that mention no binder of this quantifier, for substituting later binders
    closed: Bounds = {}
    for x in names:
        closed[x] = valid(x, _derive(x, names, rels, set(), None))
    # then bounds through chains of other binders (0 <= l < peak < r: r > l + 1 > 0), a round per binder;
    # each round substitutes the previous round's closed bounds, so every bound stays closed
    for _ in range(len(names) - 1):
        closed = {x: valid(x, _derive(x, names, rels, set(), closed)) for x in names}
    plans: list[BinderPlan] = []
    for k, (x, t) in enumerate(q.binders):
        p = _derive(x, names, rels, set(names[:k]), closed)
        p.type = t
        _divisor_bounds(p, x, set(names), rels)
        p.lowers, p.uppers = valid(x, p)
        plans.append(p)
    return plans


def _unsigned(t: Any) -> bool:
    return isinstance(t, TCon) and (t.name == "nat" or t.name.startswith("u"))


def _divisor_bounds(p: BinderPlan, x: str, quant: set[str], rels: list[tuple[str, Expr, Expr, bool]]) -> None:
    """``e % x == 0`` (x divides e, binder-free e): ``|x| <= |e|`` unless e is 0. The bound is the
    builtin ``#divcap(e)``, which gives no bound (None) when e evaluates to 0."""
    for kind, a, b, _strict in rels:
        if kind != "eq":
            continue
        for lhs, rhs in ((a, b), (b, a)):
            lhs, rhs = _strip_int_cast(lhs), _strip_int_cast(rhs)
            if not (isinstance(rhs, Lit) and rhs.value == 0 and not isinstance(rhs.value, bool)):
                continue
            if not (isinstance(lhs, Binary) and lhs.op == "%" and _binder_of(lhs.rhs, [x]) == x):
                continue
            if free_vars(lhs.lhs) & quant:
                continue
            cap = Call(Path(("#divcap",)), (lhs.lhs,))
            p.uppers.append((cap, False))
            p.lowers.append((Call(Path(("#neg",)), (cap,)), False))  # keeps "no bound" (None) as is


def _scale_of(t: Expr, x: str, quant: set[str]) -> Expr | None:
    """``e`` when ``t`` is ``e * x`` or ``x * e`` with ``e`` free of the quantifier's binders."""
    t = _strip_int_cast(t)
    if not (isinstance(t, Binary) and t.op == "*"):
        return None
    for a, b in ((t.lhs, t.rhs), (t.rhs, t.lhs)):
        if _binder_of(b, [x]) == x and not (free_vars(a) & (quant | {x})):
            return a
    return None


def _scaled_bound(
    plan: BinderPlan, x: str, terms: list[tuple[int, Expr]], strict: bool, banned: set[str]
) -> None:
    """``c * e * x + rest <= 0`` (``<``) with a binder-free factor ``e`` of unknown sign: the bound
    ``x <= floor(B / (c*e))`` (or ``>= ceil``), B = -rest, through builtins that give no bound (None)
    unless the divisor is positive when evaluated."""
    scaled = [(c, e) for c, t in terms if (e := _scale_of(t, x, banned | {x})) is not None]
    if len(scaled) != 1:
        return
    c, e = scaled[0]
    rest = [(c2, t2) for c2, t2 in terms if _scale_of(t2, x, banned | {x}) is None]
    if any(free_vars(t2) & (banned | {x}) for _, t2 in rest):
        return
    bound = _sum([(-c2, t2) for c2, t2 in rest], 0)
    if strict:
        bound = Binary("-", bound, Lit(1, "int"), 0)
    if c > 0:  # c*e*x <= B: x <= floor(B / (c*e)) when c*e > 0
        plan.uppers.append((Call(Path(("#floordiv_pos",)), (bound, Binary("*", Lit(c, "int"), e))), False))
    else:  # (-c)*e*x >= -B: x >= ceil(-B / ((-c)*e)) when e > 0
        neg = Unary("-", bound, 0)
        plan.lowers.append((Call(Path(("#ceildiv_pos",)), (neg, Binary("*", Lit(-c, "int"), e))), False))


def _is_power_fn(fn: Any) -> bool:
    """``f(a, k) = if k <= 0 { 1 } else { a * f(a, k - 1) }`` (either factor order): ``a`` to the ``k``."""
    if fn is None or fn.body is None or len(fn.params) != 2:
        return False
    a, k = fn.params[0][0], fn.params[1][0]
    b = fn.body
    if not (isinstance(b, If) and b.else_ is not None):
        return False
    c, one, e = b.cond, _strip_int_cast(b.then), _strip_int_cast(b.else_)
    if not (isinstance(c, Chain) and c.ops == ("<=",) and _binder_of(c.operands[0], [k]) == k):
        return False
    zero = _strip_int_cast(c.operands[1])
    if not (isinstance(zero, Lit) and zero.value == 0 and isinstance(one, Lit) and one.value == 1):
        return False
    if not (isinstance(e, Binary) and e.op == "*"):
        return False
    for base, rec in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
        rec = _strip_int_cast(rec)
        if _binder_of(base, [a]) != a or not (isinstance(rec, Call) and isinstance(rec.func, Path)):
            continue
        if rec.func.name != fn.name or len(rec.args) != 2 or _binder_of(rec.args[0], [a]) != a:
            continue
        dec = _strip_int_cast(rec.args[1])
        if (
            isinstance(dec, Binary) and dec.op == "-" and _binder_of(dec.lhs, [k]) == k
            and isinstance(_strip_int_cast(dec.rhs), Lit) and _strip_int_cast(dec.rhs).value == 1  # type: ignore[union-attr]
        ):  # fmt: skip
            return True
    return False


def _power_bound(
    plan: BinderPlan, x: str, terms: list[tuple[int, Expr]], strict: bool, banned: set[str]
) -> None:
    """``c * pow(e, x) + rest <= 0`` (``<``) with a recognised power fn, c > 0 and binder-free ``e`` and
    rest: ``x <= log_e((-rest) / c)`` through ``#logcap``, which gives no bound unless ``e >= 2`` and the
    right side is at least ``c`` when evaluated (the power is 1 for every ``x <= 0``)."""
    if not _FN_OF or _FN_OF[-1] is None:
        return
    powers: list[tuple[int, Expr]] = []
    rest: list[tuple[int, Expr]] = []
    for c, t in terms:
        t2 = _strip_int_cast(t)
        if x not in free_vars(t2):
            if free_vars(t2) & banned:
                return
            rest.append((c, t))
            continue
        if not (isinstance(t2, Call) and len(t2.args) == 2 and _binder_of(t2.args[1], [x]) == x):
            return
        if free_vars(t2.args[0]) & (banned | {x}) or not _is_power_fn(_FN_OF[-1](t2)):
            return
        powers.append((c, t2.args[0]))
    if len(powers) != 1 or powers[0][0] <= 0:
        return
    c, base = powers[0]
    bound = _sum([(-c2, t2) for c2, t2 in rest], 0)
    if strict:
        bound = Binary("-", bound, Lit(1, "int"), 0)
    plan.uppers.append((Call(Path(("#logcap",)), (base, bound, Lit(c, "int"))), False))
