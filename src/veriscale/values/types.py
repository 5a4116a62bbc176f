"""A small AST for Lean types, and a parser for the type strings benchmarks use.

Types are immutable and hashable. Every concrete type is a ``TCon`` (a named
constructor applied to arguments); functions are ``TFun``; ``TVar`` is a type
variable (used in builtin signatures such as ``List α → Nat``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BOOL",
    "CHAR",
    "FLOAT",
    "INT",
    "NAT",
    "PROP",
    "STRING",
    "TYPE_CONSTRUCTORS",
    "UINT8",
    "UNIT",
    "TCon",
    "TFun",
    "TVar",
    "Type",
    "TypeParseError",
    "array_of",
    "fun_of",
    "hashmap_of",
    "hashset_of",
    "list_of",
    "option_of",
    "parse_type",
    "prod_of",
    "render_type",
]


class TypeParseError(ValueError):
    """A type string that is malformed or names an unknown type."""


@dataclass(frozen=True, slots=True)
class TCon:
    name: str
    args: tuple[Type, ...] = ()

    def __str__(self) -> str:
        return render_type(self)


@dataclass(frozen=True, slots=True)
class TFun:
    arg: Type
    res: Type

    def __str__(self) -> str:
        return render_type(self)


@dataclass(frozen=True, slots=True)
class TVar:
    name: str

    def __str__(self) -> str:
        return self.name


Type = TCon | TFun | TVar

NAT = TCon("Nat")
INT = TCon("Int")
BOOL = TCon("Bool")
PROP = TCon("Prop")
CHAR = TCon("Char")
STRING = TCon("String")
FLOAT = TCon("Float")
UINT8 = TCon("UInt8")
UNIT = TCon("Unit")


def list_of(t: Type) -> TCon:
    return TCon("List", (t,))


def array_of(t: Type) -> TCon:
    return TCon("Array", (t,))


def option_of(t: Type) -> TCon:
    return TCon("Option", (t,))


def prod_of(a: Type, b: Type) -> TCon:
    return TCon("Prod", (a, b))


def hashmap_of(k: Type, v: Type) -> TCon:
    return TCon("Std.HashMap", (k, v))


def hashset_of(t: Type) -> TCon:
    return TCon("Std.HashSet", (t,))


def fun_of(*ts: Type) -> Type:
    """``fun_of(a, b, c)`` is ``a → b → c``."""
    res = ts[-1]
    for t in reversed(ts[:-1]):
        res = TFun(t, res)
    return res


# The one table of type constructors, shared with the Lean elaborator
# (``lean/elab/tyexpr.py``): canonical name -> arity.
TYPE_CONSTRUCTORS: dict[str, int] = {
    "Nat": 0,
    "Int": 0,
    "Bool": 0,
    "Prop": 0,
    "Char": 0,
    "String": 0,
    "Float": 0,
    "UInt8": 0,
    "Unit": 0,
    "List": 1,
    "Array": 1,
    "Option": 1,
    "Prod": 2,
    "Std.HashMap": 2,
    "Std.HashSet": 1,
    "String.Iterator": 0,
    "Std.Range": 0,
    "Finset": 1,
}

# Dataset signatures are written after ``open Std``, so the short names are accepted here too
# (the elaborator accepts them only where ``Std`` is open).
_CONSTRUCTORS: dict[str, tuple[str, int]] = {
    **{name: (name, arity) for name, arity in TYPE_CONSTRUCTORS.items()},
    **{name[4:]: (name, TYPE_CONSTRUCTORS[name]) for name in ("Std.HashMap", "Std.HashSet")},
}


def _tokenize(text: str) -> list[str]:
    toks: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c in "()×":
            toks.append(c)
            i += 1
        elif c == "→":
            toks.append("→")
            i += 1
        elif text.startswith("->", i):
            toks.append("→")
            i += 2
        elif c.isalpha() or c == "_" or c in "αβγδ":
            j = i
            while j < n and (text[j].isalnum() or text[j] in "_.'" or text[j] in "αβγδ"):
                j += 1
            toks.append(text[i:j])
            i = j
        else:
            raise TypeParseError(f"unexpected character {c!r} in type {text!r}")
    return toks


class _TypeParser:
    def __init__(self, text: str, structs: dict[str, int], type_vars: frozenset[str]) -> None:
        self.text = text
        self.toks = _tokenize(text)
        self.pos = 0
        self.structs = structs
        self.type_vars = type_vars

    def peek(self) -> str | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise TypeParseError(f"unexpected end of type {self.text!r}")
        self.pos += 1
        return tok

    def parse(self) -> Type:
        if not self.toks:
            raise TypeParseError("empty type string")
        t = self.arrow()
        if self.peek() is not None:
            raise TypeParseError(f"unexpected {self.peek()!r} in type {self.text!r}")
        return t

    # arrow < product < application
    def arrow(self) -> Type:
        lhs = self.product()
        if self.peek() == "→":
            self.take()
            return TFun(lhs, self.arrow())
        return lhs

    def product(self) -> Type:
        lhs = self.application()
        if self.peek() == "×":
            self.take()
            return prod_of(lhs, self.product())
        return lhs

    def application(self) -> Type:
        tok = self.peek()
        if tok is None or tok in (")", "×", "→"):
            raise TypeParseError(f"expected a type in {self.text!r}")
        if tok == "(":
            return self.atom()
        name = self.take()
        arity = self._arity(name)
        args: list[Type] = []
        while len(args) < arity:
            nxt = self.peek()
            if nxt is None or nxt in (")", "×", "→"):
                raise TypeParseError(f"type {name} expects {arity} argument(s) in {self.text!r}")
            args.append(self.atom())
        canon = _CONSTRUCTORS[name][0] if name in _CONSTRUCTORS else name
        if name in self.type_vars:
            return TVar(name)
        return TCon(canon, tuple(args))

    def atom(self) -> Type:
        tok = self.take()
        if tok == "(":
            t = self.arrow()
            if self.take() != ")":
                raise TypeParseError(f"missing ')' in type {self.text!r}")
            return t
        if tok in (")", "×", "→"):
            raise TypeParseError(f"unexpected {tok!r} in type {self.text!r}")
        if tok in self.type_vars:
            return TVar(tok)
        arity = self._arity(tok)
        if arity != 0:
            raise TypeParseError(f"type {tok} needs {arity} argument(s); parenthesize it in {self.text!r}")
        return TCon(_CONSTRUCTORS[tok][0] if tok in _CONSTRUCTORS else tok)

    def _arity(self, name: str) -> int:
        if name in self.type_vars:
            return 0
        if name in _CONSTRUCTORS:
            return _CONSTRUCTORS[name][1]
        if name in self.structs:
            return self.structs[name]
        raise TypeParseError(f"unknown type {name!r} in {self.text!r}")


def parse_type(
    text: str,
    structs: dict[str, int] | None = None,
    type_vars: frozenset[str] | set[str] = frozenset(),
) -> Type:
    """Parse a Lean type string.

    ``structs`` maps user structure names (declared by the task, e.g. ``Map``)
    to their number of type parameters. ``type_vars`` names type variables.
    """
    return _TypeParser(text, structs or {}, frozenset(type_vars)).parse()


def render_type(t: Type) -> str:
    """Canonical Lean spelling (``List Int``, ``Int × Int``, ``Option (List Nat)``)."""
    return _render(t, 0)


def _render(t: Type, prec: int) -> str:
    # prec: 0 top, 1 product operand, 2 arrow lhs, 3 application argument
    if isinstance(t, TVar):
        return t.name
    if isinstance(t, TFun):
        s = f"{_render(t.arg, 2)} → {_render(t.res, 0)}"
        return f"({s})" if prec >= 1 else s
    if t.name == "Prod" and len(t.args) == 2:
        s = f"{_render(t.args[0], 2)} × {_render(t.args[1], 1)}"
        return f"({s})" if prec >= 2 else s
    if not t.args:
        return t.name
    s = " ".join([t.name, *(_render(a, 3) for a in t.args)])
    return f"({s})" if prec >= 3 else s
