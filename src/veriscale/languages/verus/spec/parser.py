"""A Pratt parser for Verus specification expressions (over ``rust.lexer`` tokens).

Precedence, loosest first: ``&&&``/``|||`` bullets, ``<==>``, ``==>`` (right
associative) / ``<==``, ``||``, ``&&``, comparisons (chainable:
``a <= b < c``), ``|``, ``^``, ``&``, shifts, ``+ -``, ``* / %``, ``as``,
prefix ``- ! & *``, postfix (calls, methods, fields, ``[i]``, ``@``).
Quantifier and closure bodies extend as far as possible but stop at a
``&&&``/``|||`` bullet. ``#[trigger]`` and ``#![…]`` attributes are skipped.
"""

from __future__ import annotations

import re

from veriscale.values.rust_types import parse_rust_type
from veriscale.values.types import Type, TypeParseError

from ..lexer import Tok
from .ast import (
    Binary,
    Block,
    Call,
    Cast,
    Chain,
    Closure,
    Expr,
    Field,
    If,
    Index,
    Let,
    Lit,
    Match,
    MethodCall,
    Pat,
    Path,
    PBind,
    PLit,
    PTuple,
    PVariant,
    PWild,
    Quant,
    SeqLit,
    StructLit,
    Tuple,
    Unary,
    View,
)

__all__ = ["ExprParser", "SpecParseError", "parse_char", "parse_int", "parse_string"]


class SpecParseError(ValueError):
    """Text outside the supported Verus specification subset."""

    def __init__(self, msg: str, line: int = 0) -> None:
        super().__init__(f"{msg} (line {line})" if line else msg)
        self.line = line


# infix operators: (left binding power, right binding power, canonical op)
_INFIX: dict[str, tuple[int, int, str]] = {
    "&&&": (1, 2, "&&"),
    "|||": (1, 2, "||"),
    "<==>": (3, 4, "<==>"),
    "==>": (6, 5, "==>"),
    "<==": (5, 6, "<=="),
    "||": (7, 8, "||"),
    "&&": (9, 10, "&&"),
    "|": (13, 14, "|"),
    "^": (15, 16, "^"),
    "&": (17, 18, "&"),
    "<<": (19, 20, "<<"),
    ">>": (19, 20, ">>"),
    "+": (21, 22, "+"),
    "-": (21, 22, "-"),
    "*": (23, 24, "*"),
    "/": (23, 24, "/"),
    "%": (23, 24, "%"),
}
_CMP = frozenset({"==", "!=", "<", "<=", ">", ">=", "=~=", "=~~=", "===", "!=="})
_CMP_BP = 11
_AS_BP = 25
_PREFIX_BP = 27
BODY_BP = 3  # quantifier/closure bodies: everything but bullets
_PRIMS = frozenset(
    {"int", "nat", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
     "bool", "char"}
)  # fmt: skip


def parse_int(text: str) -> int:
    t = text.replace("_", "")
    for suf in ("i128", "u128", "isize", "usize", "i64", "u64", "i32", "u32", "i16", "u16", "i8", "u8", "int",
                "nat"):  # fmt: skip
        if t.endswith(suf) and not t.startswith(("0x", "0X")):
            t = t[: -len(suf)]
            break
    if t.startswith(("0x", "0X")):
        for suf in ("i128", "u128", "isize", "usize", "i64", "u64", "i32", "u32", "i16", "u16", "i8", "u8"):
            if t.endswith(suf):
                t = t[: -len(suf)]
                break
        return int(t, 16)
    if t.startswith(("0o", "0O")):
        return int(t[2:], 8)
    if t.startswith(("0b", "0B")):
        return int(t[2:], 2)
    return int(t)


_ESC = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "0": "\0", "'": "'", '"': '"'}


