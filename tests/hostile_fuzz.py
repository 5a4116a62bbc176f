"""A fuzz campaign of hostile candidates and corrupted datasets (shared by a test slice and a benchmark).

``run_campaign(sizes, work)`` generates, from a seeded ``random.Random``:

* **Lean candidates** for the embedded example tasks (CodeGen ``code`` bodies
  and SpecGen postconditions): non-termination, deep recursion, memory bombs,
  exponential work, IO / escape attempts, garbage text, deep nesting and
  random mutations of the ground truth; each scored by the evaluation job
  (``evaluate.harness.run_job``) under small fuel limits;
* **Rust candidates** for one VeriContest problem: policy-refused escapes
  (env, files, processes, network, compile-time file access, foreign code,
  with the obfuscations the policy handles), runaway programs that pass the
  policy (infinite loops, memory bombs, deep recursion, huge output, panics)
  and garbage; compiled and run up to a compile budget, the rest only checked
  by the policy;
* **runtime containment runs**: one program that would be refused (it uses
  ``std::env``/``fs``/``process``/``net``) compiled directly and run many times
  with hostile commands, to measure the sandbox itself;
* **corrupted datasets**: copies of Verina-format tasks and VeriContest
  problems with one file truncated, bit-flipped, made non-UTF-8, emptied,
  removed, or with values of the wrong type or missing sections; each read by
  ``check-data``, ``stats``, the evaluator and (a share of them) the ``check``
  command.

Measured: tracebacks (exceptions escaping an API that should report, "internal
error" results, CLI runs ending in an exception), runs exceeding their limit
plus slack, processes left (processes whose command line has the campaign's
marker, or that descend from the campaign's process), files written outside sandbox
directories (files named with the campaign's marker anywhere writable), a
secret visible to a candidate (a canary in the environment), peak memory
(this process and its children), wall time.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import resource
import shutil
import string
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared_data import REPO_ROOT

ROOT = REPO_ROOT
DATA = ROOT.parent / "shared" / "data"
SECRET = "vs-canary-secret-7f3a"


@dataclass
class Sizes:
    lean: int = 1000  # each a CodeGen and a SpecGen candidate
    rust: int = 8000
    rust_compile_budget: int = 20
    runtime_runs: int = 200
    verina_variants: int = 800
    vericontest_variants: int = 300
    cli_share: float = 0.05  # share of corrupted variants also run through the CLI


@dataclass
class Report:
    counts: Counter[str] = field(default_factory=Counter)
    tracebacks: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    worker_deaths: list[str] = field(default_factory=list)
    secrets_seen: int = 0
    files_outside: list[str] = field(default_factory=list)
    processes_left: list[str] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    peak_rss_mb: float = 0.0
    peak_child_rss_mb: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "counts": dict(sorted(self.counts.items())),
            "tracebacks": len(self.tracebacks),
            "traceback_examples": self.tracebacks[:5],
            "worker_deaths": len(self.worker_deaths),
            "worker_death_examples": self.worker_deaths[:5],
            "hangs": len(self.hangs),
            "hang_examples": self.hangs[:5],
            "processes_left": len(self.processes_left),
            "processes_left_examples": self.processes_left[:5],
            "files_outside_sandbox": len(self.files_outside),
            "secrets_visible": self.secrets_seen,
            "peak_rss_mb": round(self.peak_rss_mb, 1),
            "peak_child_rss_mb": round(self.peak_child_rss_mb, 1),
            "wall_seconds": round(self.seconds, 1),
            "outcomes": dict(sorted(self.outcomes.items())),
        }


def _tb(where: str, exc: BaseException) -> str:
    return f"{where}: {type(exc).__name__}: {exc} | {traceback.format_exc(limit=3)[-300:]}"


# ------------------------------------------------------------------ Lean candidates


def _nest(depth: int) -> str:
    return "(" * depth + "0" + ")" * depth


def _garbage(rng: random.Random, n: int) -> str:
    alphabet = string.printable + "→∀∃λ⟨⟩∧∨¬≠≤≥∑\x00\x7f"
    return "".join(rng.choice(alphabet) for _ in range(n))


def _mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(3)
        i = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 1:
            chars.insert(i, rng.choice("()[]{}:=.,+-*/|0123456789 xsabnfun"))
        elif chars:
            j = rng.randrange(len(chars))
            chars[min(i, len(chars) - 1)], chars[j] = chars[j], chars[min(i, len(chars) - 1)]
    return "".join(chars)


def lean_code_bodies(rng: random.Random, n: int, ground: str) -> list[tuple[str, str, str]]:
    """(family, code_aux, code) for ``sumList (xs : List Nat) : Nat``."""
    out: list[tuple[str, str, str]] = []
    for i in range(n):
        k = rng.randint(1, 10**6)
        fam = i % 12
        if fam == 0:
            out.append(
                ("non-termination", f"def loop{k} (n : Nat) : Nat := loop{k} (n + 1)\n", f"  loop{k} {k}")
            )
        elif fam == 1:
            aux = f"def deep{k} : Nat → Nat\n  | 0 => 0\n  | n + 1 => deep{k} n + 1\n"
            out.append(("deep recursion", aux, f"  deep{k} {10**7 + k}"))
        elif fam == 2:
            out.append(("memory bomb", "", f"  (List.replicate {10**8 + k} 1).length"))
        elif fam == 3:
            out.append(("memory bomb", "", f"  (List.range {10**9 + k}).foldl (· + ·) 0"))
        elif fam == 4:
            aux = f"def fib{k} : Nat → Nat\n  | 0 => 0\n  | 1 => 1\n  | n + 2 => fib{k} n + fib{k} (n + 1)\n"
            out.append(("exponential", aux, f"  fib{k} {60 + k % 40}"))
        elif fam == 5:
            attempts = [
                f'  (IO.getEnv "OPENAI_API_KEY{k}").length',
                f'  unsafe (IO.FS.writeFile "/tmp/vs_fuzz_{k}" "x")',
                f'  (IO.Process.spawn {{ cmd := "sleep", args := #["{k}"] }}).pid',
                f"  #eval IO.println {k}",
                f'  (System.FilePath.mk "/etc/hostname").toString.length + {k}',
                f"  run_cmd (pure {k})",
            ]
            out.append(("escape attempt", "", attempts[k % len(attempts)]))
        elif fam == 6:
            out.append(("garbage", "", _garbage(rng, rng.randint(1, 400))))
        elif fam == 7:
            out.append(("deep nesting", "", "  " + _nest(rng.randint(500, 20000))))
        elif fam == 8:
            out.append(("huge literal", "", f"  {'9' * rng.randint(1000, 100000)} % {k + 1}"))
        elif fam == 9:
            out.append(("huge string", "", f'  ("{"a" * rng.randint(1000, 200000)}").length'))
        elif fam == 10:
            out.append(("mutated ground truth", "", _mutate(rng, ground)))
        else:
            aux = f"partial def spin{k} (n : Nat) : Nat := spin{k} n\n"
            out.append(("partial / sorry", aux, rng.choice([f"  spin{k} {k}", "  sorry", f"  by exact {k}"])))
    return out


def _lean_chunk(
    args: tuple[int, list[tuple[str, str, str]], int, float],
) -> list[tuple[str, float, list[Any]]]:
    """Score one chunk of Lean candidates as CodeGen and SpecGen samples (runs in a worker process)."""
    from veriscale.evaluate.generations import Generation, ground_truth_generation
    from veriscale.evaluate.harness import Job, run_job
    from veriscale.examples import tiny_path
    from veriscale.formats.verina.dataset import read_task

    start, part, fuel, seconds = args
    task_dir = tiny_path() / "tiny_1"
    gt = ground_truth_generation(read_task(task_dir))
    code = [
        Generation(task_id="tiny_1", sample=start + j, kinds=("code",), code_aux=aux, code=body)
        for j, (_f, aux, body) in enumerate(part)
    ]
    spec = [
        Generation(task_id="tiny_1", sample=start + j, kinds=("spec",), precond=gt.precond,
                   postcond_aux=aux, postcond="  result = " + body.strip()[:20000])
        for j, (_f, aux, body) in enumerate(part)
    ]  # fmt: skip
    out = []
    for kind, samples in (("code", code), ("spec", spec)):
        job = Job("fuzz", str(task_dir), "tiny_1", kind, tuple(samples), "native",
                  {"seconds": seconds, "fuel": fuel}, True, seconds, 2, None, False, fuel * 5)  # fmt: skip
        t0 = time.monotonic()
        rows = run_job(job)
        metrics = [
            {n: (m.to_json() if hasattr(m, "to_json") else m) for n, m in row["metrics"].items()}
            for row in rows
        ]
        out.append((kind, time.monotonic() - t0, metrics))
    return out


def run_lean(report: Report, rng: random.Random, n: int, fuel: int = 100_000, seconds: float = 1.0) -> None:
    """Lean candidates in a worker process, as ``evaluate`` runs them: a worker that dies is counted."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from veriscale.evaluate.generations import ground_truth_generation
    from veriscale.examples import tiny_path
    from veriscale.formats.verina.dataset import read_task

    gt = ground_truth_generation(read_task(tiny_path() / "tiny_1"))
    bodies = lean_code_bodies(rng, n, gt.code)
    chunk = 50
    pool = ProcessPoolExecutor(max_workers=1)
    try:
        for start in range(0, len(bodies), chunk):
            part = bodies[start : start + chunk]
            try:
                results = pool.submit(_lean_chunk, (start, part, fuel, seconds)).result()
            except BrokenProcessPool:
                # the evaluator's pool retries such a job alone and reports it as an internal error
                report.counts["lean worker deaths (fatal errors in the evaluator)"] += 1
                report.worker_deaths.append(f"lean chunk {start}: families {sorted({f for f, _, _ in part})}")
                pool.shutdown(wait=True, cancel_futures=True)
                pool = ProcessPoolExecutor(max_workers=1)
                continue
            except Exception as exc:
                report.tracebacks.append(_tb("lean run_job", exc))
                continue
            for kind, elapsed, metrics in results:
                # every check is bounded by ``seconds`` (1.5x + 0.5 backstop) and a metric stops after 2 timeouts
                bound = len(part) * 8 * (1.5 * seconds + 0.5) + 30
                if elapsed > bound:
                    report.hangs.append(f"lean {kind} chunk {start}: {elapsed:.0f} s > {bound:.0f} s")
                for sample in metrics:
                    for d in sample.values():
                        reason = str(d.get("reason", ""))
                        if "internal error" in reason:
                            report.tracebacks.append(f"lean {kind} chunk {start}: {reason[:300]}")
                        report.outcomes[f"lean {kind}: {d.get('score')} {d.get('error') or ''}".strip()] += 1
                report.counts[f"lean {kind} candidates"] += len(part)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# ------------------------------------------------------------------ Rust candidates


