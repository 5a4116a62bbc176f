"""Hostile Rust candidates: refused by the policy, or contained by the sandbox when run anyway."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from shared_data import data_path
from veriscale.languages.verus.compile import compile_program, rustc_available
from veriscale.languages.verus.execute import ExecLimits, run_program
from veriscale.languages.verus.forbidden import compile_time_access, forbidden_constructs
from veriscale.sandbox import isolation

DATA = data_path("vericontest")
needs_rustc = pytest.mark.skipif(not rustc_available(), reason="rustc is not installed")
ISO = isolation()


def _alive_with(marker: str) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            state = (d / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmd and state != "Z":
            out.append(int(d.name))
    return out


def _candidate(body: str, prelude: str = "") -> str:
    return f"{prelude}\nimpl Solution {{\n    pub fn reverse(x: i32) -> i32 {{\n{body}\n    }}\n}}\n"


HOSTILE_REFUSED = {
    "env leak": _candidate('let k = std::env::var("OPENAI_API_KEY").unwrap_or_default(); k.len() as i32'),
    "write outside": _candidate('std::fs::write("/tmp/vs_hostile", "x").ok(); x'),
    "include_str": _candidate('let h = include_str!("/etc/hostname"); h.len() as i32'),
    "env! macro": _candidate('let h = env!("HOME"); h.len() as i32'),
    "spawn": _candidate('std::process::Command::new("setsid").arg("sleep").arg("99").spawn().ok(); x'),
    "fork via libc": _candidate("unsafe { fork(); } x", 'extern "C" { fn fork() -> i32; }'),
    "grouped use": _candidate("x", "use std::{io, net::TcpStream};"),
    "renamed std": _candidate("s::process::exit(0)", "use std as s;"),
    "path attribute": _candidate("x", '#[path = "/etc/passwd"] mod m;'),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_REFUSED))
def test_policy_refuses(name: str) -> None:
    assert forbidden_constructs(HOSTILE_REFUSED[name]), name


def test_policy_ignores_comments_strings_and_local_names() -> None:
    ok = _candidate(
        '// std::fs::write, unsafe, include_str!("/etc/hostname")\n'
        'let s = "std::process::exit"; let env = 3; let process = |v: i32| v; process(env + s.len() as i32 + x)',
        "use std::collections::HashMap; use std::io::{self, Read};",
    )
    assert forbidden_constructs(ok) == []
    assert compile_time_access('fn main() { let s = "include_str!(\\"/etc/hostname\\")"; }') == []


@pytest.mark.skipif(not DATA.is_dir(), reason=f"VeriContest data not found at {DATA}")
def test_every_reference_passes_the_policy() -> None:
    files = [p for p in sorted(DATA.glob("*/*/*.rs")) if p.name in ("code.rs", "main.rs")]
    assert len(files) > 900
    assert [p for p in files if forbidden_constructs(p.read_text(encoding="utf-8"))] == []


@needs_rustc
@pytest.mark.skipif(not DATA.is_dir(), reason=f"VeriContest data not found at {DATA}")
def test_engine_verdicts_for_hostile_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    from veriscale.formats.vericontest.dataset import read_problem
    from veriscale.languages.verus.engine import VeriContestEngine
    from veriscale.runtime.engine import OutcomeKind

    monkeypatch.setenv("OPENAI_API_KEY", "sk-hostile-test")
    problem = read_problem(DATA / "leetcode" / "lc7")
    engine = VeriContestEngine(exec_limits=ExecLimits(case_seconds=1.0, memory_mb=1024, output_bytes=1 << 20))
    for name, code in sorted(HOSTILE_REFUSED.items()):
        (out,) = engine.for_task(problem, {"code": code}).runs([{"x": 5}])
        assert out.kind == OutcomeKind.ERROR and out.category == "forbidden_construct", (name, out)
    contained = {
        "infinite loop": ("loop { std::hint::black_box(x); }", {OutcomeKind.TIMEOUT}),
        # stdout is the harness's channel, locked by its main thread: printing blocks until the time limit
        "huge output": ('loop { println!("{}", "A".repeat(1 << 16)); }', {OutcomeKind.TIMEOUT, OutcomeKind.ERROR}),
        "huge stderr": ('loop { eprintln!("{}", "A".repeat(1 << 16)); }', {OutcomeKind.ERROR}),
        "memory bomb": ("let mut v: Vec<Vec<u8>> = Vec::new(); loop { v.push(vec![1u8; 1 << 24]); }",
                        {OutcomeKind.ERROR, OutcomeKind.TIMEOUT}),
        "deep recursion": ("fn r(n: u64) -> u64 { if n == 0 { 0 } else { 1 + r(std::hint::black_box(n) - 1) } }"
                           " r(u64::MAX) as i32", {OutcomeKind.ERROR, OutcomeKind.TIMEOUT}),
    }  # fmt: skip
    # memory and stack exhaustion end in an ERROR, or a TIMEOUT when a loaded machine is slow to fill them
    for name, (body, kinds) in contained.items():
        t0 = time.monotonic()
        (out,) = engine.for_task(problem, {"code": _candidate(body)}).runs([{"x": 5}])
        assert out.kind in kinds, (name, out)
        assert time.monotonic() - t0 < 60, name  # never hangs (generous: compile time included)
    (good,) = engine.for_task(problem, {"code": problem.reference_source}).runs([{"x": 123}])
    assert good.kind == OutcomeKind.VALUE and good.value == 321


RUNTIME_HOSTILE = """
use std::io::Read;
fn main() {
    let mut cmd = String::new();
    std::io::stdin().read_to_string(&mut cmd).unwrap();
    let cmd = cmd.trim();
    if cmd == "env" { for (k, v) in std::env::vars() { println!("{}={}", k, v); } }
    if let Some(p) = cmd.strip_prefix("write ") { println!("{:?}", std::fs::write(p, "x").is_ok()); }
    if let Some(m) = cmd.strip_prefix("setsid ") {
        let _ = std::process::Command::new("setsid").arg("sleep").arg(m).spawn();
        let _ = std::process::Command::new("sleep").arg(m).spawn();
    }
    if let Some(m) = cmd.strip_prefix("bomb ") {
        loop { let _ = std::process::Command::new("sleep").arg(m).spawn(); }
    }
}
"""


@needs_rustc
def test_runtime_containment_of_a_program_the_policy_would_refuse(monkeypatch: pytest.MonkeyPatch) -> None:
    """Defence in depth: even a program using std::env/fs/process is contained by the sandbox."""
    assert forbidden_constructs(RUNTIME_HOSTILE)  # never run for a candidate; compiled directly here
    comp = compile_program(RUNTIME_HOSTILE)
    assert comp.ok, comp.errors
    assert comp.binary is not None
    monkeypatch.setenv("OPENAI_API_KEY", "sk-hostile-test")
    lim = ExecLimits(case_seconds=2.0, memory_mb=512, output_bytes=1 << 20)
    env = run_program(comp.binary, "env", lim)
    assert env.ok and "PATH=" in env.stdout and "sk-hostile-test" not in env.stdout
    target = Path("/tmp") / f"vs_rust_escape_{os.getpid()}"
    wrote = run_program(comp.binary, f"write {target}", lim)
    assert not target.exists()
    if ISO.filesystem:
        assert wrote.stdout.strip() == "false"
    mark = f"{5000 + os.getpid() % 1000}.{time.monotonic_ns() % 100000:05d}"
    res = run_program(comp.binary, f"setsid {mark}", lim)
    assert res.status == "ok"
    assert _alive_with(mark) == []
    if ISO.helper and (os.geteuid() != 0 or ISO.drop_uid is not None):
        res = run_program(comp.binary, f"bomb {mark}", lim)
        assert res.status in ("timeout", "panic", "error", "crash"), res
        assert _alive_with(mark) == []


@needs_rustc
def test_compile_time_file_access_never_reaches_rustc() -> None:
    comp = compile_program('fn main() { println!("{}", include_str!("/etc/hostname")); }', use_cache=False)
    assert not comp.ok and comp.binary is None
    assert "include_str!" in comp.forbidden


@pytest.mark.skipif(not DATA.is_dir(), reason=f"VeriContest data not found at {DATA}")
def test_refusal_comes_before_parsing_the_candidate() -> None:
    """Found by the fuzz campaign: an ``extern "C"`` block must be refused, not reported as malformed."""
    from veriscale.formats.vericontest.dataset import read_problem
    from veriscale.languages.verus.engine import VeriContestEngine

    problem = read_problem(DATA / "leetcode" / "lc7")
    (out,) = (
        VeriContestEngine().for_task(problem, {"code": HOSTILE_REFUSED["fork via libc"]}).runs([{"x": 1}])
    )
    assert out.category == "forbidden_construct", out
