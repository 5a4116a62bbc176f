"""Reject inputs Lite must keep: one per precondition conjunct the input stage covered.

The input stage marks a reject input's provenance with ``"violates": [label, ...]``
when it violates exactly that conjunct of the ground-truth precondition (see
``pipeline/inputs/conjuncts.py``). ``conjunct_cover`` picks, for every label,
the first row (in Plus order) marked with it; a row covering several labels is
picked once. The result is in row order, so it does not depend on label order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["conjunct_cover"]


def conjunct_cover(provenances: Sequence[Mapping[str, Any]]) -> list[int]:
    """Row indices covering every conjunct label any row covers (first row per label)."""
    first: dict[str, int] = {}
    for i, prov in enumerate(provenances):
        for label in prov.get("violates", ()):
            first.setdefault(str(label), i)
    return sorted(set(first.values()))