def _cand(body: str, prelude: str = "") -> str:
    return f"{prelude}\nimpl Solution {{\n    pub fn reverse(x: i32) -> i32 {{\n{body}\n    }}\n}}\n"


def rust_candidates(rng: random.Random, n: int, token: str) -> list[tuple[str, str]]:
    """(family, source) for LeetCode 7 ``reverse(x: i32) -> i32``."""
    out: list[tuple[str, str]] = []
    escapes = [
        ('let k = std::env::var("OPENAI_API_KEY").unwrap_or_default(); k.len() as i32 + {k}', ""),
        ('std::fs::write("/tmp/vs_fuzz_{t}_{k}", "x").ok(); x', ""),
        ('let _ = File::create("/tmp/vs_fuzz_{t}_{k}"); x', "use std::fs::File;"),
        ('let _ = TcpStream::connect("1.1.1.1:{k}"); x', "use std::{{io, net::TcpStream}};"),
        ('s::process::Command::new("setsid").arg("sleep").arg("{t}").spawn().ok(); x', "use std as s;"),
        ("unsafe {{ fork(); }} x + {k}", 'extern "C" {{ fn fork() -> i32; }}'),
        ('let h = include_str!("/etc/hostname"); h.len() as i32 + {k}', ""),
        ('let h = r#include_bytes!("/etc/passwd"); h.len() as i32 + {k}', ""),
        ('let h = env!("HOME"); h.len() as i32 + {k}', ""),
        ("x + {k}", '#[path = "/etc/passwd"] mod m{k};'),
        ('unsafe {{ core::arch::asm!("nop"); }} x', ""),
        ("x + {k}", '#[no_mangle] pub extern "C" fn main{k}() {{}}'),
        ('let _ = std::process::Command::new("sh").arg("-c").arg("echo {t}").output(); x', ""),
        ("process::exit({k})", "use std::*;"),
        ("x + {k}", "extern crate libc;"),
        ('let p = std::path::Path::new("/etc/hostname").exists(); if p {{ 1 }} else {{ {k} }}', ""),
    ]
    runaway = [
        ("infinite loop", "loop {{ std::hint::black_box(x + {k}); }}"),
        ("memory bomb", "let mut v: Vec<Vec<u8>> = Vec::new(); loop {{ v.push(vec![{b}u8; 1 << 24]); }}"),
        ("deep recursion", "fn r(n: u64) -> u64 {{ if n == 0 {{ 0 }} else {{ 1 + r(std::hint::black_box(n) - 1) }} }}"
                           " r(u64::MAX - {k}) as i32"),
        ("huge stderr", 'loop {{ eprintln!("{{}}", "A".repeat(1 << 16)); }}'),
        ("huge stdout", 'loop {{ println!("{{}}", "B".repeat({k} % 65536 + 1)); }}'),
        ("panic", 'panic!("boom {k}")'),
        ("overflow", "let y: i32 = i32::MAX - {b}; y + x + {k}"),
        ("slow", "let mut s = 0u64; for i in 0..(1u64 << 40) {{ s = s.wrapping_add(i ^ {k}); }} s as i32"),
        ("threads", "let hs: Vec<_> = (0..10000).map(|i| std::thread::spawn(move || i + {k})).collect(); hs.len() as i32"),
    ]  # fmt: skip
    for i in range(n):
        k = rng.randint(1, 10**6)
        fam = i % 4
        if fam in (0, 1):
            body, prelude = escapes[rng.randrange(len(escapes))]
            src = _cand(body.format(k=k, t=token), prelude.format(k=k, t=token))
            if fam == 1:  # the same escape hidden among comments, strings and whitespace
                src = f'// "std::fs" {k}\n/* unsafe {{ }} */\n' + src.replace("\n", "\n  \n")
            out.append(("escape", src))
        elif fam == 2:
            name, body = runaway[rng.randrange(len(runaway))]
            out.append((name, _cand(body.format(k=k, b=rng.randint(0, 255)))))
        else:
            garbage = _garbage(rng, rng.randint(1, 300))
            out.append(("garbage", rng.choice([garbage, _cand(garbage), _cand("x " + garbage)])))
    return out


