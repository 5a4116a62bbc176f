"""Quantifiers over Nat/Int without a syntactic bound: sound finite reductions, then random search.

``quant.find_domain`` handles bounds written in the source (``i < n``, ``x ∈ xs``,
``x = e``). What remains (``∃ k : Int, n = 11 * k``, ``∃ i, i * i = n``,
``∃ m, n = 4 ^ m``, ``∃ i, a / 10 ^ i % 10 = 8``) is reduced here to a finite
candidate set that provably contains every value that matters:

* **support** — a conjunct of an ``∃`` body, a hypothesis of a ``∀`` body, or
  the negated body ``¬ E`` of a ``∀``, that is an equation ``e(x) = t`` with
  ``t`` free of ``x``. The proposition can only hold where the equation does:
  - ``e`` linear (``c * x + d``, ``c ≠ 0``, no truncating Nat subtraction):
    the one candidate ``(t - d) / c`` when it divides exactly;
  - ``e`` strictly increasing on Nat (sums, products, powers with constant
    base ≥ 2, and user functions of the form ``f b 0 = c₀``,
    ``f b (n+1) = b * f b n`` with literal ``b ≥ 2``, ``c₀ ≥ 1``):
    the one candidate found by exponential then binary search.
* **stabilisation** — every occurrence of ``x`` sits in a Nat quotient
  ``a / g(x)`` with ``a`` free of ``x`` and ``g`` strictly increasing: for
  ``x ≥ K`` (the first ``x`` with ``g(x) > a``) each quotient is 0, so the
  body is constant from ``K`` on and ``0 … K`` decides the quantifier.

Anything else gets a seeded random search that can only prove ``∀`` FALSE
(a counterexample) or ``∃`` TRUE (a witness); when it finds neither it raises
``Undecided`` — an UNKNOWN, never a guess.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from veriscale.values.types import TCon, TFun, Type

from ..elab import ir
from ..errors import LimitExceeded, Undecided
from .freevars import free_vars

__all__ = ["Plan", "plan_unbounded", "runtime_helpers"]

# Random search: first every small value, then values of growing magnitude.
_SMALL = 64
_RANDOM_TRIES = 1000
_SEED = 0x5EED


@dataclass(slots=True)
class Plan:
    kind: str  # "linear" | "monotone" | "stable" | "random"
    coef: int = 0
    target: ir.Node | None = None
    terms: list[tuple[int, ir.Node]] = field(default_factory=list)
    fn: ir.Lam | None = None
    pairs: list[tuple[ir.Node, ir.Lam]] = field(default_factory=list)
    reason: str = ""


def _tname(t: Type) -> str | None:
    return t.name if isinstance(t, TCon) else None


def _strip(n: Any) -> Any:
    while True:
        if isinstance(n, ir.Coe) and n.kind in ("nat_int", "id", "bool_prop", "prop_bool"):
            n = n.expr
        elif isinstance(n, ir.Postponed) and n.node is not None:
            n = n.node
        else:
            return n


def _mentions(n: Any, var: str) -> bool:
    return var in free_vars(n)


def _num(n: Any) -> int | None:
    n = _strip(n)
    if isinstance(n, ir.Num) and n.text is None:
        return n.value
    if isinstance(n, ir.Lit) and isinstance(n.value, int) and not isinstance(n.value, bool):
        return n.value
    return None


def _is_var(n: Any, var: str) -> bool:
    n = _strip(n)
    return isinstance(n, ir.Var) and n.name == var


def _conjuncts(n: Any) -> list[Any]:
    n = _strip(n)
    if isinstance(n, ir.Prim) and n.op == "and":
        return _conjuncts(n.args[0]) + _conjuncts(n.args[1])
    return [n]


# ------------------------------------------------------------------ linear forms


def _linear(e: Any, var: str) -> tuple[int, list[tuple[int, Any]]] | None:
    """``e = c * var + Σ kᵢ * dᵢ`` with integer ``c``; ``None`` if not of that shape."""
    e = _strip(e)
    if not _mentions(e, var):
        return (0, [(1, e)])
    if _is_var(e, var):
        return (1, [])
    if not isinstance(e, ir.Prim):
        return None
    nat = _tname(e.opty) == "Nat"
    if e.op in ("add", "sub"):
        if e.op == "sub" and nat:
            return None  # truncating subtraction is not linear
        a, b = _linear(e.args[0], var), _linear(e.args[1], var)
        if a is None or b is None:
            return None
        s = 1 if e.op == "add" else -1
        return (a[0] + s * b[0], a[1] + [(s * k, d) for k, d in b[1]])
    if e.op == "neg":
        a = _linear(e.args[0], var)
        return None if a is None else (-a[0], [(-k, d) for k, d in a[1]])
    if e.op == "mul":
        for lit_side, other in ((0, 1), (1, 0)):
            c = _num(e.args[lit_side])
            if c is not None:
                a = _linear(e.args[other], var)
                if a is None:
                    return None
                return (c * a[0], [(c * k, d) for k, d in a[1]])
    return None


# --------------------------------------------------------- monotone expressions


def _geometric(g: Any) -> tuple[int, int, int] | None:
    """A user function ``f`` with ``f … 0 … = c₀`` and ``f … (n+1) … = b * f … n …``:
    returns (index of the base parameter, index of the exponent parameter, c₀)."""
    body = _strip(getattr(g, "body", None))
    names = list(getattr(g, "param_pynames", []) or [])
    if not isinstance(body, ir.Match) or len(body.discrs) != 1 or len(body.arms) != 2:
        return None
    d = _strip(body.discrs[0])
    if not isinstance(d, ir.Var) or d.name not in names:
        return None
    j = names.index(d.name)
    base_arm, step_arm = body.arms
    if len(base_arm.pats) != 1 or not isinstance(base_arm.pats[0], ir.PLit) or base_arm.pats[0].value != 0:
        return None
    c0 = _num(base_arm.rhs)
    if c0 is None or c0 < 1:
        return None
    p = step_arm.pats[0] if len(step_arm.pats) == 1 else None
    if not (isinstance(p, ir.PSucc) and p.k == 1 and isinstance(p.pat, ir.PVar)):
        return None
    m = p.pat.name
    rhs = _strip(step_arm.rhs)
    if not (isinstance(rhs, ir.Prim) and rhs.op == "mul"):
        return None
    for bi, ri in ((0, 1), (1, 0)):
        b, rec = _strip(rhs.args[bi]), _strip(rhs.args[ri])
        if not (isinstance(b, ir.Var) and b.name in names and b.name != d.name):
            continue
        if not (isinstance(rec, ir.Call) and isinstance(rec.target, ir.Glob) and rec.target.key == g.key):
            continue
        ok = len(rec.args) == len(names)
        for k, a in enumerate(rec.args):
            if not ok:
                break
            want = m if k == j else names[k]
            ok = _is_var(a, want)
        if ok:
            return (names.index(b.name), j, c0)
    return None


def _increasing(e: Any, var: str, globs: Callable[[str], Any]) -> bool:
    """Strictly increasing and non-negative in ``var`` over the naturals."""
    e = _strip(e)
    if _is_var(e, var):
        return True
    if isinstance(e, ir.Call) and isinstance(e.target, ir.Glob):
        g = globs(e.target.key)
        geo = _geometric(g) if g is not None else None
        if geo is None:
            return False
        bi, ei, _c0 = geo
        base = _num(e.args[bi])
        return (
            base is not None
            and base >= 2
            and all(not _mentions(a, var) for k, a in enumerate(e.args) if k != ei)
            and _increasing(e.args[ei], var, globs)
        )
    if not isinstance(e, ir.Prim):
        return False
    a, b = [*e.args, None, None][:2]
    if e.op == "add":
        if _increasing(a, var, globs):
            return _increasing(b, var, globs) or _nonneg_const(b, var)
        return _increasing(b, var, globs) and _nonneg_const(a, var)
    if e.op == "mul":
        if _increasing(a, var, globs) and _increasing(b, var, globs):
            return True
        for x, y in ((a, b), (b, a)):
            c = _num(x)
            if c is not None and c >= 1 and _increasing(y, var, globs):
                return True
        return False
    if e.op == "pow":
        c = _num(a)
        if c is not None and c >= 2 and _increasing(b, var, globs):
            return True
        k = _num(b)
        return k is not None and k >= 1 and _increasing(a, var, globs)
    return False


def _nonneg_const(n: Any, var: str) -> bool:
    if n is None or _mentions(n, var):
        return False
    c = _num(n)
    return (c is not None and c >= 0) or _tname(getattr(_strip(n), "ty", None)) == "Nat"


# ------------------------------------------------------------------ planning


def _lam(var: str, var_ty: Type, body: Any) -> ir.Lam:
    return ir.Lam(ty=TFun(var_ty, body.ty), params=[var], body=body)


def _support_plan(p: Any, var: str, var_ty: Type, globs: Callable[[str], Any]) -> Plan | None:
    p = _strip(p)
    if isinstance(p, ir.Prim) and p.op == "and":
        for c in _conjuncts(p):
            plan = _support_plan(c, var, var_ty, globs)
            if plan is not None:
                return plan
        return None
    if not (isinstance(p, ir.Prim) and p.op in ("eq", "beq") and _tname(p.opty) in ("Nat", "Int")):
        return None
    lhs, rhs = p.args
    if _mentions(lhs, var) and not _mentions(rhs, var):
        e, t = lhs, rhs
    elif _mentions(rhs, var) and not _mentions(lhs, var):
        e, t = rhs, lhs
    else:
        return None
    lin = _linear(e, var)
    if lin is not None and lin[0] != 0:
        return Plan("linear", coef=lin[0], target=t, terms=lin[1])
    if _tname(var_ty) == "Nat" and _increasing(e, var, globs):
        return Plan("monotone", target=t, fn=_lam(var, var_ty, e))
    return None


def _stable_pairs(body: Any, var: str, globs: Callable[[str], Any]) -> list[tuple[Any, Any]] | None:
    pairs: list[tuple[Any, Any]] = []

    def walk(n: Any) -> bool:
        if isinstance(n, ir.Postponed):
            return n.node is None or walk(n.node)
        if isinstance(n, ir.Var):
            return n.name != var
        if isinstance(n, ir.Prim) and n.op == "div" and _tname(n.opty) == "Nat":
            a, g = n.args
            if not _mentions(a, var) and _mentions(g, var) and _increasing(g, var, globs):
                pairs.append((a, g))
                return True
        if isinstance(n, ir.Node) or dataclasses.is_dataclass(n):
            for f in dataclasses.fields(n):
                if f.name == "ty" or f.name == "opty":
                    continue
                if not walk_value(getattr(n, f.name)):
                    return False
        return True

    def walk_value(v: Any) -> bool:
        if isinstance(v, list | tuple):
            return all(walk_value(x) for x in v)
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            return walk(v)
        return True

    if not walk(body) or not pairs:
        return None
    return pairs


def plan_unbounded(q: ir.Quant, globs: Callable[[str], Any]) -> Plan:
    """How to decide ``q`` soundly; ``globs`` maps a global's key to its definition."""
    var, vty = q.var, q.var_ty
    if _tname(vty) not in ("Nat", "Int"):
        return Plan("random", reason=f"unbounded {q.kind} over {vty}")
    body = _strip(q.body)
    props: list[Any] = []
    if q.kind == "∃":
        props = _conjuncts(body)
    else:
        while isinstance(body, ir.Prim) and body.op == "implies":
            props.append(body.args[0])
            body = _strip(body.args[1])
        if isinstance(body, ir.Prim) and body.op == "not":
            props.append(body.args[0])
        elif isinstance(body, ir.Prim) and body.op in ("ne", "bne"):
            # ``a ≠ b`` is false exactly where the equation holds
            props.append(ir.Prim(body.ty, "eq", list(body.args), body.opty))
    for p in props:
        plan = _support_plan(p, var, vty, globs)
        if plan is not None:
            return plan
    if _tname(vty) == "Nat":
        pairs = _stable_pairs(q.body, var, globs)
        if pairs is not None:
            return Plan("stable", pairs=[(a, _lam(var, vty, g)) for a, g in pairs])
    return Plan("random", reason=f"no finite reduction for {q.kind} over {vty}")


