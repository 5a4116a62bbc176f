"""Summarise a ``veriscale evaluate`` run of the model-style corpus: engine-caused UNKNOWNs per sample.

Usage: ``python benchmarks/model_style_report.py EVAL_OUT/results.jsonl [GENERATIONS.jsonl] [--all]``. Prints one line
per sample with a non-passing metric (its score, category and reason), then the share of samples
with an engine-caused UNKNOWN (parse/elaboration error, unsupported construct, or undecided), and
the samples whose decided verdicts contradict the ``meta.expect`` the corpus states for them.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

ENGINE = ("parse_error", "unsupported_construct", "undecided")
_KIND_METRICS = {
    "spec": ("precond_sound", "precond_complete", "postcond_complete", "postcond_sound"),
    "code": ("code",),
}


def _expectations(generations: str) -> dict[tuple[str, int], str]:
    out = {}
    for line in open(generations, encoding="utf-8"):
        g = json.loads(line)
        exp = (g.get("meta") or {}).get("expect")
        if exp:
            out[(g["task_id"], g.get("sample", 0))] = exp
    return out


def main(argv: list[str]) -> int:
    path = argv[0]
    show_all = "--all" in argv
    n = 0
    engine_unknown = 0
    cats: Counter[str] = Counter()
    expectations = _expectations(argv[1]) if len(argv) > 1 and not argv[1].startswith("--") else {}
    contradictions: list[str] = []
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)
        n += 1
        exp = expectations.get((r["task_id"], r["sample"]))
        if exp is not None:
            scores = [r["metrics"][m]["score"] for m in _KIND_METRICS[r["kinds"][0]] if m in r["metrics"]]
            decided = [s for s in scores if s in ("PASS", "FAIL")]
            if exp.startswith("pass") and "FAIL" in decided:
                contradictions.append(f"{r['task_id']} #{r['sample']}: expected pass, got {scores}")
            if exp.startswith("fail") and decided and "FAIL" not in decided and len(decided) == len(scores):
                contradictions.append(f"{r['task_id']} #{r['sample']}: expected fail, got {scores}")
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
    if expectations:
        print(f"samples whose verdicts contradict their stated expectation: {len(contradictions)}")
        for c in contradictions:
            print(f"    {c}")
    print(
        f"samples: {n}; with an engine-caused UNKNOWN: {engine_unknown} ({share:.1f}%); by metric: {dict(sorted(cats.items()))}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
