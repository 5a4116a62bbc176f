"""Static analyses of IR function bodies used by the code generator.

* self tail calls (compiled as loops) and the number of self-call sites
  (branching recursion gets a memo table: Lean functions are pure);
* which parameter types make Python equality coincide with Lean equality
  (memo keys), and which names a Python function rebinds (closures created
  in loops must capture the current value, as Lean's closures do).
"""

from __future__ import annotations

from typing import Any

from veriscale.values.types import TCon, TFun, Type

from ..elab import ir
from .freevars import pat_vars

__all__ = ["count_self_calls", "has_self_tail_call", "is_self_call", "param_types", "rebinds", "wants_memo"]


def is_self_call(n: Any, self_ref: tuple[str, str], arity: int) -> bool:
    if not isinstance(n, ir.Call) or len(n.args) != arity:
        return False
    t = n.target
    if self_ref[0] == "glob":
        return isinstance(t, ir.Glob) and t.key == self_ref[1]
    return isinstance(t, ir.LocalFn) and t.name == self_ref[1]


def has_self_tail_call(n: Any, self_ref: tuple[str, str], arity: int) -> bool:
    while isinstance(n, ir.Postponed):
        n = n.node
    if is_self_call(n, self_ref, arity):
        return True
    if isinstance(n, ir.If):
        return has_self_tail_call(n.then, self_ref, arity) or has_self_tail_call(n.els, self_ref, arity)
    if isinstance(n, ir.Match):
        return any(has_self_tail_call(a.rhs, self_ref, arity) for a in n.arms)
    if isinstance(n, ir.Let | ir.LetFun):
        return has_self_tail_call(n.body, self_ref, arity)
    return False


def count_self_calls(n: Any, self_ref: tuple[str, str], in_lam: bool, acc: list[int]) -> None:
    if n is None:
        return
    t = type(n)
    if t is list or t is tuple:
        for x in n:
            count_self_calls(x, self_ref, in_lam, acc)
        return
    if t is ir.Call:
        tg = n.target
        if (self_ref[0] == "glob" and isinstance(tg, ir.Glob) and tg.key == self_ref[1]) or (
            self_ref[0] == "local" and isinstance(tg, ir.LocalFn) and tg.name == self_ref[1]
        ):
            acc[0] += 2 if in_lam else 1
    if t is ir.Lam:
        count_self_calls(n.body, self_ref, True, acc)
        return
    if hasattr(n, "__dataclass_fields__") and t.__module__.endswith("elab.ir"):
        for f in n.__dataclass_fields__:
            v = getattr(n, f)
            if isinstance(v, list | tuple) or hasattr(v, "__dataclass_fields__"):
                count_self_calls(v, self_ref, in_lam, acc)


_HASHABLE_SAFE = frozenset(
    {
        "Nat",
        "Int",
        "Bool",
        "Prop",
        "Char",
        "String",
        "UInt8",
        "Unit",
        "List",
        "Array",
        "Option",
        "Prod",
        "Proof",
    }
)


def _memo_safe(t: Type) -> bool:
    """Values of ``t`` are equal in Python exactly when they are the same Lean value (no Float ±0)."""
    if isinstance(t, TCon):
        return t.name in _HASHABLE_SAFE and all(_memo_safe(a) for a in t.args)
    return False


def wants_memo(body: Any, self_ref: tuple[str, str], ptypes: list[Type]) -> bool:
    if not ptypes or not all(_memo_safe(t) for t in ptypes):
        return False
    acc = [0]
    count_self_calls(body, self_ref, False, acc)
    return acc[0] >= 2


def param_types(t: Type, n: int) -> list[Type]:
    out = []
    for _ in range(n):
        if not isinstance(t, TFun):
            return []
        out.append(t.arg)
        t = t.res
    return out


def rebinds(n: Any, in_loop: bool, acc: set[str], counts: dict[str, int]) -> None:
    """Names (re)bound inside loops or bound several times, not entering nested functions."""
    if n is None:
        return
    t = type(n)
    if t is list or t is tuple:
        for x in n:
            rebinds(x, in_loop, acc, counts)
        return
    if t is ir.Lam or t is ir.DoBlock:
        return  # separate Python functions
    if t is ir.LetFun:
        for f in n.funs:
            counts[f.name] = counts.get(f.name, 0) + 1
            if in_loop:
                acc.add(f.name)
        rebinds(n.body, in_loop, acc, counts)
        return

    def bind(name: str) -> None:
        counts[name] = counts.get(name, 0) + 1
        if in_loop:
            acc.add(name)

    if t is ir.Let:
        bind(n.name)
        rebinds(n.value, in_loop, acc, counts)
        rebinds(n.body, in_loop, acc, counts)
        return
    if t is ir.DLet:
        bind(n.name)
        rebinds(n.value, in_loop, acc, counts)
        return
    if t is ir.DLetPat:
        for v in pat_vars(n.pat):
            bind(v)
        rebinds(n.value, in_loop, acc, counts)
        return
    if t is ir.DFor:
        for v in pat_vars(n.pat):
            bind(v)
            acc.add(v)
        rebinds(n.iterable, in_loop, acc, counts)
        rebinds(n.body, True, acc, counts)
        return
    if t is ir.DWhile:
        rebinds(n.cond, True, acc, counts)
        rebinds(n.body, True, acc, counts)
        return
    if t is ir.Quant:
        bind(n.var)
        acc.add(n.var)
        rebinds(n.body, True, acc, counts)
        return
    if t is ir.Match or t is ir.DMatch:
        rebinds(n.discrs, in_loop, acc, counts)
        for arm in n.arms:
            for p in arm.pats:
                for v in pat_vars(p):
                    bind(v)
            rebinds(arm.rhs, in_loop, acc, counts)
        return
    if hasattr(n, "__dataclass_fields__") and t.__module__.endswith("elab.ir"):
        for f in n.__dataclass_fields__:
            v = getattr(n, f)
            if isinstance(v, list | tuple) or hasattr(v, "__dataclass_fields__"):
                rebinds(v, in_loop, acc, counts)
