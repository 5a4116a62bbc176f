"""Typed single edits of an input value at any depth (the steps of guided mutation).

``typed_edit(t, v, rng)`` returns ``(v', label)``: ``v`` of type ``t`` changed by one
small, type-preserving edit, and a short label of the edit (for provenance), or None
when ``v`` has nothing to edit. An edit is chosen uniformly among those that apply at
the chosen position; the position is chosen by walking down the value: at a
collection, either an edit of the collection itself (probability one half when it has
elements) or, recursively, an edit of one uniformly chosen element/component.

Edits per type:

==================  ============================================================
Int                 ±1, 0, ±1 as values, negation, the 32/64-bit boundaries
Nat / UIntN         ±1 (clipped/wrapped into range), 0, 1, the type's maximum
Bool                negation
Char                the boundaries of Lean's character classes — 'a' 'z' 'A' 'Z'
                    '0' '9' space '.' 'é' — case swapped, code point ±1
String              one character changed (as a Char), inserted, deleted,
                    duplicated; two adjacent characters swapped; "" ; reversed
List / Array        one element changed (recursively), deleted, duplicated,
                    inserted (a copy of a neighbour or the type's default);
                    two adjacent elements swapped; first/last element dropped
Option              ``none`` ↔ ``some default``; ``some v`` ↦ ``some v'``
Prod                one component changed
==================  ============================================================

Other types (structures, hash maps, functions) are left alone. All choices come from
the caller's ``random.Random``, so a run is reproducible and independent of
``PYTHONHASHSEED``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ...values.runtime import Some, default_value
from ...values.types import TCon, Type

__all__ = ["CHAR_BOUNDARIES", "typed_edit", "typed_edits"]

CHAR_BOUNDARIES = ("a", "z", "A", "Z", "0", "9", " ", ".", "é")
_UINT_BITS = {"UInt8": 8, "UInt16": 16, "UInt32": 32, "UInt64": 64}
_INT_BOUNDS = (2**31 - 1, -(2**31), 2**63 - 1, -(2**63))
_SEQ = ("List", "Array")

Edit = tuple[Any, str]


def _int_edits(v: int) -> list[Edit]:
    out = [(v + 1, "+1"), (v - 1, "-1"), (0, "=0"), (1, "=1"), (-1, "=-1"), (-v, "neg")]
    out += [(b, "bound") for b in _INT_BOUNDS]
    return out


def _nat_edits(v: int, hi: int | None) -> list[Edit]:
    out = [(v + 1, "+1"), (max(0, v - 1), "-1"), (0, "=0"), (1, "=1")]
    if hi is not None:
        out = [(x % (hi + 1), lab) for x, lab in out] + [(hi, "max")]
    return out


def _char_edits(c: str) -> list[Edit]:
    out = [(b, f"char={b}") for b in CHAR_BOUNDARIES]
    sw = c.swapcase()
    if len(sw) == 1:
        out.append((sw, "swapcase"))
    cp = ord(c)
    for d in (1, -1):
        n = cp + d
        if 0 <= n <= 0x10FFFF and not 0xD800 <= n <= 0xDFFF:
            out.append((chr(n), f"code{d:+d}"))
    return out


def _default(t: Type) -> Any:
    try:
        return default_value(t)
    except Exception:  # a type without a known default: no insertion of it
        return None


def _seq_edits(elem: Type, xs: tuple[Any, ...], rng: random.Random) -> list[Edit]:
    """Edits of the sequence itself (its elements are edited by recursion)."""
    n = len(xs)
    out: list[Edit] = []
    if n:
        i = rng.randrange(n)
        out += [
            (xs[:i] + xs[i + 1 :], f"del@{i}"),
            (xs[: i + 1] + xs[i:], f"dup@{i}"),
            (xs[1:], "drop-first"),
            (xs[:-1], "drop-last"),
        ]
        if n > 1:
            j = rng.randrange(n - 1)
            out.append(((*xs[:j], xs[j + 1], xs[j], *xs[j + 2 :]), f"swap@{j}"))
    d = _default(elem)
    k = rng.randrange(n + 1)
    if d is not None:
        out.append(((*xs[:k], d, *xs[k:]), f"ins-default@{k}"))
    if n:
        src = xs[min(k, n - 1)]
        out.append(((*xs[:k], src, *xs[k:]), f"ins-copy@{k}"))
    return out


def _string_edits(s: str, rng: random.Random) -> list[Edit]:
    out: list[Edit] = [("", "empty"), (s[::-1], "reverse")]
    n = len(s)
    k = rng.randrange(n + 1)
    c = CHAR_BOUNDARIES[rng.randrange(len(CHAR_BOUNDARIES))]
    out.append((s[:k] + c + s[k:], f"ins@{k}"))
    if n:
        i = rng.randrange(n)
        out += [(s[:i] + s[i + 1 :], f"del@{i}"), (s[: i + 1] + s[i:], f"dup@{i}")]
        e, lab = rng.choice(_char_edits(s[i]))
        out.append((s[:i] + e + s[i + 1 :], f"@{i}:{lab}"))
        if n > 1:
            j = rng.randrange(n - 1)
            out.append((s[:j] + s[j + 1] + s[j] + s[j + 2 :], f"swap@{j}"))
    return out


def typed_edit(t: Type, v: Any, rng: random.Random) -> Edit | None:
    """One typed edit of ``v`` (see the module doc); None when there is nothing to edit."""
    if not isinstance(t, TCon):
        return None
    name = t.name
    edits: list[Edit]
    if name == "Int" and type(v) is int:
        edits = _int_edits(v)
    elif name == "Nat" and type(v) is int:
        edits = _nat_edits(v, None)
    elif name in _UINT_BITS and type(v) is int:
        edits = _nat_edits(v, 2 ** _UINT_BITS[name] - 1)
    elif name == "Bool" and type(v) is bool:
        edits = [(not v, "not")]
    elif name == "Char" and type(v) is str and len(v) == 1:
        edits = _char_edits(v)
    elif name == "String" and type(v) is str:
        edits = _string_edits(v, rng)
    elif name in _SEQ and type(v) is tuple and t.args:
        return _descend(v, rng, lambda: _seq_edits(t.args[0], v, rng), lambda i: t.args[0])
    elif name == "Option" and t.args:
        if v is None:
            d = _default(t.args[0])
            return None if d is None else (Some(d), "some-default")
        if rng.randrange(2) == 0:
            return None, "none"
        inner = typed_edit(t.args[0], v.val, rng)
        return None if inner is None else (Some(inner[0]), f"some:{inner[1]}")
    elif name == "Prod" and len(t.args) == 2 and type(v) is tuple and len(v) == 2:
        i = rng.randrange(2)
        inner = typed_edit(t.args[i], v[i], rng)
        if inner is None:
            return None
        return ((inner[0], v[1]) if i == 0 else (v[0], inner[0])), f".{i + 1}:{inner[1]}"
    else:
        return None
    return rng.choice(edits) if edits else None


def _descend(
    xs: tuple[Any, ...], rng: random.Random, own: Callable[[], list[Edit]], elem_type: Callable[[int], Type]
) -> Edit | None:
    """An edit of the sequence itself (half the time when it has elements) or of one element."""
    if xs and rng.randrange(2) == 0:
        i = rng.randrange(len(xs))
        inner = typed_edit(elem_type(i), xs[i], rng)
        if inner is not None:
            return (*xs[:i], inner[0], *xs[i + 1 :]), f"[{i}]:{inner[1]}"
    edits = own()
    return rng.choice(edits) if edits else None


def typed_edits(
    params: list[tuple[str, Type]], values: dict[str, Any], rng: random.Random, steps: int
) -> tuple[dict[str, Any], list[str]] | None:
    """``steps`` typed edits of a whole input, each on one uniformly chosen editable parameter;
    returns the new values and the edit labels (``param:label``), or None when nothing changed."""
    new = dict(values)
    labels: list[str] = []
    for _ in range(steps):
        if not params:
            break
        name, t = params[rng.randrange(len(params))]
        e = typed_edit(t, new[name], rng)
        if e is not None:
            new[name] = e[0]
            labels.append(f"{name}:{e[1]}")
    return (new, labels) if labels else None
