"""Generic helpers to rewrite the Lean AST: enumerate single-site rewrites of a tree."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["Rewrite", "rewrites", "text_id"]

# A local rewrite: node → [(replacement, description)]
Rewrite = Callable[[Any], list[tuple[Any, str]]]


def text_id(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _children(value: Any, local: Rewrite) -> Iterator[tuple[Any, str]]:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield from rewrites(value, local)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            for new, why in _children(item, local):
                yield [*value[:i], new, *value[i + 1 :]], why
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            for new, why in _children(item, local):
                yield (*value[:i], new, *value[i + 1 :]), why


def rewrites(node: Any, local: Rewrite) -> Iterator[tuple[Any, str]]:
    """Every tree obtained by applying ``local`` at exactly one node of ``node`` (pre-order)."""
    yield from local(node)
    for f in dataclasses.fields(node):
        if f.name == "pos":
            continue
        for new, why in _children(getattr(node, f.name), local):
            yield dataclasses.replace(node, **{f.name: new}), why
