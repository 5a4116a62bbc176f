"""Semantics of Lean 4.18 operators and conversions that the evaluator calls directly.

Everything here works on the untyped runtime representation of
``veriscale.values.runtime``; the caller picks the function from the static
type (``nat_sub`` for ``Nat`` subtraction, ``int_div`` for ``Int`` division).

Points where Lean differs from Python:

* ``Nat`` subtraction truncates at 0; ``x / 0 = 0`` and ``x % 0 = x`` for Nat and Int.
* ``/`` and ``%`` on ``Int`` are ``Int.ediv``/``Int.emod``: the remainder is
  always in ``[0, |b|)`` (``-20 % -7 = 1``; Python says ``-6``).
* ``Float`` division by zero yields ``±inf``/``NaN`` instead of raising.
* ``==`` on ``Float`` is IEEE even inside containers (``[NaN] == [NaN]`` is
  false), whereas Python's ``(nan,) == (nan,)`` is true for one shared object.
* ``Float.toString`` prints six decimals (``3.000000``), ``NaN``, ``inf``, ``-inf``.
* ``Char.ofNat`` of a surrogate or of a value above ``0x10FFFF`` is ``'\\0'``.

Orders. Lean's ``<`` on ``List``/``Array`` is lexicographic (``[] < b :: bs``;
``a :: as < b :: bs`` iff ``a < b``, or ``a = b`` and ``as < bs``) and ``≤``
is ``¬ (b < a)``; on ``String`` it is lexicographic by
code point (the UTF-8 byte order agrees); ``Char`` by code point; ``Bool``
``false < true``; ``Option`` puts ``none`` below every ``some``. For element
types with a total order this is exactly Python's tuple/str order; ``lex_lt``
and ``lex_le`` implement the Lean definitions literally so ``Option`` values
behave as in Lean (for ``List Float``, which has no ``DecidableEq``, Lean has
no decidable ``<``; here NaN elements are skipped over). ``Prod`` values are tuples too and
are ordered lexicographically (Lean core's ``Prod`` order); note that with
Mathlib imported ``≤`` on pairs can resolve to the componentwise order.
"""

from __future__ import annotations

import math
import re
from typing import Any

from veriscale.runtime import limits
from veriscale.values.lean_text import quote_core
from veriscale.values.runtime import Fn, HMap, HSet, Some, Struct
from veriscale.values.types import TCon, TFun, Type

__all__ = [
    "MAX_PREC",
    "beq",
    "bne",
    "char_of_nat",
    "char_quote",
    "decide_eq",
    "float_add",
    "float_div",
    "float_mul",
    "float_neg",
    "float_of_int",
    "float_of_literal",
    "float_of_nat",
    "float_of_scientific",
    "float_pow",
    "float_sub",
    "float_to_string",
    "int_div",
    "int_fdiv",
    "int_fmod",
    "int_mod",
    "int_neg",
    "int_pow",
    "int_str",
    "int_tdiv",
    "int_tmod",
    "int_to_string",
    "lean_max",
    "lean_min",
    "lean_repr",
    "lean_to_string",
    "lex_le",
    "lex_lt",
    "nat_div",
    "nat_land",
    "nat_lor",
    "nat_mod",
    "nat_pow",
    "nat_shiftl",
    "nat_shiftr",
    "nat_sub",
    "nat_to_string",
    "nat_xor",
    "rel_eq",
    "rel_ge",
    "rel_gt",
    "rel_le",
    "rel_lt",
    "rel_ne",
    "str_int",
    "string_quote",
    "uint8_add",
    "uint8_div",
    "uint8_land",
    "uint8_lor",
    "uint8_mod",
    "uint8_mul",
    "uint8_of_nat",
    "uint8_sub",
    "uint8_xor",
]

MAX_PREC = 1024  # Lean's ``max_prec``: the precedence of an application argument

# Results wider than this many bits are charged against the size budget, so
# ``2 ^ (10 ^ 12)`` fails fast instead of exhausting memory.
_BIG_RESULT_BITS = 1 << 16


