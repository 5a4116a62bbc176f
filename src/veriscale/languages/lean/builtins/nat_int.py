"""``Nat``, ``Int`` and ``UInt8`` builtins (plus Mathlib's ``Nat.Prime``, ``Nat.digits``, …)."""

from __future__ import annotations

import math

from . import ops
from .optional import define
from .support import fn1, guard_size

# ===================================================================== Nat


@define("Nat.succ", "Nat → Nat", "n")
def succ(n: int) -> int:
    return n + 1


@define("Nat.pred", "Nat → Nat", "n")
def pred(n: int) -> int:
    return n - 1 if n else 0


@define("Nat.add", "Nat → Nat → Nat", "n m")
def nat_add(n: int, m: int) -> int:
    return n + m


@define("Nat.sub", "Nat → Nat → Nat", "n m")
def nat_sub(n: int, m: int) -> int:
    return ops.nat_sub(n, m)


@define("Nat.mul", "Nat → Nat → Nat", "n m")
def nat_mul(n: int, m: int) -> int:
    return n * m


@define("Nat.div", "Nat → Nat → Nat", "x y")
def nat_div(x: int, y: int) -> int:
    return ops.nat_div(x, y)


@define("Nat.mod", "Nat → Nat → Nat", "x y")
def nat_mod(x: int, y: int) -> int:
    return ops.nat_mod(x, y)


@define("Nat.pow", "Nat → Nat → Nat", "m n")
def nat_pow(m: int, n: int) -> int:
    return ops.nat_pow(m, n)


@define("Nat.min", "Nat → Nat → Nat", "n m")
def nat_min(n: int, m: int) -> int:
    return min(n, m)


@define("Nat.max", "Nat → Nat → Nat", "n m")
def nat_max(n: int, m: int) -> int:
    return max(n, m)


@define("Nat.gcd", "Nat → Nat → Nat", "m n")
def nat_gcd(m: int, n: int) -> int:
    return math.gcd(m, n)


@define("Nat.lcm", "Nat → Nat → Nat", "m n")
def nat_lcm(m: int, n: int) -> int:
    return math.lcm(m, n)


@define("Nat.land", "Nat → Nat → Nat", "m n")
def land(m: int, n: int) -> int:
    return ops.nat_land(m, n)


@define("Nat.lor", "Nat → Nat → Nat", "m n")
def lor(m: int, n: int) -> int:
    return ops.nat_lor(m, n)


@define("Nat.xor", "Nat → Nat → Nat", "m n")
def xor(m: int, n: int) -> int:
    return ops.nat_xor(m, n)


@define("Nat.shiftLeft", "Nat → Nat → Nat", "m n")
def shift_left(m: int, n: int) -> int:
    return ops.nat_shiftl(m, n)


@define("Nat.shiftRight", "Nat → Nat → Nat", "m n")
def shift_right(m: int, n: int) -> int:
    return ops.nat_shiftr(m, n)


@define("Nat.testBit", "Nat → Nat → Bool", "m n")
def test_bit(m: int, n: int) -> bool:
    return (m >> n) & 1 == 1


@define("Nat.beq", "Nat → Nat → Bool", "n m")
def nat_beq(n: int, m: int) -> bool:
    return n == m


@define("Nat.ble", "Nat → Nat → Bool", "n m")
def nat_ble(n: int, m: int) -> bool:
    return n <= m


@define("Nat.blt", "Nat → Nat → Bool", "n m")
def nat_blt(n: int, m: int) -> bool:
    return n < m


@define("Nat.log2", "Nat → Nat", "n")
def log2(n: int) -> int:
    return n.bit_length() - 1 if n > 0 else 0


@define("Nat.log", "Nat → Nat → Nat", "b n")
def nat_log(b: int, n: int) -> int:
    """Mathlib's ``Nat.log b n``: ``if b ≤ n ∧ 1 < b then log b (n / b) + 1 else 0`` — the largest
    ``k`` with ``b ^ k ≤ n`` for ``b > 1`` and ``n ≥ 1``; ``0`` otherwise."""
    k = 0
    while 1 < b <= n:
        n //= b
        k += 1
    return k


@define("Nat.sqrt", "Nat → Nat", "n")
def sqrt(n: int) -> int:
    return math.isqrt(n)


@define("Nat.repr", "Nat → String", "n")
def repr_(n: int) -> str:
    return ops.int_str(n)


