"""Binders of a user enum type, enumerated structurally through the guard predicate that shapes them.

**Shape.** A quantifier over ``t: E`` (``E`` a user enum) with a conjunct (the antecedent of a
``forall``, a conjunct of an ``exists``) ``G(…, t, …)`` — ``t`` itself as one argument — where ``G`` is a
spec fn whose body is ``match t { … }`` over its parameter at that position, with one arm per variant
of ``E`` (no catch-all, no arm guard), every field bound by name or ``_``. In an arm
``V(f1, …, fm) => c1 && … && cr``:

* a conjunct ``H(…, *fk, …)`` (or ``fk``) where ``H`` again has this shape at that position (``G`` itself
  for a recursive type) gives field ``fk`` the values ``gen(H, args)``, the arguments evaluated with
  the arm's integer fields already chosen;
* comparison conjuncts bound an integer field from both sides by the parameters (``i < k < j``);
* a conjunct that mentions no field is evaluated first: FALSE means no value of this variant satisfies
  ``G``, so the arm gives nothing (an evaluation error prunes nothing);
* other conjuncts are ignored (the result is a superset; the quantifier body is evaluated on every
  value anyway).

Every field needs a recursive conjunct or a two-sided integer range (or the arm is refused).

**Why it is complete.** ``gen(G, args)`` contains every ``t`` with ``G(t, args)``, by induction on ``t``:
such a ``t`` is some variant ``V(v1, …)`` and ``G``'s arm for ``V`` holds, so every conjunct holds — the
field-free ones (so the arm is not pruned), the integer bounds (so ``vk`` is in its range), and
``H(…, vk, …)`` (so ``vk`` is in ``gen(H, …)`` by induction, ``vk`` being a strict sub-value of ``t``).

**Finite.** Termination is not proved from the arguments (SplitTree(lo, hi) shrinks ``hi - lo``, which
a ``decreases`` clause states but this module does not read): the nesting depth of ``gen`` calls is
capped at ``MAX_DEPTH`` and the number of values at ``MAX_VALUES``; past either the binder keeps its old
"cannot be enumerated" verdict (UNKNOWN). Results are memoised per (fn, position, arguments), values are
produced in arm order, integer fields in increasing order, so the order never depends on hashing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from veriscale.runtime import limits
from veriscale.values.types import TCon

from . import runtime as rt
from .ast import Binary, Call, Expr, Match, Path, PBind, PVariant, PWild, Unary
from .bounds import _derive, _relations, free_vars

__all__ = ["MAX_DEPTH", "MAX_VALUES", "guard_calls", "make_generator"]

MAX_DEPTH = 200
MAX_VALUES = 200_000


class _NoGen(Exception):
    """The shape is not recognised, or a cap was reached: the binder keeps its other strategies."""


def guard_calls(atoms: list[Expr], x: str) -> list[tuple[Call, int]]:
    """Conjuncts ``G(…, x, …)`` with ``x`` exactly one argument: (call, position)."""
    out: list[tuple[Call, int]] = []
    for a in atoms:
        if not isinstance(a, Call):
            continue
        pos = [k for k, arg in enumerate(a.args) if isinstance(arg, Path) and arg.is_local and arg.name == x]
        if len(pos) == 1 and not any(x in free_vars(arg) for k, arg in enumerate(a.args) if k != pos[0]):
            out.append((a, pos[0]))
    return out


def _field_ref(e: Expr, fields: set[str]) -> str | None:
    while isinstance(e, Unary) and e.op == "*":
        e = e.expr
    if isinstance(e, Path) and e.is_local and e.name in fields:
        return e.name
    return None


def _is_enum(t: Any, enum: str) -> bool:
    while isinstance(t, TCon) and t.name == "Box" and len(t.args) == 1:
        t = t.args[0]
    return isinstance(t, TCon) and t.name == enum and not t.args


def _conjuncts(e: Expr) -> list[Expr]:
    if isinstance(e, Binary) and e.op == "&&":
        return _conjuncts(e.lhs) + _conjuncts(e.rhs)
    return [e]


class _Arm:
    """One match arm, compiled: the variant, its fields, and how each field gets its values."""

    def __init__(self, gen: _Generator, fn: Any, pat: PVariant, body: Expr) -> None:
        self.variant = pat.path[-1]
        names: list[str | None] = []
        for item in pat.items:
            if isinstance(item, PBind):
                names.append(item.name)
            elif isinstance(item, PWild):
                names.append(None)
            else:
                raise _NoGen("a nested pattern")
        if any(n is None for n in names):
            raise _NoGen("a field bound by _ has no domain")
        self.fields = [n for n in names if n is not None]
        fieldset = set(self.fields)
        params = [n for n, _ in fn.params]
        scope = frozenset(params) | fieldset
        self.filters: list[Callable[[dict[str, Any]], Any]] = []
        self.recs: dict[str, tuple[Any, int, list[Callable[[dict[str, Any]], Any]]]] = {}
        rels = []
        rec_calls: list[tuple[Call, int]] = []
        for c in _conjuncts(body):
            used = free_vars(c) & fieldset
            if not used:
                self.filters.append(gen.compile(c, frozenset(params)))
                continue
            callee = gen.fn_of(c) if isinstance(c, Call) else None
            if isinstance(c, Call) and callee is not None and len(callee.params) == len(c.args):
                # the field passed where the callee takes a value of this enum
                refs = [
                    (k, _field_ref(a, fieldset))
                    for k, a in enumerate(c.args)
                    if _is_enum(callee.params[k][1], gen.enum)
                ]
                hits = [(k, f) for k, f in refs if f is not None]
                if len(hits) == 1:
                    k, f = hits[0]
                    rest = [a for j, a in enumerate(c.args) if j != k]
                    if f not in self.recs and not any(f in free_vars(a) for a in rest):
                        self.recs[f] = (callee, k, [gen.compile(a, scope) for a in c.args])
                        rec_calls.append((c, k))
                        continue
            rels.extend(_relations(c))
        self.ints: list[tuple[str, list[Any], list[Any]]] = []  # (field, lowers, uppers), in field order
        for f in self.fields:
            if f in self.recs:
                continue
            plan = _derive(f, [f], rels, set(), None)
            lows = [
                (gen.compile(e, frozenset(params)), s)
                for e, s in plan.lowers
                if not (free_vars(e) & fieldset)
            ]
            ups = [
                (gen.compile(e, frozenset(params)), s)
                for e, s in plan.uppers
                if not (free_vars(e) & fieldset)
            ]
            if not lows or not ups:
                raise _NoGen(f"field {f} of variant {self.variant} has no two-sided range")
            self.ints.append((f, lows, ups))
        recs = set(self.recs)
        for c, k in rec_calls:  # a recursive field's other arguments may use integer fields only
            if any(free_vars(a) & recs for j, a in enumerate(c.args) if j != k):
                raise _NoGen("a recursive field's arguments mention another recursive field")


def _bound(fns: list[tuple[Callable[[dict[str, Any]], Any], bool]], env: dict[str, Any], upper: bool) -> int:
    best: int | None = None
    for f, strict in fns:
        v = f(env)
        if isinstance(v, bool) or not isinstance(v, int):
            raise _NoGen("a bound is not an integer")
        v = (v - 1 if upper else v + 1) if strict else v
        best = v if best is None else (min(best, v) if upper else max(best, v))
    assert best is not None
    return best


class _Generator:
    """``gen(fn, pos, args)``: the values of the enum parameter at ``pos`` that can satisfy ``fn``."""

    def __init__(self, compiler: Any, enum: str) -> None:
        self.compiler = compiler
        self.enum = enum
        self.arms: dict[tuple[str, int], list[_Arm]] = {}
        self.memo: dict[Any, list[Any]] = {}
        self.depth = 0
        self.count = 0

    def compile(self, e: Expr, scope: frozenset[str]) -> Callable[[dict[str, Any]], Any]:
        return self.compiler.compile(e, scope)

    def fn_of(self, call: Call) -> Any:
        return self.compiler.lookup_fn(call.func.segments) if isinstance(call.func, Path) else None

    def arms_of(self, fn: Any, pos: int) -> list[_Arm]:
        key = (fn.name, pos)
        if key not in self.arms:
            self.arms[key] = []  # a recursive reference while compiling finds the (filled-in) list
            self.arms[key] = self._compile_arms(fn, pos)
        return self.arms[key]

    def _compile_arms(self, fn: Any, pos: int) -> list[_Arm]:
        body = fn.body
        if body is None or pos >= len(fn.params) or not isinstance(body, Match):
            raise _NoGen(f"spec fn {fn.name} is not a match on its enum parameter")
        scrut = body.scrutinee
        if not (isinstance(scrut, Path) and scrut.is_local and scrut.name == fn.params[pos][0]):
            raise _NoGen(f"spec fn {fn.name} does not match on parameter {pos}")
        variants = list(self.compiler.ctx.enums.get(self.enum, []))
        arms: list[_Arm] = []
        seen: list[str] = []
        for pat, guard, arm_body in body.arms:
            if guard is not None or not isinstance(pat, PVariant):
                raise _NoGen("an arm with a guard or a catch-all pattern")
            if len(pat.path) >= 2 and pat.path[-2] != self.enum:
                raise _NoGen("an arm of another enum")
            if pat.named is not None or pat.path[-1] not in variants or pat.path[-1] in seen:
                raise _NoGen("an arm that is not one positional variant of the enum")
            seen.append(pat.path[-1])
            arms.append(_Arm(self, fn, pat, arm_body))
        if sorted(seen) != sorted(variants):
            raise _NoGen("the match does not list every variant")
        return arms

    def gen(self, fn: Any, pos: int, args: list[Any]) -> list[Any]:
        try:
            key = (fn.name, pos, *(a for k, a in enumerate(args) if k != pos))
            hash(key)
        except TypeError:
            raise _NoGen("an unhashable argument") from None
        if key in self.memo:
            return self.memo[key]
        if self.depth >= MAX_DEPTH:
            raise _NoGen(f"enum values nested deeper than {MAX_DEPTH}")
        self.depth += 1
        try:
            out = self._gen(fn, pos, args)
        finally:
            self.depth -= 1
        self.memo[key] = out
        return out

    def _gen(self, fn: Any, pos: int, args: list[Any]) -> list[Any]:
        env0 = {n: a for (n, _), a in zip(fn.params, args)}
        out: list[Any] = []
        for arm in self.arms_of(fn, pos):
            if not _filters_may_hold(arm, env0):
                continue
            int_ranges = []
            combos = 1
            for f, lows, ups in arm.ints:
                lo, hi = _bound(lows, env0, False), _bound(ups, env0, True)
                int_ranges.append((f, range(lo, hi + 1) if hi >= lo else range(0)))
                combos *= len(int_ranges[-1][1])
            if combos > MAX_VALUES:
                raise _NoGen(f"more than {MAX_VALUES} integer field values")
            for ints in itertools.product(*(r for _, r in int_ranges)):
                limits.charge(1)
                env = dict(env0)
                env.update(zip((f for f, _ in int_ranges), ints))
                field_vals: dict[str, list[Any]] = dict(zip((f for f, _ in int_ranges), ([v] for v in ints)))
                for f, (callee, k, arg_fns) in arm.recs.items():
                    sub_args = [a(env) if j != k else None for j, a in enumerate(arg_fns)]
                    field_vals[f] = self.gen(callee, k, sub_args)
                for combo in itertools.product(*(field_vals[f] for f in arm.fields)):
                    limits.charge(1)
                    self.count += 1
                    if self.count > MAX_VALUES:
                        raise _NoGen(f"more than {MAX_VALUES} enum values")
                    out.append(rt.Variant(arm.variant, tuple(combo)))
        return out


def _filters_may_hold(arm: _Arm, env: dict[str, Any]) -> bool:
    for f in arm.filters:
        try:
            v = f(env)
        except rt.SpecError:
            continue  # unknown: prunes nothing
        if v is False:
            return False
    return True


def make_generator(
    compiler: Any, enum: str, guards: list[tuple[Call, int]], scope: frozenset[str]
) -> Callable[[dict[str, Any]], list[Any] | None] | None:
    """``domain(env)``: the values of the binder from the first guard that has the shape (None when
    evaluating it reaches a cap or an unsupported construct); None when no guard names a spec fn."""
    cands = []
    for call, pos in guards:
        fn = compiler.lookup_fn(call.func.segments) if isinstance(call.func, Path) else None
        if fn is None or len(fn.params) != len(call.args):
            continue
        arg_fns = [compiler.compile(a, scope) if k != pos else None for k, a in enumerate(call.args)]
        cands.append((fn, pos, arg_fns))
    if not cands:
        return None

    def domain(env: dict[str, Any]) -> list[Any] | None:
        for fn, pos, arg_fns in cands:
            gen = _Generator(compiler, enum)
            try:
                args = [a(env) if a is not None else None for a in arg_fns]
                return gen.gen(fn, pos, args)
            except (_NoGen, rt.SpecError):
                continue
        return None

    return domain
