"""Tokenizer for the Lean 4 fragment.

Produces a flat list of :class:`Token` with 1-based line/column, whether
whitespace (or a comment) precedes each token and whether it starts a line;
the parser needs both for Lean's layout rules (``checkColGt``,
``checkNoWsBefore``). Comments (``--``, nested ``/- -/``, doc comments) are
skipped. Lexing follows Lean's own rules where they matter for parsing:
identifiers may contain ``!``, ``?``, ``'`` and subscripts and take dotted
components (``xs.length`` is one token), ``p.1`` is an identifier followed by
a field token, and symbols are matched longest-first. Characters outside the
fragment (inside skipped proofs, say) become one-character symbol tokens so
that only the parser decides what is an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import LeanParseError

__all__ = ["KEYWORDS", "Token", "is_id_first", "is_id_rest", "tokenize"]


@dataclass(slots=True)
class Token:
    """One token. ``kind`` is one of ``ident kw num sci str char interp sym field dotident eof``.

    ``value`` holds the decoded payload: the name for ``ident``/``field``/``dotident``, the
    text for ``kw``/``sym``/``sci``, an ``int`` for ``num``, the decoded text for ``str``/``char``,
    and a list of parts for ``interp`` (``s!"…"``). ``start``/``end`` are character offsets.
    """

    kind: str
    value: object
    line: int
    col: int
    start: int
    end: int
    ws: bool  # whitespace or a comment immediately before
    nl: bool  # first token on its line

    @property
    def pos(self) -> tuple[int, int]:
        return (self.line, self.col)

    def is_sym(self, *texts: str) -> bool:
        return self.kind == "sym" and self.value in texts

    def is_kw(self, *texts: str) -> bool:
        return self.kind == "kw" and self.value in texts

    def __repr__(self) -> str:  # compact, for error messages and debugging
        return f"<{self.kind} {self.value!r} @{self.line}:{self.col}>"


# Words Lean reserves as tokens (core syntax, commands, do-notation, tactics that
# matter for skipping). An identifier spelled like one of these is a keyword.
KEYWORDS: frozenset[str] = frozenset(
    """
    fun let in if then else match with do for unless return break continue have show from by at
    where deriving def theorem lemma abbrev instance structure class inductive namespace section
    end open import variable universe axiom example private protected partial noncomputable unsafe
    termination_by decreasing_by set_option mutual attribute Type Prop Sort sorry forall exists
    nomatch nofun try catch finally calc suffices while repeat mut macro macro_rules syntax
    notation infix infixl infixr prefix postfix elab opaque export
    """.split()
)

# Longest-first symbol table.
_SYMBOLS: tuple[str, ...] = tuple(
    sorted(
        """
        |>. <-> >>> <<< &&& ||| ^^^ <;> >>= <$> <|> ... :=  => -> <- |> <| ++ :: == != <= >= && ||
        #[ @[ /\\ \\/ .. >> ( ) [ ] { } ⟨ ⟩ , : ; | @ ^ % / * + - < > = ! ? $ . · λ ∀ ∃ ¬ ∧ ∨ ↔
        → ← ↦ ≠ ≤ ≥ ∈ ∉ × ▸ ↑ ∣ ∘ ⦃ ⦄ _ ' & # ~ \\ ⊆ ⊂ ⊢ Σ Π
        <+ <+: <:+ <:+: ∪ ∩ ∑ ∏ ⊔ ⊓
        """.split(),
        key=len,
        reverse=True,
    )
)
_SYM_BY_FIRST: dict[str, tuple[str, ...]] = {}
for _s in _SYMBOLS:
    _SYM_BY_FIRST.setdefault(_s[0], ())
    _SYM_BY_FIRST[_s[0]] = (*_SYM_BY_FIRST[_s[0]], _s)

# Tokens after which an immediately following ``.x`` is a field access.
_TERM_END_SYMS = frozenset({")", "]", "⟩", "}", "·"})


def _is_letter_like(o: int) -> bool:
    return (
        (0x3B1 <= o <= 0x3C9 and o != 0x3BB)  # lower Greek except λ
        or (0x391 <= o <= 0x3A9 and o not in (0x3A0, 0x3A3))  # upper Greek except Π Σ
        or 0x3CA <= o <= 0x3FB  # Coptic
        or 0x1F00 <= o <= 0x1FFE  # polytonic Greek
        or 0x2100 <= o <= 0x214F  # letter-like block (ℕ ℤ …)
        or 0x1D49C <= o <= 0x1D59F  # script, double-struck, Fraktur
    )


def _is_subscript(o: int) -> bool:
    return 0x2080 <= o <= 0x2089 or 0x2090 <= o <= 0x209C or 0x1D62 <= o <= 0x1D6A


def is_id_first(c: str) -> bool:
    if c.isascii():
        return c.isalpha() or c == "_"
    return _is_letter_like(ord(c))


def is_id_rest(c: str) -> bool:
    if c.isascii():
        return c.isalnum() or c in "_'!?"
    o = ord(c)
    return _is_letter_like(o) or _is_subscript(o)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0"}


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.i = 0
        self.line = 1
        self.line_start = 0
        self.tokens: list[Token] = []
        self.quoted = False  # the identifier being read has a «…» component

    # -------------------------------------------------------------- helpers
    def err(self, msg: str, at: int | None = None) -> LeanParseError:
        at = self.i if at is None else at
        line = self.text.count("\n", 0, at) + 1
        col = at - (self.text.rfind("\n", 0, at) + 1) + 1
        return LeanParseError(msg, (line, col))

    def newline_at(self, k: int) -> None:
        self.line += 1
        self.line_start = k + 1

    def skip_ws(self) -> tuple[bool, bool]:
        """Skip whitespace and comments; return (skipped anything, crossed a newline)."""
        text, n = self.text, self.n
        start = self.i
        nl = False
        while self.i < n:
            c = text[self.i]
            if c == "\n":
                self.newline_at(self.i)
                nl = True
                self.i += 1
            elif c in " \t\r\f\v":
                self.i += 1
            elif c == "-" and text.startswith("--", self.i):
                j = text.find("\n", self.i)
                self.i = n if j < 0 else j
            elif c == "/" and text.startswith("/-", self.i):
                self.skip_block_comment()
            else:
                break
        return self.i > start, nl

    def skip_block_comment(self) -> None:
        text, n = self.text, self.n
        start = self.i
        depth = 0
        while self.i < n:
            if text.startswith("/-", self.i):
                depth += 1
                self.i += 2
            elif text.startswith("-/", self.i):
                depth -= 1
                self.i += 2
                if depth == 0:
                    return
            else:
                if text[self.i] == "\n":
                    self.newline_at(self.i)
                self.i += 1
        raise self.err("unterminated block comment", start)

    # ------------------------------------------------------------- literals
    def read_escape(self) -> str:
        """At a backslash inside a string/char literal; return the decoded character."""
        text = self.text
        at = self.i
        self.i += 1
        if self.i >= self.n:
            raise self.err("unterminated escape sequence", at)
        c = text[self.i]
        self.i += 1
        if c in _ESCAPES:
            return _ESCAPES[c]
        if c == "x":
            h = text[self.i : self.i + 2]
            if len(h) != 2 or not all(ch in "0123456789abcdefABCDEF" for ch in h):
                raise self.err("invalid \\x escape", at)
            self.i += 2
            return chr(int(h, 16))
        if c == "u":
            if self.i < self.n and text[self.i] == "{":
                j = text.find("}", self.i)
                h = text[self.i + 1 : j] if j > 0 else ""
                if not h or len(h) > 6 or not all(ch in "0123456789abcdefABCDEF" for ch in h):
                    raise self.err("invalid \\u{…} escape", at)
                self.i = j + 1
            else:
                h = text[self.i : self.i + 4]
                if len(h) != 4 or not all(ch in "0123456789abcdefABCDEF" for ch in h):
                    raise self.err("invalid \\u escape", at)
                self.i += 4
            v = int(h, 16)
            if v > 0x10FFFF or 0xD800 <= v <= 0xDFFF:
                raise self.err("invalid code point in escape", at)
            return chr(v)
        raise self.err(f"unknown escape sequence \\{c}", at)

    def read_string(self) -> str:
        text = self.text
        start = self.i
        self.i += 1  # opening quote
        out: list[str] = []
        while True:
            if self.i >= self.n:
                raise self.err("unterminated string literal", start)
            c = text[self.i]
            if c == '"':
                self.i += 1
                return "".join(out)
            if c == "\\":
                if self.i + 1 < self.n and text[self.i + 1] == "\n":
                    # string gap: backslash-newline skips the following indentation
                    self.i += 1
                    self.newline_at(self.i)
                    self.i += 1
                    while self.i < self.n and text[self.i] in " \t":
                        self.i += 1
                    continue
                out.append(self.read_escape())
                continue
            if c == "\n":
                self.newline_at(self.i)
            out.append(c)
            self.i += 1

    def read_interp(self) -> list[tuple[str, str, int]]:
        """``s!"…"`` body: parts ``("str", text, offset)`` / ``("expr", source, offset)``."""
        text = self.text
        start = self.i
        self.i += 1
        parts: list[tuple[str, str, int]] = []
        buf: list[str] = []
        buf_at = self.i
        while True:
            if self.i >= self.n:
                raise self.err("unterminated interpolated string", start)
            c = text[self.i]
            if c == '"':
                self.i += 1
                if buf:
                    parts.append(("str", "".join(buf), buf_at))
                return parts
            if c == "\\":
                out = self.read_escape() if text[self.i + 1 : self.i + 2] != "{" else None
                if out is None:
                    self.i += 2
                    out = "{"
                buf.append(out)
                continue
            if c == "{":
                if buf:
                    parts.append(("str", "".join(buf), buf_at))
                    buf = []
                depth = 1
                j = self.i + 1
                while j < self.n and depth:
                    if text[j] == "{":
                        depth += 1
                    elif text[j] == "}":
                        depth -= 1
                    elif text[j] == "\n":
                        self.newline_at(j)
                    j += 1
                if depth:
                    raise self.err("unterminated interpolation", self.i)
                parts.append(("expr", text[self.i + 1 : j - 1], self.i + 1))
                self.i = j
                buf_at = self.i
                continue
            if c == "\n":
                self.newline_at(self.i)
            buf.append(c)
            self.i += 1

    def try_char(self) -> str | None:
        """At ``'``: decode a char literal, or return None (then ``'`` is a symbol)."""
        text = self.text
        save_i, save_line, save_ls = self.i, self.line, self.line_start
        self.i += 1
        if self.i >= self.n or text[self.i] == "\n":
            self.i = save_i
            return None
        if text[self.i] == "\\":
            try:
                c = self.read_escape()
            except LeanParseError:
                self.i, self.line, self.line_start = save_i, save_line, save_ls
                return None
        else:
            c = text[self.i]
            self.i += 1
        if self.i < self.n and text[self.i] == "'":
            self.i += 1
            return c
        self.i, self.line, self.line_start = save_i, save_line, save_ls
        return None

    def read_number(self) -> tuple[str, object]:
        text, n = self.text, self.n
        start = self.i
        if text[self.i] == "0" and self.i + 1 < n and text[self.i + 1] in "xXbBoO":
            base = {"x": 16, "b": 2, "o": 8}[text[self.i + 1].lower()]
            digits = {16: "0123456789abcdefABCDEF", 2: "01", 8: "01234567"}[base]
            j = self.i + 2
            while j < n and text[j] in digits:
                j += 1
            if j == self.i + 2:
                raise self.err("malformed numeric literal", start)
            self.i = j
            return "num", int(text[start + 2 : j], base)
        j = self.i
        while j < n and text[j].isdigit() and text[j].isascii():
            j += 1
        sci = False
        if j + 1 < n and text[j] == "." and text[j + 1].isdigit() and text[j + 1].isascii():
            sci = True
            j += 1
            while j < n and text[j].isdigit() and text[j].isascii():
                j += 1
        if j < n and text[j] in "eE":
            k = j + 1
            if k < n and text[k] in "+-":
                k += 1
            if k < n and text[k].isdigit() and text[k].isascii():
                sci = True
                while k < n and text[k].isdigit() and text[k].isascii():
                    k += 1
                j = k
        self.i = j
        if sci:
            return "sci", text[start:j]
        return "num", int(text[start:j])

    def read_ident(self) -> str:
        """An identifier with dotted components (``List.foldl``, ``xs.length``, ``«a b».c``)."""
        text, n = self.text, self.n
        parts: list[str] = []
        while True:
            if self.i < n and text[self.i] == "«":
                self.quoted = True
                j = text.find("»", self.i + 1)
                if j < 0:
                    raise self.err("unterminated «…» identifier")
                parts.append(text[self.i + 1 : j])
                self.i = j + 1
            else:
                j = self.i + 1
                while j < n and is_id_rest(text[j]):
                    j += 1
                parts.append(text[self.i : j])
                self.i = j
            if (
                self.i + 1 < n
                and text[self.i] == "."
                and (is_id_first(text[self.i + 1]) or text[self.i + 1] == "«")
            ):
                self.i += 1
                continue
            return ".".join(parts)

    # ------------------------------------------------------------------ main
    def run(self) -> list[Token]:
        text, n = self.text, self.n
        toks = self.tokens
        while True:
            ws, nl = self.skip_ws()
            if not toks:
                nl = True
            if self.i >= n:
                toks.append(Token("eof", None, self.line, self.i - self.line_start + 1, n, n, ws, True))
                return toks
            start = self.i
            line, col = self.line, self.i - self.line_start + 1
            c = text[self.i]
            prev = toks[-1] if toks else None
            kind: str
            value: object
            if c == "." and not ws and prev is not None and self._term_end(prev) and self.i + 1 < n:
                d = text[self.i + 1]
                if d.isdigit() and d.isascii():
                    j = self.i + 1
                    while j < n and text[j].isdigit() and text[j].isascii():
                        j += 1
                    kind, value = "field", text[self.i + 1 : j]
                    self.i = j
                elif is_id_first(d) or d == "«":
                    self.i += 1
                    kind, value = "field", self.read_ident()
                else:
                    kind, value = "sym", "."
                    self.i += 1
            elif (
                c == "."
                and self.i + 1 < n
                and (is_id_first(text[self.i + 1]))
                and (ws or prev is None or self._opener(prev))
            ):
                self.i += 1
                kind, value = "dotident", self.read_ident()
            elif is_id_first(c) or c == "«":
                if c == "_" and not (self.i + 1 < n and is_id_rest(text[self.i + 1])):
                    kind, value = "sym", "_"
                    self.i += 1
                else:
                    self.quoted = False
                    name = self.read_ident()
                    if name == "s!" and self.i < n and text[self.i] == '"':
                        kind, value = "interp", self.read_interp()
                    elif name in KEYWORDS and not self.quoted:
                        kind, value = "kw", name
                    else:
                        kind, value = "ident", name
            elif c.isdigit() and c.isascii():
                kind, value = self.read_number()
            elif c == '"':
                kind, value = "str", self.read_string()
            elif c == "'" and (ch := self.try_char()) is not None:
                kind, value = "char", ch
            elif c == "#" and self.i + 1 < n and text[self.i + 1].isascii() and text[self.i + 1].isalpha():
                j = self.i + 1
                while j < n and (text[j].isalnum() or text[j] == "_") and text[j].isascii():
                    j += 1
                kind, value = "kw", text[self.i : j]
                self.i = j
            else:
                kind, value = "sym", c
                for s in _SYM_BY_FIRST.get(c, ()):
                    if text.startswith(s, self.i):
                        value = s
                        break
                self.i += len(value)  # type: ignore[arg-type]
            toks.append(Token(kind, value, line, col, start, self.i, ws, nl))

    @staticmethod
    def _term_end(t: Token) -> bool:
        if t.kind in ("ident", "field", "str", "char", "num", "interp"):
            return True
        if t.kind == "sym":
            return t.value in _TERM_END_SYMS or (t.value in ("!", "?") and not t.ws)
        return t.kind == "kw" and t.value in ("Type", "Prop", "sorry")

    @staticmethod
    def _opener(t: Token) -> bool:
        return t.kind == "sym" and t.value in ("(", "[", "#[", "⟨", "{", ",", "|", "@[", "@")


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens (ending with an ``eof`` token); raises LeanParseError."""
    return _Lexer(text).run()
