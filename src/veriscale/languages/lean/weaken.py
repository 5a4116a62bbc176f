"""Weakened ground-truth postconditions by constraint dropping (an LLM-free source of flawed specs).

Every edit only removes constraints at a *positive* position of the proposition
(conjunctions, quantifier bodies, implication conclusions, both sides of ``↔``
and ``∨``, ``let`` bodies, ``if``/``match`` branches), so each candidate is
implied by the ground truth — weaker or equivalent, never stronger. One edit narrows instead of
drops: the domain of a universal (``(List.range n).all f``, ``∀ i < n``, ``∀ i ≤ n``,
``∀ i, i < n → P``) loses its last element (``n`` → ``n - 1``, ``≤`` → ``<``) — the "one position
short" quantifier domain, which no dropped constraint imitates.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from ..adversary import CandidateSpec
from ..tree import text_id
from . import ast as A
from .errors import LeanError
from .parser import parse_expr
from .printer import print_expr, strip_pos

__all__ = ["CandidateSpec", "weakened_specs"]

_TRUE = A.Ident("True")


def _weakenings(e: A.Expr, where: str) -> Iterator[tuple[A.Expr, str]]:
    """Weaker variants of a proposition ``e`` (edits at positive positions only)."""
    r = dataclasses.replace
    if isinstance(e, A.BinOp) and e.op in ("∧", "&&"):
        yield e.rhs, f"drop left conjunct{where}"
        yield e.lhs, f"drop right conjunct{where}"
        for new, why in _weakenings(e.lhs, where):
            yield r(e, lhs=new), why
        for new, why in _weakenings(e.rhs, where):
            yield r(e, rhs=new), why
    elif isinstance(e, A.BinOp) and e.op in ("∨", "||", "↔"):
        side = "iff" if e.op == "↔" else "disjunct"
        if e.op == "↔":
            # keep one direction only
            yield A.Arrow(e.lhs, e.rhs), f"keep the → direction of an iff{where}"
            yield A.Arrow(e.rhs, e.lhs), f"keep the ← direction of an iff{where}"
        else:
            for new, why in _weakenings(e.lhs, f" in a {side}{where}"):
                yield r(e, lhs=new), why
            for new, why in _weakenings(e.rhs, f" in a {side}{where}"):
                yield r(e, rhs=new), why
    elif isinstance(e, A.App):
        shrunk = _shrink_all_domain(e)
        if shrunk is not None:
            yield shrunk, f"shrink a List.range domain by one{where}"
    elif isinstance(e, A.Quant):
        shrunk = _shrink_forall_domain(e)
        if shrunk is not None:
            yield shrunk, f"shrink a ∀ domain by one{where}"
        if not (isinstance(e.body, A.Ident) and e.body.name == "True"):
            if e.bound is not None:
                yield r(e, body=_TRUE), f"replace a {e.kind} body by True{where}"
            elif not isinstance(e.body, A.Arrow):
                # an unbounded ``∀ x, True`` cannot be evaluated; it is just True
                yield _TRUE, f"replace a {e.kind} body by True (the quantifier becomes True){where}"
        for new, why in _weakenings(e.body, f" under {e.kind}{where}"):
            yield r(e, body=new), why
    elif isinstance(e, A.Arrow):
        if not (isinstance(e.rhs, A.Ident) and e.rhs.name == "True"):
            # keeps the premise, so a quantifier bound read from it still applies
            yield r(e, rhs=_TRUE), f"replace an implication conclusion by True{where}"
        for new, why in _weakenings(e.rhs, f" in an implication conclusion{where}"):
            yield r(e, rhs=new), why
    elif isinstance(e, A.Let):
        for new, why in _weakenings(e.body, where):
            yield r(e, body=new), why
    elif isinstance(e, A.If):
        yield r(e, then=_TRUE), f"replace the then branch by True{where}"
        yield r(e, els=_TRUE), f"replace the else branch by True{where}"
        for new, why in _weakenings(e.then, f" in a then branch{where}"):
            yield r(e, then=new), why
        for new, why in _weakenings(e.els, f" in an else branch{where}"):
            yield r(e, els=new), why
    elif isinstance(e, A.Match):
        for i, arm in enumerate(e.arms):
            for new, why in _weakenings(arm.rhs, f" in match arm {i + 1}{where}"):
                arms = [*e.arms[:i], r(arm, rhs=new), *e.arms[i + 1 :]]
                yield r(e, arms=arms), why
    elif isinstance(e, A.Typed):
        for new, why in _weakenings(e.expr, where):
            yield r(e, expr=new), why


def _minus_one(n: A.Expr) -> A.Expr:
    return A.BinOp("-", n, A.NatLit(1))


def _shrink_all_domain(e: A.App) -> A.Expr | None:
    """``(List.range n).all f`` → ``(List.range (n - 1)).all f`` (None: not that shape)."""
    fn = e.fn
    if not (isinstance(fn, A.Proj) and fn.field == "all" and isinstance(fn.expr, A.App)):
        return None
    rng = fn.expr
    if not (isinstance(rng.fn, A.Ident) and rng.fn.name == "List.range" and len(rng.args) == 1):
        return None
    arg = rng.args[0]
    if arg.name is not None:
        return None
    new_rng = dataclasses.replace(rng, args=[dataclasses.replace(arg, value=_minus_one(arg.value))])
    return dataclasses.replace(e, fn=dataclasses.replace(fn, expr=new_rng))


def _shrink_forall_domain(e: A.Quant) -> A.Expr | None:
    """A ``∀`` over ``i < n`` / ``i ≤ n`` (binder bound or leading premise) loses its last element."""
    r = dataclasses.replace
    if e.kind != "∀":
        return None
    if e.bound is not None:
        op, n = e.bound
        if op == "<":
            return r(e, bound=("<", _minus_one(n)))
        if op == "≤":
            return r(e, bound=("<", n))
        return None
    prem = e.body.lhs if isinstance(e.body, A.Arrow) else None
    if isinstance(prem, A.BinOp) and prem.op in ("<", "≤") and isinstance(e.pat, A.PVar):
        if isinstance(prem.lhs, A.Ident) and prem.lhs.name == e.pat.name:
            new = r(prem, rhs=_minus_one(prem.rhs)) if prem.op == "<" else r(prem, op="<")
            return r(e, body=r(e.body, lhs=new))
    return None


def weakened_specs(postcond: str, limit: int = 64) -> list[CandidateSpec]:
    """Distinct weakened postconditions of ``postcond`` (a section body), in edit order, re-parseable.

    Returns [] when the postcondition itself does not parse.
    """
    try:
        tree = parse_expr(postcond)
    except LeanError:
        return []
    original = print_expr(tree)
    seen = {original}
    out: list[CandidateSpec] = []
    for new, why in _weakenings(tree, ""):
        text = print_expr(new)
        if text in seen or text.strip() == "True":
            continue
        seen.add(text)
        try:  # the printer contract: the text re-parses to the same tree
            if strip_pos(parse_expr(text)) != strip_pos(new):
                continue
        except LeanError:
            continue
        out.append(CandidateSpec(text_id(text), text, "weakened", why))
        if len(out) >= limit:
            break
    return out