@define("Nat.toDigits", "Nat → Nat → List Char", "base n")
def to_digits(base: int, n: int) -> tuple:
    """Lean's ``toDigitsCore`` with fuel ``n + 1`` (digits above 15 print as ``'*'``)."""
    if base == 10:
        return tuple(ops.int_str(n))
    if base <= 1:
        guard_size(n + 1)
    ds: list[str] = []
    fuel = n + 1
    while fuel > 0:
        fuel -= 1
        d = ops.nat_mod(n, base)
        ds.append(_digit_char(d))
        n = ops.nat_div(n, base)
        if n == 0:
            break
    return tuple(reversed(ds))


def _digit_char(d: int) -> str:
    return "0123456789abcdef"[d] if d < 16 else "*"


@define("Nat.digitChar", "Nat → Char", "n")
def digit_char(n: int) -> str:
    return _digit_char(n)


@define("Nat.digits", "Nat → Nat → List Nat", "b n")
def digits(b: int, n: int) -> tuple:
    """Mathlib: little-endian digits (``Nat.digits 10 123 = [3, 2, 1]``, ``digits b 0 = []``)."""
    if b == 0:
        return (n,) if n else ()
    if b == 1:
        guard_size(n)
        return (1,) * n
    out = []
    while n:
        n, d = divmod(n, b)
        out.append(d)
    return tuple(out)


@define("Nat.repeat", "(α → α) → Nat → α → α", "f n a")
def repeat(f: object, n: int, a: object) -> object:
    g = fn1(f)
    for _ in range(n):
        a = g(a)
    return a


