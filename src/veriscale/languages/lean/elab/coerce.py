"""Lean's implicit coercions that the fragment needs.

* ``Nat → Int`` (``Int.ofNat``; a no-op on Python ints),
* ``α → Option α`` (``some``), also after a ``Nat → Int`` step,
* ``Bool → Prop`` (``b = true``) and ``Prop → Bool`` (``decide p``); both are
  Python bools at runtime.

``has_coe`` answers the question Lean's ``binop%`` elaborator asks
(``hasCoe fromType toType``) without assigning metavariables; ``find_coe``
builds the coercion, unifying metavariables of the target where Lean's
instance search would.
"""

from __future__ import annotations

from collections.abc import Callable

from veriscale.values.types import BOOL, INT, NAT, PROP, TCon, Type

from . import ir
from .unify import MetaCtx, is_meta

__all__ = ["find_coe", "has_coe"]


def _con(mc: MetaCtx, t: Type) -> TCon | None:
    t = mc.resolve(t)
    return t if isinstance(t, TCon) else None


def has_coe(mc: MetaCtx, src: Type, dst: Type) -> bool:
    s = _con(mc, src)
    d = _con(mc, dst)
    if s is None or d is None:
        return False
    if s.name == "Nat" and d.name == "Int":
        return True
    if s.name == "Bool" and d.name == "Prop":
        return True
    if d.name == "Option" and s.name != "Option":
        inner = d.args[0]
        return mc.same(s, inner) or has_coe(mc, s, inner)
    return False


def find_coe(mc: MetaCtx, src: Type, dst: Type) -> Callable[[ir.Node], ir.Node] | None:
    """A function wrapping a node of type ``src`` into one of type ``dst``, or None."""
    s = _con(mc, src)
    d = _con(mc, dst)
    if s is None or d is None:
        return None
    if s.name == "Nat" and d.name == "Int":
        return lambda n: ir.Coe(INT, "nat_int", n)
    if s.name == "Bool" and d.name == "Prop":
        return lambda n: ir.Coe(PROP, "bool_prop", n)
    if s.name == "Prop" and d.name == "Bool":
        return lambda n: ir.Coe(BOOL, "prop_bool", n)
    if d.name == "Option" and s.name != "Option":
        inner = d.args[0]
        ri = mc.resolve(inner)
        if is_meta(ri):
            if mc.unify(ri, s):
                return lambda n: ir.MkSome(dst, n)
            return None
        if mc.same(s, ri):
            return lambda n: ir.MkSome(dst, n)
        step = find_coe(mc, s, ri)
        if step is not None:
            return lambda n: ir.MkSome(dst, step(n))
    return None


def nat_like(mc: MetaCtx, t: Type) -> bool:
    r = mc.resolve(t)
    return r == NAT