def run_rust(report: Report, rng: random.Random, n: int, budget: int, token: str, work: Path) -> None:
    from veriscale.formats.vericontest.dataset import read_problem
    from veriscale.languages.verus.compile import rustc_available
    from veriscale.languages.verus.engine import VeriContestEngine
    from veriscale.languages.verus.execute import ExecLimits
    from veriscale.languages.verus.forbidden import forbidden_constructs

    prob_dir = DATA / "vericontest" / "leetcode" / "lc7"
    cands = rust_candidates(rng, n, token)
    can_run = rustc_available() and prob_dir.is_dir()
    problem = read_problem(prob_dir) if can_run else None
    lim = ExecLimits(case_seconds=1.0, memory_mb=1024, output_bytes=1 << 20)
    engine = VeriContestEngine(exec_limits=lim, cache=str(work / "rust-cache"))
    compiled = 0
    for family, src in cands:
        try:
            refused = bool(forbidden_constructs(src))
        except Exception as exc:
            report.tracebacks.append(_tb(f"rust policy ({family})", exc))
            continue
        report.counts["rust candidates"] += 1
        if refused:
            report.outcomes[f"rust {family}: refused (forbidden_construct)"] += 1
            if family == "escape" and problem is not None and rng.random() < 0.02:
                (out,) = engine.for_task(problem, {"code": src}).runs([{"x": 7}])
                if out.category != "forbidden_construct":
                    report.tracebacks.append(f"rust escape not refused by the engine: {out}")
            continue
        if family == "escape":
            report.tracebacks.append(f"rust escape passed the policy: {src[:200]!r}")
            continue
        if problem is None or compiled >= budget:
            report.outcomes[f"rust {family}: passes the policy (not compiled: budget)"] += 1
            continue
        compiled += 1
        t0 = time.monotonic()
        try:
            (out,) = engine.for_task(problem, {"code": src}).runs([{"x": rng.randint(-1000, 1000)}])
        except Exception as exc:
            report.tracebacks.append(_tb(f"rust run ({family})", exc))
            continue
        elapsed = time.monotonic() - t0
        if elapsed > 300 + 3 * lim.case_seconds:  # compile limit + run limit (+ slack)
            report.hangs.append(f"rust {family}: {elapsed:.0f} s")
        report.counts["rust candidates compiled and run"] += 1
        report.outcomes[f"rust {family}: {out.kind.value} {out.category}".strip()] += 1


