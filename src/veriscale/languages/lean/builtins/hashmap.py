"""``Std.HashMap`` and ``Std.HashSet`` builtins over the persistent ``HMap``/``HSet``.

Iteration (``toList``, ``keys``, ``fold``, …) follows insertion order, which is
deterministic; Lean's bucket order is unspecified and the benchmarks only use
it order-insensitively. ``empty``/``emptyWithCapacity`` take an optional
capacity (default 8), so a bare ``Std.HashMap.empty`` is a map.
"""

from __future__ import annotations

from typing import Any

from veriscale.values.runtime import HMap, HSet, Some

from ..errors import EvalError
from .optional import const, define
from .support import fn1, fn2, fn3

_MISSING = object()

# ================================================================ HashMap


@define("Std.HashMap.empty", "Nat → Std.HashMap α β", "capacity", defaults={"capacity": const(8)})
def hm_empty(_capacity: int) -> HMap:
    return HMap()


@define(
    "Std.HashMap.emptyWithCapacity",
    "Nat → Std.HashMap α β",
    "capacity",
    defaults={"capacity": const(8)},
)
def hm_empty_with_capacity(_capacity: int) -> HMap:
    return HMap()


@define("Std.HashMap.ofList", "List (α × β) → Std.HashMap α β", "l")
def hm_of_list(pairs: tuple) -> HMap:
    """Later pairs overwrite earlier ones with an equal key."""
    return HMap(pairs)


@define("Std.HashMap.insert", "Std.HashMap α β → α → β → Std.HashMap α β", "m a b")
def hm_insert(m: HMap, k: Any, v: Any) -> HMap:
    return m.insert(k, v)


@define("Std.HashMap.insertIfNew", "Std.HashMap α β → α → β → Std.HashMap α β", "m a b")
def hm_insert_if_new(m: HMap, k: Any, v: Any) -> HMap:
    return m if k in m else m.insert(k, v)


@define("Std.HashMap.insertMany", "Std.HashMap α β → List (α × β) → Std.HashMap α β", "m l")
def hm_insert_many(m: HMap, pairs: tuple) -> HMap:
    for k, v in pairs:
        m = m.insert(k, v)
    return m


@define(
    "Std.HashMap.containsThenInsert",
    "Std.HashMap α β → α → β → Bool × Std.HashMap α β",
    "m a b",
)
def hm_contains_then_insert(m: HMap, k: Any, v: Any) -> tuple:
    return (k in m, m.insert(k, v))


@define("Std.HashMap.get?", "Std.HashMap α β → α → Option β", "m a")
def hm_get_opt(m: HMap, k: Any) -> Any:
    v = m.get(k, _MISSING)
    return None if v is _MISSING else Some(v)


@define("Std.HashMap.getD", "Std.HashMap α β → α → β → β", "m a fallback")
def hm_get_d(m: HMap, k: Any, fallback: Any) -> Any:
    v = m.get(k, _MISSING)
    return fallback if v is _MISSING else v


@define("Std.HashMap.get!", "Std.HashMap α β → α → β", "m a", inhabited="β")
def hm_get_bang(dflt: Any, m: HMap, k: Any) -> Any:
    v = m.get(k, _MISSING)
    return dflt if v is _MISSING else v


@define("Std.HashMap.get", "Std.HashMap α β → α → β", "m a", proofs="h")
def hm_get(m: HMap, k: Any, _h: object) -> Any:
    """``m.get a (h : a ∈ m)``; the proof is ignored."""
    v = m.get(k, _MISSING)
    if v is _MISSING:
        raise EvalError("Std.HashMap.get: key not present")
    return v


@define("Std.HashMap.contains", "Std.HashMap α β → α → Bool", "m a")
def hm_contains(m: HMap, k: Any) -> bool:
    return k in m


@define("Std.HashMap.erase", "Std.HashMap α β → α → Std.HashMap α β", "m a")
def hm_erase(m: HMap, k: Any) -> HMap:
    return m.erase(k)


@define("Std.HashMap.size", "Std.HashMap α β → Nat", "m")
def hm_size(m: HMap) -> int:
    return len(m)


@define("Std.HashMap.isEmpty", "Std.HashMap α β → Bool", "m")
def hm_is_empty(m: HMap) -> bool:
    return len(m) == 0


@define("Std.HashMap.toList", "Std.HashMap α β → List (α × β)", "m")
def hm_to_list(m: HMap) -> tuple:
    return m.items()


@define("Std.HashMap.toArray", "Std.HashMap α β → Array (α × β)", "m")
def hm_to_array(m: HMap) -> tuple:
    return m.items()


