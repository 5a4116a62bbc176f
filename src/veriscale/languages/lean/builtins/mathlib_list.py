"""List and Nat functions from Mathlib / Batteries that model-written specifications use.

Each follows the library definition (stated per function); Props are decided by computing
them, as their ``Decidable`` instances do.
"""

from __future__ import annotations

import math
from typing import Any

from veriscale.runtime import limits

from .optional import define
from .support import fn2

__all__: list[str] = []


@define("List.Chain", "(α → α → Prop) → α → List α → Prop", "R a l")
def chain(r: Any, a: Any, xs: tuple) -> bool:
    """``Chain R a [b, c, …]``: ``R a b ∧ R b c ∧ …``."""
    g = fn2(r)
    prev = a
    for x in xs:
        if not g(prev, x):
            return False
        prev = x
    return True


@define("List.Chain'", "(α → α → Prop) → List α → Prop", "R l")
def chain_prime(r: Any, xs: tuple) -> bool:
    """``Chain' R [] = True``, ``Chain' R (a :: l) = Chain R a l``: ``R`` holds on adjacent pairs."""
    return True if not xs else chain(r, xs[0], xs[1:])


@define("List.Forall₂", "(α → β → Prop) → List α → List β → Prop", "R l₁ l₂")
def forall2(r: Any, xs: tuple, ys: tuple) -> bool:
    """Same length and ``R xs[i] ys[i]`` for every ``i``."""
    if len(xs) != len(ys):
        return False
    g = fn2(r)
    return all(g(a, b) for a, b in zip(xs, ys, strict=True))


@define("List.scanl", "(β → α → β) → β → List α → List β", "f init l")
def scanl(f: Any, init: Any, xs: tuple) -> tuple:
    """``[init, f init x₀, f (f init x₀) x₁, …]`` (length ``l.length + 1``)."""
    g = fn2(f)
    out = [init]
    acc = init
    for x in xs:
        acc = g(acc, x)
        out.append(acc)
    return tuple(out)


@define("List.scanr", "(α → β → β) → β → List α → List β", "f init l")
def scanr(f: Any, init: Any, xs: tuple) -> tuple:
    """``[foldr f init l, foldr f init l.tail, …, init]``."""
    g = fn2(f)
    out = [init]
    acc = init
    for x in reversed(xs):
        acc = g(x, acc)
        out.append(acc)
    return tuple(reversed(out))


@define("List.inits", "List α → List (List α)", "l")
def inits(xs: tuple) -> tuple:
    """Prefixes, shortest first: ``inits [1, 2] = [[], [1], [1, 2]]``."""
    limits.current().check_size(len(xs) * (len(xs) + 1) // 2)
    return tuple(xs[:i] for i in range(len(xs) + 1))


@define("List.tails", "List α → List (List α)", "l")
def tails(xs: tuple) -> tuple:
    """Suffixes, longest first: ``tails [1, 2] = [[1, 2], [2], []]``."""
    limits.current().check_size(len(xs) * (len(xs) + 1) // 2)
    return tuple(xs[i:] for i in range(len(xs) + 1))


@define("List.rotate", "List α → Nat → List α", "l n")
def rotate(xs: tuple, n: int) -> tuple:
    """Mathlib's ``rotate l n = drop (n % length l) l ++ take (n % length l) l``."""
    if not xs:
        return xs
    k = n % len(xs)
    return xs[k:] + xs[:k]


@define("List.product", "List α → List β → List (α × β)", "l₁ l₂")
def product(xs: tuple, ys: tuple) -> tuple:
    """All pairs, ``l₁``-major: ``[(a, b) | a ∈ l₁, b ∈ l₂]``."""
    limits.current().check_size(len(xs) * len(ys))
    return tuple((a, b) for a in xs for b in ys)


@define("Nat.ofDigits", "α → List Nat → α", "b L")
def of_digits(b: Any, ds: tuple) -> Any:
    """Little-endian: ``ofDigits b [] = 0``, ``ofDigits b (h :: t) = h + b * ofDigits b t``."""
    if not isinstance(b, int) or isinstance(b, bool):
        raise TypeError("Nat.ofDigits is supported for a Nat or Int base")
    acc = 0
    for d in reversed(ds):
        acc = d + b * acc
    return acc


@define("Nat.Coprime", "Nat → Nat → Prop", "m n")
def coprime(m: int, n: int) -> bool:
    """``Nat.gcd m n = 1``."""
    return math.gcd(m, n) == 1


@define("Even", "α → Prop", "n")
def even(n: Any) -> bool:
    """Mathlib's ``Even n`` (``∃ r, n = r + r``) on Nat/Int: ``n % 2 = 0``."""
    if type(n) is not int:
        raise TypeError("Even is supported on Nat and Int")
    return n % 2 == 0


@define("Odd", "α → Prop", "n")
def odd(n: Any) -> bool:
    """Mathlib's ``Odd n`` (``∃ m, n = 2 * m + 1``) on Nat/Int: ``n % 2 = 1``."""
    if type(n) is not int:
        raise TypeError("Odd is supported on Nat and Int")
    return n % 2 == 1
