"""In-place targets: functions that take ``&mut`` arguments or a ``&mut self`` receiver.

Verus' ``ensures`` of such a function talks about two states: a mutable
argument ``x`` names its value *after* the call and ``old(x)`` the value
*before* it (in ``requires`` both mean the value before). So the output of
one run is not the return value alone but an ``InPlaceOutput``: the return
value plus the post-call value of every mutable argument, by name
(``"self"`` for a ``&mut self`` receiver).

JSON form (what the harness prints and what test files hold):
``{"return": <ret>, "after": {"<name>": <value>, …}}``.

The *stated* form of a LeetCode example is shorter: a ``void`` function with
one mutable argument states that argument's final value ("Output: [1,2,3]");
a function that also returns a value states the return value only.
``stated_view`` projects an ``InPlaceOutput`` onto that form, and
``from_stated`` rebuilds the full output when the stated form determines it
(the ``void`` + one-argument case).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...values import rust_codec
from ...values.codec import DecodeError
from ...values.rust_types import value_type
from ...values.types import UNIT, TCon, Type

__all__ = [
    "InPlaceOutput",
    "decode_inplace",
    "from_stated",
    "inplace_to_json",
    "mutable_params",
    "stated_view",
]


@dataclass(frozen=True)
class InPlaceOutput:
    """The result of a call with mutable arguments: return value and post-call values by name."""

    ret: Any
    after: tuple[tuple[str, Any], ...]

    def value(self, name: str) -> Any:
        for n, v in self.after:
            if n == name:
                return v
        raise KeyError(name)

    def names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.after)


def mutable_params(
    params: Sequence[tuple[str, Type]], receiver: str | None, owner: str | None
) -> list[tuple[str, Type]]:
    """(name, value type) of every mutable argument, in order; ``self`` last for ``&mut self``."""
    out = [(n, value_type(t)) for n, t in params if isinstance(t, TCon) and t.name == "RefMut"]
    if receiver is not None and receiver.replace(" ", "") == "&mutself":
        out.append(("self", TCon(owner or "Self")))
    return out


def decode_inplace(
    ret_type: Type, muts: Sequence[tuple[str, Type]], raw: Any, structs: Mapping[str, Any] | None = None
) -> InPlaceOutput:
    """Strict decoding of the JSON form (``DecodeError`` naming the field)."""
    if not isinstance(raw, dict) or "after" not in raw:
        raise DecodeError('in-place output must be {"return": …, "after": {…}}')
    after = raw["after"]
    if not isinstance(after, dict):
        raise DecodeError("in-place output: after is not an object", field="after")
    unknown = sorted(set(after) - {n for n, _ in muts})
    if unknown:
        raise DecodeError(f"in-place output: unknown mutable argument(s) {', '.join(unknown)}", field="after")
    vals: list[tuple[str, Any]] = []
    for n, t in muts:
        if n not in after:
            raise DecodeError(f"in-place output: missing the final value of {n}", field=f"after.{n}")
        vals.append((n, rust_codec.decode(t, after[n], structs=structs or {})))
    ret = rust_codec.decode(ret_type, raw.get("return"), structs=structs or {})
    return InPlaceOutput(ret, tuple(vals))


def inplace_to_json(
    ret_type: Type,
    muts: Sequence[tuple[str, Type]],
    out: InPlaceOutput,
    structs: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    st = structs or {}
    types = dict(muts)
    return {
        "return": rust_codec.to_json(ret_type, out.ret, structs=st),
        "after": {n: rust_codec.to_json(types[n], v, structs=st) for n, v in out.after},
    }


def _stated_type(ret_type: Type, muts: Sequence[tuple[str, Type]]) -> Type:
    if ret_type == UNIT and len(muts) == 1:
        return muts[0][1]
    return ret_type


def stated_view(ret_type: Type, muts: Sequence[tuple[str, Type]], out: InPlaceOutput) -> Any:
    """What a LeetCode example states for this output (see the module doc)."""
    if ret_type == UNIT and len(muts) == 1:
        return out.after[0][1]
    return out.ret


def from_stated(
    ret_type: Type, muts: Sequence[tuple[str, Type]], raw: Any, structs: Mapping[str, Any] | None = None
) -> tuple[Any, InPlaceOutput | None]:
    """(stated value decoded, full output when the stated form determines it, else None)."""
    if isinstance(raw, dict) and "after" in raw:
        full = decode_inplace(ret_type, muts, raw, structs)
        return stated_view(ret_type, muts, full), full
    val = rust_codec.decode(_stated_type(ret_type, muts), raw, structs=structs or {})
    if ret_type == UNIT and len(muts) == 1:
        return val, InPlaceOutput((), ((muts[0][0], val),))
    return val, None
