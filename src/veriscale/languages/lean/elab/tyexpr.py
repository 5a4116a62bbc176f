"""Convert type expressions of the surface AST into ``values.types.Type``.

Types inside terms are parsed as ordinary terms (``List Int`` is an
application, ``A × B`` a ``BinOp``, ``A → B`` an ``Arrow``). A binder whose
"type" is a proposition (``(h : i < n)``, ``(h_precond : f_precond a)``) is a
proof binder: ``NotAType`` tells the caller so.
"""

from __future__ import annotations

from collections.abc import Callable

from veriscale.values.types import PROP, TYPE_CONSTRUCTORS, TCon, TFun, TVar, Type

from .. import ast as A
from ..errors import ElabError, Unsupported

__all__ = ["PROOF", "NotAType", "TypeNames", "to_type"]

# The type of proof terms (never evaluated; represented by None at runtime).
PROOF = TCon("Proof")

# name -> (canonical, arity): the shared table of ``values.types``; the short ``Std`` names
# resolve only through ``open Std`` (``TypeNames.lookup`` tries the opened namespaces).
_BUILTIN_TYPES: dict[str, tuple[str, int]] = {
    name: (name, arity) for name, arity in TYPE_CONSTRUCTORS.items()
}
# Mathlib's notations for the number types
_BUILTIN_TYPES.update({"ℕ": ("Nat", 0), "ℤ": ("Int", 0)})


class NotAType(Exception):
    """The expression is not a type (it is a proposition or a term)."""


class TypeNames:
    """What a type expression may refer to, at one point of the program."""

    def __init__(
        self,
        structs: dict[str, int],
        opens: tuple[str, ...] = (),
        tvars: dict[str, Type] | None = None,
        fresh: Callable[[], Type] | None = None,
        auto: dict[str, Type] | None = None,
    ) -> None:
        self.structs = structs
        self.opens = opens
        self.tvars = tvars or {}
        self.fresh = fresh
        # Lean's auto-bound implicits (definition headers only): unknown names become type variables
        self.auto = auto

    def lookup(self, name: str) -> tuple[str, int] | None:
        cands = [name, *(f"{o}.{name}" for o in self.opens)]
        for c in cands:
            if c in self.structs:
                return (c, self.structs[c])
            if c in _BUILTIN_TYPES:
                return _BUILTIN_TYPES[c]
        return None


def _head_args(e: A.Expr) -> tuple[A.Expr, list[A.Expr]]:
    if isinstance(e, A.App):
        head, args = _head_args(e.fn)
        for a in e.args:
            if a.name is not None:
                raise NotAType()
            args.append(a.value)
        return head, args
    return e, []


def to_type(e: A.Expr, names: TypeNames) -> Type:
    """Convert ``e`` to a type; raises ``NotAType`` for propositions and terms."""
    if isinstance(e, A.Sort):
        if e.name == "Prop":
            return PROP
        raise ElabError(f"universe {e.name} used as a value type", e.pos)
    if isinstance(e, A.Hole):
        if names.fresh is None:
            raise ElabError("cannot infer type '_'", e.pos)
        return names.fresh()
    if isinstance(e, A.Typed):
        return to_type(e.expr, names)
    if isinstance(e, A.BinOp):
        if e.op == "×":
            return TCon("Prod", (to_type(e.lhs, names), to_type(e.rhs, names)))
        raise NotAType()
    if isinstance(e, A.Arrow):
        lhs = to_type(e.lhs, names)
        rhs = to_type(e.rhs, names)
        if lhs == PROOF or rhs == PROOF:
            raise NotAType()
        return TFun(lhs, rhs)
    if isinstance(e, A.Ident | A.App):
        head, args = _head_args(e)
        if not isinstance(head, A.Ident):
            raise NotAType()
        name = head.name
        if name in names.tvars and not args:
            return names.tvars[name]
        if name == "Id" and len(args) == 1:
            return to_type(args[0], names)
        found = names.lookup(name)
        if found is None and not args and names.auto is not None and "." not in name and name.isidentifier():
            tv = names.auto.setdefault(name, TVar(name))
            return tv
        if found is None:
            if name in ("Fin", "Subtype", "Set", "Multiset", "Real", "Rat", "Nat.Primes"):
                raise Unsupported(f"type {name} is not supported", head.pos)
            raise NotAType()
        canon, arity = found
        if len(args) != arity:
            if not args and arity:
                raise ElabError(f"type {canon} expects {arity} argument(s)", head.pos)
            raise ElabError(f"type {canon} applied to {len(args)} argument(s), expects {arity}", head.pos)
        return TCon(canon, tuple(to_type(a, names) for a in args))
    raise NotAType()


def is_type_var_binder(b: A.Binder) -> list[str] | None:
    """``{α : Type}`` / ``(α : Type u)`` / ``{α}`` binder: the bound type-variable names, else None."""
    t = b.type
    if t is None:
        if b.kind == "implicit" and isinstance(b.pat, A.PVar):
            return [b.pat.name]
        return None
    if isinstance(t, A.Sort) and t.name != "Prop":
        if isinstance(b.pat, A.PVar):
            return [b.pat.name]
    return None


def tvar(name: str) -> TVar:
    return TVar(name)
