"""Registry of library functions the evaluator knows, with their Lean signatures.

A builtin is registered under its full Lean name (``List.foldl``) with its
signature as a Lean type string over type variables (Greek letters), listing
**explicit arguments only, in Lean's order**. Dot notation ``xs.foldl f z``
is resolved by the elaborator: it looks up ``List.foldl`` (namespace from the
static type of ``xs``) and passes ``xs`` as the first explicit argument whose
type head is ``List``.

Some builtins need a value derived from the static type (Lean's instance
arguments): ``inhabited="α"`` means the implementation receives
``default_value(α)`` as an extra *first* argument (``head!``, ``get!``,
``getLast!``, ``[i]!``).

Implementations receive and return values in the representation documented in
``veriscale.values.runtime``; function arguments are ``Fn`` values applied with
``call``. Builtins that build large values call ``limits.current().check_size``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from veriscale.runtime import limits
from veriscale.values.types import TVar, Type, parse_type

__all__ = ["BUILTINS", "Builtin", "builtin", "lookup", "register", "self_charging"]

_TYPE_VARS = frozenset("αβγδεσ")


@dataclass(frozen=True, slots=True)
class Builtin:
    name: str
    sig: Type
    impl: Callable[..., Any]
    inhabited: TVar | None = None
    # arity of the explicit arguments (number of arrows at the top of sig)
    arity: int = 0


BUILTINS: dict[str, Builtin] = {}


def _arity(t: Type) -> int:
    from veriscale.values.types import TFun

    n = 0
    while isinstance(t, TFun):
        n += 1
        t = t.res
    return n


def builtin(
    name: str, sig: str, *, inhabited: str | None = None, arity: int | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``impl`` as the Lean function ``name : sig``.

    ``arity`` overrides the number of explicit arguments consumed at once when
    the result type is itself a function type that should not be uncurried.
    """

    def deco(impl: Callable[..., Any]) -> Callable[..., Any]:
        register(name, parse_type(sig, type_vars=_TYPE_VARS), impl, inhabited=inhabited, arity=arity)
        return impl

    return deco


def register(
    name: str, t: Type, impl: Callable[..., Any], *, inhabited: str | None = None, arity: int | None = None
) -> Builtin:
    """The one registration path: every builtin is entered here, wrapped so that it is charged fuel."""
    if name in BUILTINS:
        raise ValueError(f"builtin {name} registered twice")
    b = Builtin(
        name=name,
        sig=t,
        impl=_charging(impl),
        inhabited=TVar(inhabited) if inhabited else None,
        arity=_arity(t) if arity is None else arity,
    )
    BUILTINS[name] = b
    return b


def self_charging(impl: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a builtin that charges fuel for its own work (its cost is not the size of its
    arguments, e.g. a search answered from an index)."""
    impl.self_charging = True  # type: ignore[attr-defined]
    return impl


def _charging(impl: Callable[..., Any]) -> Callable[..., Any]:
    """Charge fuel in proportion to the sequences a builtin is given, so a scan over a huge
    list counts against the budget like the equivalent Lean loop would (timeouts stay honest)."""
    if getattr(impl, "self_charging", False):
        return impl
    charge = limits.charge

    def run(*args: Any) -> Any:
        n = 0
        for a in args:
            if type(a) is tuple or type(a) is str:
                n += len(a)
        if n > 16:
            charge(n)
        return impl(*args)

    run.__wrapped__ = impl  # type: ignore[attr-defined]
    run.charged_impl = impl  # type: ignore[attr-defined]  # (``list.map_`` inlines the charge)
    run.__name__ = getattr(impl, "__name__", "builtin")
    return run


def lookup(name: str) -> Builtin | None:
    return BUILTINS.get(name)
