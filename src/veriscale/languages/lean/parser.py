"""Parser for the Lean 4 fragment of Verina: public entry points.

* :func:`parse_module` — a sequence of commands (``def``, ``theorem``, ``structure``, …);
* :func:`parse_expr` — one term, such as a ``precond``/``postcond``/``code`` section body;
* :func:`parse_body` — a definition body with its ``where`` clause kept separate.

The parser is hand-written recursive descent with Pratt precedence climbing and
Lean's layout rules (see :mod:`parser_core`); the syntax tree is
:mod:`veriscale.languages.lean.ast`. Every failure is a :class:`LeanParseError` with a
position: internal faults and runaway recursion are converted, so untrusted
input can never raise anything else.

Choices where :mod:`ast` leaves room:

* ``e.f`` after anything but a plain name is ``Proj`` — including ``(·.length)``
  (``Proj(Ident("_sec1"), "length")``) and ``(xs).f``; ``|>.f`` always gives ``Proj``.
* ``let f (x : A) (y : B) : R := e`` has ``type`` = ``A → B → R`` when every binder is
  typed; otherwise ``type`` is None and the body is ``Typed(e, R)`` so ``R`` is kept.
  Equation forms ``let f binders : T | p => e`` get ``fun binders _arg1… => match _arg1… with``.
* Match-lambdas and equation definitions bind ``_arg1``, ``_arg2``, …; ``·`` sections
  bind ``_sec1``, ``_sec2``, … per parenthesis group.
* ``have : P := e`` binds ``this``; ``show T from e`` is ``Typed(e, T)``; ``if let p := e``
  is a two-arm ``Match``; ``s!"a{x}"`` is ``"a" ++ toString x``; ``unreachable!`` is a
  ``Panic``; ``panic msg`` (the function) is a ``Panic`` too.
* ``unless c do s`` is ``DoIf(¬c, s, [])``; ``for h : x in e`` drops ``h``; in a
  ``do`` block ``if let`` becomes ``DoMatch`` whose ``_`` arm is the ``else`` branch (``()`` without one).
* ``termination_by``/``decreasing_by`` are skipped; ``open X in`` is ``OpenDecl``
  (its scoping is not kept); ``section``/``mutual`` contents are flattened between
  ``OtherDecl("section"/"mutual")`` and ``OtherDecl("end")``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

from .ast import Decl, Def, Expr, Lam, Let, PVar
from .errors import LeanParseError
from .lexer import tokenize
from .parser_decl import DeclParser
from .parser_expr import fn_type

__all__ = ["LeanParseError", "parse_body", "parse_expr", "parse_module"]

T = TypeVar("T")

_MIN_RECURSION = 20_000


def _guarded(run: Callable[[DeclParser], T], text: str) -> T:
    if not isinstance(text, str):
        raise LeanParseError("source must be a string")
    old = sys.getrecursionlimit()
    if old < _MIN_RECURSION:
        sys.setrecursionlimit(_MIN_RECURSION)
    try:
        p = DeclParser(text, tokenize(text))
        return run(p)
    except LeanParseError:
        raise
    except RecursionError:
        raise LeanParseError("expression nested too deeply") from None
    except Exception as exc:  # never leak internal faults to callers
        raise LeanParseError(f"internal parser error: {type(exc).__name__}: {exc}") from None
    finally:
        if old < _MIN_RECURSION:
            sys.setrecursionlimit(old)


def _expect_eof(p: DeclParser) -> None:
    t = p.peek()
    if t.kind != "eof":
        raise p.error("unexpected token after the end of the term", t)


def _body(p: DeclParser) -> tuple[Expr, list[Def]]:
    e = p.term(0)
    p.skip_termination()
    defs = p.where_decls() if p.at_kw("where") else []
    _expect_eof(p)
    return e, defs


def parse_module(text: str) -> list[Decl]:
    """Parse a sequence of top-level commands."""
    return _guarded(lambda p: p.module(), text)


def parse_body(text: str) -> tuple[Expr, list[Def]]:
    """Parse a definition body: a term, optional ``termination_by``, optional ``where`` definitions."""
    return _guarded(_body, text)


def parse_expr(text: str) -> Expr:
    """Parse one term (a section body, a test-input lambda such as ``fun x => x > 5``).

    A trailing ``where`` clause (as in a ``code`` section of a definition that has
    one) becomes enclosing ``let rec`` bindings, the last local definition
    outermost; ``termination_by``/``decreasing_by`` after the term are skipped.
    """
    e, defs = _guarded(_body, text)
    for d in defs:
        value: Expr = Lam(d.binders, d.body, d.pos) if d.binders else d.body
        ty = fn_type(d.binders, d.type) if d.binders else d.type
        e = Let(PVar(d.name, d.pos), ty, value, e, True, False, d.pos)
    return e
