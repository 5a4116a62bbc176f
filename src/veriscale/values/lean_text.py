"""Lean spellings of scalars: string/char quoting, integers and floats.

Quoting follows Lean 4's own ``Char.quoteCore``/``String.quote`` (what
``repr`` and ``#eval`` print): ``\\n``, ``\\t``, ``\\\\``, ``\\"``, ``\\'``
(chars only) and ``\\xHH`` for code points up to 31 and 127; every other
character, including non-ASCII, is kept as is. So an encoded value is both
valid Lean source and exactly what Lean would print for it.
"""

from __future__ import annotations

import math

__all__ = ["float_literal", "int_literal", "quote_char", "quote_core", "quote_string"]


def quote_core(c: str, in_string: bool) -> str:
    """One character as Lean's ``Char.quoteCore`` writes it (``in_string``: no ``\\'`` escape)."""
    if c == "\n":
        return "\\n"
    if c == "\t":
        return "\\t"
    if c == "\\":
        return "\\\\"
    if c == '"':
        return '\\"'
    if not in_string and c == "'":
        return "\\'"
    o = ord(c)
    if o <= 31 or o == 0x7F:
        return f"\\x{o:02x}"
    return c


def quote_string(s: str) -> str:
    return '"' + "".join(quote_core(c, True) for c in s) + '"'


def quote_char(c: str) -> str:
    return "'" + quote_core(c, False) + "'"


_CHUNK = 4000
_CHUNK_POW = 10**_CHUNK


def int_literal(n: int) -> str:
    """``str(n)`` without CPython's 4300-digit limit (``-3`` for negatives; callers parenthesize)."""
    if -_CHUNK_POW < n < _CHUNK_POW:
        return str(n)
    if n < 0:
        return "-" + int_literal(-n)
    hi, lo = divmod(n, _CHUNK_POW)
    return int_literal(hi) + str(lo).zfill(_CHUNK)


def float_literal(x: float) -> str:
    """A Lean term of type ``Float`` with exactly this value.

    Finite values use Python's shortest round-trip spelling (``2.5``, ``1e-09``,
    ``1e16``); NaN and infinities are divisions, since Lean has no literal for them.
    """
    if math.isnan(x):
        return "(0.0/0.0)"
    if math.isinf(x):
        return "(1.0/0.0)" if x > 0 else "(-1.0/0.0)"
    return repr(x).replace("e+", "e")
