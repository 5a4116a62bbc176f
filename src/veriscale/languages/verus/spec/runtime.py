"""Values and operations of the Verus specification evaluator.

Representation (shared with ``values.runtime``): integers of every type are
exact Python ``int`` (spec arithmetic is unbounded ``int``/``nat``), ``bool``,
``char`` a one-character ``str``, ``String`` a ``str`` whose view ``s@`` is a
tuple of chars, ``Vec``/``Seq``/arrays tuples, Rust tuples tuples,
``Option`` ``None``/``Some``, structs ``Struct``, enum values
``Variant(name, fields)``, multisets ``Multiset``, sets ``frozenset``.

Verus leaves some values unspecified (an index out of bounds, division by
zero, ``choose`` without a witness): evaluating one raises ``Unspecified``
and the check becomes UNKNOWN instead of guessing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from veriscale.values.runtime import Some, Struct
from veriscale.values.rust_types import INT_RANGES

__all__ = [
    "Fresh",
    "Multiset",
    "NotEqualityOnly",
    "RString",
    "SpecError",
    "SpecUnsupported",
    "Unbounded",
    "Unspecified",
    "Variant",
    "cast",
    "ediv",
    "emod",
    "view",
]


class SpecError(Exception):
    """Base of evaluation failures that make a verdict UNKNOWN."""

    category = "error"


class Unspecified(SpecError):
    """The value is unspecified in Verus (out-of-bounds index, division by zero, …)."""

    category = "undecided"


class Unbounded(SpecError):
    """A quantifier whose domain cannot be enumerated soundly."""

    category = "unsupported"


class SpecUnsupported(SpecError):
    """A construct or library function the evaluator does not implement."""

    category = "unsupported"


class NotEqualityOnly(SpecError):
    """A ``Fresh`` stand-in was used other than in an equality test."""

    category = "unsupported"


class Fresh:
    """A stand-in for "any value not compared so far" of an unbounded scalar binder.

    It equals only itself and records every value it is compared with; any
    other use (ordering, arithmetic, indexing, truth value) raises
    ``NotEqualityOnly``. If ``P(Fresh)`` evaluates with only equality tests,
    every value outside the recorded set behaves exactly like it.
    """

    __slots__ = ("compared", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.compared: list[Any] = []

    def __eq__(self, other: object) -> bool:
        # Another stand-in is recorded too: the binder evaluated later then also tries "equal to it".
        if other is self:
            return True
        self.compared.append(other)
        if isinstance(other, Fresh):
            other.compared.append(self)
        return False

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return 0x5EED

    def _misuse(self, *_: Any) -> Any:
        raise NotEqualityOnly(f"binder {self.name} is used other than in equality tests")

    __lt__ = __le__ = __gt__ = __ge__ = _misuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _misuse
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __neg__ = __pos__ = _misuse
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = __lshift__ = __rshift__ = _misuse
    __index__ = __int__ = __bool__ = _misuse

    def __repr__(self) -> str:
        return f"<fresh {self.name}>"


@dataclass(frozen=True, slots=True)
class Variant:
    """A value of a user enum: variant name and positional fields."""

    name: str
    fields: tuple[Any, ...] = ()


class Multiset:
    """An immutable multiset (``to_multiset``), compared by counts."""

    __slots__ = ("_counts", "_hash")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._counts = Counter(items)
        self._hash: int | None = None

    def count(self, x: Any) -> int:
        return self._counts.get(x, 0)

    def __len__(self) -> int:
        return sum(self._counts.values())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Multiset) and self._counts == other._counts

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._counts.items()))
        return self._hash

    def insert(self, x: Any) -> Multiset:
        m = Multiset()
        m._counts = self._counts.copy()
        m._counts[x] += 1
        return m

    def add(self, other: Multiset) -> Multiset:
        m = Multiset()
        m._counts = self._counts + other._counts
        return m

    def __repr__(self) -> str:
        return f"Multiset({dict(self._counts)!r})"


def ediv(a: int, b: int) -> int:
    """Verus ``/`` on integers: Euclidean division (the remainder is never negative)."""
    if b == 0:
        raise Unspecified("division by zero")
    return (a - emod(a, b)) // b


def emod(a: int, b: int) -> int:
    if b == 0:
        raise Unspecified("remainder by zero")
    return a % abs(b)


class RString(str):
    """A Rust ``String`` value (a plain one-character ``str`` is a ``char``)."""

    __slots__ = ()


def view(v: Any) -> Any:
    """``v@``: a ``String``'s chars as a sequence; everything else is its own view here."""
    if isinstance(v, RString) or (isinstance(v, str) and len(v) != 1):
        return tuple(v)
    return v


