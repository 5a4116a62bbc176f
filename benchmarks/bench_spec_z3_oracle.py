"""The z3 back end of the Verus spec evaluator against plain enumeration: agreement counts.

    PYTHONPATH=src python benchmarks/bench_spec_z3_oracle.py [--seed 0] [-n 12] [--fuel 20000000]
        [--data DIR] [--only NAME ...]

For each spec below, ``-n`` random small instances (seed ``--seed``), each with a mix of right and
wrong outputs, are checked twice:

* **enumeration**: the Python evaluator alone (``VERISCALE_SPEC_Z3=0``) with ``--fuel`` steps — small
  inputs, so that enumeration finishes wherever the domains are finite;
* **z3**: the evaluator with 2,000 steps for the clause and 200 for each inner quantifier tried
  exactly, so that nearly every undecided clause goes to the z3 back end.

A case both decide must get the same verdict (a disagreement is printed with its input and makes the
exit status 1). Printed per spec: cases, decided by both / enumeration only / z3 only / neither,
agreements, disagreements; then the totals.

Specs: own ones written so that enumeration finishes (balanced base-w digits of a bounded length, a
bounded two-variable linear form, a bitwise condition on u8 pairs, a lexicographically least
sequence under a bitwise neighbour relation, a pair of indices with a given sum) and real VeriContest
problems on small inputs (lc1526, lc1679, cf552C, cf382C; shared data, skipped when absent): on
those enumeration often cannot finish, and only the cases both decide are compared.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from veriscale.languages.verus.spec import SpecProgram, z3_terms  # noqa: E402
from veriscale.runtime.limits import Limits  # noqa: E402
from veriscale.values.runtime import Some  # noqa: E402

OWN = """
verus! {
pub open spec fn weighted(w: int, c: Seq<int>) -> int
    decreases c.len(),
{
    if c.len() == 0 { 0 } else { c[0] + w * weighted(w, c.subrange(1, c.len() as int)) }
}
fn digits(w: i64, m: i64) -> (r: bool)
    ensures
        r == (exists|c: Seq<int>| c.len() <= 4
            && (forall|i: int| 0 <= i < c.len() ==> -1 <= #[trigger] c[i] <= 1)
            && weighted(w as int, c) == m as int),
{ }
fn bezout(a: i64, b: i64, c: i64) -> (r: bool)
    ensures
        r == (forall|x: int, y: int| -12 <= x <= 12 && -12 <= y <= 12 ==> a * x + b * y != c),
{ }
fn bits(x: u8, y: u8) -> (r: u32)
    ensures
        forall|s: Seq<u8>| s.len() == 2 && ((s[0] ^ x) & (s[1] ^ y)) == 0 && s[0] != s[1]
            ==> s[0] as int + s[1] as int >= r as int,
{ }
pub open spec fn co(x: Seq<u8>, y: Seq<u8>) -> bool {
    x.len() == y.len() && forall|i: int| 0 <= i < x.len() - 1 ==>
        (x[i] ^ y[i]) & (x[i + 1] ^ y[i + 1]) == (x[i] ^ y[i])
}
pub open spec fn lex_le(a: Seq<u8>, b: Seq<u8>) -> bool {
    a.len() == b.len() && (a =~= b || exists|p: int| 0 <= p < a.len() && a[p] < b[p]
        && forall|k: int| 0 <= k < p ==> a[k] == b[k])
}
fn least(x: Vec<u8>) -> (y: Vec<u8>)
    ensures
        co(x@, y@),
        forall|alt: Seq<u8>| alt.len() == x.len() && (forall|i: int| 0 <= i < alt.len() ==> alt[i] < 8)
            && co(x@, alt) ==> lex_le(y@, alt),
{ }
fn pair(s: Vec<i64>, t: i64) -> (r: bool)
    ensures
        r == (exists|i: int, j: int| 0 <= i < j < s.len() && s[i] + s[j] == t),
{ }
}
"""


def balanced(w: int, m: int, n: int) -> bool:
    def go(m: int, n: int) -> bool:
        if m == 0:
            return True
        if n == 0:
            return False
        return any((m - c) % w == 0 and go((m - c) // w, n - 1) for c in (-1, 0, 1))

    return go(m, n)


def least_co(x: tuple[int, ...]) -> tuple[int, ...]:
    y: list[int] = []
    prev = 0
    for k, v in enumerate(x):
        # x[k] ^ y[k] must contain every bit of x[k-1] ^ y[k-1]: y[k] = prev & ~x[k] (the least)
        yk = (prev & ~v) & 0xFF if k else 0
        y.append(yk)
        prev = v ^ yk
    return tuple(y)


def own_cases(rng: random.Random, n: int) -> Iterator[tuple[str, str, dict[str, Any], list[Any]]]:
    for _ in range(n):
        w, m = rng.randint(2, 4), rng.randint(-30, 30)
        yield "digits", "digits", {"w": w, "m": m}, [balanced(w, m, 4), not balanced(w, m, 4)]
        a, b, c = rng.randint(-9, 9), rng.randint(-9, 9), rng.randint(-20, 20)
        yield "bezout", "bezout", {"a": a, "b": b, "c": c}, [True, False]
        x, y = rng.randint(0, 255), rng.randint(0, 255)
        best = min(
            (p + q for p in range(256) for q in range(256) if ((p ^ x) & (q ^ y)) == 0 and p != q),
            default=None,
        )
        outs = [best, best + 1, max(best - 1, 0)] if best is not None else [0, 1]
        yield "bits", "bits", {"x": x, "y": y}, outs
        xs = tuple(rng.randint(0, 7) for _ in range(rng.randint(1, 3)))
        good = least_co(xs)
        bad = tuple(min(v + 1, 7) if k == len(good) - 1 else v for k, v in enumerate(good))
        yield "least", "least", {"x": xs}, [good, bad]
        s = tuple(rng.randint(-5, 5) for _ in range(rng.randint(0, 5)))
        yield "pair", "pair", {"s": s, "t": rng.randint(-6, 6)}, [True, False]


def lc1526_answer(t: tuple[int, ...]) -> int:
    return t[0] + sum(max(0, t[i] - t[i - 1]) for i in range(1, len(t)))


def lc1679_answer(nums: tuple[int, ...], k: int) -> int:
    used = [False] * len(nums)
    ops = 0
    for i in range(len(nums)):
        if used[i]:
            continue
        for j in range(i + 1, len(nums)):
            if not used[j] and nums[i] + nums[j] == k:
                used[i] = used[j] = True
                ops += 1
                break
    return ops  # greedy pairing is optimal for pairs with a fixed sum


def cf382c_answer(nums: tuple[int, ...]) -> Any:
    if len(nums) == 1:
        return None
    cands = []
    lo, hi = min(nums) - 2 * (max(nums) - min(nums)) - 2, max(nums) + 2 * (max(nums) - min(nums)) + 2
    for x in range(lo, hi + 1):
        s = sorted((*nums, x))
        d = {s[i + 1] - s[i] for i in range(len(s) - 1)}
        if len(d) == 1:
            cands.append(x)
    return Some(tuple(cands))


def real_cases(rng: random.Random, n: int) -> Iterator[tuple[str, str, dict[str, Any], list[Any]]]:
    for _ in range(n):
        t = tuple(rng.randint(1, 3) for _ in range(rng.randint(1, 3)))
        r = lc1526_answer(t)
        yield "lc1526", "leetcode/lc1526", {"target": t}, [r, r - 1, r + 1]
        nums = tuple(rng.randint(1, 4) for _ in range(rng.randint(1, 5)))
        k = rng.randint(2, 6)
        r = lc1679_answer(nums, k)
        yield "lc1679", "leetcode/lc1679", {"nums": nums, "k": k}, [r, r + 1, max(r - 1, 0)]
        w, m = rng.randint(2, 5), rng.randint(1, 60)
        yield "cf552C", "codeforces/cf552C", {"w": w, "m": m}, [balanced(w, m, 31), not balanced(w, m, 31)]
        nums = tuple(sorted(rng.randint(1, 9) for _ in range(rng.randint(1, 3))))
        ans = cf382c_answer(nums)
        outs = [ans]
        if ans is not None and ans.val:
            outs.append(Some(ans.val[:-1]))
        yield "cf382C", "codeforces/cf382C", {"nums": nums}, outs


def verdict(prog: SpecProgram, inputs: dict[str, Any], out: Any, fuel: int, z3_on: bool) -> str:
    os.environ["VERISCALE_SPEC_Z3"] = "1" if z3_on else "0"
    lim = Limits(fuel=fuel, seconds=600, max_depth=100_000)
    return prog.ensures_verdict(inputs, out, lim=lim).truth.value


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-n", type=int, default=12)
    ap.add_argument("--fuel", type=int, default=20_000_000)
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data" / "vericontest"))
    ap.add_argument("--only", nargs="*", default=None)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    progs: dict[str, SpecProgram] = {}

    def prog_of(src: str, target: str) -> SpecProgram | None:
        key = f"{src}:{target}"
        if key not in progs:
            if src == "own":
                progs[key] = SpecProgram.from_source(OWN, target)
                return progs[key]
            path = Path(args.data) / src / "spec.rs"
            if not path.exists():
                print(f"skip {src}: {path} not found")
                progs[key] = None  # type: ignore[assignment]
            else:
                progs[key] = SpecProgram.from_source(path.read_text())
        return progs[key]

    counts: dict[str, Counter[str]] = {}
    bad = 0
    t0 = time.time()
    gens: list[tuple[str, Callable[..., Any]]] = [("own", own_cases), ("real", real_cases)]
    for kind, gen in gens:
        for name, where, inputs, outs in gen(rng, args.n):
            if args.only and name not in args.only:
                continue
            prog = prog_of("own", where) if kind == "own" else prog_of(where, "")
            if prog is None:
                continue
            c = counts.setdefault(name, Counter())
            for out in outs:
                if out is None and name != "cf382C":
                    continue
                if prog.requires_verdict(inputs).truth.value != "TRUE":
                    c["requires not TRUE (skipped)"] += 1
                    break
                saved = z3_terms.EXACT_FUEL
                z3_terms.EXACT_FUEL = 200  # inner quantifiers go to z3 too
                try:
                    zv = verdict(prog, inputs, out, 2_000, True)
                finally:
                    z3_terms.EXACT_FUEL = saved
                ev = verdict(prog, inputs, out, args.fuel, False)
                c["cases"] += 1
                if ev != "UNKNOWN" and zv != "UNKNOWN":
                    c["both decide"] += 1
                    if ev == zv:
                        c["agree"] += 1
                    else:
                        c["DISAGREE"] += 1
                        bad += 1
                        print(f"DISAGREE {name} {inputs} output {out}: enumeration {ev}, z3 {zv}", flush=True)
                elif ev != "UNKNOWN":
                    c["enumeration only"] += 1
                elif zv != "UNKNOWN":
                    c["z3 only"] += 1
                else:
                    c["neither"] += 1
    keys = ["cases", "both decide", "agree", "DISAGREE", "enumeration only", "z3 only", "neither"]
    print(f"{'spec':<10}" + "".join(f"{k:>18}" for k in keys))
    total: Counter[str] = Counter()
    for name, c in counts.items():
        total.update(c)
        print(f"{name:<10}" + "".join(f"{c[k]:>18}" for k in keys))
    print(f"{'total':<10}" + "".join(f"{total[k]:>18}" for k in keys))
    print(
        f"disagreements: {bad}; {time.time() - t0:.1f} s wall (seed {args.seed}, n {args.n}, fuel {args.fuel})"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
