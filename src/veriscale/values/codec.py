"""The one codec between dataset JSON, Lean literal text and runtime values.

* ``decode(t, raw)`` reads a value as a dataset stores it: JSON scalars,
  JSON lists, Lean-literal strings, and *bare* strings for top-level ``String``
  and ``Char`` (Verina stores those without Lean quotes). Validation is strict;
  every failure is a ``DecodeError`` with a short, groupable ``reason``.
* ``decode_lean(t, text)`` reads Lean literal text only (a ``String`` must be quoted).
* ``encode_lean(t, v)`` writes Lean literal text (what Lean's ``repr`` prints).
* ``to_json(t, v)`` writes the canonical dataset JSON value.
* ``key(t, v)`` is the canonical, type-qualified de-duplication key.

The runtime representation is documented in ``values.runtime``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .lean_text import float_literal, int_literal, quote_char, quote_string
from .literal import (
    LAnon,
    LApp,
    LArray,
    LAscribe,
    LBinOp,
    LBool,
    LChar,
    LFloat,
    LIdent,
    LInt,
    LiteralError,
    LLambda,
    LList,
    LStr,
    LStructInst,
    LTuple,
    LUnit,
    Node,
    describe,
    parse_literal,
)
from .runtime import HMap, HSet, LeanSource, Some, Struct
from .structs import StructInfo, parse_structures, struct_arities
from .types import TCon, TFun, TVar, Type, TypeParseError, parse_type, render_type

__all__ = [
    "DecodeError",
    "StructInfo",
    "ValueContext",
    "decode",
    "decode_lean",
    "encode_lean",
    "key",
    "parse_structures",
    "to_json",
    "values_equal",
]

Structs = dict[str, StructInfo]


@dataclass(frozen=True, slots=True)
class ValueContext:
    """Where a value comes from, for error messages. ``row`` is the 0-based index in the JSON list."""

    dataset: str | None = None
    task: str | None = None
    file: str | None = None
    row: int | None = None
    field: str | None = None


class DecodeError(ValueError):
    """A value that does not decode strictly for its type.

    ``reason`` is short and stable enough to group failures by
    ("Char is not one character", "malformed Array Char literal");
    ``detail`` says more about this particular failure.
    """

    def __init__(
        self,
        reason: str,
        *,
        detail: str | None = None,
        text: Any = None,
        dataset: str | None = None,
        task: str | None = None,
        file: str | None = None,
        row: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail
        self.text = text
        self.dataset = dataset
        self.task = task
        self.file = file
        self.row = row
        self.field = field

    def located(self, ctx: ValueContext | None, text: Any = None) -> DecodeError:
        """Fill in location fields that are still unknown (returns self)."""
        if ctx is not None:
            for name in ("dataset", "task", "file", "row", "field"):
                if getattr(self, name) is None:
                    setattr(self, name, getattr(ctx, name))
        if self.text is None:
            self.text = text
        return self

    def location(self) -> str:
        parts = [p for p in (self.dataset, self.task, self.file) if p]
        loc = "/".join(parts)
        if self.row is not None:
            loc += f" row {self.row}"
        if self.field:
            loc += f" field {self.field}"
        return loc.strip()

    def __str__(self) -> str:
        msg = self.reason
        if self.detail:
            msg += f" ({self.detail})"
        if self.text is not None:
            shown = self.text if isinstance(self.text, str) else repr(self.text)
            if len(shown) > 120:
                shown = shown[:117] + "..."
            msg += f": {shown!r}" if isinstance(self.text, str) else f": {shown}"
        loc = self.location()
        return f"{loc}: {msg}" if loc else msg


# ---------------------------------------------------------------- decoding


def decode(t: Type, raw: Any, *, structs: Structs | None = None, ctx: ValueContext | None = None) -> Any:
    """Decode a dataset JSON value of Lean type ``t`` into its runtime value."""
    try:
        return _Decoder(structs or {}).from_json(t, raw)
    except DecodeError as err:
        raise err.located(ctx, raw) from None


def decode_lean(
    t: Type, text: str, *, structs: Structs | None = None, ctx: ValueContext | None = None
) -> Any:
    """Decode Lean literal text (strings and chars must be quoted, as in source)."""
    try:
        dec = _Decoder(structs or {})
        return dec.from_node(t, dec.parse(t, text))
    except DecodeError as err:
        raise err.located(ctx, text) from None


def _tname(t: Type) -> str:
    return render_type(t)


def _json_kind(raw: Any) -> str:
    if isinstance(raw, bool):
        return "JSON bool"
    if isinstance(raw, int):
        return "JSON integer"
    if isinstance(raw, float):
        return "JSON float"
    if isinstance(raw, list):
        return "JSON list"
    if isinstance(raw, dict):
        return "JSON object"
    if raw is None:
        return "JSON null"
    return type(raw).__name__


def _check_scalar_text(s: str, what: str) -> None:
    for c in s:
        if 0xD800 <= ord(c) <= 0xDFFF:
            raise DecodeError(f"{what} contains a lone surrogate", detail="not a Unicode scalar value")


_INT_TYPES = ("Nat", "Int", "UInt8")
_JSON_INT_LIMIT = 10**4000


class _Decoder:
    def __init__(self, structs: Structs) -> None:
        self.structs = structs

    # ---- JSON level
    def from_json(self, t: Type, raw: Any) -> Any:
        if isinstance(t, TVar):
            raise DecodeError(f"cannot decode a value of type variable {t.name}")
        if isinstance(raw, str):
            return self._from_str(t, raw)
        if isinstance(t, TFun):
            raise DecodeError(f"{_json_kind(raw)} given for {_tname(t)}")
        name = t.name
        if isinstance(raw, bool):
            if name == "Bool":
                return raw
        elif isinstance(raw, int):
            if name in _INT_TYPES:
                return self._int(t, raw)
            if name == "Float":
                return _to_float(raw)
        elif isinstance(raw, float):
            if name == "Float":
                return raw
        elif isinstance(raw, list):
            if name in ("List", "Array"):
                return tuple(self.from_json(t.args[0], x) for x in raw)
            if name == "Prod":
                return self._prod(t, raw, self.from_json)
            if name == "Std.HashSet":
                return HSet(self.from_json(t.args[0], x) for x in raw)
            if name == "Std.HashMap":
                pair = TCon("Prod", t.args)
                return HMap(self.from_json(pair, x) for x in raw)
            if name == "Unit" and not raw:
                return ()
        elif isinstance(raw, dict) and name in self.structs:
            return self._struct_fields(t, list(raw.items()), self.from_json)
        raise DecodeError(f"{_json_kind(raw)} given for {_tname(t)}")

    def _from_str(self, t: Type, raw: str) -> Any:
        if isinstance(t, TCon) and t.name == "String":
            _check_scalar_text(raw, "String")
            return raw
        if isinstance(t, TCon) and t.name == "Char":
            _check_scalar_text(raw, "Char")
            if len(raw) != 1:
                raise DecodeError("Char is not one character", detail=f"{len(raw)} characters")
            return raw
        return self.from_node(t, self.parse(t, raw))

    def parse(self, t: Type, text: str) -> Node:
        try:
            return parse_literal(text)
        except LiteralError as err:
            raise DecodeError(f"malformed {_tname(t)} literal", detail=str(err)) from None

    # ---- literal-tree level
    def from_node(self, t: Type, node: Node) -> Any:
        if isinstance(node, LAscribe):
            return self.from_node(t, self._ascribed(t, node))
        if isinstance(t, TVar):
            raise DecodeError(f"cannot decode a value of type variable {t.name}")
        if isinstance(t, TFun):
            if isinstance(node, LLambda):
                return LeanSource(node.text)
            if isinstance(node, LIdent):
                return LeanSource(node.name)
            raise self._shape(t, node)
        handler = _NODE_HANDLERS.get(t.name)
        if handler is not None:
            return handler(self, t, node)
        if t.name in self.structs:
            return self._struct_node(t, node)
        raise DecodeError(f"unknown type {t.name}")

    def _shape(self, t: Type, node: Node) -> DecodeError:
        return DecodeError(f"{describe(node)} given for {_tname(t)}")

    def _ascribed(self, t: Type, node: LAscribe) -> Node:
        try:
            at = parse_type(node.type_text, structs=struct_arities(self.structs))
        except TypeParseError as err:
            raise DecodeError("malformed type ascription", detail=str(err)) from None
        if at != t:
            raise DecodeError(
                f"type ascription does not match {_tname(t)}", detail=f"ascribed {node.type_text}"
            )
        return node.node

    def _int(self, t: TCon, v: int) -> int:
        if t.name == "Nat" and v < 0:
            raise DecodeError("Nat is negative")
        if t.name == "UInt8" and not 0 <= v <= 255:
            raise DecodeError("UInt8 out of range", detail=f"{v} is not in 0..255")
        return v

    def _int_node(self, t: TCon, node: Node) -> int:
        if isinstance(node, LInt):
            return self._int(t, node.value)
        raise self._shape(t, node)

    def _float_node(self, t: TCon, node: Node) -> float:
        if isinstance(node, LFloat):
            return node.value
        if isinstance(node, LInt):
            return _to_float(node.value)
        if isinstance(node, LBinOp) and node.op == "/":
            # Lean has no NaN/infinity literal; datasets (and encode_lean) write them as divisions.
            a, b = node.lhs, node.rhs
            if isinstance(a, LFloat | LInt) and isinstance(b, LFloat | LInt):
                num, den = float(a.value), float(b.value)
                if den == 0.0:
                    return math.nan if num == 0.0 or math.isnan(num) else math.copysign(math.inf, num)
                return num / den
        raise self._shape(t, node)

    def _bool_node(self, t: TCon, node: Node) -> bool:
        if isinstance(node, LBool):
            return node.value
        raise self._shape(t, node)

    def _char_node(self, t: TCon, node: Node) -> str:
        if isinstance(node, LChar):
            return node.value
        raise self._shape(t, node)

    def _string_node(self, t: TCon, node: Node) -> str:
        if isinstance(node, LStr):
            return node.value
        raise self._shape(t, node)

    def _unit_node(self, t: TCon, node: Node) -> tuple[()]:
        if isinstance(node, LUnit):
            return ()
        raise self._shape(t, node)

    def _seq_node(self, t: TCon, node: Node) -> tuple[Any, ...]:
        want = LList if t.name == "List" else LArray
        if isinstance(node, want):
            return tuple(self.from_node(t.args[0], x) for x in node.items)
        raise self._shape(t, node)

    def _prod(self, t: TCon, items: list[Any] | tuple[Any, ...], dec: Callable[[Type, Any], Any]) -> Any:
        a, b = t.args
        if len(items) == 2:
            return (dec(a, items[0]), dec(b, items[1]))
        if len(items) > 2 and isinstance(b, TCon) and b.name == "Prod":
            return (dec(a, items[0]), self._prod(b, items[1:], dec))
        raise DecodeError(f"{len(items)}-component tuple given for {_tname(t)}")

    def _prod_node(self, t: TCon, node: Node) -> Any:
        if isinstance(node, LTuple | LAnon):
            return self._prod(t, node.items, self.from_node)
        raise self._shape(t, node)

    def _option_node(self, t: TCon, node: Node) -> Any:
        if isinstance(node, LIdent) and node.name in ("none", "Option.none"):
            return None
        if isinstance(node, LApp) and node.head in ("some", "Option.some") and len(node.args) == 1:
            return Some(self.from_node(t.args[0], node.args[0]))
        raise self._shape(t, node)

    def _collection_items(self, t: TCon, node: Node, short: str) -> tuple[Node, ...]:
        heads = (f"Std.{short}.ofList", f"{short}.ofList")
        if isinstance(node, LApp) and node.head in heads and len(node.args) == 1:
            arg = node.args[0]
            if isinstance(arg, LList):
                return arg.items
        if isinstance(node, LStructInst) and not node.fields:  # `{}` is the empty collection
            return ()
        if isinstance(node, LIdent) and node.name in (f"Std.{short}.empty", f"{short}.empty", "∅"):
            return ()
        raise self._shape(t, node)

    def _hashmap_node(self, t: TCon, node: Node) -> HMap:
        pair = TCon("Prod", t.args)
        return HMap(self.from_node(pair, x) for x in self._collection_items(t, node, "HashMap"))

    def _hashset_node(self, t: TCon, node: Node) -> HSet:
        return HSet(self.from_node(t.args[0], x) for x in self._collection_items(t, node, "HashSet"))

    # ---- user structures
    def _struct_node(self, t: TCon, node: Node) -> Struct:
        info = self.structs[t.name]
        if isinstance(node, LApp) and node.head == f"{t.name}.mk":
            node = LAnon(node.args)
        if isinstance(node, LAnon):
            ftypes = info.field_types(t.args)
            if len(node.items) != len(ftypes):
                raise DecodeError(
                    f"wrong number of fields for {_tname(t)}",
                    detail=f"{len(node.items)} given, {len(ftypes)} expected",
                )
            return Struct(t.name, tuple((f, self.from_node(ft, x)) for (f, ft), x in zip(ftypes, node.items)))
        if isinstance(node, LStructInst):
            return self._struct_fields(t, list(node.fields), self.from_node)
        raise self._shape(t, node)

    def _struct_fields(
        self, t: TCon, given: list[tuple[str, Any]], dec: Callable[[Type, Any], Any]
    ) -> Struct:
        ftypes = self.structs[t.name].field_types(t.args)
        names = [f for f, _ in ftypes]
        values = dict(given)
        unknown = sorted(set(values) - set(names))
        if unknown or len(values) != len(given):
            raise DecodeError(f"unknown or repeated field in {_tname(t)}", detail=", ".join(unknown))
        missing = [f for f in names if f not in values]
        if missing:
            raise DecodeError(f"missing field in {_tname(t)}", detail=", ".join(missing))
        return Struct(t.name, tuple((f, dec(ft, values[f])) for f, ft in ftypes))


_NODE_HANDLERS: dict[str, Callable[[_Decoder, TCon, Node], Any]] = {
    "Nat": _Decoder._int_node,
    "Int": _Decoder._int_node,
    "UInt8": _Decoder._int_node,
    "Float": _Decoder._float_node,
    "Bool": _Decoder._bool_node,
    "Char": _Decoder._char_node,
    "String": _Decoder._string_node,
    "Unit": _Decoder._unit_node,
    "List": _Decoder._seq_node,
    "Array": _Decoder._seq_node,
    "Prod": _Decoder._prod_node,
    "Option": _Decoder._option_node,
    "Std.HashMap": _Decoder._hashmap_node,
    "Std.HashSet": _Decoder._hashset_node,
}


def _to_float(n: int) -> float:
    try:
        return float(n)
    except OverflowError:  # Lean's Nat/Int → Float conversion saturates to infinity too
        return math.copysign(math.inf, n)


# ---------------------------------------------------------------- encoding


def encode_lean(t: Type, v: Any, *, structs: Structs | None = None) -> str:
    """Lean literal text for value ``v`` of type ``t`` (negative numbers unparenthesized).

    ``structs`` gives the declarations of user structures occurring in ``t``.
    """
    return _Encoder(structs or {}, canonical=False).enc(t, v)


def to_json(t: Type, v: Any, *, structs: Structs | None = None) -> Any:
    """The canonical dataset JSON for a value, as Verina stores it.

    Integers and booleans are JSON scalars, finite floats JSON numbers,
    ``String``/``Char`` the raw text, functions their source, and everything
    else (including NaN/infinite floats) a Lean literal string.
    """
    if isinstance(t, TCon):
        if t.name in _INT_TYPES:
            # Python's json module refuses integers beyond 4300 digits; such numbers go as digit strings.
            return v if -_JSON_INT_LIMIT < v < _JSON_INT_LIMIT else int_literal(v)
        if t.name == "Bool":
            return v
        if t.name == "Float" and math.isfinite(v):
            return v
        if t.name in ("String", "Char"):
            return v
    return encode_lean(t, v, structs=structs)


def key(t: Type, v: Any, *, structs: Structs | None = None) -> str:
    """Canonical, type-qualified text identifying a value: equal values of one type get equal keys.

    Hash maps and sets are keyed independently of insertion order.
    """
    return f"{render_type(t)} ∋ {_Encoder(structs or {}, canonical=True).enc(t, v)}"


def values_equal(t: Type, a: Any, b: Any) -> bool:
    """Structural equality of two runtime values of type ``t`` (floats compared with Python ``==``)."""
    del t  # the runtime representation already compares structurally
    return bool(a == b)


class _Encoder:
    def __init__(self, structs: Structs, canonical: bool) -> None:
        self.structs = structs
        self.canonical = canonical

    def _join(self, items: list[str]) -> str:
        return ", ".join(sorted(items) if self.canonical else items)

    def enc(self, t: Type, v: Any) -> str:
        if isinstance(t, TFun):
            if isinstance(v, LeanSource):
                return v.text
            raise TypeError(f"cannot write a compiled function as Lean source ({v!r})")
        if isinstance(t, TVar):
            raise TypeError(f"cannot encode a value of type variable {t.name}")
        name = t.name
        if name in _INT_TYPES:
            return int_literal(v)
        if name == "Bool":
            return "true" if v else "false"
        if name == "Float":
            return float_literal(v)
        if name == "Char":
            return quote_char(v)
        if name == "String":
            return quote_string(v)
        if name == "Unit":
            return "()"
        if name in ("List", "Array"):
            body = ", ".join(self.enc(t.args[0], x) for x in v)
            return f"[{body}]" if name == "List" else f"#[{body}]"
        if name == "Prod":
            return "(" + ", ".join(self._flatten_prod(t, v)) + ")"
        if name == "Option":
            return "none" if v is None else f"some ({self.enc(t.args[0], v.val)})"
        if name == "Std.HashMap":
            pair = TCon("Prod", t.args)
            return f"Std.HashMap.ofList [{self._join([self.enc(pair, kv) for kv in v.items()])}]"
        if name == "Std.HashSet":
            return f"Std.HashSet.ofList [{self._join([self.enc(t.args[0], x) for x in v])}]"
        info = self.structs.get(name)
        if info is None:
            raise TypeError(f"cannot encode a value of type {render_type(t)}: unknown structure")
        fields = ", ".join(f"{f} := {self.enc(ft, v.field(f))}" for f, ft in info.field_types(t.args))
        return "{ " + fields + " }" if fields else "{ }"

    def _flatten_prod(self, t: TCon, v: tuple[Any, Any]) -> list[str]:
        a, b = t.args
        first = self.enc(a, v[0])
        if isinstance(b, TCon) and b.name == "Prod":
            return [first, *self._flatten_prod(b, v[1])]
        return [first, self.enc(b, v[1])]
