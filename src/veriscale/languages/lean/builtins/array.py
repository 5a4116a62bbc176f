"""``Array`` builtins (Lean 4.18 core). Arrays are Python tuples, updated by copying.

Optional ``start``/``stop`` parameters of ``foldl``/``foldr``/``any``/``all``/
``filter`` follow the runtime implementations Lean actually executes
(``foldlMUnsafe`` etc.), e.g. ``foldl`` with ``stop > size`` returns ``init``.
``panic!`` inside a function (``eraseIdx!``/``insertIdx!`` out of range)
returns the ``default`` of the result type, which for arrays is ``#[]``.
"""

from __future__ import annotations

from typing import Any

from veriscale.values.runtime import Fn, Some

from ..errors import EvalError
from . import list as _list
from . import ops
from .optional import const, define
from .support import bindex, fn1, fn2, guard_size

_LT = Fn(2, ops.rel_lt, "LT.lt")


def _size(args: tuple) -> int:
    return len(args[2])


# ------------------------------------------------------------ construction


@define("Array.mk", "List α → Array α", "toList")
def mk(xs: tuple) -> tuple:
    return xs


@define("Array.toList", "Array α → List α", "xs")
def to_list(xs: tuple) -> tuple:
    return xs


@define("Array.data", "Array α → List α", "xs")
def data(xs: tuple) -> tuple:
    return xs


@define("Array.empty", "Array α")
def empty() -> tuple:
    return ()


@define("Array.mkEmpty", "Nat → Array α", "c")
def mk_empty(_c: int) -> tuple:
    return ()


@define("Array.emptyWithCapacity", "Nat → Array α", "c")
def empty_with_capacity(_c: int) -> tuple:
    return ()


@define("Array.singleton", "α → Array α", "v")
def singleton(v: Any) -> tuple:
    return (v,)


range_ = define("Array.range", "Nat → Array Nat", "n")(_list.range_)


@define("Array.range'", "Nat → Nat → Nat → Array Nat", "start size step", defaults={"step": const(1)})
def range_prime(start: int, n: int, step: int) -> tuple:
    guard_size(n)
    return tuple(start + step * i for i in range(n))


def _replicate(n: int, v: Any) -> tuple:
    guard_size(n)
    return (v,) * n


@define("Array.mkArray", "Nat → α → Array α", "n v")
def mk_array(n: int, v: Any) -> tuple:
    return _replicate(n, v)


@define("mkArray", "Nat → α → Array α", "n v")
def mk_array_global(n: int, v: Any) -> tuple:
    return _replicate(n, v)


@define("Array.replicate", "Nat → α → Array α", "n v")
def replicate(n: int, v: Any) -> tuple:
    return _replicate(n, v)


@define("Array.leftpad", "Nat → α → Array α → Array α", "n a xs")
def leftpad(n: int, a: Any, xs: tuple) -> tuple:
    return _replicate(max(0, n - len(xs)), a) + xs


@define("Array.rightpad", "Nat → α → Array α → Array α", "n a xs")
def rightpad(n: int, a: Any, xs: tuple) -> tuple:
    return xs + _replicate(max(0, n - len(xs)), a)


# ----------------------------------------------------------------- basics


@define("Array.size", "Array α → Nat", "a")
def size(xs: tuple) -> int:
    return len(xs)


is_empty = define("Array.isEmpty", "Array α → Bool", "xs")(_list.is_empty)


@define("Array.push", "Array α → α → Array α", "a v")
def push(xs: tuple, v: Any) -> tuple:
    return (*xs, v)


@define("Array.pop", "Array α → Array α", "xs")
def pop(xs: tuple) -> tuple:
    return xs[:-1]


@define("Array.shrink", "Array α → Nat → Array α", "xs n")
def shrink(xs: tuple, n: int) -> tuple:
    return xs[:n]


@define("Array.back!", "Array α → α", "xs", inhabited="α")
def back_bang(dflt: Any, xs: tuple) -> Any:
    return xs[-1] if xs else dflt


@define("Array.back?", "Array α → Option α", "xs")
def back_opt(xs: tuple) -> Any:
    return Some(xs[-1]) if xs else None


@define("Array.back", "Array α → α", "xs", proofs="h")
def back(xs: tuple, _h: object) -> Any:
    """``Array.back (xs) (h : 0 < xs.size := by get_elem_tactic)``."""
    if not xs:
        raise EvalError("Array.back of an empty array")
    return xs[-1]


