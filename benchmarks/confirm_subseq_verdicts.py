"""Offline confirmation of the symbolic subsequence questions (``languages/lean/eval/subseqs.py``).

For every test row of the given tasks, the postcondition's verdict on the stored expected output
with the rewrite on is compared with an independent judgement:

1. the plain engine (rewrite off) with the default specification limits; if it decides, the two
   verdicts must be equal;
2. if it does not and the subsequence lists fit in memory (``--raise-up-to`` elements per list),
   the plain engine again with a raised budget (fuel, size and seconds);
3. otherwise an independent computation in plain Python of what the postcondition asks (patience
   sorting for the longest increasing subsequence, a memoised recursion for the longest common
   subsequence, an iterator test for "is a subsequence"), for the two shapes in VerinaPlus.

Usage (minutes of CPU; run it under ``nice``)::

    python benchmarks/confirm_subseq_verdicts.py ../shared/data/verinaplus \
        verina_advanced_2 verina_advanced_3 verina_advanced_4 verina_advanced_25 verina_advanced_27 \
        verina_advanced_31 verina_advanced_32 verina_advanced_33 verina_advanced_34

Prints one line per task (rows by way of confirmation) and every disagreement; exits 1 on any.
"""

from __future__ import annotations

import argparse
import sys
from bisect import bisect_left
from functools import cache
from pathlib import Path
from typing import Any

from veriscale.evaluate.scoring.cases import decode_rows
from veriscale.formats.verina.dataset import read_task
from veriscale.languages.lean.eval import subseqs
from veriscale.languages.lean.native import NativeEngine
from veriscale.runtime.limits import Limits

DEFAULT = Limits(fuel=10_000_000, seconds=1000.0)
RAISED = Limits(fuel=10**11, seconds=3000.0, max_size=10**9)


def _lis(xs: tuple) -> int:
    tails: list[Any] = []
    for x in xs:
        i = bisect_left(tails, x)
        tails[i : i + 1] = [x]
    return len(tails)


def _lcs(a: tuple, b: tuple) -> int:
    @cache
    def go(i: int, j: int) -> int:
        if i == len(a) or j == len(b):
            return 0
        if a[i] == b[j]:
            return 1 + go(i + 1, j + 1)
        return max(go(i + 1, j), go(i, j + 1))

    sys.setrecursionlimit(max(10_000, 4 * (len(a) + len(b))))
    return go(0, 0)


def _is_sub(v: Any, xs: Any) -> bool:
    it = iter(xs)
    return all(any(c == y for y in it) for c in v)


def independent(post: str, inputs: dict[str, Any], result: Any) -> bool | None:
    """What the two VerinaPlus shapes ask, computed independently (None: not one of them)."""
    vals = list(inputs.values())
    if "List.Pairwise (· < ·)" in post and len(vals) == 1:
        return result == _lis(tuple(vals[0]))
    if "commonSubseqLens" in post and len(vals) == 2:
        return result == _lcs(tuple(vals[0]), tuple(vals[1]))
    if "commonSubseq.contains result.toList" in post and len(vals) == 2:
        a, b = (tuple(v) for v in vals)
        r = tuple(result)
        return _is_sub(r, a) and _is_sub(r, b) and _lcs(a, b) <= len(r)
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root")
    ap.add_argument("tasks", nargs="+")
    ap.add_argument(
        "--raise-up-to", type=int, default=21, help="longest list run plainly with a raised budget"
    )
    args = ap.parse_args()
    bad = 0
    for tid in args.tasks:
        task = read_task(Path(args.root) / tid)
        rows = decode_rows(task)
        post = task.section_text("postcond")
        fast = NativeEngine(DEFAULT).for_task(task)
        counts = {"plain": 0, "raised": 0, "independent": 0, "unchecked": 0}
        for r in rows.tests:
            if r.inputs is None or r.expected_error:
                continue
            subseqs.ENABLED = True
            got = fast.postcondition(r.inputs, r.expected)
            subseqs.ENABLED = False
            plain = NativeEngine(DEFAULT).for_task(task).postcondition(r.inputs, r.expected)
            how = "plain"
            if plain.is_unknown:
                longest = max((len(v) for v in r.inputs.values() if isinstance(v, tuple | str)), default=0)
                if longest <= args.raise_up_to:
                    plain = NativeEngine(RAISED).for_task(task).postcondition(r.inputs, r.expected)
                    how = "raised"
            if plain.is_unknown:
                want = independent(post, r.inputs, r.expected)
                if want is None:
                    counts["unchecked"] += 1
                    continue
                how = "independent"
                ok = not got.is_unknown and got.is_true == want
            else:
                ok = got.truth == plain.truth
            counts[how] += 1
            if not ok:
                bad += 1
                print(f"  DISAGREE {tid} test {r.row} ({how}): fast {got} vs {plain}")
        print(f"{tid}: {counts}", flush=True)
    subseqs.ENABLED = True
    print("disagreements:", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
