"""Type-aware mutation of candidate inputs (VeriScale paper, §3.1 and Appendix A).

A mutant of a seed applies 1..``max_steps`` steps (uniform); each step picks one
mutable parameter uniformly and replaces its value ``x`` of type τ by

* with probability ``ingredient_prob`` (when the pool of τ is not empty): a value
  drawn uniformly from the ingredient pool of τ — values of type τ found in the
  task's candidates so far (seeds, and every accepted mutant);
* otherwise ``M_τ(x)``: a schema drawn uniformly from τ's schema set, its
  parameters drawn uniformly from the schema's parameter space.

Schemas of the paper, exactly (δ ∈ {-2,…,2}, j a uniform index, clip = max(0, ·)):

======================  ===========================================================
Int                     x+δ, δ·x
Nat                     clip(x+δ), clip(δ·x)
List/Array Int          replace(x, j, s_Int,i(x_j; δ)) with i ∈ {1,2}; x ++ [v], v ∈ {-5..5};
                        del(x, j); rev(x)          (index schemas are the identity on [])
List/Array Nat          the same with every new element clipped
List Char               replace(x, j, c), c ∈ Σ_char; x ++ [c]; del(x, j); rev(x)
String                  ε; rev(x); x ++ c, c ∈ Σ_sp
======================  ===========================================================

The paper leaves Σ_char and Σ_sp abstract; here Σ_char is printable ASCII
(U+0020..U+007E) and Σ_sp the special characters in ``SIGMA_SP``.

Typed extensions for the other types of the benchmarks, built on the same
pattern (uniform schema, uniform parameters, type-preserving by construction):

* Char: replace by c ∈ Σ_char; swap case (identity when that is not one char);
  shift the code point by δ (identity when that leaves the Unicode scalar values).
* Bool: ¬x.  UInt8: the Int schemas in UInt8 arithmetic (mod 256, so always in range).
* Float: x+δ, δ·x, x+δ/4.
* Any other List/Array (Array Char, List Float, nested sequences, lists of tuples):
  the four sequence schemas, where "modify" applies the element type's own
  schemas and "append" adds a small fresh element (``fresh``).
* Option: none ↦ some fresh; some v ↦ none or some M(v).  Tuples: mutate one
  component (uniform).  Structures: mutate one field (uniform over mutable fields).
* Std.HashMap: insert a fresh entry, erase a key, or mutate one value.
  Std.HashSet: insert a fresh element or erase one.
* Function-typed parameters (and Unit) are never mutated and never chosen.

De-duplication uses the codec's canonical key (``values.codec.key``): a mutant
is kept only if its input differs from every seed and every earlier mutant.
All randomness comes from one ``random.Random`` the caller seeds from a stable
hash, and pools are insertion-ordered, so a run does not depend on
``PYTHONHASHSEED``.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...values import codec
from ...values.runtime import HMap, HSet, LeanSource, Some, Struct
from ...values.structs import StructInfo
from ...values.types import TCon, Type, render_type
from ..config import MutationSettings

__all__ = [
    "APPEND_VALUES",
    "DELTAS",
    "SIGMA_CHAR",
    "SIGMA_SP",
    "Candidate",
    "Mutator",
    "candidate_id",
    "input_key",
    "is_mutable",
]

DELTAS: tuple[int, ...] = (-2, -1, 0, 1, 2)
APPEND_VALUES: tuple[int, ...] = tuple(range(-5, 6))
SIGMA_CHAR: tuple[str, ...] = tuple(chr(c) for c in range(0x20, 0x7F))
SIGMA_SP: tuple[str, ...] = (
    " ", "\t", "\n", "!", '"', "#", "$", "%", "&", "'", "(", ")", "*", "+", ",", "-", ".", "/",
    ":", ";", "<", "=", ">", "?", "@", "[", "\\", "]", "^", "_", "`", "{", "|", "}", "~",
    "é", "ß", "中", "😀",
)  # fmt: skip

_MAX_SCALAR = 0x10FFFF
_SEQ = ("List", "Array")

Values = dict[str, Any]


# ---------------------------------------------------------------- candidates and keys


def input_key(params: Sequence[tuple[str, Type]], values: Values, structs: dict[str, StructInfo]) -> str:
    """The canonical de-duplication key of a whole input: every parameter's ``codec.key``, in order."""
    return json.dumps(
        [[name, codec.key(t, values[name], structs=structs)] for name, t in params], ensure_ascii=False
    )


