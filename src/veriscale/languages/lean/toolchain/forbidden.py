"""The forbidden-construct policy for ProofGen: banned *tokens*, not substrings.

Verina's harness rejects a proof whose text merely contains ``sorry``,
``admit`` or ``axiom`` anywhere, comments included. Here the proof text is
tokenized the way Lean reads it: line comments (``--``), nested block and doc
comments (``/- … -/``), string literals (with escapes; the ``{…}`` holes of
``s!``/``m!``/``f!`` strings are code and are scanned), raw strings
(``r"…"``, ``r#"…"#``) and char literals are skipped, and what remains is split
into identifiers (dotted names, ``«escaped»`` names, backtick name literals)
and ``#commands``. A token is banned when it, or one of its dot-separated
components, is a banned word: ``sorry`` in a comment or a string is fine,
``sorry`` as a tactic (or ``«sorry»``, or ``_root_.sorryAx``) is not.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_FORBIDDEN", "ForbiddenPolicy", "Token", "Violation", "lean_tokens"]

# Escape hatches from checking: admitted goals, new axioms, code the kernel never sees,
# and metaprogramming or commands that can end or alter checking itself.
DEFAULT_FORBIDDEN: tuple[str, ...] = (
    "sorry",
    "sorryAx",
    "admit",
    "axiom",
    "opaque",
    "implemented_by",
    "extern",
    "unsafe",
    "partial",
    "#exit",
    "#eval",
    "#eval!",
    "run_cmd",
    "run_tac",
    "run_elab",
    "elab",
    "elab_rules",
    "macro",
    "macro_rules",
    "syntax",
    "debug.skipKernelTC",
)


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    line: int  # 1-based
    col: int  # 0-based


@dataclass(frozen=True, slots=True)
class Violation:
    word: str
    token: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"forbidden `{self.word}` at line {self.line}, column {self.col}"


def _is_id_start(c: str) -> bool:
    return c.isalpha() or c == "_"


def _is_id_rest(c: str) -> bool:
    return c.isalnum() or c in "_'!?" or "\u2080" <= c <= "\u209c"  # subscripts


class _Lexer:
    def __init__(self, text: str) -> None:
        self.s = text
        self.n = len(text)
        self.tokens: list[Token] = []
        self.line_starts = [0]
        for i, c in enumerate(text):
            if c == "\n":
                self.line_starts.append(i + 1)

    def pos(self, i: int) -> tuple[int, int]:
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= i:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, i - self.line_starts[lo]

    def emit(self, text: str, start: int) -> None:
        line, col = self.pos(start)
        self.tokens.append(Token(text, line, col))

    def run(self, i: int = 0, stop_at_brace: bool = False) -> int:
        """Tokenize from ``i``; with ``stop_at_brace``, return at the ``}`` closing a hole."""
        s, n = self.s, self.n
        depth = 0
        while i < n:
            c = s[i]
            if s.startswith("--", i):
                j = s.find("\n", i)
                i = n if j < 0 else j
            elif s.startswith("/-", i):
                i = self.block_comment(i)
            elif c == '"':
                interpolated = (
                    bool(self.tokens) and self.tokens[-1].text.endswith("!") and i > 0 and s[i - 1] == "!"
                )
                i = self.string(i + 1, interpolated)
            elif c == "r" and self.raw_string_at(i):
                i = self.raw_string(i)
            elif c == "'" and self.char_at(i):
                i = self.char(i)
            elif c == "«":
                j = s.find("»", i + 1)
                j = n if j < 0 else j
                self.emit(s[i + 1 : j], i)
                i = j + 1
            elif c == "`" and i + 1 < n and (_is_id_start(s[i + 1]) or s[i + 1] in "«`"):
                i += 1  # a name literal names a constant: its name is a token like any other
            elif c == "#" and i + 1 < n and _is_id_start(s[i + 1]):
                j = i + 1
                while j < n and _is_id_rest(s[j]):
                    j += 1
                self.emit(s[i:j], i)
                i = j
            elif _is_id_start(c):
                i = self.ident(i)
            elif stop_at_brace and c == "{":
                depth += 1
                i += 1
            elif stop_at_brace and c == "}":
                if depth == 0:
                    return i + 1
                depth -= 1
                i += 1
            else:
                i += 1
        return i

    def ident(self, i: int) -> int:
        s, n = self.s, self.n
        start = i
        while True:
            while i < n and _is_id_rest(s[i]):
                i += 1
            if i + 1 < n and s[i] == "." and (_is_id_start(s[i + 1]) or s[i + 1] == "«"):
                if s[i + 1] == "«":
                    j = s.find("»", i + 2)
                    i = n if j < 0 else j + 1
                else:
                    i += 1
                continue
            break
        self.emit(s[start:i].replace("«", "").replace("»", ""), start)
        return i

    def block_comment(self, i: int) -> int:
        s, n = self.s, self.n
        depth, i = 1, i + 2
        while i < n and depth:
            if s.startswith("/-", i):
                depth, i = depth + 1, i + 2
            elif s.startswith("-/", i):
                depth, i = depth - 1, i + 2
            else:
                i += 1
        return i

    def string(self, i: int, interpolated: bool) -> int:
        s, n = self.s, self.n
        while i < n:
            c = s[i]
            if c == "\\":
                i += 2
            elif c == '"':
                return i + 1
            elif interpolated and c == "{":
                i = self.run(i + 1, stop_at_brace=True)
            else:
                i += 1
        return i

    def raw_string_at(self, i: int) -> bool:
        s = self.s
        if i > 0 and _is_id_rest(s[i - 1]):
            return False
        j = i + 1
        while j < self.n and s[j] == "#":
            j += 1
        return j < self.n and s[j] == '"'

    def raw_string(self, i: int) -> int:
        s = self.s
        j = i + 1
        while s[j] == "#":
            j += 1
        close = '"' + "#" * (j - i - 1)
        k = s.find(close, j + 1)
        return self.n if k < 0 else k + len(close)

    def char_at(self, i: int) -> bool:
        s, n = self.s, self.n
        if i > 0 and (_is_id_rest(s[i - 1]) or s[i - 1] in ".»"):
            return False  # a prime inside a name (h', x'')
        if i + 2 < n and s[i + 1] != "\\" and s[i + 2] == "'":
            return True
        return i + 1 < n and s[i + 1] == "\\" and s.find("'", i + 2) > 0

    def char(self, i: int) -> int:
        s = self.s
        if s[i + 1] != "\\":
            return i + 3
        j = i + 3  # skip the escaped character itself (which may be a quote)
        k = s.find("'", j)
        return self.n if k < 0 else k + 1


def lean_tokens(text: str) -> list[Token]:
    """Identifier-like tokens of Lean source outside comments, strings and char literals."""
    lex = _Lexer(text)
    lex.run()
    return lex.tokens


@dataclass(frozen=True)
class ForbiddenPolicy:
    words: tuple[str, ...] = DEFAULT_FORBIDDEN

    def violations(self, text: str) -> list[Violation]:
        banned = set(self.words)
        out: list[Violation] = []
        for tok in lean_tokens(text):
            parts = [tok.text, *tok.text.split(".")]
            hit = next((p for p in parts if p in banned), None)
            if hit is not None:
                out.append(Violation(hit, tok.text, tok.line, tok.col))
        return out

    def check(self, *texts: str) -> list[Violation]:
        """Violations in each text (line numbers are relative to that text)."""
        return [v for t in texts for v in self.violations(t)]
