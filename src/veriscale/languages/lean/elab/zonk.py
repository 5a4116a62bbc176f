"""Replace metavariables by their solutions everywhere in an IR tree.

Also removes ``Postponed`` wrappers (their elaborated term takes their place).
Runs once per definition, after elaboration finished.
"""

from __future__ import annotations

from typing import Any

from ..errors import ElabError
from . import ir
from .unify import MetaCtx

__all__ = ["zonk_node"]

_TYPE_FIELDS = ("ty", "opty", "var_ty", "inst")


def zonk_node(n: Any, mc: MetaCtx) -> Any:
    return _Zonker(mc).go(n)


class _Zonker:
    def __init__(self, mc: MetaCtx) -> None:
        self.mc = mc
        self.seen: set[int] = set()

    def go(self, n: Any) -> Any:
        if isinstance(n, ir.Postponed):
            if n.node is None:
                raise ElabError("could not elaborate a postponed term")
            return self.go(n.node)
        if isinstance(n, list):
            return [self.go(x) for x in n]
        if isinstance(n, tuple):
            return tuple(self.go(x) for x in n)
        if not hasattr(n, "__dataclass_fields__") or not type(n).__module__.endswith("elab.ir"):
            return n
        if id(n) in self.seen:
            return n
        self.seen.add(id(n))
        for name in n.__dataclass_fields__:
            v = getattr(n, name)
            if name in _TYPE_FIELDS:
                if v is not None:
                    setattr(n, name, self.mc.zonk(v))
            elif isinstance(v, list | tuple) or hasattr(v, "__dataclass_fields__"):
                setattr(n, name, self.go(v))
        return n
