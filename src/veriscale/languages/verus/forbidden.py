"""The forbidden-construct policy for Rust that veriscale compiles and runs.

Rust that is run comes from datasets and models, so it is refused *before
compiling* (category ``forbidden_construct``) when it could reach the world
outside its inputs and outputs. The check works on tokens (``lexer``), so
comments and the contents of string literals never count. Two levels:

* ``compile_time_access``: reading files or the environment while compiling —
  ``include!``, ``include_str!``, ``include_bytes!``, ``env!``,
  ``option_env!`` and ``#[path]``. Applied to every program veriscale
  compiles (its own harness and support crate use none of them), so an
  ``include_str!("/etc/hostname")`` can never reach ``rustc``. We refuse these
  macros outright rather than rewrite their paths: no benchmark program needs
  them.
* ``forbidden_constructs``: the policy for candidate and reference code —
  the above plus escape hatches: ``unsafe``; ``extern`` (crates, blocks,
  ABIs); the ``asm!`` family; attributes that bind symbols, choose
  linkage or change the crate (``no_mangle``, ``link``, ``export_name``,
  ``no_std``, ``feature``, …, also inside ``cfg_attr``); and paths rooted at
  ``std``/``core``/``alloc`` that name a module reaching the outside world
  (``fs``, ``net``, ``process``, ``env``, ``os``, ``path``, ``arch``) or one
  of the macros above, including inside ``use`` groups, plus renaming a crate
  root (``use std as s``) and glob-importing one (``use std::*``), which would
  let a later short path escape the check.

Every VeriContest reference (``code.rs``, ``main.rs``) passes this policy.
"""

from __future__ import annotations

from dataclasses import dataclass

from .lexer import LexError, Tok, tokenize

__all__ = ["Violation", "compile_time_access", "forbidden_constructs"]

COMPILE_TIME_MACROS = frozenset({"include", "include_str", "include_bytes", "env", "option_env"})
ESCAPE_MACROS = frozenset({"asm", "global_asm", "naked_asm", "llvm_asm"})
KEYWORDS = frozenset({"unsafe", "extern"})
ATTRIBUTES = frozenset({
    "path", "link", "link_name", "link_section", "link_ordinal", "no_mangle", "export_name", "used",
    "no_std", "no_main", "no_core", "feature", "naked", "crate_type", "crate_name", "windows_subsystem",
    "register_tool", "target_feature", "instruction_set", "ffi_pure", "ffi_const",
})  # fmt: skip
CRATE_ROOTS = frozenset({"std", "core", "alloc"})
OUTSIDE_MODULES = frozenset({"fs", "net", "process", "env", "os", "path", "arch"})


@dataclass(frozen=True, order=True)
class Violation:
    line: int
    construct: str
    detail: str

    def __str__(self) -> str:
        return f"forbidden `{self.construct}` at line {self.line}: {self.detail}"


def _name(t: Tok) -> str:
    return t.text[2:] if t.kind == "ident" and t.text.startswith("r#") else t.text


def _is(t: Tok, text: str) -> bool:
    return t.kind == "punct" and t.text == text


def _macros(toks: list[Tok], names: frozenset[str], out: set[Violation]) -> None:
    for i, t in enumerate(toks[:-1]):
        if t.kind == "ident" and _name(t) in names and _is(toks[i + 1], "!"):
            out.add(
                Violation(t.line, f"{_name(t)}!", "compile-time file/environment access or inline assembly")
            )


def _attribute_names(toks: list[Tok], i: int) -> tuple[list[Tok], int]:
    """Names an attribute starting at ``#`` (index i) applies, and the index after it."""
    j = i + 1
    if j < len(toks) and _is(toks[j], "!"):
        j += 1
    if j >= len(toks) or not _is(toks[j], "["):
        return [], i + 1
    depth, k = 0, j
    names: list[Tok] = []
    first = j + 1 < len(toks) and toks[j + 1].kind == "ident"
    if first:
        names.append(toks[j + 1])
    cfg_attr = first and _name(toks[j + 1]) == "cfg_attr"
    while k < len(toks):
        t = toks[k]
        if t.kind == "punct" and t.text in "([{":
            depth += 1
        elif t.kind == "punct" and t.text in ")]}":
            depth -= 1
            if depth == 0:
                return names, k + 1
        elif cfg_attr and depth == 2 and _is(t, ",") and k + 1 < len(toks) and toks[k + 1].kind == "ident":
            names.append(toks[k + 1])  # an attribute that ``cfg_attr`` would apply
        k += 1
    return names, k


