"""Typed intermediate representation produced by the elaborator.

The elaborator turns the surface AST into these nodes: names are resolved to
unique Python-safe local names or to globals/builtins, implicit coercions are
explicit ``Coe`` nodes, operators carry the type of their operands, and every
node carries its Lean type (possibly with metavariables until the enclosing
definition is finished; the code generator zonks them).

Patterns are desugared to a small set of shapes the code generator can test
with plain Python expressions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from veriscale.values.types import Type

# ----------------------------------------------------------------- patterns


@dataclass(eq=False, slots=True)
class PVar:
    name: str  # python name of the bound variable


@dataclass(eq=False, slots=True)
class PWild:
    pass


@dataclass(eq=False, slots=True)
class PLit:
    """Equality test against a literal value; ``ty`` decides numeral representation."""

    value: Any
    ty: Type


@dataclass(eq=False, slots=True)
class PCons:
    head: Pat
    tail: Pat


@dataclass(eq=False, slots=True)
class PSeq:
    """``[a, b]`` or ``#[a, b]``: exact length."""

    elems: list[Pat]


@dataclass(eq=False, slots=True)
class PPair:
    fst: Pat
    snd: Pat


@dataclass(eq=False, slots=True)
class PSome:
    pat: Pat


@dataclass(eq=False, slots=True)
class PNone:
    pass


@dataclass(eq=False, slots=True)
class PStruct:
    name: str
    fields: list[Pat]


@dataclass(eq=False, slots=True)
class PSucc:
    """``p + k`` on Nat."""

    pat: Pat
    k: int


@dataclass(eq=False, slots=True)
class PAs:
    name: str
    pat: Pat


Pat = PVar | PWild | PLit | PCons | PSeq | PPair | PSome | PNone | PStruct | PSucc | PAs


# -------------------------------------------------------------- expressions


@dataclass(eq=False, slots=True)
class Node:
    ty: Type


@dataclass(eq=False, slots=True)
class Var(Node):
    name: str


@dataclass(eq=False, slots=True)
class Glob(Node):
    """A user definition used as a value (``key`` indexes the program's globals)."""

    key: str


@dataclass(eq=False, slots=True)
class Bltn(Node):
    """A builtin used as a value. ``inst`` is the type whose default value the builtin needs."""

    name: str
    inst: Type | None = None


@dataclass(eq=False, slots=True)
class Lit(Node):
    value: Any


@dataclass(eq=False, slots=True)
class Num(Node):
    """A numeral (``OfNat``) or scientific literal (``text`` set); its type decides the value."""

    value: int
    text: str | None = None


@dataclass(eq=False, slots=True)
class Call(Node):
    """Saturated call of a known function: ``target`` is a ``Glob``, ``Bltn`` or ``LocalFn``."""

    target: Node
    args: list[Node]


@dataclass(eq=False, slots=True)
class BDefault(Node):
    """An omitted optional argument of builtin ``name``: its ``k``-th default, computed at runtime
    from the arguments before it (``Array.foldl``'s ``stop := as.size``)."""

    name: str
    k: int


@dataclass(eq=False, slots=True)
class LocalFn(Node):
    """A local function defined by ``LetFun`` (direct-callable with ``arity`` arguments)."""

    name: str
    arity: int


@dataclass(eq=False, slots=True)
class App(Node):
    """Curried application of a function value."""

    fn: Node
    args: list[Node]


@dataclass(eq=False, slots=True)
class Lam(Node):
    params: list[str]
    body: Node


@dataclass(eq=False, slots=True)
class Let(Node):
    name: str
    value: Node
    body: Node


@dataclass(eq=False, slots=True)
class FunDef:
    name: str
    params: list[str]
    body: Node | None  # filled after elaboration of the body
    ty: Type
    charge: bool = True


@dataclass(eq=False, slots=True)
class LetFun(Node):
    """Local (possibly mutually recursive) functions, all visible in ``body`` and each other."""

    funs: list[FunDef]
    body: Node