def _unescape(body: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = body[i + 1]
        if e in _ESC:
            out.append(_ESC[e])
            i += 2
        elif e == "x":
            out.append(chr(int(body[i + 2 : i + 4], 16)))
            i += 4
        elif e == "u":
            j = body.index("}", i)
            out.append(chr(int(body[i + 3 : j], 16)))
            i = j + 1
        elif e == "\n":
            i += 2
            while i < len(body) and body[i] in " \t\n\r":
                i += 1
        else:
            raise SpecParseError(f"unknown escape \\{e}")
    return "".join(out)


def parse_char(text: str) -> str | int:
    if text.startswith("b'"):
        return ord(_unescape(text[2:-1]))
    return _unescape(text[1:-1])


def parse_string(text: str) -> str:
    if text.startswith("r"):
        return text[text.index('"') + 1 : text.rindex('"')]
    if text.startswith("b"):
        text = text[1:]
    return _unescape(text[1:-1])


class ExprParser:
    def __init__(self, toks: list[Tok], pos: int, end: int) -> None:
        self.toks = toks
        self.pos = pos
        self.end = end

    # ---- token helpers
    def peek(self, k: int = 0) -> str:
        i = self.pos + k
        return self.toks[i].text if i < self.end else ""

    def peek_tok(self, k: int = 0) -> Tok | None:
        i = self.pos + k
        return self.toks[i] if i < self.end else None

    @property
    def line(self) -> int:
        t = self.peek_tok()
        if t is not None:
            return t.line
        return self.toks[self.end - 1].line if self.end > 0 else 0

    def take(self, want: str | None = None) -> Tok:
        t = self.peek_tok()
        if t is None:
            raise SpecParseError("unexpected end of expression", self.line)
        if want is not None and t.text != want:
            raise SpecParseError(f"expected {want!r}, found {t.text!r}", t.line)
        self.pos += 1
        return t

    def at_end(self) -> bool:
        return self.pos >= self.end

    def error(self, msg: str) -> SpecParseError:
        return SpecParseError(msg, self.line)

    # ---- entry points
    def parse_all(self) -> Expr:
        e = self.expr(0)
        if not self.at_end():
            raise self.error(f"unexpected {self.peek()!r} after expression")
        return e

    def skip_attrs(self) -> None:
        while self.peek() == "#" and self.peek(1) in ("[", "!"):
            self.take()
            if self.peek() == "!":
                self.take()
            self.skip_balanced("[", "]")

    def skip_balanced(self, open_: str, close: str) -> None:
        self.take(open_)
        depth = 1
        while depth:
            t = self.take().text
            if t == open_:
                depth += 1
            elif t == close:
                depth -= 1

    # ---- expressions
    def expr(self, min_bp: int, no_struct: bool = False) -> Expr:
        self.skip_attrs()
        if self.peek() in ("&&&", "|||"):  # leading bullet
            self.take()
            self.skip_attrs()
        lhs = self.prefix(no_struct)
        while not self.at_end():
            op = self.peek()
            tok = self.peek_tok()
            assert tok is not None
            if tok.kind != "punct" and op != "as":
                break
            if op == "as":
                if _AS_BP < min_bp:
                    break
                self.take()
                lhs = Cast(lhs, self.cast_type(), tok.line)
                continue
            if op in _CMP:
                if _CMP_BP < min_bp:
                    break
                ops: list[str] = []
                operands = [lhs]
                while self.peek() in _CMP:
                    ops.append(self.take().text)
                    operands.append(self.expr(_CMP_BP + 1, no_struct))
                lhs = Chain(tuple(ops), tuple(operands), tok.line)
                continue
            spec = _INFIX.get(op)
            if spec is None:
                break
            lbp, rbp, canon = spec
            if lbp < min_bp:
                break
            self.take()
            rhs = self.expr(rbp, no_struct)
            lhs = Binary(canon, lhs, rhs, tok.line)
        return lhs

    def prefix(self, no_struct: bool) -> Expr:
        t = self.peek_tok()
        if t is None:
            raise self.error("expected an expression")
        line = t.line
        if t.kind == "punct" and t.text in ("-", "!", "&", "*"):
            self.take()
            if t.text == "&" and self.peek() == "mut":
                self.take()
            e = self.expr(_PREFIX_BP, no_struct)
            return Unary(t.text, e, line)
        if t.kind == "punct" and t.text == "&&":  # ``&&x``
            self.take()
            return Unary("&", Unary("&", self.expr(_PREFIX_BP, no_struct), line), line)
        if t.kind == "punct" and t.text in ("|", "||"):
            return self.closure()
        if t.kind == "ident" and t.text in ("forall", "exists", "choose") and self.peek(1) in ("|", "||"):
            return self.quant()
        return self.postfix(self.primary(no_struct), no_struct)

    def postfix(self, e: Expr, no_struct: bool) -> Expr:
        while not self.at_end():
            t = self.peek()
            line = self.line
            if t == "@":
                self.take()
                e = View(e, line)
            elif t == ".":
                self.take()
                nt = self.take()
                if nt.kind == "int":
                    e = Field(e, nt.text, line)
                    continue
                if nt.kind != "ident":
                    raise SpecParseError(f"unexpected {nt.text!r} after '.'", nt.line)
                if self.peek() == "::":  # turbofish
                    self.take()
                    self.skip_generics()
                if self.peek() == "(":
                    args = self.args("(", ")")
                    if nt.text in ("view", "deep_view") and not args:
                        e = View(e, line)
                    else:
                        e = MethodCall(e, nt.text, tuple(args), line)
                else:
                    e = Field(e, nt.text, line)
            elif t == "[":
                self.take()
                idx = self.expr(0)
                self.take("]")
                e = Index(e, idx, line)
            elif t == "(":
                e = Call(e, tuple(self.args("(", ")")), line)
            elif t == "->" and self.peek_tok(1) is not None and self.peek_tok(1).kind in ("ident", "int"):  # type: ignore[union-attr]
                self.take()
                e = Field(e, "->" + self.take().text, line)
            elif t == "?":
                raise self.error("'?' is not supported in specifications")
            else:
                break
        return e

    def args(self, open_: str, close: str) -> list[Expr]:
        self.take(open_)
        out: list[Expr] = []
        while self.peek() != close:
            out.append(self.expr(0))
            if self.peek() == ",":
                self.take()
            elif self.peek() != close:
                raise self.error(f"expected ',' or {close!r}, found {self.peek()!r}")
        self.take(close)
        return out

    def skip_generics(self) -> None:
        self.take("<")
        depth = 1
        while depth > 0:
            t = self.take().text
            if t == "<":
                depth += 1
            elif t == ">":
                depth -= 1
            elif t == ">>":
                depth -= 2

    def primary(self, no_struct: bool) -> Expr:
        t = self.take()
        line = t.line
        if t.kind == "int":
            m = re.search(r"([iu](?:8|16|32|64|128|size)|int|nat)$", t.text)
            suffix = m.group(1) if m and not t.text.startswith(("0x", "0X")) else ""
            return Lit(parse_int(t.text), "int", line, suffix)
        if t.kind == "char":
            v = parse_char(t.text)
            return Lit(v, "int" if isinstance(v, int) else "char", line)
        if t.kind == "str":
            return Lit(parse_string(t.text), "str", line)
        if t.kind == "float":
            raise SpecParseError("floating-point literals are not supported", line)
        if t.text == "(":
            if self.peek() == ")":
                self.take()
                return Tuple((), line)
            first = self.expr(0)
            if self.peek() == ")":
                self.take()
                return first
            items = [first]
            while self.peek() == ",":
                self.take()
                if self.peek() == ")":
                    break
                items.append(self.expr(0))
            self.take(")")
            return Tuple(tuple(items), line)
        if t.text == "[":
            self.pos -= 1
            return SeqLit(tuple(self.args("[", "]")), line)
        if t.text == "{":
            self.pos -= 1
            return self.block()
        if t.kind != "ident":
            raise SpecParseError(f"unexpected {t.text!r}", line)
        if t.text == "true":
            return Lit(True, "bool", line)
        if t.text == "false":
            return Lit(False, "bool", line)
        if t.text == "if":
            return self.if_expr(line)
        if t.text == "match":
            return self.match_expr(line)
        if t.text in ("let", "return", "loop", "while", "for"):
            raise SpecParseError(f"{t.text!r} is not supported in a specification expression", line)
        # path
        segs = [t.text]
        while self.peek() == "::":
            self.take()
            if self.peek() == "<":
                self.skip_generics()
                continue
            segs.append(self.take().text)
        if self.peek() == "<" and len(segs) >= 1 and segs[-1] in ("Seq", "Set", "Map", "Multiset", "Vec"):
            # ``Seq<int>::new`` style
            save = self.pos
            try:
                self.skip_generics()
                if self.peek() == "::":
                    self.take()
                    segs.append(self.take().text)
                else:
                    self.pos = save
            except SpecParseError:
                self.pos = save
        if self.peek() == "!" and self.peek(1) in ("[", "("):
            self.take()
            name = segs[-1]
            if name in ("seq", "vec"):
                close = "]" if self.peek() == "[" else ")"
                return SeqLit(tuple(self.args(self.peek(), close)), line)
            raise SpecParseError(f"macro {name}! is not supported", line)
        if (
            self.peek() == "{"
            and not no_struct
            and segs[-1][:1].isupper()
            and self.peek(1) != "}"
            and self.peek(2) in (":", ",", "}")
        ):
            return self.struct_lit(tuple(segs), line)
        return Path(tuple(segs), line)

    def struct_lit(self, name: tuple[str, ...], line: int) -> Expr:
        self.take("{")
        fields: list[tuple[str, Expr]] = []
        while self.peek() != "}":
            f = self.take().text
            if self.peek() == ":":
                self.take()
                fields.append((f, self.expr(0)))
            else:
                fields.append((f, Path((f,), line)))
            if self.peek() == ",":
                self.take()
        self.take("}")
        return StructLit(name, tuple(fields), line)

    def if_expr(self, line: int) -> Expr:
        cond = self.expr(0, no_struct=True)
        then = self.block()
        else_: Expr | None = None
        if self.peek() == "else":
            self.take()
            if self.peek() == "if":
                t = self.take()
                else_ = self.if_expr(t.line)
            else:
                else_ = self.block()
        return If(cond, then, else_, line)

    def match_expr(self, line: int) -> Expr:
        scrut = self.expr(0, no_struct=True)
        self.take("{")
        arms: list[tuple[Pat, Expr | None, Expr]] = []
        while self.peek() != "}":
            pat = self.pattern()
            guard = None
            if self.peek() == "if":
                self.take()
                guard = self.expr(0)
            self.take("=>")
            body = self.block() if self.peek() == "{" else self.expr(0)
            arms.append((pat, guard, body))
            if self.peek() == ",":
                self.take()
        self.take("}")
        return Match(scrut, tuple(arms), line)

    def block(self) -> Expr:
        line = self.line
        self.take("{")
        lets: list[Let] = []
        while self.peek() == "let" or self._skip_proof_block():
            if self.peek() != "let":
                continue
            self.take()
            pat = self.pattern()
            ty = None
            if self.peek() == ":":
                self.take()
                ty = self.type_until({"="})
            self.take("=")
            val = self.expr(0)
            self.take(";")
            lets.append(Let(pat, ty, val))
        if self.peek() == "}":
            raise self.error("a specification block needs a value")
        tail = self.expr(0)
        while self.peek() == ";":  # stray semicolon before ``}``
            self.take()
        self.take("}")
        if not lets:
            return tail
        return Block(tuple(lets), tail, line)

    def _skip_proof_block(self) -> bool:
        """Skip a ``proof { … }`` statement (``;`` optional) of a spec fn body: ghost code (assertions,
        lemma calls) that Verus checks but that never contributes to the value. True if one was skipped."""
        if not (self.peek() == "proof" and self.peek(1) == "{"):
            return False
        self.take()
        depth = 0
        while not self.at_end():
            t = self.take().text
            if t == "{":
                depth += 1
            elif t == "}":
                depth -= 1
                if depth == 0:
                    break
        else:
            raise self.error("unclosed proof block")
        if self.peek() == ";":
            self.take()
        return True

    def pattern(self) -> Pat:
        pats = [self.pattern1()]
        while self.peek() == "|":
            self.take()
            pats.append(self.pattern1())
        if len(pats) > 1:
            raise self.error("or-patterns are not supported")
        return pats[0]

    def pattern1(self) -> Pat:
        t = self.take()
        if t.text == "_":
            return PWild()
        if t.text == "(":
            items: list[Pat] = []
            while self.peek() != ")":
                items.append(self.pattern())
                if self.peek() == ",":
                    self.take()
            self.take(")")
            return items[0] if len(items) == 1 else PTuple(tuple(items))
        if t.kind == "int":
            return PLit(parse_int(t.text))
        if t.text == "-" and self.peek_tok() is not None and self.peek_tok().kind == "int":  # type: ignore[union-attr]
            return PLit(-parse_int(self.take().text))
        if t.kind == "char":
            return PLit(parse_char(t.text))
        if t.text in ("true", "false"):
            return PLit(t.text == "true")
        if t.kind != "ident":
            raise SpecParseError(f"unsupported pattern {t.text!r}", t.line)
        if t.text in ("mut", "ref"):
            return self.pattern1()
        segs = [t.text]
        while self.peek() == "::":
            self.take()
            segs.append(self.take().text)
        if self.peek() == "(":
            self.take()
            items = []
            while self.peek() != ")":
                items.append(self.pattern())
                if self.peek() == ",":
                    self.take()
            self.take(")")
            return PVariant(tuple(segs), tuple(items))
        if self.peek() == "{":
            self.take()
            named: list[tuple[str, Pat]] = []
            while self.peek() != "}":
                if self.peek() == "..":
                    self.take()
                    continue
                f = self.take().text
                if self.peek() == ":":
                    self.take()
                    named.append((f, self.pattern()))
                else:
                    named.append((f, PBind(f)))
                if self.peek() == ",":
                    self.take()
            self.take("}")
            return PVariant(tuple(segs), (), tuple(named))
        if len(segs) == 1 and (segs[0][:1].islower() or segs[0].startswith("_")):
            return PBind(segs[0])
        return PVariant(tuple(segs))

    def binders(self, close: str = "|") -> list[tuple[str, Type | None]]:
        out: list[tuple[str, Type | None]] = []
        while self.peek() != close:
            name_tok = self.take()
            if name_tok.text in ("mut", "tracked"):
                name_tok = self.take()
            ty: Type | None = None
            if self.peek() == ":":
                self.take()
                ty = self.type_until({",", close})
            out.append((name_tok.text, ty))
            if self.peek() == ",":
                self.take()
        self.take(close)
        return out

    def quant(self) -> Expr:
        kw = self.take()
        if self.peek() == "||":
            raise SpecParseError(f"{kw.text} without binders", kw.line)
        self.take("|")
        bs = self.binders()
        for name, ty in bs:
            if ty is None:
                raise SpecParseError(f"binder {name} of {kw.text} has no type", kw.line)
        self.skip_attrs()
        body = self.expr(BODY_BP)
        return Quant(kw.text, tuple((n, t) for n, t in bs if t is not None), body, kw.line)

    def closure(self) -> Expr:
        t = self.take()
        bs: list[tuple[str, Type | None]] = []
        if t.text == "|":
            bs = self.binders()
        if self.peek() == "->":
            self.take()
            self.type_until({"{"})
            return Closure(tuple(bs), self.block(), t.line)
        return Closure(tuple(bs), self.expr(BODY_BP), t.line)

    # ---- types
    def type_until(self, stops: set[str]) -> Type:
        """Parse a type ending before a depth-0 token in ``stops``."""
        parts: list[str] = []
        depth = 0
        while not self.at_end():
            t = self.peek()
            if depth == 0 and t in stops:
                break
            if t in ("<", "(", "["):
                depth += 1
            elif t in (">", ")", "]"):
                if depth == 0:
                    break
                depth -= 1
            elif t == ">>":
                if depth < 2:
                    break
                depth -= 2
            parts.append(t)
            self.take()
        text = " ".join(parts)
        try:
            return parse_rust_type(text)
        except TypeParseError as exc:
            raise self.error(str(exc)) from None

    def cast_type(self) -> Type:
        t = self.take()
        if t.kind != "ident":
            if t.text == "(":
                self.pos -= 1
                depth = 0
                parts: list[str] = []
                while True:
                    x = self.take().text
                    parts.append(x)
                    if x == "(":
                        depth += 1
                    elif x == ")":
                        depth -= 1
                        if depth == 0:
                            break
                return parse_rust_type(" ".join(parts))
            raise SpecParseError(f"expected a type after 'as', found {t.text!r}", t.line)
        segs = [t.text]
        while self.peek() == "::":
            self.take()
            segs.append(self.take().text)
        text = "::".join(segs)
        if segs[-1] not in _PRIMS and self.peek() == "<":
            start = self.pos
            self.skip_generics()
            text += " ".join(tk.text for tk in self.toks[start : self.pos])
        try:
            return parse_rust_type(text)
        except TypeParseError as exc:
            raise self.error(str(exc)) from None