append = define("Array.append", "Array α → Array α → Array α", "as bs")(_list.append)


@define("Array.appendList", "Array α → List α → Array α", "as bs")
def append_list(xs: tuple, ys: tuple) -> tuple:
    return xs + ys


reverse = define("Array.reverse", "Array α → Array α", "as")(_list.reverse)


# ---------------------------------------------------------------- indexing


get_bang = define("Array.get!", "Array α → Nat → α", "a i", inhabited="α")(_list.get_bang)


get_opt = define("Array.get?", "Array α → Nat → Option α", "xs i")(_list.get_opt)


@define("Array.getD", "Array α → Nat → α → α", "a i v₀")
def get_d(xs: tuple, i: int, v0: Any) -> Any:
    return xs[i] if i < len(xs) else v0


def _set_if(xs: tuple, i: int, v: Any) -> tuple:
    if i >= len(xs):
        return xs
    return (*xs[:i], v, *xs[i + 1 :])


@define("Array.set!", "Array α → Nat → α → Array α", "xs i v")
def set_bang(xs: tuple, i: int, v: Any) -> tuple:
    """Out of range: the array is returned unchanged."""
    return _set_if(xs, i, v)


@define("Array.setIfInBounds", "Array α → Nat → α → Array α", "xs i v")
def set_if_in_bounds(xs: tuple, i: int, v: Any) -> tuple:
    return _set_if(xs, i, v)


@define("Array.setD", "Array α → Nat → α → Array α", "xs i v")
def set_d(xs: tuple, i: int, v: Any) -> tuple:
    return _set_if(xs, i, v)


@define("Array.set", "Array α → Nat → α → Array α", "xs i v", proofs="h")
def set_(xs: tuple, i: int, v: Any, _h: object) -> tuple:
    """``Array.set xs i v (h : i < xs.size := by get_elem_tactic)``."""
    if i >= len(xs):
        raise EvalError(f"Array.set: index {i} out of bounds")
    return _set_if(xs, i, v)


def _swap(xs: tuple, i: int, j: int) -> tuple:
    ys = list(xs)
    ys[i], ys[j] = ys[j], ys[i]
    return tuple(ys)


@define("Array.swapIfInBounds", "Array α → Nat → Nat → Array α", "xs i j")
def swap_if_in_bounds(xs: tuple, i: int, j: int) -> tuple:
    if i < len(xs) and j < len(xs):
        return _swap(xs, i, j)
    return xs


@define("Array.swap!", "Array α → Nat → Nat → Array α", "xs i j")
def swap_bang(xs: tuple, i: int, j: int) -> tuple:
    return swap_if_in_bounds(xs, i, j)


@define("Array.swap", "Array α → Nat → Nat → Array α", "xs i j", proofs="hi hj")
def swap(xs: tuple, i: int, j: int, _hi: object, _hj: object) -> tuple:
    """``Array.swap xs i j (hi : i < xs.size) (hj : j < xs.size)`` (both ``by get_elem_tactic``)."""
    if i >= len(xs) or j >= len(xs):
        raise EvalError("Array.swap: index out of bounds")
    return _swap(xs, i, j)


@define("Array.modify", "Array α → Nat → (α → α) → Array α", "xs i f")
def modify(xs: tuple, i: int, f: Any) -> tuple:
    if i >= len(xs):
        return xs
    return _set_if(xs, i, fn1(f)(xs[i]))


@define(
    "Array.extract",
    "Array α → Nat → Nat → Array α",
    "as start stop",
    defaults={"start": const(0), "stop": lambda a: len(a[0])},
)
def extract(xs: tuple, start: int, stop: int) -> tuple:
    """Elements ``start`` … ``min stop size - 1`` (empty when ``start`` is past that)."""
    return xs[start:stop] if stop > start else ()


@define("Array.take", "Array α → Nat → Array α", "xs i")
def take(xs: tuple, i: int) -> tuple:
    return xs[:i]


@define("Array.drop", "Array α → Nat → Array α", "xs i")
def drop(xs: tuple, i: int) -> tuple:
    return xs[i:]


# ----------------------------------------------------------- insert / erase


