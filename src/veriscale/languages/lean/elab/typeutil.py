"""Small helpers on ``Type`` values used across the elaborator."""

from __future__ import annotations

from veriscale.values.types import TCon, TFun, TVar, Type

__all__ = ["fun_type", "subst_tvars"]


def fun_type(params: list[Type], ret: Type) -> Type:
    t = ret
    for p in reversed(params):
        t = TFun(p, t)
    return t


def subst_tvars(t: Type, env: dict[str, Type]) -> Type:
    if isinstance(t, TVar):
        return env.get(t.name, t)
    if isinstance(t, TFun):
        return TFun(subst_tvars(t.arg, env), subst_tvars(t.res, env))
    if not t.args:
        return t
    return TCon(t.name, tuple(subst_tvars(a, env) for a in t.args))
