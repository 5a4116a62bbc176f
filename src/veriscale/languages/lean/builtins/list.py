"""``List`` builtins (Lean 4.18 core, plus the Batteries/Mathlib names models use).

Lists are Python tuples. Signatures follow Lean's explicit-argument order,
e.g. ``List.take (n) (l)``, ``List.foldl (f) (init) (l)``, ``List.flatMap (f) (l)``.
Predicates (``α → Prop``) come back as Python bools.
"""

from __future__ import annotations

import operator
from collections import Counter
from typing import Any

from veriscale.runtime import limits
from veriscale.values.runtime import Fn, HSet, Some

from ..errors import EvalError
from . import ops
from .optional import const, define
from .registry import self_charging
from .support import (
    bcontains,
    bcontains_indexed,
    bcount,
    bindex,
    charged_parts,
    fn1,
    fn2,
    guard_size,
    hashable_scalars,
)

_LE = Fn(2, ops.rel_le, "LE.le")

# ----------------------------------------------------------------- basics


@define("List.length", "List α → Nat", "as")
def length(xs: tuple) -> int:
    return len(xs)


@define("List.isEmpty", "List α → Bool", "as")
def is_empty(xs: tuple) -> bool:
    return not xs


@define("List.nil", "List α")
def nil() -> tuple:
    return ()


@define("List.cons", "α → List α → List α", "head tail")
def cons(x: Any, xs: tuple) -> tuple:
    return (x, *xs)


@define("List.singleton", "α → List α", "a")
def singleton(x: Any) -> tuple:
    return (x,)


@define("List.append", "List α → List α → List α", "xs ys")
def append(xs: tuple, ys: tuple) -> tuple:
    limits.current().refuse_size(len(xs) + len(ys))  # (the registry charges for the arguments)
    return xs + ys


@define("List.concat", "List α → α → List α", "l a")
def concat(xs: tuple, a: Any) -> tuple:
    return (*xs, a)


@define("List.reverse", "List α → List α", "as")
def reverse(xs: tuple) -> tuple:
    return xs[::-1]


@define("List.toArray", "List α → Array α", "xs")
def to_array(xs: tuple) -> tuple:
    return xs


@define("List.asString", "List Char → String", "s")
def as_string(cs: tuple) -> str:
    return "".join(cs)


@define("List.beq", "List α → List α → Bool", "as bs")
def list_beq(xs: tuple, ys: tuple) -> bool:
    return ops.beq(xs, ys)


# ------------------------------------------------------------ head / tail


@define("List.head!", "List α → α", "as", inhabited="α")
def head_bang(dflt: Any, xs: tuple) -> Any:
    return xs[0] if xs else dflt


@define("List.head?", "List α → Option α", "as")
def head_opt(xs: tuple) -> Any:
    return Some(xs[0]) if xs else None


@define("List.headD", "List α → α → α", "as fallback")
def head_d(xs: tuple, fallback: Any) -> Any:
    return xs[0] if xs else fallback


@define("List.head", "List α → α", "as", proofs="h")
def head(xs: tuple, _h: object) -> Any:
    """``List.head (as) (h : as ≠ [])``; the proof is ignored."""
    if not xs:
        raise EvalError("List.head of an empty list")
    return xs[0]


@define("List.tail", "List α → List α", "as")
def tail(xs: tuple) -> tuple:
    return xs[1:]


@define("List.tail!", "List α → List α", "as")
def tail_bang(xs: tuple) -> tuple:
    return xs[1:]  # [] panics and returns default = []


@define("List.tail?", "List α → Option (List α)", "as")
def tail_opt(xs: tuple) -> Any:
    return Some(xs[1:]) if xs else None


@define("List.tailD", "List α → List α → List α", "as fallback")
def tail_d(xs: tuple, fallback: tuple) -> tuple:
    return xs[1:] if xs else fallback


@define("List.getLast", "List α → α", "as", proofs="h")
def get_last(xs: tuple, _h: object) -> Any:
    """``List.getLast (as) (h : as ≠ [])``; the proof is ignored."""
    if not xs:
        raise EvalError("List.getLast of an empty list")
    return xs[-1]