@dataclass(eq=False, slots=True)
class If(Node):
    cond: Node
    then: Node
    els: Node


@dataclass(eq=False, slots=True)
class Arm:
    pats: list[Pat]
    rhs: Any  # Node, or a list of do-statements inside a do block


@dataclass(eq=False, slots=True)
class Match(Node):
    discrs: list[Node]
    arms: list[Arm]


@dataclass(eq=False, slots=True)
class Prim(Node):
    """Primitive operator; ``opty`` is the (zonkable) type of the operands."""

    op: str
    args: list[Node]
    opty: Type


@dataclass(eq=False, slots=True)
class Coe(Node):
    """Implicit coercion: ``kind`` in {"some", "nat_int", "bool_prop", "prop_bool", "id"}."""

    kind: str
    expr: Node


@dataclass(eq=False, slots=True)
class MkPair(Node):
    fst: Node
    snd: Node


@dataclass(eq=False, slots=True)
class MkSeq(Node):
    """List or array literal (both are tuples at runtime)."""

    elems: list[Node]


@dataclass(eq=False, slots=True)
class MkSome(Node):
    expr: Node


@dataclass(eq=False, slots=True)
class MkStruct(Node):
    name: str
    fields: list[tuple[str, Node]]


@dataclass(eq=False, slots=True)
class Field(Node):
    """Projection: ``kind`` "fst"/"snd" (Prod) or "struct" (``index`` = field position)."""

    expr: Node
    kind: str
    index: int = 0


@dataclass(eq=False, slots=True)
class Index(Node):
    """``coll[i]!`` (kind "!"), ``coll[i]?`` ("?"), ``coll[i]`` (""). ``coll_kind`` "seq" or "map"."""

    coll: Node
    index: Node
    kind: str
    coll_kind: str = "seq"


@dataclass(eq=False, slots=True)
class Quant(Node):
    """A quantifier over ``var`` of type ``var_ty``; ``binder_bound`` is ("∈"|"<"|"≤", node) or None."""

    kind: str
    var: str
    var_ty: Type
    binder_bound: tuple[str, Node] | None
    body: Node


@dataclass(eq=False, slots=True)
class Default(Node):
    """``default``/``panic!``: the Inhabited value of ``ty``."""


@dataclass(eq=False, slots=True)
class ToStr(Node):
    """``toString``/``repr`` of a value of type ``arg.ty``."""

    arg: Node
    repr: bool = False


@dataclass(eq=False, slots=True)
class Postponed(Node):
    """A term whose elaboration waited for type information; ``node`` is filled in later."""

    node: Node | None = None
    ast: Any = None
    scope: Any = None
    expected: Type | None = None
    extra: Any = None


@dataclass(eq=False, slots=True)
class DoBlock(Node):
    stmts: list[Any] = field(default_factory=list)


# ------------------------------------------------------------ do statements


@dataclass(eq=False, slots=True)
class DLet:
    name: str
    value: Node


@dataclass(eq=False, slots=True)
class DLetPat:
    pat: Pat
    value: Node


@dataclass(eq=False, slots=True)
class DFor:
    pat: Pat
    iterable: Node | None
    range: tuple[Node, Node, Node | None] | None
    body: list[Any]


@dataclass(eq=False, slots=True)
class DWhile:
    cond: Node | None
    body: list[Any]


@dataclass(eq=False, slots=True)
class DIf:
    cond: Node
    then: list[Any]
    els: list[Any]


@dataclass(eq=False, slots=True)
class DMatch:
    discrs: list[Node]
    arms: list[Arm]


@dataclass(eq=False, slots=True)
class DReturn:
    value: Node


@dataclass(eq=False, slots=True)
class DBreak:
    pass


@dataclass(eq=False, slots=True)
class DContinue:
    pass


@dataclass(eq=False, slots=True)
class DEval:
    value: Node
