"""Case-by-case comparison of two ``veriscale check --json`` runs on VeriContest.

    python benchmarks/compare_vericontest_checks.py BEFORE.json AFTER.json

Prints, for ``requires`` and ``ensures``: verdict flips TRUE<->FALSE, cases decided before and UNKNOWN
after (regressions), cases UNKNOWN before and decided after, cases present in one run only; then the
problems whose postcondition is decided on all example cases in each run and the newly decided ones.
Exit status 1 when there is a flip or a regression. Cases are matched by (problem, example index,
case position within the example).
"""

from __future__ import annotations

import json
import sys
from typing import Any


def _cases(doc: dict[str, Any]) -> dict[tuple[str, int, int], dict[str, Any]]:
    out: dict[tuple[str, int, int], dict[str, Any]] = {}
    for p in doc["problems"]:
        for e in p["examples"]:
            for k, c in enumerate(e["cases"]):
                out[(p["problem"], e["index"], k)] = c
    return out


def _truth(case: dict[str, Any], what: str) -> str | None:
    v = case.get(what)
    return None if v is None else v["truth"]


def _decided(cases: dict[tuple[str, int, int], dict[str, Any]]) -> set[str]:
    seen: dict[str, bool] = {}
    for (pid, _, _), c in cases.items():
        t = _truth(c, "ensures")
        if t is None:
            continue
        seen[pid] = seen.get(pid, True) and t != "UNKNOWN"
    return {p for p, ok in seen.items() if ok}


def main(argv: list[str]) -> int:
    before, after = (_cases(json.load(open(f))) for f in argv[:2])
    bad = 0
    for what in ("requires", "ensures"):
        flips, lost, gained = [], [], []
        for key in sorted(set(before) & set(after)):
            a, b = _truth(before[key], what), _truth(after[key], what)
            if a is None or b is None or a == b:
                continue
            if a != "UNKNOWN" and b != "UNKNOWN":
                flips.append((key, a, b))
            elif a != "UNKNOWN":
                lost.append((key, a, after[key][what]["reason"][:160]))
            else:
                gained.append((key, b))
        print(f"{what}: {len(flips)} TRUE<->FALSE flips, {len(lost)} decided -> UNKNOWN, "
              f"{len(gained)} UNKNOWN -> decided")  # fmt: skip
        for row in flips + lost + gained:
            print("   ", *row)
        bad += len(flips) + len(lost)
    only = sorted(set(before) ^ set(after))
    print(f"cases in one run only: {len(only)}", *only[:20])
    d0, d1 = _decided(before), _decided(after)
    print(f"postconditions decided on all example cases: {len(d0)} -> {len(d1)}")
    print("newly decided:", " ".join(sorted(d1 - d0)) or "-")
    print("no longer decided:", " ".join(sorted(d0 - d1)) or "-")
    return 1 if bad or d0 - d1 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
