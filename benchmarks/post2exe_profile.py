"""Where a compiled Post2Exe checker's CPU goes: the throughput bench's cases, the checker binary run alone.

    PYTHONPATH=src .venv/bin/python benchmarks/post2exe_profile.py --only cf1006C cf1077C
        [--out /tmp/p2e-prof] [--cases 200] [--opt 3] [--repeat 5] [--reuse] [--perf]

For each problem: the cases of ``bench_post2exe_throughput.py`` (the same
generated inputs with the reference's outputs, description examples and one
mutated output each) are written to ``OUT/<id>/cases.jsonl`` (one case per
line, the test-file form) unless ``--reuse`` finds them there; the checker
source the translator emits NOW is written to ``OUT/<id>/post2exe.rs`` and
compiled (``--opt``) against the cached runtime. Then the binary runs on
``cases.jsonl`` ``--repeat`` times in a row (the file fed that many times to
one process: start-up is paid once) and the CPU seconds of that process
(user + sys, from ``wait4``) are printed, with the checks per CPU second and
the steps the checker reported. The verdict lines (steps left out) are kept
in ``OUT/<id>/verdicts.<tag>.jsonl``: ``--tag`` names a run, and when
``verdicts.base.jsonl`` exists every later tag is compared with it line by
line (a change of the emitted code must leave every verdict and reason as
it was). ``--perf`` records the run under ``perf record`` and prints the top
of ``perf report`` (symbols of the runtime library and the checker).

The checker is run directly (not in the sandbox): it is the translation of
a benchmark's own ``spec.rs``, the run is a developer's measurement, and
``perf`` needs the plain process. Figures move with the machine's load
(CPU seconds much less than wall seconds).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from post2exe_cases import generated_cases  # noqa: E402

from veriscale.formats.vericontest.dataset import discover_problems, read_problem  # noqa: E402
from veriscale.languages.verus.engine import VeriContestEngine  # noqa: E402
from veriscale.languages.verus.post2exe.build import CHECKER_FLAGS, compile_checker  # noqa: E402
from veriscale.languages.verus.post2exe.checker import CHECK_FUEL, build_checker  # noqa: E402
from veriscale.languages.verus.post2exe.crosscheck import example_cases, mutated_outputs  # noqa: E402
from veriscale.languages.verus.post2exe.translate import translate  # noqa: E402


def _flags(opt: str) -> tuple[str, ...]:
    return tuple(f"opt-level={opt}" if f.startswith("opt-level=") else f for f in CHECKER_FLAGS)


def _cases(p: Any, te: Any, count: int) -> list[str]:
    ck = build_checker(p)
    if ck is None or not ck.ok:
        return []
    cases = generated_cases(p, te, ck, count=count) + example_cases(p, te)
    ck.close()
    cases = cases + mutated_outputs(cases, per_case=1)
    enc = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    return [enc({"input": te._json_inputs(i), "output": te._json_output(o)}) for i, o in cases]


def _run(binary: Path, data: bytes, fuel: str, perf: Path | None) -> tuple[bytes, float]:
    """(stdout, wall seconds) of the checker on ``data`` (its CPU: the caller's children times)."""
    cmd = [str(binary)]
    if perf is not None:
        cmd = ["perf", "record", "-q", "-g", "-o", str(perf), "--", *cmd]
    env = {**os.environ, "VERISCALE_POST2EXE_FUEL": fuel}
    w = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    out, _ = proc.communicate(data)
    return out, time.perf_counter() - w


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data" / "vericontest"))
    ap.add_argument("--only", nargs="+", required=True)
    ap.add_argument("--out", default="/tmp/p2e-prof")
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--opt", default="3")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--fuel", default=str(CHECK_FUEL))
    ap.add_argument("--tag", default="base")
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--perf", action="store_true")
    args = ap.parse_args()
    engine = VeriContestEngine(post2exe=False)
    dirs = {d.name: d for d in discover_problems(args.data)}
    for pid in args.only:
        p = read_problem(dirs[pid])
        d = Path(args.out) / pid
        d.mkdir(parents=True, exist_ok=True)
        cf = d / "cases.jsonl"
        if not (args.reuse and cf.is_file()):
            cf.write_text(
                "".join(x + "\n" for x in _cases(p, engine.for_task(p), args.cases)), encoding="utf-8"
            )
        lines = cf.read_bytes()
        n = lines.count(b"\n")
        ck = translate(p.spec, [q.name for q in p.ref_signature.params], target=p.signature.name)
        (d / "post2exe.rs").write_text(ck.source, encoding="utf-8")
        t = time.process_time()
        comp = compile_checker(ck.source, flags=_flags(args.opt))
        if not comp.ok:
            print(f"{pid}: does not compile:\n{comp.errors[:3000]}")
            continue
        compile_s = time.process_time() - t
        perf = d / f"perf.{args.tag}.data" if args.perf else None
        before = os.times()
        out, wall = _run(comp.binary, lines * args.repeat, args.fuel, perf)
        after = os.times()
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        got = out.decode("utf-8", "replace").splitlines()
        steps = 0
        plain = []
        for ln in got[:n]:
            o = json.loads(ln)
            steps += int(o.pop("requires_steps", 0) or 0) + int(o.pop("ensures_steps", 0) or 0)
            plain.append(json.dumps(o, sort_keys=True))
        (d / f"verdicts.{args.tag}.jsonl").write_text("".join(x + "\n" for x in plain), encoding="utf-8")
        diff = ""
        base = d / "verdicts.base.jsonl"
        if args.tag != "base" and base.is_file():
            old = base.read_text(encoding="utf-8").splitlines()
            bad = [k for k, (a, b) in enumerate(zip(old, plain)) if a != b]
            diff = f"; vs base: {len(bad)} of {min(len(old), len(plain))} verdict lines differ"
            if len(old) != len(plain):
                diff += f" (line counts {len(old)} / {len(plain)})"
            for k in bad[:3]:
                diff += (
                    f"\n    line {k}: base {old[k][:300]}\n    {' ' * len(str(k))}   now  {plain[k][:300]}"
                )
        total = n * args.repeat
        print(f"{pid:9} {n} cases x{args.repeat}: {cpu:.3f} CPU s ({wall:.3f} wall), {total / max(cpu, 1e-9):,.0f} "
              f"checks/CPU s, {steps:,} steps per pass, compile {compile_s:.1f}s{diff}\n    binary {comp.binary}", flush=True)  # fmt: skip
        if perf is not None:
            rep = subprocess.run(["perf", "report", "-i", str(perf), "--no-children", "--stdio", "-q",
                                  "--percent-limit", "1.5", "-g", "none"], capture_output=True, text=True)  # fmt: skip
            print(rep.stdout[:6000])


if __name__ == "__main__":
    main()
