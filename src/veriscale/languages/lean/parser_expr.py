"""Terms and binders of the Lean fragment (a Pratt parser); patterns are in :mod:`parser_pattern`.

Precedences follow Lean 4 core (``Init/Prelude``, ``Init/Core``, ``Init/Notation``):
``max`` = 1024 atoms, ``arg`` = 1023 application arguments, ``lead`` = 1022
for ``let``/``if``/``match``/``∀``…, ``min`` = 10 for ``|>``/``<|``/``|>.``.
A binary operator is a triple (precedence, least precedence of its left
operand, precedence its right operand is parsed at), exactly as Lean's
``infixl``/``infixr``/``infix`` expand. The desugaring conventions are those
of :mod:`veriscale.languages.lean.ast`.
"""

from __future__ import annotations

from .ast import (
    AnonCtor,
    App,
    Arg,
    ArrayLit,
    Arrow,
    Binder,
    BinOp,
    CharLit,
    Expr,
    FloatLit,
    Hole,
    Ident,
    If,
    Index,
    Lam,
    Let,
    ListLit,
    Match,
    MatchArm,
    NatLit,
    Panic,
    Pattern,
    Proj,
    PTyped,
    PVar,
    PWild,
    Quant,
    Range,
    Sorry,
    Sort,
    StrLit,
    StructInst,
    Tuple,
    Typed,
    UnitLit,
    UnOp,
)
from .lexer import Token
from .parser_core import ARG, LEAD, MAX, MIN
from .parser_pattern import PatternParser

__all__ = ["ARG", "BINOPS", "LEAD", "MAX", "MIN", "ExprParser", "fn_type"]


# token -> (precedence, least precedence of the left operand, right operand precedence, AST op)
BINOPS: dict[str, tuple[int, int, int, str]] = {
    "∘": (90, 91, 90, "∘"),
    "^": (80, 81, 80, "^"),
    "<<<": (75, 75, 76, "<<<"),
    ">>>": (75, 75, 76, ">>>"),
    "*": (70, 70, 71, "*"),
    "/": (70, 70, 71, "/"),
    "%": (70, 70, 71, "%"),
    "::": (67, 68, 67, "::"),
    "+": (65, 65, 66, "+"),
    "-": (65, 65, 66, "-"),
    "++": (65, 65, 66, "++"),
    "&&&": (60, 60, 61, "&&&"),
    "^^^": (58, 58, 59, "^^^"),
    "|||": (55, 55, 56, "|||"),
    "==": (50, 51, 51, "=="),
    "!=": (50, 51, 51, "!="),
    "=": (50, 51, 51, "="),
    "≠": (50, 51, 51, "≠"),
    "<": (50, 51, 51, "<"),
    ">": (50, 51, 51, ">"),
    "≤": (50, 51, 51, "≤"),
    "<=": (50, 51, 51, "≤"),
    "≥": (50, 51, 51, "≥"),
    ">=": (50, 51, 51, "≥"),
    "∣": (50, 51, 51, "∣"),
    "<+": (50, 50, 51, "<+"),
    "<+:": (50, 50, 51, "<+:"),
    "<:+": (50, 50, 51, "<:+"),
    "<:+:": (50, 50, 51, "<:+:"),
    "~": (50, 50, 51, "~"),
    "⊆": (50, 51, 51, "⊆"),
    "⊔": (68, 68, 69, "⊔"),
    "⊓": (69, 69, 70, "⊓"),
    "∪": (65, 65, 66, "∪"),
    "∩": (70, 70, 71, "∩"),
    "\\": (70, 71, 71, "\\"),
    "<|>": (20, 20, 21, "<|>"),
    "∈": (50, 50, 50, "∈"),
    "∉": (50, 50, 50, "∉"),
    "∧": (35, 36, 35, "∧"),
    "/\\": (35, 36, 35, "∧"),
    "×": (35, 36, 35, "×"),
    "&&": (35, 35, 36, "&&"),
    "∨": (30, 31, 30, "∨"),
    "\\/": (30, 31, 30, "∨"),
    "||": (30, 30, 31, "||"),
    "→": (25, 0, 25, "→"),
    "->": (25, 0, 25, "→"),
    "↔": (20, 21, 21, "↔"),
    "<->": (20, 21, 21, "↔"),
    "|>": (MIN, 0, MIN + 1, "|>"),
    "<|": (MIN, 0, MIN, "<|"),
    "$": (MIN, 0, MIN, "<|"),
}

# Operators outside the fragment: reported instead of silently misparsed.
_UNSUPPORTED_OPS = frozenset({"▸", ">>=", "<$>", ">>", "<;>"})

# binder predicates of `∀ x ∈ s, p` / `∃ i < n, p`
_BINDER_PREDS = frozenset({"∈", "∉", "<", "≤", ">", "≥", "≠", "⊆", "⊂"})