# ------------------------------------------------------------- runtime helpers


def _linear_points(c: int, t: int, terms: tuple[tuple[int, int], ...], nat: bool) -> tuple[int, ...]:
    d = sum(k * v for k, v in terms)
    num = t - d
    if num % c != 0:
        return ()
    x = num // c
    if nat and x < 0:
        return ()
    return (x,)


def _call1(f: Any, x: int) -> Any:
    return f.fn(x) if hasattr(f, "fn") else f(x)


def _mono_points(f: Any, t: int) -> tuple[int, ...]:
    """The unique ``x ≥ 0`` with ``f(x) = t`` for strictly increasing ``f``, if any."""
    lo = 0
    if _call1(f, 0) > t:
        return ()
    hi = 1
    steps = 0
    while _call1(f, hi) <= t:
        lo, hi = hi, hi * 2
        steps += 1
        if steps > 4096:
            raise LimitExceeded("size", "monotone search did not bracket the target")
    # invariant: f(lo) ≤ t < f(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _call1(f, mid) <= t:
            lo = mid
        else:
            hi = mid
    return (lo,) if _call1(f, lo) == t else ()


def _stable_limit(pairs: tuple[tuple[int, Any], ...]) -> int:
    """The least ``K`` with ``g(K) > a`` for every pair (``g`` strictly increasing)."""
    k_max = 0
    for a, g in pairs:
        k = 0 if _call1(g, 0) > a else _mono_first_above(g, a)
        k_max = max(k_max, k)
    return k_max


