"""Syntactic mutants of the ground-truth implementation, made on the AST and printed back."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from ..adversary import Adversary, make_adversary
from ..tree import rewrites
from . import ast as A
from .errors import LeanError
from .parser import parse_expr, parse_module
from .printer import print_expr, print_module

__all__ = ["aux_mutant_adversaries", "mutant_adversaries"]

_SWAPS: dict[str, tuple[str, str]] = {
    "+": ("-", "arith"),
    "-": ("+", "arith"),
    "*": ("+", "arith"),
    "/": ("*", "arith"),
    "%": ("/", "arith"),
    "<": ("≤", "cmp"),
    "≤": ("<", "cmp"),
    ">": ("≥", "cmp"),
    "≥": (">", "cmp"),
    "==": ("!=", "cmp"),
    "!=": ("==", "cmp"),
    "=": ("≠", "cmp"),
    "≠": ("=", "cmp"),
    "&&": ("||", "bool"),
    "||": ("&&", "bool"),
    "∧": ("∨", "bool"),
    "∨": ("∧", "bool"),
}


def _local(node: Any) -> list[tuple[Any, str]]:
    r = dataclasses.replace
    if isinstance(node, A.BinOp) and node.op in _SWAPS:
        new, kind = _SWAPS[node.op]
        return [(r(node, op=new), f"{kind}-swap:{node.op}→{new}")]
    if isinstance(node, A.NatLit):
        out = [(r(node, value=node.value + 1), f"const+1:{node.value}")]
        if node.value > 0:
            out.append((r(node, value=node.value - 1), f"const-1:{node.value}"))
        return out
    if isinstance(node, A.If):
        return [
            (r(node, cond=A.UnOp("¬", node.cond)), "negate-cond"),
            (r(node, then=node.els, els=node.then), "swap-branches"),
        ]
    if isinstance(node, A.DoIf):
        return [(r(node, cond=A.UnOp("¬", node.cond)), "negate-cond")]
    return []


def mutant_adversaries(code: str, limit: int = 48) -> list[Adversary]:
    """Distinct parseable single-site mutants of ``code`` (a ``code`` section body), at most ``limit``."""
    try:
        tree = parse_expr(code)
    except LeanError:
        return []
    seen = {print_expr(tree)}
    out: list[Adversary] = []
    for new, why in rewrites(tree, _local):
        try:
            text = print_expr(new)
        except Exception:  # an unprintable mutant is simply skipped
            continue
        if text in seen:
            continue
        seen.add(text)
        try:
            parse_expr(text)
        except LeanError:
            continue
        op = why.split(":", 1)[0]
        out.append(make_adversary(text, f"mutant:{op}", why))
        if len(out) >= limit:
            break
    return out


def aux_mutant_adversaries(code_aux: str, limit: int = 48) -> list[Adversary]:
    """Single-site mutants inside the bodies of the helper definitions of ``code_aux``.

    Many tasks keep their logic in helpers (the ``code`` body only calls them),
    so mutating ``code`` alone would leave them without mutants.
    """
    return helper_mutants(code_aux, lambda body: rewrites(body, _local), limit)


def helper_mutants(
    code_aux: str, variants: Callable[[Any], Iterable[tuple[Any, str]]], limit: int
) -> list[Adversary]:
    """Mutants of ``code_aux`` with one helper definition's body replaced by each of ``variants(body)``
    (``(new body, why)``), in declaration then variant order; re-parseable, distinct texts only."""
    if not code_aux.strip():
        return []
    try:
        decls = parse_module(code_aux)
        seen = {print_module(decls)}
    except Exception:  # unparseable or unprintable helpers give no mutants
        return []
    out: list[Adversary] = []
    for i, d in enumerate(decls):
        if not isinstance(d, A.Def) or d.kind not in ("def", "abbrev"):
            continue
        for new, why in variants(d.body):
            mutated = [*decls[:i], dataclasses.replace(d, body=new), *decls[i + 1 :]]
            try:
                text = print_module(mutated)
                parse_module(text)
            except Exception:
                continue
            if text in seen:
                continue
            seen.add(text)
            op = why.split(":", 1)[0]
            out.append(make_adversary(text, f"mutant:{op}", f"in {d.name}: {why}", section="code_aux"))
            if len(out) >= limit:
                return out
    return out