RUNTIME_HOSTILE = r"""
use std::io::{Read, Write};
fn main() {
    let mut cmd = String::new();
    std::io::stdin().read_to_string(&mut cmd).unwrap();
    let mut it = cmd.trim().splitn(2, ' ');
    let what = it.next().unwrap_or("");
    let arg = it.next().unwrap_or("");
    match what {
        "env" => { for (k, v) in std::env::vars() { println!("{}={}", k, v); } }
        "write" => { for d in ["/tmp", "/dev/shm", "/var/tmp", "."] {
            let p = format!("{}/{}", d, arg); println!("{} {:?}", p, std::fs::write(&p, "x").is_ok()); } }
        "home" => { if let Ok(h) = std::env::var("HOME") { let _ = std::fs::write(format!("{}/{}", h, arg), "x"); } }
        "setsid" => { let _ = std::process::Command::new("setsid").arg("sleep").arg(arg).spawn();
                      let _ = std::process::Command::new("sh").arg("-c").arg(format!("sleep {} &", arg)).spawn(); }
        "bomb" => { loop { let _ = std::process::Command::new("sleep").arg(arg).spawn(); } }
        "net" => { println!("{:?}", std::net::TcpStream::connect("1.1.1.1:80").is_ok()); }
        "out" => { let s = "C".repeat(1 << 16); let mut o = std::io::stdout(); loop { if o.write_all(s.as_bytes()).is_err() { break; } } }
        "mem" => { let mut v: Vec<Vec<u8>> = Vec::new(); loop { v.push(vec![1u8; 1 << 24]); } }
        "spin" => { loop { std::hint::black_box(0); } }
        "threads" => { let hs: Vec<_> = (0..100000).map(|_| std::thread::spawn(|| std::thread::sleep(std::time::Duration::from_secs(30)))).collect(); println!("{}", hs.len()); }
        _ => {}
    }
}
"""


