"""``do`` blocks: statements laid out in one column (Lean's ``many1Indent doSeqItem``).

A block's statements start at or right of its first statement's column; that
column is also the saved position, so a continuation line must be indented
further to extend a statement. ``if`` statements save their own column when
they start a line, which decides where an ``else`` may go.
"""

from __future__ import annotations

from .ast import (
    Do,
    DoAssign,
    DoBreak,
    DoContinue,
    DoExpr,
    DoFor,
    DoIf,
    DoLet,
    DoMatch,
    DoReturn,
    DoStmt,
    DoWhile,
    Expr,
    Pattern,
    PVar,
    PWild,
    UnitLit,
    UnOp,
)
from .errors import LeanParseError
from .lexer import Token
from .parser_expr import ExprParser

__all__ = ["DoParser"]

_STMT_KWS = frozenset(
    {"let", "if", "unless", "for", "while", "repeat", "match", "return", "break", "continue", "have"}
)


class DoParser(ExprParser):
    def parse_do_block(self, tok: Token) -> Expr:
        self.advance()  # do
        return Do(self.do_seq(), tok.pos)

    def can_start_stmt(self, t: Token) -> bool:
        return (t.kind == "kw" and t.value in _STMT_KWS) or self.can_start_term(t)

    def do_seq(self) -> list[DoStmt]:
        first = self.peek()
        if first.is_sym("{"):
            raise self.error("bracketed do blocks '{ … }' are not supported", first)
        if not self.can_start_stmt(first) or not self.col_ge(first):
            raise self.error("expected a do statement", first)
        saved = (self.pos_col, self.forbid_do)
        self.pos_col, self.forbid_do = first.col, False
        stmts: list[DoStmt] = []
        try:
            while True:
                start = self.i
                stmts.append(self.do_elem())
                if self.i == start:  # pragma: no cover - defensive progress guard
                    raise self.error("parser made no progress")
                if self.at_sym(";"):
                    self.advance()
                t = self.peek()
                if not (self.can_start_stmt(t) and self.col_ge(t)) or self.at_command_boundary(t):
                    return stmts
        finally:
            self.pos_col, self.forbid_do = saved

    def do_elem(self) -> DoStmt:
        t = self.peek()
        if t.kind == "kw":
            v = t.value
            if v == "let":
                return self.do_let()
            if v == "if":
                return self.do_if()
            if v == "unless":
                self.advance()
                cond = self.term_before_do()
                self.expect_kw("do", " after 'unless' condition")
                return DoIf(UnOp("¬", cond, cond.pos), self.do_seq(), [], None, t.pos)
            if v == "for":
                return self.do_for()
            if v == "while":
                self.advance()
                self.opt_hyp()
                cond = self.term_before_do()
                self.expect_kw("do", " after 'while' condition")
                return DoWhile(cond, self.do_seq(), t.pos)
            if v == "repeat":
                self.advance()
                return DoWhile(None, self.do_seq(), t.pos)
            if v == "match":
                return self.do_match()
            if v == "return":
                return self.do_return()
            if v == "break":
                self.advance()
                return DoBreak(t.pos)
            if v == "continue":
                self.advance()
                return DoContinue(t.pos)
            if v == "have":
                raise self.error("'have' statements in do blocks are not supported", t)
            if v == "do":
                raise self.error("nested 'do' statements are not supported", t)
        # reassignment `x := e`, `x ← e`, `(a, b) := e`, or an expression
        t1 = self.peek(1)
        if t.kind == "ident" and t1.is_sym(":=", "←", "<-"):
            self.advance()
            arrow = not self.advance().is_sym(":=")
            return DoAssign(PVar(str(t.value), t.pos), self.term(0), None, arrow, t.pos)
        if t.is_sym("(", "⟨", "_"):
            save = self.i
            try:
                pat = self.pattern(0)
                ok = self.at_sym(":=", "←", "<-")
            except LeanParseError:
                ok = False
            if ok:
                arrow = not self.advance().is_sym(":=")
                return DoAssign(pat, self.term(0), None, arrow, t.pos)
            self.i = save
        e = self.term(0)
        if self.at_sym(":=", "←", "<-"):
            raise self.error("unexpected token after expression in do block")
        return DoExpr(e, t.pos)

    def term_before_do(self) -> Expr:
        saved = self.forbid_do
        self.forbid_do = True
        try:
            return self.term(0)
        finally:
            self.forbid_do = saved

    def do_let(self) -> DoStmt:
        tok = self.advance()
        mut = False
        if self.at_kw("mut"):
            self.advance()
            mut = True
        t = self.peek()
        if t.kind == "ident" and t.value == "rec" and not self.peek(1).is_sym(":=", ":", "|"):
            raise self.error("'let rec' inside do blocks is not supported", t)
        pat, ty, value, arrow = self.let_decl(allow_arrow=True)
        return DoLet(pat, ty, value, mut, arrow, tok.pos)

    def do_if(self) -> DoStmt:
        tok = self.advance()
        saved = self.pos_col
        if tok.nl:
            self.pos_col = tok.col  # withPositionAfterLinebreak
        try:
            if self.at_kw("let"):
                self.advance()
                pat = self.pattern(0)
                self.expect_sym(":=", " in 'if let'")
                disc = self.term(0)
                self.expect_kw("then", " after 'if let'")
                then = self.do_seq()
                els = self.do_else()
                # no `else`: a non-matching value does nothing, i.e. `| _ => ()`
                rest = els or [DoExpr(UnitLit(tok.pos), tok.pos)]
                arms: list[tuple[list[list[Pattern]], list[DoStmt]]] = [
                    ([[pat]], then),
                    ([[PWild(tok.pos)]], rest),
                ]
                return DoMatch([disc], arms, tok.pos)
            hyp = self.opt_hyp()
            cond = self.term(0)
            self.expect_kw("then", " after the condition")
            then = self.do_seq()
            return DoIf(cond, then, self.do_else(), hyp, tok.pos)
        finally:
            self.pos_col = saved

    def do_else(self) -> list[DoStmt]:
        t = self.peek()
        if not (t.is_kw("else") and self.col_ge(t)):
            return []
        self.advance()
        nt = self.peek()
        if nt.is_kw("if") and nt.line == t.line:
            return [self.do_if()]
        return self.do_seq()

    def do_for(self) -> DoStmt:
        tok = self.advance()
        self.opt_hyp()  # `for h : i in …`: the membership proof is not needed
        pat = self.pattern(0)
        self.expect_kw("in", " in 'for'")
        it = self.term_before_do()
        if self.at_sym(","):
            raise self.error("parallel 'for x in xs, y in ys' is not supported")
        self.expect_kw("do", " after the 'for' iterable")
        return DoFor(pat, it, self.do_seq(), tok.pos)

    def do_match(self) -> DoStmt:
        tok = self.advance()
        discrs, _names = self.match_discrs()
        arms = self.match_arms(self.do_seq)
        return DoMatch(discrs, [(a.alts, a.rhs) for a in arms], tok.pos)  # type: ignore[misc]

    def do_return(self) -> DoStmt:
        tok = self.advance()
        saved = self.pos_col
        self.pos_col = tok.col
        try:
            t = self.peek()
            value: Expr | None = None
            if t.line == tok.line and self.can_start_term(t):
                value = self.term(0)
            return DoReturn(value, tok.pos)
        finally:
            self.pos_col = saved
