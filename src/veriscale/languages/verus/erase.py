"""Verus erasure: turn Verus source into plain Rust that ``rustc`` compiles.

Works on tokens (``lexer``) and item structure (``items``), cutting spans out
of the original text so the executable code stays byte-for-byte as written:

* ``verus! { … }`` is unwrapped; ``use vstd::…`` and ``broadcast use`` go;
* ``spec``/``proof`` functions, ``spec const`` and ghost-only types (structs
  and enums no executable code mentions) go, attributes included;
* exec functions lose ``requires``/``ensures``/``recommends``/``decreases``/…
  clauses, ``#[verifier::…]`` attributes, the Verus-only ``exec`` modifier,
  and their named return (``-> (r: T)`` becomes ``-> T``);
* in bodies: ``proof { … }`` blocks; ``assert(…)`` with optional
  ``by (…) requires … { … }``; ``assert forall … by { … }``; ``assume``,
  ``reveal``, ``reveal_with_fuel`` and vstd proof macros
  (``assert_seqs_equal!`` …); ``let ghost``/``let tracked``/``Ghost<…>``
  bindings and later assignments to those variables; loop
  ``invariant``/``decreases`` clauses; ``#[trigger]``/``#![…]`` attributes.

The result still uses the few vstd exec APIs the benchmark needs
(``Vec::set``, ``unicode_len``, ``get_char``); ``prelude.SHIMS`` provides
them, and the harness adds them. ``erase`` raises ``EraseError`` when the
source cannot be tokenized or its items cannot be followed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .items import CLAUSE_KEYWORDS, ScanError, SourceItems, find_body_start, match_close, scan_items
from .lexer import LexError, Tok, tokenize

__all__ = ["EraseError", "erase"]

_PROOF_CALLS = frozenset(
    {"assert", "assume", "reveal", "reveal_with_fuel", "admit", "assert_by_contradiction"}
)
_PROOF_MACROS = frozenset(
    {"assert_seqs_equal", "assert_sets_equal", "assert_maps_equal", "assert_multisets_equal", "calc",
     "assert_by_contradiction", "seq", "set", "map", "proof_decl"}
)  # fmt: skip
_LOOP_KEYWORDS = frozenset({"while", "loop", "for"})


class EraseError(ValueError):
    """Source the eraser cannot follow."""


@dataclass
class _Edit:
    start: int  # character offsets
    end: int
    text: str = ""


class _Eraser:
    def __init__(self, src: str) -> None:
        self.src = src
        try:
            self.toks: list[Tok] = tokenize(src)
            self.items: SourceItems = scan_items(src, self.toks)
        except (LexError, ScanError) as exc:
            raise EraseError(str(exc)) from None
        self.edits: list[_Edit] = []

    # ---- helpers
    def cut(self, a: int, b: int, text: str = "") -> None:
        """Replace tokens [a, b) (inclusive of the text between them)."""
        if a >= b:
            return
        self.edits.append(_Edit(self.toks[a].start, self.toks[b - 1].end, text))

    def tok(self, i: int) -> str:
        return self.toks[i].text if 0 <= i < len(self.toks) else ""

    def run(self) -> str:
        items = self.items
        # unwrap verus! { … }
        for name, bang, close in items.macros:
            if name == "verus":
                self.cut(bang - 1, bang + 2)  # ``verus ! {``
                self.cut(close, close + 1 + (1 if self.tok(close + 1) == ";" else 0))
        for a, b in items.uses:
            text = items.text(a, b)
            if "vstd" in text or text.lstrip().startswith("broadcast") or "builtin" in text:
                self.cut(a, b)
        for c in items.consts:
            if c.spec:
                self.cut(c.start, c.end)
        exec_ranges: list[tuple[int, int]] = []
        for f in items.fns:
            if f.mode in ("spec", "proof") or "broadcast" in f.modifiers:
                self.cut(f.start, f.end)
                continue
            # what survives of an exec fn: its signature and body (clauses go)
            exec_ranges.append((f.start, f.sig_end))
            if f.body is not None:
                exec_ranges.append(f.body)
            self.exec_fn(f)
        self.ghost_types(exec_ranges)
        self.verifier_attributes()
        return self.apply()

    def verifier_attributes(self) -> None:
        """Drop every ``#[verifier::…]`` / ``#![verifier::…]`` attribute (on fns, impls, statements)."""
        toks = self.toks
        for i, t in enumerate(toks):
            if t.text != "#" or t.kind != "punct":
                continue
            j = i + 1
            if self.tok(j) == "!":
                j += 1
            if self.tok(j) == "[" and self.tok(j + 1) == "verifier":
                self.cut(i, match_close(toks, j) + 1)

    def ghost_types(self, exec_ranges: list[tuple[int, int]]) -> None:
        """Drop structs/enums that only specifications mention (e.g. lc1039's ``enum SplitTree``)."""
        used: set[str] = set()
        for a, b in exec_ranges:
            used.update(t.text for t in self.toks[a:b] if t.kind == "ident")
        for s in self.items.structs:
            if s.name in used or s.name == "Solution":
                continue
            # a type other exec-level types mention (fields) is kept too
            mentioned = any(
                s.name in ft
                for o in self.items.structs
                if o.name != s.name and o.name in used
                for _, ft in o.fields
            )
            if not mentioned:
                self.cut(s.start, s.end)
                for owner, a, b in self.items.impls:
                    if owner == s.name:
                        self.cut(a, b)

    def exec_fn(self, f: object) -> None:
        from .items import FnItem

        assert isinstance(f, FnItem)
        toks = self.toks
        # (``#[verifier::…]`` attributes are dropped by ``verifier_attributes``)
        i = f.start
        while i < f.fn_index and toks[i].text == "#":
            j = i + 1
            if toks[j].text == "!":
                j += 1
            i = match_close(toks, j) + 1
        for k in range(i, f.fn_index):
            if toks[k].text == "exec":
                self.cut(k, k + 1)
        # named return
        if f.ret_name is not None and f.ret_type is not None:
            k = f.fn_index
            while toks[k].text != "->":
                k += 1
            close = match_close(toks, k + 1)
            self.cut(k + 1, close + 1, f.ret_type)
        # ghost/tracked parameters are not supported by plain Rust: leave them (rare) for rustc to reject
        if f.body is None:
            if f.clauses:
                self.cut(f.clauses[0].kw_index, f.clauses[-1].end)
            return
        body_open, body_close = f.body
        if f.clauses:
            self.cut(f.clauses[0].kw_index, body_open)
        self.block(body_open + 1, body_close)

    def block(self, a: int, b: int, ghosts: set[str] | None = None) -> None:
        """Erase ghost code in the token range [a, b) of an exec body (``ghosts``: ghost variables in scope)."""
        toks = self.toks
        ghosts = set() if ghosts is None else ghosts
        i = a
        while i < b:
            t = toks[i]
            at_stmt = i == a or self.tok(i - 1) in (";", "{", "}")
            if t.text == "#" and t.kind == "punct":
                j = i + 1
                if self.tok(j) == "!":
                    j += 1
                if self.tok(j) == "[":
                    close = match_close(toks, j)
                    inner = self.tok(j + 1)
                    if inner in ("verifier", "trigger", "auto") or self.tok(j - 1) == "!":
                        self.cut(i, close + 1)
                    i = close + 1
                    continue
            if t.kind == "ident":
                if t.text == "proof" and self.tok(i + 1) == "{":
                    close = match_close(toks, i + 1)
                    self.cut(i, close + 1)
                    i = close + 1
                    continue
                if at_stmt and t.text in _PROOF_CALLS and self.tok(i + 1) in ("(", "forall"):
                    end = self.proof_stmt_end(i, b)
                    self.cut(i, end)
                    i = end
                    continue
                if (
                    at_stmt
                    and t.text in _PROOF_MACROS
                    and self.tok(i + 1) == "!"
                    and t.text not in ("seq", "set", "map")
                ):
                    close = match_close(toks, i + 2)
                    end = close + 1 + (1 if self.tok(close + 1) == ";" else 0)
                    self.cut(i, end)
                    i = end
                    continue
                if at_stmt and t.text == "broadcast" and self.tok(i + 1) == "use":
                    end = self.stmt_end(i, b)
                    self.cut(i, end)
                    i = end
                    continue
                if at_stmt and t.text == "let" and self.is_ghost_let(i, b):
                    name = self.let_name(i)
                    if name:
                        ghosts.add(name)
                    end = self.stmt_end(i, b)
                    self.cut(i, end)
                    i = end
                    continue
                if at_stmt and t.text in ghosts and self.tok(i + 1) in ("=", "."):
                    end = self.stmt_end(i, b)
                    self.cut(i, end)
                    i = end
                    continue
                if t.text in _LOOP_KEYWORDS and self.tok(i - 1) != ".":
                    body = find_body_start(toks, i + 1, b)
                    if body is not None:
                        kw = next(
                            (k for k in self.depth0(i + 1, body) if toks[k].kind == "ident"
                             and toks[k].text in CLAUSE_KEYWORDS and self.tok(k + 1) != "::"),
                            None,
                        )  # fmt: skip
                        if kw is not None:
                            self.cut(kw, body)
                        # the loop's own body is scanned as a block of its own (ghost names stay local)
                        self.scan_header(i + 1, kw if kw is not None else body, ghosts)
                        close = match_close(toks, body)
                        self.block(body + 1, close, set(ghosts))
                        i = close + 1
                        continue
            if t.text == "{" and t.kind == "punct":
                close = match_close(toks, i)
                self.block(i + 1, close, set(ghosts))
                i = close + 1
                continue
            i += 1

    def scan_header(self, a: int, b: int, ghosts: set[str]) -> None:
        """Loop headers may hold closures with blocks; erase inside braces found there."""
        i = a
        while i < b:
            if self.tok(i) == "{":
                close = match_close(self.toks, i)
                self.block(i + 1, close, set(ghosts))
                i = close + 1
                continue
            i += 1

    def depth0(self, a: int, b: int) -> list[int]:
        out: list[int] = []
        i = a
        while i < b:
            if self.tok(i) in ("(", "[", "{") and self.toks[i].kind == "punct":
                i = match_close(self.toks, i) + 1
                continue
            out.append(i)
            i += 1
        return out

    def is_ghost_let(self, i: int, b: int) -> bool:
        nxt = self.tok(i + 1)
        if nxt in ("ghost", "tracked"):
            return True
        # ``let x: Ghost<…> = …`` / ``let x = Ghost(…)``
        end = self.stmt_end(i, b)
        words = [self.toks[k].text for k in range(i, end)]
        if ":" in words:
            c = words.index(":")
            if c + 1 < len(words) and words[c + 1] in ("Ghost", "Tracked"):
                return True
        if "=" in words:
            e = words.index("=")
            if (
                e + 1 < len(words)
                and words[e + 1] in ("Ghost", "Tracked")
                and (e + 2 < len(words) and words[e + 2] == "(")
            ):
                return True
        return False

    def let_name(self, i: int) -> str | None:
        k = i + 1
        while self.tok(k) in ("ghost", "tracked", "mut"):
            k += 1
        t = self.toks[k] if k < len(self.toks) else None
        return t.text if t is not None and t.kind == "ident" else None

    def stmt_end(self, i: int, b: int) -> int:
        """Index after the ``;`` ending the statement that starts at ``i``."""
        k = i
        while k < b:
            tx = self.tok(k)
            if tx in ("(", "[", "{") and self.toks[k].kind == "punct":
                k = match_close(self.toks, k) + 1
                continue
            if tx == ";":
                return k + 1
            k += 1
        return b

    def proof_stmt_end(self, i: int, b: int) -> int:
        """End of ``assert(…) [by (…)] [requires …] [{ … }] [;]`` / ``assert forall … by { … }``."""
        toks = self.toks
        k = i + 1
        if self.tok(k) == "(":
            k = match_close(toks, k) + 1
        else:  # assert forall|..| expr by { }
            while k < b and self.tok(k) not in ("by", ";"):
                if self.tok(k) in ("(", "[", "{") and toks[k].kind == "punct":
                    k = match_close(toks, k) + 1
                    continue
                if self.tok(k) == "|" and self.tok(k - 1) in ("forall", "exists"):
                    k += 1
                    while k < b and self.tok(k) != "|":
                        k += 1
                k += 1
        if self.tok(k) == "by":
            k += 1
            if self.tok(k) == "(":
                k = match_close(toks, k) + 1
            if self.tok(k) in ("requires", "ensures"):
                body = find_body_start(toks, k, b)
                semi = self.stmt_end(k, b)
                if body is not None and body < semi:
                    k = match_close(toks, body) + 1
                else:
                    return semi
            elif self.tok(k) == "{":
                k = match_close(toks, k) + 1
        if self.tok(k) == ";":
            k += 1
        return k

    def apply(self) -> str:
        edits = sorted(self.edits, key=lambda e: (e.start, -e.end))
        out: list[str] = []
        pos = 0
        for e in edits:
            if e.start < pos:  # inside an earlier (enclosing) edit
                continue
            out.append(self.src[pos : e.start])
            out.append(e.text)
            pos = e.end
        out.append(self.src[pos:])
        return "".join(out)


def erase(src: str) -> str:
    """Plain Rust for Verus source ``src`` (see the module doc)."""
    return _Eraser(src).run()