def _to_int(v: Any) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, str) and len(v) == 1:
        return ord(v)
    if isinstance(v, Fresh):
        raise NotEqualityOnly(f"binder {v.name} is converted to an integer")
    raise SpecUnsupported(f"cannot cast {type(v).__name__} to an integer")


def cast(v: Any, target: str) -> Any:
    """``v as target`` for integer, ``char`` and ``bool`` targets."""
    if isinstance(v, Fresh):
        if target in ("int", "nat", "i64", "i128", "u64", "u128", "usize", "isize"):
            return v  # a widening cast of a scalar binder keeps it opaque
        raise NotEqualityOnly(f"binder {v.name} is cast to {target}")
    if target == "int":
        return _to_int(v)
    if target == "nat":
        n = _to_int(v)
        if n < 0:
            raise Unspecified(f"negative value {n} cast to nat")
        return n
    if target in INT_RANGES:
        n = _to_int(v)
        lo, hi = INT_RANGES[target]
        if lo <= n <= hi:
            return n
        raise Unspecified(f"{n} cast to {target} is out of range")
    if target == "char":
        n = _to_int(v)
        try:
            return chr(n)
        except (ValueError, OverflowError):
            raise Unspecified(f"{n} is not a char") from None
    if target == "bool" and isinstance(v, bool):
        return v
    raise SpecUnsupported(f"cast to {target} is not supported")


def seq_index(s: Any, i: Any) -> Any:
    if isinstance(s, str):
        s = tuple(s)
    if isinstance(i, Fresh):
        raise NotEqualityOnly(f"binder {i.name} is used as an index")
    if not isinstance(s, tuple):
        raise SpecUnsupported(f"cannot index a {type(s).__name__}")
    if not isinstance(i, int) or not 0 <= i < len(s):
        raise Unspecified(f"index {i} out of bounds (length {len(s)})")
    return s[i]


def as_seq(s: Any) -> tuple[Any, ...]:
    if isinstance(s, tuple):
        return s
    if isinstance(s, str):
        return tuple(s)
    raise SpecUnsupported(f"expected a sequence, found {type(s).__name__}")


def _nat(i: Any, what: str) -> int:
    if isinstance(i, Fresh):
        raise NotEqualityOnly(f"binder {i.name} is used as {what}")
    if not isinstance(i, int):
        raise SpecUnsupported(f"{what} is not an integer")
    return i


def _call(f: Any, *args: Any) -> Any:
    if not callable(f):
        raise SpecUnsupported("expected a closure")
    return f(*args)


def _subrange(s: tuple[Any, ...], a: Any, b: Any) -> tuple[Any, ...]:
    a, b = _nat(a, "a subrange bound"), _nat(b, "a subrange bound")
    if not 0 <= a <= b <= len(s):
        raise Unspecified(f"subrange({a}, {b}) of a sequence of length {len(s)}")
    return s[a:b]


def _nonempty(s: tuple[Any, ...], what: str) -> tuple[Any, ...]:
    if not s:
        raise Unspecified(f"{what} of an empty sequence")
    return s


def _update(s: tuple[Any, ...], i: Any, v: Any) -> tuple[Any, ...]:
    i = _nat(i, "an index")
    if not 0 <= i < len(s):
        raise Unspecified(f"update at {i} out of bounds (length {len(s)})")
    return (*s[:i], v, *s[i + 1 :])


def _seq_extreme(s: tuple[Any, ...], pick: Callable[..., Any], what: str) -> Any:
    """vstd ``Seq<int>::max``/``min``: of a non-empty integer sequence (unspecified when empty)."""
    _nonempty(s, what)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in s):
        raise SpecUnsupported(f"Seq::{what} of a non-integer sequence")
    return pick(s)


def _take(s: tuple[Any, ...], n: Any) -> tuple[Any, ...]:
    return _subrange(s, 0, n)


def _skip(s: tuple[Any, ...], n: Any) -> tuple[Any, ...]:
    return _subrange(s, n, len(s))