@define("Std.HashMap.keys", "Std.HashMap α β → List α", "m")
def hm_keys(m: HMap) -> tuple:
    return m.keys()


@define("Std.HashMap.keysArray", "Std.HashMap α β → Array α", "m")
def hm_keys_array(m: HMap) -> tuple:
    return m.keys()


@define("Std.HashMap.values", "Std.HashMap α β → List β", "m")
def hm_values(m: HMap) -> tuple:
    return tuple(v for _, v in m.items())


@define("Std.HashMap.fold", "(γ → α → β → γ) → γ → Std.HashMap α β → γ", "f init b")
def hm_fold(f: Any, init: Any, m: HMap) -> Any:
    g = fn3(f)
    acc = init
    for k, v in m.items():
        acc = g(acc, k, v)
    return acc


@define("Std.HashMap.filter", "(α → β → Bool) → Std.HashMap α β → Std.HashMap α β", "f m")
def hm_filter(f: Any, m: HMap) -> HMap:
    g = fn2(f)
    return HMap((k, v) for k, v in m.items() if g(k, v))


@define("Std.HashMap.map", "(α → β → γ) → Std.HashMap α β → Std.HashMap α γ", "f m")
def hm_map(f: Any, m: HMap) -> HMap:
    g = fn2(f)
    return HMap((k, g(k, v)) for k, v in m.items())


@define("Std.HashMap.alter", "Std.HashMap α β → α → (Option β → Option β) → Std.HashMap α β", "m a f")
def hm_alter(m: HMap, k: Any, f: Any) -> HMap:
    v = m.get(k, _MISSING)
    r = fn1(f)(None if v is _MISSING else Some(v))
    return m.erase(k) if r is None else m.insert(k, r.val)


@define("Std.HashMap.modify", "Std.HashMap α β → α → (β → β) → Std.HashMap α β", "m a f")
def hm_modify(m: HMap, k: Any, f: Any) -> HMap:
    v = m.get(k, _MISSING)
    return m if v is _MISSING else m.insert(k, fn1(f)(v))


# ================================================================ HashSet


@define("Std.HashSet.empty", "Nat → Std.HashSet α", "capacity", defaults={"capacity": const(8)})
def hs_empty(_capacity: int) -> HSet:
    return HSet()


@define(
    "Std.HashSet.emptyWithCapacity",
    "Nat → Std.HashSet α",
    "capacity",
    defaults={"capacity": const(8)},
)
def hs_empty_with_capacity(_capacity: int) -> HSet:
    return HSet()


@define("Std.HashSet.ofList", "List α → Std.HashSet α", "l")
def hs_of_list(xs: tuple) -> HSet:
    return HSet(xs)


@define("Std.HashSet.insert", "Std.HashSet α → α → Std.HashSet α", "m a")
def hs_insert(s: HSet, a: Any) -> HSet:
    return s.insert(a)


@define("Std.HashSet.insertMany", "Std.HashSet α → List α → Std.HashSet α", "m l")
def hs_insert_many(s: HSet, xs: tuple) -> HSet:
    for x in xs:
        s = s.insert(x)
    return s


@define("Std.HashSet.containsThenInsert", "Std.HashSet α → α → Bool × Std.HashSet α", "m a")
def hs_contains_then_insert(s: HSet, a: Any) -> tuple:
    return (a in s, s.insert(a))


@define("Std.HashSet.contains", "Std.HashSet α → α → Bool", "m a")
def hs_contains(s: HSet, a: Any) -> bool:
    return a in s


@define("Std.HashSet.erase", "Std.HashSet α → α → Std.HashSet α", "m a")
def hs_erase(s: HSet, a: Any) -> HSet:
    return s.erase(a)


@define("Std.HashSet.size", "Std.HashSet α → Nat", "m")
def hs_size(s: HSet) -> int:
    return len(s)


@define("Std.HashSet.isEmpty", "Std.HashSet α → Bool", "m")
def hs_is_empty(s: HSet) -> bool:
    return len(s) == 0


@define("Std.HashSet.toList", "Std.HashSet α → List α", "m")
def hs_to_list(s: HSet) -> tuple:
    return tuple(s)


@define("Std.HashSet.toArray", "Std.HashSet α → Array α", "m")
def hs_to_array(s: HSet) -> tuple:
    return tuple(s)


@define("Std.HashSet.fold", "(γ → α → γ) → γ → Std.HashSet α → γ", "f init m")
def hs_fold(f: Any, init: Any, s: HSet) -> Any:
    g = fn2(f)
    acc = init
    for x in s:
        acc = g(acc, x)
    return acc
