"""``Option`` builtins. ``none`` is Python ``None``; ``some x`` is ``Some(x)``."""

from __future__ import annotations

from typing import Any

from veriscale.values.runtime import Some

from ..errors import EvalError
from .optional import define
from .support import fn1


@define("Option.getD", "Option α → α → α", "opt dflt")
def get_d(o: Any, dflt: Any) -> Any:
    return dflt if o is None else o.val


@define("Option.get!", "Option α → α", "opt", inhabited="α")
def get_bang(dflt: Any, o: Any) -> Any:
    return dflt if o is None else o.val


@define("Option.get", "Option α → α", "o", proofs="h")
def get(o: Any, _h: object) -> Any:
    """``Option.get (o) (h : o.isSome)``; the proof is ignored."""
    if o is None:
        raise EvalError("Option.get of none")
    return o.val


@define("Option.isSome", "Option α → Bool", "o")
def is_some(o: Any) -> bool:
    return o is not None


@define("Option.isNone", "Option α → Bool", "o")
def is_none(o: Any) -> bool:
    return o is None


@define("Option.map", "(α → β) → Option α → Option β", "f o")
def map_(f: Any, o: Any) -> Any:
    return None if o is None else Some(fn1(f)(o.val))


@define("Option.bind", "Option α → (α → Option β) → Option β", "o f")
def bind(o: Any, f: Any) -> Any:
    return None if o is None else fn1(f)(o.val)


@define("Option.filter", "(α → Bool) → Option α → Option α", "p o")
def filter_(p: Any, o: Any) -> Any:
    return o if o is not None and fn1(p)(o.val) else None


@define("Option.all", "(α → Bool) → Option α → Bool", "p o")
def all_(p: Any, o: Any) -> bool:
    return o is None or bool(fn1(p)(o.val))


@define("Option.any", "(α → Bool) → Option α → Bool", "p o")
def any_(p: Any, o: Any) -> bool:
    return o is not None and bool(fn1(p)(o.val))


@define("Option.toList", "Option α → List α", "o")
def to_list(o: Any) -> tuple:
    return () if o is None else (o.val,)


@define("Option.toArray", "Option α → Array α", "o")
def to_array(o: Any) -> tuple:
    return () if o is None else (o.val,)


@define("Option.or", "Option α → Option α → Option α", "o o'")
def or_(o: Any, o2: Any) -> Any:
    return o2 if o is None else o


@define("Option.join", "Option (Option α) → Option α", "x")
def join(o: Any) -> Any:
    return None if o is None else o.val


@define("Option.elim", "Option α → β → (α → β) → β", "o b f")
def elim(o: Any, b: Any, f: Any) -> Any:
    return b if o is None else fn1(f)(o.val)
