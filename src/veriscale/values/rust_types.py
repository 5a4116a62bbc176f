"""Rust (and Verus spec) types in the shared ``TCon`` model.

``parse_rust_type("Vec<(i64, bool)>")`` gives
``TCon("Vec", (TCon("Tuple", (TCon("i64"), TCon("bool"))),))``.

Naming (documented choice):

* machine integers keep their Rust names: ``TCon("i32")``, ``TCon("usize")``, …;
  ``bool``, ``char``, ``String`` and ``str`` likewise;
* ``Vec<T>`` is ``TCon("Vec", (T,))``, ``Option<T>`` is ``TCon("Option", (T,))``
  (the Lean ``Option`` constructor: same runtime ``None``/``Some``);
* tuples are one **n-ary** ``TCon("Tuple", (A, B, …))`` (not nested ``Prod``):
  Rust tuples are flat, ``.2`` is a field of the tuple, and the runtime value
  is a flat Python tuple; ``()`` is the shared ``Unit``;
* borrows stay visible in the type so signatures render back faithfully:
  ``&T`` is ``TCon("Ref", (T,))``, ``&mut T`` is ``TCon("RefMut", (T,))``,
  ``[T]`` is ``TCon("Slice", (T,))``. ``value_type`` strips them
  (``&[T]`` and ``&Vec<T>`` hold the same value as ``Vec<T>``, ``&str`` as ``String``);
* Verus spec types: ``int``, ``nat``, ``Seq<T>``, ``Set<T>``, ``Map<K, V>``,
  ``Multiset<T>``; ``Ghost<T>``/``Tracked<T>`` wrappers are kept as constructors;
* any other capitalised path (``Self``, ``MountainArray``) is a user type
  ``TCon(name)``, with its generic arguments if written.

Runtime values (see ``values.runtime``): integers are ``int``, ``char`` a
one-character ``str``, ``String`` a ``str``, ``Vec``/``Seq``/slices tuples,
tuples flat tuples, ``Option`` ``None``/``Some``.
"""

from __future__ import annotations

from .types import UNIT, TCon, TFun, TVar, Type, TypeParseError

__all__ = [
    "INT_RANGES",
    "RUST_SCALARS",
    "SPEC_INT_TYPES",
    "int_range",
    "is_int_type",
    "parse_rust_type",
    "render_rust_type",
    "value_type",
]

# name -> (min, max) inclusive; usize/isize are the 64-bit target's.
INT_RANGES: dict[str, tuple[int, int]] = {
    "i8": (-(2**7), 2**7 - 1),
    "i16": (-(2**15), 2**15 - 1),
    "i32": (-(2**31), 2**31 - 1),
    "i64": (-(2**63), 2**63 - 1),
    "i128": (-(2**127), 2**127 - 1),
    "isize": (-(2**63), 2**63 - 1),
    "u8": (0, 2**8 - 1),
    "u16": (0, 2**16 - 1),
    "u32": (0, 2**32 - 1),
    "u64": (0, 2**64 - 1),
    "u128": (0, 2**128 - 1),
    "usize": (0, 2**64 - 1),
}
SPEC_INT_TYPES = ("int", "nat")
RUST_SCALARS = (*INT_RANGES, "bool", "char", "String", "str", *SPEC_INT_TYPES)

# generic constructor -> arity
_GENERICS: dict[str, int] = {
    "Vec": 1,
    "Option": 1,
    "Seq": 1,
    "Set": 1,
    "Multiset": 1,
    "Map": 2,
    "Ghost": 1,
    "Tracked": 1,
    "Box": 1,
}


def is_int_type(t: Type) -> bool:
    """Machine or spec integer type (``i32``, ``usize``, ``int``, ``nat``, …)."""
    return isinstance(t, TCon) and not t.args and (t.name in INT_RANGES or t.name in SPEC_INT_TYPES)


def int_range(t: Type) -> tuple[int | None, int | None]:
    """Inclusive bounds of an integer type; ``None`` for an unbounded side."""
    assert isinstance(t, TCon)
    if t.name in INT_RANGES:
        return INT_RANGES[t.name]
    if t.name == "nat":
        return (0, None)
    return (None, None)


