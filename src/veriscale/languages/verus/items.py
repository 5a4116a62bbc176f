"""Item-level structure of Rust/Verus source: functions, structs, impls, consts, uses.

A light scanner over ``lexer`` tokens, not a full parser: it finds items (also
inside ``verus! { … }`` and ``impl`` blocks), a function's signature, its
specification clauses (``requires``/``ensures``/…, each split into its
top-level comma-separated expressions) and its body. Everything is kept as
token index ranges plus offsets into the source, so callers can both read the
pieces and cut them out of the text.

The one subtle point is where a function body starts after a clause list,
because clause expressions may contain braces (``if c { a } else { b }``,
``forall|i| { … }``). A depth-0 ``{`` after a clause keyword opens an
expression block when an operand is still expected (the previous token is an
operator, ``else``, ``=>``, a closure's closing ``|``) or an ``if``/``match``
of the clause has not had its block yet; otherwise it is the body.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .lexer import Tok, tokenize

__all__ = [
    "CLAUSE_KEYWORDS",
    "Clause",
    "ConstItem",
    "FnItem",
    "Param",
    "SourceItems",
    "StructItem",
    "find_block_end",
    "find_body_start",
    "match_close",
    "scan_items",
    "split_top_level",
]

CLAUSE_KEYWORDS = frozenset(
    {
        "requires",
        "ensures",
        "recommends",
        "decreases",
        "returns",
        "invariant",
        "invariant_except_break",
        "invariant_ensures",
        "opens_invariants",
        "no_unwind",
        "via",
        "when",
    }
)
_MODIFIERS = frozenset(
    {"pub", "open", "closed", "spec", "proof", "exec", "const", "unsafe", "async", "tracked", "broadcast",
     "uninterp", "axiom", "extern", "default", "ghost", "checked"}
)  # fmt: skip
_OPERAND_EXPECTED = frozenset(
    {"==>", "<==>", "<==", "&&", "||", "&&&", "|||", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/",
     "%", "=", "=>", "!", "&", "^", "<<", ">>", "|", "=~=", "=~~=", "===", "!==", "..", "..=", "else", "in",
     "return", "(", "[", ",", ";", "let"}
)  # fmt: skip
_OPEN = {"(": ")", "[": "]", "{": "}"}


class ScanError(ValueError):
    """Source whose item structure the scanner cannot follow."""


@dataclass
class Param:
    name: str
    type_text: str
    start: int  # token indices, inclusive start / exclusive end, of the whole ``name: T``
    end: int


@dataclass
class Clause:
    keyword: str
    kw_index: int  # token index of the keyword
    exprs: list[tuple[int, int]]  # token ranges (exclusive end) of the comma-separated expressions
    end: int  # token index after the clause


@dataclass
class FnItem:
    name: str
    owner: str | None  # enclosing ``impl`` type
    mode: str  # "exec", "spec" or "proof"
    modifiers: list[str]
    start: int  # first token of the item (attributes included)
    fn_index: int  # the ``fn`` keyword
    params: list[Param]
    receiver: str | None  # "&self", "&mut self", "self" or None
    ret_name: str | None
    ret_type: str | None
    sig_end: int  # token index after the return type (first clause keyword or body)
    clauses: list[Clause]
    body: tuple[int, int] | None  # token indices of ``{`` and ``}``
    end: int  # token index after the item

    def clause(self, keyword: str) -> Clause | None:
        for c in self.clauses:
            if c.keyword == keyword:
                return c
        return None


@dataclass
class StructItem:
    name: str
    fields: list[tuple[str, str]]  # (name, type text); tuple structs number their fields
    start: int
    end: int
    kind: str = "struct"  # or "enum"


@dataclass
class ConstItem:
    name: str
    type_text: str
    value: tuple[int, int]  # token range of the value expression
    start: int
    end: int
    spec: bool = False


@dataclass
class SourceItems:
    src: str
    toks: list[Tok]
    fns: list[FnItem] = field(default_factory=list)
    structs: list[StructItem] = field(default_factory=list)
    consts: list[ConstItem] = field(default_factory=list)
    uses: list[tuple[int, int]] = field(default_factory=list)  # token ranges of ``use`` items
    impls: list[tuple[str, int, int]] = field(default_factory=list)  # (type, start, end) token ranges
    macros: list[tuple[str, int, int]] = field(default_factory=list)  # (name, ``!`` index, close index)

    def text(self, start: int, end: int) -> str:
        """Source text of token range [start, end)."""
        if start >= end:
            return ""
        return self.src[self.toks[start].start : self.toks[end - 1].end]

    def fn(self, name: str, owner: str | None = None) -> FnItem | None:
        for f in self.fns:
            if f.name == name and (owner is None or f.owner == owner):
                return f
        return None


def match_close(toks: list[Tok], i: int) -> int:
    """Index of the bracket closing the one at ``i`` (``(``, ``[`` or ``{``)."""
    stack = [toks[i].text]
    j = i + 1
    n = len(toks)
    while j < n:
        t = toks[j]
        if t.kind == "punct":
            if t.text in _OPEN:
                stack.append(t.text)
            elif t.text in (")", "]", "}"):
                if _OPEN[stack[-1]] != t.text:
                    raise ScanError(f"mismatched {t.text!r} at line {t.line}")
                stack.pop()
                if not stack:
                    return j
        j += 1
    raise ScanError(f"unclosed {toks[i].text!r} at line {toks[i].line}")


def _match_angle(toks: list[Tok], i: int) -> int:
    """Index after the ``>`` closing generics opened at ``i``; ``>>`` counts twice."""
    depth = 0
    j = i
    while j < len(toks):
        t = toks[j].text
        if t == "<":
            depth += 1
        elif t == ">":
            depth -= 1
        elif t == ">>":
            depth -= 2
        elif t in ("(", "["):
            j = match_close(toks, j)
        elif t in ("{", ";"):
            raise ScanError(f"unclosed generics at line {toks[i].line}")
        if depth <= 0:
            return j + 1
        j += 1
    raise ScanError("unclosed generics")


def split_top_level(
    toks: list[Tok], start: int, end: int, sep: str = ",", types: bool = False
) -> list[tuple[int, int]]:
    """Split token range [start, end) at depth-0 separators; empty pieces are dropped.

    Closure/quantifier binder lists (``|a, b|``) and turbofish generics are not split;
    with ``types`` (parameter lists, fields) every ``<…>`` is treated as generics.
    """
    pieces: list[tuple[int, int]] = []
    j = start
    piece = start
    angle = 0
    while j < end:
        t = toks[j]
        if t.kind == "punct" and t.text in _OPEN:
            j = match_close(toks, j) + 1
            continue
        if t.kind == "punct" and t.text == "|" and _opens_binders(toks, j):
            k = j + 1
            while k < end and toks[k].text != "|":
                if toks[k].text in _OPEN:
                    k = match_close(toks, k)
                k += 1
            j = k + 1
            continue
        if t.text == "<" and (types or (j > start and toks[j - 1].text == "::")):
            angle += 1
        elif t.text == ">" and angle:
            angle -= 1
        elif t.text == ">>" and angle:
            angle = max(0, angle - 2)
        elif t.text == sep and t.kind == "punct" and angle == 0:
            if j > piece:
                pieces.append((piece, j))
            piece = j + 1
        j += 1
    if end > piece:
        pieces.append((piece, end))
    return pieces


def _opens_binders(toks: list[Tok], j: int) -> bool:
    """Is the ``|`` at ``j`` the start of a quantifier/closure binder list?"""
    if j == 0:
        return True
    prev = toks[j - 1]
    if prev.text in ("forall", "exists", "choose", "move"):
        return True
    return prev.kind == "punct" and prev.text in _OPERAND_EXPECTED and prev.text != "|"


def find_body_start(toks: list[Tok], i: int, end: int | None = None) -> int | None:
    """From token ``i`` (just after a signature or loop header), the index of the body ``{``.

    Returns None when a ``;`` ends the item first (a declaration without body).
    """
    n = len(toks) if end is None else end
    in_clause = False
    pending = 0  # ``if``/``match`` still waiting for their block
    j = i
    while j < n:
        t = toks[j]
        if t.kind == "ident" and t.text in CLAUSE_KEYWORDS and (j + 1 >= n or toks[j + 1].text != "::"):
            in_clause = True
            pending = 0
            j += 1
            continue
        if t.kind == "punct":
            if t.text == ";":
                return None
            if t.text in ("(", "["):
                j = match_close(toks, j) + 1
                continue
            if t.text == "|" and j > 0 and toks[j - 1].text in ("forall", "exists", "choose"):
                k = j + 1
                while k < n and toks[k].text != "|":
                    if toks[k].text in _OPEN:
                        k = match_close(toks, k)
                    k += 1
                j = k + 1
                if j < n and toks[j].text == "{":
                    j = match_close(toks, j) + 1
                continue
            if t.text == "{":
                prev = toks[j - 1] if j > i else None
                is_block = in_clause and (
                    pending > 0
                    or (prev is not None and prev.text in CLAUSE_KEYWORDS)
                    or (prev is not None and prev.text in _OPERAND_EXPECTED and prev.text != ",")
                )
                if not is_block:
                    return j
                if pending > 0:
                    pending -= 1
                j = match_close(toks, j) + 1
                continue
        elif t.kind == "ident" and t.text in ("if", "match") and in_clause:
            pending += 1
        j += 1
    return None


def find_block_end(toks: list[Tok], i: int) -> int:
    """Index after the ``{ … }`` block starting at ``i``."""
    return match_close(toks, i) + 1


class _Scanner:
    def __init__(self, src: str, toks: list[Tok]) -> None:
        self.out = SourceItems(src, toks)
        self.toks = toks
        self.n = len(toks)

    def text(self, a: int, b: int) -> str:
        return self.out.text(a, b)

    def items(self, i: int, end: int, owner: str | None) -> None:
        toks = self.toks
        while i < end:
            start = i
            # attributes
            while i < end and toks[i].text == "#":
                j = i + 1
                if j < end and toks[j].text == "!":
                    j += 1
                if j < end and toks[j].text == "[":
                    i = match_close(toks, j) + 1
                else:
                    i = j
            mods: list[str] = []
            while i < end and toks[i].kind == "ident" and toks[i].text in _MODIFIERS:
                if (
                    toks[i].text == "const"
                    and i + 1 < end
                    and toks[i + 1].kind == "ident"
                    and (toks[i + 1].text not in ("fn", "unsafe", "async", "extern"))
                ):
                    break  # ``const NAME``: a const item, not a const fn
                mods.append(toks[i].text)
                i += 1
                if i < end and toks[i].text == "(" and mods[-1] == "pub":  # pub(crate)
                    i = match_close(toks, i) + 1
            if i >= end:
                break
            t = toks[i]
            if t.text == ";":
                i += 1
            elif t.text == "fn":
                i = self.fn(start, i, mods, owner)
            elif t.text in ("struct", "enum", "union"):
                i = self.struct(start, i)
            elif t.text == "impl":
                i = self.impl(start, i)
            elif t.text in ("trait", "mod"):
                i = self.skip_block_item(i)
            elif t.text == "use":
                j = i
                while j < end and toks[j].text != ";":
                    if toks[j].text == "{":
                        j = match_close(toks, j)
                    j += 1
                self.out.uses.append((start, j + 1))
                i = j + 1
            elif t.text in ("const", "static") or (
                t.text == "spec" and i + 1 < end and toks[i + 1].text == "const"
            ):
                i = self.const(start, i, "spec" in mods)
            elif t.text == "type":
                while i < end and toks[i].text != ";":
                    i += 1
                i += 1
            elif t.kind == "ident" and i + 1 < end and toks[i + 1].text == "!":
                i = self.macro(i)
            elif t.text == "extern":
                i = self.skip_block_item(i)
            else:
                raise ScanError(f"unexpected {t.text!r} at item level (line {t.line})")

    def skip_block_item(self, i: int) -> int:
        toks = self.toks
        while i < self.n and toks[i].text not in ("{", ";"):
            i += 1
        if i >= self.n:
            return i
        if toks[i].text == ";":
            return i + 1
        return match_close(toks, i) + 1

    def macro(self, i: int) -> int:
        toks = self.toks
        name = toks[i].text
        j = i + 2
        if j >= self.n or toks[j].text not in _OPEN:
            raise ScanError(f"malformed macro invocation at line {toks[i].line}")
        close = match_close(toks, j)
        self.out.macros.append((name, i + 1, close))
        if name == "verus" and toks[j].text == "{":
            self.items(j + 1, close, None)
        k = close + 1
        if k < self.n and toks[k].text == ";":
            k += 1
        return k

    def impl(self, start: int, i: int) -> int:
        toks = self.toks
        j = i + 1
        if j < self.n and toks[j].text == "<":
            j = _match_angle(toks, j)
        # the implemented type is the last path before ``{`` (``impl Trait for Type``)
        k = j
        names: list[str] = []
        while k < self.n and toks[k].text != "{":
            if toks[k].kind == "ident" and toks[k].text not in ("for", "where", "dyn", "mut"):
                names.append(toks[k].text)
            if toks[k].text == "for":
                names = []
            if toks[k].text == "<":
                k = _match_angle(toks, k)
                continue
            k += 1
        if k >= self.n:
            raise ScanError("impl without body")
        close = match_close(toks, k)
        owner = names[0] if names else "?"
        self.out.impls.append((owner, start, close + 1))
        self.items(k + 1, close, owner)
        return close + 1

    def struct(self, start: int, i: int) -> int:
        toks = self.toks
        kind = toks[i].text
        name = toks[i + 1].text
        j = i + 2
        if j < self.n and toks[j].text == "<":
            j = _match_angle(toks, j)
        fields: list[tuple[str, str]] = []
        if toks[j].text == ";":
            self.out.structs.append(StructItem(name, fields, start, j + 1, kind))
            return j + 1
        if toks[j].text == "(":
            close = match_close(toks, j)
            for k, (a, b) in enumerate(split_top_level(toks, j + 1, close, types=True)):
                a = self._skip_attrs_vis(a, b)
                fields.append((str(k), self.text(a, b)))
            end = close + 1
            if end < self.n and toks[end].text == ";":
                end += 1
            self.out.structs.append(StructItem(name, fields, start, end, kind))
            return end
        while toks[j].text != "{":  # where clauses
            j += 1
        close = match_close(toks, j)
        if kind == "struct":
            for a, b in split_top_level(toks, j + 1, close, types=True):
                a = self._skip_attrs_vis(a, b)
                if b - a >= 3 and toks[a + 1].text == ":":
                    fields.append((toks[a].text, self.text(a + 2, b)))
        else:
            for a, b in split_top_level(toks, j + 1, close):
                a = self._skip_attrs_vis(a, b)
                fields.append((toks[a].text, self.text(a + 1, b)))
        self.out.structs.append(StructItem(name, fields, start, close + 1, kind))
        return close + 1

    def _skip_attrs_vis(self, a: int, b: int) -> int:
        toks = self.toks
        while a < b and toks[a].text == "#":
            a = match_close(toks, a + 1) + 1
        while a < b and toks[a].text in ("pub", "ghost", "tracked"):
            a += 1
            if a < b and toks[a].text == "(":
                a = match_close(toks, a) + 1
        return a

    def const(self, start: int, i: int, spec: bool) -> int:
        toks = self.toks
        if toks[i].text == "spec":
            spec = True
            i += 1
        name = toks[i + 1].text
        j = i + 2
        type_text = ""
        if toks[j].text == ":":
            k = j + 1
            while toks[k].text not in ("=", ";"):
                if toks[k].text in _OPEN:
                    k = match_close(toks, k)
                k += 1
            type_text = self.text(j + 1, k)
            j = k
        if toks[j].text == "=":
            k = j + 1
            while toks[k].text != ";":
                if toks[k].text in _OPEN:
                    k = match_close(toks, k)
                k += 1
            self.out.consts.append(ConstItem(name, type_text, (j + 1, k), start, k + 1, spec))
            return k + 1
        return j + 1

    def fn(self, start: int, i: int, mods: list[str], owner: str | None) -> int:
        toks = self.toks
        name = toks[i + 1].text
        j = i + 2
        if toks[j].text == "<":
            j = _match_angle(toks, j)
        if toks[j].text != "(":
            raise ScanError(f"fn {name}: expected parameters at line {toks[j].line}")
        pclose = match_close(toks, j)
        params: list[Param] = []
        receiver: str | None = None
        for a, b in split_top_level(toks, j + 1, pclose, types=True):
            a = self._skip_attrs_vis(a, b)
            words = [toks[k].text for k in range(a, b)]
            if "self" in words and ":" not in words:
                receiver = "".join(w if w != "mut" else "mut " for w in words).replace("&mut ", "&mut ")
                continue
            # ``name: T``, ``mut name: T``, ``tracked name: T``
            k = a
            while k < b and toks[k].text in ("mut", "tracked", "ghost"):
                k += 1
            colon = k + 1
            if colon >= b or toks[colon].text != ":":
                raise ScanError(f"fn {name}: unsupported parameter pattern {self.text(a, b)!r}")
            params.append(Param(toks[k].text, self.text(colon + 1, b), a, b))
        j = pclose + 1
        ret_name: str | None = None
        ret_type: str | None = None
        if j < self.n and toks[j].text == "->":
            j += 1
            if toks[j].text == "(" and toks[j + 1].kind == "ident" and toks[j + 2].text == ":":
                rclose = match_close(toks, j)
                ret_name = toks[j + 1].text
                ret_type = self.text(j + 3, rclose)
                j = rclose + 1
            else:
                k = j
                while k < self.n:
                    t = toks[k]
                    if t.text in ("{", ";", "where") or (t.kind == "ident" and t.text in CLAUSE_KEYWORDS):
                        break
                    if t.text == "<":
                        k = _match_angle(toks, k)
                        continue
                    if t.text in ("(", "["):
                        k = match_close(toks, k) + 1
                        continue
                    k += 1
                ret_type = self.text(j, k)
                j = k
        sig_end = j
        body_open = find_body_start(toks, j)
        clause_end = body_open if body_open is not None else self._decl_end(j)
        clauses = self.clauses(j, clause_end)
        mode = "spec" if "spec" in mods else "proof" if "proof" in mods else "exec"
        if body_open is None:
            end = clause_end + 1
            body = None
        else:
            close = match_close(toks, body_open)
            body = (body_open, close)
            end = close + 1
        self.out.fns.append(
            FnItem(name, owner, mode, mods, start, i, params, receiver, ret_name, ret_type, sig_end, clauses,
                   body, end)
        )  # fmt: skip
        return end

    def _decl_end(self, j: int) -> int:
        toks = self.toks
        while j < self.n and toks[j].text != ";":
            if toks[j].text in _OPEN:
                j = match_close(toks, j)
            j += 1
        return j

    def clauses(self, i: int, end: int) -> list[Clause]:
        toks = self.toks
        out: list[Clause] = []
        kws = [
            k
            for k in self._depth0(i, end)
            if toks[k].kind == "ident" and toks[k].text in CLAUSE_KEYWORDS and toks[k + 1].text != "::"
        ]
        for n, k in enumerate(kws):
            stop = kws[n + 1] if n + 1 < len(kws) else end
            out.append(Clause(toks[k].text, k, split_top_level(toks, k + 1, stop), stop))
        return out

    def _depth0(self, i: int, end: int) -> list[int]:
        toks = self.toks
        idx: list[int] = []
        j = i
        while j < end:
            if toks[j].text in _OPEN and toks[j].kind == "punct":
                j = match_close(toks, j) + 1
                continue
            idx.append(j)
            j += 1
        return idx


def scan_items(src: str, toks: list[Tok] | None = None) -> SourceItems:
    """Scan the items of a Rust/Verus source file."""
    toks = tokenize(src) if toks is None else toks
    sc = _Scanner(src, toks)
    sc.items(0, len(toks), None)
    return sc.out
