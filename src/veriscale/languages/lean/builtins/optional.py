"""Parameter metadata of builtins: names, optional parameters and their defaults.

Lean functions may end with optional explicit parameters
(``List.range' (start len : Nat) (step : Nat := 1)``,
``List.mergeSort (xs) (le := fun a b => a ≤ b)``,
``Array.foldl f init as (start := 0) (stop := as.size)``). The registry
signature lists them like ordinary explicit parameters, so ``Builtin.arity``
counts them; this module records which trailing ones are optional and how to
compute their default from the arguments before them.

Lean fills defaults as soon as only optional explicit parameters remain
unapplied, so ``List.range' 1 5`` is a list and ``xs.mergeSort`` is sorted with
``≤``. ``invoke`` implements exactly that, plus partial application (fewer
arguments than the required ones give a ``Fn``) and over-application.
``PARAMS[name].names`` gives the parameter names for named arguments such as
``nums.foldl (init := []) f``; ``bind_named`` places them.

Every builtin module registers through ``define`` (a thin layer over the one
registration path ``registry.register``, which charges fuel) so that this table is complete.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from veriscale.values.runtime import Fn, call
from veriscale.values.types import TCon, TFun, Type, parse_type

from .registry import BUILTINS, Builtin, register

__all__ = [
    "NO_DEFAULT",
    "PARAMS",
    "PROOF",
    "Default",
    "ParamInfo",
    "bind_named",
    "complete_args",
    "const",
    "define",
    "invoke",
    "param_info",
    "required_arity",
]

# A default is computed from the explicit arguments that precede it.
Default = Callable[[tuple[Any, ...]], Any]


class _NoDefault:
    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Any = _NoDefault()

# The type of an erased proof argument (``h : i < xs.size``), shared with the
# elaborator. Builtins list such parameters last, as optional ones whose
# default is ``None``, so ``xs.head h`` and ``arr.set i v`` both apply.
PROOF = TCon("Proof")


@dataclass(frozen=True, slots=True)
class ParamInfo:
    """Explicit parameters of a builtin: ``names[i]`` is the Lean name of argument ``i``.

    Arguments ``required`` … ``len(names) - 1`` are optional; ``defaults[k]``
    computes argument ``required + k``.
    """

    names: tuple[str, ...]
    required: int
    defaults: tuple[Default, ...] = ()


PARAMS: dict[str, ParamInfo] = {}


def const(value: Any) -> Default:
    """A default that ignores the preceding arguments."""
    return lambda _args: value


def define(
    name: str,
    sig: str | Type,
    params: str = "",
    *,
    inhabited: str | None = None,
    defaults: Mapping[str, Default] | None = None,
    arity: int | None = None,
    proofs: str = "",
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``impl`` as ``name : sig`` and record its parameter names and defaults.

    ``params`` names the explicit parameters in order (space separated; when
    omitted they are called ``a1 a2 …``); ``defaults`` maps the names of the
    trailing optional ones to their default. ``sig`` may be a ready ``Type``
    for types the type-string parser does not know (``String.Iterator``).
    ``proofs`` names trailing proof parameters (type ``PROOF``, default
    ``None``) that ``sig`` leaves out; ``impl`` receives them and ignores them.
    """

    def deco(impl: Callable[..., Any]) -> Callable[..., Any]:
        t = sig
        proof_names = proofs.split()
        if proof_names:
            t = _with_proofs(
                parse_type(sig, type_vars=_TYPE_VARS) if isinstance(t, str) else t, len(proof_names)
            )
        if isinstance(t, str):
            t = parse_type(t, type_vars=_TYPE_VARS)
        register(name, t, impl, inhabited=inhabited, arity=arity)
        n = BUILTINS[name].arity
        names = tuple(params.split()) + tuple(proof_names) if params else tuple(f"a{i + 1}" for i in range(n))
        if len(names) != n:
            raise ValueError(f"{name}: {len(names)} parameter names for arity {n}")
        opt = dict(defaults or {})
        opt.update({p: const(None) for p in proof_names})
        required = n - len(opt)
        if tuple(opt) != names[required:]:
            raise ValueError(f"{name}: optional parameters must be the trailing ones, in order")
        PARAMS[name] = ParamInfo(names, required, tuple(opt.values()))
        return impl

    return deco


