"""VeriContest's model-driven suite stages end to end against a local fake OpenAI-compatible server.

    PYTHONPATH=src python benchmarks/bench_vericontest_model_stages.py --out /tmp/vc-model [--workers 2]

Runs `veriscale scale --model fake-model --tasks lc7,lc509` (subprocesses, as a user
would) with the scripted answers of `tests/suite_fake_model.py`: semantic mutants (a real
bug, one that passes everything, one that fails everything, one that does not compile, a
prose answer) and generators (good, garbage-printing, non-compiling, never-ending). Then:

1. the same command into a fresh `--out` with the same response cache (0 requests expected);
2. the first command again (resume: 0 requests, nothing rebuilt);
3. `veriscale check` on the written Plus and Lite;
4. the same `scale` without a model (the stages are reported as skipped).

Prints the server's request counts, the per-problem fates of every variant and generator,
positives by family and negatives by source, and the wall time of each step (measured on a
shared machine: pessimistic).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "src"))

import suite_fake_model  # noqa: E402
from llm_fake_server import FakeOpenAI  # noqa: E402

DATA = Path(os.environ.get("VERISCALE_SHARED_DATA", REPO.parent / "shared" / "data"))


def _cli(args: list[str], env: dict[str, str]) -> tuple[int, str, float]:
    print("$ veriscale " + " ".join(args), flush=True)
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "veriscale", *args], env=env, capture_output=True, text=True)
    secs = time.perf_counter() - t
    lines = [ln for ln in p.stdout.splitlines() if ln.strip()]
    print("\n".join(lines[-8:]))
    if p.returncode:
        print(p.stderr[-2000:])
    print(f"  ({secs:.1f} s wall)", flush=True)
    return p.returncode, p.stdout, secs


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--workers", default="2")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    server = FakeOpenAI().start()
    server.responder = suite_fake_model.responder
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "VERISCALE_BASE_URL": server.url,
           "VERISCALE_API_KEY": "sk-fake", "VERISCALE_LLM_CONFIG": "", "VERISCALE_MODEL": "",
           "VERISCALE_CACHE": str(a.out / "llm.sqlite"), "COLUMNS": "200"}  # fmt: skip
    base = ["scale", "--benchmark", str(DATA / "vericontest" / "leetcode"), "--tasks", "lc7,lc509",
            "--workers", a.workers]  # fmt: skip
    try:
        rc, _, _ = _cli([*base, "--model", "fake-model", "--out", str(a.out / "run")], env)
        print(f"requests after the first run: {server.count}")
        first = server.count
        _cli([*base, "--model", "fake-model", "--out", str(a.out / "fresh")], env)
        print(f"requests of a rerun into a fresh --out: {server.count - first}")
        _cli([*base, "--model", "fake-model", "--out", str(a.out / "run")], env)
        print(f"requests of resuming the first run: {server.count - first}")
    finally:
        server.stop()
    run = a.out / "run"
    for t in ("lc7", "lc509"):
        prov = json.loads((run / "plus" / "leetcode" / t / "tests" / "provenance.json").read_text())
        fam = Counter(p["family"].split(":")[0] for p in prov["positives"])
        src = Counter(n["source"].split(":")[0] for n in prov["negatives"])
        print(f"\n{t}: {len(prov['positives'])} positives {dict(sorted(fam.items()))}; "
              f"{len(prov['negatives'])} negatives {dict(sorted(src.items()))}")  # fmt: skip
        for v in prov["semantic"]["variants"]:
            print(
                f"  variant {v['variant']}: {v['status']} {v.get('reason') or ''} pass rate {v.get('pass_rate')}"
            )
        for e in prov["semantic"]["answer_errors"]:
            print(f"  semantic answer unusable: {e['reason']}")
        for g in prov["generators"]["programs"]:
            print(f"  generator {g['kind']}: {g['status']} {g.get('reason') or ''} "
                  f"inputs read {g.get('parsed', 0)} garbage {g.get('garbage') or {}}")  # fmt: skip
        print(f"  requires on generator inputs: {prov['generators']['requires']}")
    print()
    for suite in ("plus", "lite"):
        env2 = {**env, "VERISCALE_BASE_URL": ""}
        _cli(["check", str(run / suite)], env2)
    _cli([*base, "--out", str(a.out / "offline")], {**env, "VERISCALE_BASE_URL": ""})
    return rc


if __name__ == "__main__":
    raise SystemExit(main())