# leading tokens allowed as application arguments (precedence max or arg)
_ARG_SYMS = frozenset({"(", "[", "#[", "⟨", "{", "·", "_", "λ", "¬", "!", "↑"})
_ARG_KWS = frozenset({"fun", "sorry", "Type", "Prop", "Sort"})
_ATOM_KINDS = frozenset({"ident", "num", "sci", "str", "char", "interp", "dotident"})
# further leading tokens that can start a term (at lower precedence)
_TERM_SYMS = _ARG_SYMS | {"∀", "∃", "-"}
_TERM_KWS = _ARG_KWS | {"let", "have", "show", "if", "match", "by", "do", "forall", "exists"}
_LEAD_IDENTS = frozenset({"panic!", "unreachable!"})


def fn_type(binders: list[Binder], result: Expr | None) -> Expr | None:
    """``(x : A) (y : B) : R`` as the arrow type ``A → B → R``; None if any part is unknown."""
    if result is None:
        return None
    ty = result
    for b in reversed(binders):
        if b.type is None or b.kind != "explicit":
            return None
        ty = Arrow(b.type, ty, None, b.pos)
    return ty


def fresh_args(n: int, pos: tuple[int, int]) -> tuple[list[Binder], list[Expr]]:
    """Binders and discriminants ``_arg1 … _argn`` for match-lambdas and equation definitions."""
    names = [f"_arg{k}" for k in range(1, n + 1)]
    return [Binder(PVar(x, pos), None, "explicit", pos) for x in names], [Ident(x, pos) for x in names]