@define("Array.eraseIdx", "Array α → Nat → Array α", "xs i", proofs="h")
def erase_idx(xs: tuple, i: int, _h: object) -> tuple:
    """``Array.eraseIdx xs i (h : i < xs.size := by get_elem_tactic)``."""
    if i >= len(xs):
        raise EvalError(f"Array.eraseIdx: index {i} out of bounds")
    return xs[:i] + xs[i + 1 :]


@define("Array.eraseIdxIfInBounds", "Array α → Nat → Array α", "xs i")
def erase_idx_if_in_bounds(xs: tuple, i: int) -> tuple:
    return xs[:i] + xs[i + 1 :] if i < len(xs) else xs


@define("Array.eraseIdx!", "Array α → Nat → Array α", "xs i")
def erase_idx_bang(xs: tuple, i: int) -> tuple:
    """Out of range: ``panic!``, whose value is ``default = #[]``."""
    return xs[:i] + xs[i + 1 :] if i < len(xs) else ()


@define("Array.erase", "Array α → α → Array α", "as a")
def erase(xs: tuple, a: Any) -> tuple:
    i = bindex(xs, a)
    return xs[:i] + xs[i + 1 :] if i < len(xs) else xs


def _insert(xs: tuple, i: int, a: Any) -> tuple:
    return (*xs[:i], a, *xs[i:])


@define("Array.insertIdx", "Array α → Nat → α → Array α", "as i a", proofs="h")
def insert_idx(xs: tuple, i: int, a: Any, _h: object) -> tuple:
    """``Array.insertIdx as i a (h : i ≤ as.size := by get_elem_tactic)``."""
    if i > len(xs):
        raise EvalError(f"Array.insertIdx: index {i} out of bounds")
    return _insert(xs, i, a)


@define("Array.insertIdx!", "Array α → Nat → α → Array α", "as i a")
def insert_idx_bang(xs: tuple, i: int, a: Any) -> tuple:
    """Out of range (``i > size``): ``panic!``, whose value is ``#[]``."""
    return _insert(xs, i, a) if i <= len(xs) else ()


@define("Array.insertAt!", "Array α → Nat → α → Array α", "as i a")
def insert_at_bang(xs: tuple, i: int, a: Any) -> tuple:
    return insert_idx_bang(xs, i, a)


@define("Array.insertIdxIfInBounds", "Array α → Nat → α → Array α", "as i a")
def insert_idx_if_in_bounds(xs: tuple, i: int, a: Any) -> tuple:
    return _insert(xs, i, a) if i <= len(xs) else xs


@define("Array.replace", "Array α → α → α → Array α", "xs a b")
def replace(xs: tuple, a: Any, b: Any) -> tuple:
    i = bindex(xs, a)
    return _set_if(xs, i, b)


# -------------------------------------------------------------------- folds


def _fold_range(n: int, start: int, stop: int) -> range:
    """Indices visited by ``foldlM``'s runtime implementation."""
    if start < stop and stop <= n:
        return range(start, stop)
    return range(0)


@define(
    "Array.foldl",
    "(β → α → β) → β → Array α → Nat → Nat → β",
    "f init as start stop",
    defaults={"start": const(0), "stop": _size},
)
def foldl(f: Any, init: Any, xs: tuple, start: int, stop: int) -> Any:
    g = fn2(f)
    acc = init
    for i in _fold_range(len(xs), start, stop):
        acc = g(acc, xs[i])
    return acc


@define(
    "Array.foldr",
    "(α → β → β) → β → Array α → Nat → Nat → β",
    "f init as start stop",
    defaults={"start": _size, "stop": const(0)},
)
def foldr(f: Any, init: Any, xs: tuple, start: int, stop: int) -> Any:
    """Folds ``xs[start-1]`` down to ``xs[stop]`` (``foldrMUnsafe``'s bounds handling)."""
    n = len(xs)
    if start <= n:
        hi = start if stop < start else None
    else:
        hi = n if stop < n else None
    if hi is None:
        return init
    g = fn2(f)
    acc = init
    for i in range(hi - 1, stop - 1, -1):
        acc = g(xs[i], acc)
    return acc


def _any_range(n: int, start: int, stop: int) -> range:
    if start < stop:
        stop2 = min(stop, n)
        if start < stop2:
            return range(start, stop2)
    return range(0)


def _range_defaults(arr_pos: int) -> dict[str, Any]:
    return {"start": const(0), "stop": lambda a: len(a[arr_pos])}


