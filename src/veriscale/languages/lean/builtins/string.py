"""``String`` and ``String.Iterator`` builtins.

Strings are Python ``str``; lengths and ``drop``/``take`` count code points
like Lean. Lean's ``String.Pos`` is a *byte* offset into the UTF-8 encoding:
``String.get``/``get?``/``get!``/``extract`` take it as a ``Nat`` byte index
(the evaluator should represent ``String.Pos`` by its ``byteIdx``). A byte
index that is not a character boundary reads as ``default = 'A'``.

``String.Iterator`` is not a type the type-string parser knows, so its
builtins are registered with a hand-built ``TCon("String.Iterator")``. An
iterator is a ``StrIter(s, i)`` where ``i`` counts code points instead of
bytes: every position an iterator reaches is a character boundary, and past
the end Lean advances one byte per ``next`` (the default char ``'A'`` is one
byte), so the two numberings correspond one to one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from veriscale.values.runtime import Some
from veriscale.values.types import BOOL, CHAR, NAT, STRING, TCon, fun_of

from . import ops
from .optional import const, define
from .support import fn1, fn2, guard_size

__all__ = ["ITERATOR", "StrIter"]

ITERATOR = TCon("String.Iterator")


@dataclass(frozen=True, slots=True)
class StrIter:
    """``String.Iterator``: the string and the code-point index of the current position."""

    s: str
    i: int


def _is_ws(c: str) -> bool:
    return c in " \t\r\n"


def _utf8_len(c: str) -> int:
    n = ord(c)
    return 1 if n < 0x80 else 2 if n < 0x800 else 3 if n < 0x10000 else 4


def _byte_to_char_index(s: str, p: int) -> int | None:
    """Code-point index of byte offset ``p`` if it is a character boundary (``len(s)`` at the end)."""
    if s.isascii():
        return p if p <= len(s) else None
    pos = 0
    for k, c in enumerate(s):
        if pos == p:
            return k
        if pos > p:
            return None
        pos += _utf8_len(c)
    return len(s) if pos == p else None


# ------------------------------------------------------------------ basics


@define("String.length", "String → Nat", "s")
def length(s: str) -> int:
    return len(s)


@define("String.utf8ByteSize", "String → Nat", "s")
def utf8_byte_size(s: str) -> int:
    return sum(_utf8_len(c) for c in s)


@define("String.isEmpty", "String → Bool", "s")
def is_empty(s: str) -> bool:
    return not s


@define("String.toList", "String → List Char", "s")
def to_list(s: str) -> tuple:
    return tuple(s)


@define("String.data", "String → List Char", "s")
def data(s: str) -> tuple:
    return tuple(s)


@define("String.mk", "List Char → String", "data")
def mk(cs: tuple) -> str:
    return "".join(cs)


@define("String.singleton", "Char → String", "c")
def singleton(c: str) -> str:
    return c


@define("String.push", "String → Char → String", "s c")
def push(s: str, c: str) -> str:
    return s + c


@define("String.pushn", "String → Char → Nat → String", "s c n")
def pushn(s: str, c: str, n: int) -> str:
    guard_size(n)
    return s + c * n


@define("String.replicate", "Nat → Char → String", "n c")
def replicate(n: int, c: str) -> str:
    guard_size(n)
    return c * n


@define("String.append", "String → String → String", "s t")
def append(s: str, t: str) -> str:
    return s + t


@define("String.join", "List String → String", "l")
def join(parts: tuple) -> str:
    return "".join(parts)


@define("String.intercalate", "String → List String → String", "s l")
def intercalate(sep: str, parts: tuple) -> str:
    return sep.join(parts)


@define("String.quote", "String → String", "s")
def quote(s: str) -> str:
    return ops.string_quote(s)


# ------------------------------------------------------- byte positions


def _get(s: str, p: int) -> str | None:
    k = _byte_to_char_index(s, p)
    return s[k] if k is not None and k < len(s) else None


@define("String.get", "String → Nat → Char", "s p")
def get(s: str, p: int) -> str:
    """Character at byte position ``p``; ``'A'`` when ``p`` is not a valid position."""
    c = _get(s, p)
    return "A" if c is None else c


@define("String.get!", "String → Nat → Char", "s p")
def get_bang(s: str, p: int) -> str:
    return get(s, p)


@define("String.get?", "String → Nat → Option Char", "s p")
def get_opt(s: str, p: int) -> Any:
    c = _get(s, p)
    return None if c is None else Some(c)


@define("String.extract", "String → Nat → Nat → String", "s b e")
def extract(s: str, b: int, e: int) -> str:
    """Substring between byte positions ``b`` and ``e`` (``""`` when ``b`` is not a boundary)."""
    if b >= e:
        return ""
    kb = _byte_to_char_index(s, b)
    if kb is None or kb >= len(s):
        return ""
    ke = _byte_to_char_index(s, e)
    return s[kb:] if ke is None else s[kb:ke]


@define("String.front", "String → Char", "s")
def front(s: str) -> str:
    return s[0] if s else "A"


@define("String.back", "String → Char", "s")
def back(s: str) -> str:
    return s[-1] if s else "A"


# ----------------------------------------------------------- predicates


@define("String.contains", "String → Char → Bool", "s c")
def contains(s: str, c: str) -> bool:
    return c in s


@define("String.startsWith", "String → String → Bool", "s pre")
def starts_with(s: str, pre: str) -> bool:
    return s.startswith(pre)


@define("String.endsWith", "String → String → Bool", "s post")
def ends_with(s: str, post: str) -> bool:
    return s.endswith(post)


@define("String.isPrefixOf", "String → String → Bool", "p s")
def is_prefix_of(p: str, s: str) -> bool:
    return s.startswith(p)


@define("String.any", "String → (Char → Bool) → Bool", "s p")
def any_(s: str, p: Any) -> bool:
    g = fn1(p)
    return any(g(c) for c in s)


@define("String.all", "String → (Char → Bool) → Bool", "s p")
def all_(s: str, p: Any) -> bool:
    g = fn1(p)
    return all(g(c) for c in s)


# -------------------------------------------------------------- mapping


@define("String.map", "(Char → Char) → String → String", "f s")
def map_(f: Any, s: str) -> str:
    g = fn1(f)
    return "".join(g(c) for c in s)


@define("String.foldl", "(α → Char → α) → α → String → α", "f init s")
def foldl(f: Any, init: Any, s: str) -> Any:
    g = fn2(f)
    acc = init
    for c in s:
        acc = g(acc, c)
    return acc


@define("String.foldr", "(Char → α → α) → α → String → α", "f init s")
def foldr(f: Any, init: Any, s: str) -> Any:
    g = fn2(f)
    acc = init
    for c in reversed(s):
        acc = g(c, acc)
    return acc


def _ascii_upper(c: str) -> str:
    return chr(ord(c) - 32) if "a" <= c <= "z" else c


def _ascii_lower(c: str) -> str:
    return chr(ord(c) + 32) if "A" <= c <= "Z" else c


@define("String.toUpper", "String → String", "s")
def to_upper(s: str) -> str:
    return "".join(_ascii_upper(c) for c in s)


@define("String.toLower", "String → String", "s")
def to_lower(s: str) -> str:
    return "".join(_ascii_lower(c) for c in s)


@define("String.capitalize", "String → String", "s")
def capitalize(s: str) -> str:
    return _ascii_upper(s[0]) + s[1:] if s else s


@define("String.decapitalize", "String → String", "s")
def decapitalize(s: str) -> str:
    return _ascii_lower(s[0]) + s[1:] if s else s


# ------------------------------------------------------------ substrings


@define("String.drop", "String → Nat → String", "s n")
def drop(s: str, n: int) -> str:
    return s[n:]


@define("String.take", "String → Nat → String", "s n")
def take(s: str, n: int) -> str:
    return s[:n]


@define("String.dropRight", "String → Nat → String", "s n")
def drop_right(s: str, n: int) -> str:
    return s[: max(0, len(s) - n)]


@define("String.takeRight", "String → Nat → String", "s n")
def take_right(s: str, n: int) -> str:
    return s[max(0, len(s) - n) :]


def _prefix_len(s: str, p: Any) -> int:
    g = fn1(p)
    k = 0
    while k < len(s) and g(s[k]):
        k += 1
    return k


def _suffix_len(s: str, p: Any) -> int:
    g = fn1(p)
    k = 0
    while k < len(s) and g(s[len(s) - 1 - k]):
        k += 1
    return k


@define("String.dropWhile", "String → (Char → Bool) → String", "s p")
def drop_while(s: str, p: Any) -> str:
    return s[_prefix_len(s, p) :]


@define("String.takeWhile", "String → (Char → Bool) → String", "s p")
def take_while(s: str, p: Any) -> str:
    return s[: _prefix_len(s, p)]


@define("String.dropRightWhile", "String → (Char → Bool) → String", "s p")
def drop_right_while(s: str, p: Any) -> str:
    return s[: len(s) - _suffix_len(s, p)]


@define("String.takeRightWhile", "String → (Char → Bool) → String", "s p")
def take_right_while(s: str, p: Any) -> str:
    return s[len(s) - _suffix_len(s, p) :]


@define("String.trim", "String → String", "s")
def trim(s: str) -> str:
    """Strips ``Char.isWhitespace`` (space, tab, CR, LF) from both ends only."""
    return s.strip(" \t\r\n")


@define("String.trimLeft", "String → String", "s")
def trim_left(s: str) -> str:
    return s.lstrip(" \t\r\n")


@define("String.trimRight", "String → String", "s")
def trim_right(s: str) -> str:
    return s.rstrip(" \t\r\n")


# -------------------------------------------------------------- splitting


def split_on(s: str, sep: str) -> list[str]:
    """Lean 4.18's ``splitOnAux``: on a mismatch after a partial match it restarts one
    character after where that partial match began."""
    if sep == "":
        return [s]
    out: list[str] = []
    b = i = j = 0
    n, m = len(s), len(sep)
    while i < n:
        if s[i] == sep[j]:
            i += 1
            j += 1
            if j == m:
                out.append(s[b : i - j])
                b = i
                j = 0
        else:
            i = i - j + 1
            j = 0
    out.append(s[b:i])
    return out


@define("String.splitOn", "String → String → List String", "s sep", defaults={"sep": const(" ")})
def split_on_builtin(s: str, sep: str) -> tuple:
    return tuple(split_on(s, sep))


@define("String.split", "String → (Char → Bool) → List String", "s p")
def split(s: str, p: Any) -> tuple:
    """Splits at every character satisfying ``p`` (empty pieces kept; ``"" ↦ [""]``)."""
    g = fn1(p)
    out = []
    b = 0
    for i, c in enumerate(s):
        if g(c):
            out.append(s[b:i])
            b = i + 1
    out.append(s[b:])
    return tuple(out)


@define("String.replace", "String → String → String → String", "s pattern replacement")
def replace(s: str, pattern: str, replacement: str) -> str:
    """Left-to-right, non-overlapping; an empty pattern leaves ``s`` unchanged (unlike Python)."""
    if pattern == "":
        return s
    return s.replace(pattern, replacement)


# ---------------------------------------------------------------- numbers


def _is_nat(s: str) -> bool:
    return s != "" and all("0" <= c <= "9" for c in s)


@define("String.isNat", "String → Bool", "s")
def is_nat(s: str) -> bool:
    return _is_nat(s)


@define("String.isInt", "String → Bool", "s")
def is_int(s: str) -> bool:
    return _is_nat(s[1:]) if s[:1] == "-" else _is_nat(s)


@define("String.toNat?", "String → Option Nat", "s")
def to_nat_opt(s: str) -> Any:
    return Some(ops.str_int(s)) if _is_nat(s) else None


@define("String.toInt?", "String → Option Int", "s")
def to_int_opt(s: str) -> Any:
    """``"-12" ↦ some (-12)``; no ``+`` sign, no spaces."""
    if s[:1] == "-":
        return Some(-ops.str_int(s[1:])) if _is_nat(s[1:]) else None
    return Some(ops.str_int(s)) if _is_nat(s) else None


@define("String.toNat!", "String → Nat", "s")
def to_nat_bang(s: str) -> int:
    return ops.str_int(s) if _is_nat(s) else 0  # panic ↦ default 0


@define("String.toInt!", "String → Int", "s")
def to_int_bang(s: str) -> int:
    r = to_int_opt(s)
    return 0 if r is None else r.val


# ---------------------------------------------------------------- iterator


@define("String.iter", fun_of(STRING, ITERATOR), "s")
def iter_(s: str) -> StrIter:
    return StrIter(s, 0)


@define("String.mkIterator", fun_of(STRING, ITERATOR), "s")
def mk_iterator(s: str) -> StrIter:
    return StrIter(s, 0)


@define("String.Iterator.curr", fun_of(ITERATOR, CHAR), "it")
def it_curr(it: StrIter) -> str:
    """The current character; ``'A'`` (the default char) at or past the end."""
    return it.s[it.i] if it.i < len(it.s) else "A"


@define("String.Iterator.next", fun_of(ITERATOR, ITERATOR), "it")
def it_next(it: StrIter) -> StrIter:
    return StrIter(it.s, it.i + 1)


@define("String.Iterator.atEnd", fun_of(ITERATOR, BOOL), "it")
def it_at_end(it: StrIter) -> bool:
    return it.i >= len(it.s)


@define("String.Iterator.hasNext", fun_of(ITERATOR, BOOL), "it")
def it_has_next(it: StrIter) -> bool:
    return it.i < len(it.s)


@define("String.Iterator.hasPrev", fun_of(ITERATOR, BOOL), "it")
def it_has_prev(it: StrIter) -> bool:
    return it.i > 0


@define("String.Iterator.toString", fun_of(ITERATOR, STRING), "it")
def it_to_string(it: StrIter) -> str:
    return it.s


@define("String.Iterator.remainingToString", fun_of(ITERATOR, STRING), "it")
def it_remaining(it: StrIter) -> str:
    return it.s[it.i :]


@define("String.Iterator.forward", fun_of(ITERATOR, NAT, ITERATOR), "it n")
def it_forward(it: StrIter, n: int) -> StrIter:
    return StrIter(it.s, it.i + n)


@define("String.Iterator.toEnd", fun_of(ITERATOR, ITERATOR), "it")
def it_to_end(it: StrIter) -> StrIter:
    return StrIter(it.s, len(it.s))
