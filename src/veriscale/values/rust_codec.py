"""The codec for Rust-typed values (types from ``values.rust_types``).

* ``decode(t, raw)`` reads the JSON encoding VeriContest uses (integers as
  JSON numbers, ``String``/``char``/``Vec<char>`` as JSON strings, ``Vec`` and
  tuples as arrays, ``Option`` as ``null`` or the value, ``()`` as ``null``,
  structs as objects). Strict: fixed-width integers are range-checked, ``nat``
  must be non-negative, a ``char`` is exactly one Unicode scalar value. Every
  failure is the shared ``codec.DecodeError`` with a groupable ``reason``.
* ``to_json(t, v)`` writes that JSON back (the inverse of ``decode``).
* ``encode_rust(t, v)`` writes a Rust literal (``vec![1, 2]``, ``String::from("a")``).
* ``key(t, v)`` is the canonical, type-qualified de-duplication key, in the
  same ``"<type> ∋ <canonical text>"`` scheme as ``codec.key``; borrows do
  not change a value's key (``&Vec<i32>`` and ``Vec<i32>`` agree).

Runtime values are those of ``values.runtime`` (see ``rust_types``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .codec import DecodeError, ValueContext
from .runtime import Some, Struct
from .rust_text import quote_rust_char_body, quote_rust_string
from .rust_types import INT_RANGES, render_rust_type, value_type
from .types import UNIT, TCon, Type

__all__ = [
    "RustStructs",
    "decode",
    "encode_rust",
    "key",
    "to_json",
]

# struct name -> fields in declaration order
RustStructs = Mapping[str, Sequence[tuple[str, Type]]]

_SEQS = ("Vec", "Seq", "Slice")
_TRANSPARENT = ("Ref", "RefMut", "Box", "Ghost", "Tracked")


def _kind(raw: Any) -> str:
    if isinstance(raw, bool):
        return "JSON bool"
    if isinstance(raw, int):
        return "JSON integer"
    if isinstance(raw, float):
        return "JSON float"
    if isinstance(raw, str):
        return "JSON string"
    if isinstance(raw, list):
        return "JSON list"
    if isinstance(raw, dict):
        return "JSON object"
    if raw is None:
        return "JSON null"
    return type(raw).__name__


def _scalar_text(s: str, what: str) -> str:
    for c in s:
        if 0xD800 <= ord(c) <= 0xDFFF:
            raise DecodeError(f"{what} contains a lone surrogate", detail="not a Unicode scalar value")
    return s


def decode(t: Type, raw: Any, *, structs: RustStructs | None = None, ctx: ValueContext | None = None) -> Any:
    """Decode a JSON value of Rust type ``t`` into its runtime value (strict)."""
    try:
        return _decode(t, raw, structs or {})
    except DecodeError as err:
        raise err.located(ctx, raw) from None


def _decode(t: Type, raw: Any, structs: RustStructs) -> Any:
    if not isinstance(t, TCon):
        raise DecodeError(f"cannot decode a value of type {t}")
    name = t.name
    if name in _TRANSPARENT:
        return _decode(t.args[0], raw, structs)
    if name in INT_RANGES or name in ("int", "nat"):
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise DecodeError(f"{_kind(raw)} given for {name}")
        if name in INT_RANGES:
            lo, hi = INT_RANGES[name]
            if not lo <= raw <= hi:
                raise DecodeError(f"{name} out of range", detail=f"{raw} is not in {lo}..={hi}")
        elif name == "nat" and raw < 0:
            raise DecodeError("nat is negative")
        return raw
    if name == "bool":
        if isinstance(raw, bool):
            return raw
        raise DecodeError(f"{_kind(raw)} given for bool")
    if name == "char":
        if not isinstance(raw, str):
            raise DecodeError(f"{_kind(raw)} given for char")
        if len(raw) != 1:
            raise DecodeError("char is not one character", detail=f"{len(raw)} characters")
        return _scalar_text(raw, "char")
    if name in ("String", "str"):
        if isinstance(raw, str):
            return _scalar_text(raw, "String")
        raise DecodeError(f"{_kind(raw)} given for String")
    if name in _SEQS:
        elem = t.args[0]
        if isinstance(raw, str) and elem == TCon("char"):
            return tuple(_scalar_text(raw, "Vec<char>"))
        if isinstance(raw, list):
            return tuple(_decode(elem, x, structs) for x in raw)
        raise DecodeError(f"{_kind(raw)} given for {render_rust_type(t)}")
    if name == "Tuple":
        if not isinstance(raw, list):
            raise DecodeError(f"{_kind(raw)} given for {render_rust_type(t)}")
        if len(raw) != len(t.args):
            raise DecodeError(
                f"{len(raw)}-component array given for {len(t.args)}-tuple", detail=render_rust_type(t)
            )
        return tuple(_decode(a, x, structs) for a, x in zip(t.args, raw))
    if t == UNIT:
        if raw is None or raw == []:
            return ()
        raise DecodeError(f"{_kind(raw)} given for ()")
    if name == "Option":
        return None if raw is None else Some(_decode(t.args[0], raw, structs))
    if name in structs:
        if not isinstance(raw, dict):
            raise DecodeError(f"{_kind(raw)} given for struct {name}")
        fields = structs[name]
        names = [f for f, _ in fields]
        unknown = sorted(set(raw) - set(names))
        missing = [f for f in names if f not in raw]
        if unknown or missing:
            raise DecodeError(
                f"fields of struct {name} do not match",
                detail=f"unknown: {', '.join(unknown) or '-'}; missing: {', '.join(missing) or '-'}",
            )
        return Struct(name, tuple((f, _decode(ft, raw[f], structs)) for f, ft in fields))
    raise DecodeError(f"unsupported Rust type {render_rust_type(t)}")


_CHAR = TCon("char")
_SCALAR_NAMES = frozenset(INT_RANGES) | {"int", "nat", "bool", "char", "String", "str"}


def _scalar(t: Type) -> bool:
    """Whether ``to_json`` returns a value of type ``t`` unchanged (a scalar, behind any transparent wrapper)."""
    while isinstance(t, TCon) and t.name in _TRANSPARENT:
        t = t.args[0]
    return isinstance(t, TCon) and t.name in _SCALAR_NAMES


def to_json(t: Type, v: Any, *, structs: RustStructs | None = None) -> Any:
    """The JSON encoding of a runtime value (inverse of ``decode``)."""
    st = structs or {}
    if not isinstance(t, TCon):
        raise TypeError(f"cannot encode a value of type {t}")
    name = t.name
    if name in _TRANSPARENT:
        return to_json(t.args[0], v, structs=st)
    if name in INT_RANGES or name in ("int", "nat", "bool", "char", "String", "str"):
        return v
    if name in _SEQS:
        elem = t.args[0]
        if elem == _CHAR:
            return "".join(v)
        if _scalar(elem):  # each element is its own JSON (the branch above): one list, no call per element
            return list(v)
        return [to_json(elem, x, structs=st) for x in v]
    if name == "Tuple":
        return [to_json(a, x, structs=st) for a, x in zip(t.args, v)]
    if t == UNIT:
        return None
    if name == "Option":
        return None if v is None else to_json(t.args[0], v.val, structs=st)
    if isinstance(v, Struct):
        fields = dict(st.get(name, ()))
        return {f: to_json(fields[f], x, structs=st) if f in fields else x for f, x in v.fields}
    raise TypeError(f"cannot encode a value of type {render_rust_type(t)}")


def encode_rust(t: Type, v: Any, *, typed: bool = False, structs: RustStructs | None = None) -> str:
    """A Rust expression for value ``v`` of type ``t``.

    ``typed`` suffixes every integer literal with its type (``5i64``), which
    makes the literal self-describing where Rust could not infer the type.
    """
    return _Encoder(typed, structs or {}).enc(t, v)


class _Encoder:
    def __init__(self, typed: bool, structs: RustStructs) -> None:
        self.typed = typed
        self.structs = structs

    def enc(self, t: Type, v: Any) -> str:
        if not isinstance(t, TCon):
            raise TypeError(f"cannot encode a value of type {t}")
        name = t.name
        if name in INT_RANGES:
            return f"{v}{name}" if self.typed else str(v)
        if name in ("int", "nat"):
            return f"{v}{name}" if self.typed else str(v)
        if name == "bool":
            return "true" if v else "false"
        if name == "char":
            return "'" + quote_rust_char_body(v) + "'"
        if name == "String":
            return f"String::from({quote_rust_string(v)})"
        if name == "str":
            return quote_rust_string(v)
        if name == "Ref":
            inner = t.args[0]
            if isinstance(inner, TCon) and inner.name == "str":
                return quote_rust_string(v)
            return "&" + self.enc(inner, v)
        if name == "RefMut":
            return "&mut " + self.enc(t.args[0], v)
        if name in ("Box",):
            return f"Box::new({self.enc(t.args[0], v)})"
        if name in ("Vec", "Seq"):
            macro = "vec!" if name == "Vec" else "seq!"
            return f"{macro}[{', '.join(self.enc(t.args[0], x) for x in v)}]"
        if name == "Slice":
            return f"[{', '.join(self.enc(t.args[0], x) for x in v)}]"
        if name == "Tuple":
            items = [self.enc(a, x) for a, x in zip(t.args, v)]
            return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
        if t == UNIT:
            return "()"
        if name == "Option":
            return "None" if v is None else f"Some({self.enc(t.args[0], v.val)})"
        if isinstance(v, Struct):
            fields = dict(self.structs.get(name, ()))
            if len(fields) != len(v.fields):
                raise TypeError(f"cannot encode struct {name}: unknown field types")
            body = ", ".join(f"{f}: {self.enc(fields[f], x)}" for f, x in v.fields)
            return f"{name} {{ {body} }}"
        raise TypeError(f"cannot encode a value of type {render_rust_type(t)}")


def key(t: Type, v: Any, *, structs: RustStructs | None = None) -> str:
    """Canonical, type-qualified text for a value (``"Vec<i32> ∋ vec![1, 2]"``)."""
    vt = value_type(t)
    return f"{render_rust_type(vt)} ∋ {encode_rust(vt, v, structs=structs)}"