def run_runtime(report: Report, rng: random.Random, runs: int, token: str) -> None:
    from veriscale.languages.verus.compile import compile_program, rustc_available
    from veriscale.languages.verus.execute import ExecLimits, run_program
    from veriscale.sandbox import isolation

    if not rustc_available():
        report.counts["runtime runs skipped (no rustc)"] += 1
        return
    comp = compile_program(RUNTIME_HOSTILE)
    if not comp.ok or comp.binary is None:
        report.tracebacks.append(f"runtime program does not compile: {comp.errors[:300]}")
        return
    iso = isolation()
    bomb_ok = iso.helper and (os.geteuid() != 0 or iso.drop_uid is not None)
    lim = ExecLimits(case_seconds=1.0, memory_mb=512, output_bytes=1 << 20)
    cmds = ["env", "write", "home", "setsid", "net", "out", "mem", "spin", "threads"] + (
        ["bomb"] if bomb_ok else []
    )
    for i in range(runs):
        what = cmds[i % len(cmds)]
        arg = f"{token}_{i}" if what in ("write", "home") else f"{7000 + rng.randint(0, 999)}.{token[-4:]}"
        t0 = time.monotonic()
        try:
            res = run_program(comp.binary, f"{what} {arg}", lim)
        except Exception as exc:
            report.tracebacks.append(_tb(f"runtime {what}", exc))
            continue
        elapsed = time.monotonic() - t0
        if elapsed > lim.case_seconds + 10:  # limit + the sandbox's grace period
            report.hangs.append(f"runtime {what}: {elapsed:.1f} s")
        if SECRET in res.stdout or SECRET in res.stderr:
            report.secrets_seen += 1
        report.counts["runtime containment runs"] += 1
        report.outcomes[f"runtime {what}: {res.status}"] += 1