def _mono_first_above(g: Any, a: int) -> int:
    lo, hi = 0, 1
    steps = 0
    while _call1(g, hi) <= a:
        lo, hi = hi, hi * 2
        steps += 1
        if steps > 4096:
            raise LimitExceeded("size", "monotone search did not bracket the bound")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _call1(g, mid) <= a:
            lo = mid
        else:
            hi = mid
    return hi


def _random_candidates(kind: str, is_int: bool, what: str) -> Iterator[int]:
    """Small values, then seeded random ones; exhausting it means no decision."""
    for x in range(_SMALL):
        yield x
        if is_int and x:
            yield -x
    rng = random.Random(_SEED)
    for i in range(_RANDOM_TRIES):
        bits = 6 + (i * 58) // _RANDOM_TRIES
        x = rng.getrandbits(bits)
        yield -x if is_int and rng.random() < 0.5 else x
    verdict = "no counterexample" if kind == "∀" else "no witness"
    raise Undecided(f"{what}: {verdict} among {_SMALL} small and {_RANDOM_TRIES} random values")


def runtime_helpers() -> dict[str, Any]:
    """Names the generated code may call (installed in the program namespace)."""
    return {
        "_qlinear": _linear_points,
        "_qmono": _mono_points,
        "_qstable": _stable_limit,
        "_qrandom": _random_candidates,
    }


def domain_code(gen: Any, q: ir.Quant) -> str | None:
    """Python expression (in the code generator ``gen``) iterating the candidates of ``q``;
    None when the variable's type admits no search here (the caller reports it unsupported)."""
    if _tname(q.var_ty) not in ("Nat", "Int"):
        return None
    plan = plan_unbounded(q, gen.c.env.by_key.get)
    nat = _tname(q.var_ty) == "Nat"
    if plan.kind == "linear":
        assert plan.target is not None
        t = gen.ex(plan.target)
        terms = "".join(f"({k}, {gen.ex(d)}), " for k, d in plan.terms)
        return f"_qlinear({plan.coef}, {t}, ({terms}), {nat})"
    if plan.kind == "monotone":
        assert plan.fn is not None and plan.target is not None
        return f"_qmono({gen.ex(plan.fn)}, {gen.ex(plan.target)})"
    if plan.kind == "stable":
        pairs = "".join(f"({gen.ex(a)}, {gen.ex(g)}), " for a, g in plan.pairs)
        return f"range(0, _qstable(({pairs})) + 1)"
    what = f"unbounded {q.kind} over {_tname(q.var_ty) or q.var_ty}"
    return f"_qrandom({q.kind!r}, {not nat}, {what!r})"
