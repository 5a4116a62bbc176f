"""The Python representation of Lean values, shared by the codec and the engines.

The representation is *untagged*: the static Lean type says how to read a value.

| Lean type            | Python value                                   |
|----------------------|------------------------------------------------|
| Nat, Int, UInt8      | ``int``                                        |
| Bool, decided Prop   | ``bool``                                       |
| Float                | ``float``                                      |
| Char                 | ``str`` of length 1                            |
| String               | ``str``                                        |
| List α, Array α      | ``tuple`` (never mutated)                      |
| α × β  (Prod)        | ``tuple`` of length 2 (``α × β × γ`` nests)    |
| Unit                 | ``()``                                         |
| Option α             | ``None`` for none, ``Some(x)`` for some x      |
| Std.HashMap K V      | ``HMap`` (insertion-ordered, persistent API)   |
| Std.HashSet α        | ``HSet``                                       |
| user structure       | ``Struct``                                     |
| α → β                | ``Fn`` (see ``call``) or ``LeanSource``        |

``==`` on these values is Lean's structural equality for every type whose
``BEq``/``DecidableEq`` is derived.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .types import Type

__all__ = ["Fn", "HMap", "HSet", "LeanSource", "Some", "Struct", "call", "default_value"]


class Some:
    """``some x``. ``none`` is Python ``None``."""

    __slots__ = ("val",)

    def __init__(self, val: Any) -> None:
        self.val = val

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Some) and self.val == other.val

    def __hash__(self) -> int:
        return hash(("some", self.val))

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Some):
            return bool(self.val < other.val)
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, Some):
            return bool(self.val <= other.val)
        return NotImplemented

    def __repr__(self) -> str:
        return f"Some({self.val!r})"


class HMap:
    """A persistent hash map: every update returns a new map.

    Iteration order is insertion order, which keeps runs deterministic; Lean's
    own order is unspecified, and the benchmarks only use it order-insensitively.
    """

    __slots__ = ("_d",)

    def __init__(self, items: Iterable[tuple[Any, Any]] = ()) -> None:
        self._d: dict[Any, Any] = dict(items)

    def get(self, key: Any, default: Any = None) -> Any:
        return self._d.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._d

    def __len__(self) -> int:
        return len(self._d)

    def items(self) -> tuple[tuple[Any, Any], ...]:
        return tuple(self._d.items())

    def keys(self) -> tuple[Any, ...]:
        return tuple(self._d)

    def insert(self, key: Any, val: Any) -> HMap:
        new = HMap()
        new._d = dict(self._d)
        new._d[key] = val
        return new

    def erase(self, key: Any) -> HMap:
        if key not in self._d:
            return self
        new = HMap()
        new._d = dict(self._d)
        del new._d[key]
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HMap) and self._d == other._d

    def __hash__(self) -> int:
        return hash(frozenset(self._d.items()))

    def __repr__(self) -> str:
        return f"HMap({list(self._d.items())!r})"


class HSet:
    """A persistent hash set (insertion-ordered, like ``HMap``)."""

    __slots__ = ("_d",)

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._d: dict[Any, None] = dict.fromkeys(items)

    def __contains__(self, key: object) -> bool:
        return key in self._d

    def __len__(self) -> int:
        return len(self._d)

    def __iter__(self) -> Iterator[Any]:
        return iter(tuple(self._d))

    def insert(self, key: Any) -> HSet:
        if key in self._d:
            return self
        new = HSet()
        new._d = dict(self._d)
        new._d[key] = None
        return new

    def erase(self, key: Any) -> HSet:
        if key not in self._d:
            return self
        new = HSet()
        new._d = dict(self._d)
        del new._d[key]
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HSet) and self._d.keys() == other._d.keys()

    def __hash__(self) -> int:
        return hash(frozenset(self._d))

    def __repr__(self) -> str:
        return f"HSet({list(self._d)!r})"


@dataclass(frozen=True, slots=True)
class Struct:
    """A value of a user ``structure``: its name and field values in declaration order."""

    name: str
    fields: tuple[tuple[str, Any], ...]

    def field(self, name: str) -> Any:
        for k, v in self.fields:
            if k == name:
                return v
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class LeanSource:
    """A value given as Lean source text that only an engine can interpret (e.g. a lambda input)."""

    text: str


class Fn:
    """A Lean function value: a Python callable of ``arity`` positional arguments.

    Lean functions are curried; ``call`` handles partial and over-application.
    """

    __slots__ = ("arity", "fn", "name")

    def __init__(self, arity: int, fn: Callable[..., Any], name: str = "") -> None:
        self.arity = arity
        self.fn = fn
        self.name = name

    def __call__(self, *args: Any) -> Any:
        return call(self, *args)

    def __repr__(self) -> str:
        return f"<fun {self.name or '?'}/{self.arity}>"


def call(f: Any, *args: Any) -> Any:
    """Apply a Lean function value to arguments (curried semantics)."""
    while True:
        n = f.arity
        k = len(args)
        if k == n:
            return f.fn(*args)
        if k < n:
            inner = f.fn
            fixed = args
            return Fn(n - k, lambda *rest, inner=inner, fixed=fixed: inner(*fixed, *rest), f.name)
        f = f.fn(*args[:n])
        args = args[n:]


def default_value(t: Type, struct_defaults: dict[str, Any] | None = None) -> Any:
    """Lean's ``default`` (``Inhabited``) for a type: what ``xs[i]!`` out of range returns."""
    from .types import TCon, TFun

    if isinstance(t, TFun):
        res = default_value(t.res, struct_defaults)
        return Fn(1, lambda _x: res)
    if not isinstance(t, TCon):
        raise TypeError(f"no default value for type variable {t}")
    name = t.name
    if name in ("Nat", "Int", "UInt8"):
        return 0
    if name in ("Bool", "Prop"):
        return False
    if name == "Float":
        return 0.0
    if name == "Char":
        return "A"
    if name == "String":
        return ""
    if name in ("List", "Array", "Unit", "Finset"):
        return ()
    if name == "Option":
        return None
    if name == "Prod":
        return (default_value(t.args[0], struct_defaults), default_value(t.args[1], struct_defaults))
    if name == "Std.HashMap":
        return HMap()
    if name == "Std.HashSet":
        return HSet()
    if struct_defaults and name in struct_defaults:
        return struct_defaults[name]
    raise TypeError(f"no default value known for type {name}")
