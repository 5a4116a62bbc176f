"""The program environment: user declarations in file order, plus the builtin library.

Name resolution follows Lean: a name is tried in the current namespace and
its parents, then at the root, then in every ``open``ed namespace. User
definitions are visible only after their declaration (and inside their own
body, for recursion); they take precedence over builtins, and the engine's
"specials" (``some``, ``decide``, ``toString``, …) sit between the two.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import ast as A
from ..builtins import registry
from ..errors import ElabError, LeanError
from .scope import DeclCtx, GlobalDef, NameGen, StructDef

__all__ = ["Env"]


def _load_builtins() -> None:
    try:
        from .. import builtins as B

        load = getattr(B, "load_all", None)
        if load is not None:
            load()
    except ImportError:  # pragma: no cover - the library is optional while it is being written
        pass


class Env:
    def __init__(self) -> None:
        _load_builtins()
        self.names = NameGen()
        self.structs: dict[str, StructDef] = {}
        self.defs: dict[str, list[GlobalDef]] = {}  # full name -> definitions in file order
        self.by_key: dict[str, GlobalDef] = {}
        self.next_index = 0
        # how to elaborate a pending global (set by decls.py)
        self.elaborate: Callable[[Env, GlobalDef], None] | None = None
        self.struct_defaults: dict[str, Any] = {}

    # ------------------------------------------------------------- helpers
    def struct_arities(self) -> dict[str, int]:
        return {n: len(s.params) for n, s in self.structs.items()}

    def new_index(self) -> int:
        self.next_index += 1
        return self.next_index

    def add_def(self, g: GlobalDef) -> None:
        self.defs.setdefault(g.name, []).append(g)
        self.by_key[g.key] = g

    @staticmethod
    def candidates(name: str, ctx: DeclCtx) -> list[str]:
        out: list[str] = []
        ns = ctx.namespace
        while ns:
            out.append(f"{ns}.{name}")
            ns = ns.rpartition(".")[0]
        out.append(name)
        for o in ctx.opens:
            out.append(f"{o}.{name}")
        return out

    def visible_def(self, full: str, ctx: DeclCtx) -> GlobalDef | None:
        found = None
        for g in self.defs.get(full, ()):
            if g.index < ctx.index or g.key == ctx.self_key:
                found = g
        return found

    # ------------------------------------------------------------ resolution
    def resolve_global(self, name: str, ctx: DeclCtx) -> tuple[str, Any] | None:
        from .specials import SPECIALS

        for cand in self.candidates(name, ctx):
            g = self.visible_def(cand, ctx)
            if g is not None:
                return ("def", g)
            if cand in SPECIALS:
                return ("special", SPECIALS[cand])
            r = self._struct_member(cand)
            if r is not None:
                return r
            b = registry.lookup(cand)
            if b is not None:
                return ("builtin", b)
        return None

    def resolve_any(self, name: str, ctx: DeclCtx) -> tuple[str, Any] | None:
        return self.resolve_global(name, ctx)

    def _struct_member(self, full: str) -> tuple[str, Any] | None:
        sname, _, member = full.rpartition(".")
        sd = self.structs.get(sname)
        if sd is None:
            return None
        if member == "mk":
            return ("ctor", sd)
        for i, (fname, _) in enumerate(sd.fields):
            if fname == member:
                return ("proj", (sd, i))
        return None

    def resolve_method(self, full: str, ctx: DeclCtx) -> tuple[str, Any] | None:
        """``T.f`` for dot notation (``T`` is a type's full name)."""
        from .specials import SPECIALS

        g = self.visible_def(full, ctx)
        if g is not None:
            return ("def", g)
        if full in SPECIALS:
            return ("special", SPECIALS[full])
        b = registry.lookup(full)
        if b is not None:
            return ("builtin", b)
        return None

    # -------------------------------------------------------------- globals
    def signature(self, g: GlobalDef, pos: A.Pos | None) -> GlobalDef:
        """Make sure ``g``'s parameter and result types are known (elaborating it if needed)."""
        if g.state == "done" or (g.state == "elaborating" and g.ret is not None):
            return g
        if g.state == "error":
            assert g.error is not None
            raise g.error
        if g.state == "elaborating":
            raise ElabError(f"definition '{g.name}' used before its type is known", pos)
        assert self.elaborate is not None
        try:
            self.elaborate(self, g)
        except LeanError as exc:
            g.state = "error"
            g.error = exc
            raise
        return g

    def user_beq(self, type_name: str) -> GlobalDef | None:
        sd = self.structs.get(type_name)
        if sd is None or sd.beq_key is None:
            return None
        return self.by_key.get(sd.beq_key)