# ------------------------------------------------------------------ corrupted datasets


def _corrupt_bytes(rng: random.Random, data: bytes) -> bytes:
    op = rng.randrange(6)
    if op == 0 or not data:
        return b""
    if op == 1:
        return data[: rng.randrange(len(data))]
    if op == 2:
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        return bytes(b)
    if op == 3:
        i = rng.randrange(len(data))
        return data[:i] + b"\xff\xfe\xc3(" + data[i:]
    if op == 4:
        return data + data[: rng.randrange(len(data))]
    return bytes(rng.randrange(256) for _ in range(rng.randint(1, 200)))


_WRONG = [None, 0, -1, 1.5, True, "", "x", [], {}, [[[]]], {"a": 1}, 10**40, "#[1, 2", "'", "\u0000"]


def _corrupt_json(rng: random.Random, obj: Any) -> Any:
    """Replace one value somewhere with a wrong-typed one, or drop a key."""
    if isinstance(obj, dict) and obj:
        key = rng.choice(sorted(obj))
        if rng.random() < 0.3:
            return {k: v for k, v in obj.items() if k != key}
        return {**obj, key: _corrupt_json(rng, obj[key]) if rng.random() < 0.6 else rng.choice(_WRONG)}
    if isinstance(obj, list) and obj:
        i = rng.randrange(len(obj))
        new = list(obj)
        new[i] = _corrupt_json(rng, obj[i]) if rng.random() < 0.6 else rng.choice(_WRONG)
        return new
    return rng.choice(_WRONG)


def _verina_sources() -> list[Path]:
    from veriscale.examples import tiny_path

    out = sorted(tiny_path().iterdir())
    v = DATA / "verina"
    if v.is_dir():
        out += [v / n for n in ("verina_basic_1", "verina_basic_7", "verina_advanced_3") if (v / n).is_dir()]
    return [p for p in out if p.is_dir()]


