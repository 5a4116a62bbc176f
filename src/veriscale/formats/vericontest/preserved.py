"""Checks a proof answer needs no Verus for: the given spec and code kept token for token, no cheating.

``modification(given, candidate, target)`` compares, on tokens (whitespace and
comments ignored):

* **the specification**: every ``spec fn`` of ``given`` must appear in the
  candidate with the same tokens (item text from its first token to its end,
  a ``decreases`` clause left out: a termination measure is proof, not meaning),
  and the target function's header (parameters, return) and its
  ``requires``/``ensures``/``returns`` clauses must be the same;
* **the code**: the Verus-erased candidate and the erased ``given`` must be the
  same token sequence (erasure drops proofs, ghost code, loop invariants and
  ``proof fn`` lemmas, which a proof answer may add, and keeps exec code as
  written). ``fn main`` is ignored in both.

The first difference found is returned ("spec fn `f` changed", …); ``None``
when both are kept. Source the tokenizer or the item scanner cannot follow is
reported as such (the caller decides the category).

``cheating(candidate)`` lists the constructs Verus's ``--no-cheating`` refuses
(its ``no_cheating`` checks and tests: ``assume/admit``,
``external_body/assume_specification``, ``#[verifier::assume_termination]``)
plus the ones that trust code or specifications by other names:
``assume(…)``, ``admit()``, ``assume_specification``, and the attributes
``verifier::external_body``, ``verifier::external``,
``verifier::external_fn_specification``,
``verifier::external_trait_specification``, ``verifier::assume_termination``
(also in the older ``#[verifier(name)]`` spelling), and ``verus::trusted``
(newer Verus lets a trusted item assume, even with ``--no-cheating``).
``#[verifier::exec_allows_no_decreases_clause]`` is *not* refused: Verus's
``--no-cheating`` accepts it (it only turns off the termination lint of exec
code) and 59 of the benchmark's own ``verified.rs`` use it; a non-terminating
implementation is caught by the code tests' time limit instead.
"""

from __future__ import annotations

from ...languages.verus.erase import EraseError, erase
from ...languages.verus.items import ScanError, SourceItems, scan_items
from ...languages.verus.lexer import LexError, Tok, tokenize

__all__ = ["SourceUnreadable", "cheating", "modification", "spec_modification"]

_SPEC_CLAUSES = ("requires", "ensures", "returns")
_TRUSTING_ATTRIBUTES = frozenset({
    "external_body", "external", "external_fn_specification", "external_trait_specification",
    "assume_termination",
})  # fmt: skip


class SourceUnreadable(ValueError):
    """The candidate cannot be tokenized or its items followed."""


def _items(src: str, what: str) -> SourceItems:
    try:
        return scan_items(src)
    except (LexError, ScanError) as exc:
        raise SourceUnreadable(f"{what}: {exc}") from None


def _texts(toks: list[Tok], a: int, b: int) -> list[str]:
    return [t.text for t in toks[a:b]]


def _spec_fn_text(items: SourceItems, f: object) -> list[str]:
    """A spec fn's tokens without its ``decreases`` clause: a termination measure is proof, not
    meaning (an answer may add one for Verus to accept the fn)."""
    dec = f.clause("decreases")  # type: ignore[attr-defined]
    a, b = f.start, f.end  # type: ignore[attr-defined]
    if dec is None:
        return _texts(items.toks, a, b)
    return _texts(items.toks, a, dec.kw_index) + _texts(items.toks, dec.end, b)


def _header(items: SourceItems, f: object) -> list[str]:
    toks = items.toks
    return _texts(toks, f.fn_index, f.sig_end)  # type: ignore[attr-defined]


def _clause(items: SourceItems, f: object, kw: str) -> list[list[str]]:
    c = f.clause(kw)  # type: ignore[attr-defined]
    if c is None:
        return []
    return [_texts(items.toks, a, b) for a, b in c.exprs]


def _code_tokens(src: str, what: str) -> list[str]:
    try:
        plain = erase(src) if ("verus!" in src or "vstd" in src) else src
        toks = tokenize(plain)
        items = scan_items(plain, toks)
    except (EraseError, LexError, ScanError) as exc:
        raise SourceUnreadable(f"{what}: {exc}") from None
    drop: set[int] = set()
    for f in items.fns:  # ``fn main`` (empty in Verus files) is not part of the code
        if f.name == "main" and f.owner is None:
            drop.update(range(f.start, f.end))
    return [t.text for i, t in enumerate(toks) if i not in drop]


def modification(given: str, candidate: str, target: str) -> str | None:
    """Why ``candidate`` does not keep ``given``'s specification and code; None when it does."""
    why = spec_modification(given, candidate, target)
    if why is not None:
        return why
    if _code_tokens(given, "the given program") != _code_tokens(candidate, "the answer"):
        return "the executable code changed"
    return None


def spec_modification(given: str, candidate: str, target: str) -> str | None:
    """Why ``candidate`` does not keep ``given``'s specification (spec fns, the target's header and
    clauses); None when it does. The code is not compared (spec2code answers write it)."""
    g = _items(given, "the given program")
    c = _items(candidate, "the answer")
    for f in g.fns:
        if f.mode != "spec":
            continue
        other = c.fn(f.name, f.owner)
        if other is None or other.mode != "spec":
            return f"spec fn `{f.name}` is missing"
        if _spec_fn_text(g, f) != _spec_fn_text(c, other):
            return f"spec fn `{f.name}` changed"
    gt = [f for f in g.fns if f.name == target and f.mode == "exec"]
    if gt:
        ct = c.fn(target, gt[0].owner)
        if ct is None:
            return f"function `{target}` is missing"
        if _header(g, gt[0]) != _header(c, ct):
            return f"the signature of `{target}` changed"
        for kw in _SPEC_CLAUSES:
            if _clause(g, gt[0], kw) != _clause(c, ct, kw):
                return f"the `{kw}` clause of `{target}` changed"
    return None


def cheating(candidate: str) -> list[str]:
    """Constructs ``--no-cheating`` refuses, in order of first appearance (each once)."""
    try:
        toks = tokenize(candidate)
    except LexError:
        return []
    found: list[str] = []
    for i, t in enumerate(toks):
        name = ""
        nxt = toks[i + 1].text if i + 1 < len(toks) else ""
        prev = toks[i - 1].text if i else ""
        owner = toks[i - 2].text if i >= 2 else ""
        if t.kind == "ident" and t.text in ("assume", "admit") and nxt == "(":
            name = f"{t.text}(…)"
        elif t.kind == "ident" and t.text == "assume_specification":
            name = t.text
        elif (
            t.kind == "ident"
            and t.text in _TRUSTING_ATTRIBUTES
            and (prev == "::" or (prev == "(" and owner == "verifier"))
        ):
            name = t.text
        elif t.kind == "ident" and t.text == "trusted" and prev == "::" and owner == "verus":
            name = "verus::trusted"
        if name and name not in found:
            found.append(name)
    return found