_TYPE_VARS = frozenset("αβγδεσ")


def _with_proofs(t: Type, k: int) -> Type:
    """``A → B → R`` becomes ``A → B → Proof → … → R`` (``k`` proofs before the result)."""
    params: list[Type] = []
    while isinstance(t, TFun):
        params.append(t.arg)
        t = t.res
    for p in reversed([*params, *([PROOF] * k)]):
        t = TFun(p, t)
    return t


def param_info(name: str) -> ParamInfo | None:
    return PARAMS.get(name)


def required_arity(b: Builtin) -> int:
    """Number of explicit arguments that must be supplied before Lean fills the defaults."""
    info = PARAMS.get(b.name)
    return info.required if info is not None else b.arity


def complete_args(name: str, args: Sequence[Any]) -> tuple[Any, ...]:
    """``args`` (at least the required ones) extended with the defaults of the missing optionals."""
    info = PARAMS[name]
    out = tuple(args)
    if len(out) < info.required:
        raise ValueError(f"{name}: {len(out)} arguments, {info.required} required")
    for k in range(len(out) - info.required, len(info.defaults)):
        out = (*out, info.defaults[k](out))
    return out


def bind_named(name: str, positional: Sequence[Any], named: Mapping[str, Any]) -> list[Any]:
    """Place named arguments by parameter name.

    Returns the argument list in parameter order, with ``NO_DEFAULT`` marking
    required parameters still missing (Lean then abstracts over them: the
    caller builds a function of those), and defaults filled for absent
    optional ones once every required parameter is known.
    """
    info = PARAMS[name]
    slots: list[Any] = [NO_DEFAULT] * len(info.names)
    for key, value in named.items():
        if key not in info.names:
            raise KeyError(f"{name} has no parameter named {key!r}")
        slots[info.names.index(key)] = value
    it = iter(positional)
    for i in range(len(slots)):
        if slots[i] is NO_DEFAULT:
            nxt = next(it, NO_DEFAULT)
            if nxt is NO_DEFAULT:
                break
            slots[i] = nxt
    rest = list(it)
    if rest:
        slots.extend(rest)  # over-application
    if all(s is not NO_DEFAULT for s in slots[: info.required]):
        for k, dflt in enumerate(info.defaults):
            i = info.required + k
            if slots[i] is NO_DEFAULT:
                slots[i] = dflt(tuple(slots[:i]))
    return slots


def invoke(b: Builtin, args: Sequence[Any], inhabited_default: Any = NO_DEFAULT) -> Any:
    """Apply builtin ``b`` to explicit ``args`` with Lean's application rules.

    * fewer than the required arguments: a ``Fn`` awaiting the remaining required ones;
    * required ≤ given < arity: the optional defaults are filled in;
    * more than ``arity``: the result (a function) is applied to the rest.

    ``inhabited_default`` is ``default_value`` of the instantiated
    ``b.inhabited`` type variable; it is required exactly when ``b.inhabited`` is set.
    """
    if b.inhabited is not None and inhabited_default is NO_DEFAULT:
        raise TypeError(f"{b.name} needs the default value of {b.inhabited}")
    args = tuple(args)
    required = required_arity(b)
    if len(args) < required:
        fixed = args
        return Fn(required - len(args), lambda *rest: invoke(b, fixed + rest, inhabited_default), b.name)
    if len(args) < b.arity:
        args = complete_args(b.name, args)
    extra = args[b.arity :]
    args = args[: b.arity]
    res = b.impl(inhabited_default, *args) if b.inhabited is not None else b.impl(*args)
    return call(res, *extra) if extra else res
