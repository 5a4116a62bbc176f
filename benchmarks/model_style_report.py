"""Summarise a ``veriscale evaluate`` run of the model-style corpus: engine-caused UNKNOWNs per sample.

Usage: ``python benchmarks/model_style_report.py EVAL_OUT/results.jsonl [--all]``. Prints one line
per sample with a non-passing metric (its score, category and reason), then the share of samples
with an engine-caused UNKNOWN (parse/elaboration error, unsupported construct, or undecided).
"""

from __future__ import annotations

import json
import sys
from collections import Counter

ENGINE = ("parse_error", "unsupported_construct", "undecided")


def main(argv: list[str]) -> int:
    path = argv[0]
    show_all = "--all" in argv
    n = 0
    engine_unknown = 0
    cats: Counter[str] = Counter()
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)
        n += 1
        bad = []
        eng = False
        for name, m in sorted(r["metrics"].items()):
            if m["score"] in ("PASS", "NOT_EVALUATED"):
                continue
            bad.append((name, m["score"], m.get("error"), m.get("reason", "")))
            if m["score"] == "UNKNOWN" and m.get("error") in ENGINE:
                eng = True
                cats[m["error"]] += 1
        engine_unknown += eng
        if bad and (show_all or eng):
            print(f"{r['task_id']} #{r['sample']} {'/'.join(r['kinds'])}")
            for name, score, err, reason in bad:
                print(f"    {name}: {score} {err}: {reason[:160]}")
    share = 100.0 * engine_unknown / n if n else 0.0
    print(
        f"samples: {n}; with an engine-caused UNKNOWN: {engine_unknown} ({share:.1f}%); by metric: {dict(sorted(cats.items()))}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
