"""Runtime helpers that generated code calls.

They are installed in the namespace every generated module runs in, under
the names listed in ``NAMESPACE``. Keep them small: they are on the hot path.
"""

from __future__ import annotations

import functools
from typing import Any

from veriscale.runtime import limits
from veriscale.values.runtime import Fn, HMap, HSet, Some, Struct, call

from ..builtins import ops
from ..builtins.support import SIZE_CHECK_FROM, bcontains
from ..errors import EvalError
from .doubling import doubling_fold

__all__ = ["NAMESPACE"]


def getb(xs: Any, i: int, d: Any) -> Any:
    """``xs[i]!`` on a List/Array (tuples): the default when out of range."""
    if 0 <= i < len(xs):
        return xs[i]
    return d


def getq(xs: Any, i: int) -> Any:
    if 0 <= i < len(xs):
        return Some(xs[i])
    return None


def hgetq(m: HMap, k: Any) -> Any:
    if k in m:
        return Some(m.get(k))
    return None


def hgetb(m: HMap, k: Any, d: Any) -> Any:
    if k in m:
        return m.get(k)
    return d


def match_fail(*_: Any) -> Any:
    raise EvalError("non-exhaustive match: no pattern matched the value")


def append(a: Any, b: Any) -> Any:
    """``a ++ b`` on lists, arrays and strings, refusing results over the size limit: a spec that
    doubles a list per element (all subsequences) must stop at the limit, not exhaust memory.
    No fuel: the copy is cheap next to the work that produced ``a`` and ``b``, already charged."""
    n = len(a) + len(b)
    if n >= SIZE_CHECK_FROM:
        limits.current().refuse_size(n)
    return a + b


def mem(x: Any, coll: Any) -> bool:
    if isinstance(coll, tuple):
        return bcontains(coll, x)
    return x in coll


def tostr(v: Any, t: Any) -> str:
    try:
        return ops.lean_to_string(t, v)
    except TypeError as exc:
        raise EvalError(str(exc)) from None


def torepr(v: Any, t: Any) -> str:
    return ops.lean_repr(t, v)


def charge() -> None:
    limits.charge()


def qdomain_hmap(m: Any) -> Any:
    return m.keys() if isinstance(m, HMap) else m


NAMESPACE: dict[str, Any] = {
    "_Fn": Fn,
    "_Some": Some,
    "_Struct": Struct,
    "_call": call,
    "_charge": limits.charge,
    "_getb": getb,
    "_getq": getq,
    "_hgetq": hgetq,
    "_hgetb": hgetb,
    "_match_fail": match_fail,
    "_mem": mem,
    "_append": append,
    "_dfold": doubling_fold,
    "_partial": functools.partial,
    "_nsub": ops.nat_sub,
    "_ndiv": ops.nat_div,
    "_nmod": ops.nat_mod,
    "_idiv": ops.int_div,
    "_imod": ops.int_mod,
    "_npow": ops.nat_pow,
    "_imul": ops.int_mul,
    "_fdiv": ops.float_div,
    "_fpow": ops.float_pow,
    "_nshl": ops.nat_shiftl,
    "_u8add": ops.uint8_add,
    "_u8sub": ops.uint8_sub,
    "_u8mul": ops.uint8_mul,
    "_u8div": ops.uint8_div,
    "_u8mod": ops.uint8_mod,
    "_beq": ops.beq,
    "_lt": ops.lex_lt,
    "_le": ops.lex_le,
    "_tostr": tostr,
    "_torepr": torepr,
    "_qkeys": qdomain_hmap,
    "_HSet": HSet,
    "_HMap": HMap,
}
