"""Mutants beyond one operator swap: operand deletion, guard reordering, one operator swapped everywhere.

The single-site operators of ``mutants.py`` miss realistic bugs that a suite must still tell
apart, because killing every single-site mutant does not require the input that exposes them:

* **operand deletion** — ``a && b`` → ``a`` / ``b`` (likewise ``||``, ``∧``, ``∨``): a dropped
  condition (e.g. ``c.isAlpha || c.isDigit`` → ``c.isAlpha``; the classic "conditional operator
  deletion" of mutation tools);
* **guard reordering** — ``if c1 then t1 else if c2 then t2 else e`` → the two guards tested in
  the other order (killed only by an input satisfying both guards);
* **uniform swap** — every occurrence of one operator swapped at once (``≥`` → ``>`` everywhere),
  a higher-order mutant killed by ties that no single ``≥`` → ``>`` needs (each single one is
  rescued by the other comparisons).

Order: per tree, deletions and reorderings in pre-order (the order of ``rewrites``), then uniform
swaps in the order of ``_SWAPS``; duplicates of the ground truth or of an earlier mutant are
skipped by text. Operators swapped uniformly must occur at least twice (once is a single-site
mutant already).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..adversary import Adversary, make_adversary
from ..tree import rewrites
from . import ast as A
from .mutants import _SWAPS, helper_mutants
from .parser import parse_expr
from .printer import print_expr

__all__ = ["compound_aux_mutants", "compound_mutants"]

_JUNCTIONS = ("&&", "||", "∧", "∨")


def _local(node: Any) -> list[tuple[Any, str]]:
    if isinstance(node, A.BinOp) and node.op in _JUNCTIONS:
        return [(node.lhs, f"drop-operand:right of {node.op}"), (node.rhs, f"drop-operand:left of {node.op}")]
    if isinstance(node, A.If) and isinstance(node.els, A.If) and node.hyp is None and node.els.hyp is None:
        inner = node.els
        swapped = dataclasses.replace(inner, then=node.then, cond=node.cond)
        return [(dataclasses.replace(node, cond=inner.cond, then=inner.then, els=swapped), "reorder-guards")]
    return []


def _map_ops(value: Any, op: str, new: str) -> tuple[Any, int]:
    """``value`` with every ``BinOp`` ``op`` replaced by ``new``, and how many were replaced."""
    if isinstance(value, list):
        items = [_map_ops(v, op, new) for v in value]
        return [v for v, _ in items], sum(n for _, n in items)
    if isinstance(value, tuple):
        items = [_map_ops(v, op, new) for v in value]
        return tuple(v for v, _ in items), sum(n for _, n in items)
    if not (dataclasses.is_dataclass(value) and not isinstance(value, type)):
        return value, 0
    changes: dict[str, Any] = {}
    count = 0
    for f in dataclasses.fields(value):
        if f.name == "pos":
            continue
        v, n = _map_ops(getattr(value, f.name), op, new)
        if n:
            changes[f.name] = v
            count += n
    if isinstance(value, A.BinOp) and value.op == op:
        changes["op"] = new
        count += 1
    return (dataclasses.replace(value, **changes) if changes else value), count


def _variants(tree: Any) -> list[tuple[Any, str]]:
    out = list(rewrites(tree, _local))
    for op, (new, kind) in _SWAPS.items():
        mapped, n = _map_ops(tree, op, new)
        if n >= 2:
            out.append((mapped, f"uniform-{kind}-swap:{op}→{new} ×{n}"))
    return out


def compound_mutants(code: str, limit: int = 24) -> list[Adversary]:
    """Distinct parseable compound mutants of a ``code`` section body, at most ``limit``."""
    try:
        tree = parse_expr(code)
        seen = {print_expr(tree)}
    except Exception:  # unparseable or unprintable code gives no mutants
        return []
    out: list[Adversary] = []
    for new, why in _variants(tree):
        try:
            text = print_expr(new)
            parse_expr(text)
        except Exception:
            continue
        if text in seen:
            continue
        seen.add(text)
        out.append(make_adversary(text, f"mutant:{why.split(':', 1)[0]}", why))
        if len(out) >= limit:
            break
    return out


def compound_aux_mutants(code_aux: str, limit: int = 24) -> list[Adversary]:
    """Compound mutants inside each helper definition of ``code_aux`` (one helper changed at a time)."""
    return helper_mutants(code_aux, _variants, limit)
