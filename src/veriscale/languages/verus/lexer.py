"""A tokenizer for Rust and Verus source.

Tokens keep their byte offsets into the original text, so tools that rewrite
source (the Verus eraser) can splice text without reprinting it. Comments
and whitespace are skipped; Verus operators (``==>``, ``<==>``, ``&&&``,
``=~=``, …) are single tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["LexError", "Tok", "strip_comments", "tokenize"]


class LexError(ValueError):
    """Source that cannot be tokenized (unterminated string or comment, stray character)."""


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str  # "ident", "int", "str", "char", "lifetime", "punct", "float"
    text: str
    start: int
    end: int
    line: int

    def is_(self, text: str) -> bool:
        return self.text == text and self.kind in ("punct", "ident")


# longest first
_PUNCTS = sorted(
    [
        "<==>", "=~~=", "==>", "<==", "&&&", "|||", "===", "!==", "=~=", "...", "..=", "<<=", ">>=",
        "..", "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "+=", "-=", "*=",
        "/=", "%=", "^=", "&=", "|=",
        "+", "-", "*", "/", "%", "^", "!", "&", "|", "=", "<", ">", "@", ".", ",", ";", ":", "#",
        "$", "?", "~", "{", "}", "[", "]", "(", ")",
    ],
    key=len,
    reverse=True,
)  # fmt: skip


def _is_ident_start(c: str) -> bool:
    return c.isalpha() or c == "_"


def _is_ident_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _skip_block_comment(src: str, i: int) -> int:
    depth = 0
    n = len(src)
    while i < n:
        if src.startswith("/*", i):
            depth += 1
            i += 2
        elif src.startswith("*/", i):
            depth -= 1
            i += 2
            if depth == 0:
                return i
        else:
            i += 1
    raise LexError("unterminated block comment")


def _skip_string(src: str, i: int) -> int:
    """``i`` at the opening quote; returns the index after the closing quote."""
    n = len(src)
    i += 1
    while i < n:
        c = src[i]
        if c == "\\":
            i += 2
        elif c == '"':
            return i + 1
        else:
            i += 1
    raise LexError("unterminated string literal")


def _raw_string_end(src: str, i: int) -> int | None:
    """``i`` at ``r`` (after an optional ``b``); end index of a raw string, or None if not one."""
    j = i + 1
    hashes = 0
    while j < len(src) and src[j] == "#":
        hashes += 1
        j += 1
    if j >= len(src) or src[j] != '"':
        return None
    close = '"' + "#" * hashes
    k = src.find(close, j + 1)
    if k < 0:
        raise LexError("unterminated raw string literal")
    return k + len(close)


def _char_end(src: str, i: int) -> int | None:
    """``i`` at ``'``; end index of a char literal, or None when this is a lifetime."""
    n = len(src)
    if i + 1 < n and src[i + 1] == "\\":
        j = i + 2
        if j < n and src[j] == "u" and j + 1 < n and src[j + 1] == "{":
            k = src.find("}", j)
            if k < 0:
                raise LexError("bad unicode escape")
            j = k + 1
        elif j < n and src[j] == "x":
            j += 3
        else:
            j += 1
        if j < n and src[j] == "'":
            return j + 1
        raise LexError("bad char literal")
    if i + 2 < n and src[i + 2] == "'":
        return i + 3
    return None


_PUNCT_RE = re.compile("|".join(re.escape(p) for p in _PUNCTS))
_WS_RE = re.compile(r"(?:[ \t\r\f\v]+|//[^\n]*)+")
_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUM_RE = re.compile(r"0[xob][0-9A-Za-z_]*|[0-9][0-9_]*(?:\.[0-9][0-9_]*)?[A-Za-z0-9_]*")


def tokenize(src: str) -> list[Tok]:
    toks: list[Tok] = []
    i, n, line = 0, len(src), 1
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        m = _WS_RE.match(src, i)
        if m:
            i = m.end()
            continue
        if src.startswith("/*", i):
            j = _skip_block_comment(src, i)
            line += src.count("\n", i, j)
            i = j
            continue
        start = i
        if c == '"':
            j = _skip_string(src, i)
            toks.append(Tok("str", src[i:j], i, j, line))
        elif c == "b" and i + 1 < n and src[i + 1] == '"':
            j = _skip_string(src, i + 1)
            toks.append(Tok("str", src[i:j], i, j, line))
        elif c == "b" and i + 1 < n and src[i + 1] == "'":
            e = _char_end(src, i + 1)
            if e is None:
                raise LexError(f"bad byte literal at line {line}")
            j = e
            toks.append(Tok("char", src[i:j], i, j, line))
        elif (c == "r" or src.startswith("br", i)) and (
            raw_end := _raw_string_end(src, i if c == "r" else i + 1)
        ) is not None:
            j = raw_end
            toks.append(Tok("str", src[i:j], i, j, line))
        elif c == "'":
            end = _char_end(src, i)
            if end is None:
                j = i + 1
                while j < n and _is_ident_char(src[j]):
                    j += 1
                toks.append(Tok("lifetime", src[i:j], i, j, line))
            else:
                j = end
                toks.append(Tok("char", src[i:j], i, j, line))
        elif _is_ident_start(c):
            m = _IDENT_RE.match(src, i)
            j = m.end() if m else i + 1
            if src.startswith("r#", i) and j == i + 1:
                m = _IDENT_RE.match(src, i + 2)
                j = m.end() if m else i + 2
            toks.append(Tok("ident", src[i:j], i, j, line))
        elif c.isdigit():
            m = _NUM_RE.match(src, i)
            assert m is not None
            j = m.end()
            text = src[i:j]
            kind = "int"
            if "." in text:
                if toks and toks[-1].text == ".":  # tuple field chain ``x.0.1``: not a float
                    j = i + text.index(".")
                    text = src[i:j]
                else:
                    kind = "float"
            toks.append(Tok(kind, text, i, j, line))
        else:
            m = _PUNCT_RE.match(src, i)
            if not m:
                raise LexError(f"unexpected character {c!r} at line {line}")
            j = m.end()
            toks.append(Tok("punct", m.group(), i, j, line))
        if j - start > 1:
            line += src.count("\n", start, j)
        i = j
    return toks


def strip_comments(src: str) -> str:
    """``src`` with comments replaced by spaces (newlines kept, so line numbers stay)."""
    out: list[str] = []
    i, n = 0, len(src)
    last = 0
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(src[last:i])
            out.append(" " * (j - i))
            i = last = j
        elif src.startswith("/*", i):
            j = _skip_block_comment(src, i)
            out.append(src[last:i])
            out.append("".join(ch if ch == "\n" else " " for ch in src[i:j]))
            i = last = j
        elif c == '"':
            i = _skip_string(src, i)
        elif c == "r" and (i == 0 or not _is_ident_char(src[i - 1])) and (e := _raw_string_end(src, i)):
            i = e
        elif c == "'":
            e2 = _char_end(src, i)
            i = e2 if e2 is not None else i + 1
        elif _is_ident_char(c):
            j = i + 1
            while j < n and _is_ident_char(src[j]):
                j += 1
            i = j
        else:
            i += 1
    out.append(src[last:])
    return "".join(out)
