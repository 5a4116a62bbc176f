"""Time and size of ``veriscale report``: build the site from evaluation / run folders and print figures.

    python benchmarks/bench_report.py EVAL_OR_RUN... [--out SITE] [--repeat 3]

Prints, per build, the wall-clock and CPU seconds of load + views + render + write, then the
number of pages and files, the size on disk (sum of file sizes) and the largest pages. The
target (issue 22) is at most 10 s for 5 suites × 189 tasks. CPU seconds are the figure to
compare on a loaded machine; wall-clock seconds there are pessimistic.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from veriscale.report.load import load_inputs
from veriscale.report.site import write_site
from veriscale.report.views import build_views


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, help="site folder (default: a temporary folder)")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="veriscale-report-"))
    for i in range(args.repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        inputs = load_inputs(args.paths)
        w1, c1 = time.perf_counter(), time.process_time()
        site = build_views(inputs)
        w2, c2 = time.perf_counter(), time.process_time()
        result = write_site(site, out, len(args.paths))
        w3, c3 = time.perf_counter(), time.process_time()
        print(
            f"build {i + 1}: {w3 - w0:.2f} s wall, {c3 - c0:.2f} s CPU "
            f"(CPU/wall: load {c1 - c0:.2f}/{w1 - w0:.2f}, views {c2 - c1:.2f}/{w2 - w1:.2f}, "
            f"render+write {c3 - c2:.2f}/{w3 - w2:.2f} s)"
        )
    files = [p for p in out.rglob("*") if p.is_file()]
    suites = len(inputs.suites)
    tasks = sum(1 for k in site.pages if k.startswith("tasks/"))
    print(
        f"inputs: {len(inputs.evaluations)} evaluation(s), {len(inputs.runs)} run(s); {suites} suites, {tasks} task pages"
    )
    print(f"site: {result.pages} pages, {len(files)} files, {result.bytes / 1e6:.2f} MB on disk: {out}")
    for p in sorted(files, key=lambda p: (-p.stat().st_size, str(p)))[:3]:
        print(f"  largest: {p.relative_to(out)} {p.stat().st_size / 1e3:.0f} kB")
    if result.problems:
        print(f"{len(result.problems)} problem(s) reading the inputs, e.g. {result.problems[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
