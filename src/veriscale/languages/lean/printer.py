"""Pretty-printer: Lean source that :mod:`parser` reads back to an equal tree.

Used to write syntactic mutants as Lean source, so the output must survive
Lean's layout rules, not just look right. The printer therefore:

* parenthesizes conservatively: by precedence, and around every construct that
  extends to the right (``fun``, ``let``, ``if``, ``match``, ``∀``, ``¬``, …)
  whenever something follows it;
* starts ``let``/``have``/``match`` on a fresh line at a known indentation and
  indents everything nested in them further, so that every saved position
  (Lean's ``withPosition``) lies left of the lines that must continue it.

Internally a printed fragment is a list of strings: the first is text to
append to the current line ("" means the fragment starts on a new line), the
rest are complete lines with their indentation.

:func:`strip_pos` resets every ``pos`` so trees can be compared structurally.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...values.lean_text import quote_core
from .ast import (
    AnonCtor,
    App,
    ArrayLit,
    Arrow,
    Binder,
    BinOp,
    ByTactic,
    CharLit,
    Decl,
    Def,
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
    FloatLit,
    Hole,
    Ident,
    If,
    Index,
    InstanceDecl,
    Lam,
    Let,
    ListLit,
    Match,
    NamespaceDecl,
    NatLit,
    OpenDecl,
    OtherDecl,
    PAdd,
    Panic,
    PAnon,
    PArray,
    PAs,
    Pattern,
    PCons,
    PCtor,
    PList,
    PLit,
    Proj,
    PTuple,
    PTyped,
    PVar,
    PWild,
    Quant,
    Range,
    Sorry,
    Sort,
    StrLit,
    StructInst,
    StructureDecl,
    Tuple,
    Typed,
    UnitLit,
    UnOp,
)
from .errors import LeanError
from .lexer import KEYWORDS, is_id_first, is_id_rest
from .parser_expr import ARG, BINOPS, LEAD, MAX

__all__ = ["print_decl", "print_expr", "print_module", "print_pattern", "strip_pos"]

Piece = list[str]

# AST op -> (precedence, left operand precedence, right operand precedence)
_OPS: dict[str, tuple[int, int, int]] = {}
for _tok, (_p, _l, _r, _name) in BINOPS.items():
    if _name not in ("→", "|>", "<|"):
        _OPS.setdefault(_name, (_p, _l, _r))

_WIDTH = 100


# ------------------------------------------------------------------ helpers


def strip_pos(node: Any) -> Any:
    """A copy of ``node`` (AST node, list or tuple of them) with every ``pos`` reset to (0, 0)."""
    if isinstance(node, list):
        return [strip_pos(x) for x in node]
    if isinstance(node, tuple):
        return tuple(strip_pos(x) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {}
        for f in dataclasses.fields(node):
            v = getattr(node, f.name)
            changes[f.name] = (0, 0) if f.name == "pos" else strip_pos(v)
        return type(node)(**changes)
    return node


def _cat(*parts: Piece | str) -> Piece:
    """Concatenate fragments inline (a fragment starting with "" continues on its own lines)."""
    out: Piece = [""]
    for p in parts:
        if isinstance(p, str):
            out[-1] += p
            continue
        if not p:
            continue
        if p[0] == "" and len(p) > 1:
            out.extend(p[1:])
        else:
            out[-1] += p[0]
            out.extend(p[1:])
    return out


def _paren(p: Piece) -> Piece:
    q = _cat("(", p)
    q[-1] += ")"
    return q


def _single(p: Piece) -> bool:
    return len(p) == 1


def _esc_char(c: str, quote: str) -> str:
    # Lean's own quoting, except ``\r`` (printed texts name adversaries: keep them stable)
    if c == "\r":
        return "\\r"
    if 0xD800 <= ord(c) <= 0xDFFF:
        raise LeanError(f"cannot print surrogate code point {ord(c):#x}")
    if c == '"' and quote == "'":
        return c
    return quote_core(c, in_string=quote == '"')


def _name(name: str) -> str:
    """A (dotted) name, with «» around components that would not lex as identifiers."""
    lead = "." if name.startswith(".") else ""
    parts = (name[1:] if lead else name).split(".")
    out = []
    for c in parts:
        plain = c != "" and is_id_first(c[0]) and all(is_id_rest(x) for x in c[1:])
        if plain and c not in KEYWORDS and c != "_":
            out.append(c)
        elif "»" in c or "\n" in c:
            raise LeanError(f"cannot print name {name!r}")
        else:
            out.append(f"«{c}»")
    return lead + ".".join(out)


def _str_lit(s: str) -> str:
    return '"' + "".join(_esc_char(c, '"') for c in s) + '"'


def _char_lit(c: str) -> str:
    return "'" + "".join(_esc_char(x, "'") for x in c) + "'"


# ---------------------------------------------------------------- patterns


def _pat_is_atom(p: Pattern) -> bool:
    if isinstance(p, PCtor):
        return not p.args
    if isinstance(p, PLit):
        return not (p.kind == "nat" and isinstance(p.value, int) and p.value < 0)
    return isinstance(p, (PVar, PWild, PList, PArray, PTuple, PAnon, PTyped, PAs))


def print_pattern(p: Pattern, atom: bool = False) -> str:
    """Source of a pattern; with ``atom`` it is parenthesized unless it is atomic."""
    s = _pat(p)
    if atom and not _pat_is_atom(p):
        return f"({s})"
    return s


def _pat(p: Pattern) -> str:
    if isinstance(p, PVar):
        return _name(p.name)
    if isinstance(p, PWild):
        return "_"
    if isinstance(p, PLit):
        if p.kind == "bool":
            return "true" if p.value else "false"
        if p.kind == "str":
            return _str_lit(str(p.value))
        if p.kind == "char":
            return _char_lit(str(p.value))
        return str(int(p.value))  # type: ignore[call-overload]
    if isinstance(p, PCtor):
        if p.name == "Unit.unit" and not p.args:
            return "()"
        return " ".join([_name(p.name), *(print_pattern(a, atom=True) for a in p.args)])
    if isinstance(p, PCons):
        head = print_pattern(p.head, atom=isinstance(p.head, (PCons, PAdd)))
        tail = print_pattern(p.tail, atom=isinstance(p.tail, PAdd))
        return f"{head} :: {tail}"
    if isinstance(p, PList):
        return "[" + ", ".join(_pat(e) for e in p.elems) + "]"
    if isinstance(p, PArray):
        return "#[" + ", ".join(_pat(e) for e in p.elems) + "]"
    if isinstance(p, PTuple):
        return "(" + ", ".join(_pat(e) for e in p.elems) + ")"
    if isinstance(p, PAnon):
        return "⟨" + ", ".join(_pat(e) for e in p.elems) + "⟩"
    if isinstance(p, PAdd):
        return f"{print_pattern(p.pat, atom=isinstance(p.pat, (PCons, PAdd)))} + {p.k}"
    if isinstance(p, PAs):
        inner = print_pattern(p.pat, atom=True)
        if inner.startswith("["):  # `x@[` would lex as an attribute opener
            inner = f"({inner})"
        return f"{_name(p.name)}@{inner}"
    if isinstance(p, PTyped):
        return f"({_pat(p.pat)} : {print_expr(p.type)})"
    raise LeanError(f"cannot print pattern {type(p).__name__}")


# --------------------------------------------------------------- expressions

# Whatever follows a printed term, as the precedence it would be parsed at:
_NOTHING = -1  # end of input, a closing bracket, ``,``, or a line the layout rules keep apart
_KEYWORD = 0  # ``then``/``else``/``with``/``do``: only constructs open to the right must be closed
_ARGUMENT = LEAD  # another application argument
_TRAILING = MAX  # a field access `.f` or an index `[i]`
_INF = 10**6

# constructs that extend as far right as possible
_OPEN = (Lam, Let, If, Match, Quant, Do, ByTactic, Panic)
# terms after which `.f` needs no parentheses (they end in a bracket or a literal)
_FIELD_BASES = (
    Proj,
    Index,
    Tuple,
    ListLit,
    ArrayLit,
    AnonCtor,
    StructInst,
    UnitLit,
    Typed,
    Range,
    StrLit,
    CharLit,
)


class _Printer:
    def ropen(self, e: Expr) -> int:
        """Least precedence of a following operator that ``e``'s right edge would absorb."""
        if isinstance(e, ByTactic):
            return -2  # a tactic block ends by layout only: always parenthesized by `ex`
        if isinstance(e, _OPEN):
            return 0
        if isinstance(e, BinOp):
            return min(_OPS[e.op][2] if e.op in _OPS else 0, self.ropen(e.rhs))
        if isinstance(e, Arrow):
            return min(25, self.ropen(e.rhs))
        if isinstance(e, UnOp):
            if e.op == "-":
                return min(75, self.ropen(e.expr))
            if e.op in ("¬", "!"):
                return min(40, self.ropen(e.expr))
            return _TRAILING  # `↑x[i]` is `↑(x[i])`
        if isinstance(e, App) and e.args and isinstance(e.args[-1].value, Do) and e.args[-1].name is None:
            return 0
        return _INF

    def prec(self, e: Expr) -> int:
        if isinstance(e, BinOp):
            return _OPS[e.op][0] if e.op in _OPS else 0
        if isinstance(e, Arrow):
            return 25
        if isinstance(e, UnOp):
            return 75 if e.op == "-" else MAX
        if isinstance(e, App):
            return LEAD
        if isinstance(e, Do):
            return ARG
        if isinstance(e, (Let, If, Match, Quant, ByTactic, Panic)):
            return LEAD
        if isinstance(e, Sort) and " " in e.name:
            return LEAD
        return MAX

    def ex(self, e: Expr, ind: int, prec: int = 0, follow: int = _NOTHING) -> Piece:
        """Print ``e`` parsed at precedence ``prec`` and followed by something of precedence ``follow``."""
        if self.prec(e) < prec or self.ropen(e) <= follow:
            return _paren(self.raw(e, ind + 2, _NOTHING))
        return self.raw(e, ind, follow)

    def raw(self, e: Expr, ind: int, follow: int) -> Piece:
        m = getattr(self, "p_" + type(e).__name__, None)
        if m is None:
            raise LeanError(f"cannot print expression {type(e).__name__}")
        return m(e, ind, follow)  # type: ignore[no-any-return]

    # atoms
    def p_Ident(self, e: Ident, ind: int, follow: int) -> Piece:
        return [_name(e.name)]

    def p_NatLit(self, e: NatLit, ind: int, follow: int) -> Piece:
        if e.value < 0:
            raise LeanError("negative natural literal")
        return [str(e.value)]

    def p_FloatLit(self, e: FloatLit, ind: int, follow: int) -> Piece:
        return [e.text]

    def p_StrLit(self, e: StrLit, ind: int, follow: int) -> Piece:
        return [_str_lit(e.value)]

    def p_CharLit(self, e: CharLit, ind: int, follow: int) -> Piece:
        return [_char_lit(e.value)]

    def p_UnitLit(self, e: UnitLit, ind: int, follow: int) -> Piece:
        return ["()"]

    def p_Hole(self, e: Hole, ind: int, follow: int) -> Piece:
        return ["_"]

    def p_Sorry(self, e: Sorry, ind: int, follow: int) -> Piece:
        return ["sorry"]

    def p_Sort(self, e: Sort, ind: int, follow: int) -> Piece:
        return [e.name]

    # brackets
    def seq(self, open_: str, items: list[Expr], close: str, ind: int) -> Piece:
        parts: list[Piece | str] = [open_]
        for k, x in enumerate(items):
            if k:
                parts.append(", ")
            parts.append(self.ex(x, ind + 2))
        parts.append(close)
        return _cat(*parts)

    def p_Tuple(self, e: Tuple, ind: int, follow: int) -> Piece:
        if len(e.elems) < 2:
            raise LeanError("a tuple needs at least two elements")
        return self.seq("(", e.elems, ")", ind)

    def p_ListLit(self, e: ListLit, ind: int, follow: int) -> Piece:
        return self.seq("[", e.elems, "]", ind)

    def p_ArrayLit(self, e: ArrayLit, ind: int, follow: int) -> Piece:
        return self.seq("#[", e.elems, "]", ind)

    def p_AnonCtor(self, e: AnonCtor, ind: int, follow: int) -> Piece:
        return self.seq("⟨", e.elems, "⟩", ind)

    def p_Range(self, e: Range, ind: int, follow: int) -> Piece:
        parts: list[Piece | str] = ["["]
        if e.start is not None:
            parts.append(self.ex(e.start, ind + 2))
        parts += [":", self.ex(e.stop, ind + 2)]
        if e.step is not None:
            parts += [":", self.ex(e.step, ind + 2)]
        parts.append("]")
        return _cat(*parts)

    def p_StructInst(self, e: StructInst, ind: int, follow: int) -> Piece:
        if not e.fields and e.with_expr is None:
            return ["{}"]
        head: Piece = ["{ "]
        if e.with_expr is not None:
            head = _cat("{ ", self.ex(e.with_expr, ind + 2, 0, _KEYWORD), " with")
        # values are parenthesized unless atomic: fields share one column (Lean's sepByIndent)
        fields = [(name, self.ex(v, ind + 6, MAX, _ARGUMENT)) for name, v in e.fields]
        if all(_single(v) for _, v in fields) and _single(head):
            body = ", ".join(f"{name} := {v[0]}" for name, v in fields)
            sep = " " if e.with_expr is not None and body else ""
            return [head[0] + sep + body + " }"]
        out = list(head)
        for k, (name, v) in enumerate(fields):
            line = _cat(" " * (ind + 2) + f"{name} := ", v)
            if k < len(fields) - 1:
                line[-1] += ","
            out.extend(line)
        out[-1] += " }"
        return out

    def p_Typed(self, e: Typed, ind: int, follow: int) -> Piece:
        return _cat("(", self.ex(e.expr, ind + 2), " : ", self.ex(e.type, ind + 2), ")")

    # trailing forms
    def p_Proj(self, e: Proj, ind: int, follow: int) -> Piece:
        base = e.expr
        if isinstance(base, Ident) and e.field.isdigit() and not base.name.startswith("."):
            b = [_name(base.name)]  # `p.1`
        elif isinstance(base, _FIELD_BASES):
            b = self.ex(base, ind, MAX, _TRAILING)
        else:  # `x.f` would lex as one name, `5.2` as a number, `Prop.f` as a name
            b = _paren(self.raw(base, ind + 2, _NOTHING))
        return _cat(b, "." + e.field)

    def p_Index(self, e: Index, ind: int, follow: int) -> Piece:
        b = self.ex(e.expr, ind, MAX, _TRAILING)
        return _cat(b, "[", self.ex(e.index, ind + 2), "]" + e.kind)

    def p_App(self, e: App, ind: int, follow: int) -> Piece:
        if not e.args:
            raise LeanError("an application needs arguments")
        fn = self.ex(e.fn, ind, MAX, _ARGUMENT)
        if isinstance(e.fn, Sort):  # `Type u` is a universe level, not an application
            fn = _paren(fn)
        parts: list[Piece | str] = [fn]
        last = len(e.args) - 1
        for k, a in enumerate(e.args):
            parts.append(" ")
            if a.name is not None:
                parts.append(_cat(f"({a.name} := ", self.ex(a.value, ind + 4), ")"))
            elif isinstance(a.value, Do) and k == last:
                parts.append(self.raw(a.value, ind + 2, follow))  # `Id.run do …` at the right edge
            else:
                parts.append(self.ex(a.value, ind + 2, ARG, _ARGUMENT))
        return _cat(*parts)

    def p_Panic(self, e: Panic, ind: int, follow: int) -> Piece:
        return _cat("panic! ", self.ex(e.msg, ind + 2, 0, follow))

    # operators
    def p_BinOp(self, e: BinOp, ind: int, follow: int) -> Piece:
        if e.op not in _OPS:
            raise LeanError(f"cannot print operator {e.op!r}")
        p, lp, rp = _OPS[e.op]
        lhs = self.ex(e.lhs, ind, lp, p)
        rhs = self.ex(e.rhs, ind + 2, rp, follow)
        if rhs[0] == "" or not _single(lhs) or not _single(rhs) or len(lhs[0]) + len(rhs[0]) < _WIDTH:
            return _cat(lhs, f" {e.op} ", rhs)
        return _cat(lhs, f" {e.op}", ["", " " * (ind + 2) + rhs[0]])

    def p_UnOp(self, e: UnOp, ind: int, follow: int) -> Piece:
        if e.op == "-":
            inner = self.ex(e.expr, ind + 2, 75, follow)
            if inner[0].startswith("-"):  # `--` would start a comment
                inner = _paren(self.raw(e.expr, ind + 2, _NOTHING))
            return _cat("-", inner)
        if e.op == "↑":
            return _cat("↑", self.ex(e.expr, ind + 2, MAX, _ARGUMENT))
        if e.op in ("¬", "!"):
            return _cat(e.op, self.ex(e.expr, ind + 2, 40, follow))
        raise LeanError(f"cannot print unary operator {e.op!r}")

    def p_Arrow(self, e: Arrow, ind: int, follow: int) -> Piece:
        rhs = self.ex(e.rhs, ind + 2, 25, follow)
        if e.name is not None:
            return _cat(f"({e.name} : ", self.ex(e.lhs, ind + 2), ") → ", rhs)
        lhs = self.ex(e.lhs, ind, 26, 25)
        if isinstance(e.lhs, Typed):  # `(x : A) → B` would read as a dependent arrow
            lhs = _paren(lhs)
        return _cat(lhs, " → ", rhs)

    # binders
    def binder(self, b: Binder, ind: int) -> str:
        ty = None if b.type is None else self.one_line(b.type, ind)
        if b.kind == "inst":
            if ty is None:
                raise LeanError("an instance binder needs a type")
            return f"[{b.pat.name} : {ty}]" if isinstance(b.pat, PVar) else f"[{ty}]"
        if b.kind in ("implicit", "strict"):
            if not isinstance(b.pat, (PVar, PWild)):
                raise LeanError("an implicit binder must be a name")
            o, c = ("{", "}") if b.kind == "implicit" else ("⦃", "⦄")
            return f"{o}{_pat(b.pat)}{'' if ty is None else ' : ' + ty}{c}"
        if ty is None:
            return print_pattern(b.pat, atom=True)
        return f"({_pat(b.pat)} : {ty})"

    def one_line(self, e: Expr, ind: int, follow: int = _NOTHING) -> str:
        p = self.ex(e, ind, 0, follow)
        if not _single(p):
            return "\n".join(_paren(self.raw(e, ind + 2, _NOTHING)))
        return p[0]

    # open constructs (their right edge extends to ``follow``)
    def p_Lam(self, e: Lam, ind: int, follow: int) -> Piece:
        if not e.binders:
            raise LeanError("a function needs binders")
        head = "fun " + " ".join(self.binder(b, ind) for b in e.binders) + " =>"
        body = self.ex(e.body, ind + 2, 0, follow)
        if body[0] == "":
            return _cat(head, body)
        return _cat(head + " ", body)

    def p_Quant(self, e: Quant, ind: int, follow: int) -> Piece:
        if not isinstance(e.pat, (PVar, PWild)):
            raise LeanError("a quantifier binds a name")
        head = f"{e.kind} {_pat(e.pat)}"
        if e.bound is not None:
            if e.type is not None:
                raise LeanError("cannot print a quantifier with both a type and a bound")
            head += f" {e.bound[0]} " + self.one_line(e.bound[1], ind + 2)
        elif e.type is not None:
            head += " : " + self.one_line(e.type, ind + 2)
        body = self.ex(e.body, ind + 2, 0, follow)
        if body[0] == "":
            return _cat(head + ",", body)
        return _cat(head + ", ", body)

    def p_If(self, e: If, ind: int, follow: int) -> Piece:
        hyp = f"{e.hyp} : " if e.hyp is not None else ""
        cond = self.ex(e.cond, ind + 4, 0, _KEYWORD)
        if isinstance(e.cond, Let) or (e.hyp is None and cond[0].startswith("let ")):
            cond = _paren(self.raw(e.cond, ind + 4, _NOTHING))  # not `if let`
        then = self.ex(e.then, ind + 2, 0, _KEYWORD)
        chain = isinstance(e.els, If)
        els = self.ex(e.els, ind if chain else ind + 2, 0, follow)
        flat = _single(cond) and _single(then) and _single(els) and then[0] and els[0]
        if flat and len(cond[0]) + len(then[0]) + len(els[0]) < _WIDTH:
            return [f"if {hyp}{cond[0]} then {then[0]} else {els[0]}"]
        out = _cat(f"if {hyp}", cond, " then", self.block(then, ind + 2))
        out.append(" " * ind + "else")
        if chain and els[0]:
            out[-1] += " "
            return _cat(out, els)
        return _cat(out, self.block(els, ind + 2))

    @staticmethod
    def block(p: Piece, ind: int) -> Piece:
        """``p`` starting on a new line at ``ind``."""
        if p[0] == "":
            return p
        return ["", " " * ind + p[0], *p[1:]]

    def let_pattern(self, pat: Pattern) -> str:
        if isinstance(pat, (PVar, PWild)):
            return _pat(pat)
        if isinstance(pat, (PCtor, PAs, PLit, PCons, PAdd)):
            return f"({_pat(pat)})"  # `let some x := e` would define a function `some`
        return _pat(pat)

    def p_Let(self, e: Let, ind: int, follow: int) -> Piece:
        pad = " " * ind
        if e.is_have:
            kw = "have "
        else:
            kw = "let rec " if e.is_rec else "let "
        head = pad + kw + self.let_pattern(e.pat)
        if e.type is not None:
            head += " : " + self.one_line(e.type, ind + 4)
        head += " :="
        value = (
            self.raw(e.value, ind + 4, _NOTHING)
            if isinstance(e.value, ByTactic)
            else self.ex(e.value, ind + 4)
        )
        out: Piece = ["", head]
        if value[0] == "":
            out.extend(value[1:])
        else:
            out[-1] += " " + value[0]
            out.extend(value[1:])
        body = self.ex(e.body, ind, 0, follow)
        if body[0].startswith("-"):  # would continue the value as a subtraction
            body = _paren(self.raw(e.body, ind + 2, _NOTHING))
        out.extend(self.block(body, ind)[1:])
        return out

    def discr_list(self, discrs: list[Expr], names: list[str | None], ind: int) -> str:
        out = []
        for k, d in enumerate(discrs):
            name = names[k] if k < len(names) else None
            out.append((f"{name} : " if name is not None else "") + self.one_line(d, ind, _KEYWORD))
        return ", ".join(out)

    def p_Match(self, e: Match, ind: int, follow: int) -> Piece:
        pad = " " * ind
        out: Piece = ["", pad + "match " + self.discr_list(e.discrs, e.discr_names, ind + 4) + " with"]
        for arm in e.arms:
            alts = " | ".join(", ".join(_pat(p) for p in alt) for alt in arm.alts)
            rhs = self.ex(arm.rhs, ind + 4, 0, follow)
            out.append(f"{pad}| {alts} =>")
            if rhs[0] == "":
                out.extend(rhs[1:])
            else:
                out[-1] += " " + rhs[0]
                out.extend(rhs[1:])
        return out

    def p_ByTactic(self, e: ByTactic, ind: int, follow: int) -> Piece:
        pad = " " * (ind + 2)
        return ["by", *((pad + ln).rstrip() for ln in e.text.split("\n"))]

    def p_Do(self, e: Do, ind: int, follow: int) -> Piece:
        return ["do", *self.stmts(e.stmts, ind)]

    # ------------------------------------------------------------ statements
    def stmts(self, ss: list[DoStmt], ind: int) -> list[str]:
        if not ss:
            raise LeanError("cannot print an empty statement block")
        out: list[str] = []
        for s in ss:
            p = self.stmt(s, ind)
            out.append(" " * ind + p[0])
            out.extend(p[1:])
        return out

    def stmt(self, s: DoStmt, ind: int) -> Piece:
        if isinstance(s, DoLet):
            head = ("let mut " if s.mut else "let ") + self.let_pattern(s.pat)
            if s.type is not None:
                head += " : " + self.one_line(s.type, ind + 4)
            head += " ← " if s.arrow else " := "
            return _cat(head, self.ex(s.value, ind + 4))
        if isinstance(s, DoAssign):
            if s.op is not None:
                raise LeanError("cannot print compound assignment")
            if not isinstance(s.target, (PVar, PWild, PTuple, PAnon)):
                raise LeanError("cannot print this assignment target")
            return _cat(_pat(s.target) + (" ← " if s.arrow else " := "), self.ex(s.value, ind + 4))
        if isinstance(s, DoFor):
            it = self.ex(s.iterable, ind + 4, 0, _KEYWORD)
            head = _cat(f"for {print_pattern(s.pat, atom=True)} in ", it, " do")
            return [*head, *self.stmts(s.body, ind + 2)]
        if isinstance(s, DoWhile):
            if s.cond is None:
                return ["repeat", *self.stmts(s.body, ind + 2)]
            head = _cat("while ", self.ex(s.cond, ind + 4, 0, _KEYWORD), " do")
            return [*head, *self.stmts(s.body, ind + 2)]
        if isinstance(s, DoIf):
            hyp = f"{s.hyp} : " if s.hyp is not None else ""
            cond = self.ex(s.cond, ind + 4, 0, _KEYWORD)
            if isinstance(s.cond, Let):
                cond = _paren(self.raw(s.cond, ind + 4, _NOTHING))
            out = [*_cat(f"if {hyp}", cond, " then"), *self.stmts(s.then, ind + 2)]
            if s.els:
                out.append(" " * ind + "else")
                out.extend(self.stmts(s.els, ind + 2))
            return out
        if isinstance(s, DoMatch):
            pad = " " * ind
            out = [f"match {self.discr_list(s.discrs, [], ind + 4)} with"]
            for alts, body in s.arms:
                alt = " | ".join(", ".join(_pat(p) for p in a) for a in alts)
                out.append(f"{pad}| {alt} =>")
                out.extend(self.stmts(body, ind + 4))
            return out
        if isinstance(s, DoReturn):
            if s.value is None:
                return ["return"]
            v = self.ex(s.value, ind + 4)
            if v[0] == "":  # the value must start on the `return` line
                v = _paren(self.raw(s.value, ind + 4, _NOTHING))
            return _cat("return ", v)
        if isinstance(s, DoBreak):
            return ["break"]
        if isinstance(s, DoContinue):
            return ["continue"]
        if isinstance(s, DoExpr):
            e = s.expr
            p = self.ex(e, ind + 2)
            # a statement-level `if`/`match`/`let` would be read as a statement form
            if isinstance(e, (If, Match, Let, Do)) or p[0].startswith(("-", "{")) or p[0] == "":
                p = _paren(self.raw(e, ind + 2, _NOTHING))
            return p
        raise LeanError(f"cannot print statement {type(s).__name__}")


