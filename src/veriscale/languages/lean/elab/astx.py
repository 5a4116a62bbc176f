"""Extensions of the surface AST used inside the elaborator, and the postponement signal."""

from __future__ import annotations

from typing import Any

from .. import ast as A
from . import ir

__all__ = ["NodeExpr", "Postpone", "WhereBlock", "is_proofish"]


class Postpone(Exception):
    """Raised by an elaborator that needs type information not known yet."""


class WhereBlock(A.Hole):
    """``body where f … g …``: local functions visible in the body and in each other."""

    def __init__(self, items: list[Any], body: A.Expr) -> None:
        super().__init__((0, 0))
        self.items = items
        self.body = body


class NodeExpr(A.Hole):
    """An already elaborated node passed where the elaborator expects an AST argument."""

    def __init__(self, node: ir.Node) -> None:
        super().__init__((0, 0))
        self.node = node


def is_proofish(s: Any) -> bool:
    """A ``by`` block, ``_`` or ``sorry``: not an argument that fixes types."""
    return isinstance(s, A.ByTactic | A.Hole | A.Sorry) and not isinstance(s, NodeExpr)
