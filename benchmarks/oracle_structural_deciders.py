"""Oracle check of the structural deciders (``seq_walks``, ``seq_matchings``, ``seq_covers``) on the real specs.

    PYTHONPATH=src python benchmarks/oracle_structural_deciders.py [--n 40] [--seed 0] [--plain-fuel 300000]

For lc1340 (jump paths), lc1679 (k-sum pairs) and lc1526 (interval increments), random small inputs
that satisfy ``requires``; for each, the outputs ``answer - 1``, ``answer``, ``answer + 1`` where
``answer`` comes from a brute force written from the problem statement (all jump paths; all sets of
disjoint pairs; all multisets of intervals), never from the spec. Each case is judged by the Python
evaluator two ways: with the deciders and the engine's ``SPEC_FUEL``; with the deciders disabled
(plain enumeration) and ``--plain-fuel`` steps (default ``SPEC_FUEL``). Printed per problem:
cases, verdicts of each way, and the disagreements with the oracle (TRUE iff the output is the answer:
each of these specs pins the answer) — there must be none; a decided verdict of the plain path that
differs from the deciders' is printed as well.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

DATA = Path("/work/shared/data/vericontest/leetcode")


def jumps_answer(arr: tuple[int, ...], d: int) -> int:
    """Most indices visited: every path of the jump graph, depth first."""
    n = len(arr)

    def can(i: int, j: int) -> bool:
        lo, hi = min(i, j), max(i, j)
        return i != j and hi - lo <= d and arr[i] > arr[j] and all(arr[i] > arr[k] for k in range(lo + 1, hi))

    def longest(i: int) -> int:
        return 1 + max((longest(j) for j in range(n) if can(i, j)), default=0)

    return max(longest(i) for i in range(n))


def pairs_answer(nums: tuple[int, ...], k: int) -> int:
    """Most disjoint index pairs summing to k: branch on the lowest free index."""

    def rec(free: frozenset[int]) -> int:
        if not free:
            return 0
        x = min(free)
        best = rec(free - {x})
        for y in free - {x}:
            if nums[x] + nums[y] == k:
                best = max(best, 1 + rec(free - {x, y}))
        return best

    return rec(frozenset(range(len(nums))))


def ops_answer(target: tuple[int, ...]) -> int:
    """Fewest intervals whose coverage counts are the target: multisets of intervals by size."""
    n = len(target)
    ivs = [(a, b) for a in range(n) for b in range(a, n)]
    for size in itertools.count(0):
        for ms in itertools.combinations_with_replacement(ivs, size):
            if tuple(sum(1 for a, b in ms if a <= p <= b) for p in range(n)) == target:
                return size
    raise AssertionError


def gen_inputs(pid: str, rng: random.Random) -> dict[str, Any]:
    if pid == "lc1340":
        n = rng.randint(1, 7)
        return {"arr": tuple(rng.randint(1, 6) for _ in range(n)), "d": rng.randint(1, n)}
    if pid == "lc1679":
        n = rng.randint(1, 8)
        return {"nums": tuple(rng.randint(1, 5) for _ in range(n)), "k": rng.randint(1, 9)}
    n = rng.randint(1, 4)
    return {"target": tuple(rng.randint(1, 3) for _ in range(n))}


PROBLEMS = {
    "lc1340": ("max_jumps", lambda i: jumps_answer(i["arr"], i["d"])),
    "lc1679": ("max_operations", lambda i: pairs_answer(i["nums"], i["k"])),
    "lc1526": ("min_number_operations", lambda i: ops_answer(i["target"])),
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=40, help="random inputs per problem")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plain-fuel", type=int, default=None, help="steps of the plain path (SPEC_FUEL)")
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()

    from veriscale.languages.verus.engine import SPEC_FUEL
    from veriscale.languages.verus.spec import SpecProgram, seq_covers, seq_matchings, seq_walks
    from veriscale.runtime import limits

    plain_fuel = args.plain_fuel or SPEC_FUEL
    real = (seq_walks.domain_for, seq_covers.domain_for, seq_matchings.decide)

    def deciders(on: bool) -> None:
        none = lambda *a, **k: None  # noqa: E731
        seq_walks.domain_for, seq_covers.domain_for, seq_matchings.decide = real if on else (none, none, none)

    bad = 0
    for pid, (target, oracle) in PROBLEMS.items():
        prog = SpecProgram.from_source((args.data / pid / "spec.rs").read_text(), target)
        rng = random.Random(f"{args.seed}-{pid}")
        counts: dict[str, Counter[str]] = {"deciders": Counter(), "plain": Counter()}
        secs: Counter[str] = Counter()
        cases = 0
        agree_plain = 0
        for _ in range(args.n):
            inp = gen_inputs(pid, rng)
            if prog.requires_verdict(inp).truth.value != "TRUE":
                continue
            ans = oracle(inp)
            for out in (ans - 1, ans, ans + 1):
                cases += 1
                want = "TRUE" if out == ans else "FALSE"
                got: dict[str, str] = {}
                for way, on, fuel in (("deciders", True, SPEC_FUEL), ("plain", False, plain_fuel)):
                    deciders(on)
                    t0 = time.process_time()
                    lim = limits.Limits(fuel=fuel, seconds=600.0, max_depth=100_000)
                    got[way] = prog.ensures_verdict(inp, out, lim=lim).truth.value
                    secs[way] += time.process_time() - t0
                    counts[way][got[way]] += 1
                    if got[way] != "UNKNOWN" and got[way] != want:
                        bad += 1
                        print(f"  WRONG {pid} {way} {inp} output {out}: {got[way]}, oracle {want}")
                deciders(True)
                if got["plain"] != "UNKNOWN" and got["deciders"] != "UNKNOWN":
                    agree_plain += got["plain"] == got["deciders"]
        print(f"{pid}: {cases} cases (answer -1/0/+1 on {cases // 3} inputs)")
        for way in counts:
            c = counts[way]
            print(f"  {way:9s} TRUE {c['TRUE']:3d} FALSE {c['FALSE']:3d} UNKNOWN {c['UNKNOWN']:3d}"
                  f"  CPU {secs[way]:.1f} s")  # fmt: skip
        print(f"  deciders and plain (fuel {plain_fuel}) both decided and agreed: {agree_plain}")
    print(f"wrong verdicts against the oracle: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