class ExprParser(PatternParser):
    """Terms, patterns and binders; ``do`` blocks come from the subclass."""

    # ------------------------------------------------------------- hooks
    def parse_do_block(self, tok: Token) -> Expr:  # pragma: no cover - overridden
        raise self.error("do blocks are not available here", tok)

    # ------------------------------------------------------- classification
    def can_start_arg(self, t: Token) -> bool:
        k = t.kind
        if k in _ATOM_KINDS:
            return not (k == "ident" and t.value in _LEAD_IDENTS)
        if k == "sym":
            return t.value in _ARG_SYMS
        if k == "kw":
            return t.value in _ARG_KWS or (t.value == "do" and not self.forbid_do)
        return False

    def can_start_term(self, t: Token) -> bool:
        k = t.kind
        if k in _ATOM_KINDS:
            return True
        if k == "sym":
            return t.value in _TERM_SYMS
        if k == "kw":
            return t.value in _TERM_KWS and not (t.value == "do" and self.forbid_do)
        return False

    # ------------------------------------------------------------- terms
    def term(self, rbp: int = 0) -> Expr:
        self.step()
        lhs, lprec = self.leading(rbp)
        return self.trailing(lhs, lprec, rbp)

    def trailing(self, lhs: Expr, lprec: int, rbp: int) -> Expr:
        while True:
            t = self.peek()
            k = t.kind
            if k == "sym":
                v = t.value
                op = BINOPS.get(v)  # type: ignore[arg-type]
                if op is not None:
                    prec, lmin, rprec, name = op
                    if prec < rbp or lprec < lmin:
                        return lhs
                    self.advance()
                    rhs = self.term(rprec)
                    lhs = self.make_binop(name, lhs, rhs)
                    lprec = prec
                    continue
                if v == "|>.":
                    if MIN < rbp:
                        return lhs
                    lhs = self.pipe_proj(lhs)
                    lprec = MIN
                    continue
                if v == "[" and not t.ws and lprec >= MAX:
                    lhs = self.index(lhs)
                    continue
                if v in _UNSUPPORTED_OPS:
                    raise self.error(f"operator '{v}' is not supported", t)
            elif k == "field" and lprec >= MAX:
                self.advance()
                lhs = self.project(lhs, str(t.value))
                continue
            if lprec >= MAX and rbp <= LEAD and t.ws and self.can_start_arg(t) and self.col_gt(t):
                lhs = self.application(lhs)
                lprec = LEAD
                continue
            return lhs

    def make_binop(self, name: str, lhs: Expr, rhs: Expr) -> Expr:
        pos = lhs.pos
        if name == "→":
            return Arrow(lhs, rhs, None, pos)
        if name == "∉":
            return UnOp("¬", BinOp("∈", lhs, rhs, pos), pos)
        if name == "|>":
            return self.apply_to(rhs, lhs)
        if name == "<|":
            return self.apply_to(lhs, rhs)
        return BinOp(name, lhs, rhs, pos)

    @staticmethod
    def apply_to(fn: Expr, arg: Expr) -> Expr:
        """``f a`` from a pipe: extend an existing application, as Lean's macro does."""
        if isinstance(fn, App):
            return App(fn.fn, [*fn.args, Arg(arg)], fn.pos)
        return App(fn, [Arg(arg)], fn.pos)

    @staticmethod
    def project(base: Expr, field: str) -> Expr:
        """``e.f`` where ``e`` is not a plain name (the lexer keeps ``xs.length`` whole)."""
        for part in field.split("."):
            base = Proj(base, part, base.pos)
        return base

    def pipe_proj(self, lhs: Expr) -> Expr:
        self.advance()
        f = self.peek()
        if f.ws or f.kind not in ("ident", "num", "kw"):
            raise self.error("expected a field name after '|>.'", f)
        self.advance()
        e: Expr = lhs
        for part in str(f.value).split("."):
            e = Proj(e, part, lhs.pos)
        args = self.arguments()
        return App(e, args, lhs.pos) if args else e

    def index(self, base: Expr) -> Expr:
        self.advance()  # [
        saved = (self.pos_col, self.forbid_do)
        self.pos_col, self.forbid_do = None, False
        try:
            if self.at_sym(":"):
                raise self.error("slice syntax is not supported")
            idx = self.term(0)
            if self.at_sym(":"):
                raise self.error("slice syntax is not supported")
            self.expect_sym("]", " to close the index")
        finally:
            self.pos_col, self.forbid_do = saved
        t = self.peek()
        kind = ""
        if not t.ws and t.is_sym("!"):
            self.advance()
            kind = "!"
        elif not t.ws and t.is_sym("?"):
            self.advance()
            kind = "?"
        elif not t.ws and t.is_sym("'"):
            self.advance()
            self.term(MAX)  # the bound proof is irrelevant to evaluation
        return Index(base, idx, kind, base.pos)

    def arguments(self) -> list[Arg]:
        args: list[Arg] = []
        while True:
            t = self.peek()
            if not (t.ws and self.can_start_arg(t) and self.col_gt(t)):
                return args
            start = self.i
            args.append(self.argument())
            if self.i == start:  # pragma: no cover - defensive progress guard
                raise self.error("parser made no progress", t)

    def argument(self) -> Arg:
        t = self.peek()
        if t.is_sym("(") and self.peek(1).kind == "ident" and self.peek(2).is_sym(":="):
            self.advance()
            name = str(self.advance().value)
            self.advance()
            saved = (self.pos_col, self.forbid_do)
            self.pos_col, self.forbid_do = None, False
            try:
                value = self.term(0)
                self.expect_sym(")", " to close the named argument")
            finally:
                self.pos_col, self.forbid_do = saved
            return Arg(value, name)
        return Arg(self.term(ARG))

    def application(self, fn: Expr) -> Expr:
        args = self.arguments()
        if isinstance(fn, Ident) and fn.name == "panic" and len(args) == 1 and args[0].name is None:
            return Panic(args[0].value, fn.pos)
        return App(fn, args, fn.pos)

    # --------------------------------------------------------------- leading
    def leading(self, rbp: int) -> tuple[Expr, int]:
        t = self.peek()
        k = t.kind
        pos = t.pos
        if k == "ident":
            name = str(t.value)
            if name in _LEAD_IDENTS:
                self.need(LEAD, rbp, t)
                self.advance()
                if name == "unreachable!":
                    return Panic(StrLit("unreachable code has been reached", pos), pos), LEAD
                return Panic(self.term(0), pos), LEAD
            self.advance()
            nt = self.peek()
            if nt.is_sym("@") and not nt.ws:
                raise self.error("as-patterns 'x@p' are only allowed in patterns", nt)
            return Ident(name, pos), MAX
        if k == "num":
            self.advance()
            return NatLit(int(t.value), pos), MAX  # type: ignore[call-overload]
        if k == "sci":
            self.advance()
            return FloatLit(str(t.value), pos), MAX
        if k == "str":
            self.advance()
            return StrLit(str(t.value), pos), MAX
        if k == "char":
            self.advance()
            return CharLit(str(t.value), pos), MAX
        if k == "interp":
            self.advance()
            return self.interpolated(t), MAX
        if k == "dotident":
            self.advance()
            return Ident("." + str(t.value), pos), MAX
        if k == "sym":
            return self.leading_sym(t, rbp)
        if k == "kw":
            return self.leading_kw(t, rbp)
        if k == "field":
            raise self.error("unexpected field access", t)
        raise self.error("expected a term", t)

    def need(self, prec: int, rbp: int, t: Token) -> None:
        if prec < rbp:
            raise self.error("this construct must be parenthesized here", t)

    def leading_sym(self, t: Token, rbp: int) -> tuple[Expr, int]:
        v = t.value
        pos = t.pos
        if v == "(":
            return self.paren(rbp)
        if v == "[":
            return self.list_or_range(), MAX
        if v == "#[":
            self.advance()
            return ArrayLit(self.comma_terms("]"), pos), MAX
        if v == "⟨":
            self.advance()
            return AnonCtor(self.comma_terms("⟩"), pos), MAX
        if v == "{":
            return self.struct_inst(), MAX
        if v == "·":
            self.advance()
            if not self.cdots:
                raise self.error("'·' section outside parentheses", t)
            self.cdots[-1] += 1
            return Ident(f"_sec{self.cdots[-1]}", pos), MAX
        if v == "_":
            self.advance()
            return Hole(pos), MAX
        if v == "λ":
            return self.fun(), MAX
        if v in ("∀", "∃"):
            self.need(LEAD, rbp, t)
            return self.quantifier(str(v)), LEAD
        if v in ("∑", "∏"):
            return self.big_operator(str(v)), MAX
        if v in ("¬", "!"):
            self.advance()
            return UnOp(str(v), self.term(40), pos), MAX
        if v == "↑":
            self.advance()
            return UnOp("↑", self.term(MAX), pos), MAX
        if v == "-":
            self.need(75, rbp, t)
            self.advance()
            return UnOp("-", self.term(75), pos), 75
        if v == "@":
            raise self.error("explicit '@' applications are not supported", t)
        if v in ("←", "<-"):
            raise self.error("nested actions '(← e)' are not supported", t)
        raise self.error("expected a term", t)

    def leading_kw(self, t: Token, rbp: int) -> tuple[Expr, int]:
        v = t.value
        pos = t.pos
        if v == "fun":
            return self.fun(), MAX
        if v == "sorry":
            self.advance()
            return Sorry(pos), MAX
        if v == "Prop":
            self.advance()
            return Sort("Prop", pos), MAX
        if v in ("Type", "Sort"):
            self.advance()
            nt = self.peek()
            if rbp <= LEAD and nt.ws and not nt.nl and (nt.kind in ("ident", "num") or nt.is_sym("_")):
                self.advance()
                return Sort(f"{v} {self.text[nt.start : nt.end]}", pos), LEAD
            return Sort(str(v), pos), MAX
        if v == "do":
            if self.forbid_do:
                raise self.error("unexpected 'do'", t)
            self.need(ARG, rbp, t)
            return self.parse_do_block(t), ARG
        self.need(LEAD, rbp, t)
        if v == "let":
            return self.let_term(), LEAD
        if v == "have":
            return self.have_term(), LEAD
        if v == "show":
            return self.show_term(), LEAD
        if v == "if":
            return self.if_term(), LEAD
        if v == "match":
            return self.match_term(), LEAD
        if v == "by":
            self.advance()
            return self.skip_tactic_block(t), LEAD
        if v in ("forall", "exists"):
            return self.quantifier("∀" if v == "forall" else "∃"), LEAD
        raise self.error("expected a term", t)

    # ----------------------------------------------------- bracketed terms
    def comma_terms(self, close: str) -> list[Expr]:
        """Terms separated by ``,`` up to ``close`` (the opener is consumed)."""
        saved = self.without_position()
        try:
            elems: list[Expr] = []
            if self.at_sym(close):
                self.advance()
                return elems
            while True:
                elems.append(self.term(0))
                if self.at_sym(","):
                    self.advance()
                    continue
                self.expect_sym(close, f" or ',' (to close '{close}')")
                return elems
        finally:
            self.pos_col, self.forbid_do = saved

    def paren(self, rbp: int) -> tuple[Expr, int]:
        open_tok = self.advance()
        pos = open_tok.pos
        if self.at_sym(")"):
            self.advance()
            return UnitLit(pos), MAX
        saved = self.without_position()
        self.cdots.append(0)
        ascribed: Expr | None = None
        try:
            e = self.term(0)
            if self.at_sym(","):
                elems = [e]
                while self.at_sym(","):
                    self.advance()
                    elems.append(self.term(0))
                e = Tuple(elems, pos)
            elif self.at_sym(":"):
                self.advance()
                if not self.at_sym(")"):
                    ascribed = self.term(0)
            self.expect_sym(")", " to close '('")
            n = self.cdots[-1]
        finally:
            self.cdots.pop()
            self.pos_col, self.forbid_do = saved
        if ascribed is not None:
            names = self.binder_names(e)
            if names is not None and n == 0 and self.peek().is_sym("→", "->") and rbp <= 25:
                self.advance()
                body = self.term(25)
                for name in reversed(names):
                    body = Arrow(ascribed, body, name, pos)
                return body, 25
            e = Typed(e, ascribed, pos)
        if n:
            binders = [Binder(PVar(f"_sec{k}", pos), None, "explicit", pos) for k in range(1, n + 1)]
            e = Lam(binders, e, pos)
        return e, MAX

    @staticmethod
    def binder_names(e: Expr) -> list[str] | None:
        """``(h : P) →``: the names of a dependent arrow binder, if ``e`` is a list of names."""
        parts = [e] if not isinstance(e, App) else [e.fn] + [a.value for a in e.args if a.name is None]
        if isinstance(e, App) and any(a.name is not None for a in e.args):
            return None
        names: list[str] = []
        for p in parts:
            if isinstance(p, Ident) and "." not in p.name:
                names.append(p.name)
            elif isinstance(p, Hole):
                names.append("_")
            else:
                return None
        return names

    def list_or_range(self) -> Expr:
        open_tok = self.advance()
        pos = open_tok.pos
        saved = self.without_position()
        try:
            if self.at_sym("]"):
                self.advance()
                return ListLit([], pos)
            if self.at_sym(":"):
                self.advance()
                stop = self.term(0)
                step = self.range_step()
                self.expect_sym("]", " to close the range")
                return Range(None, stop, step, pos)
            first = self.term(0)
            if self.at_sym(":"):
                self.advance()
                stop = self.term(0)
                step = self.range_step()
                self.expect_sym("]", " to close the range")
                return Range(first, stop, step, pos)
            elems = [first]
            while self.at_sym(","):
                self.advance()
                elems.append(self.term(0))
            self.expect_sym("]", " or ',' (to close '[')")
            return ListLit(elems, pos)
        finally:
            self.pos_col, self.forbid_do = saved

    def range_step(self) -> Expr | None:
        if self.at_sym(":"):
            self.advance()
            return self.term(0)
        return None

    def struct_inst(self) -> Expr:
        open_tok = self.advance()
        pos = open_tok.pos
        saved = self.without_position()
        try:
            if self.at_sym("}"):
                self.advance()
                return StructInst([], None, pos)
            with_expr: Expr | None = None
            t, t1 = self.peek(), self.peek(1)
            if not (t.kind == "ident" and (t1.is_sym(":=", ",", "}"))):
                with_expr = self.term(0)
                if self.at_sym("//"):
                    raise self.error("subtype notation is not supported")
                self.expect_kw("with", " in structure instance")
            fields: list[tuple[str, Expr]] = []
            first = self.peek()
            self.pos_col = first.col
            while not self.at_sym("}"):
                f = self.expect_ident("field name")
                if self.at_sym(":="):
                    self.advance()
                    fields.append((str(f.value), self.term(0)))
                else:
                    fields.append((str(f.value), Ident(str(f.value), f.pos)))
                if self.at_sym(","):
                    self.advance()
                elif not self.at_sym("}") and not (self.peek().nl and self.peek().col == first.col):
                    raise self.error("expected ',' or '}' in structure instance")
            self.advance()
            return StructInst(fields, with_expr, pos)
        finally:
            self.pos_col, self.forbid_do = saved

    def interpolated(self, t: Token) -> Expr:
        """``s!"a{x}b"`` as ``"a" ++ toString x ++ "b"`` (Lean's expansion)."""
        from .parser import parse_expr  # local import: a fresh parser per piece

        pieces: list[Expr] = []
        for kind, src, _off in t.value:  # type: ignore[attr-defined]
            if kind == "str":
                pieces.append(StrLit(src, t.pos))
            else:
                pieces.append(App(Ident("toString", t.pos), [Arg(parse_expr(src))], t.pos))
        if not pieces:
            return StrLit("", t.pos)
        e = pieces[0]
        if not isinstance(e, StrLit):
            e = BinOp("++", StrLit("", t.pos), e, t.pos)
        for p in pieces[1:]:
            e = BinOp("++", e, p, t.pos)
        return e

    # -------------------------------------------------------------- binders
    def fun(self) -> Expr:
        tok = self.advance()
        pos = tok.pos
        if self.at_sym("|"):
            arms = self.match_arms(self.term)
            n = len(arms[0].alts[0])
            binders, discrs = fresh_args(n, pos)
            return Lam(binders, Match(discrs, arms, pos), pos)
        binders: list[Binder] = []
        while not self.at_sym("=>", "↦", ":"):
            start = self.i
            binders.extend(self.fun_binder())
            if self.i == start:  # pragma: no cover - defensive
                raise self.error("parser made no progress")
        if not binders:
            raise self.error("expected a binder after 'fun'")
        if self.at_sym(":"):
            self.advance()
            ty = self.term(0)
            binders = [b if b.type is not None else Binder(b.pat, ty, b.kind, b.pos) for b in binders]
        if not self.at_sym("=>", "↦"):
            raise self.error("expected '=>'")
        self.advance()
        return Lam(binders, self.term(0), pos)

    def typed_group_ahead(self) -> bool:
        """At ``(``/``{``/``⦃``: is this ``(x y : T)`` (names then a colon)?"""
        j = 1
        while True:
            t = self.peek(j)
            if t.kind == "ident" or t.is_sym("_"):
                j += 1
                continue
            return j > 1 and t.is_sym(":")

    def binder_group(self, kind: str, close: str) -> list[Binder]:
        """``(x y : T)`` / ``{α β : Type}`` / ``⦃x⦄`` after the opener check; consumes the brackets."""
        self.advance()
        saved = self.without_position()
        try:
            names: list[Token] = []
            while self.peek().kind == "ident" or self.at_sym("_"):
                names.append(self.advance())
            if not names:
                raise self.error("expected a binder name")
            ty: Expr | None = None
            if self.at_sym(":"):
                self.advance()
                ty = self.term(0)
            if self.at_sym(":="):
                self.advance()
                self.term(0)  # default value: irrelevant for the fragment
            self.expect_sym(close, " to close the binder")
        finally:
            self.pos_col, self.forbid_do = saved
        return [
            Binder(PWild(n.pos) if n.is_sym("_") else PVar(str(n.value), n.pos), ty, kind, n.pos)
            for n in names
        ]

    def inst_binder(self) -> Binder:
        tok = self.advance()  # [
        saved = self.without_position()
        try:
            pat: Pattern = PWild(tok.pos)
            if self.peek().kind == "ident" and self.peek(1).is_sym(":"):
                n = self.advance()
                self.advance()
                pat = PVar(str(n.value), n.pos)
            ty = self.term(0)
            self.expect_sym("]", " to close the instance binder")
        finally:
            self.pos_col, self.forbid_do = saved
        return Binder(pat, ty, "inst", tok.pos)

    def fun_binder(self) -> list[Binder]:
        t = self.peek()
        if t.kind == "ident":
            self.advance()
            return [Binder(PVar(str(t.value), t.pos), None, "explicit", t.pos)]
        if t.is_sym("_"):
            self.advance()
            return [Binder(PWild(t.pos), None, "explicit", t.pos)]
        if t.is_sym("(") and self.typed_group_ahead():
            return self.binder_group("explicit", ")")
        if t.is_sym("{"):
            return self.binder_group("implicit", "}")
        if t.is_sym("⦃"):
            return self.binder_group("strict", "⦄")
        if t.is_sym("["):
            return [self.inst_binder()]
        if t.is_sym("(", "⟨"):
            p = self.pattern_atom()
            if isinstance(p, PTyped):
                return [Binder(p.pat, p.type, "explicit", t.pos)]
            return [Binder(p, None, "explicit", t.pos)]
        raise self.error("expected a binder", t)

    def decl_binders(self) -> list[Binder]:
        """Binders of a ``def``/``let f``/``where`` header: names and bracketed groups."""
        out: list[Binder] = []
        while True:
            t = self.peek()
            if t.kind == "ident":
                self.advance()
                out.append(Binder(PVar(str(t.value), t.pos), None, "explicit", t.pos))
            elif t.is_sym("_"):
                self.advance()
                out.append(Binder(PWild(t.pos), None, "explicit", t.pos))
            elif t.is_sym("(") and self.typed_group_ahead():
                out.extend(self.binder_group("explicit", ")"))
            elif (
                t.is_sym("(")
                and (self.peek(1).kind == "ident" or self.peek(1).is_sym("_"))
                and self.peek(2).is_sym(")")
            ):
                out.extend(self.binder_group("explicit", ")"))
            elif t.is_sym("{"):
                out.extend(self.binder_group("implicit", "}"))
            elif t.is_sym("⦃"):
                out.extend(self.binder_group("strict", "⦄"))
            elif t.is_sym("["):
                out.append(self.inst_binder())
            else:
                return out

    # ----------------------------------------------------------- quantifier
    def quantifier(self, kind: str) -> Expr:
        """``∀ x y : T, p`` / ``∃ (i : Nat) (j : Nat), p`` / ``∀ x ∈ xs, p`` as nested one-binder nodes."""
        tok = self.advance()
        flat: list[tuple[Pattern, Expr | None, tuple[str, Expr] | None]] = []
        while not self.at_sym(","):
            t = self.peek()
            if t.is_sym("(", "{", "⦃"):
                close = {"(": ")", "{": "}", "⦃": "⦄"}[str(t.value)]
                for b in self.binder_group("explicit", close):
                    flat.append((b.pat, b.type, None))
                continue
            names: list[Token] = []
            while self.peek().kind == "ident" or self.at_sym("_"):
                names.append(self.advance())
            if not names:
                raise self.error(f"expected a binder or ',' after '{kind}'")
            ty: Expr | None = None
            bound: tuple[str, Expr] | None = None
            nt = self.peek()
            if nt.is_sym(":"):
                self.advance()
                ty = self.term(0)
            elif nt.kind == "sym" and nt.value in _BINDER_PREDS:
                self.advance()
                bound = (str(nt.value), self.term(0))
            for n in names:
                flat.append((PWild(n.pos) if n.is_sym("_") else PVar(str(n.value), n.pos), ty, bound))
        if not flat:
            raise self.error(f"expected a binder after '{kind}'")
        self.advance()  # ,
        body = self.term(0)
        for pat, ty, bound in reversed(flat):
            body = Quant(kind, pat, ty, bound, body, tok.pos)
        return body

    def big_operator(self, op: str) -> Expr:
        """Mathlib's ``∑ x ∈ s, f x`` / ``∏ x ∈ s, f x`` (also the older ``∑ x in s, f x``) as
        ``Finset.sum s (fun x => f x)`` / ``Finset.prod``; the body is parsed at precedence 67,
        as Mathlib's notation does, so ``∑ i ∈ s, f i + 1`` is ``(∑ i ∈ s, f i) + 1``."""
        tok = self.advance()
        t = self.peek()
        if t.is_sym("("):
            binders = self.binder_group("explicit", ")")
            if len(binders) != 1:
                raise self.error(f"'{op}' over several binders is not supported", t)
            binder = binders[0]
        elif t.kind == "ident" or t.is_sym("_"):
            self.advance()
            pat = PWild(t.pos) if t.is_sym("_") else PVar(str(t.value), t.pos)
            ty: Expr | None = None
            if self.at_sym(":"):
                self.advance()
                ty = self.term(51)
            binder = Binder(pat, ty, "explicit", t.pos)
        else:
            raise self.error(f"expected a binder after '{op}'")
        nt = self.peek()
        if not (nt.is_sym("∈") or (nt.kind in ("ident", "kw") and nt.value == "in")):
            raise self.error(
                f"'{op}' needs a finite set: '{op} x ∈ s, …' (sums over a type are not supported)", nt
            )
        self.advance()
        dom = self.term(0)
        if not self.at_sym(","):
            raise self.error(f"expected ',' after the domain of '{op}'")
        self.advance()
        body = self.term(67)
        fn = "Finset.sum" if op == "∑" else "Finset.prod"
        lam = Lam([binder], body, tok.pos)
        return App(Ident(fn, tok.pos), [Arg(dom), Arg(lam)], tok.pos)

    # -------------------------------------------------------- let / have
    def opt_semicolon(self) -> None:
        """Lean's ``optSemicolon``: a ``;`` or a line break must separate a declaration and its body."""
        t = self.peek()
        if t.is_sym(";"):
            self.advance()
        elif not t.nl:
            raise self.error("expected ';' or a line break", t)

    def let_term(self) -> Expr:
        tok = self.peek()
        saved = self.pos_col
        self.pos_col = tok.col
        try:
            self.advance()
            is_rec = self.at_rec()
            pat, ty, value = self.let_decl(allow_arrow=False)[:3]
            if is_rec:
                self.skip_termination()
        finally:
            self.pos_col = saved
        self.opt_semicolon()
        body = self.term(0)
        return Let(pat, ty, value, body, is_rec, False, tok.pos)

    def at_rec(self) -> bool:
        t = self.peek()
        if t.kind == "ident" and t.value == "rec" and not self.peek(1).is_sym(":=", ":", "|"):
            self.advance()
            return True
        return False

    def let_decl(self, allow_arrow: bool) -> tuple[Pattern, Expr | None, Expr, bool]:
        """``x binders : T := v`` / ``f : T | alts`` / ``pat : T := v``; returns (pat, type, value, arrow).

        With ``allow_arrow`` (do-notation) ``←`` may replace ``:=``."""
        t = self.peek()
        if t.kind == "ident" or t.is_sym("_"):
            save = self.i
            self.advance()
            pat: Pattern = PWild(t.pos) if t.is_sym("_") else PVar(str(t.value), t.pos)
            nt = self.peek()
            if not (nt.is_sym("@") and not nt.ws):
                binders = self.decl_binders() if not (nt.is_sym("[") and not nt.ws) else []
                ty: Expr | None = None
                if self.at_sym(":"):
                    self.advance()
                    ty = self.term(0)
                if self.at_sym(":="):
                    self.advance()
                    body = self.term(0)
                    return pat, *self.function_value(binders, ty, body, t), False
                if allow_arrow and self.at_sym("←", "<-"):
                    if binders:
                        raise self.error("unexpected '←' after binders")
                    self.advance()
                    return pat, ty, self.term(0), True
                if self.at_sym("|"):
                    arms = self.match_arms(self.term)
                    return pat, *self.equations(binders, ty, arms, t), False
                if binders or ty is not None:
                    raise self.error("expected ':=' or '|'")
            self.i = save
        pat = self.pattern(0)
        ty = None
        if self.at_sym(":"):
            self.advance()
            ty = self.term(0)
        if allow_arrow and self.at_sym("←", "<-"):
            self.advance()
            return pat, ty, self.term(0), True
        self.expect_sym(":=", " in let declaration")
        return pat, ty, self.term(0), False

    @staticmethod
    def function_value(
        binders: list[Binder], ty: Expr | None, body: Expr, t: Token
    ) -> tuple[Expr | None, Expr]:
        """``f (x : A) : B := e`` → (type ``A → B``, ``fun (x : A) => e``)."""
        if not binders:
            return ty, body
        fty = fn_type(binders, ty)
        if fty is None and ty is not None:
            body = Typed(body, ty, body.pos)
        return fty, Lam(binders, body, t.pos)

    @staticmethod
    def equations(
        binders: list[Binder], ty: Expr | None, arms: list[MatchArm], t: Token
    ) -> tuple[Expr | None, Expr]:
        """``f binders : T | p => e …`` → (type, ``fun binders _arg… => match _arg… with …``)."""
        n = len(arms[0].alts[0])
        fresh, discrs = fresh_args(n, t.pos)
        value = Lam([*binders, *fresh], Match(discrs, arms, t.pos), t.pos)
        return (fn_type(binders, ty) if binders else ty), value

    def skip_termination(self) -> None:
        """Skip ``termination_by [xs =>] e`` and ``decreasing_by tacs`` clauses."""
        while True:
            t = self.peek()
            if t.is_kw("termination_by"):
                self.advance()
                if self.peek().kind == "ident" and self.peek().value == "structural":
                    self.advance()
                j = 0
                while self.peek(j).kind == "ident" or self.peek(j).is_sym("_"):
                    j += 1
                if j and self.peek(j).is_sym("=>"):
                    self.i += j + 1
                self.term(0)
            elif t.is_kw("decreasing_by"):
                self.advance()
                self.skip_tactic_block(t)
            else:
                return

    def have_term(self) -> Expr:
        tok = self.peek()
        saved = self.pos_col
        self.pos_col = tok.col
        try:
            self.advance()
            pat: Pattern = PVar("this", tok.pos)
            t = self.peek()
            if t.kind == "ident" or t.is_sym("_"):
                self.advance()
                pat = PWild(t.pos) if t.is_sym("_") else PVar(str(t.value), t.pos)
                binders = self.decl_binders()
            elif t.is_sym(":", ":="):
                binders = []
            else:
                pat = self.pattern(0)
                binders = []
            ty: Expr | None = None
            if self.at_sym(":"):
                self.advance()
                ty = self.term(0)
            self.expect_sym(":=", " in 'have'")
            value = self.term(0)
            if binders:
                ty, value = self.function_value(binders, ty, value, t)
        finally:
            self.pos_col = saved
        self.opt_semicolon()
        body = self.term(0)
        return Let(pat, ty, value, body, False, True, tok.pos)

    def show_term(self) -> Expr:
        tok = self.advance()
        ty = self.term(0)
        if self.at_kw("from"):
            self.advance()
            return Typed(self.term(0), ty, tok.pos)
        if self.at_kw("by"):
            by = self.advance()
            return Typed(self.skip_tactic_block(by), ty, tok.pos)
        raise self.error("expected 'from' or 'by' after 'show'")

    # ---------------------------------------------------------- if / match
    def if_term(self) -> Expr:
        tok = self.advance()
        if self.at_kw("let"):
            self.advance()
            pat = self.pattern(0)
            self.expect_sym(":=", " in 'if let'")
            disc = self.term(0)
            self.expect_kw("then", " after 'if let'")
            then = self.term(0)
            self.expect_kw("else", " ('if let' needs an 'else' branch)")
            els = self.term(0)
            arms = [MatchArm([[pat]], then, tok.pos), MatchArm([[PWild(tok.pos)]], els, tok.pos)]
            return Match([disc], arms, tok.pos)
        hyp = self.opt_hyp()
        cond = self.term(0)
        self.expect_kw("then", " after the condition")
        then = self.term(0)
        self.expect_kw("else", " (a term-level 'if' needs an 'else' branch)")
        els = self.term(0)
        return If(cond, then, els, hyp, tok.pos)

    def opt_hyp(self) -> str | None:
        """``h :`` in ``if h : c`` / ``match h : e`` / ``for h : x in``."""
        t, t1 = self.peek(), self.peek(1)
        if (t.kind == "ident" or t.is_sym("_")) and t1.is_sym(":"):
            self.i += 2
            return "_" if t.is_sym("_") else str(t.value)
        return None

    def match_discrs(self) -> tuple[list[Expr], list[str | None]]:
        discrs: list[Expr] = []
        names: list[str | None] = []
        while True:
            names.append(self.opt_hyp())
            discrs.append(self.term(0))
            if not self.at_sym(","):
                break
            self.advance()
        self.expect_kw("with", " after the match discriminants")
        return discrs, names

    def match_term(self) -> Expr:
        tok = self.advance()
        if (
            self.peek().is_sym("(")
            and self.peek(1).kind == "ident"
            and self.peek(1).value in ("generalizing", "motive")
        ):
            raise self.error("match (generalizing/motive := …) is not supported")
        discrs, names = self.match_discrs()
        arms = self.match_arms(self.term)
        for a in arms:
            for alt in a.alts:
                if len(alt) != len(discrs):
                    raise self.error("wrong number of patterns in match alternative")
        return Match(discrs, arms, tok.pos, names if any(n is not None for n in names) else [])

    def match_arms(self, rhs: object) -> list[MatchArm]:
        """Lean's ``matchAlts``: arms start at or right of the first ``|``; ``rhs`` parses a right side."""
        first = self.peek()
        if not first.is_sym("|"):
            raise self.error("expected '|' to start a match alternative", first)
        saved = self.pos_col
        self.pos_col = first.col
        arms: list[MatchArm] = []
        try:
            while self.at_sym("|") and self.col_ge(self.peek()):
                bar = self.advance()
                alts = [self.pattern_list()]
                while self.at_sym("|"):
                    self.advance()
                    alts.append(self.pattern_list())
                if len({len(a) for a in alts}) != 1:
                    raise self.error("or-alternatives must have the same number of patterns", bar)
                if not self.at_sym("=>", "↦"):
                    raise self.error("expected '=>' in match alternative")
                self.advance()
                if not self.col_ge(self.peek()):
                    raise self.error("the right-hand side must not start left of its '|'")
                body = rhs()  # type: ignore[operator]
                arms.append(MatchArm(alts, body, bar.pos))
        finally:
            self.pos_col = saved
        return arms

    # ------------------------------------------------------------ attributes
    def attributes(self) -> list[str]:
        """``@[a, b c]`` → ``["a", "b c"]`` (source text of each attribute)."""
        self.expect_sym("@[")
        out: list[str] = []
        depth = 0
        start: Token | None = None
        last: Token | None = None
        while True:
            t = self.peek()
            if t.kind == "eof":
                raise self.error("unterminated attribute list", t)
            if depth == 0 and (t.is_sym(",") or t.is_sym("]")):
                if start is None or last is None:
                    raise self.error("empty attribute", t)
                out.append(self.text[start.start : last.end])
                start = last = None
                self.advance()
                if t.is_sym("]"):
                    return out
                continue
            if t.kind == "sym" and t.value in ("(", "[", "{", "⟨"):
                depth += 1
            elif t.kind == "sym" and t.value in (")", "]", "}", "⟩"):
                depth -= 1
            if start is None:
                start = t
            last = self.advance()