SEQ_METHODS: dict[str, Callable[..., Any]] = {
    "len": lambda s: len(s),
    "subrange": _subrange,
    "take": _take,
    "skip": _skip,
    "push": lambda s, x: (*s, x),
    "drop_last": lambda s: _nonempty(s, "drop_last")[:-1],
    "drop_first": lambda s: _nonempty(s, "drop_first")[1:],
    "last": lambda s: _nonempty(s, "last")[-1],
    "first": lambda s: _nonempty(s, "first")[0],
    "update": _update,
    "add": lambda s, t: s + as_seq(t),
    "contains": lambda s, x: x in s,
    "filter": lambda s, f: tuple(x for x in s if _call(f, x)),
    "map": lambda s, f: tuple(_call(f, i, x) for i, x in enumerate(s)),
    "map_values": lambda s, f: tuple(_call(f, x) for x in s),
    "to_multiset": lambda s: Multiset(s),
    "to_set": lambda s: frozenset(s),
    "reverse": lambda s: s[::-1],
    "no_duplicates": lambda s: len(set(s)) == len(s),
    "is_empty": lambda s: len(s) == 0,
    "index_of": lambda s, x: s.index(x) if x in s else _raise(Unspecified("index_of a missing element")),
    "fold_left": lambda s, init, f: _fold_left(s, init, f),
    "fold_right": lambda s, f, init: _fold_right(s, f, init),
    "clone": lambda s: s,
    "max": lambda s: _seq_extreme(s, max, "max"),
    "min": lambda s: _seq_extreme(s, min, "min"),
}


def _raise(exc: Exception) -> Any:
    raise exc


def _fold_left(s: tuple[Any, ...], acc: Any, f: Any) -> Any:
    for x in s:
        acc = _call(f, acc, x)
    return acc


def _fold_right(s: tuple[Any, ...], f: Any, acc: Any) -> Any:
    for x in reversed(s):
        acc = _call(f, x, acc)
    return acc


def call_method(recv: Any, name: str, args: list[Any]) -> Any:
    """Evaluate ``recv.name(args)`` for the library types the benchmark's specs use."""
    if isinstance(recv, Fresh):
        raise NotEqualityOnly(f"binder {recv.name} has a method called on it")
    if isinstance(recv, str) and (isinstance(recv, RString) or len(recv) != 1) and name in SEQ_METHODS:
        recv = tuple(recv)
    if isinstance(recv, tuple):
        fn = SEQ_METHODS.get(name)
        if fn is None:
            raise SpecUnsupported(f"Seq method {name} is not supported")
        return fn(recv, *args)
    if isinstance(recv, Multiset):
        if name == "count":
            return recv.count(args[0])
        if name == "len":
            return len(recv)
        if name == "insert":
            return recv.insert(args[0])
        if name == "add":
            return recv.add(args[0])
        raise SpecUnsupported(f"Multiset method {name} is not supported")
    if isinstance(recv, frozenset):
        if name == "contains":
            return args[0] in recv
        if name == "len":
            return len(recv)
        if name == "insert":
            return recv | {args[0]}
        if name == "remove":
            return recv - {args[0]}
        if name == "union":
            return recv | args[0]
        if name == "intersect":
            return recv & args[0]
        if name == "difference":
            return recv - args[0]
        raise SpecUnsupported(f"Set method {name} is not supported")
    if recv is None or isinstance(recv, Some):
        if name == "is_some":
            return recv is not None
        if name == "is_none":
            return recv is None
        if name in ("unwrap", "get_Some_0"):
            if recv is None:
                raise Unspecified("unwrap of None")
            return recv.val
        if name == "unwrap_or":
            return args[0] if recv is None else recv.val
        raise SpecUnsupported(f"Option method {name} is not supported")
    if isinstance(recv, bool):
        raise SpecUnsupported(f"bool method {name} is not supported")
    if isinstance(recv, int):
        if name == "abs":
            return abs(recv)
        if name in ("min", "max") and len(args) == 1:
            return min(recv, args[0]) if name == "min" else max(recv, args[0])
        raise SpecUnsupported(f"integer method {name} is not supported")
    if isinstance(recv, str) and len(recv) == 1:
        if name == "is_ascii_digit":
            return "0" <= recv <= "9"
        if name == "is_ascii_lowercase":
            return "a" <= recv <= "z"
        if name == "is_ascii_uppercase":
            return "A" <= recv <= "Z"
        if name == "is_ascii_alphabetic":
            return ("a" <= recv <= "z") or ("A" <= recv <= "Z")
        raise SpecUnsupported(f"char method {name} is not supported")
    if isinstance(recv, Struct | Variant):
        raise SpecUnsupported(f"method {name} on a user type is not supported")
    raise SpecUnsupported(f"method {name} on {type(recv).__name__} is not supported")
