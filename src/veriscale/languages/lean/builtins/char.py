"""``Char`` builtins. Classification and case mapping are ASCII-only, as in Lean core."""

from __future__ import annotations

from . import ops
from .optional import define


def _upper(c: str) -> bool:
    return "A" <= c <= "Z"


def _lower(c: str) -> bool:
    return "a" <= c <= "z"


def _digit(c: str) -> bool:
    return "0" <= c <= "9"


@define("Char.toNat", "Char → Nat", "c")
def to_nat(c: str) -> int:
    return ord(c)


@define("Char.ofNat", "Nat → Char", "n")
def of_nat(n: int) -> str:
    """Invalid scalar values (surrogates, ``> 0x10FFFF``) give ``'\\0'``."""
    return ops.char_of_nat(n)


@define("Char.isDigit", "Char → Bool", "c")
def is_digit(c: str) -> bool:
    return _digit(c)


@define("Char.isUpper", "Char → Bool", "c")
def is_upper(c: str) -> bool:
    return _upper(c)


@define("Char.isLower", "Char → Bool", "c")
def is_lower(c: str) -> bool:
    return _lower(c)


@define("Char.isAlpha", "Char → Bool", "c")
def is_alpha(c: str) -> bool:
    return _upper(c) or _lower(c)


@define("Char.isAlphanum", "Char → Bool", "c")
def is_alphanum(c: str) -> bool:
    return _upper(c) or _lower(c) or _digit(c)


@define("Char.isWhitespace", "Char → Bool", "c")
def is_whitespace(c: str) -> bool:
    """Only space, tab, CR and LF (Python's ``isspace`` accepts many more)."""
    return c in " \t\r\n"


@define("Char.toUpper", "Char → Char", "c")
def to_upper(c: str) -> str:
    return chr(ord(c) - 32) if _lower(c) else c


@define("Char.toLower", "Char → Char", "c")
def to_lower(c: str) -> str:
    return chr(ord(c) + 32) if _upper(c) else c


@define("Char.toString", "Char → String", "c")
def to_string(c: str) -> str:
    return c


@define("Char.quote", "Char → String", "c")
def quote(c: str) -> str:
    return ops.char_quote(c)


@define("Char.repr", "Char → String", "c")
def repr_(c: str) -> str:
    return ops.char_quote(c)


@define("Char.utf8Size", "Char → Nat", "c")
def utf8_size(c: str) -> int:
    return len(c.encode("utf-8", "surrogatepass"))