def _join(p: Piece) -> str:
    lines = [ln.rstrip() for ln in p]
    if lines and lines[0] == "":
        lines = lines[1:]
    return "\n".join(lines)


def print_expr(e: Expr) -> str:
    """Lean source for a term (top level, column 1)."""
    return _join(_Printer().ex(e, 0))


# -------------------------------------------------------------- declarations


def _def_lines(d: Def, ind: int, pr: _Printer) -> list[str]:
    pad = " " * ind
    out: list[str] = []
    if d.attrs:
        out.append(pad + "@[" + ", ".join(d.attrs) + "]")
    head = pad + ("partial " if d.partial else "") + (d.kind + " " if ind == 0 else "") + d.name
    for b in d.binders:
        head += " " + pr.binder(b, ind + 4)
    if d.type is not None:
        head += " : " + pr.one_line(d.type, ind + 4)
    head += " :="
    body = pr.raw(d.body, ind + 2, _NOTHING) if isinstance(d.body, ByTactic) else pr.ex(d.body, ind + 2)
    if body[0] == "":
        out.append(head)
        out.extend(body[1:])
    else:
        out.append(head + " " + body[0])
        out.extend(body[1:])
    if d.where_defs:
        out.append(pad + "where")
        for w in d.where_defs:
            if w.where_defs:
                raise LeanError("nested where clauses cannot be printed")
            out.extend(_def_lines(w, ind + 2, pr))
    return out


