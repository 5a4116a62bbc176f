"""Robustness of the native engine against corrupted and hostile Lean source.

Corrupted variants of the tasks' own sections (token deletions, swaps and
duplications) must never escape as an uncaught exception and must always be
ended by a deterministic limit (fuel, depth, size), never by the wall-clock
backstop; non-terminating definitions must come back as TIMEOUT. Each limit is
asserted by the reason it gives, so the tests do not depend on machine load;
the wall time of these paths is printed by ``benchmarks/bench_limits.py``.
"""

from __future__ import annotations

import random
import re

import pytest

from shared_data import require
from veriscale.languages.lean.fuzz import mutate_tokens as _mutate
from veriscale.languages.lean.native import NativeEngine, NativeTaskEngine
from veriscale.runtime.engine import OutcomeKind
from veriscale.runtime.limits import Limits
from veriscale.values.types import INT, NAT, list_of

# A wall-clock limit far beyond any deterministic limit used here: it only stops a real hang, and a
# call it stops fails the test (its reason names seconds, not steps).
BACKSTOP = 600.0
_CLOCK_REASON = re.compile(r"exceeded [0-9.e+]+ s\b")
_FUEL_OR_DEPTH = re.compile(r"exceeded \d+ steps|recursion deeper than the limit")
DOUBLING_FUEL_CAP = 4 << 20  # measured: 1,049,609


def _tasks():
    root = require("verina")
    from veriscale.formats.verina.dataset import read_task

    return [read_task(d) for d in sorted(root.iterdir()) if (d / "task.json").exists()]


def test_fuzzed_sections_never_crash_or_hang() -> None:
    from veriscale.values.codec import DecodeError, decode

    tasks = _tasks()
    rng = random.Random(20261129)
    engine = NativeEngine(limits=Limits(seconds=BACKSTOP, fuel=2_000_000))
    variants = 0
    internal: list[str] = []
    by_clock: list[str] = []
    while variants < 2000:
        task = rng.choice(tasks)
        part = rng.choice(["precond", "code", "postcond"])
        original = task.section_text(part)
        if not original.strip() or not task.tests:
            continue
        mutated = _mutate(original, rng)
        tc = task.tests[0]
        try:
            inputs = {
                p.name: decode(p.type, tc.input[p.name], structs=task.structs) for p in task.signature.params
            }
            expected = decode(task.signature.return_type, tc.expected, structs=task.structs)
        except DecodeError:
            continue
        te = engine.for_task(task, overrides={part: mutated})
        results = [te.precondition(inputs), te.run(inputs), te.postcondition(inputs, expected)]
        for r in results:
            if "internal error" in r.reason:
                internal.append(f"{task.id}/{part}: {r.reason}\n{mutated}")
            if _CLOCK_REASON.search(r.reason):
                by_clock.append(f"{task.id}/{part}: {r.reason}\n{mutated}")
        variants += 1
    assert not internal, f"{len(internal)} internal errors; first:\n{internal[0]}"
    # every call ended within its fuel: none ran until the wall clock stopped it
    assert not by_clock, f"{len(by_clock)} calls stopped by the clock; first:\n{by_clock[0]}"


def _looping_engine(code: str, limits: Limits) -> NativeTaskEngine:
    return NativeTaskEngine(
        fn_name="spin",
        params=[("x", NAT)],
        ret=NAT,
        sections={"precond": "  True", "code": code, "postcond": "  result = x"},
        limits=limits,
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
    te = _looping_engine(code, Limits(fuel=1_000_000, seconds=BACKSTOP))
    out = te.run({"x": 3})
    assert out.kind is OutcomeKind.TIMEOUT, out
    # ended by the fuel or the depth limit (deterministic), within the fuel it was given
    assert _FUEL_OR_DEPTH.search(out.reason), out.reason
    assert te.fuel_spent <= 1_000_000


def test_the_clock_backstop_ends_a_loop_that_has_fuel_to_spare(monkeypatch: pytest.MonkeyPatch) -> None:
    """With fuel to spare, the ``seconds`` limit ends the loop: the clock is read every 4096 charges and
    the first read past the deadline stops it. A fake clock (one second per read) makes this exact."""
    import veriscale.runtime.limits as limits_mod

    reads = [0]

    class FakeClock:
        @staticmethod
        def monotonic() -> float:
            reads[0] += 1
            return float(reads[0])

    monkeypatch.setattr(limits_mod, "time", FakeClock)
    te = _looping_engine(
        "  let rec go (n : Nat) : Nat := if n = 0 then go 1 else go (n + 1)\n  go x",
        Limits(fuel=10**15, seconds=5.0),
    )
    out = te.run({"x": 3})
    assert out.kind is OutcomeKind.TIMEOUT and out.reason == "evaluation exceeded 5 s", out
    # the deadline (read 1 + 5 s) is first exceeded at read 7: six clock checks, 4096 charges apart
    assert reads[0] == 7
    assert 6 * 4096 <= te.fuel_spent < 7 * 4096 + 4096


def test_huge_builtin_request_is_bounded() -> None:
    te = NativeTaskEngine(
        fn_name="big",
        params=[("xs", list_of(INT))],
        ret=NAT,
        sections={"precond": "  True", "code": "  (List.range (2 ^ 60)).length", "postcond": "  True"},
        limits=Limits(seconds=BACKSTOP),
    )
    out = te.run({"xs": ()})
    # refused when asked for, before building anything: the size limit, next to no fuel
    assert out.kind is OutcomeKind.TIMEOUT and "exceeds the limit" in out.reason, out
    assert te.fuel_spent <= 10_000, te.fuel_spent


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
        limits=Limits(fuel=10**12, seconds=BACKSTOP, max_size=1_000_000),
    )
    out = te.run({"x": 3})
    assert out.kind is OutcomeKind.TIMEOUT and "exceeds the limit 1000000" in out.reason, out
    # the lists built before the refusal hold about 2^20 elements in all: work of that order, not 2^40
    assert te.fuel_spent <= DOUBLING_FUEL_CAP, te.fuel_spent


def test_a_postponed_term_that_never_elaborates_ends_with_a_reason() -> None:
    """Found by the corpus fuzz: a membership binder over a numeral is postponed, and each retry made
    a fresh numeral meta that the defaulting step then "fixed" — progress without end. A failed retry
    now discards its metas' defaults, as Lean restores the whole metavariable context."""
    te = NativeTaskEngine(
        fn_name="f",
        params=[("n", NAT)],
        ret=NAT,
        sections={"precond": "  ∀ d ∈ 0, d = n", "code": "  n", "postcond": "  True"},
        limits=Limits(fuel=100_000, seconds=BACKSTOP),
    )
    v = te.precondition({"n": 3})
    assert v.is_unknown and "collection in ∈ is not known" in v.reason, v
