"""End to end: `veriscale bench` / `generate` against a local fake OpenAI server and the replay model.

    PYTHONPATH=src python benchmarks/bench_generate_e2e.py --out /tmp/gen-e2e [--tasks 20]

1. Verina, first N tasks: `bench --task specgen --task codegen --repair 3` against a fake
   OpenAI-compatible HTTP server whose "model" answers with the ground truth except for
   planned faults (bad answers of every extraction category, wrong code/specs) in round 0;
   prints the pass@1 / repair@3 table and the requests the server received.
2. The same command again: prints the requests of the rerun (must be 0).
3. The same bench with `--model replay:OUT/verina/generations/responses.jsonl` in a fresh
   folder: 0 requests, same generations.
4. VeriContest, the first N/2 LeetCode and N/2 Codeforces problems, all six tasks, the same three steps (evaluate scores
   VeriContest only once that support exists; the generations are counted here).
Prints the extraction categories recorded for every planned fault.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "src"))

from generate_fake_model import EXPECTED_CATEGORY, ScriptedModel, plan_faults  # noqa: E402
from llm_fake_server import FakeOpenAI  # noqa: E402

DATA = Path(os.environ.get("VERISCALE_SHARED_DATA", REPO.parent / "shared" / "data"))


def _cli(*args: str, env: dict[str, str]) -> tuple[int, str]:
    cmd = [sys.executable, "-m", "veriscale", *args]
    print("$ veriscale " + " ".join(args), flush=True)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    print(p.stdout)
    tail = [ln for ln in p.stderr.splitlines() if not ln.startswith(("round", "repair round", "feedback"))]
    if tail:
        print("\n".join(tail[-15:]))
    return p.returncode, p.stdout


def _categories(gen_dir: Path) -> dict[tuple[str, str], str | None]:
    out: dict[tuple[str, str], str | None] = {}
    for f in sorted(gen_dir.glob("*/generations.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            kind = f.parent.name
            out[(d["task_id"], kind)] = d.get("extraction_error") or (d.get("meta") or {}).get(
                "extraction_error"
            )
    return out


def _artefacts(path: Path) -> list[dict[str, object]]:
    """The lines without ``meta`` (a replayed answer has no token usage of its own)."""
    return [{k: v for k, v in json.loads(ln).items() if k != "meta"} for ln in path.read_text().splitlines()]


def run(bench: str, root: Path, kinds: list[str], n_tasks: int, out: Path, extra: list[str]) -> None:
    from veriscale.formats.registry import detect_format

    fmt = detect_format(root)
    names = [d.name for d in fmt.task_dirs(root)]
    if fmt.name == "vericontest":  # half LeetCode, half Codeforces (the folder order puts LeetCode first)
        lc, cf = [x for x in names if x.startswith("lc")], [x for x in names if x.startswith("cf")]
        ids = lc[: n_tasks - n_tasks // 2] + cf[: n_tasks // 2]
    else:
        ids = names[:n_tasks]
    faults = plan_faults(ids, kinds)
    model = ScriptedModel(root, ids, faults)
    fake = FakeOpenAI().start()
    fake.responder = model.responder
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"), VERISCALE_CACHE_PATH=str(out / "llm-cache.sqlite"))
    common = ["--benchmark", str(root), "--no-progress", *extra]
    for t in ids:
        common += ["--only", t]
    for k in kinds:
        common += ["--task", k]
    try:
        t0 = time.perf_counter()
        _cli(
            "bench",
            "--model",
            "scripted",
            "--base-url",
            fake.url,
            "--out",
            str(out / bench),
            *common,
            env=env,
        )
        first = fake.count
        print(f"[{bench}] fake server: {first} requests in the first run ({time.perf_counter() - t0:.1f} s)")
        _cli(
            "bench",
            "--model",
            "scripted",
            "--base-url",
            fake.url,
            "--out",
            str(out / bench),
            *common,
            env=env,
        )
        print(f"[{bench}] fake server: {fake.count - first} requests in the rerun")
        replay = out / bench / "generations" / "responses.jsonl"
        before = fake.count
        _cli("bench", "--model", f"replay:{replay}", "--out", str(out / f"{bench}-replay"), *common, env=env)
        print(f"[{bench}] fake server: {fake.count - before} requests during the replay run")
    finally:
        fake.stop()
    a = sorted((out / bench / "generations").glob("*/*.jsonl"))
    b = sorted((out / f"{bench}-replay" / "generations").glob("*/*.jsonl"))
    same = [_artefacts(x) == _artefacts(y) for x, y in zip(a, b, strict=False)]
    print(
        f"[{bench}] replay generations identical to the live run's: {all(same) and len(a) == len(b)} ({len(a)} files)"
    )
    cats = _categories(out / bench / "generations")
    want = EXPECTED_CATEGORY[fmt.name]
    ok = 0
    for (t, k), fault in sorted(faults.items()):
        got = cats.get((t, k), "(no line)")
        good = got == want[fault]
        ok += good
        print(f"[{bench}] fault {fault:12s} {t:22s} {k:16s} -> recorded {got}{'' if good else '  MISMATCH'}")
    print(f"[{bench}] {ok}/{len(faults)} planned faults recorded with the expected category")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--tasks", type=int, default=20)
    ap.add_argument("--only", choices=["verina", "vericontest"], default=None)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only in (None, "verina"):
        run("verina", DATA / "verina", ["specgen", "codegen"], args.tasks, args.out, ["--repair", "3"])
    if args.only in (None, "vericontest"):
        kinds = ["nl2spec", "nl2code", "spec2code", "nl_spec2code", "spec_code2proof", "end2end"]
        run("vericontest", DATA / "vericontest", kinds, args.tasks, args.out, ["--repair", "3"])


if __name__ == "__main__":
    main()