def _tokenize(text: str) -> list[str]:
    toks: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif text.startswith("::", i):
            toks.append("::")
            i += 2
        elif c in "<>(),&[];":
            toks.append(c)
            i += 1
        elif c == "'":  # lifetime: skipped (``&'a str``)
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            i = j
        elif c.isalnum() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            toks.append(text[i:j])
            i = j
        else:
            raise TypeParseError(f"unexpected character {c!r} in Rust type {text!r}")
    return toks


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokenize(text)
        self.pos = 0

    def peek(self) -> str | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None:
            raise TypeParseError(f"unexpected end of Rust type {self.text!r}")
        if want is not None and tok != want:
            raise TypeParseError(f"expected {want!r}, found {tok!r} in Rust type {self.text!r}")
        self.pos += 1
        return tok

    def parse(self) -> Type:
        if not self.toks:
            raise TypeParseError("empty Rust type string")
        t = self.ty()
        if self.peek() is not None:
            raise TypeParseError(f"unexpected {self.peek()!r} in Rust type {self.text!r}")
        return t

    def ty(self) -> Type:
        tok = self.peek()
        if tok == "&":
            self.take()
            if self.peek() == "mut":
                self.take()
                return TCon("RefMut", (self.ty(),))
            return TCon("Ref", (self.ty(),))
        if tok == "(":
            self.take()
            items: list[Type] = []
            while self.peek() != ")":
                items.append(self.ty())
                if self.peek() == ",":
                    self.take()
                elif self.peek() != ")":
                    raise TypeParseError(f"expected ',' or ')' in Rust type {self.text!r}")
            self.take(")")
            if not items:
                return UNIT
            if len(items) == 1 and self.toks[self.pos - 2] != ",":
                return items[0]  # parenthesised type, not a 1-tuple
            return TCon("Tuple", tuple(items))
        if tok == "[":
            self.take()
            elem = self.ty()
            if self.peek() == ";":
                raise TypeParseError(f"fixed-size arrays are not supported: {self.text!r}")
            self.take("]")
            return TCon("Slice", (elem,))
        return self.path()

    def path(self) -> Type:
        name = self.take()
        if not (name[0].isalpha() or name[0] == "_"):
            raise TypeParseError(f"expected a type name, found {name!r} in {self.text!r}")
        # qualified paths (``std::vec::Vec``, ``vstd::seq::Seq``): keep the last segment
        while self.peek() == "::":
            self.take()
            name = self.take()
        args: list[Type] = []
        if self.peek() == "<":
            self.take()
            while self.peek() != ">":
                args.append(self.ty())
                if self.peek() == ",":
                    self.take()
                elif self.peek() != ">":
                    raise TypeParseError(f"expected ',' or '>' in Rust type {self.text!r}")
            self.take(">")
        if name in _GENERICS and len(args) != _GENERICS[name]:
            raise TypeParseError(f"{name} expects {_GENERICS[name]} type argument(s) in {self.text!r}")
        if name in RUST_SCALARS and args:
            raise TypeParseError(f"{name} takes no type arguments in {self.text!r}")
        return TCon(name, tuple(args))


def parse_rust_type(text: str) -> Type:
    """Parse a Rust/Verus type string into the shared type model (see module doc)."""
    return _Parser(text).parse()


def value_type(t: Type) -> Type:
    """The type of the value a parameter holds: borrows removed, ``[T]`` → ``Vec<T>``, ``str`` → ``String``.

    Applied recursively, so ``&Vec<&str>`` becomes ``Vec<String>``.
    """
    if not isinstance(t, TCon):
        return t
    if t.name in ("Ref", "RefMut", "Box"):
        return value_type(t.args[0])
    if t.name == "Slice":
        return TCon("Vec", (value_type(t.args[0]),))
    if t.name == "str":
        return TCon("String")
    if not t.args:
        return t
    return TCon(t.name, tuple(value_type(a) for a in t.args))


def render_rust_type(t: Type) -> str:
    """Rust spelling of a type in this model (``Vec<(i64, bool)>``, ``&[i32]``, ``()``)."""
    if isinstance(t, TVar):
        return t.name
    if isinstance(t, TFun):
        raise TypeParseError("function types have no Rust spelling here")
    if t == UNIT:
        return "()"
    if t.name == "Ref":
        return "&" + render_rust_type(t.args[0])
    if t.name == "RefMut":
        return "&mut " + render_rust_type(t.args[0])
    if t.name == "Slice":
        return f"[{render_rust_type(t.args[0])}]"
    if t.name == "Tuple":
        inner = ", ".join(render_rust_type(a) for a in t.args)
        return f"({inner},)" if len(t.args) == 1 else f"({inner})"
    if not t.args:
        return t.name
    return f"{t.name}<{', '.join(render_rust_type(a) for a in t.args)}>"