@define(
    "Array.any", "Array α → (α → Bool) → Nat → Nat → Bool", "as p start stop", defaults=_range_defaults(0)
)
def any_(xs: tuple, p: Any, start: int, stop: int) -> bool:
    g = fn1(p)
    return any(g(xs[i]) for i in _any_range(len(xs), start, stop))


@define(
    "Array.all", "Array α → (α → Bool) → Nat → Nat → Bool", "as p start stop", defaults=_range_defaults(0)
)
def all_(xs: tuple, p: Any, start: int, stop: int) -> bool:
    g = fn1(p)
    return all(g(xs[i]) for i in _any_range(len(xs), start, stop))


contains = define("Array.contains", "Array α → α → Bool", "as a")(_list.contains)


elem = define("Array.elem", "α → Array α → Bool", "a as")(_list.elem)


@define("Array.sum", "Array α → α", "as", inhabited="α")
def sum_(zero: Any, xs: tuple) -> Any:
    """``foldr (· + ·) 0``."""
    if type(zero) is float:
        acc = zero
        for x in reversed(xs):
            acc = x + acc
        return acc
    return sum(xs, zero)


count = define("Array.count", "α → Array α → Nat", "a as")(_list.count)


count_p = define("Array.countP", "(α → Bool) → Array α → Nat", "p as")(_list.count_p)


# ----------------------------------------------------------- higher order


map_ = define("Array.map", "(α → β) → Array α → Array β", "f as")(_list.map_)


map_idx = define("Array.mapIdx", "(Nat → α → β) → Array α → Array β", "f as")(_list.map_idx)


@define("Array.zipIdx", "Array α → Nat → Array (α × Nat)", "xs start", defaults={"start": const(0)})
def zip_idx(xs: tuple, start: int) -> tuple:
    return tuple((x, start + i) for i, x in enumerate(xs))


@define("Array.zipWithIndex", "Array α → Nat → Array (α × Nat)", "xs start", defaults={"start": const(0)})
def zip_with_index(xs: tuple, start: int) -> tuple:
    return zip_idx(xs, start)


@define(
    "Array.filter",
    "(α → Bool) → Array α → Nat → Nat → Array α",
    "p as start stop",
    defaults=_range_defaults(1),
)
def filter_(p: Any, xs: tuple, start: int, stop: int) -> tuple:
    g = fn1(p)
    return tuple([xs[i] for i in _fold_range(len(xs), start, stop) if g(xs[i])])


@define(
    "Array.filterMap",
    "(α → Option β) → Array α → Nat → Nat → Array β",
    "f as start stop",
    defaults=_range_defaults(1),
)
def filter_map(f: Any, xs: tuple, start: int, stop: int) -> tuple:
    g = fn1(f)
    out = []
    for i in _fold_range(len(xs), start, stop):
        r = g(xs[i])
        if r is not None:
            out.append(r.val)
    return tuple(out)


find_opt = define("Array.find?", "(α → Bool) → Array α → Option α", "p as")(_list.find_opt)


find_some = define("Array.findSome?", "(α → Option β) → Array α → Option β", "f as")(_list.find_some)


find_idx_opt = define("Array.findIdx?", "(α → Bool) → Array α → Option Nat", "p as")(_list.find_idx_opt)


@define("Array.findIdx", "(α → Bool) → Array α → Nat", "p as")
def find_idx(p: Any, xs: tuple) -> int:
    r = find_idx_opt(p, xs)
    return len(xs) if r is None else r.val


@define("Array.idxOf", "α → Array α → Nat", "a as")
def idx_of(a: Any, xs: tuple) -> int:
    return bindex(xs, a)


@define("Array.idxOf?", "Array α → α → Option Nat", "xs v")
def idx_of_opt(xs: tuple, v: Any) -> Any:
    i = bindex(xs, v)
    return Some(i) if i < len(xs) else None


@define("Array.getIdx?", "Array α → α → Option Nat", "xs v")
def get_idx_opt(xs: tuple, v: Any) -> Any:
    return idx_of_opt(xs, v)


flat_map = define("Array.flatMap", "(α → Array β) → Array α → Array β", "f as")(_list.flat_map)


flatten = define("Array.flatten", "Array (Array α) → Array α", "xss")(_list.flatten)


