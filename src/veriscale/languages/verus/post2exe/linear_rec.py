"""Linear recursion of a spec fn computed as a loop (speed session 8).

A spec fn of the shape ::

    f(p0, .., n, .., pm) = if C { BASE } else { REST }     (or the branches the other way round)

where ``REST`` holds exactly one call of ``f`` — every argument the parameter
itself, the one at ``n`` 's position ``n - 1`` — and that call is the first
thing ``REST`` evaluates (it sits on ``REST`` 's left spine: the left operand
of an arithmetic operator or of ``&&``/``||``/``==>``, the first operand of a
comparison, the operand of a cast or a unary operator, the receiver of a
sequence method), with ``C`` and ``BASE`` free of ``f`` and no other callee
able to reach ``f``, is evaluated without nested calls: walk the levels
``n, n-1, ..`` down — at each level ``C`` (an error ends the walk with that
error), then the argument ``n - 1``, ``charge``, a memo probe and ``enter`` of
the call exactly as the call would do them — until ``C`` picks ``BASE``
(evaluated) or the probe hits; then fold back up, at each level the call's
``leave`` and ``REST`` with the result from below in place of the call.

Why it is exact. Every level evaluates the same emitted code in the same
order as the recursion (the condition, the argument, the call's ``charge``,
probe and ``enter``, and after the call returns, its ``leave`` and the rest of
``REST``), and the call is the first thing ``REST`` evaluates, so nothing of
``REST`` runs before the levels below are done — in the recursion as in the
loop. A level below that
failed is an ``Err`` in the call's place, which ``REST`` treats as it treats
a failed call (``?`` propagates it; ``&&``/``||`` can still decide by
Kleene's logic); the argument's own error is caught where the call's would
be (both are inside the same operand). Differences, none of them a different
TRUE/FALSE:

* intermediate levels are not stored in the memo (only the top-level call,
  by its caller as before). A later call probes each level on its way down
  and stops at the first stored one, so it charges at least the steps the
  recursion would (never fewer: the memo holds a subset of the recursion's
  entries, with the same values);
* none in depth: each level's call still ``enter`` s (and its return ``leave`` s
  before the rest of ``REST`` runs; a failed ``enter`` is not undone, as in the
  recursion), so nested calls see the recursion's depth and
  a recursion past the limit is the same UNKNOWN "spec recursion deeper than"
  — which the engine hands to the Python evaluator's closed forms
  (``engine._python_useful``). A loop needs no stack and could go on, but
  then a 10^9-deep recursion (cf1077A) would spend the whole step budget and
  end UNKNOWN "step budget exhausted", which the engine does not retry;
* the levels are not kept: level ``i`` of the fold is the top-level argument
  (``i == 0``) or ``t0 - i``, ``t0`` its integer value — the walk checks that
  every argument it computed was the level's integer minus one (what ``n - 1``
  gives whenever it does not fail), else the call is an UNKNOWN.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..spec.ast import Binary, Block, Call, Cast, Chain, Expr, If, Lit, MethodCall, Path, Unary, View
from .typed import int_operand

__all__ = ["Shape", "emit", "recognize", "spine_call"]

# operators whose left operand the emitted code evaluates first (`<==` evaluates its right operand first)
_LEFT_FIRST = ("+", "-", "*", "/", "%", "&&", "||", "==>")


@dataclass(frozen=True)
class Shape:
    """A linear recursion: ``cond`` picks the recursive branch ``rest`` when it equals ``rec_then``."""

    cond: Expr
    base: Expr
    rest: Expr
    rec_then: bool
    call: Call  # the call of the fn in `rest` (by identity)
    pos: int  # the position of the decreasing parameter
    step: Expr  # its argument, `n - 1`


def _unblock(e: Expr) -> Expr:
    while isinstance(e, Block) and not e.lets:
        e = e.tail
    return e


def spine_call(e: Expr, methods: frozenset[tuple[str, int]], fns: Any) -> Call | None:
    """The call at the end of ``e``'s left spine (the first thing ``e`` evaluates), if it is a call."""
    while True:
        if isinstance(e, Call):
            return e
        if isinstance(e, Block) and not e.lets:
            e = e.tail
        elif isinstance(e, Binary) and e.op in _LEFT_FIRST:
            e = e.lhs
        elif isinstance(e, Chain):
            e = e.operands[0]
        elif isinstance(e, Cast):
            e = e.expr
        elif isinstance(e, Unary) and e.op in ("-", "!", "&", "*"):
            e = e.expr
        elif isinstance(e, View):
            e = e.obj
        elif isinstance(e, MethodCall) and e.name not in fns and (e.name, len(e.args)) in methods:
            # (a runtime sequence method: its receiver, then its arguments, left to right)
            e = e.recv
        else:
            return None


