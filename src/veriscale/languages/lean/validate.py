"""Checks of model-written Lean definitions before they are run: names, signatures, forbidden means.

A model answer for one part of a task (its precondition, postcondition or
implementation) is a run of top-level commands: helper definitions, then the
definition of the part itself. ``check_definition`` parses it with our Lean
front end, finds the definition with exactly the expected name (it never
renames anything), compares its parameters (names, binder kinds, types) and
result type with the ground-truth header, checks the helpers' names, and
splits the text into what the task's sections need: the helpers' source (an
``*_aux`` section) and the body after ``:=`` (the section itself; the engine
regenerates the header from the task's signature). Forbidden means are
*tokens* (``lean_tokens``): a ``sorry`` in a comment or a string is fine.

Every failure is a ``DefCheck`` with a short reason key (for counting) and a
detail (for the report); nothing here raises.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any

from . import ast as A
from .errors import LeanParseError
from .headers import def_header
from .lexer import Token, tokenize
from .parser import parse_module
from .parser_decl import DeclParser
from .printer import print_expr, strip_pos
from .toolchain.forbidden import DEFAULT_FORBIDDEN, ForbiddenPolicy

Task = Any  # a Verina-format task

__all__ = [
    "ADVERSARY_POLICY",
    "SPEC_POLICY",
    "DefCheck",
    "SourceDecl",
    "check_definition",
    "expected_def",
    "indent_body",
    "main_name",
    "normalized",
    "source_decls",
]

# A spec may be classical (it is a Prop); it must not assume or escape checking.
SPEC_POLICY = ForbiddenPolicy((*DEFAULT_FORBIDDEN, "instance"))

# An adversary must be an ordinary pure total computable function of the declared type.
ADVERSARY_POLICY = ForbiddenPolicy(
    (
        *DEFAULT_FORBIDDEN,
        "noncomputable",
        "Classical",
        "Exists.choose",
        "instance",
        "deriving",
        "structure",
        "inductive",
        "class",
        "csimp",
        "IO",
        "EIO",
        "BaseIO",
        "ST",
        "unsafeIO",
        "unsafeBaseIO",
        "unsafeEIO",
        "dbgTrace",
        "dbg_trace",
    )
)

# reason keys
EMPTY = "empty"
UNPARSABLE = "unparsable"
WRONG_NAME = "wrong-name"
DUPLICATE_DEF = "duplicate-definition"
WRONG_SIGNATURE = "wrong-signature"
HELPER_NAME = "helper-name"
EXTRA_DECL = "extra-declaration"
UNSUPPORTED_FORM = "unsupported-form"


@dataclass(frozen=True, slots=True)
class SourceDecl:
    """A top-level command and the exact source text it was parsed from."""

    node: A.Decl
    text: str
    start: int
    end: int
    tokens: tuple[Token, ...]


@dataclass(frozen=True, slots=True)
class DefCheck:
    ok: bool
    reason: str | None = None  # a key for counting (None when ok)
    detail: str = ""
    aux: str = ""  # the helper definitions, source text, in order
    body: str = ""  # the body of the main definition, as a section body
    notes: tuple[str, ...] = field(default_factory=tuple)

    @classmethod
    def fail(cls, reason: str, detail: str, notes: tuple[str, ...] = ()) -> DefCheck:
        return cls(False, reason, detail, notes=notes)


def main_name(task: Task, part: str) -> str:
    f = task.signature.name
    return {"precond": f"{f}_precond", "postcond": f"{f}_postcond", "code": f}[part]


def indent_body(text: str) -> str:
    """How a section body is pasted under its header (Verina's rule: indent unless it starts with two spaces)."""
    if text.startswith("  "):
        return text
    return "\n".join("  " + line for line in text.split("\n"))


def normalized(text: str) -> str:
    """Source text without comments and layout: the tokens joined by single spaces (for de-duplication)."""
    try:
        toks = tokenize(text)
    except Exception:  # an untokenizable text is compared as written
        return " ".join(text.split())
    return " ".join(text[t.start : t.end] for t in toks if t.kind != "eof")


def source_decls(text: str) -> list[SourceDecl]:
    """Top-level commands of ``text`` with their source spans. Raises ``LeanParseError``."""
    tokens = tokenize(text)
    p = DeclParser(text, tokens)
    out: list[SourceDecl] = []
    try:
        while p.peek().kind != "eof":
            i0 = p.i
            decls = p.command()
            i1 = max(p.i, i0 + 1)
            toks = tuple(tokens[i0:i1])
            start, end = toks[0].start, toks[-1].end
            for d in decls:
                out.append(SourceDecl(d, text[start:end], start, end, toks))
    except LeanParseError:
        raise
    except RecursionError:
        raise LeanParseError("definition nested too deeply") from None
    except Exception as exc:  # never leak a parser fault
        raise LeanParseError(f"internal parser error: {type(exc).__name__}: {exc}") from None
    return out


def expected_def(task: Task, part: str) -> A.Def | None:
    """The ground-truth header of ``part`` as a parsed definition (None if it cannot be parsed)."""
    try:
        header = def_header(task, part)
        decls = parse_module(header + "\n  default")
    except Exception:  # a header outside our fragment: no signature comparison is possible
        return None
    name = main_name(task, part)
    return next((d for d in decls if isinstance(d, A.Def) and d.name == name), None)


def _binder_text(b: A.Binder) -> str:
    name = b.pat.name if isinstance(b.pat, A.PVar) else "_"
    ty = print_expr(b.type) if b.type is not None else "?"
    return f"({name} : {ty})" if b.kind == "explicit" else f"{{{name} : {ty}}} ({b.kind})"


def _binder_key(b: A.Binder) -> tuple[str, str, object]:
    name = b.pat.name if isinstance(b.pat, A.PVar) else "_"
    return (name, b.kind, strip_pos(b.type) if b.type is not None else None)


def _is_prop(t: A.Expr | None) -> bool:
    return t is None or (isinstance(t, A.Sort) and t.name == "Prop")


def signature_mismatch(got: A.Def, want: A.Def, part: str) -> str | None:
    """Why ``got``'s parameters/result differ from ``want``'s (None: they agree)."""
    gb, wb = got.binders, want.binders
    for i, (g, w) in enumerate(zip(gb, wb), start=1):
        if _binder_key(g) != _binder_key(w):
            return f"parameter {i} is {_binder_text(g)}, expected {_binder_text(w)}"
    if len(gb) != len(wb):
        if len(gb) < len(wb):
            missing = " ".join(_binder_text(b) for b in wb[len(gb) :])
            return f"missing parameter(s) {missing}"
        extra = " ".join(_binder_text(b) for b in gb[len(wb) :])
        return f"unexpected extra parameter(s) {extra}"
    if part in ("precond", "postcond"):
        # the ground-truth postcondition header leaves out ``: Prop``; either way it is a Prop
        if not _is_prop(got.type):
            return f"result type {print_expr(got.type)}, expected Prop"  # type: ignore[arg-type]
        return None
    if got.type is None:
        return f"no result type, expected {print_expr(want.type) if want.type else '?'}"
    if want.type is not None and strip_pos(got.type) != strip_pos(want.type):
        return f"result type {print_expr(got.type)}, expected {print_expr(want.type)}"
    return None


def _assign_index(d: SourceDecl, name: str) -> int | None:
    """Index in ``d.tokens`` of the ``:=`` that starts the body (bracket depth 0, after the name)."""
    depth = 0
    seen_name = False
    for k, t in enumerate(d.tokens):
        if not seen_name:
            seen_name = t.kind == "ident" and t.value == name
            continue
        if t.kind == "sym" and t.value in ("(", "[", "{", "⦃", "⟨", "@["):
            depth += 1
        elif t.kind == "sym" and t.value in (")", "]", "}", "⦄", "⟩"):
            depth -= 1
        elif depth == 0 and t.kind == "sym" and t.value == ":=":
            return k
    return None


def _body_text(raw: str) -> str:
    lines = raw.split("\n")
    first = lines[0].strip()
    rest = "\n".join(lines[1:])
    if not first:
        return textwrap.dedent(rest).strip("\n").rstrip()
    # the body starts on the header line: keep the continuation lines' own indentation
    return (first + ("\n" + rest if rest.strip() else "")).rstrip()


def _same_body(header: str, body: str, main: A.Def) -> bool:
    """The isolated body, pasted under a header, parses back to the same definition body."""
    try:
        decls = parse_module(header + "\n" + indent_body(body))
    except LeanParseError:
        return False
    if len(decls) != 1 or not isinstance(decls[0], A.Def):
        return False
    d = decls[0]
    return strip_pos(d.body) == strip_pos(main.body) and strip_pos(d.where_defs) == strip_pos(main.where_defs)


def _kind(node: A.Decl) -> str:
    if isinstance(node, A.Def):
        return node.kind
    if isinstance(node, A.OtherDecl):
        return node.keyword
    return type(node).__name__.removesuffix("Decl").lower()


def check_definition(
    text: str,
    name: str,
    expected: A.Def | None,
    part: str,
    *,
    policy: ForbiddenPolicy,
    helper_prefix: str | None = None,
    reserved: tuple[str, ...] = (),
) -> DefCheck:
    """Validate a model's definition of ``name`` (with helpers) and split it into aux text and body.

    ``helper_prefix``: every other definition must be named with it (None: any
    name but the ``reserved`` ones). ``import`` lines and theorems are dropped
    (with a note): they cannot change what the definitions compute.
    """
    if not text or not text.strip():
        return DefCheck.fail(EMPTY, f"no code for {name}")
    bad = policy.violations(text)
    if bad:
        v = bad[0]
        return DefCheck.fail(f"forbidden:{v.word}", f"`{v.token}` at line {v.line}")
    try:
        decls = source_decls(text)
    except LeanParseError as exc:
        return DefCheck.fail(UNPARSABLE, str(exc))
    mains = [d for d in decls if isinstance(d.node, A.Def) and d.node.name == name]
    if not mains:
        defined = [
            d.node.name for d in decls if isinstance(d.node, A.Def) and d.node.kind in ("def", "abbrev")
        ]
        what = ", ".join(defined) if defined else "nothing"
        return DefCheck.fail(WRONG_NAME, f"defines {what}; expected a definition named {name}")
    if len(mains) > 1:
        return DefCheck.fail(DUPLICATE_DEF, f"{name} is defined {len(mains)} times")
    main = mains[0]
    node = main.node
    assert isinstance(node, A.Def)
    if node.kind not in ("def", "abbrev"):
        return DefCheck.fail(WRONG_NAME, f"{name} is a {node.kind}, expected a def")
    if expected is not None:
        why = signature_mismatch(node, expected, part)
        if why is not None:
            return DefCheck.fail(WRONG_SIGNATURE, why)

    notes: list[str] = []
    helpers: list[str] = []
    after = False
    for d in decls:
        if d is main:
            after = True
            continue
        kind = _kind(d.node)
        if kind in ("import", "theorem", "lemma", "example"):
            notes.append(f"dropped {kind} {getattr(d.node, 'name', '')}".rstrip())
            continue
        if after:
            return DefCheck.fail(EXTRA_DECL, f"a {kind} after {name} (helpers must come first)")
        if isinstance(d.node, A.Def):
            hname = d.node.name
            if hname in reserved or hname == name:
                return DefCheck.fail(HELPER_NAME, f"helper {hname} clashes with a task definition")
            if helper_prefix is not None and not hname.startswith(helper_prefix):
                return DefCheck.fail(HELPER_NAME, f"helper {hname} does not start with {helper_prefix}")
            helpers.append(d.text)
            continue
        if isinstance(d.node, A.OpenDecl) and helper_prefix is None:
            helpers.append(d.text)
            continue
        return DefCheck.fail(EXTRA_DECL, f"a {kind} declaration")

    k = _assign_index(main, name)
    if k is None:
        return DefCheck.fail(
            UNSUPPORTED_FORM, f"{name} has no `:=` body (equation-style definitions are not taken)"
        )
    assign = main.tokens[k]
    body = _body_text(text[assign.end : main.end])
    header = text[main.tokens[0].start : assign.end]
    if not body.strip() or not _same_body(header, body, node):
        return DefCheck.fail(UNPARSABLE, f"the body of {name} could not be isolated")
    return DefCheck(True, None, "", "\n\n".join(helpers), body, tuple(notes))
