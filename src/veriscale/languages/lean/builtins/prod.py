"""``Prod`` builtins. A pair is a Python 2-tuple (``α × β × γ`` nests to the right)."""

from __future__ import annotations

from typing import Any

from .optional import define
from .support import fn1


@define("Prod.fst", "α × β → α", "self")
def fst(p: tuple) -> Any:
    return p[0]


@define("Prod.snd", "α × β → β", "self")
def snd(p: tuple) -> Any:
    return p[1]


@define("Prod.mk", "α → β → α × β", "fst snd")
def mk(a: Any, b: Any) -> tuple:
    return (a, b)


@define("Prod.swap", "α × β → β × α", "p")
def swap(p: tuple) -> tuple:
    return (p[1], p[0])


@define("Prod.map", "(α → γ) → (β → δ) → α × β → γ × δ", "f g p")
def map_(f: Any, g: Any, p: tuple) -> tuple:
    return (fn1(f)(p[0]), fn1(g)(p[1]))
