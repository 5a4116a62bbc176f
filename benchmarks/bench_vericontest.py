"""Full-corpus figures for the VeriContest foundation (not part of the default test run).

    nice -n 15 .venv/bin/python benchmarks/bench_vericontest.py [--data DIR] [--only lc7 ...]
        [--sections compile,examples,erasure] [--jobs 1] [--json out.json]

Sections:

* ``compile``: every reference program builds with plain rustc (LeetCode:
  the JSON-lines harness around ``code.rs``; Codeforces: the traced
  ``main.rs`` and the harness around its ``impl``);
* ``examples``: ``veriscale check`` on the description examples — reference
  vs stated output per family (the ``**Input:**`` examples the acceptance
  figures count, and all parsed examples), and the specification
  evaluator's ``requires``/``ensures`` verdicts on them;
* ``erasure``: every ``code_spec.rs`` and ``verified.rs`` erased to plain
  Rust and compiled inside the problem's harness;
* ``erased-examples``: the erased programs run on the function-level example
  inputs (LeetCode examples, the calls Codeforces ``main`` makes) and compared
  with the reference (not in the default sections).

Binaries are cached (``$VERISCALE_RUST_CACHE`` or ``~/.cache/veriscale/rust``),
so reruns only pay for evaluation. The script lowers its own priority
(``os.nice(15)``); keep ``--jobs 1`` on shared machines.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parent.parent / "shared" / "data" / "vericontest"


def _compile_one(path: str) -> list[tuple[str, str, str]]:
    from veriscale.formats.vericontest.dataset import read_problem
    from veriscale.languages.verus.reference import ProblemRunner

    p = read_problem(path)
    r = ProblemRunner(p)
    bad: list[tuple[str, str, str]] = []
    for what in ("harness", "traced") if p.is_codeforces else ("harness",):
        try:
            c = getattr(r, what)()
        except Exception as exc:
            bad.append((p.id, what, repr(exc)[:300]))
            continue
        if not c.ok:
            bad.append((p.id, what, c.errors[:600]))
    return bad


def _erase_one(path: str) -> list[tuple[str, str, str]]:
    from veriscale.formats.vericontest.dataset import read_problem
    from veriscale.languages.verus.erase import EraseError, erase
    from veriscale.languages.verus.reference import ProblemRunner

    p = read_problem(path)
    out: list[tuple[str, str, str]] = []
    for fname, text in (("code_spec.rs", p.code_spec), ("verified.rs", p.verified)):
        try:
            code = erase(text)
        except EraseError as exc:
            out.append((p.id, fname, f"erase: {exc}"))
            continue
        try:
            comp = ProblemRunner(p, code=code).harness()
        except Exception as exc:
            out.append((p.id, fname, f"harness: {exc!r}"[:300]))
            continue
        out.append((p.id, fname, "" if comp.ok else comp.errors[:800]))
    return out


def _function_inputs(p: Any, ref: Any) -> list[dict[str, Any]]:
    """Function-level example inputs (JSON by parameter name): LeetCode examples; Codeforces traced calls."""
    if not p.is_codeforces:
        return [ex.inputs for ex in p.examples if ex.inputs is not None]
    rows: list[dict[str, Any]] = []
    names = [q.name for q in p.ref_signature.params]
    for ex in p.examples:
        for call in ref.run_stdin(ex.stdin).calls:
            args = call.get("args")
            if isinstance(args, list) and len(args) == len(names):
                rows.append(dict(zip(names, args)))
    return rows


def _erased_run_one(path: str) -> list[tuple[str, str, int, int, str]]:
    """(problem, file, cases agreeing with the reference, cases, first difference)."""
    from veriscale.formats.vericontest.dataset import read_problem
    from veriscale.languages.verus.erase import EraseError, erase
    from veriscale.languages.verus.execute import ExecLimits
    from veriscale.languages.verus.reference import ProblemRunner

    p = read_problem(path)
    lim = ExecLimits(case_seconds=10.0)
    ref = ProblemRunner(p, limits=lim)
    rows = _function_inputs(p, ref)
    if not rows:
        return []
    want = ref.run_inputs(rows)
    out: list[tuple[str, str, int, int, str]] = []
    for fname, text in (("code_spec.rs", p.code_spec), ("verified.rs", p.verified)):
        try:
            got = ProblemRunner(p, limits=lim, code=erase(text)).run_inputs(rows)
        except (EraseError, ValueError) as exc:
            out.append((p.id, fname, 0, len(rows), f"erase: {exc}"))
            continue
        same = [(g.status, g.value) == (w.status, w.value) for g, w in zip(got, want)]
        first = next((f"{g.status} {g.value!r} {g.message[:80]} vs {w.status} {w.value!r}"
                      for g, w, ok in zip(got, want, same) if not ok), "")  # fmt: skip
        out.append((p.id, fname, sum(same), len(rows), first))
    return out


def _map(fn: Any, items: list[str], jobs: int) -> list[Any]:
    if jobs <= 1:
        return [fn(x) for x in items]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(fn, items, chunksize=1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--sections", default="compile,examples,erasure")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", help="write all figures and findings to this file")
    ap.add_argument("--no-nice", action="store_true")
    args = ap.parse_args(argv)
    if not args.no_nice:
        os.nice(15)
    from veriscale.evaluate.checks.vericontest import run_vericontest_check, summarize
    from veriscale.formats.vericontest.dataset import discover_problems

    dirs = discover_problems(args.data)
    if args.only:
        dirs = [d for d in dirs if d.name in set(args.only)]
    paths = [str(d) for d in dirs]
    sections = set(args.sections.split(","))
    report: dict[str, Any] = {"problems": len(paths)}

    if "compile" in sections:
        t = time.time()
        bad = [b for r in _map(_compile_one, paths, args.jobs) for b in r]
        failed = sorted({b[0] for b in bad})
        report["compile"] = {"ok": len(paths) - len(failed), "total": len(paths), "failures": bad,
                             "seconds": round(time.time() - t, 1)}  # fmt: skip
        print(f"compile: {len(paths) - len(failed)}/{len(paths)} reference programs build "
              f"({report['compile']['seconds']} s)")  # fmt: skip
        for b in bad:
            print("  FAIL", b[0], b[1], b[2][:200].replace("\n", " | "))

    if "examples" in sections:
        t = time.time()
        checks = run_vericontest_check(args.data, only=[Path(p).name for p in paths], jobs=args.jobs)
        s = summarize(checks)
        s["seconds"] = round(time.time() - t, 1)
        report["examples"] = s
        for kind in ("leetcode", "codeforces"):
            for label in ("canonical", "all"):
                f = s[f"{kind}.{label}"]
                print(f"{kind} examples ({label}): {f['agree']}/{f['examples']} agree; "
                      f"{f['problems_all_agree']}/{f['problems']} problems agree on all; {f['statuses']}")  # fmt: skip
        print(f"function-level cases: {s['cases']}; requires {s['requires']}; ensures {s['ensures']}")
        print(f"postconditions decided on all their cases: {s['postconditions_decided']}/"
              f"{s['postconditions_with_cases']} problems with cases ({len(paths)} problems)")  # fmt: skip
        print("ensures UNKNOWN reasons:")
        for r, n in s["ensures_unknown_reasons"].items():
            print(f"  {n:5}  {r}")
        print("requires UNKNOWN reasons:")
        for r, n in s["requires_unknown_reasons"].items():
            print(f"  {n:5}  {r}")
        print("ensures FALSE:", s["ensures_false"])
        print("requires FALSE:", s["requires_false"])
        print("not agreeing with the stated output:")
        for d in s["disagreements"]:
            print("  ", *d)
        print("undecided postconditions (first reason):")
        for pid, why in s["undecided_problems"].items():
            print(f"  {pid}: {why[:160]}")
        print(f"({s['seconds']} s)")

    if "erasure" in sections:
        t = time.time()
        rows = [r for rs in _map(_erase_one, paths, args.jobs) for r in rs]
        ok = sum(1 for r in rows if not r[2])
        report["erasure"] = {"ok": ok, "total": len(rows), "failures": [r for r in rows if r[2]],
                             "seconds": round(time.time() - t, 1)}  # fmt: skip
        print(f"erasure: {ok}/{len(rows)} code_spec.rs/verified.rs files compile after erasure "
              f"({report['erasure']['seconds']} s)")  # fmt: skip
        for r in rows:
            if r[2]:
                print("  FAIL", r[0], r[1], r[2][:300].replace("\n", " | "))

    if "erased-examples" in sections:
        t = time.time()
        rows = [r for rs in _map(_erased_run_one, paths, args.jobs) for r in rs]
        for fname in ("code_spec.rs", "verified.rs"):
            mine = [r for r in rows if r[1] == fname]
            ok = sum(r[2] for r in mine)
            tot = sum(r[3] for r in mine)
            probs = sum(1 for r in mine if r[2] == r[3])
            print(f"erased {fname} on the example inputs: {ok}/{tot} cases as the reference; "
                  f"{probs}/{len(mine)} problems identical")  # fmt: skip
            for r in mine:
                if r[2] != r[3]:
                    print(f"  DIFF {r[0]} {r[1]}: {r[2]}/{r[3]} {r[4][:200]}")
        report["erased_examples"] = {"rows": rows, "seconds": round(time.time() - t, 1)}

    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
