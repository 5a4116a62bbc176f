"""Token navigation and Lean's layout state, shared by the parser modules.

Lean decides where an application, a ``match`` or a ``do`` block ends with a
saved *position* (``withPosition``): an argument must start in a column
strictly greater than the saved one (``checkColGt``), a further match arm or
do-statement in a column at least as great (``checkColGe``). Brackets reset
the position (``withoutPosition``). :class:`ParserBase` keeps that saved column
in ``pos_col`` (None = unset, every check passes) and the ``withForbidden "do"``
flag used by ``for … in e do``.
"""

from __future__ import annotations

from .ast import ByTactic
from .errors import LeanParseError
from .lexer import Token

__all__ = ["ARG", "COMMAND_KWS", "LEAD", "MAX", "MIN", "ParserBase"]

# Lean's precedence levels: atoms, application arguments, `let`/`if`/… , pipes
MAX = 1024
ARG = 1023
LEAD = 1022
MIN = 10

# Keywords that start a top-level command; a term never contains them, and a
# tactic block ends at one of them in the first column.
COMMAND_KWS = frozenset(
    """
    def theorem lemma abbrev instance structure class inductive namespace section end open import
    variable universe axiom example private protected partial noncomputable unsafe set_option mutual
    attribute opaque macro macro_rules syntax notation infix infixl infixr prefix postfix elab export
    """.split()
)

_OPENERS = frozenset({"(", "[", "#[", "{", "⟨", "⦃", "@["})
_CLOSERS = frozenset({")", "]", "}", "⟩", "⦄"})


class ParserBase:
    """Cursor over a token list plus the layout state (saved column, forbidden ``do``)."""

    def __init__(self, text: str, tokens: list[Token]) -> None:
        self.text = text
        self.toks = tokens
        self.i = 0
        self.pos_col: int | None = None
        self.forbid_do = False
        # one counter per open parenthesis group, for `·` sections
        self.cdots: list[int] = []
        # budget of term parses: backtracking can never make parsing super-linear
        self.steps = 0
        self.max_steps = 64 * len(tokens) + 10_000

    def step(self) -> None:
        self.steps += 1
        if self.steps > self.max_steps:
            raise self.error("input too complex to parse")

    # ------------------------------------------------------------ navigation
    def peek(self, k: int = 0) -> Token:
        j = self.i + k
        toks = self.toks
        return toks[j] if j < len(toks) else toks[-1]

    def advance(self) -> Token:
        t = self.toks[self.i]
        if t.kind != "eof":
            self.i += 1
        return t

    def at_sym(self, *v: str) -> bool:
        t = self.toks[self.i]
        return t.kind == "sym" and t.value in v

    def at_kw(self, *v: str) -> bool:
        t = self.toks[self.i]
        return t.kind == "kw" and t.value in v

    def expect_sym(self, v: str, what: str = "") -> Token:
        t = self.toks[self.i]
        if t.kind == "sym" and t.value == v:
            self.i += 1
            return t
        raise self.error(f"expected '{v}'{what}", t)

    def expect_kw(self, v: str, what: str = "") -> Token:
        t = self.toks[self.i]
        if t.kind == "kw" and t.value == v:
            self.i += 1
            return t
        raise self.error(f"expected '{v}'{what}", t)

    def expect_ident(self, what: str = "identifier") -> Token:
        t = self.toks[self.i]
        if t.kind == "ident":
            self.i += 1
            return t
        raise self.error(f"expected {what}", t)

    def error(self, msg: str, tok: Token | None = None) -> LeanParseError:
        t = tok if tok is not None else self.peek()
        found = "end of input" if t.kind == "eof" else repr(self.text[t.start : t.end])
        return LeanParseError(f"{msg}, found {found}", (t.line, t.col))

    # ---------------------------------------------------------------- layout
    def col_gt(self, t: Token) -> bool:
        return self.pos_col is None or t.col > self.pos_col

    def col_ge(self, t: Token) -> bool:
        return self.pos_col is None or t.col >= self.pos_col

    @staticmethod
    def is_command_start(t: Token) -> bool:
        if t.kind == "kw":
            return t.value in COMMAND_KWS or str(t.value).startswith("#")
        return t.kind == "sym" and t.value == "@["

    def at_command_boundary(self, t: Token) -> bool:
        """A command keyword at the start of a line in column 1 ends any term or proof."""
        return t.nl and t.col == 1 and self.is_command_start(t)

    def without_position(self) -> tuple[int | None, bool]:
        """Enter brackets: no saved position, ``do`` allowed again; returns the state to restore."""
        saved = (self.pos_col, self.forbid_do)
        self.pos_col, self.forbid_do = None, False
        return saved

    # --------------------------------------------------------------- tactics
    def skip_tactic_block(self, by_tok: Token) -> ByTactic:
        """Consume the tactic sequence after ``by`` by layout; keep its source text.

        A block whose first tactic starts a new line ends at the first later line
        indented less than that tactic; an inline block (``(by simp)``) also ends at
        a top-level ``,``, ``then`` or ``else``. Unbalanced closing brackets and
        top-level commands in column 1 end both kinds.
        """
        first = self.peek()
        if (
            first.kind == "eof"
            or self.at_command_boundary(first)
            or (first.kind == "sym" and first.value in _CLOSERS)
        ):
            raise self.error("expected a tactic sequence after 'by'", first)
        inline = not first.nl
        c = first.col
        depth = 0
        last = first
        while True:
            t = self.peek()
            if t.kind == "eof" or self.at_command_boundary(t):
                break
            if depth == 0:
                if t.nl and t.col < c and t is not first:
                    break
                if t.kind == "sym" and t.value in _CLOSERS:
                    break
                if inline and t is not first and (t.is_sym(",") or t.is_kw("then", "else")):
                    break
            if t.kind == "sym":
                if t.value in _OPENERS:
                    depth += 1
                elif t.value in _CLOSERS:
                    depth -= 1
            last = self.advance()
        return ByTactic(self.dedent(first, last), by_tok.pos)

    def dedent(self, first: Token, last: Token) -> str:
        """Source from ``first`` to ``last`` with later lines dedented by ``first``'s indentation."""
        raw = self.text[first.start : last.end]
        lines = raw.split("\n")
        strip = first.col - 1
        out = [lines[0].rstrip()]
        for ln in lines[1:]:
            k = 0
            while k < strip and k < len(ln) and ln[k] == " ":
                k += 1
            out.append(ln[k:].rstrip())
        return "\n".join(out)
