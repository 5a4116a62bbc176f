"""Typed spec fns of the Post2Exe translator: integer and boolean results as native ``i128``/``bool``.

A spec fn declared to return an integer type (``int``, ``nat``, ``u32``, …) or
``bool`` is emitted as two Rust functions:

* ``t_<name>(args: &V…) -> Result<i128, E>`` (or ``Result<bool, E>``): the
  body, its value computed on the typed fast path where it can be
  (``typed.int_operand``; an ``if`` picks its branch as the general code
  does and computes it typed), else through the
  general code and converted (``int``/``truth``, checked: a value of another
  kind is the general code's UNKNOWN, "expected an integer"/"a boolean");
  charge, depth and memo exactly as the generic function was (the same step
  charged first, the same memo key and id, an entry stored only for a value);
* ``f_<name>(args: &V…) -> R``: the generic entry point, a wrapper of
  ``t_<name>`` returning ``V::I``/``V::B`` (callers that need a value: a
  quantifier body, an argument, an equality of two values).

Callers that need the integer or boolean itself (``typed.int_expr`` for an
integer operand, ``_Fn._bool`` for an operand of a connective or a clause)
call ``t_<name>`` directly: no ``V`` is built, returned, matched and dropped
on the way, and a memo hit reads the stored integer without cloning a ``V``
(``memo_get_i``/``memo_get_b``).

Exactness. The steps charged are those of the generic function: ``charge``
first, then the memo probe (same key: the arguments are the same ``V`` s),
``enter``, the body, ``leave`` and the store of an ``Ok`` result. A body
whose value is not of the declared kind is an error inside ``t_<name>``
(not stored in the memo) where the generic function stored the value and
its caller failed on it: that differs only for a contract Verus rejects as
ill-typed, and then only as an UNKNOWN, never a TRUE/FALSE.
"""

from __future__ import annotations

from typing import Any

from veriscale.values.rust_types import value_type
from veriscale.values.types import TCon, Type

from ..spec.ast import Expr
from .typed import int_operand, is_int_type

__all__ = ["emit", "result_kind", "typed_name"]


def result_kind(ret: Type | None) -> str | None:
    """``"int"``, ``"bool"`` or None (a spec fn returning anything else keeps the generic form)."""
    if is_int_type(ret):
        return "int"
    t = value_type(ret) if ret is not None else None
    if isinstance(t, TCon) and t.name == "bool" and not t.args:
        return "bool"
    return None


def typed_name(rust: str) -> str:
    """The typed function of the generic ``f_<name>``."""
    return "t_" + rust.removeprefix("f_")


def _body(f: Any, e: Expr, kind: str) -> str:
    """A Rust expression of type ``i128``/``bool`` (it may use ``?``) for a typed fn's body."""
    if kind == "int":  # (an `if` picks its branch, then computes it typed: `typed.int_operand`)
        return int_operand(f, e)
    return f"{f._bool(e)}?"


def emit(
    f: Any,
    rust: str,
    fid: int,
    params: list[str],
    body: Expr,
    kind: str,
    memoised: bool,
    loop: str | None = None,
) -> list[str]:
    """The two functions of a typed spec fn (see the module doc); ``f``: the translator's ``_Fn`` of the
    body's scope; ``params``: the Rust parameter names; ``loop``: the function computing the body as a loop
    (``linear_rec``), if any. Raises ``Untranslatable`` as the body does."""
    ty = "i128" if kind == "int" else "bool"
    tname = typed_name(rust)
    call = f"{loop}({', '.join(params)})" if loop is not None else None
    inner = _body(f, body, kind) if call is None else ""
    sig = ", ".join(f"{v}: &V" for v in params)
    wrap = "V::I" if kind == "int" else "V::B"
    if memoised:
        args = f"&[{', '.join(params)}]"
        get, put = ("memo_get_i", "memo_put_i") if kind == "int" else ("memo_get_b", "memo_put_b")
        typed = (
            f"fn {tname}({sig}) -> Result<{ty}, E> {{ charge()?; let key = tkey({fid}, {args}); "
            f"if let Some(x) = {get}(key, {fid}, {args}) {{ return Ok(x); }} enter()?; "
            f"let r = {call or f'(|| -> Result<{ty}, E> {{ Ok({inner}) }})()'}; leave(); "
            f"if let Ok(x) = &r {{ {put}(key, {fid}, {args}, *x); }} r }}"
        )
    else:
        typed = (
            f"fn {tname}({sig}) -> Result<{ty}, E> {{ charge()?; enter()?; "
            f"let r = {call or f'(|| -> Result<{ty}, E> {{ Ok({inner}) }})()'}; leave(); r }}"
        )
    generic = f"fn {rust}({sig}) -> R {{ Ok({wrap}({tname}({', '.join(params)})?)) }}"
    return [typed, generic]
