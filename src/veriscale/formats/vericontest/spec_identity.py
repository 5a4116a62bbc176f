"""The identity of a Verus specification as our evaluators read it: two sources with the same
fingerprint get the same ``requires``/``ensures`` verdicts on every case.

``spec_fingerprint(source, target)`` hashes (SHA-256) the token texts of exactly what
``languages.verus.spec.SpecProgram`` loads — and hence what the Post2Exe translation, built on it,
compiles — in source order:

* every ``struct``/``enum`` (kind, name, field names and types) and the ``X as Y`` aliases of ``use``
  items (the only part of a ``use`` the evaluator reads);
* every ``const`` and ``spec fn`` the target's clauses use, transitively (an identifier token
  naming it: an over-approximation) — a const's name and value tokens, a spec fn's owner, name,
  receiver, parameters, return type and body tokens (its ``recommends``/``decreases`` clauses are
  not read by the evaluators and are left out; so are spec fns only a proof uses);
* the target exec function, chosen as ``SpecProgram`` chooses it (the last exec fn named
  ``target`` with an ``ensures``/``returns``, else the last one named ``target``): owner,
  receiver, parameters, return name and type, and the expressions of its ``requires``,
  ``ensures`` and ``returns`` clauses.

Comments, whitespace, line numbers, proof functions, lemmas and function bodies other than spec
fns do not count, so a problem's ``verified.rs`` normally has the fingerprint of its ``spec.rs``
(the proof adds only proof code). ``None`` when the source cannot be scanned or has no target: such
a specification is never shared (it does not load either). Each part is prefixed with its number of
fields and each field with its length, so token sequences cannot be confused across parts.
"""

from __future__ import annotations

import hashlib

from ...languages.verus.items import FnItem, ScanError, SourceItems, scan_items
from ...languages.verus.lexer import LexError
from ...languages.verus.spec.program import _ALIAS  # the same reading of ``use`` items as the evaluator

__all__ = ["spec_fingerprint"]

_SEP = "\x1f"


def _toks(items: SourceItems, a: int, b: int) -> str:
    return _SEP.join(t.text for t in items.toks[a:b])


def _target(items: SourceItems, target: str | None) -> FnItem | None:
    cands = [
        f for f in items.fns
        if f.mode == "exec" and (f.clause("ensures") or f.clause("returns")) and (target is None or f.name == target)
    ]  # fmt: skip
    if not cands and target is not None:
        cands = [f for f in items.fns if f.name == target and f.mode == "exec"]
    return cands[-1] if cands else None


def _exprs(f: FnItem, keyword: str) -> list[tuple[int, int]]:
    cl = f.clause(keyword)
    return list(cl.exprs) if cl is not None else []


def _reachable(items: SourceItems, ranges: list[tuple[int, int]]) -> set[str]:
    """Names of the spec fns and consts the token ranges mention, transitively through their bodies
    and values (an identifier token with the item's name counts, whatever its path: an
    over-approximation, so a used item is never left out)."""
    fns: dict[str, list[tuple[int, int]]] = {}
    for f in items.fns:
        if f.mode == "spec":  # a spec fn without a body is still named (and fingerprinted)
            fns.setdefault(f.name, []).append((f.body[0], f.body[1] + 1) if f.body is not None else (0, 0))
    for c in items.consts:
        fns.setdefault(c.name, []).append(c.value)
    used: set[str] = set()
    todo = list(ranges)
    while todo:
        a, b = todo.pop()
        for tok in items.toks[a:b]:
            if tok.kind == "ident" and tok.text in fns and tok.text not in used:
                used.add(tok.text)
                todo.extend(fns[tok.text])
    return used


def _signature(f: FnItem) -> list[str]:
    return [
        f.owner or "",
        f.name,
        f.receiver or "",
        *(f"{p.name}:{p.type_text}" for p in f.params),
        f.ret_name or "",
        f.ret_type or "",
    ]


def spec_fingerprint(source: str, target: str | None) -> str | None:
    """Hex SHA-256 of the specification parts of ``source`` (module docstring), or None."""
    try:
        items = scan_items(source)
    except (ScanError, LexError):
        return None
    t = _target(items, target)
    if t is None:
        return None
    parts: list[tuple[str, list[str]]] = []
    for s in items.structs:
        parts.append((s.kind, [s.name, *(f"{n}:{ty}" for n, ty in s.fields)]))
    for a, b in items.uses:  # the evaluator reads only the ``X as Y`` aliases of a ``use``
        for orig, alias in _ALIAS.findall(items.text(a, b)):
            parts.append(("alias", [orig, alias]))
    clause_ranges = [r for kw in ("requires", "ensures", "returns") for r in _exprs(t, kw)]
    used = _reachable(items, clause_ranges)
    for c in items.consts:
        if c.name in used:
            parts.append(("const", [c.name, c.type_text, _toks(items, *c.value)]))
    for f in items.fns:
        if f.mode != "spec" or f.name not in used:
            continue
        body = _toks(items, f.body[0], f.body[1] + 1) if f.body is not None else ""
        parts.append(("spec fn", [*_signature(f), body]))
    clauses = []
    for kw in ("requires", "ensures", "returns"):
        clauses.append(kw)
        clauses.extend(_toks(items, a, b) for a, b in _exprs(t, kw))
    parts.append(("target", [*_signature(t), *clauses]))
    h = hashlib.sha256()
    for kind, fields in parts:
        h.update(len(fields).to_bytes(8, "big"))
        for text in (kind, *fields):
            data = text.encode("utf-8")
            h.update(len(data).to_bytes(8, "big"))
            h.update(data)
    return h.hexdigest()
