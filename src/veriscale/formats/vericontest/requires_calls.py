"""Spec fn calls in ``requires`` for the z3 equivalence check (``requires_equiv``).

A call is translated in one of two ways:

* **inlined**: a spec fn that does not reach itself through its calls is replaced by its body with
  the arguments bound to its parameters — exact (at most ``MAX_INLINE`` bodies deep);
* **uninterpreted**: any other spec fn (recursive, or with no body) becomes a z3 function symbol
  over the translated arguments (a sequence passes its array and its length). That is sound for the
  only verdict it can give alone: ``unsat`` of "the two ``requires`` differ" holds for *every*
  interpretation of the symbol, so for the real function too (which depends on a sequence only
  through its elements below its length: one of those interpretations). A ``sat`` answer is never
  a verdict by itself: the equivalence check confirms every witness with the exact evaluator.

The two sources (ground truth and answer) share a symbol only when the fn and everything it calls
have the same definitions in both: the symbol is named by a fingerprint of that closure (the
parameter lists, return types and bodies, without line numbers).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ...languages.verus.spec import ast as A

__all__ = ["callee", "closure_fingerprint", "recursive", "same_callees"]


def callee(compiler: Any, call: A.Call) -> Any | None:
    """The spec fn a call names, or None (not a path, or no such spec fn)."""
    if not isinstance(call.func, A.Path):
        return None
    return compiler.lookup_fn(call.func.segments)


def _calls(e: Any) -> list[A.Call]:
    out: list[A.Call] = []
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Call):
            out.append(x)
        if isinstance(x, tuple):
            stack.extend(reversed(x))
        elif hasattr(x, "__dataclass_fields__"):
            stack.extend(getattr(x, f) for f in reversed(tuple(x.__dataclass_fields__)))
    return out


def _callees(compiler: Any, fn: Any) -> list[Any]:
    if fn.body is None:
        return []
    seen: dict[str, Any] = {}
    for c in _calls(fn.body):
        g = callee(compiler, c)
        if g is not None and g.name not in seen:
            seen[g.name] = g
    return list(seen.values())


def recursive(compiler: Any, fn: Any) -> bool:
    """Whether ``fn`` reaches itself through its calls (directly or mutually)."""
    seen: set[str] = set()
    stack = _callees(compiler, fn)
    while stack:
        g = stack.pop()
        if g.name == fn.name:
            return True
        if g.name not in seen:
            seen.add(g.name)
            stack.extend(_callees(compiler, g))
    return False


def _canon(x: Any) -> str:
    """A deterministic text of an AST value without its line numbers."""
    if isinstance(x, tuple | list):
        return "(" + ",".join(_canon(y) for y in x) + ")"
    if hasattr(x, "__dataclass_fields__"):
        fields = [f for f in x.__dataclass_fields__ if f != "line"]
        return type(x).__name__ + "{" + ",".join(f"{f}={_canon(getattr(x, f))}" for f in fields) + "}"
    return repr(x)


def closure_fingerprint(compiler: Any, fn: Any) -> str:
    """A short hash of ``fn`` and every spec fn it reaches (name order): same hash, same definitions."""
    reached: dict[str, Any] = {}
    stack = [fn]
    while stack:
        f = stack.pop()
        if f.name in reached:
            continue
        reached[f.name] = f
        stack.extend(_callees(compiler, f))
    text = "|".join(
        f"{n}:{_canon(f.params)}:{_canon(f.ret)}:{_canon(f.body)}" for n, f in sorted(reached.items())
    )
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def same_callees(clauses: Any, given: Any, answer: Any) -> bool:
    """Whether every spec fn the clauses call (resolved in the given program) has the same closure in
    the answer's program (``closure_fingerprint``): same tokens then mean the same ``requires``."""
    for c in clauses:
        if c.expr is None:
            return False
        for call in _calls(c.expr):
            f, g = callee(given, call), callee(answer, call)
            if f is None and g is None:
                continue
            if f is None or g is None or closure_fingerprint(given, f) != closure_fingerprint(answer, g):
                return False
    return True
