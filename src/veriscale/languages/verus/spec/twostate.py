"""Binding the two states of an in-place call for ``ensures``.

For a target with mutable arguments, ``ensures`` sees each mutable argument
``x`` as its value *after* the call and ``old(x)`` (environment key
``#old#x``) as the value before. The output must therefore be a
``rust.inplace.InPlaceOutput`` carrying the final values; anything else
(a bare return value) cannot be judged exactly and is reported as UNKNOWN
through ``InPlaceMissing`` — never evaluated against the unmodified input,
which would turn a correct in-place program into a wrong FALSE.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from veriscale.values.types import Type

from ..inplace import InPlaceOutput

__all__ = ["InPlaceMissing", "bind_inplace"]


class InPlaceMissing(ValueError):
    """The output lacks the final value of a mutable argument."""


def bind_inplace(
    env: dict[str, Any],
    params: Sequence[tuple[str, Type]],
    required: Sequence[str],
    ret_name: str,
    ret_type: Type,
    output: Any,
) -> None:
    """Rebind ``env`` (holding pre-call values) to the post-call state of ``output``."""
    from .program import to_spec_value  # local: program imports this module

    if not isinstance(output, InPlaceOutput):
        raise InPlaceMissing(
            "the final values of the &mut arguments are not available (ensures needs the post-call state)"
        )
    types = dict(params)
    for name in output.names():
        if name not in env:
            raise InPlaceMissing(f"the output names an unknown mutable argument {name}")
        env["#old#" + name] = env[name]
        t = types.get(name)
        val = output.value(name)
        env[name] = to_spec_value(t, val) if t is not None else val
    missing = [n for n in required if n not in output.names()]
    if missing:
        raise InPlaceMissing(f"the final value of {', '.join(missing)} is not available")
    env[ret_name] = to_spec_value(ret_type, output.ret)
