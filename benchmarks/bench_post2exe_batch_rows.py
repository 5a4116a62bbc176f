"""The engine's side of a compiled batch: CPU per row of ``check_batch`` in this process, and its JSON part.

    PYTHONPATH=src python benchmarks/bench_post2exe_batch_rows.py --only lc2395 lc523 cf1077C
        [--data DIR] [--cases 200] [--repeat 5] [--chunk 64]

``bench_post2exe_throughput.py`` hands the checker rows already in JSON form;
the suite builder and ``check`` hand the engine decoded values
(``VeriContestTaskEngine.check_batch``), which turns each row into the
checker's JSON form (``_json_inputs``/``_json_output``) before the checker
sees it. Per problem: the cases of the throughput benchmark (generated inputs
with the reference's outputs, plus mutated outputs), in ``--chunk``-row
batches (the builder's ``CHECK_CHUNK``) through one running checker process;
printed in µs per row of this process's CPU (``time.process_time``: the
checker process's own CPU is not in it), medians over ``--repeat`` passes:

* ``json``: the conversion alone (``_json_inputs`` + ``_json_output`` of every row);
* ``check_batch``: the whole call (conversion, encoding, exchange, verdicts,
  and the Python evaluator on rows the checker leaves undecided, if any).

Run it at two commits to compare (the figures are CPU, so a loaded machine
still skews them: compare runs made under similar load).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from post2exe_cases import generated_cases, named_problems  # noqa: E402

from veriscale.languages.verus.engine import VeriContestEngine  # noqa: E402
from veriscale.languages.verus.post2exe.checker import build_checker  # noqa: E402
from veriscale.languages.verus.post2exe.crosscheck import mutated_outputs  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data" / "vericontest"))
    ap.add_argument("--only", nargs="+", required=True)
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--chunk", type=int, default=64)
    args = ap.parse_args()
    for pid, p, te in named_problems(args.data, args.only, VeriContestEngine()):
        ck = build_checker(p)
        if ck is None or not ck.ok:
            print(f"{pid}: no compiled checker")
            continue
        cases = generated_cases(p, te, ck, count=args.cases)
        ck.close()
        pairs = cases + mutated_outputs(cases, per_case=1)
        chunks = [pairs[k : k + args.chunk] for k in range(0, len(pairs), args.chunk)]
        te.check_batch(chunks[0], True)  # the checker process starts (not measured)
        conv: list[float] = []
        whole: list[float] = []
        for _ in range(args.repeat):
            t = time.process_time()
            for part in chunks:
                for inputs, output in part:
                    te._json_inputs(inputs)
                    te._json_output(output)
            conv.append((time.process_time() - t) / len(pairs))
            t = time.process_time()
            for part in chunks:
                te.check_batch(part, True)
            whole.append((time.process_time() - t) / len(pairs))
        c, w = 1e6 * statistics.median(conv), 1e6 * statistics.median(whole)
        print(
            f"{pid:8} rows {len(pairs):4} | json {c:6.2f} us/row | check_batch (this process) {w:6.2f} us/row"
        )


if __name__ == "__main__":
    main()