@define("List.getLast?", "List α → Option α", "as")
def get_last_opt(xs: tuple) -> Any:
    return Some(xs[-1]) if xs else None


@define("List.getLast!", "List α → α", "as", inhabited="α")
def get_last_bang(dflt: Any, xs: tuple) -> Any:
    return xs[-1] if xs else dflt


@define("List.getLastD", "List α → α → α", "as fallback")
def get_last_d(xs: tuple, fallback: Any) -> Any:
    return xs[-1] if xs else fallback


@define("List.dropLast", "List α → List α", "as")
def drop_last(xs: tuple) -> tuple:
    return xs[:-1]


# ---------------------------------------------------------------- indexing


@define("List.get?", "List α → Nat → Option α", "as i")
def get_opt(xs: tuple, i: int) -> Any:
    return Some(xs[i]) if i < len(xs) else None


@define("List.get!", "List α → Nat → α", "as i", inhabited="α")
def get_bang(dflt: Any, xs: tuple, i: int) -> Any:
    return xs[i] if i < len(xs) else dflt


@define("List.getD", "List α → Nat → α → α", "as i fallback")
def get_d(xs: tuple, i: int, fallback: Any) -> Any:
    return xs[i] if i < len(xs) else fallback


@define("List.set", "List α → Nat → α → List α", "l n a")
def set_(xs: tuple, i: int, a: Any) -> tuple:
    if i >= len(xs):
        return xs
    return (*xs[:i], a, *xs[i + 1 :])


@define("List.eraseIdx", "List α → Nat → List α", "l i")
def erase_idx(xs: tuple, i: int) -> tuple:
    return xs[:i] + xs[i + 1 :] if i < len(xs) else xs


@define("List.take", "Nat → List α → List α", "n xs")
def take(n: int, xs: tuple) -> tuple:
    return xs[:n]


@define("List.drop", "Nat → List α → List α", "n xs")
def drop(n: int, xs: tuple) -> tuple:
    return xs[n:]


@define("List.splitAt", "Nat → List α → List α × List α", "n l")
def split_at(n: int, xs: tuple) -> tuple:
    return (xs[:n], xs[n:])


@define(
    "List.extract",
    "List α → Nat → Nat → List α",
    "l start stop",
    defaults={"start": const(0), "stop": lambda a: len(a[0])},
)
def extract(xs: tuple, start: int, stop: int) -> tuple:
    """``(l.drop start).take (stop - start)``."""
    return xs[start:stop] if stop > start else ()


# ---------------------------------------------------------- construction


@define("List.range", "Nat → List Nat", "n")
def range_(n: int) -> tuple:
    guard_size(n)
    return tuple(range(n))


@define("List.range'", "Nat → Nat → Nat → List Nat", "start len step", defaults={"step": const(1)})
def range_prime(start: int, n: int, step: int) -> tuple:
    """``[start, start + step, …]`` of length ``n`` (not Python's ``range(start, n)``)."""
    guard_size(n)
    return tuple(start + step * i for i in range(n))


@define("List.iota", "Nat → List Nat", "n")
def iota(n: int) -> tuple:
    guard_size(n)
    return tuple(range(n, 0, -1))


@define("List.replicate", "Nat → α → List α", "n a")
def replicate(n: int, a: Any) -> tuple:
    guard_size(n)
    return (a,) * n


@define("List.zip", "List α → List β → List (α × β)", "xs ys")
def zip_(xs: tuple, ys: tuple) -> tuple:
    return tuple(zip(xs, ys))


@define("List.zipWith", "(α → β → γ) → List α → List β → List γ", "f xs ys")
def zip_with(f: Any, xs: tuple, ys: tuple) -> tuple:
    g = fn2(f)
    return tuple(g(x, y) for x, y in zip(xs, ys))


@define("List.unzip", "List (α × β) → List α × List β", "l")
def unzip(xs: tuple) -> tuple:
    return (tuple(p[0] for p in xs), tuple(p[1] for p in xs))