def run_verina_corruptions(report: Report, rng: random.Random, n: int, work: Path, cli_share: float) -> None:
    from typer.testing import CliRunner

    from veriscale.cli.app import _load_commands, app
    from veriscale.evaluate.generations import ground_truth_generation
    from veriscale.evaluate.harness import Job, _load, run_job
    from veriscale.formats.api import FormatError
    from veriscale.formats.check_data import check_dataset
    from veriscale.formats.stats import dataset_stats
    from veriscale.formats.verina.dataset import read_task

    _load_commands()
    runner = CliRunner()
    sources = _verina_sources()
    gts = {p.name: ground_truth_generation(read_task(p)) for p in sources}
    for i in range(n):
        src = sources[i % len(sources)]
        ds = work / f"verina_{i}"
        task = ds / src.name
        shutil.copytree(src, task)
        files = sorted(f.name for f in task.iterdir() if f.suffix in (".json", ".lean"))
        name = rng.choice(files)
        f = task / name
        mode = rng.randrange(3)
        if mode == 0:
            f.write_bytes(_corrupt_bytes(rng, f.read_bytes()))
        elif mode == 1 and f.suffix == ".json":
            try:
                f.write_text(json.dumps(_corrupt_json(rng, json.loads(f.read_text("utf-8")))), "utf-8")
            except ValueError:
                f.write_text("[", "utf-8")
        elif mode == 1:  # a Lean file: drop one benchmark section marker
            lines = f.read_text("utf-8").splitlines()
            marks = [j for j, ln in enumerate(lines) if "!benchmark" in ln]
            if marks:
                del lines[rng.choice(marks)]
            f.write_text("\n".join(lines), "utf-8")
        else:
            f.unlink()
        report.counts["corrupted Verina variants"] += 1
        for label, fn in (("check-data", check_dataset), ("stats", dataset_stats)):
            try:
                fn(ds)
            except FormatError:  # the clear error for an unreadable dataset (DatasetError is one)
                pass
            except Exception as exc:
                report.tracebacks.append(_tb(f"verina {label} {name}", exc))
        _load.cache_clear()
        try:
            rows = run_job(Job("fuzz", str(task), src.name, "code", (gts[src.name],), "native",
                               {"seconds": 2.0, "fuel": 200_000}, True, 2.0, 2, None, True, None))  # fmt: skip
            for row in rows:
                for m in row["metrics"].values():
                    d = m.to_json() if hasattr(m, "to_json") else m
                    if "internal error" in str(d.get("reason", "")):
                        report.tracebacks.append(f"verina evaluate {name}: {str(d.get('reason'))[:300]}")
                    report.outcomes[
                        f"corrupted verina evaluate: {d.get('score')} {d.get('error') or ''}"
                    ] += 1
        except Exception as exc:
            report.tracebacks.append(_tb(f"verina evaluate {name}", exc))
        if rng.random() < cli_share:
            for args in (["check", "--timeout", "2", str(ds)], ["check-data", str(ds)], ["stats", str(ds)]):
                res = runner.invoke(app, args)
                report.counts["corrupted Verina CLI runs"] += 1
                if res.exception is not None and not isinstance(res.exception, SystemExit):
                    report.tracebacks.append(f"CLI {args[0]} on {name}: {res.exception!r}")
                if "Traceback" in res.output:
                    report.tracebacks.append(f"CLI {args[0]} on {name}: traceback in output")
        shutil.rmtree(ds, ignore_errors=True)


def run_vericontest_corruptions(
    report: Report, rng: random.Random, n: int, work: Path, cli_share: float
) -> None:
    from typer.testing import CliRunner

    from veriscale.cli.app import _load_commands, app
    from veriscale.formats.vericontest.dataset import ProblemError, read_problem
    from veriscale.languages.verus.forbidden import forbidden_constructs
    from veriscale.languages.verus.spec import SpecLoadError, SpecProgram

    root = DATA / "vericontest"
    sources = [p for p in (root / "leetcode" / "lc7", root / "codeforces" / "cf1006C") if p.is_dir()]
    if not sources:
        report.counts["corrupted VeriContest variants skipped (no data)"] += 1
        return
    _load_commands()
    runner = CliRunner()
    for i in range(n):
        src = sources[i % len(sources)]
        prob = work / f"vc_{i}" / src.parent.name / src.name
        shutil.copytree(src, prob)
        name = rng.choice(sorted(f.name for f in prob.iterdir()))
        f = prob / name
        if rng.random() < 0.15:
            f.unlink()
        else:
            f.write_bytes(_corrupt_bytes(rng, f.read_bytes()))
        report.counts["corrupted VeriContest variants"] += 1
        try:
            p = read_problem(prob)
        except ProblemError:
            p = None
        except Exception as exc:
            report.tracebacks.append(_tb(f"vericontest read {name}", exc))
            p = None
        if p is not None:
            try:
                forbidden_constructs(p.reference_source)
                SpecProgram.from_source(p.spec, target=p.signature.name)
            except SpecLoadError:
                pass
            except Exception as exc:
                report.tracebacks.append(_tb(f"vericontest spec {name}", exc))
        if rng.random() < cli_share:
            res = runner.invoke(app, ["check", "--timeout", "2", str(prob)])
            report.counts["corrupted VeriContest CLI runs"] += 1
            if res.exception is not None and not isinstance(res.exception, SystemExit):
                report.tracebacks.append(f"CLI check on {src.name}/{name}: {res.exception!r}")
        shutil.rmtree(work / f"vc_{i}", ignore_errors=True)


