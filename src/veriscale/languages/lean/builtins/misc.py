"""Global functions (``max``, ``min``, ``id``, ``Function.comp``, Bool connectives).

Type-dependent globals are not registered here because their result depends
on an instance rather than on the value: the evaluator should compute
``toString x`` as ``ops.lean_to_string(T, x)``, ``repr x`` as
``ops.lean_repr(T, x)``, ``decide p`` as ``p`` itself, ``Id.run e`` as ``e``,
and ``panic! msg`` / ``default`` as ``default_value(T)``.
"""

from __future__ import annotations

from typing import Any

from . import ops
from .optional import define
from .support import fn1, fn2


@define("max", "α → α → α", "a b")
def max_(a: Any, b: Any) -> Any:
    """``if a ≤ b then b else a``."""
    return ops.lean_max(a, b)


@define("min", "α → α → α", "a b")
def min_(a: Any, b: Any) -> Any:
    """``if a ≤ b then a else b``."""
    return ops.lean_min(a, b)


@define("id", "α → α", "a")
def id_(a: Any) -> Any:
    return a


@define("abs", "α → α", "a")
def abs_(a: Any) -> Any:
    """Mathlib's ``|a|`` (``abs``) on Int or Float."""
    return abs(a)


@define("Function.comp", "(β → γ) → (α → β) → α → γ", "f g x")
def comp(f: Any, g: Any, x: Any) -> Any:
    return fn1(f)(fn1(g)(x))


@define("flip", "(α → β → γ) → β → α → γ", "f b a")
def flip(f: Any, b: Any, a: Any) -> Any:
    return fn2(f)(a, b)


@define("cond", "Bool → α → α → α", "c x y")
def cond(c: bool, x: Any, y: Any) -> Any:
    return x if c else y


@define("not", "Bool → Bool", "b")
def not_(b: bool) -> bool:
    return not b


@define("and", "Bool → Bool → Bool", "x y")
def and_(x: bool, y: bool) -> bool:
    return x and y


@define("or", "Bool → Bool → Bool", "x y")
def or_(x: bool, y: bool) -> bool:
    return x or y


@define("xor", "Bool → Bool → Bool", "x y")
def xor(x: bool, y: bool) -> bool:
    return x != y


@define("Bool.not", "Bool → Bool", "b")
def bool_not(b: bool) -> bool:
    return not b


@define("Bool.and", "Bool → Bool → Bool", "x y")
def bool_and(x: bool, y: bool) -> bool:
    return x and y


@define("Bool.or", "Bool → Bool → Bool", "x y")
def bool_or(x: bool, y: bool) -> bool:
    return x or y


@define("Bool.xor", "Bool → Bool → Bool", "x y")
def bool_xor(x: bool, y: bool) -> bool:
    return x != y


@define("Bool.toNat", "Bool → Nat", "b")
def bool_to_nat(b: bool) -> int:
    return 1 if b else 0