def candidate_id(key: str) -> str:
    """A short stable identifier of an input key (for provenance links in output files)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A decoded input with where it came from.

    ``origin`` is "original" (a test input), "reject" (a reject input), "llm-seed"
    or "mutation"; ``index`` is the row/item index for seeds; ``parent`` the key of
    the seed a mutant was made from, ``steps`` its number of mutation steps.
    """

    values: Values
    key: str
    origin: str
    index: int | None = None
    parent: str | None = None
    steps: int = 0
    round: int | None = None

    @property
    def id(self) -> str:
        return candidate_id(self.key)

    def provenance(self) -> dict[str, Any]:
        out: dict[str, Any] = {"origin": self.origin}
        if self.index is not None:
            out["index"] = self.index
        if self.round is not None:
            out["round"] = self.round
        if self.parent is not None:
            out["parent"] = candidate_id(self.parent)
            out["steps"] = self.steps
        return out


# ---------------------------------------------------------------- type helpers


def is_mutable(t: Type, structs: dict[str, StructInfo]) -> bool:
    """Whether a value of ``t`` can change under mutation (functions and Unit cannot)."""
    if not isinstance(t, TCon):
        return False
    if t.name == "Unit":
        return False
    if t.name in structs:
        return any(is_mutable(ft, structs) for _, ft in structs[t.name].field_types(t.args))
    if t.name == "Prod":
        return any(is_mutable(a, structs) for a in t.args)
    return True


def _tkey(t: Type) -> str:
    return render_type(t)


def _clip(z: int) -> int:
    return z if z > 0 else 0


def _is_scalar_value(cp: int) -> bool:
    return 0 <= cp <= _MAX_SCALAR and not 0xD800 <= cp <= 0xDFFF


# ---------------------------------------------------------------- the mutator


