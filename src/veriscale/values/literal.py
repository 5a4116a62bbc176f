"""A small parser for Lean *value literals* as they appear in benchmark datasets.

It turns text such as ``#[1, -2]``, ``some ('a')``, ``[(1, "x\\n")]``,
``⟨[(1, 10)]⟩``, ``{ entries := [] }`` or ``fun x => x > 5`` into a literal
tree (``L*`` nodes). The tree is untyped; ``values.codec`` interprets it
against a Lean type and does all validation of shape and range.

The grammar is deliberately small. Arithmetic (``1 + 2``, ``-(3)``) is parsed
into ``LBinOp``/``LNeg`` only so that the codec can reject it with a precise
reason (a dataset value should be a literal), and so that ``(0.0/0.0)`` can
stand for a NaN. Escapes follow Lean 4's lexer: ``\\\\ \\" \\' \\n \\t \\r``,
``\\xHH`` and ``\\uHHHH`` (exactly four hex digits), plus a backslash-newline
gap inside strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "LAnon",
    "LApp",
    "LArray",
    "LAscribe",
    "LBinOp",
    "LBool",
    "LChar",
    "LFloat",
    "LIdent",
    "LInt",
    "LLambda",
    "LList",
    "LNeg",
    "LStr",
    "LStructInst",
    "LTuple",
    "LUnit",
    "LiteralError",
    "Node",
    "describe",
    "int_from_decimal",
    "parse_literal",
]


class LiteralError(ValueError):
    """Text that is not a well-formed value literal; ``pos`` is a 0-based character offset."""

    def __init__(self, msg: str, pos: int) -> None:
        super().__init__(f"{msg} (at offset {pos})")
        self.msg = msg
        self.pos = pos


@dataclass(frozen=True, slots=True)
class LInt:
    value: int


@dataclass(frozen=True, slots=True)
class LFloat:
    """A scientific literal (``1.5``, ``1e-09``) or a named special (``Float.nan``)."""

    value: float
    text: str


@dataclass(frozen=True, slots=True)
class LStr:
    value: str


@dataclass(frozen=True, slots=True)
class LChar:
    value: str


@dataclass(frozen=True, slots=True)
class LBool:
    value: bool


@dataclass(frozen=True, slots=True)
class LUnit:
    pass


@dataclass(frozen=True, slots=True)
class LList:
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class LArray:
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class LTuple:
    """``(a, b, c)``: two or more components, flat as written."""

    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class LAnon:
    """Anonymous constructor ``⟨a, b⟩``."""

    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class LStructInst:
    """Structure instance ``{ f := v, g := w }`` (field order as written)."""

    fields: tuple[tuple[str, Node], ...]


@dataclass(frozen=True, slots=True)
class LIdent:
    name: str


@dataclass(frozen=True, slots=True)
class LApp:
    """``head arg ...`` where ``head`` is an identifier: ``some x``, ``Std.HashMap.ofList [...]``."""

    head: str
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class LAscribe:
    """``(e : T)``; the type is kept as text for the codec to parse."""

    node: Node
    type_text: str


@dataclass(frozen=True, slots=True)
class LNeg:
    """``-e`` where ``e`` is not a plain numeral (``-(3)``, ``-x``)."""

    node: Node


@dataclass(frozen=True, slots=True)
class LBinOp:
    op: str
    lhs: Node
    rhs: Node


@dataclass(frozen=True, slots=True)
class LLambda:
    """A function given as source (``fun x => x > 5``, ``(· + 1)``), kept verbatim."""

    text: str


Node = (
    LInt
    | LFloat
    | LStr
    | LChar
    | LBool
    | LUnit
    | LList
    | LArray
    | LTuple
    | LAnon
    | LStructInst
    | LIdent
    | LApp
    | LAscribe
    | LNeg
    | LBinOp
    | LLambda
)

_NAMED_FLOATS = {
    "Float.nan": float("nan"),
    "Float.inf": float("inf"),
}
_BINOPS = ("+", "-", "*", "/", "%")
_IDENT_EXTRA = "_'!?"
_CLOSERS = {"(": ")", "[": "]", "{": "}", "⟨": "⟩"}
_QUOTABLE = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "t": "\t", "r": "\r"}
_HEX = "0123456789abcdefABCDEF"


# Fast path for the most common dataset value: a flat list/array of integer numerals.
_FLAT_INTS = re.compile(r"\s*(#?)\[\s*((?:-?\d{1,18}\s*,\s*)*-?\d{1,18})?\s*\]\s*")
_WS = re.compile(r"(?:\s+|--[^\n]*(?:\n|$))*")


def parse_literal(text: str) -> Node:
    """Parse one value literal (surrounding whitespace allowed); raise ``LiteralError`` otherwise."""
    m = _FLAT_INTS.fullmatch(text)
    if m:
        items = tuple(LInt(int(x)) for x in m.group(2).split(",")) if m.group(2) else ()
        return LArray(items) if m.group(1) else LList(items)
    p = _Parser(text)
    p.ws()
    if p.at_end():
        raise LiteralError("empty literal", 0)
    node = p.expr()
    p.ws()
    if not p.at_end():
        raise LiteralError(f"unexpected {p.text[p.i]!r} after the value", p.i)
    return node


def int_from_decimal(digits: str) -> int:
    """``int(digits)`` without CPython's 4300-digit conversion limit (Lean numerals are unbounded)."""
    if len(digits) <= 4000:
        return int(digits)
    hi, lo = digits[:-4000], digits[-4000:]
    return int_from_decimal(hi) * 10**4000 + int(lo)


