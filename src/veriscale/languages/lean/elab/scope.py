"""Environments: local scopes, global definitions, structures, namespaces.

Locals live in an immutable chain of dictionaries (``Scope``): extending a
scope never changes the parent, which makes shadowing and branch-local
bindings trivial. Every Lean binder gets a unique Python-safe name.

Globals are the user's top-level definitions in file order. A definition may
only refer to earlier ones (and to itself, for recursion), as in Lean; each
is elaborated on first use. User definitions shadow builtins of the same
name (``insert``/``empty``/``find?`` in verina_basic_104), and user namespace
extensions (``def List.myprod``) take part in dot notation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from veriscale.values.types import Type

from .. import ast as A

__all__ = ["DeclCtx", "DoCtx", "GlobalDef", "Local", "NameGen", "Scope", "StructDef"]


class NameGen:
    """Unique, Python-safe identifiers (never a keyword: they carry a numeric suffix)."""

    _BAD = re.compile(r"[^0-9A-Za-z_]")

    def __init__(self) -> None:
        self.n = 0

    def new(self, hint: str, prefix: str = "l") -> str:
        self.n += 1
        base = self._BAD.sub("_", hint.encode("ascii", "replace").decode("ascii"))[:24]
        return f"{prefix}_{base}_{self.n}"


@dataclass(slots=True)
class Local:
    pyname: str
    ty: Type
    fn_arity: int | None = None  # a LetFun-defined function, callable directly
    mutable: bool = False
    proof: bool = False


@dataclass(slots=True)
class DoCtx:
    """Context of the innermost ``do`` block."""

    ret_ty: Type
    in_loop: bool = False


@dataclass(slots=True)
class DeclCtx:
    """Where an expression lives: namespace, opened namespaces, position in the file."""

    namespace: str = ""
    opens: tuple[str, ...] = ()
    index: int = 0  # only globals with a smaller index (or ``self_key``) are visible
    self_key: str | None = None
    tvars: dict[str, Type] = field(default_factory=dict)


class Scope:
    __slots__ = ("ctx", "do", "parent", "vars")

    def __init__(
        self,
        vars: dict[str, Local] | None = None,
        parent: Scope | None = None,
        ctx: DeclCtx | None = None,
        do: DoCtx | None = None,
    ) -> None:
        self.vars = vars or {}
        self.parent = parent
        self.ctx = ctx if ctx is not None else (parent.ctx if parent else DeclCtx())
        self.do = do if do is not None else (parent.do if parent else None)

    def lookup(self, name: str) -> Local | None:
        s: Scope | None = self
        while s is not None:
            v = s.vars.get(name)
            if v is not None:
                return v
            s = s.parent
        return None

    def extend(self, **_: Any) -> Scope:
        return Scope({}, self)

    def bind(self, name: str, local: Local) -> Scope:
        return Scope({name: local}, self)

    def bind_many(self, items: dict[str, Local]) -> Scope:
        return Scope(dict(items), self) if items else self

    def with_do(self, do: DoCtx | None) -> Scope:
        return Scope({}, self, do=do) if do is not None else Scope({}, self, do=None)


@dataclass(slots=True)
class GlobalDef:
    """A user top-level definition (or an instance method / structure projection)."""

    name: str
    key: str
    pyname: str
    decl: A.Def | None
    index: int
    ctx: DeclCtx
    state: str = "pending"  # pending | elaborating | done | error
    tvars: list[str] = field(default_factory=list)
    params: list[tuple[str, Type]] = field(default_factory=list)  # explicit parameters
    ret: Type | None = None
    arity: int = 0
    body: Any = None  # IR
    param_pynames: list[str] = field(default_factory=list)
    error: BaseException | None = None
    is_prop: bool = False
    section: str = ""


@dataclass(slots=True)
class StructDef:
    name: str
    params: list[str]
    fields: list[tuple[str, Type]]  # types over TVar(params)
    defaults: list[A.Expr | None]
    inhabited: bool
    beq_key: str | None = None
    index: int = 0