@define("List.zipIdx", "List α → Nat → List (α × Nat)", "l n", defaults={"n": const(0)})
def zip_idx(xs: tuple, n: int) -> tuple:
    """Pairs ``(x, i)``: element first, index second."""
    return tuple((x, n + i) for i, x in enumerate(xs))


@define("List.enumFrom", "Nat → List α → List (Nat × α)", "n l")
def enum_from(n: int, xs: tuple) -> tuple:
    return tuple((n + i, x) for i, x in enumerate(xs))


@define("List.enum", "List α → List (Nat × α)", "l")
def enum(xs: tuple) -> tuple:
    return tuple(enumerate(xs))


@define("List.flatten", "List (List α) → List α", "l")
def flatten(xss: tuple) -> tuple:
    return tuple(x for xs in xss for x in xs)


@define("List.join", "List (List α) → List α", "l")
def join(xss: tuple) -> tuple:
    return flatten(xss)


@define("List.flatMap", "(α → List β) → List α → List β", "b as")
def flat_map(f: Any, xs: tuple) -> tuple:
    g = fn1(f)
    out: list = []
    for x in xs:
        out.extend(g(x))
    return tuple(out)


@define("List.intersperse", "α → List α → List α", "sep l")
def intersperse(sep: Any, xs: tuple) -> tuple:
    out: list = []
    for i, x in enumerate(xs):
        if i:
            out.append(sep)
        out.append(x)
    return tuple(out)


@define("List.intercalate", "List α → List (List α) → List α", "sep xs")
def intercalate(sep: tuple, xss: tuple) -> tuple:
    out: list = []
    for i, xs in enumerate(xss):
        if i:
            out.extend(sep)
        out.extend(xs)
    return tuple(out)


@define("List.rotateLeft", "List α → Nat → List α", "l n", defaults={"n": const(1)})
def rotate_left(xs: tuple, n: int) -> tuple:
    if len(xs) <= 1:
        return xs
    n %= len(xs)
    return xs[n:] + xs[:n]


@define("List.rotateRight", "List α → Nat → List α", "l n", defaults={"n": const(1)})
def rotate_right(xs: tuple, n: int) -> tuple:
    """Rotate right by ``n % length``: ``[1,2,3,4,5].rotateRight 2 = [4,5,1,2,3]``."""
    if len(xs) <= 1:
        return xs
    k = len(xs) - n % len(xs)
    return xs[k:] + xs[:k]


@define("List.sublists", "List α → List (List α)", "l")
def sublists(xs: tuple) -> tuple:
    """Batteries/Mathlib order: ``sublists [1,2,3] = [[],[1],[2],[1,2],[3],[1,3],[2,3],[1,2,3]]``."""
    guard_size(1 << len(xs))
    acc: list[tuple] = [()]
    for a in reversed(xs):
        nxt: list[tuple] = []
        for s in acc:
            nxt.append(s)
            nxt.append((a, *s))
        acc = nxt
    return tuple(acc)


# -------------------------------------------------------- higher order


@define("List.map", "(α → β) → List α → List β", "f l")
def map_(f: Any, xs: tuple) -> tuple:
    g = fn1(f)
    parts = charged_parts(g)
    if parts is not None:
        # A builtin mapped over a list (``xs.map List.reverse``): its registry wrapper's charge,
        # inlined — the same fuel, charged at the same points — without a wrapper call per element.
        impl, pre, pre_n = parts
        charge = limits.charge
        if impl is reverse and not pre:  # (reversing cannot fail: charge all, then build in C)
            for x in xs:
                if (type(x) is tuple or type(x) is str) and len(x) > 16:
                    charge(len(x))
            return tuple([x[::-1] for x in xs])
        out = []
        for x in xs:
            n = pre_n + len(x) if type(x) is tuple or type(x) is str else pre_n
            if n > 16:
                charge(n)
            out.append(impl(*pre, x))
        return tuple(out)
    return tuple([g(x) for x in xs])


