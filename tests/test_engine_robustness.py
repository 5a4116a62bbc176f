"""Robustness of the native engine against corrupted and hostile Lean source.

Corrupted variants of the tasks' own sections (token deletions, swaps and
duplications) must never escape as an uncaught exception and never exceed
the per-call time limit; non-terminating definitions must come back as
TIMEOUT within the configured limit.
"""

from __future__ import annotations

import random
import re
import time

import pytest

from shared_data import require
from veriscale.languages.lean.native import NativeEngine, NativeTaskEngine
from veriscale.runtime.engine import OutcomeKind
from veriscale.runtime.limits import Limits
from veriscale.values.types import INT, NAT, list_of

_TOKEN = re.compile(r"\s+|[A-Za-z_\u0370-\u03ff][\w.'!?]*|\d+|\S", re.UNICODE)


def _mutate(text: str, rng: random.Random) -> str:
    toks = _TOKEN.findall(text)
    idx = [i for i, t in enumerate(toks) if not t.isspace()]
    if not idx:
        return text
    for _ in range(rng.randint(1, 3)):
        i = rng.choice(idx)
        op = rng.randrange(3)
        if op == 0:
            toks[i] = ""
        elif op == 1:
            j = rng.choice(idx)
            toks[i], toks[j] = toks[j], toks[i]
        else:
            toks[i] = toks[i] + " " + toks[i]
    return "".join(toks)


def _tasks():
    root = require("verina")
    from veriscale.formats.verina.dataset import read_task

    return [read_task(d) for d in sorted(root.iterdir()) if (d / "task.json").exists()]


def test_fuzzed_sections_never_crash_or_hang() -> None:
    from veriscale.values.codec import DecodeError, decode

    tasks = _tasks()
    rng = random.Random(20261129)
    limit = 0.5
    engine = NativeEngine(limits=Limits(seconds=limit, fuel=2_000_000))
    variants = 0
    internal: list[str] = []
    slowest = 0.0
    while variants < 2000:
        task = rng.choice(tasks)
        part = rng.choice(["precond", "code", "postcond"])
        original = task.section_text(part)
        if not original.strip() or not task.tests:
            continue
        mutated = _mutate(original, rng)
        tc = task.tests[0]
        try:
            inputs = {p.name: decode(p.type, tc.input[p.name], structs=task.structs) for p in task.signature.params}
            expected = decode(task.signature.return_type, tc.expected, structs=task.structs)
        except DecodeError:
            continue
        te = engine.for_task(task, overrides={part: mutated})
        start = time.monotonic()
        results = [te.precondition(inputs), te.run(inputs), te.postcondition(inputs, expected)]
        slowest = max(slowest, time.monotonic() - start)
        for r in results:
            if "internal error" in r.reason:
                internal.append(f"{task.id}/{part}: {r.reason}\n{mutated}")
        variants += 1
    assert not internal, f"{len(internal)} internal errors; first:\n{internal[0]}"
    # three calls, each bounded by the limit, plus parsing and elaboration overhead
    assert slowest < 3 * limit + 2.0, f"slowest variant took {slowest:.2f} s"


def _looping_engine(code: str, seconds: float) -> NativeTaskEngine:
    return NativeTaskEngine(
        fn_name="spin",
        params=[("x", NAT)],
        ret=NAT,
        sections={"precond": "  True", "code": code, "postcond": "  result = x"},
        limits=Limits(seconds=seconds),
    )


@pytest.mark.parametrize(
    "code",
    [
        # unbounded recursion that grows the stack
        "  let rec go (n : Nat) : Nat := go (n + 1) + 1\n  go x",
        # tail recursion that never ends
        "  let rec go (n : Nat) : Nat := if n = 0 then go 1 else go (n + 1)\n  go x",
        # a loop over a huge range
        "  Id.run do\n    let mut s := 0\n    for i in [0:1000000000] do\n      s := s + i\n    return s",
        # quadratic work hidden inside library scans (each `count` walks 10^5 elements; `contains`
        # would be answered from an index after two scans)
        "  let xs := List.range 100000\n  if (List.range 100000).any (fun i => xs.count (i + 1000000) > 0) then 1 else 0",
    ],
)
def test_non_terminating_definitions_time_out(code: str) -> None:
    te = _looping_engine(code, seconds=1.0)
    start = time.monotonic()
    out = te.run({"x": 3})
    elapsed = time.monotonic() - start
    assert out.kind is OutcomeKind.TIMEOUT, out
    assert elapsed < 4.0, f"took {elapsed:.2f} s for a 1 s limit"


def test_huge_builtin_request_is_bounded() -> None:
    te = NativeTaskEngine(
        fn_name="big",
        params=[("xs", list_of(INT))],
        ret=NAT,
        sections={"precond": "  True", "code": "  (List.range (2 ^ 60)).length", "postcond": "  True"},
        limits=Limits(seconds=1.0),
    )
    start = time.monotonic()
    out = te.run({"xs": ()})
    assert out.kind is OutcomeKind.TIMEOUT, out
    assert time.monotonic() - start < 4.0


def test_doubling_a_list_with_append_stops_at_the_size_limit() -> None:
    # The all-subsequences idiom of several Verina postconditions on a 40-element list: 2^40 lists.
    # With fuel to spare, only the size limit on `++` keeps it from exhausting memory.
    code = (
        "  let subs := (List.range 40).foldl (fun acc x => acc ++ acc.map (fun s => x :: s)) [[]]\n"
        "  subs.length"
    )
    te = NativeTaskEngine(
        fn_name="spin",
        params=[("x", NAT)],
        ret=NAT,
        sections={"precond": "  True", "code": code, "postcond": "  result = x"},
        limits=Limits(fuel=10**12, seconds=120.0, max_size=1_000_000),
    )
    start = time.monotonic()
    out = te.run({"x": 3})
    assert out.kind is OutcomeKind.TIMEOUT and "exceeds the limit 1000000" in out.reason, out
    assert time.monotonic() - start < 30.0
