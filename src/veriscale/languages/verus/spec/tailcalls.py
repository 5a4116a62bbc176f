"""Self-calls in tail position of a spec fn body, so the evaluator runs them as a loop.

A call ``f(args)`` inside the body of ``f`` is in tail position when its value *is* the body's value:
the body itself, either branch of an ``if``/``else`` in tail position, the tail of a block in tail
position (after its ``let``s), or an arm body of a ``match`` in tail position. Conditions, ``let``
values, scrutinees, guards, operands of operators and arguments are not tail positions.

The evaluator compiles such a call to a ``TailCall`` marker (the argument values) instead of calling;
``Compiler.call_fn`` then rebinds the parameters and runs the body again, with the same fuel charge per
call as a nested call and the same memo entries (every call of the chain has the final value), but
without growing the recursion depth: ``scan(area, w + 1, …)`` over 122,122 values of ``w`` (lc492)
needs no deep stack. The result is the same as nested evaluation because a tail call's value is
returned unchanged by every enclosing frame.
"""

from __future__ import annotations

from collections.abc import Callable

from .ast import Block, Call, Expr, If, Match, Path

__all__ = ["TailCall", "tail_self_calls"]


class TailCall:
    """A pending tail self-call: the argument values."""

    __slots__ = ("args",)

    def __init__(self, args: list[object]) -> None:
        self.args = args


def tail_self_calls(body: Expr, is_self: Callable[[Call], bool]) -> set[int]:
    """``id`` of every ``Call`` node in tail position of ``body`` for which ``is_self`` holds."""
    out: set[int] = set()
    todo = [body]
    while todo:
        e = todo.pop()
        if isinstance(e, If):
            todo.append(e.then)
            if e.else_ is not None:
                todo.append(e.else_)
        elif isinstance(e, Block):
            todo.append(e.tail)
        elif isinstance(e, Match):
            todo.extend(body for _, _, body in e.arms)
        elif isinstance(e, Call) and isinstance(e.func, Path) and is_self(e):
            out.add(id(e))
    return out