@define("List.mapIdx", "(Nat → α → β) → List α → List β", "f l")
def map_idx(f: Any, xs: tuple) -> tuple:
    g = fn2(f)
    return tuple([g(i, x) for i, x in enumerate(xs)])


@define("List.filter", "(α → Bool) → List α → List α", "p l")
def filter_(p: Any, xs: tuple) -> tuple:
    g = fn1(p)
    parts = charged_parts(g)
    if parts is not None:  # a builtin predicate: its wrapper's charge inlined (see ``map_``)
        impl, pre, pre_n = parts
        charge = limits.charge
        out = []
        for x in xs:
            n = pre_n + len(x) if type(x) is tuple or type(x) is str else pre_n
            if n > 16:
                charge(n)
            if impl(*pre, x):
                out.append(x)
        return tuple(out)
    return tuple([x for x in xs if g(x)])


@define("List.filterMap", "(α → Option β) → List α → List β", "f l")
def filter_map(f: Any, xs: tuple) -> tuple:
    g = fn1(f)
    out = []
    for x in xs:
        r = g(x)
        if r is not None:
            out.append(r.val)
    return tuple(out)


_HS_INSERT: list[Any] = []  # the registered ``Std.HashSet.insert`` (looked up on first use)


def _hs_insert_impl() -> Any:
    if not _HS_INSERT:
        from .registry import lookup

        b = lookup("Std.HashSet.insert")
        _HS_INSERT.append(b.impl if b is not None else None)
    return _HS_INSERT[0]


def _insert_all(s: HSet, xs: tuple) -> HSet | None:
    """``xs.foldl (·.insert ·) s`` in one step, or None when a step could charge fuel.

    The plain fold calls the ``insert`` builtin per element; its wrapper charges only for a
    tuple or string argument of more than 16 elements, so with scalar elements short of that
    no step charges and the steps only add each new element at the end, in order of first
    occurrence (``dict.update`` keeps the place of a key already there). The ``foldl`` wrapper's
    own charge for ``xs`` has been made by the caller, as before."""
    for x in xs:
        t = type(x)
        if not (t is int or t is bool or (t is str and len(x) <= 16)):
            return None
    d = s._d
    if all(x in d for x in xs):
        return s
    out = HSet()
    out._d = dict(d)
    out._d.update(dict.fromkeys(xs))
    return out


@define("List.foldl", "(α → β → α) → α → List β → α", "f init l")
def foldl(f: Any, init: Any, xs: tuple) -> Any:
    if type(init) is HSet and type(f) is Fn and f.arity == 2 and f.fn is _hs_insert_impl():
        got = _insert_all(init, xs)  # a set built by inserting every element: see there
        if got is not None:
            return got
    g = fn2(f)
    acc = init
    for x in xs:
        acc = g(acc, x)
    return acc


@define("List.foldr", "(α → β → β) → β → List α → β", "f init l")
def foldr(f: Any, init: Any, xs: tuple) -> Any:
    g = fn2(f)
    acc = init
    for x in reversed(xs):
        acc = g(x, acc)
    return acc


@define("List.all", "List α → (α → Bool) → Bool", "l p")
def all_(xs: tuple, p: Any) -> bool:
    g = fn1(p)
    for x in xs:
        if not g(x):
            return False
    return True


@define("List.any", "List α → (α → Bool) → Bool", "l p")
def any_(xs: tuple, p: Any) -> bool:
    g = fn1(p)
    for x in xs:
        if g(x):
            return True
    return False


@define("List.and", "List Bool → Bool", "bs")
def and_(bs: tuple) -> bool:
    return all(bs)


@define("List.or", "List Bool → Bool", "bs")
def or_(bs: tuple) -> bool:
    return any(bs)


@define("List.find?", "(α → Bool) → List α → Option α", "p l")
def find_opt(p: Any, xs: tuple) -> Any:
    g = fn1(p)
    for x in xs:
        if g(x):
            return Some(x)
    return None


@define("List.findSome?", "(α → Option β) → List α → Option β", "f l")
def find_some(f: Any, xs: tuple) -> Any:
    g = fn1(f)
    for x in xs:
        r = g(x)
        if r is not None:
            return r
    return None