@dataclass
class Mutator:
    """Mutates the inputs of one task. Feed it the seeds with ``harvest`` before ``mutants``."""

    params: list[tuple[str, Type]]
    structs: dict[str, StructInfo]
    rng: random.Random
    settings: MutationSettings = field(default_factory=MutationSettings)
    pools: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.mutable = [(n, t) for n, t in self.params if is_mutable(t, self.structs)]
        # Ingredient pools are kept for parameter types only: reuse happens at parameter level.
        for _, t in self.mutable:
            self.pools.setdefault(_tkey(t), {})

    # ---- ingredient pools

    def harvest(self, values: Values) -> None:
        """Add every value (and sub-value) of a candidate to the pools of the parameter types."""
        for name, t in self.params:
            self._harvest(t, values[name])

    def _add(self, t: Type, v: Any) -> None:
        pool = self.pools.get(_tkey(t))
        if pool is not None:
            k = codec.key(t, v, structs=self.structs)
            if k not in pool:
                pool[k] = v

    def _harvest(self, t: Type, v: Any) -> None:
        if not isinstance(t, TCon) or isinstance(v, LeanSource):
            return
        self._add(t, v)
        name = t.name
        if name in ("Int", "Nat", "UInt8"):
            # Integers feed every integer pool whose range holds them.
            if v >= 0:
                self._add(TCon("Nat"), v)
            self._add(TCon("Int"), v)
            if 0 <= v <= 255:
                self._add(TCon("UInt8"), v)
        elif name in _SEQ:
            self._add(TCon("Array" if name == "List" else "List", t.args), v)
            for x in v:
                self._harvest(t.args[0], x)
        elif name == "String":
            for c in v:
                self._add(TCon("Char"), c)
            for tok in v.split():
                self._add(t, tok)
        elif name == "Prod":
            self._harvest(t.args[0], v[0])
            self._harvest(t.args[1], v[1])
        elif name == "Option":
            if v is not None:
                self._harvest(t.args[0], v.val)
        elif name == "Std.HashMap":
            for k, x in v.items():
                self._harvest(t.args[0], k)
                self._harvest(t.args[1], x)
        elif name == "Std.HashSet":
            for x in v:
                self._harvest(t.args[0], x)
        elif name in self.structs:
            for fname, ft in self.structs[name].field_types(t.args):
                self._harvest(ft, v.field(fname))

    # ---- one step at parameter level

    def mutate_param(self, t: Type, v: Any) -> Any:
        """One mutation step of a parameter value: ingredient reuse, else the type's schemas."""
        if self.rng.random() < self.settings.ingredient_prob:
            pool = self.pools.get(_tkey(t))
            if pool:
                vals = list(pool.values())
                return vals[self.rng.randrange(len(vals))]
        return self.schema(t, v)

    # ---- M_τ: uniform schema, uniform parameters

    def schema(self, t: Type, v: Any) -> Any:
        if not isinstance(t, TCon) or isinstance(v, LeanSource):
            return v  # functions (and type variables) stay as they are
        name = t.name
        rng = self.rng
        if name == "Int":
            return self.int_schema(v)
        if name == "Nat":
            return _clip(self.int_schema(v))
        if name == "UInt8":
            return self.int_schema(v) % 256
        if name == "Bool":
            return not v
        if name == "Float":
            return self.float_schema(v)
        if name == "Char":
            return self.char_schema(v)
        if name == "String":
            return self.string_schema(v)
        if name in _SEQ:
            return self.seq_schema(t.args[0], v)
        if name == "Option":
            if v is None:
                return Some(self.fresh(t.args[0]))
            return None if rng.randrange(2) == 0 else Some(self.schema(t.args[0], v.val))
        if name == "Prod":
            comps = [i for i in (0, 1) if is_mutable(t.args[i], self.structs)]
            if not comps:
                return v
            i = comps[rng.randrange(len(comps))]
            return (self.schema(t.args[0], v[0]), v[1]) if i == 0 else (v[0], self.schema(t.args[1], v[1]))
        if name == "Std.HashMap":
            return self.hashmap_schema(t, v)
        if name == "Std.HashSet":
            return self.hashset_schema(t, v)
        if name in self.structs:
            ftypes = [
                (f, ft) for f, ft in self.structs[name].field_types(t.args) if is_mutable(ft, self.structs)
            ]
            if not ftypes:
                return v
            fname, ft = ftypes[rng.randrange(len(ftypes))]
            return Struct(v.name, tuple((f, self.schema(ft, x) if f == fname else x) for f, x in v.fields))
        return v  # Unit and anything unknown

    def int_schema(self, x: int) -> int:
        """s_Int,1(x; δ) = x + δ or s_Int,2(x; δ) = δ·x, schema and δ uniform."""
        i = self.rng.randrange(2)
        d = DELTAS[self.rng.randrange(len(DELTAS))]
        return x + d if i == 0 else d * x

    def float_schema(self, x: float) -> float:
        i = self.rng.randrange(3)
        d = DELTAS[self.rng.randrange(len(DELTAS))]
        if i == 0:
            return x + d
        if i == 1:
            return d * x
        return x + d / 4

    def char_schema(self, c: str) -> str:
        i = self.rng.randrange(3)
        if i == 0:
            return SIGMA_CHAR[self.rng.randrange(len(SIGMA_CHAR))]
        if i == 1:
            s = c.swapcase()
            return s if len(s) == 1 else c
        d = DELTAS[self.rng.randrange(len(DELTAS))]
        cp = ord(c) + d
        return chr(cp) if _is_scalar_value(cp) else c

    def string_schema(self, s: str) -> str:
        """s_String: ε, rev(x), or x ++ c with c ∈ Σ_sp; uniform."""
        i = self.rng.randrange(3)
        if i == 0:
            return ""
        if i == 1:
            return s[::-1]
        return s + SIGMA_SP[self.rng.randrange(len(SIGMA_SP))]

    def seq_schema(self, elem: Type, x: tuple[Any, ...]) -> tuple[Any, ...]:
        """Modify one element, append, delete one element, or reverse; uniform."""
        rng = self.rng
        i = rng.randrange(4)
        n = len(x)
        if i == 0:
            if n == 0:
                return x
            j = rng.randrange(n)
            return (*x[:j], self.elem_schema(elem, x[j]), *x[j + 1 :])
        if i == 1:
            v = self.fresh_elem(elem)
            return x if v is _NO_VALUE else (*x, v)
        if i == 2:
            if n == 0:
                return x
            j = rng.randrange(n)
            return (*x[:j], *x[j + 1 :])
        return x[::-1]

    def elem_schema(self, elem: Type, v: Any) -> Any:
        """The "modify" step of a sequence: Char elements are replaced by c ∈ Σ_char (paper, List Char)."""
        if isinstance(elem, TCon) and elem.name == "Char":
            return SIGMA_CHAR[self.rng.randrange(len(SIGMA_CHAR))]
        return self.schema(elem, v)

    def fresh_elem(self, elem: Type) -> Any:
        """The "append" parameter: v ∈ {-5..5} for Int, clip(v) for Nat, c ∈ Σ_char for Char."""
        return self.fresh(elem)

    def hashmap_schema(self, t: TCon, m: HMap) -> HMap:
        i = self.rng.randrange(3)
        keys = m.keys()
        if i == 0:
            k, v = self.fresh(t.args[0]), self.fresh(t.args[1])
            return m if k is _NO_VALUE or v is _NO_VALUE else m.insert(k, v)
        if not keys:
            return m
        k = keys[self.rng.randrange(len(keys))]
        if i == 1:
            return m.erase(k)
        return m.insert(k, self.schema(t.args[1], m.get(k)))

    def hashset_schema(self, t: TCon, s: HSet) -> HSet:
        if self.rng.randrange(2) == 0:
            v = self.fresh(t.args[0])
            return s if v is _NO_VALUE else s.insert(v)
        items = list(s)
        if not items:
            return s
        return s.erase(items[self.rng.randrange(len(items))])

    # ---- small fresh values (the "append" parameter for every element type)

    def fresh(self, t: Type) -> Any:
        rng = self.rng
        if not isinstance(t, TCon):
            return _NO_VALUE
        name = t.name
        if name == "Int":
            return APPEND_VALUES[rng.randrange(len(APPEND_VALUES))]
        if name in ("Nat", "UInt8"):
            return _clip(APPEND_VALUES[rng.randrange(len(APPEND_VALUES))])
        if name == "Float":
            return float(APPEND_VALUES[rng.randrange(len(APPEND_VALUES))])
        if name == "Bool":
            return rng.randrange(2) == 1
        if name == "Char":
            return SIGMA_CHAR[rng.randrange(len(SIGMA_CHAR))]
        if name == "String":
            return "".join(SIGMA_CHAR[rng.randrange(len(SIGMA_CHAR))] for _ in range(rng.randrange(4)))
        if name == "Unit":
            return ()
        if name in _SEQ:
            items = [self.fresh(t.args[0]) for _ in range(rng.randrange(4))]
            return _NO_VALUE if any(x is _NO_VALUE for x in items) else tuple(items)
        if name == "Option":
            if rng.randrange(2) == 0:
                return None
            v = self.fresh(t.args[0])
            return _NO_VALUE if v is _NO_VALUE else Some(v)
        if name == "Prod":
            a, b = self.fresh(t.args[0]), self.fresh(t.args[1])
            return _NO_VALUE if a is _NO_VALUE or b is _NO_VALUE else (a, b)
        if name == "Std.HashMap":
            if rng.randrange(2) == 0:
                return HMap()
            k, v = self.fresh(t.args[0]), self.fresh(t.args[1])
            return _NO_VALUE if k is _NO_VALUE or v is _NO_VALUE else HMap([(k, v)])
        if name == "Std.HashSet":
            if rng.randrange(2) == 0:
                return HSet()
            v = self.fresh(t.args[0])
            return _NO_VALUE if v is _NO_VALUE else HSet([v])
        if name in self.structs:
            fields = [(f, self.fresh(ft)) for f, ft in self.structs[name].field_types(t.args)]
            return _NO_VALUE if any(x is _NO_VALUE for _, x in fields) else Struct(name, tuple(fields))
        return _NO_VALUE

    # ---- mutants of one seed

    def mutate_once(self, values: Values) -> tuple[Values, int]:
        """A mutant of ``values``: 1..max_steps steps, each on one uniformly chosen mutable parameter."""
        new = dict(values)
        steps = self.rng.randint(1, self.settings.max_steps)
        for _ in range(steps):
            name, t = self.mutable[self.rng.randrange(len(self.mutable))]
            new[name] = self.mutate_param(t, new[name])
        return new, steps

    def mutants(self, seed: Candidate, seen: set[str]) -> Iterator[Candidate]:
        """Up to ``max_mutants_per_seed`` mutants of ``seed`` whose keys are not in ``seen``.

        At most ``max_attempts_per_seed`` mutants are drawn. Accepted mutants are
        added to ``seen`` and to the ingredient pools as they are produced.
        """
        s = self.settings
        if not self.mutable or s.max_mutants_per_seed <= 0:
            return
        caps = _Caps.for_seed(self.params, seed.values, s)
        made = attempts = 0
        while made < s.max_mutants_per_seed and attempts < s.max_attempts_per_seed:
            attempts += 1
            values, steps = self.mutate_once(seed.values)
            if not all(caps.ok(values[n]) for n, _t in self.mutable):
                continue
            k = input_key(self.params, values, self.structs)
            if k in seen:
                continue
            seen.add(k)
            self.harvest(values)
            made += 1
            yield Candidate(values, k, "mutation", parent=seed.key, steps=steps)


