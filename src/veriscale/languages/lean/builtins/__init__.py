"""Builtin library of the Lean fragment (List, Array, String, Char, Nat, Int, Float, …).

Importing the package registers every builtin in ``registry.BUILTINS``:

* ``registry.lookup(name)`` finds one by its full Lean name (``List.foldl``);
* ``optional.invoke(b, args, default)`` applies it with Lean's rules for
  optional parameters, partial application and ``Inhabited`` defaults;
* ``ops`` holds the operator semantics (``nat_sub``, ``int_div``, ``beq``,
  ``lex_lt``, ``lean_repr``, …) the evaluator calls directly.
"""

from __future__ import annotations

from . import array as _array
from . import char as _char
from . import finset as _finset
from . import float as _float
from . import hashmap as _hashmap
from . import list as _list
from . import mathlib_list as _mathlib_list
from . import misc as _misc
from . import nat_int as _nat_int
from . import ops, optional
from . import option as _option
from . import prod as _prod
from . import string as _string
from .registry import BUILTINS, Builtin, builtin, lookup

__all__ = ["BUILTINS", "Builtin", "builtin", "load_all", "lookup", "ops", "optional"]

_MODULES = (
    _array,
    _char,
    _finset,
    _float,
    _hashmap,
    _list,
    _mathlib_list,
    _misc,
    _nat_int,
    _option,
    _prod,
    _string,
)


def load_all() -> dict[str, Builtin]:
    """Every registered builtin by name (the modules register on import)."""
    assert all(m.__name__ for m in _MODULES)
    return BUILTINS