@define("List.findIdx", "(α → Bool) → List α → Nat", "p l")
def find_idx(p: Any, xs: tuple) -> int:
    """Index of the first match, or ``length`` when there is none."""
    g = fn1(p)
    for i, x in enumerate(xs):
        if g(x):
            return i
    return len(xs)


@define("List.findIdx?", "(α → Bool) → List α → Option Nat", "p l")
def find_idx_opt(p: Any, xs: tuple) -> Any:
    g = fn1(p)
    for i, x in enumerate(xs):
        if g(x):
            return Some(i)
    return None


@define("List.countP", "(α → Bool) → List α → Nat", "p l")
def count_p(p: Any, xs: tuple) -> int:
    g = fn1(p)
    return sum(1 for x in xs if g(x))


@define("List.partition", "(α → Bool) → List α → List α × List α", "p as")
def partition(p: Any, xs: tuple) -> tuple:
    g = fn1(p)
    yes, no = [], []
    for x in xs:
        (yes if g(x) else no).append(x)
    return (tuple(yes), tuple(no))


@define("List.span", "(α → Bool) → List α → List α × List α", "p as")
def span(p: Any, xs: tuple) -> tuple:
    g = fn1(p)
    for i, x in enumerate(xs):
        if not g(x):
            return (xs[:i], xs[i:])
    return (xs, ())


@define("List.takeWhile", "(α → Bool) → List α → List α", "p xs")
def take_while(p: Any, xs: tuple) -> tuple:
    return span(p, xs)[0]


@define("List.dropWhile", "(α → Bool) → List α → List α", "p xs")
def drop_while(p: Any, xs: tuple) -> tuple:
    return span(p, xs)[1]


# ------------------------------------------------------- numeric folds


@define("List.sum", "List α → α", "l", inhabited="α")
def sum_(zero: Any, xs: tuple) -> Any:
    """``foldr (· + ·) 0``; the zero is ``default`` of the element type (0 or 0.0)."""
    if type(zero) is float:
        acc = zero
        for x in reversed(xs):  # right fold: float rounding follows Lean's order
            acc = x + acc
        return acc
    return sum(xs, zero)


@define("List.prod", "List α → α", "l", inhabited="α")
def prod(zero: Any, xs: tuple) -> Any:
    """Mathlib's ``List.prod = foldr (· * ·) 1``."""
    acc = zero + 1
    for x in reversed(xs):
        acc = x * acc
    return acc


@define("List.max?", "List α → Option α", "l")
def max_opt(xs: tuple) -> Any:
    """``foldl max head tail`` with ``max a b = if a ≤ b then b else a``."""
    if not xs:
        return None
    acc = xs[0]
    for x in xs[1:]:
        acc = ops.lean_max(acc, x)
    return Some(acc)


@define("List.min?", "List α → Option α", "l")
def min_opt(xs: tuple) -> Any:
    if not xs:
        return None
    acc = xs[0]
    for x in xs[1:]:
        acc = ops.lean_min(acc, x)
    return Some(acc)


# ------------------------------------------------------- BEq searches


@define("List.contains", "List α → α → Bool", "as a")
@self_charging
def contains(xs: tuple, a: Any) -> bool:
    return bcontains_indexed(xs, a)


@define("List.elem", "α → List α → Bool", "a l")
@self_charging
def elem(a: Any, xs: tuple) -> bool:
    return bcontains_indexed(xs, a)


@define("List.count", "α → List α → Nat", "a l")
def count(a: Any, xs: tuple) -> int:
    return bcount(xs, a)


@define("List.idxOf", "α → List α → Nat", "a l")
def idx_of(a: Any, xs: tuple) -> int:
    """Index of the first ``== a``, or ``length`` when absent."""
    return bindex(xs, a)


@define("List.indexOf", "α → List α → Nat", "a l")
def index_of(a: Any, xs: tuple) -> int:
    return bindex(xs, a)


