"""The sandbox's overhead per run: median over many small programs, direct vs sandboxed.

For each program (``/bin/true``, a shell one-liner, and — with rustc — a small
compiled Rust program fed one stdin line), runs it N times directly with
``subprocess.run`` and N times through ``veriscale.sandbox.Sandbox.run``
(private directory created and removed per run, allow-listed environment,
rlimits, new network and mount namespaces where available, subreaper
helper, tree kill), interleaved so load changes hit both alike, and prints
the medians and their difference. Also prints the same for
``rust.execute.run_program`` (which links the binary into a fresh private
directory per call).

    PYTHONPATH=src python benchmarks/bench_sandbox_overhead.py [-n 200]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time

from veriscale.sandbox import Sandbox, SandboxLimits, isolation

RUST = 'use std::io::Read; fn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); println!("{}", s.trim().len()); }'


def _median_ms(xs: list[float]) -> float:
    return round(1000 * statistics.median(xs), 2)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=200, help="runs per program and mode")
    args = ap.parse_args()
    programs: dict[str, tuple[list[str], bytes]] = {
        "/bin/true": (["/bin/true"], b""),
        "sh -c 'echo hi'": (["sh", "-c", "echo hi"], b""),
    }
    binary = None
    try:
        from veriscale.languages.verus.compile import compile_program, rustc_available

        if rustc_available():
            comp = compile_program(RUST)
            if comp.ok and comp.binary is not None:
                binary = comp.binary
                programs["rust (stdin line)"] = ([str(binary)], b"hello sandbox\n")
    except ImportError:
        pass
    report: dict[str, object] = {"isolation": isolation().__dict__, "runs": args.n, "programs": {}}
    lim = SandboxLimits(wall_seconds=10)
    for name, (argv, stdin) in programs.items():
        direct: list[float] = []
        boxed: list[float] = []
        for _ in range(args.n):
            t0 = time.perf_counter()
            subprocess.run(argv, input=stdin, capture_output=True, check=False)
            direct.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            with Sandbox(lim) as sb:  # a fresh private directory per run, as the Rust runner does
                run_argv = argv
                if binary is not None and argv[0] == str(binary):  # staged like rust.execute: a hard link
                    os.link(binary, sb.path / "prog")
                    run_argv = [str(sb.path / "prog")]
                res = sb.run(run_argv, stdin)
            boxed.append(time.perf_counter() - t0)
            assert res.returncode == 0, res.describe()
        report["programs"][name] = {  # type: ignore[index]
            "direct_median_ms": _median_ms(direct),
            "sandbox_median_ms": _median_ms(boxed),
            "overhead_median_ms": round(_median_ms(boxed) - _median_ms(direct), 2),
        }
    if binary is not None:
        from veriscale.languages.verus.execute import ExecLimits, run_program

        times = []
        for _ in range(args.n):
            t0 = time.perf_counter()
            r = run_program(binary, "hello\n", ExecLimits(case_seconds=10))
            times.append(time.perf_counter() - t0)
            assert r.ok, r
        report["rust.execute.run_program_median_ms"] = _median_ms(times)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
