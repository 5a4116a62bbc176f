"""Bounds on test inputs read from a Verus ``requires`` clause (for input generation).

Only a *hint* for generators: every generated input is still checked by the
ground-truth precondition, so a bound missed or misread costs acceptance rate,
never soundness.

Subjects are written as paths over parameter names: ``n`` (a scalar
parameter), ``len(p)`` (``p.len()``/``p@.len()``), ``elem(p)`` (``p[i]``,
``p@[i]``, ``p.get_char(i)`` under a quantifier), ``len(elem(p))`` and
``elem(elem(p))`` one level deeper. A clause is split at top-level ``&&``; in a
``forall`` only the consequent of the last ``==>`` is read. In a comparison
chain ``e0 op e1 op …`` (``<``, ``<=``, ``>``, ``>=``) each operand that is a
subject gets the integer operands on its sides as lower/upper bounds (strict
steps move the bound by one). ``s == c`` atoms joined by ``||`` give a value set;
``a.len() == b.len()`` and ``n == p.len()`` are recorded as links (``p[i].len() == p[0].len()``:
the link ``len(elem(p))`` to itself, rows of one length; ``p[i].len() == p.len()``: a square).
Parentheses around a whole atom are dropped. Every integer
and character literal of the clause goes into the constant pool.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Bounds", "read_bounds"]

_NUM = re.compile(r"^-?\s*\d[\d_]*(?:[iu](?:8|16|32|64|128|size))?$")
_INT_LIT = re.compile(r"(?<![\w.])(-?\d[\d_]*)(?:[iu](?:8|16|32|64|128|size)|int|nat)?\b")
_CHAR_LIT = re.compile(r"'(.)'")
_CMP = re.compile(r"(<=|>=|<(?!=)|>(?!=))")


@dataclass
class Bounds:
    lo: dict[str, int] = field(default_factory=dict)
    hi: dict[str, int] = field(default_factory=dict)
    values: dict[str, list[int]] = field(default_factory=dict)  # from ``s == c || s == d``
    links: list[tuple[str, str]] = field(default_factory=list)  # subjects that must be equal
    consts: list[int] = field(default_factory=list)  # sorted, distinct
    chars: list[str] = field(default_factory=list)  # sorted, distinct

    def range(self, subject: str, lo: int, hi: int) -> tuple[int, int]:
        """``[lo, hi]`` narrowed by the bounds read for ``subject``."""
        return max(lo, self.lo.get(subject, lo)), min(hi, self.hi.get(subject, hi))


def _num(text: str) -> int | None:
    t = text.strip().strip("()").strip()
    t = re.sub(r"\s+as\s+\w+$", "", t).strip()
    t = re.sub(r"(?:[iu](?:8|16|32|64|128|size)|int|nat)$", "", t)
    if _NUM.match(t):
        return int(t.replace("_", "").replace(" ", ""))
    m = re.fullmatch(r"(i|u)(8|16|32|64|128|size)::(MAX|MIN)", t)
    if m:
        bits = 64 if m.group(2) == "size" else int(m.group(2))
        if m.group(1) == "u":
            return 0 if m.group(3) == "MIN" else 2**bits - 1
        return -(2 ** (bits - 1)) if m.group(3) == "MIN" else 2 ** (bits - 1) - 1
    return None


def _subject(text: str, params: set[str]) -> str | None:
    t = text.strip()
    t = re.sub(
        r"\(\s*(?:#\[trigger\]\s*)?(\w+(?:@?\[[^\[\]]+\])+)\s*\)", r"\1", t
    )  # `(#[trigger] p[i]).len()`
    t = re.sub(r"\s+as\s+\w+\s*$", "", t).strip()
    t = re.sub(r"^\((.*)\)$", r"\1", t).strip()
    t = t.replace("@", "").replace("#[trigger]", "").strip()
    t = re.sub(r"\s+", "", t)
    t = re.sub(r"\.view\(\)", "", t)
    m = re.fullmatch(r"(\w+)", t)
    if m and m.group(1) in params:
        return m.group(1)
    m = re.fullmatch(r"(\w+)\.len\(\)", t)
    if m and m.group(1) in params:
        return f"len({m.group(1)})"
    m = re.fullmatch(r"(\w+)\[[^\[\]]+\]\.len\(\)", t)
    if m and m.group(1) in params:
        return f"len(elem({m.group(1)}))"
    m = re.fullmatch(r"(\w+)\[[^\[\]]+\]\[[^\[\]]+\](?:\.\d+)?", t)
    if m and m.group(1) in params:
        return f"elem(elem({m.group(1)}))"
    m = re.fullmatch(r"(\w+)(?:\[[^\[\]]+\]|\.(?:get_char|index)\([^()]*\))(?:\.\d+)?", t)
    if m and m.group(1) in params:
        return f"elem({m.group(1)})"
    return None


def _split_top(text: str, sep: str) -> list[str]:
    out: list[str] = []
    depth = 0
    cur = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            out.append(text[cur:i])
            i += len(sep)
            cur = i
            continue
        i += 1
    out.append(text[cur:])
    return [s.strip() for s in out if s.strip()]


def read_bounds(clauses: list[str], params: list[str]) -> Bounds:
    """Bounds from the ``requires`` clause texts over ``params`` (see the module docstring)."""
    b = Bounds()
    names = set(params)
    consts: set[int] = set()
    chars: set[str] = set()
    for clause in clauses:
        consts.update(int(m.replace("_", "")) for m in _INT_LIT.findall(clause))
        chars.update(_CHAR_LIT.findall(clause))
        body = clause
        if "==>" in body:
            body = _split_top(body, "==>")[-1]
        body = re.sub(r"^(forall|exists)\s*\|[^|]*\|", "", body.strip())
        if "==>" in body:
            body = _split_top(body, "==>")[-1]
        for atom in _split_top(body, "&&"):
            _read_atom(atom.strip(), names, b)
    b.consts = sorted(consts)
    b.chars = sorted(chars)
    return b


def _unwrap(atom: str) -> str:
    """``atom`` without parentheses around the whole of it (``(#[trigger] p[i] == 0 || p[i] == 1)``)."""
    while (
        atom.startswith("(") and atom.endswith(")") and _split_top(atom[1:-1], "||") and _closes_at_end(atom)
    ):
        atom = atom[1:-1].strip()
    return atom


def _closes_at_end(text: str) -> bool:
    """Does the ``(`` at position 0 close at the last character?"""
    depth = 0
    for i, c in enumerate(text):
        depth += c in "([{"
        depth -= c in ")]}"
        if depth == 0:
            return i == len(text) - 1
    return False


def _read_atom(atom: str, names: set[str], b: Bounds) -> None:
    atom = _unwrap(atom)
    ors = _split_top(atom, "||")
    if len(ors) > 1 or ("==" in atom and "!=" not in atom and "<" not in atom and ">" not in atom):
        subj: str | None = None
        vals: list[int] = []
        for o in ors:
            parts = o.split("==")
            if len(parts) != 2:
                return
            s1, s2 = _subject(parts[0], names), _subject(parts[1], names)
            if len(ors) == 1 and s1 and s2:
                b.links.append((s1, s2))
                return
            s, v = (s1, _num(parts[1])) if s1 else (s2, _num(parts[0]))
            if s is None or v is None or (subj is not None and s != subj):
                return
            subj = s
            vals.append(v)
        if subj is not None:
            b.values[subj] = sorted(set(vals))
        return
    pieces = _CMP.split(atom)
    if len(pieces) < 3:
        return
    operands = pieces[0::2]
    ops = pieces[1::2]
    if all(o in ("<", "<=") for o in ops):
        asc = True
    elif all(o in (">", ">=") for o in ops):
        asc = False
    else:
        return
    if not asc:
        operands = operands[::-1]
        ops = [{">": "<", ">=": "<="}[o] for o in ops[::-1]]
    for k, opd in enumerate(operands):
        s = _subject(opd, names)
        if s is None:
            continue
        # nearest integer operand on each side
        for j in range(k - 1, -1, -1):
            v = _num(operands[j])
            if v is not None:
                strict = any(o == "<" for o in ops[j:k])
                v = v + 1 if strict else v
                b.lo[s] = max(b.lo.get(s, v), v)
                break
        for j in range(k + 1, len(operands)):
            v = _num(operands[j])
            if v is not None:
                strict = any(o == "<" for o in ops[k:j])
                v = v - 1 if strict else v
                b.hi[s] = min(b.hi.get(s, v), v)
                break