@define("List.idxOf?", "α → List α → Option Nat", "a l")
def idx_of_opt(a: Any, xs: tuple) -> Any:
    i = bindex(xs, a)
    return Some(i) if i < len(xs) else None


@define("List.indexOf?", "α → List α → Option Nat", "a l")
def index_of_opt(a: Any, xs: tuple) -> Any:
    return idx_of_opt(a, xs)


@define("List.lookup", "α → List (α × β) → Option β", "a l")
def lookup(a: Any, xs: tuple) -> Any:
    for k, v in xs:
        if ops.beq(a, k):
            return Some(v)
    return None


@define("List.erase", "List α → α → List α", "l a")
def erase(xs: tuple, a: Any) -> tuple:
    """Removes the first occurrence."""
    i = bindex(xs, a)
    return xs[:i] + xs[i + 1 :] if i < len(xs) else xs


@define("List.replace", "List α → α → α → List α", "l a b")
def replace(xs: tuple, a: Any, b: Any) -> tuple:
    """Replaces the first occurrence of ``a`` by ``b``."""
    i = bindex(xs, a)
    return (*xs[:i], b, *xs[i + 1 :]) if i < len(xs) else xs


@define("List.insert", "α → List α → List α", "a l")
def insert(a: Any, xs: tuple) -> tuple:
    return xs if bcontains(xs, a) else (a, *xs)


@define("List.removeAll", "List α → List α → List α", "xs ys")
def remove_all(xs: tuple, ys: tuple) -> tuple:
    return tuple(x for x in xs if not bcontains(ys, x))


@define("List.diff", "List α → List α → List α", "l₁ l₂")
def diff(xs: tuple, ys: tuple) -> tuple:
    """Batteries ``diff``: removes one occurrence of each element of the second list."""
    for y in ys:
        xs = erase(xs, y)
    return xs


@define("List.inter", "List α → List α → List α", "l₁ l₂")
def inter(xs: tuple, ys: tuple) -> tuple:
    return tuple(x for x in xs if bcontains(ys, x))


@define("List.union", "List α → List α → List α", "l₁ l₂")
def union(xs: tuple, ys: tuple) -> tuple:
    """``foldr insert l₂ l₁``: elements of ``l₁`` missing from the result so far, then ``l₂``."""
    acc = ys
    for x in reversed(xs):
        acc = insert(x, acc)
    return acc


@define("List.bagInter", "List α → List α → List α", "l₁ l₂")
def bag_inter(xs: tuple, ys: tuple) -> tuple:
    out = []
    for x in xs:
        if not ys:
            break
        if bcontains(ys, x):
            out.append(x)
            ys = erase(ys, x)
    return tuple(out)


@define("List.eraseDups", "List α → List α", "as")
def erase_dups(xs: tuple) -> tuple:
    """Keeps the first occurrence of each element."""
    if hashable_scalars(xs):
        return tuple(dict.fromkeys(xs))
    out: list = []
    for x in xs:
        if not bcontains(out, x):
            out.append(x)
    return tuple(out)


@define("List.dedup", "List α → List α", "l")
def dedup(xs: tuple) -> tuple:
    """Mathlib ``dedup`` (``pwFilter (· ≠ ·)``) keeps the *last* occurrence of each element."""
    return erase_dups(xs[::-1])[::-1]


# ------------------------------------------------------- list relations


@define("List.isPrefixOf", "List α → List α → Bool", "l₁ l₂")
def is_prefix_of(xs: tuple, ys: tuple) -> bool:
    return len(xs) <= len(ys) and ops.beq(xs, ys[: len(xs)])


@define("List.isSuffixOf", "List α → List α → Bool", "l₁ l₂")
def is_suffix_of(xs: tuple, ys: tuple) -> bool:
    return len(xs) <= len(ys) and ops.beq(xs, ys[len(ys) - len(xs) :])


def _subsequence(xs: tuple, ys: tuple) -> bool:
    it = iter(ys)
    return all(any(ops.beq(x, y) for y in it) for x in xs)