def _attributes(toks: list[Tok], names: frozenset[str], out: set[Violation]) -> None:
    i = 0
    while i < len(toks):
        if _is(toks[i], "#"):
            found, nxt = _attribute_names(toks, i)
            for t in found:
                if _name(t) in names:
                    out.add(
                        Violation(
                            t.line, f"#[{_name(t)}]", "attribute that changes paths, linkage or the crate"
                        )
                    )
            i = max(nxt, i + 1)
        else:
            i += 1


def _group(toks: list[Tok], i: int, root: Tok, out: set[Violation]) -> int:
    """Check a ``use`` group ``{ ... }`` starting at index i (the ``{``); returns the index after it."""
    depth, k = 0, i
    while k < len(toks):
        t = toks[k]
        if _is(t, "{"):
            depth += 1
        elif _is(t, "}"):
            depth -= 1
            if depth == 0:
                return k + 1
        elif t.kind == "ident" and _name(t) in OUTSIDE_MODULES | COMPILE_TIME_MACROS | ESCAPE_MACROS:
            out.add(
                Violation(
                    t.line, f"{_name(root)}::{_name(t)}", "standard-library access to the outside world"
                )
            )
        elif depth == 1 and _is(t, "*") and _is(toks[k - 1], "{"):
            out.add(Violation(t.line, f"{_name(root)}::*", "glob import of a crate root"))
        elif (
            t.kind == "ident"
            and _name(t) == "self"
            and k + 1 < len(toks)
            and toks[k + 1].text == "as"
            and depth == 1
        ):
            out.add(Violation(t.line, f"{_name(root)} as", "renaming a crate root"))
        k += 1
    return k


def _paths(toks: list[Tok], out: set[Violation]) -> None:
    bad = OUTSIDE_MODULES | COMPILE_TIME_MACROS | ESCAPE_MACROS
    for i, t in enumerate(toks):
        if t.kind != "ident" or _name(t) not in CRATE_ROOTS:
            continue
        if i + 1 < len(toks) and toks[i + 1].kind == "ident" and toks[i + 1].text == "as":
            out.add(Violation(t.line, f"{_name(t)} as", "renaming a crate root"))
            continue
        k = i + 1
        first = True
        while k + 1 < len(toks) and _is(toks[k], "::"):
            nxt = toks[k + 1]
            if nxt.kind == "ident":
                if _name(nxt) in bad:
                    out.add(
                        Violation(
                            nxt.line,
                            f"{_name(t)}::{_name(nxt)}",
                            "standard-library access to the outside world",
                        )
                    )
                k += 2
            elif _is(nxt, "{"):
                _group(toks, k + 1, t, out)
                break
            elif _is(nxt, "*"):
                if first:
                    out.add(Violation(nxt.line, f"{_name(t)}::*", "glob import of a crate root"))
                break
            else:
                break
            first = False


def _scan(source: str) -> list[Tok] | Violation:
    try:
        return tokenize(source)
    except LexError as exc:
        return Violation(0, "unreadable source", str(exc))


def compile_time_access(source: str) -> list[Violation]:
    """Compile-time file or environment access in ``source`` (sorted by line)."""
    toks = _scan(source)
    if isinstance(toks, Violation):
        return []  # rustc reports unreadable source itself
    out: set[Violation] = set()
    _macros(toks, COMPILE_TIME_MACROS, out)
    _attributes(toks, frozenset({"path"}), out)
    return sorted(out)


def forbidden_constructs(source: str) -> list[Violation]:
    """Every construct of the candidate policy in ``source`` (sorted by line)."""
    toks = _scan(source)
    if isinstance(toks, Violation):
        return []  # not Rust we can read: the compiler rejects it
    out: set[Violation] = set()
    _macros(toks, COMPILE_TIME_MACROS | ESCAPE_MACROS, out)
    _attributes(toks, ATTRIBUTES, out)
    for t in toks:
        if t.kind == "ident" and _name(t) in KEYWORDS:
            out.add(Violation(t.line, _name(t), "escape hatch (foreign code, raw memory or other crates)"))
    _paths(toks, out)
    return sorted(out)