def describe(node: Node) -> str:
    """A short human name for a literal node, for error messages (``list literal``, ``string literal``)."""
    names = {
        LInt: "integer literal",
        LFloat: "float literal",
        LStr: "string literal",
        LChar: "char literal",
        LBool: "bool literal",
        LUnit: "unit literal",
        LList: "list literal",
        LArray: "array literal",
        LTuple: "tuple literal",
        LAnon: "anonymous constructor",
        LStructInst: "structure instance",
        LIdent: "identifier",
        LApp: "application",
        LAscribe: "type ascription",
        LNeg: "negation expression",
        LBinOp: "arithmetic expression",
        LLambda: "function",
    }
    return names[type(node)]


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.n = len(text)

    # ------------------------------------------------------------ helpers
    def at_end(self) -> bool:
        return self.i >= self.n

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.text[j] if j < self.n else ""

    def ws(self) -> None:
        """Skip whitespace and ``--`` line comments."""
        m = _WS.match(self.text, self.i)
        if m is not None:
            self.i = m.end()

    def expect(self, s: str) -> None:
        self.ws()
        if not self.text.startswith(s, self.i):
            got = repr(self.text[self.i]) if self.i < self.n else "end of text"
            raise LiteralError(f"expected {s!r}, got {got}", self.i)
        self.i += len(s)

    def error(self, msg: str) -> LiteralError:
        return LiteralError(msg, self.i)

    # ------------------------------------------------------------ grammar
    def expr(self) -> Node:
        lhs = self.app()
        while True:
            self.ws()
            c = self.peek()
            if c in _BINOPS and c and not self._starts_arrow():
                self.i += 1
                rhs = self.app()
                lhs = LBinOp(c, lhs, rhs)
            else:
                return lhs

    def _starts_arrow(self) -> bool:
        return self.text.startswith("->", self.i)

    def app(self) -> Node:
        self.ws()
        head = self.atom()
        if not isinstance(head, LIdent):
            return head
        args: list[Node] = []
        while True:
            self.ws()
            if self._starts_arg():
                args.append(self.atom())
            else:
                break
        if not args:
            return head
        return LApp(head.name, tuple(args))

    def _starts_arg(self) -> bool:
        c = self.peek()
        if not c:
            return False
        if c in "([⟨{\"'#" or c.isdigit():
            return True
        return self._ident_start(c) and not self._keyword_at(("fun", "λ"))

    @staticmethod
    def _ident_start(c: str) -> bool:
        return (c.isalpha() or c == "_") and c != "λ"

    def _keyword_at(self, kws: tuple[str, ...]) -> bool:
        for kw in kws:
            if self.text.startswith(kw, self.i):
                nxt = self.peek(len(kw))
                if kw == "λ" or not (nxt.isalnum() or nxt in _IDENT_EXTRA):
                    return True
        return False

    def atom(self) -> Node:
        self.ws()
        c = self.peek()
        if not c:
            raise self.error("unexpected end of text")
        if self._keyword_at(("fun", "λ")):
            return LLambda(self._raw_until_delim())
        if c == "-":
            return self._negative()
        if c.isdigit():
            return self._number()
        if c == '"':
            return LStr(self._string())
        if c == "'":
            return LChar(self._char())
        if c == "#":
            if self.peek(1) != "[":
                raise self.error("expected '#[' for an array literal")
            self.i += 2
            return LArray(self._items("]"))
        if c == "[":
            self.i += 1
            return LList(self._items("]"))
        if c == "⟨":
            self.i += 1
            return LAnon(self._items("⟩"))
        if c == "{":
            return self._struct_inst()
        if c == "(":
            return self._paren()
        if self._ident_start(c):
            return self._ident()
        raise self.error(f"unexpected character {c!r}")

    def _negative(self) -> Node:
        self.i += 1  # '-'
        self.ws()
        c = self.peek()
        if c.isdigit():
            num = self._number()
            if isinstance(num, LInt):
                return LInt(-num.value)
            assert isinstance(num, LFloat)
            return LFloat(-num.value, "-" + num.text)
        inner = self.atom()
        if isinstance(inner, LFloat) and inner.text in _NAMED_FLOATS:
            return LFloat(-inner.value, "-" + inner.text)
        return LNeg(inner)

    def _number(self) -> Node:
        t = self.text
        start = self.i
        if t.startswith(("0x", "0X", "0b", "0B", "0o", "0O"), start):
            base = {"x": 16, "b": 2, "o": 8}[t[start + 1].lower()]
            j = start + 2
            while j < self.n and (t[j].isalnum()):
                j += 1
            try:
                val = int(t[start + 2 : j], base)
            except ValueError:
                raise LiteralError(f"malformed numeral {t[start:j]!r}", start) from None
            self.i = j
            return LInt(val)
        j = start
        while j < self.n and t[j].isdigit():
            j += 1
        is_float = False
        if j < self.n and t[j] == "." and j + 1 < self.n and t[j + 1].isdigit():
            is_float = True
            j += 1
            while j < self.n and t[j].isdigit():
                j += 1
        if j < self.n and t[j] in "eE":
            k = j + 1
            if k < self.n and t[k] in "+-":
                k += 1
            if k < self.n and t[k].isdigit():
                is_float = True
                j = k
                while j < self.n and t[j].isdigit():
                    j += 1
        if j < self.n and (t[j].isalpha() or t[j] == "_"):
            raise LiteralError(f"malformed numeral {t[start : j + 1]!r}", start)
        text = t[start:j]
        self.i = j
        if not text.isascii() or not text[0].isdigit():
            raise LiteralError(f"malformed numeral {text!r}", start)
        if is_float:
            try:
                return LFloat(float(text), text)
            except ValueError:  # pragma: no cover - guarded by the scan above
                raise LiteralError(f"malformed float {text!r}", start) from None
        return LInt(int_from_decimal(text))

    def _escape(self, in_string: bool) -> str | None:
        """After a backslash. Returns the character, or None for a string gap."""
        t = self.text
        c = self.peek()
        if not c:
            raise self.error("unterminated escape sequence")
        if c in _QUOTABLE:
            self.i += 1
            return _QUOTABLE[c]
        if c == "x":
            hexs = t[self.i + 1 : self.i + 3]
            if len(hexs) != 2 or any(h not in _HEX for h in hexs):
                raise self.error("\\x needs exactly two hex digits")
            self.i += 3
            return chr(int(hexs, 16))
        if c == "u":
            hexs = t[self.i + 1 : self.i + 5]
            if len(hexs) != 4 or any(h not in _HEX for h in hexs):
                raise self.error("\\u needs exactly four hex digits")
            cp = int(hexs, 16)
            if 0xD800 <= cp <= 0xDFFF:
                raise self.error("\\u escape names a surrogate, not a character")
            self.i += 5
            return chr(cp)
        if in_string and c == "\n":
            # Lean's string gap: backslash, newline, then any whitespace is dropped.
            self.i += 1
            while self.i < self.n and self.text[self.i] in " \t\r\n":
                self.i += 1
            return None
        raise self.error(f"invalid escape sequence \\{c}")

    def _string(self) -> str:
        start = self.i
        self.i += 1
        out: list[str] = []
        while True:
            if self.i >= self.n:
                raise LiteralError("unterminated string literal", start)
            c = self.text[self.i]
            if c == '"':
                self.i += 1
                return "".join(out)
            self.i += 1
            if c == "\\":
                e = self._escape(True)
                if e is not None:
                    out.append(e)
            else:
                out.append(c)

    def _char(self) -> str:
        start = self.i
        # Lean only lexes a char literal when the quote is not followed by another quote.
        if self.peek(1) in ("'", ""):
            raise LiteralError("malformed char literal", start)
        self.i += 1
        c = self.text[self.i]
        self.i += 1
        if c == "\\":
            e = self._escape(False)
            assert e is not None
            c = e
        if self.peek() != "'":
            raise LiteralError("char literal must hold exactly one character", start)
        self.i += 1
        return c

    def _items(self, close: str) -> tuple[Node, ...]:
        items: list[Node] = []
        self.ws()
        if self.peek() == close:
            self.i += 1
            return ()
        while True:
            items.append(self.expr())
            self.ws()
            c = self.peek()
            if c == ",":
                self.i += 1
                continue
            if c == close:
                self.i += 1
                return tuple(items)
            got = repr(c) if c else "end of text"
            raise self.error(f"expected ',' or {close!r}, got {got}")

    def _struct_inst(self) -> Node:
        self.i += 1  # '{'
        fields: list[tuple[str, Node]] = []
        self.ws()
        if self.peek() == "}":
            self.i += 1
            return LStructInst(())
        while True:
            self.ws()
            if not self._ident_start(self.peek()):
                raise self.error("expected a field name in structure instance")
            name = self._ident_text()
            self.expect(":=")
            fields.append((name, self.expr()))
            self.ws()
            c = self.peek()
            if c == "}":
                self.i += 1
                return LStructInst(tuple(fields))
            if c == ",":
                self.i += 1
                continue
            if self._ident_start(c):  # Lean also separates fields by newlines
                continue
            raise self.error("expected ',' or '}' in structure instance")

    def _paren(self) -> Node:
        start = self.i
        self.i += 1
        self.ws()
        if self.peek() == ")":
            self.i += 1
            return LUnit()
        if self.peek() == "·":
            self.i = start
            return LLambda(self._raw_balanced())
        first = self.expr()
        self.ws()
        c = self.peek()
        if c == ")":
            self.i += 1
            return first
        if c == ",":
            items = [first]
            while self.peek() == ",":
                self.i += 1
                items.append(self.expr())
                self.ws()
            self.expect(")")
            return LTuple(tuple(items))
        if c == ":":
            self.i += 1
            j = self.i
            depth = 0
            while j < self.n:
                ch = self.text[j]
                if ch in "([{⟨":
                    depth += 1
                elif ch in ")]}⟩":
                    if depth == 0:
                        break
                    depth -= 1
                j += 1
            if j >= self.n or self.text[j] != ")":
                raise self.error("unterminated type ascription")
            type_text = self.text[self.i : j].strip()
            self.i = j + 1
            if not type_text:
                raise self.error("empty type in ascription")
            return LAscribe(first, type_text)
        got = repr(c) if c else "end of text"
        raise self.error(f"expected ')' or ',', got {got}")

    def _ident_text(self) -> str:
        start = self.i
        t = self.text
        while True:
            if self.i < self.n and self._ident_start(t[self.i]):
                self.i += 1
                while self.i < self.n and (t[self.i].isalnum() or t[self.i] in _IDENT_EXTRA):
                    self.i += 1
            else:
                raise LiteralError("malformed identifier", start)
            if self.i < self.n and t[self.i] == "." and self._ident_start(self.peek(1)):
                self.i += 1
                continue
            return t[start : self.i]

    def _ident(self) -> Node:
        name = self._ident_text()
        if name == "true":
            return LBool(True)
        if name == "false":
            return LBool(False)
        if name in _NAMED_FLOATS:
            return LFloat(_NAMED_FLOATS[name], name)
        return LIdent(name)

    # ------------------------------------------------------------ raw source capture
    def _scan_quoted(self, j: int) -> int:
        """Skip a string or char literal starting at ``j``; return the index after it."""
        q = self.text[j]
        if q == "'" and j > 0 and (self.text[j - 1].isalnum() or self.text[j - 1] in _IDENT_EXTRA):
            return j + 1  # a name suffix such as x'
        k = j + 1
        while k < self.n:
            ch = self.text[k]
            if ch == "\\":
                k += 2
                continue
            if ch == q:
                return k + 1
            if q == "'" and k > j + 2:  # an apostrophe used as a name suffix, not a char literal
                return j + 1
            k += 1
        if q == "'":
            return j + 1
        raise LiteralError("unterminated string literal", j)

    def _raw_until_delim(self) -> str:
        """A lambda extends to the first unmatched closer or top-level ',' (like Lean's `fun` body)."""
        start = self.i
        j = self.i
        stack: list[str] = []
        while j < self.n:
            ch = self.text[j]
            if ch in "\"'":
                j = self._scan_quoted(j)
                continue
            if ch in _CLOSERS:
                stack.append(_CLOSERS[ch])
            elif ch in ")]}⟩":
                if not stack:
                    break
                if stack.pop() != ch:
                    raise LiteralError(f"mismatched {ch!r} in function", j)
            elif ch == "," and not stack:
                break
            j += 1
        if stack:
            raise LiteralError("unbalanced brackets in function", start)
        self.i = j
        return self.text[start:j].strip()

    def _raw_balanced(self) -> str:
        start = self.i
        j = self.i
        stack: list[str] = []
        while j < self.n:
            ch = self.text[j]
            if ch in "\"'":
                j = self._scan_quoted(j)
                continue
            if ch in _CLOSERS:
                stack.append(_CLOSERS[ch])
            elif ch in ")]}⟩":
                if not stack or stack.pop() != ch:
                    raise LiteralError(f"mismatched {ch!r}", j)
                if not stack:
                    self.i = j + 1
                    return self.text[start : self.i]
            j += 1
        raise LiteralError("unbalanced brackets in function", start)
