"""The part of a postcondition that does not depend on ``result``, computed once per input.

Many postconditions open with ``let`` bindings over the inputs only (all subsequences of
``nums``, the cleaned string, a sorted copy) and test ``result`` against them afterwards. Judging
many outputs of one input (every adversary output, every weakened specification, every
unexpected output of a suite row) recomputed those bindings each time — exponential ones
dominated whole runs. ``split_prefix`` peels the leading ``let`` chain whose values mention
neither ``result`` nor ``h_precond`` (nor shadow a parameter), and ``PrefixedPostcondition``
compiles the chain as one function of the inputs and the rest as a function of the inputs, the
bound values and ``result``.

Reuse is exact: Lean is pure and runtime values are immutable, so the bound values are the same
whichever output is judged. The cache holds one input (the last one, keyed by the identity of the
argument objects, kept alive while cached), which is what judging outputs input by input needs.
Fuel stays comparable: a reuse charges the fuel the prefix took when it was computed, so a
verdict's fuel (and so which verdicts run out of it) is the same as without the cache, up to one
fuel block.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ....runtime import limits
from ..elab import ir
from .codegen import Compiler, gen_function
from .freevars import free_vars

__all__ = ["PrefixedPostcondition", "split_prefix"]


def split_prefix(params: list[str], body: Any, inputs: int) -> tuple[list[tuple[str, Any]], Any] | None:
    """``(lets, rest)``: the leading result-free ``let`` chain of ``body`` and what follows it.

    ``params`` are the definition's Python parameter names: the first ``inputs`` are the task's
    inputs, the others ``result`` and ``h_precond``. None when no binding can be peeled.
    """
    later = set(params[inputs:])
    taken = set(params)
    lets: list[tuple[str, Any]] = []
    while isinstance(body, ir.Let):
        if body.name in taken or free_vars(body.value) & later:
            break
        lets.append((body.name, body.value))
        taken.add(body.name)
        body = body.body
    return (lets, body) if lets else None


class PrefixedPostcondition:
    """A compiled postcondition split into its result-free prefix and the rest (see the module doc)."""

    def __init__(self, compiler: Compiler, pyname: str, params: list[str], body: Any, inputs: int) -> None:
        split = split_prefix(params, body, inputs)
        if split is None:
            raise ValueError("no result-free prefix")
        lets, rest = split
        ins, tail = params[:inputs], params[inputs:]
        names = [n for n, _ in lets]
        chain: Any = ir.MkSeq(ty=None, elems=[ir.Var(ty=None, name=n) for n in names])
        for n, v in reversed(lets):
            chain = ir.Let(ty=None, name=n, value=v, body=chain)
        pre, post = f"{pyname}__prefix", f"{pyname}__rest"
        for name, ps, b in ((pre, ins, chain), (post, [*ins, *names, *tail], rest)):
            lines = gen_function(compiler, name, ps, b, 0, ("glob", name), True, None, set(), None)
            compiler.exec_src("\n".join(lines) + "\n", name)
            compiler.drain()
        self.prefix: Callable[..., Any] = compiler.ns[pre]
        self.rest: Callable[..., Any] = compiler.ns[post]
        self.inputs = inputs
        self.bound = len(names)
        self._key: tuple[int, ...] | None = None
        self._held: list[Any] = []
        self._values: tuple[Any, ...] = ()
        self._fuel = 0
        self.reused = 0  # calls that found their input's prefix computed (a test-visible count)

    def __call__(self, *argv: Any) -> Any:
        ins = argv[: self.inputs]
        key = tuple(id(v) for v in ins)
        budget = limits.current()
        if key == self._key:
            self.reused += 1
            if self._fuel:
                budget.charge(self._fuel)
        else:
            before = budget.spent
            values = self.prefix(*ins)
            self._key, self._held, self._values = key, list(ins), tuple(values)
            self._fuel = max(0, budget.spent - before)
        return self.rest(*ins, *self._values, *argv[self.inputs :])
