"""Rust function signatures as the benchmarks state them (parameter names and types)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...values.rust_types import value_type
from ...values.types import Type

__all__ = ["RustParam", "RustSignature", "combined_signature", "input_params"]


@dataclass(frozen=True)
class RustParam:
    name: str
    type_text: str
    type: Type  # as written (borrows kept)

    @property
    def value_type(self) -> Type:
        return value_type(self.type)


@dataclass(frozen=True)
class RustSignature:
    name: str
    owner: str | None
    params: tuple[RustParam, ...]
    receiver: str | None
    ret_name: str | None
    ret_type_text: str
    ret_type: Type

    def param(self, name: str) -> RustParam | None:
        for p in self.params:
            if p.name == name:
                return p
        return None


def combined_signature(sig: RustSignature, ctor: RustSignature | None) -> RustSignature:
    """For ``&self`` methods, test inputs hold the constructor's arguments and the method's together."""
    if ctor is None:
        return sig
    return RustSignature(sig.name, sig.owner, ctor.params + sig.params, sig.receiver, sig.ret_name,
                         sig.ret_type_text, sig.ret_type)  # fmt: skip


def input_params(problem: Any) -> tuple[RustParam, ...]:
    """The parameters a test input binds, in order (constructor arguments first for ``&self`` targets)."""
    return combined_signature(problem.ref_signature, problem.constructor).params
