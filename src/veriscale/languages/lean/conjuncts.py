"""Conjuncts of a Lean precondition: the pieces a per-conjunct reject input must violate alone.

``split_conjuncts`` labels the top-level conjuncts ``"k"`` and, for a conjunct that is a
universal statement over a conjunction (``∀ i, i < n → a ∧ b``, ``xs.all (fun x => a ∧ b)``),
its sub-conjuncts ``"k.j"``; ``weakened_preconditions`` gives, per label, the precondition
without that piece.
"""

from __future__ import annotations

from typing import Any

from ..adversary import Conjunct
from .ast import App, Arg, Arrow, BinOp, Ident, Lam, Let, Quant
from .errors import LeanError
from .parser import parse_expr
from .printer import print_expr

__all__ = ["split_conjuncts", "weakened_preconditions"]


def _conj(e: Any) -> list[Any]:
    if isinstance(e, BinOp) and e.op == "∧":
        return [*_conj(e.lhs), *_conj(e.rhs)]
    return [e]


def _inner(e: Any) -> list[Any]:
    """The sub-conjuncts of a universal statement over a conjunction (``[]`` if it is not one)."""
    if isinstance(e, Quant) and e.kind == "∀":
        hyps: list[Any] = []
        body = e.body
        while isinstance(body, Arrow):
            hyps.append(body)
            body = body.rhs
        parts = _conj(body)
        if len(parts) < 2:
            return []
        out = []
        for p in parts:
            rebuilt = p
            for h in reversed(hyps):
                rebuilt = Arrow(h.lhs, rebuilt, h.name)
            out.append(Quant("∀", e.pat, e.type, e.bound, rebuilt))
        return out
    if (
        isinstance(e, App)
        and isinstance(e.fn, Ident)
        and e.fn.name.endswith(".all")
        and len(e.args) == 1
        and isinstance(e.args[0].value, Lam)
    ):
        lam = e.args[0].value
        parts = _conj(lam.body)
        if len(parts) < 2:
            return []
        return [App(e.fn, [Arg(Lam(lam.binders, p))]) for p in parts]
    return []


def split_conjuncts(text: str) -> list[Conjunct]:
    """The labelled conjuncts of a precondition body (``[]`` when it has fewer than two, or does
    not parse): top-level conjuncts first, each followed by its sub-conjuncts."""
    try:
        e = parse_expr(text)
    except LeanError:
        return []
    lets: list[Any] = []
    while isinstance(e, Let):
        lets.append(e)
        e = e.body

    def wrap(x: Any) -> str:
        for let in reversed(lets):
            x = Let(let.pat, let.type, let.value, x, let.is_rec)
        return print_expr(x)

    tops = _conj(e)
    out: list[Conjunct] = []
    for k, p in enumerate(tops):
        subs = _inner(p)
        if len(tops) > 1:
            out.append(Conjunct(str(k), wrap(p)))
        if len(subs) > 1:
            out.extend(Conjunct(f"{k}.{j}", wrap(s)) for j, s in enumerate(subs))
    return out


def weakened_preconditions(text: str) -> list[Conjunct]:
    """The precondition without each conjunct, labelled like ``split_conjuncts``: for ``"k"`` the
    conjunction of the other top-level conjuncts, for ``"k.j"`` conjunct k without its
    sub-conjunct j. A suite kills the variant of a label exactly when some reject input satisfies
    it, i.e. when it holds an input that violates that conjunct alone (the label is covered)."""
    try:
        e = parse_expr(text)
    except LeanError:
        return []
    lets: list[Any] = []
    while isinstance(e, Let):
        lets.append(e)
        e = e.body

    def wrap(parts: list[Any]) -> str:
        x = parts[-1]
        for p in reversed(parts[:-1]):
            x = BinOp("∧", p, x)
        for let in reversed(lets):
            x = Let(let.pat, let.type, let.value, x, let.is_rec)
        return print_expr(x)

    tops = _conj(e)
    out: list[Conjunct] = []
    for k, p in enumerate(tops):
        subs = _inner(p)
        if len(tops) > 1:
            out.append(Conjunct(str(k), wrap(tops[:k] + tops[k + 1 :])))
        if len(subs) > 1:
            for j in range(len(subs)):
                rest = _inner_without(p, j)
                out.append(Conjunct(f"{k}.{j}", wrap([*tops[:k], rest, *tops[k + 1 :]])))
    return out


def _inner_without(e: Any, j: int) -> Any:
    """A universal statement over a conjunction (see ``_inner``) without the j-th conjunct."""
    if isinstance(e, Quant):
        hyps: list[Any] = []
        body = e.body
        while isinstance(body, Arrow):
            hyps.append(body)
            body = body.rhs
        parts = _conj(body)
        rest = parts[:j] + parts[j + 1 :]
        x = rest[-1]
        for p in reversed(rest[:-1]):
            x = BinOp("∧", p, x)
        for h in reversed(hyps):
            x = Arrow(h.lhs, x, h.name)
        return Quant("∀", e.pat, e.type, e.bound, x)
    lam = e.args[0].value
    parts = _conj(lam.body)
    rest = parts[:j] + parts[j + 1 :]
    x = rest[-1]
    for p in reversed(rest[:-1]):
        x = BinOp("∧", p, x)
    return App(e.fn, [Arg(Lam(lam.binders, x))])
