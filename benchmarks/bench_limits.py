"""Wall time of the limit paths whose correctness the unit tests assert by fuel, steps and reasons.

Prints figures; asserts nothing (the unit tests must not depend on machine load). Each line
names the test that checks the same path deterministically.

Usage:
    PYTHONPATH=src python benchmarks/bench_limits.py [--verina DIR] [--fuzz N] [--skip-rust]

Figures:
  * size refusals of huge builtin requests (``List.range 2^53`` ...): total wall time;
  * ``List.Pairwise`` with ``(· ≤ ·)`` / ``(· ≠ ·)`` over the 2^16 sublists of a 16-element list;
  * parsing every Verina section; parsing 1,603 garbage samples (both parsers each);
  * the native engine: non-terminating definitions under a 1 s limit (how late the clock
    backstop fires), a huge builtin request, the doubling-list idiom, the slowest of N fuzzed
    section variants, and the inverted ``∃ i, i * i = n`` quantifier;
  * a Lean-toolchain process timeout (1 s) that must kill a sleeping grandchild;
  * the rustc harness: a 512 MiB stack overflow and a looping case under a 1 s case limit.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from veriscale.languages.lean.builtins import load_all, lookup, ops
from veriscale.languages.lean.builtins.optional import invoke
from veriscale.languages.lean.errors import LeanParseError, LimitExceeded
from veriscale.languages.lean.fuzz import mutate_tokens as _mutate
from veriscale.languages.lean.lexer import tokenize
from veriscale.languages.lean.native import NativeEngine, NativeTaskEngine
from veriscale.languages.lean.parser import parse_expr, parse_module
from veriscale.runtime import limits
from veriscale.runtime.limits import Limits
from veriscale.values.runtime import Fn
from veriscale.values.types import INT, NAT, list_of

REPO = Path(__file__).resolve().parent.parent
EXPR_SECTIONS = ("precond", "postcond", "code")
MODULE_SECTIONS = ("precond_aux", "postcond_aux", "code_aux", "solution_aux", "task_aux")
_SECTION = re.compile(r"-- !benchmark @start (\S+)[^\n]*\n(.*?)-- !benchmark @end \1", re.S)


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _run(name: str, *args: Any) -> Any:
    return invoke(lookup(name), args)


def bench_builtins() -> None:
    load_all()
    thunks = [
        lambda: ops.nat_pow(2, 10**12),
        lambda: ops.nat_shiftl(1, 10**12),
        lambda: _run("List.range", 2**53),
        lambda: _run("List.replicate", 2**40, 0),
        lambda: _run("Array.mkArray", 10**9, 0),
        lambda: _run("List.sublists", tuple(range(40))),
        lambda: _run("String.pushn", "", "a", 10**10),
    ]

    def refuse_all() -> int:
        refused = 0
        with limits.using(limits.Budget()):
            for thunk in thunks:
                try:
                    thunk()
                except LimitExceeded:
                    refused += 1
        return refused

    dt, refused = _timed(refuse_all)
    print(
        f"size refusals: {refused}/{len(thunks)} refused in {dt * 1000:.1f} ms  [test_builtins huge_results]"
    )
    subs = _run("List.sublists", tuple(range(16, 0, -1)))
    for label, rel in (("≤", Fn(2, ops.rel_le)), ("≠", Fn(2, ops.rel_ne))):
        dt, n = _timed(lambda rel=rel: sum(1 for s in subs if _run("List.Pairwise", rel, s)))
        print(
            f"List.Pairwise ({label}) over {len(subs)} sublists: {dt:.2f} s, {n} hold  [test_builtins pairwise]"
        )


def _sections(text: str) -> dict[str, str]:
    return {m.group(1): m.group(2) for m in _SECTION.finditer(text)}


def bench_parser(verina: Path) -> None:
    files = sorted(p / "task.lean" for p in verina.iterdir() if (p / "task.lean").is_file())
    texts: list[tuple[str, str]] = []
    for f in files:
        secs = _sections(f.read_text(encoding="utf-8"))
        texts += [("e", secs[k]) for k in EXPR_SECTIONS if secs.get(k, "").strip()]
        texts += [("m", secs[k]) for k in MODULE_SECTIONS if secs.get(k, "").strip()]
    dt, _ = _timed(lambda: [parse_expr(s) if m == "e" else parse_module(s) for m, s in texts])
    print(f"parse {len(texts)} Verina sections: {dt:.2f} s  [test_lean_parser all_sections]")
    # the garbage samples of test_garbage_only_raises_parse_errors_quickly (same seed and recipe)
    rng = random.Random(1234)
    sample_texts = [f.read_text(encoding="utf-8") for f in files[::7]]
    vocab = sorted({t[tok.start : tok.end] for t in sample_texts for tok in tokenize(t)})
    samples: list[str] = []
    for _ in range(400):
        samples.append(" ".join(rng.choice(vocab) for _ in range(rng.randrange(1, 30))))
        samples.append(
            "".join(
                rng.choice(vocab) + rng.choice([" ", "\n", "\n    ", ""]) for _ in range(rng.randrange(1, 40))
            )
        )
        sec = rng.choice([s for s in _sections(rng.choice(sample_texts)).values() if s.strip()])
        samples.append(sec[: rng.randrange(len(sec) + 1)])
        i, j = sorted((rng.randrange(len(sec) + 1), rng.randrange(len(sec) + 1)))
        samples.append(sec[:i] + sec[j:])
    samples += ["(" * 5000 + "x" + ")" * 5000, "¬" * 20000 + "x", "[" * 20000]

    def parse_garbage() -> None:
        for s in samples:
            for fn in (parse_expr, parse_module):
                try:
                    fn(s)
                except LeanParseError:
                    pass

    dt, _ = _timed(parse_garbage)
    print(f"parse {len(samples)} garbage samples (x2 parsers): {dt:.2f} s  [test_lean_parser garbage]")


def _engine(code: str, lim: Limits, params: list[tuple[str, Any]] | None = None) -> NativeTaskEngine:
    return NativeTaskEngine(
        fn_name="spin",
        params=params or [("x", NAT)],
        ret=NAT,
        sections={"precond": "  True", "code": code, "postcond": "  True"},
        limits=lim,
    )


LOOPS = {
    "deep recursion": "  let rec go (n : Nat) : Nat := go (n + 1) + 1\n  go x",
    "tail recursion": "  let rec go (n : Nat) : Nat := if n = 0 then go 1 else go (n + 1)\n  go x",
    "huge for loop": "  Id.run do\n    let mut s := 0\n    for i in [0:1000000000] do\n      s := s + i\n    return s",
    "quadratic scans": "  let xs := List.range 100000\n"
    "  if (List.range 100000).any (fun i => xs.count (i + 1000000) > 0) then 1 else 0",
}


def bench_engine() -> None:
    for label, code in LOOPS.items():
        te = _engine(code, Limits(seconds=1.0))
        dt, out = _timed(lambda te=te: te.run({"x": 3}))
        print(
            f"{label} under a 1 s limit: {dt:.2f} s ({out.reason})  [test_engine_robustness non_terminating]"
        )
    te = _engine("  (List.range (2 ^ 60)).length", Limits(seconds=1.0), [("xs", list_of(INT))])
    dt, out = _timed(lambda: te.run({"xs": ()}))
    print(f"List.range (2^60): {dt * 1000:.1f} ms ({out.reason})  [test_engine_robustness huge_builtin]")
    code = "  let subs := (List.range 40).foldl (fun acc x => acc ++ acc.map (fun s => x :: s)) [[]]\n  subs.length"
    te = _engine(code, Limits(fuel=10**12, seconds=120.0, max_size=1_000_000))
    dt, out = _timed(lambda: te.run({"x": 3}))
    print(
        f"doubling a list 40 times: {dt:.2f} s, {te.fuel_spent} fuel ({out.reason})  [test_engine_robustness doubling]"
    )
    te = NativeTaskEngine(
        fn_name="f",
        params=[("n", NAT)],
        ret=NAT,
        sections={"precond": "  True", "code": "  true", "postcond": "  ∃ i : Nat, i * i = n"},
        limits=Limits(seconds=5.0),
    )
    dt, v = _timed(lambda: te.postcondition({"n": 10**24}, True))
    print(f"∃ i, i * i = 10^24: {dt * 1000:.1f} ms, {v.truth.name}  [test_lean_unbounded inverted]")


def bench_fuzz(verina: Path, n: int) -> None:
    """The fuzzed-section loop of test_engine_robustness (same seed and fuel), timed per variant."""
    from veriscale.formats.verina.dataset import read_task
    from veriscale.values.codec import DecodeError, decode

    tasks = [read_task(d) for d in sorted(verina.iterdir()) if (d / "task.json").exists()]
    rng = random.Random(20261129)
    engine = NativeEngine(limits=Limits(seconds=600.0, fuel=2_000_000))
    times: list[float] = []
    while len(times) < n:
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
        t0 = time.perf_counter()
        te.precondition(inputs), te.run(inputs), te.postcondition(inputs, expected)
        times.append(time.perf_counter() - t0)
    times.sort()
    print(
        f"{n} fuzzed variants (3 calls each, 2M fuel): slowest {times[-1]:.2f} s, "
        f"median {times[len(times) // 2] * 1000:.0f} ms, total {sum(times):.1f} s  [test_engine_robustness fuzzed]"
    )


def bench_processes(skip_rust: bool) -> None:
    from veriscale.languages.lean.toolchain.runner import run_process

    dt, res = _timed(lambda: run_process(["sh", "-c", "sleep 60 & echo started; wait"], timeout=1.0))
    print(
        f"process timeout 1 s with a sleeping grandchild: {dt:.2f} s, timed_out={res.timed_out}  [test_lean_toolchain_runner]"
    )
    if skip_rust:
        return
    from veriscale.languages.verus.compile import compile_program, rustc_available
    from veriscale.languages.verus.execute import ExecLimits, run_json_lines
    from veriscale.languages.verus.harness import json_harness
    from veriscale.values.rust_types import parse_rust_type

    if not rustc_available():
        print("rustc is not installed: rust harness figures skipped")
        return
    src = """impl Solution {
    pub fn f(mode: i32, n: i64) -> i64 {
        if mode == 1 { loop { std::hint::black_box(n); } }
        if mode == 5 {
            fn r(k: u64) -> u64 {
                let buf = [k as u8; 8192];
                let next: fn(u64) -> u64 = std::hint::black_box(r);
                if k == 0 { 0 } else { 1 + next(k - 1) + std::hint::black_box(&buf)[7] as u64 }
            }
            return r(u64::MAX) as i64;
        }
        n * 2
    }
}
"""
    t = parse_rust_type
    comp = compile_program(json_harness(src, "f", [("mode", t("i32")), ("n", t("i64"))], t("i64")))
    if not comp.ok or comp.binary is None:
        print(f"harness did not compile: {comp.errors[:300]}")
        return
    for label, line, secs in (("stack overflow", "[5,1]", 60.0), ("looping case", "[1,5]", 1.0)):
        dt, res = _timed(
            lambda line=line, secs=secs: run_json_lines(comp.binary, [line], ExecLimits(case_seconds=secs))
        )
        print(
            f"rust harness {label} (case limit {secs:g} s): {dt:.2f} s, {res[0].status}  [test_vericontest_exec]"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--verina", type=Path, default=REPO.parent / "shared" / "data" / "verina")
    ap.add_argument("--fuzz", type=int, default=300, help="fuzzed variants to time (the test runs 2000)")
    ap.add_argument("--skip-rust", action="store_true")
    args = ap.parse_args()
    bench_builtins()
    if args.verina.is_dir():
        bench_parser(args.verina)
    else:
        print(f"{args.verina} is absent: parser and fuzz figures skipped")
    bench_engine()
    if args.verina.is_dir() and args.fuzz > 0:
        bench_fuzz(args.verina, args.fuzz)
    if shutil.which("sh"):
        bench_processes(args.skip_rust)


if __name__ == "__main__":
    main()