@define("List.isSublist", "List α → List α → Bool", "l₁ l₂")
def is_sublist(xs: tuple, ys: tuple) -> bool:
    return _subsequence(xs, ys)


@define("List.Sublist", "List α → List α → Prop", "l₁ l₂")
def sublist(xs: tuple, ys: tuple) -> bool:
    """``l₁ <+ l₂``: ``l₁`` is a (not necessarily contiguous) subsequence of ``l₂``."""
    return _subsequence(xs, ys)


@define("List.IsPrefix", "List α → List α → Prop", "l₁ l₂")
def is_prefix(xs: tuple, ys: tuple) -> bool:
    return is_prefix_of(xs, ys)


@define("List.IsSuffix", "List α → List α → Prop", "l₁ l₂")
def is_suffix(xs: tuple, ys: tuple) -> bool:
    return is_suffix_of(xs, ys)


@define("List.IsInfix", "List α → List α → Prop", "l₁ l₂")
def is_infix(xs: tuple, ys: tuple) -> bool:
    n = len(xs)
    return any(ops.beq(xs, ys[i : i + n]) for i in range(len(ys) - n + 1))


@define("List.Subset", "List α → List α → Prop", "l₁ l₂")
def subset(xs: tuple, ys: tuple) -> bool:
    """``l₁ ⊆ l₂``: every member of ``l₁`` is a member of ``l₂`` (decidable with ``DecidableEq``)."""
    if hashable_scalars(xs) and hashable_scalars(ys):
        return set(xs) <= set(ys)
    limits.charge(len(xs) * len(ys))  # the pairwise comparisons the registry does not see
    return all(bcontains(ys, x) for x in xs)


@define("List.splitBy", "(α → α → Bool) → List α → List (List α)", "R l")
def split_by(r: Any, xs: tuple) -> tuple:
    """Core's ``splitBy``: maximal runs in which ``R`` holds of each element and the next one."""
    g = fn2(r)
    out: list[tuple] = []
    run: list[Any] = []
    for x in xs:
        if run and not g(run[-1], x):
            out.append(tuple(run))
            run = []
        run.append(x)
    if run:
        out.append(tuple(run))
    return tuple(out)


@define("List.groupBy", "(α → α → Bool) → List α → List (List α)", "R l")
def group_by(r: Any, xs: tuple) -> tuple:
    """``groupBy``, the former name of ``splitBy`` (same definition)."""
    return split_by(r, xs)


def _is_perm(xs: tuple, ys: tuple) -> bool:
    if len(xs) != len(ys):
        return False
    if hashable_scalars(xs) and hashable_scalars(ys):
        return Counter(xs) == Counter(ys)
    rest = ys
    for x in xs:
        i = bindex(rest, x)
        if i == len(rest):
            return False
        rest = rest[:i] + rest[i + 1 :]
    return True


@define("List.isPerm", "List α → List α → Bool", "l₁ l₂")
def is_perm(xs: tuple, ys: tuple) -> bool:
    return _is_perm(xs, ys)


@define("List.Perm", "List α → List α → Prop", "l₁ l₂")
def perm(xs: tuple, ys: tuple) -> bool:
    return _is_perm(xs, ys)


# Python's own comparison of two ints, two strings or two floats is exactly ``ops.lex_lt`` /
# ``ops.lex_le`` on them (see there), so a list of such scalars compares pairwise in C.
_NATIVE_REL = {id(ops.rel_lt): operator.lt, id(ops.rel_le): operator.le, id(ops.rel_gt): operator.gt,
               id(ops.rel_ge): operator.ge}  # fmt: skip
_NATIVE_SCALAR = (int, str, float)


def _adjacent(xs: tuple, rel: Any) -> bool:
    if len(xs) < 2:
        return True
    native = _NATIVE_REL.get(id(rel))
    # (a Lean list is homogeneous: one element's type is every element's; bool, an int subclass, is
    # left to the general path)
    if native is not None and type(xs[0]) in _NATIVE_SCALAR:
        return all(map(native, xs, xs[1:]))
    return all(rel(xs[i], xs[i + 1]) for i in range(len(xs) - 1))


