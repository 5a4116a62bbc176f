"""Patterns of ``match`` arms, ``fun``/``let`` binders and ``for`` loops.

Lean parses patterns as terms and reinterprets them; here they have their own
small precedence parser producing :mod:`ast` patterns directly: ``::`` (right,
67) and ``n + k`` (65) over applications of constructors to atomic patterns.
An unqualified name is a variable unless it is ``none``/``some``
(``true``/``false`` are literals); a qualified or dot name (``Nat.succ``,
``.none``) is a constructor.
"""

from __future__ import annotations

from .ast import (
    Expr,
    PAdd,
    PAnon,
    PArray,
    PAs,
    Pattern,
    PCons,
    PCtor,
    PList,
    PLit,
    PTuple,
    PTyped,
    PVar,
    PWild,
)
from .lexer import Token
from .parser_core import MAX, ParserBase

__all__ = ["PatternParser"]

_CTOR_NAMES = frozenset({"none", "some"})


class PatternParser(ParserBase):
    """Pattern parsing; type ascriptions inside patterns use the subclass's term parser."""

    def term(self, rbp: int = 0) -> Expr:  # pragma: no cover - overridden
        raise NotImplementedError

    def pattern_list(self) -> list[Pattern]:
        pats = [self.pattern(0)]
        while self.at_sym(","):
            self.advance()
            pats.append(self.pattern(0))
        return pats

    def pattern(self, rbp: int = 0) -> Pattern:
        lhs = self.pattern_app()
        lprec = MAX
        while True:
            t = self.peek()
            if t.is_sym("::") and rbp <= 67 and lprec >= 68:
                self.advance()
                lhs = PCons(lhs, self.pattern(67), lhs.pos)
                lprec = 67
            elif t.is_sym("+") and rbp <= 65 and lprec >= 65:
                self.advance()
                k = self.peek()
                if k.kind != "num":
                    raise self.error("expected a numeral in an 'n + k' pattern", k)
                self.advance()
                lhs = PAdd(lhs, int(k.value), lhs.pos)  # type: ignore[call-overload]
                lprec = 65
            else:
                return lhs

    def can_start_pattern_atom(self, t: Token) -> bool:
        if t.kind in ("ident", "num", "str", "char", "dotident"):
            return True
        return t.kind == "sym" and t.value in ("_", "(", "[", "#[", "⟨")

    def pattern_app(self) -> Pattern:
        t = self.peek()
        if t.kind in ("ident", "dotident"):
            self.advance()
            name = str(t.value) if t.kind == "ident" else "." + str(t.value)
            nt = self.peek()
            if t.kind == "ident" and nt.is_sym("@") and not nt.ws:
                self.advance()
                return PAs(name, self.pattern_atom(), t.pos)
            args: list[Pattern] = []
            while True:
                a = self.peek()
                if not (a.ws and self.can_start_pattern_atom(a) and self.col_gt(a)):
                    break
                args.append(self.pattern_atom())
            if args:
                return PCtor(name, args, t.pos)
            return self.classify(name, t)
        return self.pattern_atom()

    @staticmethod
    def classify(name: str, t: Token) -> Pattern:
        if name in ("true", "false"):
            return PLit(name == "true", "bool", t.pos)
        if name in _CTOR_NAMES or "." in name:
            return PCtor(name, [], t.pos)
        return PVar(name, t.pos)

    def pattern_atom(self) -> Pattern:
        t = self.peek()
        k = t.kind
        pos = t.pos
        if k == "ident":
            self.advance()
            nt = self.peek()
            if nt.is_sym("@") and not nt.ws:
                self.advance()
                return PAs(str(t.value), self.pattern_atom(), pos)
            return self.classify(str(t.value), t)
        if k == "dotident":
            self.advance()
            return PCtor("." + str(t.value), [], pos)
        if k == "num":
            self.advance()
            return PLit(int(t.value), "nat", pos)  # type: ignore[call-overload]
        if k == "str":
            self.advance()
            return PLit(str(t.value), "str", pos)
        if k == "char":
            self.advance()
            return PLit(str(t.value), "char", pos)
        if k == "sym":
            v = t.value
            if v == "_":
                self.advance()
                return PWild(pos)
            if v == "-" and self.peek(1).kind == "num":
                self.advance()
                n = self.advance()
                return PLit(-int(n.value), "nat", pos)  # type: ignore[call-overload]
            if v == "(":
                self.advance()
                if self.at_sym(")"):
                    self.advance()
                    return PCtor("Unit.unit", [], pos)
                saved = self.without_position()
                try:
                    p = self.pattern(0)
                    if self.at_sym(","):
                        elems = [p]
                        while self.at_sym(","):
                            self.advance()
                            elems.append(self.pattern(0))
                        p = PTuple(elems, pos)
                    elif self.at_sym(":"):
                        self.advance()
                        p = PTyped(p, self.term(0), pos)
                    self.expect_sym(")", " to close the pattern")
                finally:
                    self.pos_col, self.forbid_do = saved
                return p
            if v in ("[", "#[", "⟨"):
                close = {"[": "]", "#[": "]", "⟨": "⟩"}[str(v)]
                self.advance()
                saved = self.without_position()
                try:
                    elems: list[Pattern] = []
                    if not self.at_sym(close):
                        elems = self.pattern_list()
                    self.expect_sym(close, " to close the pattern")
                finally:
                    self.pos_col, self.forbid_do = saved
                if v == "[":
                    return PList(elems, pos)
                if v == "#[":
                    return PArray(elems, pos)
                return PAnon(elems, pos)
        raise self.error("expected a pattern", t)
