"""Prefix guards of a multi-binder quantifier: stop enumerating the later binders early.

For ``exists|x_0, …, x_m| C_1 && C_2 && …`` the body is false whenever one conjunct is false (Kleene's
``&&``: even if another conjunct is unknown), and for ``forall|x_0, …, x_m| A_1 && A_2 ==> B`` the
body is true whenever one antecedent conjunct is false. A conjunct that mentions only ``x_0 … x_k``
(``bounds.conjuncts``: the top-level conjuncts, with boolean spec fn calls also inlined) can be
evaluated as soon as those binders have values: if it is false, no values of ``x_{k+1} … x_m`` can
give a witness (``exists``) or a counterexample (``forall``), so the enumeration of the later binders
is skipped for this prefix — their result would be ``not exists`` for every one of them.

This changes no verdict the enumeration would reach; it only removes work (and the later binders'
domains need not even be enumerable then). A guard whose evaluation fails (an unknown value) prunes
nothing. lc3111: ``exists|s: Seq<i32>, r: Seq<int>| sorted(s) && is_reorder_of(r, s, xs) && …``
tries the reorderings ``r`` only for sorted candidates ``s``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from veriscale.values.types import TCon

from .ast import Call, Expr, MethodCall, Quant
from .bounds import _children, conjuncts, free_vars
from .runtime import SpecError

__all__ = ["MAX_GROUND", "fails", "ground_env", "ground_terms", "prefix_guards"]

Fn = Callable[[dict[str, Any]], Any]


def prefix_guards(
    q: Quant, inline: Callable[[Any], Expr | None], compile_fn: Callable[[Expr, frozenset[str]], Fn],
    scope: frozenset[str],
) -> list[list[Fn]]:  # fmt: skip
    """``guards[k]``: closures of the conjuncts whose binders are among the first ``k + 1`` and
    include binder ``k`` (binder-free conjuncts go to ``k = 0``), for ``k`` below the last binder
    (the last binder's instances evaluate the whole body anyway). Empty for one binder or ``choose``."""
    names = [n for n, _ in q.binders]
    if len(names) < 2 or q.kind not in ("forall", "exists"):
        return []
    guards: list[list[Fn]] = [[] for _ in names[:-1]]
    for c in conjuncts(q.body, q.kind, inline):
        used = free_vars(c)
        level = max((k for k, n in enumerate(names) if n in used), default=0)
        if level < len(names) - 1:
            try:
                guards[level].append(compile_fn(c, scope | set(names[: level + 1])))
            except SpecError:  # not compilable: no guard (the body reports it)
                continue
    return guards if any(guards) else []


def fails(guards: list[Fn], env: dict[str, Any]) -> bool:
    """Is one of the guards false in ``env``? (An error or a non-boolean counts as not false.)"""
    for g in guards:
        try:
            if g(env) is False:
                return True
        except SpecError:
            continue
    return False


def ground_terms(
    q: Quant, compile_fn: Callable[[Expr, frozenset[str]], Fn], scope: frozenset[str]
) -> list[Fn]:
    """Closures of the calls in the body that mention no binder (``Self::x_seq(points@)``), at most
    ``MAX_GROUND``: a sequence binder takes their sequence values (and those sorted) as witness
    candidates before its enumeration (``ground_env``) — a reordering ``r`` of the candidates is
    then among the index maps the evaluator already tries. Only for quantifiers with a ``Seq``
    binder; candidates are values of the binder's type, so trying them first changes no verdict."""
    names = {n for n, _ in q.binders}
    if not any(_is_seq(t) for _, t in q.binders):
        return []
    out: list[Fn] = []
    seen: set[Expr] = set()
    todo = [q.body]
    while todo and len(out) < MAX_GROUND:
        e = todo.pop(0)
        if isinstance(e, Call | MethodCall) and e not in seen and not (free_vars(e) & names):
            seen.add(e)
            try:
                out.append(compile_fn(e, scope))
            except SpecError:
                pass
            continue
        todo.extend(_children(e))
    return out


def ground_env(terms: list[Fn], env: dict[str, Any]) -> dict[str, Any]:
    """``env`` plus the ground terms' sequence values under names no program can use (``%g…``)."""
    if not terms:
        return env
    env = dict(env)
    for k, f in enumerate(terms):
        try:
            v = f(env)
        except SpecError:
            continue
        if isinstance(v, tuple):
            env[f"%g{k}"] = v
            try:
                env[f"%g{k}s"] = tuple(sorted(v))
            except TypeError:
                pass
    return env


MAX_GROUND = 8


def _is_seq(t: Any) -> bool:
    return isinstance(t, TCon) and t.name in ("Seq", "Vec") and bool(t.args)