zip_ = define("Array.zip", "Array α → Array β → Array (α × β)", "as bs")(_list.zip_)


zip_with = define("Array.zipWith", "(α → β → γ) → Array α → Array β → Array γ", "f as bs")(_list.zip_with)


unzip = define("Array.unzip", "Array (α × β) → Array α × Array β", "as")(_list.unzip)


partition = define("Array.partition", "(α → Bool) → Array α → Array α × Array α", "p as")(_list.partition)


@define("Array.takeWhile", "(α → Bool) → Array α → Array α", "p as")
def take_while(p: Any, xs: tuple) -> tuple:
    g = fn1(p)
    for i, x in enumerate(xs):
        if not g(x):
            return xs[:i]
    return xs


@define("Array.popWhile", "(α → Bool) → Array α → Array α", "p as")
def pop_while(p: Any, xs: tuple) -> tuple:
    g = fn1(p)
    n = len(xs)
    while n and g(xs[n - 1]):
        n -= 1
    return xs[:n]


is_prefix_of = define("Array.isPrefixOf", "Array α → Array α → Bool", "as bs")(_list.is_prefix_of)


@define("Array.isEqv", "Array α → Array α → (α → α → Bool) → Bool", "xs ys p")
def is_eqv(xs: tuple, ys: tuple, p: Any) -> bool:
    if len(xs) != len(ys):
        return False
    g = fn2(p)
    return all(g(x, y) for x, y in zip(xs, ys))


@define("Array.allDiff", "Array α → Bool", "as")
def all_diff(xs: tuple) -> bool:
    return all(not ops.beq(xs[i], xs[j]) for i in range(len(xs)) for j in range(i))


@define("Array.eraseReps", "Array α → Array α", "as")
def erase_reps(xs: tuple) -> tuple:
    out: list = []
    for x in xs:
        if not out or not ops.beq(x, out[-1]):
            out.append(x)
    return tuple(out)


@define("Array.getMax?", "Array α → (α → α → Bool) → Option α", "as lt")
def get_max(xs: tuple, lt: Any) -> Any:
    if not xs:
        return None
    g = fn2(lt)
    best = xs[0]
    for x in xs[1:]:
        if g(best, x):
            best = x
    return Some(best)


# ------------------------------------------------------------------ sorting


def _qpartition(a: list, lt: Any, lo: int, hi: int) -> int:
    mid = (lo + hi) // 2
    if lt(a[mid], a[lo]):
        a[lo], a[mid] = a[mid], a[lo]
    if lt(a[hi], a[lo]):
        a[lo], a[hi] = a[hi], a[lo]
    if lt(a[mid], a[hi]):
        a[mid], a[hi] = a[hi], a[mid]
    pivot = a[hi]
    i = lo
    for j in range(lo, hi):
        if lt(a[j], pivot):
            a[i], a[j] = a[j], a[i]
            i += 1
    a[i], a[hi] = a[hi], a[i]
    return i


@define(
    "Array.qsort",
    "Array α → (α → α → Bool) → Nat → Nat → Array α",
    "as lt lo hi",
    defaults={"lt": const(_LT), "lo": const(0), "hi": lambda a: max(len(a[0]) - 1, 0)},
)
def qsort(xs: tuple, lt: Any, lo: int, hi: int) -> tuple:
    """Lean's (unstable) quicksort with median-of-three pivots, replayed step by step."""
    if not xs:
        return xs
    hi = min(hi, len(xs) - 1)
    if not lo < hi:
        return xs
    g = fn2(lt)
    a = list(xs)
    stack = [(lo, hi)]
    while stack:
        lo_, hi_ = stack.pop()
        if lo_ < hi_:
            mid = _qpartition(a, g, lo_, hi_)
            if mid < hi_:
                stack.append((mid + 1, hi_))
                stack.append((lo_, mid))
    return tuple(a)


@define("Array.insertionSort", "Array α → (α → α → Bool) → Array α", "a lt", defaults={"lt": const(_LT)})
def insertion_sort(xs: tuple, lt: Any) -> tuple:
    """Stable: each element moves left while ``lt a[j] a[j-1]``."""
    g = fn2(lt)
    a = list(xs)
    for i in range(len(a)):
        j = i
        while j > 0 and g(a[j], a[j - 1]):
            a[j], a[j - 1] = a[j - 1], a[j]
            j -= 1
    return tuple(a)