def _mentions_name(e: Any, name: str) -> int:
    """How many times ``name`` occurs as a path's last segment or a method name in ``e``."""
    from .translate import _walk  # (a shared walker; imported late: translate imports this module)

    count = 0

    def visit(x: Any) -> bool:
        nonlocal count
        if isinstance(x, Path) and x.segments and x.segments[-1] == name:
            count += 1
        elif isinstance(x, MethodCall) and x.name == name:
            count += 1
        return False

    _walk(e, visit)
    return count


def recognize(
    fn: Any, lookup: Any, fns: Any, methods: frozenset[tuple[str, int]], reaches: Any
) -> Shape | None:
    """The shape of ``fn`` when it is a linear recursion this module computes as a loop, else None.

    ``lookup(segments)``: the spec fn a call names; ``fns``: the spec fns by name; ``methods``: the runtime's
    sequence methods (name, argument count); ``reaches(name)``: whether the spec fn ``name`` can call ``fn``
    (directly or through others)."""
    body = _unblock(fn.body) if fn.body is not None else None
    if not isinstance(body, If) or body.else_ is None:
        return None
    then, else_ = body.then, body.else_
    n_then, n_else = _mentions_name(then, fn.name), _mentions_name(else_, fn.name)
    if _mentions_name(body.cond, fn.name) or sorted((n_then, n_else)) != [0, 1]:
        return None
    rec_then = n_then == 1
    rest, base = (then, else_) if rec_then else (else_, then)
    call = spine_call(rest, methods, fns)
    if call is None or not isinstance(call.func, Path) or lookup(call.func.segments) is not fn:
        return None
    names = [p for p, _ in fn.params]
    if len(call.args) != len(names) or "self" in names:
        return None
    pos = -1
    for i, (a, p) in enumerate(zip(call.args, names)):
        if isinstance(a, Path) and a.segments == (p,):
            continue
        if (
            pos < 0
            and isinstance(a, Binary)
            and a.op == "-"
            and isinstance(a.lhs, Path)
            and a.lhs.segments == (p,)
            and isinstance(a.rhs, Lit)
            and a.rhs.kind == "int"
            and a.rhs.value == 1
        ):
            pos = i
            continue
        return None
    if pos < 0:
        return None
    # no other way back into fn (mutual recursion): its other callees must not reach it
    others: set[str] = set()
    from .translate import _walk

    def visit(x: Any) -> bool:
        if isinstance(x, Path) and x.segments and x.segments[-1] in fns:
            others.add(x.segments[-1])
        elif isinstance(x, MethodCall) and x.name in fns:
            others.add(x.name)
        return False

    _walk(fn.body, visit)
    others.discard(fn.name)
    if any(reaches(o) for o in sorted(others)):
        return None
    return Shape(body.cond, base, rest, rec_then, call, pos, call.args[pos])


_TY = {"int": "i128", "bool": "bool", None: "V"}
_GET = {"int": "memo_get_i", "bool": "memo_get_b", None: "memo_get_t"}
_HOLE = {"int": "lr_p.clone().map(V::I)", "bool": "lr_p.clone().map(V::B)", None: "lr_p.clone()"}


