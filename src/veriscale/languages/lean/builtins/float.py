"""``Float`` builtins: IEEE binary64 with C ``libm`` semantics (no Python exceptions)."""

from __future__ import annotations

import math
from collections.abc import Callable

from . import ops
from .optional import define


def _libm(f: Callable[[float], float], overflow: Callable[[float], float]) -> Callable[[float], float]:
    """Wrap a ``math`` function: domain errors give NaN, overflows give ``overflow(x)``."""

    def g(x: float) -> float:
        try:
            return f(x)
        except ValueError:
            return math.nan
        except OverflowError:
            return overflow(x)

    return g


def _pos_inf(_x: float) -> float:
    return math.inf


def _signed_inf(x: float) -> float:
    return math.copysign(math.inf, x)


def _log(f: Callable[[float], float]) -> Callable[[float], float]:
    def g(x: float) -> float:
        if x == 0.0:
            return -math.inf
        if x < 0.0 or math.isnan(x):
            return math.nan
        return f(x)

    return g


_exp = _libm(math.exp, _pos_inf)
_exp2 = _libm(math.exp2, _pos_inf)
_sqrt = _libm(math.sqrt, _pos_inf)
_sin = _libm(math.sin, _pos_inf)
_cos = _libm(math.cos, _pos_inf)
_tan = _libm(math.tan, _pos_inf)
_asin = _libm(math.asin, _pos_inf)
_acos = _libm(math.acos, _pos_inf)
_sinh = _libm(math.sinh, _signed_inf)
_cosh = _libm(math.cosh, _pos_inf)


@define("Float.isNaN", "Float → Bool", "x")
def is_nan(x: float) -> bool:
    return math.isnan(x)


@define("Float.isInf", "Float → Bool", "x")
def is_inf(x: float) -> bool:
    return math.isinf(x)


@define("Float.isFinite", "Float → Bool", "x")
def is_finite(x: float) -> bool:
    return math.isfinite(x)


@define("Float.ofNat", "Nat → Float", "n")
def of_nat(n: int) -> float:
    return ops.float_of_nat(n)


@define("Float.ofInt", "Int → Float", "n")
def of_int(n: int) -> float:
    return ops.float_of_int(n)


@define("Float.ofScientific", "Nat → Bool → Nat → Float", "m s e")
def of_scientific(m: int, s: bool, e: int) -> float:
    return ops.float_of_scientific(m, s, e)


@define("Float.toString", "Float → String", "x")
def to_string(x: float) -> str:
    return ops.float_to_string(x)


@define("Float.neg", "Float → Float", "x")
def neg(x: float) -> float:
    return -x


@define("Float.add", "Float → Float → Float", "x y")
def add(x: float, y: float) -> float:
    return x + y


@define("Float.sub", "Float → Float → Float", "x y")
def sub(x: float, y: float) -> float:
    return x - y


@define("Float.mul", "Float → Float → Float", "x y")
def mul(x: float, y: float) -> float:
    return x * y


@define("Float.div", "Float → Float → Float", "x y")
def div(x: float, y: float) -> float:
    return ops.float_div(x, y)


@define("Float.pow", "Float → Float → Float", "x y")
def pow_(x: float, y: float) -> float:
    return ops.float_pow(x, y)


@define("Float.beq", "Float → Float → Bool", "a b")
def beq(a: float, b: float) -> bool:
    return a == b


@define("Float.lt", "Float → Float → Prop", "a b")
def lt(a: float, b: float) -> bool:
    return a < b


@define("Float.le", "Float → Float → Prop", "a b")
def le(a: float, b: float) -> bool:
    return a <= b


@define("Float.abs", "Float → Float", "x")
def abs_(x: float) -> float:
    return math.fabs(x)


@define("Float.sqrt", "Float → Float", "x")
def sqrt(x: float) -> float:
    return _sqrt(x)


@define("Float.cbrt", "Float → Float", "x")
def cbrt(x: float) -> float:
    return math.cbrt(x)


@define("Float.exp", "Float → Float", "x")
def exp(x: float) -> float:
    return _exp(x)


@define("Float.exp2", "Float → Float", "x")
def exp2(x: float) -> float:
    return _exp2(x)


@define("Float.log", "Float → Float", "x")
def log(x: float) -> float:
    return _log(math.log)(x)


@define("Float.log2", "Float → Float", "x")
def log2(x: float) -> float:
    return _log(math.log2)(x)


@define("Float.log10", "Float → Float", "x")
def log10(x: float) -> float:
    return _log(math.log10)(x)


@define("Float.sin", "Float → Float", "x")
def sin(x: float) -> float:
    return _sin(x)


@define("Float.cos", "Float → Float", "x")
def cos(x: float) -> float:
    return _cos(x)


@define("Float.tan", "Float → Float", "x")
def tan(x: float) -> float:
    return _tan(x)


@define("Float.asin", "Float → Float", "x")
def asin(x: float) -> float:
    return _asin(x)


@define("Float.acos", "Float → Float", "x")
def acos(x: float) -> float:
    return _acos(x)


@define("Float.atan", "Float → Float", "x")
def atan(x: float) -> float:
    return math.atan(x)


@define("Float.atan2", "Float → Float → Float", "y x")
def atan2(y: float, x: float) -> float:
    return math.atan2(y, x)


@define("Float.sinh", "Float → Float", "x")
def sinh(x: float) -> float:
    return _sinh(x)


@define("Float.cosh", "Float → Float", "x")
def cosh(x: float) -> float:
    return _cosh(x)


@define("Float.tanh", "Float → Float", "x")
def tanh(x: float) -> float:
    return math.tanh(x)


def _signed_zero(r: float, x: float) -> float:
    return math.copysign(0.0, x) if r == 0.0 else r


@define("Float.floor", "Float → Float", "x")
def floor(x: float) -> float:
    if not math.isfinite(x):
        return x
    return _signed_zero(float(math.floor(x)), x)


@define("Float.ceil", "Float → Float", "x")
def ceil(x: float) -> float:
    if not math.isfinite(x):
        return x
    return _signed_zero(float(math.ceil(x)), x)


@define("Float.round", "Float → Float", "x")
def round_(x: float) -> float:
    """C ``round``: halves go away from zero (Python's ``round`` goes to even)."""
    if not math.isfinite(x):
        return x
    frac, whole = math.modf(x)
    if abs(frac) >= 0.5:
        whole += math.copysign(1.0, x)
    return _signed_zero(whole, x)
