"""Type-aware mutation: the paper's schemas and distributions, typed extensions, de-dup, determinism."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from shared_data import data_path, needs
from veriscale.formats.verina.dataset import read_task
from veriscale.pipeline.config import MutationSettings
from veriscale.pipeline.inputs.mutate import (
    APPEND_VALUES,
    DELTAS,
    SIGMA_CHAR,
    SIGMA_SP,
    Candidate,
    Mutator,
    input_key,
)
from veriscale.values import codec
from veriscale.values.runtime import HMap, HSet, LeanSource, Some
from veriscale.values.types import Type, parse_type

DATA = data_path("verina")
N = 40_000


def mutator(params: list[tuple[str, Type]] | None = None, seed: int = 7, **settings: Any) -> Mutator:
    s = MutationSettings(**{"ingredient_prob": 0.0, **settings})
    return Mutator(params or [("x", parse_type("Int"))], {}, random.Random(seed), s)


def empirical(draw: Callable[[], Any], n: int = N) -> dict[Any, float]:
    c = Counter(draw() for _ in range(n))
    return {k: v / n for k, v in c.items()}


def tv_distance(p: dict[Any, float], q: dict[Any, float]) -> float:
    return 0.5 * sum(abs(p.get(k, 0.0) - q.get(k, 0.0)) for k in set(p) | set(q))


def mix(*parts: tuple[float, dict[Any, float]]) -> dict[Any, float]:
    out: Counter[Any] = Counter()
    for w, dist in parts:
        for k, v in dist.items():
            out[k] += w * v
    return dict(out)


def uniform(values: list[Any]) -> dict[Any, float]:
    out: Counter[Any] = Counter()
    for v in values:
        out[v] += 1 / len(values)
    return dict(out)


# ---- the paper's distributions, written out from Appendix A (independently of the implementation)


def paper_int(x: int, clip: bool = False) -> dict[int, float]:
    f = (lambda z: max(0, z)) if clip else (lambda z: z)
    add = [f(x + d) for d in (-2, -1, 0, 1, 2)]
    mul = [f(d * x) for d in (-2, -1, 0, 1, 2)]
    return mix((0.5, uniform(add)), (0.5, uniform(mul)))


def paper_int_seq(x: tuple[int, ...], clip: bool = False) -> dict[tuple[int, ...], float]:
    n = len(x)
    f = (lambda z: max(0, z)) if clip else (lambda z: z)
    modify = (
        mix(
            *[
                (1 / n, {(*x[:j], v, *x[j + 1 :]): p for v, p in paper_int(x[j], clip).items()})
                for j in range(n)
            ]
        )
        if n
        else {x: 1.0}
    )
    append = uniform([(*x, f(v)) for v in range(-5, 6)])
    delete = uniform([(*x[:j], *x[j + 1 :]) for j in range(n)]) if n else {x: 1.0}
    rev = {x[::-1]: 1.0}
    return mix((0.25, modify), (0.25, append), (0.25, delete), (0.25, rev))


def test_parameter_spaces_are_the_papers() -> None:
    assert DELTAS == (-2, -1, 0, 1, 2)
    assert APPEND_VALUES == tuple(range(-5, 6))
    assert len(SIGMA_CHAR) == 95 and all(len(c) == 1 and c.isprintable() for c in SIGMA_CHAR)
    assert len(set(SIGMA_SP)) == len(SIGMA_SP) and all(len(c) == 1 for c in SIGMA_SP)
    d = MutationSettings()
    assert (d.max_mutants_per_seed, d.max_steps, d.ingredient_prob) == (15, 5, 0.3)


@pytest.mark.parametrize("x", [7, -3, 0])
def test_int_schema_distribution(x: int) -> None:
    m = mutator()
    got = empirical(lambda: m.schema(parse_type("Int"), x))
    assert tv_distance(got, paper_int(x)) < 0.015


@pytest.mark.parametrize("x", [3, 0, 1])
def test_nat_schema_distribution(x: int) -> None:
    m = mutator([("n", parse_type("Nat"))])
    got = empirical(lambda: m.schema(parse_type("Nat"), x))
    assert tv_distance(got, paper_int(x, clip=True)) < 0.015
    assert min(got) >= 0


@pytest.mark.parametrize(
    ("ty", "x", "clip"),
    [
        ("List Int", (4, -1, 2), False),
        ("Array Int", (5,), False),
        ("List Nat", (1, 0, 3), True),
        ("Array Nat", (), True),
        ("List Int", (), False),
    ],
)
def test_int_sequence_schema_distribution(ty: str, x: tuple[int, ...], clip: bool) -> None:
    t = parse_type(ty)
    m = mutator([("xs", t)])
    got = empirical(lambda: m.schema(t, x))
    assert tv_distance(got, paper_int_seq(x, clip)) < 0.02


def test_list_char_schemas() -> None:
    t = parse_type("List Char")
    x = ("a", "b", "c")
    m = mutator([("cs", t)])
    draws = [m.schema(t, x) for _ in range(N)]
    kinds = Counter()
    appended: Counter[str] = Counter()
    for d in draws:
        if len(d) == 4:
            kinds["append"] += 1
            appended[d[3]] += 1
        elif len(d) == 2:
            kinds["delete"] += 1
        elif d == ("c", "b", "a"):
            kinds["reverse"] += 1
        else:
            kinds["modify"] += 1  # includes replacing a char by itself
    for k in ("append", "delete", "reverse"):
        assert abs(kinds[k] / N - 0.25) < 0.015, kinds
    # appended characters are uniform over Σ_char: every one shows up, none too often
    assert set(appended) == set(SIGMA_CHAR)
    assert max(appended.values()) / sum(appended.values()) < 3 / len(SIGMA_CHAR)
    assert all(len(c) == 1 for d in draws for c in d)
    # on the empty list the index schemas are the identity: () with probability 3/4, else [c]
    empty = empirical(lambda: m.schema(t, ()), n=8000)
    assert abs(empty[()] - 0.75) < 0.02 and all(
        k == () or (len(k) == 1 and k[0] in SIGMA_CHAR) for k in empty
    )


def test_string_schema_distribution() -> None:
    t = parse_type("String")
    m = mutator([("s", t)])
    x = "abc"
    want = mix((1 / 3, {"": 1.0}), (1 / 3, {"cba": 1.0}), (1 / 3, uniform([x + c for c in SIGMA_SP])))
    got = empirical(lambda: m.schema(t, x))
    assert tv_distance(got, want) < 0.03


def test_ingredient_reuse_probability() -> None:
    t = parse_type("Int")
    m = Mutator([("x", t)], {}, random.Random(3), MutationSettings(ingredient_prob=0.3))
    m.harvest({"x": 10**6})  # the only ingredient; schemas from 0 can never produce it
    got = empirical(lambda: m.mutate_param(t, 0), n=20_000)
    assert abs(got.get(10**6, 0.0) - 0.3) < 0.015
    # with an empty pool every step falls back to the schemas
    empty = Mutator([("x", t)], {}, random.Random(3), MutationSettings(ingredient_prob=1.0))
    assert all(empty.mutate_param(t, 0) in (-2, -1, 0, 1, 2) for _ in range(200))


def test_pools_cross_feed_integers_and_sequences() -> None:
    params = [("n", parse_type("Nat")), ("xs", parse_type("Array Int")), ("s", parse_type("String"))]
    m = Mutator(params, {}, random.Random(0), MutationSettings())
    m.harvest({"n": 3, "xs": (-4, 9), "s": "hi there"})
    nat_pool = list(m.pools["Nat"].values())
    assert nat_pool == [3, 9]  # negative ints never reach the Nat pool
    assert list(m.pools["String"].values()) == ["hi there", "hi", "there"]
    assert list(m.pools["Array Int"].values()) == [(-4, 9)]


def test_steps_are_uniform_one_to_five() -> None:
    m = mutator([("x", parse_type("Int")), ("f", parse_type("Int → Bool"))])
    steps = Counter(m.mutate_once({"x": 1, "f": LeanSource("fun x => x > 0")})[1] for _ in range(20_000))
    assert sorted(steps) == [1, 2, 3, 4, 5]
    assert all(abs(n / 20_000 - 0.2) < 0.015 for n in steps.values())


EXTENSION_TYPES = {
    "Char": "x",
    "UInt8": 250,
    "Bool": True,
    "Float": 1.5,
    "Array Char": ("a", "Z"),
    "List Float": (1.0, -2.5),
    "List (List Nat)": ((1, 3), (4, 2)),
    "Array (Array Int)": ((1, -2), ()),
    "List (Nat × Nat)": ((1, 3), (2, 5)),
    "Option Int": Some(3),
    "Option (List Char)": None,
    "Int × String × Bool": (1, ("ab", False)),
    "Std.HashMap Int String": HMap([(1, "a"), (2, "b")]),
    "Std.HashSet Nat": HSet([1, 2]),
    "List String": ("ab", ""),
}


@pytest.mark.parametrize("ty", sorted(EXTENSION_TYPES))
def test_every_mutant_decodes_for_its_type(ty: str) -> None:
    t = parse_type(ty)
    m = Mutator([("v", t)], {}, random.Random(11), MutationSettings())
    v = EXTENSION_TYPES[ty]
    m.harvest({"v": v})
    changed = 0
    for _ in range(600):
        w = m.mutate_param(t, v)
        back = codec.decode(t, codec.to_json(t, w))
        assert codec.key(t, back) == codec.key(t, w)
        changed += codec.key(t, w) != codec.key(t, v)
        v = w
        if ty == "UInt8":
            assert 0 <= w <= 255
        if ty == "Char":
            assert isinstance(w, str) and len(w) == 1
    assert changed > 100  # the extension really mutates


def test_uint8_stays_in_range_and_char_is_one_character() -> None:
    params = [("b", parse_type("UInt8")), ("c", parse_type("Char"))]
    m = Mutator(params, {}, random.Random(5), MutationSettings())
    seed = {"b": 255, "c": "ß"}
    cand = Candidate(seed, input_key(params, seed, {}), "original", index=0)
    m.harvest(seed)
    seen = {cand.key}
    muts = list(m.mutants(cand, seen))
    assert len(muts) == 15
    for mu in muts:
        assert 0 <= mu.values["b"] <= 255
        assert len(mu.values["c"]) == 1
    bytes_seen = {m.schema(parse_type("UInt8"), x) for x in (0, 1, 254, 255) for _ in range(300)}
    assert bytes_seen <= set(range(256)) and {0, 255} <= bytes_seen


def test_function_parameters_are_never_changed() -> None:
    params = [("a", parse_type("Array Int")), ("P", parse_type("Int → Bool"))]
    m = Mutator(params, {}, random.Random(1), MutationSettings())
    seed = {"a": (4, 7, 2), "P": LeanSource("fun x => x > 5")}
    cand = Candidate(seed, input_key(params, seed, {}), "original", index=0)
    muts = list(m.mutants(cand, {cand.key}))
    assert len(muts) == 15
    assert all(mu.values["P"] == LeanSource("fun x => x > 5") for mu in muts)
    only_fn = Mutator([("P", parse_type("Int → Bool"))], {}, random.Random(1), MutationSettings())
    assert list(only_fn.mutants(cand, set())) == []


def test_mutants_are_distinct_from_seeds_and_each_other() -> None:
    params = [("b", parse_type("Bool"))]
    m = Mutator(params, {}, random.Random(1), MutationSettings())
    seeds = [
        Candidate({"b": v}, input_key(params, {"b": v}, {}), "original", index=i)
        for i, v in enumerate((True,))
    ]
    seen = {s.key for s in seeds}
    muts = [mu for s in seeds for mu in m.mutants(s, seen)]
    assert [mu.values for mu in muts] == [{"b": False}]  # the only other value, once
    params2 = [("n", parse_type("Nat"))]
    m2 = Mutator(params2, {}, random.Random(2), MutationSettings())
    seeds2 = [
        Candidate({"n": v}, input_key(params2, {"n": v}, {}), "original", index=i)
        for i, v in enumerate((0, 1, 2))
    ]
    seen2 = {s.key for s in seeds2}
    for s in seeds2:
        m2.harvest(s.values)
    keys = [mu.key for s in seeds2 for mu in m2.mutants(s, seen2)]
    assert len(keys) == len(set(keys)) and not set(keys) & {s.key for s in seeds2}
    assert all(k in seen2 for k in keys)


def test_size_caps_reject_overgrown_mutants() -> None:
    params = [("n", parse_type("Int"))]
    m = Mutator(params, {}, random.Random(4), MutationSettings(max_int_magnitude=10))
    seed = {"n": 6}
    cand = Candidate(seed, input_key(params, seed, {}), "original", index=0)
    muts = list(m.mutants(cand, {cand.key}))
    assert muts and all(abs(mu.values["n"]) <= 10 for mu in muts)
    # a seed that is itself larger raises the cap to its own size
    big = {"n": 1000}
    cand2 = Candidate(big, input_key(params, big, {}), "original", index=0)
    assert all(abs(mu.values["n"]) <= 1000 for mu in m.mutants(cand2, {cand2.key}))


def test_same_seed_same_mutants() -> None:
    params = [("s", parse_type("String")), ("xs", parse_type("List Int"))]
    seed = {"s": "héllo wörld", "xs": (3, 1, 2)}
    runs = []
    for rs in (99, 99, 100):
        m = Mutator(params, {}, random.Random(rs), MutationSettings())
        cand = Candidate(seed, input_key(params, seed, {}), "original", index=0)
        m.harvest(seed)
        runs.append([mu.key for mu in m.mutants(cand, {cand.key})])
    assert runs[0] == runs[1] and runs[0] != runs[2]


@needs("verina")
def test_structure_values_mutate_and_decode() -> None:
    task = read_task(DATA / "verina_basic_104")  # Map Int Int, a user structure
    params = [(p.name, p.type) for p in task.signature.params]
    m = Mutator(params, task.structs, random.Random(8), MutationSettings())
    seed = task.tests[0].decode_input(task, 0)
    cand = Candidate(seed, input_key(params, seed, task.structs), "original", index=0)
    m.harvest(seed)
    muts = list(m.mutants(cand, {cand.key}))
    assert len(muts) == 15
    for mu in muts:
        for name, t in params:
            js = codec.to_json(t, mu.values[name], structs=task.structs)
            assert codec.decode(t, js, structs=task.structs) == mu.values[name]
