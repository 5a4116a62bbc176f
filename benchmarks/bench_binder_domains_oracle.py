"""Binder-domain strategies against plain algorithms: wrong verdicts on random small inputs (must be 0).

    PYTHONPATH=src .venv/bin/python benchmarks/bench_binder_domains_oracle.py [--seed 0] [-n 15]
        [--data DIR]

Seven VeriContest problems whose postconditions need the binder strategies of
``languages/verus/spec/`` — lc1326 (seq_lengths, seq_paths), lc3180 (seq_paths with
successors read off a stand-in), cf479C (seq_choices), lc1039 (enum_domains), lc135
(seq_sumcaps), lc1599 (affine_tails), lc1526 (seq_multisets). Per problem ``-n`` random small inputs (seed
``--seed``) that ``requires`` accepts; the answer from a textbook algorithm (each
problem's answer is unique); the Python evaluator (``SPEC_FUEL`` steps, 60 s clock
backstop) on the answer and on wrong outputs (answer - 1, + 1, + 2, -1, 0). A verdict is
right when it is TRUE exactly for the answer; UNKNOWN is counted apart; a wrong verdict
is printed with its input. Prints the counts per problem and the number of wrong verdicts.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))


def candy(r: tuple[int, ...]) -> int:
    c = [1] * len(r)
    for i in range(1, len(r)):
        if r[i] > r[i - 1]:
            c[i] = c[i - 1] + 1
    for i in range(len(r) - 2, -1, -1):
        if r[i] > r[i + 1]:
            c[i] = max(c[i], c[i + 1] + 1)
    return sum(c)


def triangulation(v: tuple[int, ...]) -> int:
    @functools.lru_cache(None)
    def f(i: int, j: int) -> int:
        if j - i < 2:
            return 0
        return min(f(i, k) + f(k, j) + v[i] * v[k] * v[j] for k in range(i + 1, j))

    return f(0, len(v) - 1)


def taps(n: int, ranges: tuple[int, ...]) -> int:
    intervals = sorted((i - r, i + r) for i, r in enumerate(ranges))
    covered, k, res = 0, 0, 0
    while covered < n:
        nxt = covered
        while k < len(intervals) and intervals[k][0] <= covered:
            nxt = max(nxt, intervals[k][1])
            k += 1
        if nxt == covered:
            return -1
        covered, res = nxt, res + 1
    return res


def wheel(customers: tuple[int, ...], bc: int, rc: int) -> int:
    wait = profit = best = rotations = 0
    ans, i = -1, 0
    while i < len(customers) or wait > 0:
        if i < len(customers):
            wait += customers[i]
        board = min(4, wait)
        wait -= board
        profit += board * bc - rc
        rotations += 1
        if profit > best:
            best, ans = profit, rotations
        i += 1
    return ans


def reward(values: tuple[int, ...]) -> int:
    reach = {0}
    for x in sorted(set(values)):
        reach |= {s + x for s in reach if s < x}
    return max(reach)


def increments(t: tuple[int, ...]) -> int:
    return t[0] + sum(max(0, b - a) for a, b in itertools.pairwise(t))


def exams(es: tuple[tuple[int, int], ...]) -> int:
    day = 0
    for a, b in sorted(es):
        day = b if b >= day else a
    return day


def problems(rng: random.Random) -> dict[str, tuple[str, Callable[[], dict[str, Any]], Callable[[Any], int]]]:
    def gen_taps() -> dict[str, Any]:
        n = rng.randint(1, 6)
        return {"n": n, "ranges": tuple(rng.randint(0, 2) for _ in range(n + 1))}

    def gen_exams() -> dict[str, Any]:
        es = []
        for _ in range(rng.randint(1, 4)):
            a = rng.randint(2, 9)
            es.append((a, rng.randint(1, a - 1)))
        return {"exams": tuple(sorted(es))}

    def ints(lo: int, hi: int, n_lo: int, n_hi: int) -> tuple[int, ...]:
        return tuple(rng.randint(lo, hi) for _ in range(rng.randint(n_lo, n_hi)))

    return {
        "leetcode/lc135": ("candy", lambda: {"ratings": ints(0, 3, 1, 5)}, lambda i: candy(i["ratings"])),
        "leetcode/lc1039": (
            "min_score_triangulation",
            lambda: {"values": ints(1, 6, 3, 6)},
            lambda i: triangulation(i["values"]),
        ),
        "leetcode/lc1326": ("min_taps", gen_taps, lambda i: taps(i["n"], i["ranges"])),
        "leetcode/lc1599": (
            "min_operations_max_profit",
            lambda: {
                "customers": ints(0, 12, 1, 4),
                "boarding_cost": rng.randint(1, 8),
                "running_cost": rng.randint(1, 12),
            },
            lambda i: wheel(i["customers"], i["boarding_cost"], i["running_cost"]),
        ),
        "leetcode/lc3180": (
            "max_total_reward",
            lambda: {"reward_values": ints(1, 12, 1, 5)},
            lambda i: reward(i["reward_values"]),
        ),
        "codeforces/cf479C": ("min_last_exam_day", gen_exams, lambda i: exams(i["exams"])),
        "leetcode/lc1526": (
            "min_number_operations",
            lambda: {"target": ints(1, 3, 1, 4)},
            lambda i: increments(i["target"]),
        ),
    }


def main() -> int:
    from veriscale.languages.verus.engine import SPEC_FUEL
    from veriscale.languages.verus.spec import SpecProgram
    from veriscale.runtime.limits import Limits

    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data" / "vericontest"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-n", type=int, default=15)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lim = Limits(fuel=SPEC_FUEL, seconds=60, max_depth=100_000)
    wrong = 0
    for rel, (target, gen, answer) in problems(rng).items():
        spec = Path(args.data) / rel / "spec.rs"
        if not spec.exists():
            print(f"{rel}: no {spec}, skipped")
            continue
        prog = SpecProgram.from_source(spec.read_text(), target)
        tally: Counter[str] = Counter()
        for _ in range(args.n):
            inp = gen()
            if prog.requires_verdict(inp).truth.value != "TRUE":
                tally["requires not TRUE (input skipped)"] += 1
                continue
            a = answer(inp)
            for o in sorted({a, a - 1, a + 1, a + 2, -1, 0}):
                got = prog.ensures_verdict(inp, o, lim=lim).truth.value
                expect = "TRUE" if o == a else "FALSE"
                if got == "UNKNOWN":
                    tally["UNKNOWN"] += 1
                elif got == expect:
                    tally["right"] += 1
                else:
                    tally["WRONG"] += 1
                    wrong += 1
                    print(f"WRONG {rel} input {inp} output {o} (answer {a}): {got}")
        print(f"{rel}: {dict(sorted(tally.items()))}", flush=True)
    print(f"wrong verdicts: {wrong}")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