class _NoValue:
    """Marker: no fresh value exists for a type (e.g. a function type)."""

    def __repr__(self) -> str:
        return "<no value>"


_NO_VALUE: Any = _NoValue()


@dataclass(frozen=True, slots=True)
class _Caps:
    """Size bounds for mutants: the configured caps, raised to what the seed itself holds."""

    magnitude: float
    length: int

    @classmethod
    def for_seed(cls, params: Sequence[tuple[str, Type]], values: Values, s: MutationSettings) -> _Caps:
        mag, length = 0.0, 0
        for name, _t in params:
            m, n = _extent(values[name])
            mag, length = max(mag, m), max(length, n)
        return cls(max(float(s.max_int_magnitude), mag), max(s.max_length, length))

    def ok(self, v: Any) -> bool:
        m, n = _extent(v)
        return m <= self.magnitude and n <= self.length


def _extent(v: Any) -> tuple[float, int]:
    """(largest number magnitude, longest sequence/string/collection) inside a value; inf/NaN are infinite."""
    if isinstance(v, bool):
        return 0.0, 0
    if isinstance(v, int):
        return float(abs(v)) if abs(v) < 2**1000 else math.inf, 0
    if isinstance(v, float):
        return (abs(v) if math.isfinite(v) else math.inf), 0
    if isinstance(v, str):
        return 0.0, len(v)
    if isinstance(v, tuple):
        mag, length = 0.0, len(v)
        for x in v:
            m, n = _extent(x)
            mag, length = max(mag, m), max(length, n)
        return mag, length
    if isinstance(v, Some):
        return _extent(v.val)
    if isinstance(v, HMap):
        return _extent(v.items())
    if isinstance(v, HSet):
        return _extent(tuple(v))
    if isinstance(v, Struct):
        return _extent(tuple(x for _, x in v.fields))
    return 0.0, 0