def _branch(f: Any, e: Expr, kind: str | None) -> str:
    """A branch's value as ``Result<T, E>``, as the fn's body computes it (``typed_fns._body``)."""
    if kind == "int":
        return f"(|| -> Result<i128, E> {{ Ok({int_operand(f, e)}) }})()"
    if kind == "bool":
        return f._bool(e)
    return f"(|| -> R {{ {f.ex(e)} }})()"


def emit(f: Any, shape: Shape, lname: str, fid: int, params: list[str], kind: str | None) -> str:
    """The loop function ``lname`` (same parameters as the fn, called in place of its body after the
    top-level call's ``charge``, probe and ``enter``); ``f``: the translator's ``_Fn`` of the body's scope;
    ``kind``: ``typed_fns.result_kind`` (None: the generic form). Raises ``Untranslatable`` as the body does."""
    ty, get = _TY[kind], _GET[kind]
    nd = params[shape.pos]  # the decreasing parameter's Rust variable, rebound per level
    cond = f._bool(shape.cond)
    step = f.val(shape.step)
    base = _branch(f, shape.base, kind)
    rest = _branch(f.with_hole(shape.call, _HOLE[kind], "lr_p.clone()"), shape.rest, kind)
    args = "&[" + ", ".join("&lr_next" if i == shape.pos else p for i, p in enumerate(params)) + "]"
    sig = ", ".join(f"{p}: &V" for p in params)
    flip = "!" if shape.rec_then else ""
    return (
        f"fn {lname}({sig}) -> Result<{ty}, E> {{\n"
        f"    let lr_top: &V = {nd}; let mut lr_cur: V = {nd}.clone();\n"
        f"    let mut lr_levels: u64 = 0; let mut lr_entered: u64 = 0; let mut lr_t0: i128 = 0;\n"
        # down: the condition, the argument, the call's charge and memo probe, level by level
        f"    let mut lr_acc: Result<{ty}, E> = loop {{\n"
        f"        let {nd}: &V = &lr_cur;\n"
        f"        match {cond} {{ Ok(lr_c) => if {flip}lr_c {{ break {base}; }}, Err(lr_e) => break Err(lr_e) }}\n"
        f"        lr_levels += 1;\n"
        f"        let lr_next: V = match (|| -> R {{ Ok({step}) }})() {{ Ok(lr_x) => lr_x, Err(lr_e) => break Err(lr_e) }};\n"
        f"        match (&lr_cur, &lr_next) {{\n"
        f"            (V::I(lr_c), V::I(lr_x)) if lr_c.checked_sub(1) == Some(*lr_x) => {{ if lr_levels == 1 {{ lr_t0 = *lr_c; }} }}\n"
        f'            _ => break unk("linear recursion: an argument other than n - 1"),\n'
        f"        }}\n"
        f"        if let Err(lr_e) = charge() {{ break Err(lr_e); }}\n"
        f"        let lr_key = tkey({fid}, {args});\n"
        f"        if let Some(lr_x) = {get}(lr_key, {fid}, {args}) {{ break Ok(lr_x); }}\n"
        # (the call's depth, as the recursion's: a failed `enter` is not undone there either)
        f"        if let Err(lr_e) = enter() {{ break Err(lr_e); }}\n"
        f"        lr_entered += 1;\n"
        f"        lr_cur = lr_next;\n"
        f"    }};\n"
        # up: the rest of the recursive branch at each level, the result from below in the call's place
        f"    let mut lr_i = lr_levels;\n"
        f"    while lr_i > 0 {{\n"
        f"        lr_i -= 1;\n"
        f"        if lr_i < lr_entered {{ leave(); }}  // the call from this level has returned\n"
        f"        let lr_lv: V;\n"
        f"        let {nd}: &V = if lr_i == 0 {{ lr_top }} else {{ lr_lv = V::I(lr_t0 - lr_i as i128); &lr_lv }};\n"
        f"        let lr_p = lr_acc;\n"
        f"        lr_acc = {rest};\n"
        f"    }}\n"
        f"    lr_acc\n"
        f"}}"
    )