@define("Nat.factorial", "Nat → Nat", "n")
def factorial(n: int) -> int:
    if n > 20_000:
        guard_size(n * max(1, n.bit_length()) // 64)
    return math.factorial(n)


@define("Nat.choose", "Nat → Nat → Nat", "n k")
def choose(n: int, k: int) -> int:
    return math.comb(n, k)


@define("Nat.toFloat", "Nat → Float", "n")
def to_float(n: int) -> float:
    return ops.float_of_nat(n)


_SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def _miller_rabin(n: int, a: int) -> bool:
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    x = pow(a, d, n)
    if x in (1, n - 1):
        return True
    for _ in range(s - 1):
        x = x * x % n
        if x == n - 1:
            return True
    return False


def _lucas_strong(n: int) -> bool:
    """Strong Lucas probable-prime test (Selfridge parameters), the second half of Baillie–PSW."""
    if math.isqrt(n) ** 2 == n:
        return False
    d = 5
    while True:
        j = _jacobi(d, n)
        if j == -1:
            break
        if j == 0 and abs(d) != n:
            return False
        d = -d - 2 if d > 0 else -d + 2
    p, q = 1, (1 - d) // 4
    k, s = n + 1, 0
    while k % 2 == 0:
        k //= 2
        s += 1
    u, v, qk = 0, 2, 1  # U_0, V_0, Q^0
    for bit in bin(k)[2:]:
        u, v, qk = u * v % n, (v * v - 2 * qk) % n, qk * qk % n
        if bit == "1":
            u, v = (p * u + v), (d * u + p * v)
            u = (u + n if u % 2 else u) // 2 % n
            v = (v + n if v % 2 else v) // 2 % n
            qk = qk * q % n
    if u == 0 or v == 0:
        return True
    for _ in range(s - 1):
        v = (v * v - 2 * qk) % n
        qk = qk * qk % n
        if v == 0:
            return True
    return False


def _jacobi(a: int, n: int) -> int:
    a %= n
    result = 1
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                result = -result
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            result = -result
        a %= n
    return result if n == 1 else 0


def is_prime(n: int) -> bool:
    """Exact for ``n < 3.3·10^24`` (deterministic Miller–Rabin bases); Baillie–PSW above that."""
    if n < 2:
        return False
    for p in _SMALL_PRIMES:
        if n % p == 0:
            return n == p
    if n < 1_000_000:
        return all(n % k for k in range(43, math.isqrt(n) + 1, 2))
    if not all(_miller_rabin(n, a) for a in _SMALL_PRIMES):
        return False
    return n < 3_317_044_064_679_887_385_961_981 or _lucas_strong(n)


@define("Nat.Prime", "Nat → Prop", "p")
def prime(p: int) -> bool:
    return is_prime(p)


# ===================================================================== Int


@define("Int.ofNat", "Nat → Int", "n")
def of_nat(n: int) -> int:
    return n


@define("Int.negSucc", "Nat → Int", "n")
def neg_succ(n: int) -> int:
    return -n - 1


@define("Int.toNat", "Int → Nat", "a")
def to_nat(a: int) -> int:
    """Negative numbers map to 0."""
    return a if a > 0 else 0


@define("Int.natAbs", "Int → Nat", "m")
def nat_abs(m: int) -> int:
    return abs(m)


@define("Int.neg", "Int → Int", "n")
def neg(n: int) -> int:
    return -n


@define("Int.sign", "Int → Int", "m")
def sign(m: int) -> int:
    return (m > 0) - (m < 0)


@define("Int.add", "Int → Int → Int", "m n")
def int_add(m: int, n: int) -> int:
    return m + n


@define("Int.sub", "Int → Int → Int", "m n")
def int_sub(m: int, n: int) -> int:
    return m - n


@define("Int.mul", "Int → Int → Int", "m n")
def int_mul(m: int, n: int) -> int:
    return m * n


@define("Int.ediv", "Int → Int → Int", "a b")
def ediv(a: int, b: int) -> int:
    return ops.int_div(a, b)


@define("Int.emod", "Int → Int → Int", "a b")
def emod(a: int, b: int) -> int:
    return ops.int_mod(a, b)


@define("Int.tdiv", "Int → Int → Int", "a b")
def tdiv(a: int, b: int) -> int:
    return ops.int_tdiv(a, b)


@define("Int.tmod", "Int → Int → Int", "a b")
def tmod(a: int, b: int) -> int:
    return ops.int_tmod(a, b)


@define("Int.fdiv", "Int → Int → Int", "a b")
def fdiv(a: int, b: int) -> int:
    return ops.int_fdiv(a, b)


@define("Int.fmod", "Int → Int → Int", "a b")
def fmod(a: int, b: int) -> int:
    return ops.int_fmod(a, b)


@define("Int.div", "Int → Int → Int", "a b")
def int_div(a: int, b: int) -> int:
    """The deprecated name of ``Int.tdiv`` (T-rounding; *not* the ``/`` operator)."""
    return ops.int_tdiv(a, b)


@define("Int.mod", "Int → Int → Int", "a b")
def int_mod(a: int, b: int) -> int:
    """The deprecated name of ``Int.tmod``."""
    return ops.int_tmod(a, b)


@define("Int.pow", "Int → Nat → Int", "m n")
def int_pow(m: int, n: int) -> int:
    return ops.int_pow(m, n)


@define("Int.natMod", "Int → Int → Nat", "m n")
def nat_mod_int(m: int, n: int) -> int:
    return ops.int_mod(m, n)


@define("Int.gcd", "Int → Int → Nat", "m n")
def int_gcd(m: int, n: int) -> int:
    return math.gcd(m, n)


@define("Int.lcm", "Int → Int → Nat", "m n")
def int_lcm(m: int, n: int) -> int:
    return math.lcm(m, n)


@define("Int.repr", "Int → String", "i")
def int_repr(i: int) -> str:
    return ops.int_str(i)


# =================================================================== UInt8


@define("UInt8.ofNat", "Nat → UInt8", "n")
def u8_of_nat(n: int) -> int:
    return ops.uint8_of_nat(n)


@define("UInt8.toNat", "UInt8 → Nat", "n")
def u8_to_nat(n: int) -> int:
    return n


@define("UInt8.xor", "UInt8 → UInt8 → UInt8", "a b")
def u8_xor(a: int, b: int) -> int:
    return ops.uint8_xor(a, b)


@define("UInt8.land", "UInt8 → UInt8 → UInt8", "a b")
def u8_land(a: int, b: int) -> int:
    return ops.uint8_land(a, b)


@define("UInt8.lor", "UInt8 → UInt8 → UInt8", "a b")
def u8_lor(a: int, b: int) -> int:
    return ops.uint8_lor(a, b)


@define("UInt8.add", "UInt8 → UInt8 → UInt8", "a b")
def u8_add(a: int, b: int) -> int:
    return ops.uint8_add(a, b)


@define("UInt8.sub", "UInt8 → UInt8 → UInt8", "a b")
def u8_sub(a: int, b: int) -> int:
    return ops.uint8_sub(a, b)


@define("UInt8.mul", "UInt8 → UInt8 → UInt8", "a b")
def u8_mul(a: int, b: int) -> int:
    return ops.uint8_mul(a, b)


@define("UInt8.div", "UInt8 → UInt8 → UInt8", "a b")
def u8_div(a: int, b: int) -> int:
    return ops.uint8_div(a, b)


@define("UInt8.mod", "UInt8 → UInt8 → UInt8", "a b")
def u8_mod(a: int, b: int) -> int:
    return ops.uint8_mod(a, b)


@define("UInt8.shiftLeft", "UInt8 → UInt8 → UInt8", "a b")
def u8_shl(a: int, b: int) -> int:
    return (a << (b % 8)) % 256


@define("UInt8.shiftRight", "UInt8 → UInt8 → UInt8", "a b")
def u8_shr(a: int, b: int) -> int:
    return a >> (b % 8)


@define("UInt8.complement", "UInt8 → UInt8", "a")
def u8_complement(a: int) -> int:
    return 255 - a
