"""Top-level commands: ``def``/``abbrev``/``theorem``, ``structure``, ``instance``,
``open``, ``namespace``/``section``, and everything else skipped as :class:`OtherDecl`.

A command the fragment does not model is skipped up to the next command
keyword that starts a line in column 1, which is how every file in the
benchmarks is laid out.
"""

from __future__ import annotations

from .ast import (
    Binder,
    Decl,
    Def,
    Expr,
    InstanceDecl,
    Lam,
    Match,
    NamespaceDecl,
    OpenDecl,
    OtherDecl,
    StructureDecl,
)
from .errors import LeanParseError
from .lexer import Token
from .parser_do import DoParser
from .parser_expr import fresh_args

__all__ = ["DeclParser"]

_MODIFIERS = frozenset({"private", "protected", "noncomputable", "unsafe", "partial"})


class DeclParser(DoParser):
    # ---------------------------------------------------------------- module
    def module(self) -> list[Decl]:
        decls: list[Decl] = []
        while self.peek().kind != "eof":
            decls.extend(self.command())
        return decls

    def commands_until_end(self, opener: Token) -> list[Decl]:
        decls: list[Decl] = []
        while not self.at_kw("end"):
            if self.peek().kind == "eof":
                raise self.error(f"missing 'end' for '{opener.value}' at line {opener.line}")
            decls.extend(self.command())
        return decls

    def command(self) -> list[Decl]:
        start = self.peek()
        start_i = self.i
        attrs = self.attributes() if self.at_sym("@[") else []
        partial = False
        while True:
            t = self.peek()
            if t.kind == "kw" and t.value in _MODIFIERS:
                partial = partial or t.value == "partial"
                self.advance()
            elif t.kind == "ident" and t.value == "nonrec":
                self.advance()
            else:
                break
        t = self.peek()
        v = t.value if t.kind == "kw" else None
        if v in ("def", "abbrev"):
            return [self.def_decl(str(v), attrs, partial, start)]
        if v in ("theorem", "lemma"):
            try:
                return [self.def_decl(str(v), attrs, partial, start)]
            except LeanParseError:
                # a statement outside the term fragment: keep the proof skippable
                self.i = start_i
                return [self.skip_command(start, str(v))]
        if v == "instance":
            return [self.instance_decl(start)]
        if v == "structure":
            return [self.structure_decl(start)]
        if attrs or partial or self.i != start_i:
            if v is None or not self.is_command_start(t):
                raise self.error("expected a declaration after attributes/modifiers", t)
            return [self.skip_command(start, str(v))]
        if v == "open":
            return self.open_decl()
        if v == "namespace":
            self.advance()
            name = str(self.expect_ident("namespace name").value)
            inner = self.commands_until_end(t)
            self.end_decl(name)
            return [NamespaceDecl(name, inner, t.pos)]
        if v in ("section", "mutual"):
            head = self.skip_line_command(t)
            inner = self.commands_until_end(t)
            end = self.skip_line_command(self.peek())
            return [head, *inner, end]
        if v == "set_option":
            return [self.set_option(t)]
        if v is not None and self.is_command_start(t):
            return [self.skip_command(start, str(v))]
        raise self.error("expected a command", t)

    def end_decl(self, name: str) -> None:
        self.expect_kw("end")
        t = self.peek()
        if t.kind == "ident" and not t.nl:
            if t.value != name:
                raise self.error(f"'end {t.value}' does not close namespace '{name}'", t)
            self.advance()

    def skip_command(self, start: Token, keyword: str) -> OtherDecl:
        """Skip to the next command that starts a line in column 1."""
        first = self.advance()
        last = first
        while True:
            t = self.peek()
            if t.kind == "eof" or self.at_command_boundary(t):
                break
            last = self.advance()
        del first
        return OtherDecl(keyword, self.text[start.start : last.end], start.pos)

    def skip_line_command(self, start: Token) -> OtherDecl:
        """``section X`` / ``end X`` / ``import M``: the keyword and the rest of its line."""
        last = self.advance()
        while self.peek().kind != "eof" and not self.peek().nl:
            last = self.advance()
        return OtherDecl(str(start.value), self.text[start.start : last.end], start.pos)

    def set_option(self, start: Token) -> OtherDecl:
        self.advance()
        last = self.expect_ident("option name")
        t = self.peek()
        if not t.nl and t.kind != "eof":
            last = self.advance()
        if self.at_kw("in"):
            last = self.advance()
        return OtherDecl("set_option", self.text[start.start : last.end], start.pos)

    def open_decl(self) -> list[Decl]:
        tok = self.advance()
        names: list[str] = []
        while self.peek().kind == "ident":
            names.append(str(self.advance().value))
        if not names:
            raise self.error("expected a namespace after 'open'")
        if self.at_sym("(") or (self.peek().kind == "ident" and self.peek().value in ("hiding", "renaming")):
            raise self.error("selective 'open' is not supported")
        if self.at_kw("in"):
            self.advance()
        return [OpenDecl(names, tok.pos)]

    # ---------------------------------------------------------- definitions
    def def_decl(self, kind: str, attrs: list[str], partial: bool, start: Token) -> Def:
        self.advance()  # def / abbrev / theorem / lemma
        name_tok = self.expect_ident("a declaration name")
        if self.at_sym(".") and self.peek(1).is_sym("{"):
            while not self.at_sym("}"):
                if self.peek().kind == "eof":
                    raise self.error("unterminated universe list")
                self.advance()
            self.advance()
        binders = self.decl_binders()
        ty: Expr | None = None
        if self.at_sym(":"):
            self.advance()
            ty = self.term(0)
        body = self.decl_body(name_tok)
        where_defs = self.where_decls() if self.at_kw("where") else []
        if self.at_kw("deriving"):
            raise self.error("'deriving' after a definition is not supported")
        return Def(str(name_tok.value), binders, ty, body, kind, attrs, where_defs, partial, start.pos)

    def decl_body(self, name_tok: Token) -> Expr:
        if self.at_sym(":="):
            self.advance()
            body = self.term(0)
        elif self.at_sym("|"):
            arms = self.match_arms(self.term)
            fresh, discrs = fresh_args(len(arms[0].alts[0]), name_tok.pos)
            body = Lam(fresh, Match(discrs, arms, name_tok.pos), name_tok.pos)
        else:
            raise self.error("expected ':=' or '|' in definition")
        self.skip_termination()
        return body

    def local_defs(self) -> list[Def]:
        """Definitions laid out in one column (``where`` clauses, ``instance … where``)."""
        first = self.peek()
        saved = self.pos_col
        self.pos_col = first.col
        defs: list[Def] = []
        try:
            while True:
                t = self.peek()
                if defs:
                    if self.at_sym(";"):
                        self.advance()
                        t = self.peek()
                    elif not (t.nl and t.col == first.col):
                        break
                    if t.kind != "ident" and not t.is_sym("@["):
                        break
                attrs = self.attributes() if self.at_sym("@[") else []
                name_tok = self.expect_ident("a local definition name")
                binders = self.decl_binders()
                ty: Expr | None = None
                if self.at_sym(":"):
                    self.advance()
                    ty = self.term(0)
                body = self.decl_body(name_tok)
                defs.append(
                    Def(str(name_tok.value), binders, ty, body, "def", attrs, [], False, name_tok.pos)
                )
        finally:
            self.pos_col = saved
        return defs

    def where_decls(self) -> list[Def]:
        self.expect_kw("where")
        return self.local_defs()

    # -------------------------------------------------- structure / instance
    def structure_decl(self, start: Token) -> StructureDecl:
        self.advance()
        name = str(self.expect_ident("a structure name").value)
        params = self.decl_binders()
        if self.at_kw("extends") or (self.peek().kind == "ident" and self.peek().value == "extends"):
            raise self.error("'extends' is not supported")
        if self.at_sym(":"):
            self.advance()
            self.term(0)
        fields: list[tuple[str, Expr, Expr | None]] = []
        deriving: list[str] = []
        if self.at_kw("where") or self.at_sym(":="):
            self.advance()
            if self.peek().kind == "ident" and self.peek(1).is_sym("::"):
                self.advance()
                self.advance()
            first = self.peek()
            saved = self.pos_col
            self.pos_col = first.col
            try:
                while self.peek().kind == "ident" and not self.at_command_boundary(self.peek()):
                    t = self.peek()
                    if fields and not (t.nl and t.col == first.col):
                        break
                    names = [str(self.advance().value)]
                    while self.peek().kind == "ident":
                        names.append(str(self.advance().value))
                    self.expect_sym(":", " after structure field name")
                    ty = self.term(0)
                    default: Expr | None = None
                    if self.at_sym(":="):
                        self.advance()
                        default = self.term(0)
                    fields.extend((n, ty, default) for n in names)
            finally:
                self.pos_col = saved
        if self.at_kw("deriving"):
            self.advance()
            deriving.append(str(self.expect_ident("a class name").value))
            while self.at_sym(","):
                self.advance()
                deriving.append(str(self.expect_ident("a class name").value))
        return StructureDecl(name, params, fields, deriving, start.pos)

    def instance_decl(self, start: Token) -> InstanceDecl:
        self.advance()
        if self.at_sym("(") and self.peek(1).kind == "ident" and self.peek(1).value == "priority":
            while not self.at_sym(")"):
                self.advance()
            self.advance()
        name: str | None = None
        if self.peek().kind == "ident":
            name = str(self.advance().value)
        binders: list[Binder] = self.decl_binders()
        self.expect_sym(":", " in instance declaration")
        cls = self.term(0)
        if self.at_kw("where"):
            self.advance()
            return InstanceDecl(binders, cls, self.local_defs(), None, name, start.pos)
        self.expect_sym(":=", " or 'where' in instance declaration")
        return InstanceDecl(binders, cls, [], self.term(0), name, start.pos)