# ------------------------------------------------------------------ leftovers


def _processes_left(token: str) -> list[str]:
    """Live processes with the campaign's marker, or descending from this process (there should be none)."""
    info: dict[int, tuple[int, str, str]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            stat = (d / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        info[int(d.name)] = (int(stat[1]), stat[0], cmd)
    me = os.getpid()
    # the runtime candidates' sleepers carry "<4 digits>.<last 4 of the token>" in their command line
    marked = re.compile(rf"\b\d{{4}}\.{re.escape(token[-4:])}\b")

    def descends(pid: int) -> bool:
        seen = 0
        while pid in info and seen < 1000:
            pid = info[pid][0]
            if pid == me:
                return True
            seen += 1
        return False

    def own_tracker(pid: int) -> bool:
        # this process's multiprocessing resource tracker (started by a pool an earlier caller used
        # here) lives exactly as long as this process: it is not left behind by a candidate
        ppid, _state, cmd = info[pid]
        return ppid == me and "multiprocessing.resource_tracker" in cmd

    # this process's sandbox server (sandbox.server) also lives as long as this process; the targets it
    # started are its descendants, so they are still listed
    from veriscale.sandbox.server import _server

    server = _server.pid if _server is not None and not _server.dead else -1
    return [
        f"{pid}: {cmd[:100]}"
        for pid, (_ppid, state, cmd) in sorted(info.items())
        if pid not in (me, server)
        and state != "Z"
        and not own_tracker(pid)
        and (marked.search(cmd) or descends(pid))
    ]


def _files_outside(token: str, work: Path) -> list[str]:
    out = []
    places = [Path("/tmp"), Path("/dev/shm"), Path("/var/tmp"), Path.home(), ROOT, Path.cwd()]
    for place in places:
        with contextlib.suppress(OSError):
            for p in place.iterdir():
                if token in p.name and work not in p.parents:
                    out.append(str(p))
    return sorted(set(out))


def run_campaign(sizes: Sizes, work: Path, seed: int = 20261202) -> Report:
    """Run every part; ``work`` is a scratch directory (removed by the caller)."""
    rng = random.Random(seed)
    token = f"vsfuzz{os.getpid()}x{seed % 10000:04d}"
    os.environ["OPENAI_API_KEY"] = SECRET
    report = Report()
    t0 = time.monotonic()
    run_lean(report, rng, sizes.lean)
    run_rust(report, rng, sizes.rust, sizes.rust_compile_budget, token, work)
    run_runtime(report, rng, sizes.runtime_runs, token)
    run_verina_corruptions(report, rng, sizes.verina_variants, work, sizes.cli_share)
    run_vericontest_corruptions(report, rng, sizes.vericontest_variants, work, sizes.cli_share)
    report.seconds = time.monotonic() - t0
    # compiled spec checkers stay running between batches by design (post2exe.session: at most a few per
    # process); ending them here must leave nothing behind, which the count below checks
    from veriscale.languages.verus.post2exe.session import close_all

    close_all()
    time.sleep(0.5)  # let the kernel finish tearing down killed trees
    report.processes_left = _processes_left(token)
    report.files_outside = _files_outside(token, work)
    report.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    report.peak_child_rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return report