def print_decl(d: Decl) -> str:
    """Lean source for one top-level declaration."""
    pr = _Printer()
    if isinstance(d, Def):
        return "\n".join(ln.rstrip() for ln in _def_lines(d, 0, pr))
    if isinstance(d, StructureDecl):
        head = "structure " + d.name + "".join(" " + pr.binder(b, 4) for b in d.params) + " where"
        lines = [head]
        for name, ty, default in d.fields:
            ln = f"  {name} : {pr.one_line(ty, 4)}"
            if default is not None:
                ln += " := " + pr.one_line(default, 4)
            lines.append(ln)
        if d.deriving:
            lines.append("deriving " + ", ".join(d.deriving))
        return "\n".join(lines)
    if isinstance(d, InstanceDecl):
        head = "instance" + ("" if d.name is None else " " + d.name)
        head += "".join(" " + pr.binder(b, 4) for b in d.binders)
        head += " : " + pr.one_line(d.cls, 4)
        if d.value is not None:
            return _join(_cat(head + " := ", pr.ex(d.value, 2)))
        lines = [head + " where"]
        for m in d.methods:
            lines.extend(ln.rstrip() for ln in _def_lines(m, 2, pr))
        return "\n".join(lines)
    if isinstance(d, OpenDecl):
        return "open " + " ".join(d.names)
    if isinstance(d, NamespaceDecl):
        inner = print_module(d.decls)
        return (
            f"namespace {d.name}\n\n{inner}\n\nend {d.name}" if inner else f"namespace {d.name}\nend {d.name}"
        )
    if isinstance(d, OtherDecl):
        return d.text
    raise LeanError(f"cannot print declaration {type(d).__name__}")


def print_module(decls: list[Decl]) -> str:
    """Lean source for a list of declarations, separated by blank lines."""
    return "\n\n".join(print_decl(d) for d in decls)