def _nodup(xs: tuple) -> bool:
    if hashable_scalars(xs):
        return len(set(xs)) == len(xs)
    return all(not ops.beq(xs[i], xs[j]) for i in range(len(xs)) for j in range(i + 1, len(xs)))


# Relations that are transitive, so pairwise = adjacent (a NaN breaks every chain either way).
_TRANSITIVE = {id(ops.rel_le), id(ops.rel_lt), id(ops.rel_ge), id(ops.rel_gt)}


@define("List.Pairwise", "(α → α → Prop) → List α → Prop", "R l")
def pairwise(r: Any, xs: tuple) -> bool:
    """``R l[i] l[j]`` for all ``i < j``; ``(· ≤ ·)`` etc. given as ``ops.rel_*`` run in linear time."""
    if type(r) is Fn and r.arity == 2:
        if id(r.fn) in _TRANSITIVE:
            native = _NATIVE_REL.get(id(r.fn))
            if native is not None and len(xs) > 1 and type(xs[0]) in _NATIVE_SCALAR:
                return all(map(native, xs, xs[1:]))  # (``_adjacent``'s fast path, inlined: hot)
            return _adjacent(xs, r.fn)
        if r.fn is ops.rel_ne:
            return _nodup(xs)
    g = fn2(r)
    n = len(xs)
    for i in range(n):
        a = xs[i]
        for j in range(i + 1, n):
            if not g(a, xs[j]):
                return False
    return True


@define("List.Sorted", "(α → α → Prop) → List α → Prop", "r l")
def sorted_(r: Any, xs: tuple) -> bool:
    """Mathlib ``Sorted r = Pairwise r``."""
    return pairwise(r, xs)


@define("List.Nodup", "List α → Prop", "l")
def nodup(xs: tuple) -> bool:
    return _nodup(xs)


# ------------------------------------------------------------- sorting


def _merge(xs: list, ys: list, le: Any) -> list:
    out = []
    i = j = 0
    while i < len(xs) and j < len(ys):
        if le(xs[i], ys[j]):
            out.append(xs[i])
            i += 1
        else:
            out.append(ys[j])
            j += 1
    out.extend(xs[i:])
    out.extend(ys[j:])
    return out


def _merge_sort(xs: list, le: Any) -> list:
    if len(xs) <= 1:
        return xs
    h = (len(xs) + 1) // 2  # Lean's splitInTwo puts the extra element on the left
    return _merge(_merge_sort(xs[:h], le), _merge_sort(xs[h:], le), le)


@define(
    "List.mergeSort",
    "List α → (α → α → Bool) → List α",
    "xs le",
    defaults={"le": const(_LE)},
)
def merge_sort(xs: tuple, le: Any) -> tuple:
    """Stable merge sort; the merge takes from the left run when ``le x y``."""
    if type(le) is Fn and le.fn is ops.rel_le and hashable_scalars(xs):
        return tuple(sorted(xs))  # a stable sort by a total order is unique
    return tuple(_merge_sort(list(xs), fn2(le)))


def _ordered_insert(rel: Any, a: Any, xs: list) -> list:
    for i, b in enumerate(xs):
        if rel(a, b):
            return [*xs[:i], a, *xs[i:]]
    return [*xs, a]


@define("List.orderedInsert", "(α → α → Prop) → α → List α → List α", "r a l")
def ordered_insert(r: Any, a: Any, xs: tuple) -> tuple:
    """Mathlib: insert ``a`` before the first ``b`` with ``r a b``."""
    return tuple(_ordered_insert(fn2(r), a, list(xs)))


@define("List.insertionSort", "(α → α → Prop) → List α → List α", "r l")
def insertion_sort(r: Any, xs: tuple) -> tuple:
    """Mathlib: ``insertionSort r (b :: l) = orderedInsert r b (insertionSort r l)``."""
    rel = fn2(r)
    acc: list = []
    for b in reversed(xs):
        acc = _ordered_insert(rel, b, acc)
    return tuple(acc)
