"""Syntactic mutants of Rust reference code, compiled as one mutant schema.

Operators (the cargo-mutants set, on veriscale's Rust lexer):

* ``body``    — a function returns a default value first (``0``/``1``/``-1``,
  ``true``/``false``, ``Vec::new()``, ``String::new()``, ``None``, ``()``);
* ``binop``   — arithmetic, relational, logical and bitwise operator swaps;
* ``assign``  — compound assignment swaps (``+=`` → ``-=``, ``*=``, …);
* ``const``   — integer literal ``v`` → ``0``, ``v+1``, ``v-1``; ``true`` ↔ ``false``;
* ``cond``    — the condition of ``if``/``while`` negated;
* ``unary``   — a unary ``!``/``-`` deleted;
* ``delete``  — an expression statement (assignment, method call) deleted.

**Schema.** Every site is rewritten to select its variant at run time,
``(if __vs_m(K) { L - R } else { L + R })``, and ``__vs_m`` compares ``K`` with
the number in ``$VERISCALE_MUTANT`` (read once; 0 = the original program). Operand
extents come from a precedence scan over the token stream (a left operand runs back
over tokens that bind at least as tightly, a right one forward over tokens that
bind more tightly; brackets are skipped whole; anything unexpected drops the site).
Sites are kept only when properly nested in an enclosing site's operand, so the
rewrite is a recursive rendering. When the schema does not compile, the sites named
on rustc's error lines are dropped and it is rebuilt (``build_schema`` retries).
Mutant ids are assigned in source order (ties: operator order), so the numbering is
deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .lexer import Tok, tokenize

__all__ = ["SELECTOR_ENV", "Mutant", "Schema", "mutant_schema", "selector_source"]

SELECTOR_ENV = "VERISCALE_MUTANT"

PREC = {
    "*": 10, "/": 10, "%": 10, "+": 9, "-": 9, "<<": 8, ">>": 8, "&": 7, "^": 6, "|": 5,
    "==": 4, "!=": 4, "<": 4, ">": 4, "<=": 4, ">=": 4, "&&": 3, "||": 2,
}  # fmt: skip
SWAPS = {
    "+": ("-", "*"), "-": ("+",), "*": ("+", "/"), "/": ("*", "%"), "%": ("/", "+"),
    "<<": (">>",), ">>": ("<<",), "&": ("|", "^"), "|": ("&", "^"), "^": ("&", "|"),
    "==": ("!=",), "!=": ("==",), "<": ("<=", ">", "=="), ">": (">=", "<", "=="),
    "<=": ("<", ">"), ">=": (">", "<"), "&&": ("||",), "||": ("&&",),
}  # fmt: skip
ASSIGN_SWAPS = {"+=": ("-=", "*="), "-=": ("+=", "/="), "*=": ("+=", "/="), "/=": ("*=", "%="),
                "%=": ("/=", "+="), "|=": ("&=",), "&=": ("|=",), "^=": ("|=",),
                "<<=": (">>=",), ">>=": ("<<=",)}  # fmt: skip
BOUNDARY_KW = frozenset({"return", "let", "if", "while", "match", "in", "else", "break", "for", "loop",
                         "mut", "continue", "fn", "pub", "impl", "struct", "const", "static", "use"})  # fmt: skip
STOP_PUNCT = frozenset({",", ";", "=", "=>", "..", "..=", ":", "->", "{", "}", "#", "@", "$", "~", "|"})
PRIMS = frozenset({"i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
                   "f32", "f64", "bool", "char", "str"})  # fmt: skip
_INT_TYPES = ("i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize")


@dataclass(frozen=True)
class Mutant:
    id: int  # 1-based, the value of $VERISCALE_MUTANT that selects it
    operator: str  # body | binop | assign | const | cond | unary | delete
    line: int  # in the original source
    original: str
    replacement: str

    @property
    def name(self) -> str:
        return f"{self.operator}@{self.line}: {self.original} -> {self.replacement}"


@dataclass
class _Site:
    lo: int  # first token (inclusive)
    hi: int  # last token (inclusive)
    holes: list[tuple[int, int]]  # token ranges rendered recursively (inclusive)
    template: Callable[[list[str], list[int]], str]  # (rendered holes, mutant ids) -> text
    operator: str
    original: str
    replacements: tuple[str, ...]
    line: int
    ids: list[int] = field(default_factory=list)


@dataclass
class Schema:
    source: str  # the rewritten code (without the selector function)
    mutants: list[Mutant]


def selector_source() -> str:
    """The run-time selector (appended to the harness source that wraps a schema)."""
    return (
        "#[allow(dead_code)]\n#[inline(never)]\nfn __vs_m(k: u32) -> bool {\n"
        "    static M: std::sync::OnceLock<u32> = std::sync::OnceLock::new();\n"
        f'    *M.get_or_init(|| std::env::var("{SELECTOR_ENV}").ok()'
        ".and_then(|s| s.parse().ok()).unwrap_or(0)) == k\n}\n"
    )


class _Scanner:
    def __init__(self, src: str) -> None:
        self.src = src
        self.toks = tokenize(src)
        self.match: dict[int, int] = {}
        self._brackets()
        self.generic: dict[int, int] = {}
        self._generics()

    def _brackets(self) -> None:
        stack: list[int] = []
        for i, t in enumerate(self.toks):
            if t.kind == "punct" and t.text in "([{":
                stack.append(i)
            elif t.kind == "punct" and t.text in ")]}" and stack:
                j = stack.pop()
                self.match[i] = j
                self.match[j] = i

    def _generics(self) -> None:
        """``<``…``>`` pairs that open type arguments (after ``::``, a type name, or in a type position)."""
        toks = self.toks
        for i, t in enumerate(toks):
            if not t.is_("<") or i == 0:
                continue
            p = toks[i - 1]
            typeish = p.is_("::") or (p.kind == "ident" and (p.text[:1].isupper() or p.text in PRIMS))
            if not typeish:
                continue
            depth = 0
            for j in range(i, min(len(toks), i + 60)):
                x = toks[j]
                if x.is_("<"):
                    depth += 1
                elif x.is_(">"):
                    depth -= 1
                elif x.is_(">>"):
                    depth -= 2
                elif x.kind == "punct" and x.text in (";", "{", "}", "==", "&&", "||", "=>"):
                    break
                if depth <= 0:
                    self.generic[i] = j
                    self.generic[j] = i
                    break

    def operand_end(self, i: int) -> bool:
        """Whether token ``i`` can end an operand (so an operator after it is binary)."""
        if i < 0:
            return False
        t = self.toks[i]
        if t.kind in ("int", "float", "str", "char"):
            return True
        if t.kind == "ident":
            return t.text not in BOUNDARY_KW and t.text != "as"
        return t.text in (")", "]", "?") or (t.text in (">", ">>") and i in self.generic)

    def is_binop(self, i: int) -> bool:
        t = self.toks[i]
        return t.kind == "punct" and t.text in PREC and i not in self.generic and self.operand_end(i - 1)

    def left(self, i: int, p: int) -> int | None:
        toks = self.toks
        j = i - 1
        while j >= 0:
            t = toks[j]
            if t.kind == "punct":
                if t.text in (")", "]"):
                    j = self.match.get(j, -1) - 1
                    continue
                if j in self.generic and t.text in (">", ">>"):
                    j = self.generic[j] - 1
                    continue
                if (
                    t.text in ("(", "[", "{")
                    or t.text in STOP_PUNCT
                    or (t.text.endswith("=") and t.text not in PREC)
                ):
                    break
                if t.text in PREC:
                    if self.is_binop(j):
                        if PREC[t.text] < p:
                            break
                        j -= 1
                        continue
                    if t.text in ("-", "!", "*", "&"):
                        j -= 1
                        continue
                    return None
                if t.text in (".", "?", "::", "!"):
                    j -= 1
                    continue
                return None
            if t.kind == "ident" and t.text in BOUNDARY_KW:
                break
            j -= 1
        start = j + 1
        return start if start < i else None

    def right(self, i: int, p: int) -> int | None:
        toks = self.toks
        n = len(toks)
        j = i + 1
        while j < n and toks[j].kind == "punct" and toks[j].text in ("-", "!", "*", "&"):
            j += 1
        if j < n and toks[j].is_("mut"):
            j += 1
        if j >= n or (toks[j].kind == "ident" and toks[j].text in BOUNDARY_KW) or toks[j].is_("{"):
            return None
        while j < n:
            t = toks[j]
            if t.kind == "punct":
                if t.text in ("(", "["):
                    j = self.match.get(j, n) + 1
                    continue
                if j in self.generic and t.text == "<":
                    j = self.generic[j] + 1
                    continue
                if t.text == "!" and j + 1 < n and toks[j + 1].kind == "punct" and toks[j + 1].text in "([{":
                    j = self.match.get(j + 1, n) + 1
                    continue
                if (
                    t.text in (")", "]", "{", "}")
                    or t.text in STOP_PUNCT
                    or (t.text.endswith("=") and t.text not in PREC)
                ):
                    break
                if t.text in PREC:
                    if PREC[t.text] <= p:
                        break
                    j += 1
                    continue
                if t.text in (".", "?", "::"):
                    j += 1
                    continue
                return None
            if t.kind == "ident" and t.text in BOUNDARY_KW:
                break
            if t.kind == "ident" and t.text == "as":
                j += 2
                continue
            j += 1
        end = j - 1
        return end if end > i else None


def _fn_bodies(sc: _Scanner) -> list[tuple[int, int, int, str]]:
    """(fn token, body ``{``, body ``}``, return type text) of every function with a body."""
    out: list[tuple[int, int, int, str]] = []
    toks = sc.toks
    for i, t in enumerate(toks):
        if not t.is_("fn"):
            continue
        j = i
        arrow = None
        while j < len(toks) and not toks[j].is_("{") and not toks[j].is_(";"):
            if toks[j].is_("->") and arrow is None:
                arrow = j
            if toks[j].is_("(") and j in sc.match:
                j = sc.match[j]
            j += 1
        if j >= len(toks) or not toks[j].is_("{") or j not in sc.match:
            continue
        ret = ""
        if arrow is not None:
            ret = sc.src[toks[arrow + 1].start : toks[j - 1].end].strip()
            ret = re.sub(r"\bwhere\b.*$", "", ret, flags=re.S).strip()
        out.append((i, j, sc.match[j], ret))
    return out


def _defaults(ret: str) -> tuple[str, ...]:
    r = re.sub(r"\s+", "", ret)
    if r in ("", "()"):
        return ("()",)
    if r in _INT_TYPES:
        return ("0", "1", "-1") if r.startswith("i") else ("0", "1")
    if r == "bool":
        return ("true", "false")
    if r.startswith("Vec<"):
        return ("Vec::new()",)
    if r == "String":
        return ("String::new()",)
    if r.startswith("Option<"):
        return ("None",)
    return ()


def _int_lit(t: Tok) -> tuple[int, str] | None:
    m = re.fullmatch(r"(\d[\d_]*)((?:[iu](?:8|16|32|64|128|size))?)", t.text)
    if not m:
        return None
    return int(m.group(1).replace("_", "")), m.group(2)


def mutant_schema(source: str, *, max_mutants: int = 200, exclude: frozenset[int] = frozenset()) -> Schema:
    """Rewrite ``source`` into a mutant schema (see the module docstring).

    ``exclude``: mutant ids whose sites are left as the original code (ids stay as without it)."""
    sc = _Scanner(source)
    toks = sc.toks
    sites: list[_Site] = []
    bodies = _fn_bodies(sc)
    inside = [False] * len(toks)
    for fi, lb, rb, _ in bodies:
        if toks[fi + 1].text == "main":  # the program's I/O is never mutated
            continue
        for k in range(lb + 1, rb):
            inside[k] = True
    macro_depth = [0] * len(toks)  # > 0 inside a macro call other than vec!
    for i, t in enumerate(toks):
        if t.is_("!") and i > 0 and toks[i - 1].kind == "ident" and i + 1 < len(toks):
            o = i + 1
            if o in sc.match and toks[i - 1].text != "vec":
                for k in range(o, sc.match[o] + 1):
                    macro_depth[k] += 1
    array_len: set[int] = set()  # tokens of ``[x; N]`` lengths (constant context)
    for i, t in enumerate(toks):
        if t.is_("[") and i in sc.match:
            depth = 0
            for k in range(i + 1, sc.match[i]):
                x = toks[k]
                if x.kind == "punct" and x.text in "([{":
                    depth += 1
                elif x.kind == "punct" and x.text in ")]}":
                    depth -= 1
                elif depth == 0 and x.is_(";"):
                    array_len.update(range(k + 1, sc.match[i]))
                    break

    def ok(i: int) -> bool:
        return inside[i] and macro_depth[i] == 0 and i not in array_len

    def text(a: int, b: int) -> str:
        return source[toks[a].start : toks[b].end]

    # function bodies: return a default first
    for fi, lb, rb, ret in bodies:
        vals = _defaults(ret)
        if (
            not vals
            or toks[fi + 1].text == "main"
            or any(toks[k].is_("const") for k in range(max(0, fi - 2), fi))
        ):
            continue
        stmt = {v: ("return;" if v == "()" else f"return {v};") for v in vals}

        def tmpl(holes: list[str], ids: list[int], vals: tuple[str, ...] = vals, stmt=stmt) -> str:
            pre = " ".join(f"if __vs_m({k}) {{ {stmt[v]} }}" for k, v in zip(ids, vals))
            return "{ " + pre + " " + holes[0] + " }"

        if rb - lb > 1:
            sites.append(_Site(lb, rb, [(lb + 1, rb - 1)], tmpl, "body", "{…}", vals, toks[lb].line))
    for i, t in enumerate(toks):
        if not ok(i):
            continue
        if t.kind == "punct" and t.text in SWAPS and sc.is_binop(i):
            p = PREC[t.text]
            lo, hi = sc.left(i, p), sc.right(i, p)
            if lo is None or hi is None or not all(ok(k) for k in (lo, hi)):
                continue
            if t.text in ("<", ">") and (toks[hi].is_(">") or toks[lo - 1].is_("<")):
                continue
            reps = SWAPS[t.text]

            def tmpl(h: list[str], ids: list[int], reps: tuple[str, ...] = reps, op: str = t.text) -> str:
                arms = " else ".join(f"if __vs_m({k}) {{ ({h[0]}) {r} ({h[1]}) }}" for k, r in zip(ids, reps))
                return f"({arms} else {{ ({h[0]}) {op} ({h[1]}) }})"

            sites.append(_Site(lo, hi, [(lo, i - 1), (i + 1, hi)], tmpl, "binop", t.text, reps, t.line))
        elif t.kind == "punct" and t.text in ASSIGN_SWAPS:
            lo = i - 1
            while lo > 0 and not (toks[lo - 1].kind == "punct" and toks[lo - 1].text in (";", "{", "}")):
                lo -= 1
            hi = i + 1
            while hi < len(toks) and not toks[hi].is_(";"):
                if toks[hi].kind == "punct" and toks[hi].text in "([" and hi in sc.match:
                    hi = sc.match[hi]
                elif toks[hi].kind == "punct" and toks[hi].text in "{}":
                    hi = -1
                    break
                hi += 1
            if hi <= i + 1 or hi >= len(toks) or toks[lo].kind != "ident" or toks[lo].text in BOUNDARY_KW:
                continue
            reps = ASSIGN_SWAPS[t.text]

            def tmpl(h: list[str], ids: list[int], reps: tuple[str, ...] = reps, op: str = t.text) -> str:
                arms = " else ".join(f"if __vs_m({k}) {{ {h[0]} {r} ({h[1]}); }}" for k, r in zip(ids, reps))
                return f"{arms} else {{ {h[0]} {op} ({h[1]}); }}"

            sites.append(_Site(lo, hi, [(lo, i - 1), (i + 1, hi - 1)], tmpl, "assign", t.text, reps, t.line))
        elif t.kind == "int" or (t.text in ("true", "false") and t.kind == "ident"):
            prev = toks[i - 1]
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if prev.is_(".") or (
                nxt is not None and nxt.kind == "punct" and nxt.text in ("=>", "..", "..=", "|")
            ):
                continue
            if prev.kind == "punct" and prev.text in ("..", "..=", "|"):
                continue
            if t.kind == "int":
                lit = _int_lit(t)
                if lit is None:
                    continue
                v, suf = lit
                cands = [0, v + 1] if v != 0 else [1]
                if v > 1:
                    cands.insert(1, v - 1)
                reps = tuple(f"{c}{suf}" for c in cands)
            else:
                reps = ("false" if t.text == "true" else "true",)

            def tmpl(h: list[str], ids: list[int], reps: tuple[str, ...] = reps, orig: str = t.text) -> str:
                arms = " else ".join(f"if __vs_m({k}) {{ {r} }}" for k, r in zip(ids, reps))
                return f"({arms} else {{ {orig} }})"

            sites.append(_Site(i, i, [], tmpl, "const", t.text, reps, t.line))
        elif t.is_("if") or t.is_("while"):
            if i + 1 < len(toks) and toks[i + 1].is_("let"):
                continue
            j = i + 1
            while j < len(toks) and not toks[j].is_("{"):
                if toks[j].kind == "punct" and toks[j].text in "([" and j in sc.match:
                    j = sc.match[j]
                elif toks[j].kind == "punct" and toks[j].text in (";", "}"):
                    j = -1
                    break
                j += 1
            if j <= i + 1 or j >= len(toks):
                continue

            def tmpl(h: list[str], ids: list[int]) -> str:
                return f"(if __vs_m({ids[0]}) {{ !({h[0]}) }} else {{ {h[0]} }})"

            sites.append(
                _Site(i + 1, j - 1, [(i + 1, j - 1)], tmpl, "cond", text(i + 1, j - 1), ("!(…)",), t.line)
            )
        elif t.kind == "punct" and t.text in ("!", "-") and not sc.operand_end(i - 1) and i + 1 < len(toks):
            if t.text == "!" and i > 0 and toks[i - 1].kind == "ident":
                continue  # a macro call
            if toks[i + 1].kind == "int":
                continue  # a negative literal
            hi = sc.right(i, 11)
            if hi is None or not ok(hi):
                continue

            def tmpl(h: list[str], ids: list[int], op: str = t.text) -> str:
                return f"(if __vs_m({ids[0]}) {{ {h[0]} }} else {{ {op}({h[0]}) }})"

            sites.append(_Site(i, hi, [(i + 1, hi)], tmpl, "unary", t.text, ("",), t.line))
    # statement deletion: `x = e;`, `x op= e;`, `v.push(e);` that start a statement
    for i, t in enumerate(toks):
        if not ok(i) or t.kind != "ident" or t.text in BOUNDARY_KW or i == 0:
            continue
        if not (toks[i - 1].kind == "punct" and toks[i - 1].text in (";", "{", "}")):
            continue
        if (
            toks[i - 1].is_("{")
            and i - 2 >= 0
            and toks[i - 2].kind == "ident"
            and toks[i - 2].text[:1].isupper()
        ):
            continue  # a struct literal
        j = i
        kind = None
        while j < len(toks) and not toks[j].is_(";"):
            x = toks[j]
            if x.kind == "punct" and x.text in "([" and j in sc.match:
                j = sc.match[j] + 1
                continue
            if x.kind == "punct" and x.text in ("{", "}", "=>"):
                kind = None
                break
            if x.kind == "punct" and (x.text == "=" or x.text in ASSIGN_SWAPS):
                kind = kind or "assign"
            if x.is_(".") and j + 1 < len(toks) and toks[j + 1].text in ("push", "insert", "pop", "swap",
                                                                           "remove", "sort", "reverse"):  # fmt: skip
                kind = kind or "call"
            j += 1
        if kind is None or j >= len(toks):
            continue

        def tmpl(h: list[str], ids: list[int]) -> str:
            return f"if !__vs_m({ids[0]}) {{ {h[0]} }}"

        sites.append(_Site(i, j, [(i, j)], tmpl, "delete", text(i, j), ("",), t.line))
    return _assemble(source, toks, sites, max_mutants, exclude)


def _assemble(source: str, toks: list[Tok], sites: list[_Site], max_mutants: int,
              exclude: frozenset[int] = frozenset()) -> Schema:  # fmt: skip
    # Keep properly nested sites (an inner site inside one hole of each enclosing site), outermost first.
    order = sorted(range(len(sites)), key=lambda k: (sites[k].lo, -(sites[k].hi - sites[k].lo), k))
    kept: list[_Site] = []
    for k in order:
        s = sites[k]
        good = True
        depth = 0
        for o in kept:
            if s.hi < o.lo or s.lo > o.hi:
                continue
            if not (o.lo <= s.lo and s.hi <= o.hi and any(a <= s.lo and s.hi <= b for a, b in o.holes)):
                good = False
                break
            depth += o.operator in ("binop", "assign")
        if good and depth <= 3:
            kept.append(s)
    # deterministic thinning to the budget: every n-th site in source order
    total = sum(len(s.replacements) for s in kept)
    if total > max_mutants:
        step = total / max_mutants
        chosen: list[_Site] = []
        acc = 0.0
        for s in kept:
            acc += len(s.replacements)
            if acc >= step * (len(chosen) + 1) - 1e-9 or not chosen:
                if sum(len(c.replacements) for c in chosen) + len(s.replacements) <= max_mutants:
                    chosen.append(s)
        kept = chosen
    kept.sort(key=lambda s: (s.lo, -(s.hi - s.lo)))
    mutants: list[Mutant] = []
    for s in sorted(kept, key=lambda s: (s.line, s.lo, s.operator)):
        s.ids = []
        for r in s.replacements:
            mid = len(mutants) + 1
            s.ids.append(mid)
            mutants.append(Mutant(mid, s.operator, s.line, s.original, r))
    starts: dict[int, list[_Site]] = {}
    for s in kept:
        if not set(s.ids) <= exclude:
            starts.setdefault(s.lo, []).append(s)

    def gap(a: int, b: int) -> str:  # source text between token a's end and token b's start
        return source[toks[a].end : toks[b].start]

    def render(lo: int, hi: int, used: frozenset[int]) -> str:
        out: list[str] = []
        i = lo
        while i <= hi:
            site = next((s for s in starts.get(i, ()) if id(s) not in used and s.hi <= hi), None)
            if site is not None:
                holes = [render(a, b, used | {id(site)}) for a, b in site.holes]
                out.append(site.template(holes, site.ids))
                nxt = site.hi + 1
            else:
                out.append(source[toks[i].start : toks[i].end])
                nxt = i + 1
            if nxt <= hi:
                out.append(gap(nxt - 1, nxt))
            i = nxt
        return "".join(out)

    if not toks:
        return Schema(source, [])
    body = render(0, len(toks) - 1, frozenset())
    text = source[: toks[0].start] + body + source[toks[-1].end :]
    return Schema(text, mutants)


def marker_ids(line: str) -> list[int]:
    """The mutant ids whose selector calls appear on a schema line."""
    return [int(m) for m in re.findall(r"__vs_m\((\d+)\)", line)]
