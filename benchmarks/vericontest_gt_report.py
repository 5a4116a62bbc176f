"""Summarise ``veriscale evaluate`` results of the VeriContest ground truth as generations
(``vericontest_gt_generations.py``): per metric, how many problems pass, and every problem that does not.

    PYTHONPATH=src python benchmarks/vericontest_gt_report.py OUT/results.jsonl [MORE/results.jsonl ...]
        [--defect-docs DOC ...]

(several results files: one evaluation run split into chunks of problems, read in the order given).

**The score.** Per metric: ``PASS / (PASS + FAIL + UNKNOWN − documented defects)``, where

* a ``NOT_EVALUATED`` sample (no test case; a proof without Verus) is outside the denominator and
  listed with its reason — never counted as a pass;
* a non-passing sample of a problem that a defect document names (by default
  ``docs/vericontest-mismatches.md`` and ``docs/data-defects.md``) is a *documented benchmark
  defect*: left out of the denominator and listed with its reason, so a reader can check that the
  reason is the documented one; it is not counted as a pass either;
* a ``spec_code2proof`` FAIL ``spec_code_modified`` of the ground truth is the documented
  difference between the benchmark's ``verified.rs`` and its ``code_spec.rs`` (docs/evaluate.md,
  "Spec/code modified": 219 of 946 problems under the strict token check), counted apart likewise;
* every other FAIL or UNKNOWN stays in the denominator and is listed (UNKNOWN with the evaluator's
  reason).

Problems and metrics are printed in the results' order (the format's problem order, then
``VC_METRICS``); nothing depends on hash order.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

from veriscale.evaluate.vericontest.scoring import VC_METRICS

PROOF_METRICS = ("spec_code2proof", "end2end")
DEFAULT_DOCS = ("docs/vericontest-mismatches.md", "docs/data-defects.md")
_ID = re.compile(r"\b(lc\d+|cf\d+[A-Z]\d?)\b")


def documented(docs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for d in docs:
        p = Path(d)
        if p.is_file():
            for pid in _ID.findall(p.read_text(encoding="utf-8")):
                out.setdefault(pid, p.name)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("results", nargs="+")
    ap.add_argument("--defect-docs", nargs="*", default=list(DEFAULT_DOCS))
    ap.add_argument("--width", type=int, default=170, help="characters of each reason shown")
    a = ap.parse_args()
    known = documented(a.defect_docs)
    rows = [
        json.loads(x)
        for f in a.results
        for x in Path(f).read_text(encoding="utf-8").splitlines()
        if x.strip()
    ]
    print(f"{len(rows)} problems; {len(known)} problem ids named in {', '.join(a.defect_docs)}")
    listed: list[str] = []
    print(f"{'metric':24} {'pass':>5} {'fail':>5} {'unk':>5} {'n/e':>5} {'defect':>6} {'score':>8}")
    for m in VC_METRICS:
        c: Counter[str] = Counter()
        for r in rows:
            info = r["metrics"].get(m)
            if info is None:
                continue
            s = info["score"]
            if m == "spec_code2proof" and s == "FAIL" and info["error"] == "spec_code_modified":
                c["defect"] += 1
                tag = "documented (verified.rs ≠ code_spec.rs)"
            elif s in ("FAIL", "UNKNOWN") and r["task_id"] in known:
                c["defect"] += 1
                tag = f"documented defect ({known[r['task_id']]})"
            elif s == "PASS":
                c["PASS"] += 1
                continue
            else:
                c[s] += 1
                tag = s
            if m in PROOF_METRICS and s == "NOT_EVALUATED" and "requires Verus" in info["reason"]:
                continue  # every proof sample without Verus: counted, not listed one by one
            why = (info["error"] or "") + ": " + info["reason"].replace("\n", " ")
            listed.append(f"  {m:22} {r['task_id']:10} {tag:34} {why[: a.width]}")
        denom = c["PASS"] + c["FAIL"] + c["UNKNOWN"]
        score = f"{100 * c['PASS'] / denom:.1f}%" if denom else "n/a"
        print(
            f"{m:24} {c['PASS']:5} {c['FAIL']:5} {c['UNKNOWN']:5} {c['NOT_EVALUATED']:5} {c['defect']:6} {score:>8}"
        )
    print("\nevery non-pass (proof samples NOT_EVALUATED for want of Verus are only counted above):")
    for line in listed:
        print(line)


if __name__ == "__main__":
    main()
