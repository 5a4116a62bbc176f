"""Rust spellings of strings and chars: the one place Rust escaping is written.

Backslash, the quote, ``\\n``, ``\\r``, ``\\t`` and ``\\0`` use their short escapes; other
control characters ``\\u{..}``; everything else is kept as is (Rust source is UTF-8).
"""

from __future__ import annotations

__all__ = ["quote_rust_char_body", "quote_rust_string"]


def _escape(c: str, quote: str) -> str:
    if c == "\\":
        return "\\\\"
    if c == quote:
        return "\\" + quote
    if c == "\n":
        return "\\n"
    if c == "\r":
        return "\\r"
    if c == "\t":
        return "\\t"
    if c == "\0":
        return "\\0"
    if ord(c) < 0x20 or ord(c) == 0x7F:
        return f"\\u{{{ord(c):x}}}"
    return c


def quote_rust_string(s: str) -> str:
    """A Rust string literal for ``s``."""
    return '"' + "".join(_escape(c, '"') for c in s) + '"'


def quote_rust_char_body(c: str) -> str:
    """What stands between the quotes of a Rust char literal for ``c``."""
    return _escape(c, "'")
