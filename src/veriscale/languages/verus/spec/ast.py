"""Syntax tree of the Verus specification language subset (expressions, patterns).

Nodes are immutable; ``line`` is the source line for messages. Types are the
shared ``TCon`` model (``values.rust_types``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from veriscale.values.types import Type

__all__ = [
    "Binary",
    "Block",
    "Call",
    "Cast",
    "Chain",
    "Closure",
    "Expr",
    "Field",
    "If",
    "Index",
    "Let",
    "Lit",
    "Match",
    "MethodCall",
    "PBind",
    "PLit",
    "PTuple",
    "PVariant",
    "PWild",
    "Pat",
    "Path",
    "Quant",
    "SeqLit",
    "StructLit",
    "Tuple",
    "Unary",
    "View",
]


@dataclass(frozen=True, slots=True)
class Lit:
    value: Any  # int, bool, str (char or string)
    kind: str  # "int", "bool", "char", "str"
    line: int = 0
    suffix: str = ""  # integer literal type suffix ("u32" in ``1u32``)


@dataclass(frozen=True, slots=True)
class Path:
    """A name or path: ``x``, ``Self::f``, ``i32::MAX``, ``Seq::new``, ``SplitTree::Leaf``."""

    segments: tuple[str, ...]
    line: int = 0

    @property
    def name(self) -> str:
        return self.segments[-1]

    @property
    def is_local(self) -> bool:
        return len(self.segments) == 1


@dataclass(frozen=True, slots=True)
class Call:
    func: Expr
    args: tuple[Expr, ...]
    line: int = 0


@dataclass(frozen=True, slots=True)
class MethodCall:
    recv: Expr
    name: str
    args: tuple[Expr, ...]
    line: int = 0


@dataclass(frozen=True, slots=True)
class Field:
    obj: Expr
    name: str  # field name or tuple index as text; ``->x`` for Verus's variant field access ``e->x``
    line: int = 0


@dataclass(frozen=True, slots=True)
class Index:
    obj: Expr
    index: Expr
    line: int = 0


@dataclass(frozen=True, slots=True)
class View:
    """``e@`` (and ``e.view()``/``e.deep_view()``)."""

    obj: Expr
    line: int = 0


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "-", "!", "&", "*"
    expr: Expr
    line: int = 0


@dataclass(frozen=True, slots=True)
class Binary:
    op: str
    lhs: Expr
    rhs: Expr
    line: int = 0


@dataclass(frozen=True, slots=True)
class Chain:
    """A comparison chain ``a <= b < c`` (also a single comparison)."""

    ops: tuple[str, ...]
    operands: tuple[Expr, ...]
    line: int = 0


@dataclass(frozen=True, slots=True)
class Cast:
    expr: Expr
    type: Type
    line: int = 0


@dataclass(frozen=True, slots=True)
class If:
    cond: Expr
    then: Expr
    else_: Expr | None
    line: int = 0


@dataclass(frozen=True, slots=True)
class Let:
    pat: Pat
    type: Type | None
    value: Expr


@dataclass(frozen=True, slots=True)
class Block:
    lets: tuple[Let, ...]
    tail: Expr
    line: int = 0


@dataclass(frozen=True, slots=True)
class Match:
    scrutinee: Expr
    arms: tuple[tuple[Pat, Expr | None, Expr], ...]  # (pattern, guard, body)
    line: int = 0


@dataclass(frozen=True, slots=True)
class Quant:
    kind: str  # "forall", "exists", "choose"
    binders: tuple[tuple[str, Type], ...]
    body: Expr
    line: int = 0


@dataclass(frozen=True, slots=True)
class Closure:
    params: tuple[tuple[str, Type | None], ...]
    body: Expr
    line: int = 0


@dataclass(frozen=True, slots=True)
class Tuple:
    items: tuple[Expr, ...]
    line: int = 0


@dataclass(frozen=True, slots=True)
class SeqLit:
    """``seq![a, b]`` or an array literal ``[a, b]``."""

    items: tuple[Expr, ...]
    line: int = 0


@dataclass(frozen=True, slots=True)
class StructLit:
    name: tuple[str, ...]
    fields: tuple[tuple[str, Expr], ...]
    line: int = 0


Expr = (
    Lit | Path | Call | MethodCall | Field | Index | View | Unary | Binary | Chain | Cast | If | Block | Match
    | Quant | Closure | Tuple | SeqLit | StructLit
)  # fmt: skip


# ---- patterns


@dataclass(frozen=True, slots=True)
class PWild:
    pass


@dataclass(frozen=True, slots=True)
class PBind:
    name: str


@dataclass(frozen=True, slots=True)
class PLit:
    value: Any


@dataclass(frozen=True, slots=True)
class PTuple:
    items: tuple[Pat, ...]


@dataclass(frozen=True, slots=True)
class PVariant:
    """``Some(x)``, ``None``, ``Enum::Variant(a, b)``, ``Enum::Variant { f, .. }``."""

    path: tuple[str, ...]
    items: tuple[Pat, ...] = field(default=())
    named: tuple[tuple[str, Pat], ...] | None = None


Pat = PWild | PBind | PLit | PTuple | PVariant