def _guard_bits(bits: int) -> None:
    if bits > _BIG_RESULT_BITS:
        limits.current().check_size(bits // 64)


def _mul_cost(la: int, lb: int) -> int:
    """Fuel for multiplying integers of ``la`` and ``lb`` bits: CPython multiplies by Karatsuba,
    about ``small^0.585 · big`` word operations; 40 of them count as one step (one million steps
    take roughly 0.5–1 s, like the evaluator's other steps)."""
    small, big = (la, lb) if la <= lb else (lb, la)
    return int(((small >> 6) + 1) ** 0.585 * ((big >> 6) + 1)) // 40


def int_mul(a: int, b: int) -> int:
    """``a * b`` on Nat/Int, charged by operand size once the operands are big, so a candidate that
    squares a number again and again runs out of fuel instead of blocking in one multiplication."""
    la = a.bit_length()
    lb = b.bit_length()
    if la + lb > 8192:
        _guard_bits(la + lb)
        limits.current().charge(_mul_cost(la, lb))
    return a * b


# ------------------------------------------------------------------ Nat / Int


def nat_sub(a: int, b: int) -> int:
    """Truncated subtraction: ``3 - 5 = 0``."""
    return a - b if a > b else 0


def nat_div(a: int, b: int) -> int:
    return a // b if b else 0


def nat_mod(a: int, b: int) -> int:
    return a % b if b else a


def int_div(a: int, b: int) -> int:
    """``Int.ediv`` (the ``/`` on Int): rounds so that ``int_mod`` is non-negative; ``x / 0 = 0``."""
    if b == 0:
        return 0
    if b > 0:
        return a // b
    return -(a // -b)


def int_mod(a: int, b: int) -> int:
    """``Int.emod`` (the ``%`` on Int): in ``[0, |b|)``; ``x % 0 = x``."""
    if b == 0:
        return a
    return a % abs(b)


def int_tdiv(a: int, b: int) -> int:
    """``Int.tdiv``: rounds toward zero; ``x / 0 = 0``."""
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def int_tmod(a: int, b: int) -> int:
    """``Int.tmod``: remainder of ``tdiv``, sign of the dividend; ``x % 0 = x``."""
    return a - b * int_tdiv(a, b)


def int_fdiv(a: int, b: int) -> int:
    """``Int.fdiv``: rounds toward negative infinity; ``x / 0 = 0``."""
    return a // b if b else 0


def int_fmod(a: int, b: int) -> int:
    """``Int.fmod``: remainder of ``fdiv``, sign of the divisor; ``x % 0 = x``."""
    return a % b if b else a


def int_neg(a: int) -> int:
    return -a


def nat_pow(a: int, n: int) -> int:
    if n > 1 and abs(a) > 1:
        _guard_bits(n * abs(a).bit_length())
    return a**n


def int_pow(a: int, n: int) -> int:
    return nat_pow(a, n)


def nat_land(a: int, b: int) -> int:
    return a & b


def nat_lor(a: int, b: int) -> int:
    return a | b


def nat_xor(a: int, b: int) -> int:
    return a ^ b


def nat_shiftl(a: int, n: int) -> int:
    if a:
        _guard_bits(a.bit_length() + n)
    return a << n


def nat_shiftr(a: int, n: int) -> int:
    return a >> n


def int_str(n: int) -> str:
    """Decimal digits of any int (Python refuses ``str`` beyond 4300 digits by default).

    CPython's conversion takes time quadratic in the number's size, so a big number is charged
    fuel for it first (``words² / 100``; a 5-million-bit number costs about 76 million steps)."""
    bits = n.bit_length()
    if bits > _BIG_RESULT_BITS:
        limits.current().charge(((bits >> 6) + 1) ** 2 // 100)
    try:
        return str(n)
    except ValueError:
        if n < 0:
            return "-" + int_str(-n)
        k = max(1, len(bin(n)) * 3 // 20)  # about half the decimal digits
        hi, lo = divmod(n, 10**k)
        return int_str(hi) + int_str(lo).rjust(k, "0")


def str_int(digits: str) -> int:
    """Inverse of ``int_str`` for a non-empty string of ASCII digits, of any length."""
    try:
        return int(digits)
    except ValueError:
        k = len(digits) // 2
        return str_int(digits[:k]) * 10 ** (len(digits) - k) + str_int(digits[k:])


def nat_to_string(n: int) -> str:
    return int_str(n)


def int_to_string(n: int) -> str:
    """``toString (-3 : Int) = "-3"`` (no parentheses; ``repr`` adds them inside ``some``)."""
    return int_str(n)


# ---------------------------------------------------------------------- UInt8


def uint8_of_nat(n: int) -> int:
    return n % 256


def uint8_add(a: int, b: int) -> int:
    return (a + b) % 256


def uint8_sub(a: int, b: int) -> int:
    return (a - b) % 256


def uint8_mul(a: int, b: int) -> int:
    return (a * b) % 256


def uint8_div(a: int, b: int) -> int:
    return a // b if b else 0


def uint8_mod(a: int, b: int) -> int:
    return a % b if b else a


def uint8_xor(a: int, b: int) -> int:
    return a ^ b


def uint8_land(a: int, b: int) -> int:
    return a & b


def uint8_lor(a: int, b: int) -> int:
    return a | b


# ---------------------------------------------------------------------- Char


def char_of_nat(n: int) -> str:
    """``Char.ofNat``: a Unicode scalar value, or ``'\\0'`` for surrogates and values past ``0x10FFFF``."""
    if 0 <= n < 0xD800 or 0xDFFF < n < 0x110000:
        return chr(n)
    return "\0"


# --------------------------------------------------------------------- Float


def _scale_b(x: float, e: int) -> float:
    """``Float.scaleB``: ``x * 2^e`` with IEEE overflow to infinity."""
    if x == 0.0 or math.isinf(x) or math.isnan(x):
        return x
    e = max(-4000, min(4000, e))  # beyond this every double under/overflows anyway
    try:
        return math.ldexp(x, e)
    except OverflowError:
        return math.copysign(math.inf, x)


def _of_binary_scientific(m: int, e: int) -> float:
    """``Float.ofBinaryScientific m e = m * 2^e``: truncate ``m`` to 64 bits, round once, scale.

    The truncation before rounding is Lean's, so results above ``2^64`` can differ
    from Python's correctly rounded ``float(m)`` in the last bit.
    """
    log2 = m.bit_length() - 1 if m > 0 else 0
    s = log2 - 63 if log2 > 63 else 0
    return _scale_b(float(m >> s), e + s)


def float_of_scientific(mantissa: int, negative_exponent: bool, exponent: int) -> float:
    """``Float.ofScientific``: the value of the literal ``mantissa × 10^(±exponent)``.

    Lean's algorithm (scale to 64 significant bits, truncate, round once) is
    not always correctly rounded: about 1 in 4000 random decimal literals
    differs from Python's ``float(text)`` in the last bit, so parse Lean
    literals with this function, not with ``float``.
    """
    _guard_bits(3 * exponent + mantissa.bit_length())
    if negative_exponent:
        log2 = mantissa.bit_length() - 1 if mantissa > 0 else 0
        s = 64 - log2 if log2 < 64 else 0
        m = (mantissa << (3 * exponent + s)) // 5**exponent
        return _of_binary_scientific(m, -4 * exponent - s)
    return _of_binary_scientific(mantissa * 5**exponent, exponent)


_FLOAT_LIT = re.compile(r"(\d+)(?:\.(\d*))?(?:[eE]([+-]?)(\d+))?")


def float_of_literal(text: str) -> float:
    """The Float denoted by a Lean scientific literal such as ``1.5``, ``2e-3`` or ``3.0e+2``."""
    m = _FLOAT_LIT.fullmatch(text.replace("_", ""))
    if m is None:
        raise ValueError(f"not a Lean scientific literal: {text!r}")
    whole, frac, sign, exp = m.group(1), m.group(2) or "", m.group(3), m.group(4)
    mantissa = int(whole + frac)
    e = (-int(exp) if sign == "-" else int(exp)) if exp else 0
    e -= len(frac)
    if e < 0:
        return float_of_scientific(mantissa, True, -e)
    return float_of_scientific(mantissa, False, e)


def float_of_nat(n: int) -> float:
    """``Nat.toFloat`` / ``Float.ofNat`` (Lean's algorithm, overflowing to ``inf``)."""
    return _of_binary_scientific(n, 0)


def float_of_int(n: int) -> float:
    """``Float.ofInt``: ``-(ofNat |n|)`` for negative ``n`` (so ``0`` stays ``+0.0``)."""
    return float_of_nat(n) if n >= 0 else -float_of_nat(-n)


def float_add(a: float, b: float) -> float:
    return a + b


def float_sub(a: float, b: float) -> float:
    return a - b


def float_mul(a: float, b: float) -> float:
    return a * b


def float_neg(a: float) -> float:
    return -a


def float_div(a: float, b: float) -> float:
    """IEEE division: ``x / 0.0`` is ``±inf`` (sign of ``x`` times sign of the zero), ``0/0`` is NaN."""
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def float_pow(a: float, b: float) -> float:
    """C ``pow`` (``Float.pow``, the ``^`` on Float) without Python's exceptions."""
    try:
        return math.pow(a, b)
    except OverflowError:
        neg = a < 0 and b == math.floor(b) and int(b) % 2 == 1
        return -math.inf if neg else math.inf
    except ValueError:
        if a == 0.0:  # 0 ^ negative: a pole
            odd = b == math.floor(b) and int(b) % 2 == 1
            return math.copysign(math.inf, a) if odd else math.inf
        return math.nan  # negative base, non-integer exponent


def float_to_string(x: float) -> str:
    """``Float.toString``: C's ``%f`` (six decimals), with ``NaN``, ``inf`` and ``-inf``."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:f}"


# ------------------------------------------------------------ equality, order


def beq(a: Any, b: Any) -> bool:
    """Lean's derived ``==`` (``BEq``): structural, but IEEE on every nested Float."""
    ta = type(a)
    if ta is int or ta is str or ta is bool or ta is float:
        return bool(a == b)
    if ta is tuple:
        if type(b) is not tuple or len(a) != len(b):
            return False
        return all(beq(x, y) for x, y in zip(a, b))
    if a is None:
        return b is None
    if ta is Some:
        return type(b) is Some and beq(a.val, b.val)
    if ta is Struct:
        return (
            type(b) is Struct
            and a.name == b.name
            and len(a.fields) == len(b.fields)
            and all(k1 == k2 and beq(v1, v2) for (k1, v1), (k2, v2) in zip(a.fields, b.fields))
        )
    return bool(a == b)


def bne(a: Any, b: Any) -> bool:
    return not beq(a, b)


def decide_eq(a: Any, b: Any) -> bool:
    """``decide (a = b)``: structural equality (types with ``DecidableEq`` hold no floats)."""
    return beq(a, b)


def lex_lt(a: Any, b: Any) -> bool:
    """Lean's ``<`` (see the module docstring)."""
    ta = type(a)
    if ta is int or ta is str or ta is float or ta is bool:
        return bool(a < b)
    if ta is tuple:
        for x, y in zip(a, b):
            if lex_lt(x, y):
                return True
            if lex_lt(y, x):
                return False
        return len(a) < len(b)
    if a is None:
        return b is not None
    if ta is Some:
        return type(b) is Some and lex_lt(a.val, b.val)
    raise TypeError(f"no order on {ta.__name__}")


def lex_le(a: Any, b: Any) -> bool:
    """Lean's ``≤``: IEEE on scalars, ``¬ (b < a)`` on lists, ``none ≤ _`` on options."""
    ta = type(a)
    if ta is int or ta is str or ta is float or ta is bool:
        return bool(a <= b)
    if ta is tuple:
        return not lex_lt(b, a)
    if a is None:
        return True
    if ta is Some:
        return type(b) is Some and lex_le(a.val, b.val)
    raise TypeError(f"no order on {ta.__name__}")


def rel_le(a: Any, b: Any) -> bool:
    """``(· ≤ ·)``; builtins such as ``List.Pairwise`` recognise this function and run natively."""
    return lex_le(a, b)


def rel_lt(a: Any, b: Any) -> bool:
    return lex_lt(a, b)


def rel_ge(a: Any, b: Any) -> bool:
    return lex_le(b, a)


def rel_gt(a: Any, b: Any) -> bool:
    return lex_lt(b, a)


def rel_eq(a: Any, b: Any) -> bool:
    return beq(a, b)


def rel_ne(a: Any, b: Any) -> bool:
    return not beq(a, b)


def lean_max(a: Any, b: Any) -> Any:
    """``max a b = if a ≤ b then b else a`` (``maxOfLe``)."""
    return b if lex_le(a, b) else a


def lean_min(a: Any, b: Any) -> Any:
    """``min a b = if a ≤ b then a else b`` (``minOfLe``)."""
    return a if lex_le(a, b) else b


# ------------------------------------------------------- toString and repr


def string_quote(s: str) -> str:
    """``String.quote``: ``"a\\"b"``; only ``\\n \\t \\\\ \\"`` and control characters are escaped."""
    return '"' + "".join(quote_core(c, in_string=True) for c in s) + '"'


def char_quote(c: str) -> str:
    """``Char.quote``: ``'a'`` (a single quote is not escaped, as in Lean)."""
    return "'" + quote_core(c, in_string=True) + "'"


def _paren(s: str, prec: int) -> str:
    return f"({s})" if prec >= MAX_PREC else s


def lean_repr(
    t: Type,
    v: Any,
    *,
    float_format: str = "lean",
    struct_fields: dict[str, tuple[Type, ...]] | None = None,
) -> str:
    """How ``#eval`` prints ``v : t`` (Lean's ``Repr``), on one line.

    ``[1, -2]``, ``#[1, 2]``, ``(1, 2, 3)`` for ``Nat × Nat × Nat``,
    ``some (-3)``, ``none``, ``"a\\nb"``, ``'c'``, ``true``, ``3.000000``,
    ``Std.HashMap.ofList [(1, 2)]``, ``{ entries := [(1, 10)] }``. Lean wraps
    output longer than 120 columns; this renders the unwrapped form.

    ``float_format="literal"`` writes floats as the shortest round-tripping
    decimal (``3.0``, ``5.5``) as test files do, with ``(0.0 / 0.0)``/``(1.0 / 0.0)``
    for NaN and infinities. ``struct_fields`` gives the field types of user
    structures by name (their order is that of ``Struct.fields``).
    """
    return _repr(t, v, 0, float_format, struct_fields or {})


def _float_repr(x: float, prec: int, style: str) -> str:
    if style == "literal":
        if math.isnan(x):
            return "(0.0 / 0.0)"
        if math.isinf(x):
            return "(1.0 / 0.0)" if x > 0 else "(-1.0 / 0.0)"
        text = repr(x)
        return _paren(text, prec) if x < 0 or text.startswith("-") else text
    text = float_to_string(x)
    return _paren(text, prec) if x < 0 else text


def _repr(t: Type, v: Any, prec: int, style: str, structs: dict[str, tuple[Type, ...]]) -> str:
    if isinstance(t, TFun):
        return "<fun>"
    if not isinstance(t, TCon):
        return _repr_untyped(v, prec, style)
    name = t.name
    if name in ("Nat", "UInt8"):
        return int_str(v)
    if name == "Int":
        return _paren(int_str(v), prec) if v < 0 else int_str(v)
    if name in ("Bool", "Prop"):
        return "true" if v else "false"
    if name == "Float":
        return _float_repr(v, prec, style)
    if name == "Char":
        return char_quote(v)
    if name == "String":
        return string_quote(v)
    if name == "Unit":
        return "()"
    if name == "List":
        return "[" + ", ".join(_repr(t.args[0], x, 0, style, structs) for x in v) + "]"
    if name == "Array":
        return "#[" + ", ".join(_repr(t.args[0], x, 0, style, structs) for x in v) + "]"
    if name == "Option":
        if v is None:
            return "none"
        return _paren("some " + _repr(t.args[0], v.val, MAX_PREC, style, structs), prec)
    if name == "Prod":
        # ``(a, b, c)`` for right-nested products, as Lean's ``ReprTuple`` does
        parts: list[str] = []
        while isinstance(t, TCon) and t.name == "Prod":
            parts.append(_repr(t.args[0], v[0], 0, style, structs))
            t, v = t.args[1], v[1]
        parts.append(_repr(t, v, 0, style, structs))
        return "(" + ", ".join(parts) + ")"
    if name == "Std.HashMap":
        pair = TCon("Prod", (t.args[0], t.args[1]))
        body = "[" + ", ".join(_repr(pair, kv, 0, style, structs) for kv in v.items()) + "]"
        return _paren("Std.HashMap.ofList " + body, prec)
    if name == "Std.HashSet":
        body = "[" + ", ".join(_repr(t.args[0], x, 0, style, structs) for x in v) + "]"
        return _paren("Std.HashSet.ofList " + body, prec)
    if isinstance(v, Struct):
        types = structs.get(v.name)
        fields = []
        for i, (k, x) in enumerate(v.fields):
            ft = types[i] if types is not None and i < len(types) else None
            text = _repr(ft, x, 0, style, structs) if ft is not None else _repr_untyped(x, 0, style)
            fields.append(f"{k} := {text}")
        return "{ " + ", ".join(fields) + " }"
    return _repr_untyped(v, prec, style)


def _repr_untyped(v: Any, prec: int, style: str) -> str:
    """Best effort when the static type is unknown (tuples print as lists)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return _paren(int_str(v), prec) if v < 0 else int_str(v)
    if isinstance(v, float):
        return _float_repr(v, prec, style)
    if isinstance(v, str):
        return string_quote(v)
    if isinstance(v, tuple):
        return "[" + ", ".join(_repr_untyped(x, 0, style) for x in v) + "]"
    if v is None:
        return "none"
    if isinstance(v, Some):
        return _paren("some " + _repr_untyped(v.val, MAX_PREC, style), prec)
    if isinstance(v, HMap):
        body = ", ".join(
            f"({_repr_untyped(k, 0, style)}, {_repr_untyped(x, 0, style)})" for k, x in v.items()
        )
        return _paren(f"Std.HashMap.ofList [{body}]", prec)
    if isinstance(v, HSet):
        body = ", ".join(_repr_untyped(x, 0, style) for x in v)
        return _paren(f"Std.HashSet.ofList [{body}]", prec)
    if isinstance(v, Struct):
        return "{ " + ", ".join(f"{k} := {_repr_untyped(x, 0, style)}" for k, x in v.fields) + " }"
    if isinstance(v, Fn):
        return "<fun>"
    return repr(v)


def lean_to_string(t: Type, v: Any) -> str:
    """Lean's ``toString`` (``ToString`` instances), which differs from ``repr``.

    Strings and chars are unquoted, ``toString (some 2) = "(some 2)"``,
    ``toString #[1, 2] = "#[1, 2]"``, ``toString (1, (2, 3)) = "(1, (2, 3))"``,
    ``toString (-3 : Int) = "-3"`` even inside a list.
    """
    if not isinstance(t, TCon):
        raise TypeError(f"toString needs a concrete type, got {t}")
    name = t.name
    if name in ("Nat", "Int", "UInt8"):
        return int_str(v)
    if name in ("Bool", "Prop"):
        return "true" if v else "false"
    if name == "Float":
        return float_to_string(v)
    if name in ("Char", "String"):
        return v
    if name == "Unit":
        return "()"
    if name == "List":
        return "[" + ", ".join(lean_to_string(t.args[0], x) for x in v) + "]"
    if name == "Array":
        return "#[" + ", ".join(lean_to_string(t.args[0], x) for x in v) + "]"
    if name == "Option":
        return "none" if v is None else f"(some {lean_to_string(t.args[0], v.val)})"
    if name == "Prod":
        return f"({lean_to_string(t.args[0], v[0])}, {lean_to_string(t.args[1], v[1])})"
    raise TypeError(f"no ToString instance known for {t}")
