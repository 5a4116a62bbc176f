"""Issue 19's hostile inputs, run through the CLI of one source tree: one JSON object per case.

    PYTHONPATH=src python benchmarks/hostile_before_after.py --src DIR [--case NAME ...] > out.jsonl
    python benchmarks/hostile_before_after.py --markdown before.jsonl after.jsonl

Each case is set up in a fresh temporary directory (copies of the embedded tiny
benchmark and of one real VeriContest problem from ``../shared/data``), then
``python -m veriscale ...`` of the tree under ``--src`` runs as a subprocess
with ``OPENAI_API_KEY`` set to a canary and a timeout. The printed
``observed`` string is derived from what the run produced — exit status,
whether a Python traceback appeared, the key line of output, whether the canary
(or ``/etc/hostname``) showed up, files created in ``/tmp``, processes left
(found by a marker in their command line, or by the process ids recorded before
a kill) — never from what the case is expected to show. Processes found are
killed (by pid) and temporary files removed afterwards. A command or option the
tree does not have shows up as its usage error.

Key lines are chosen by a rule per case (the line naming the planted task, the
last line of output, ...); ties go to the first such line. ``--markdown`` joins
two outputs into the table (case | before | after) of ``docs/sandbox.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import re
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from veriscale.examples import tiny_path

ROOT = Path(__file__).resolve().parents[1]
VERICONTEST = ROOT.parent / "shared" / "data" / "vericontest" / "leetcode"
RUST_PROBLEM = "lc1004"  # a small LeetCode problem with two examples
PROGRESS_PROBLEMS = ("lc1004", "lc1006", "lc1007", "lc1009", "lc1010", "lc1011", "lc1013", "lc1014")
CANARY = "sk-table19-canary-" + secrets.token_hex(6)
TIMEOUT = 600.0

Case = Callable[[Path, Path], dict[str, Any]]


# ------------------------------------------------------------------ running and observing


def run(
    src: Path,
    args: list[str],
    cwd: Path,
    *,
    columns: int = 120,
    timeout: float = TIMEOUT,
) -> dict[str, Any]:
    """``python -m veriscale ARGS`` of the tree ``src``; output, status and seconds."""
    env = {**os.environ, "PYTHONPATH": str(src), "OPENAI_API_KEY": CANARY, "COLUMNS": str(columns)}
    t0 = time.monotonic()
    try:
        p = subprocess.run(
            [sys.executable, "-m", "veriscale", *args],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,  # one stream keeps the order of messages
            text=True,
            errors="replace",
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
        rc, out, err = p.returncode, p.stdout, ""
    except subprocess.TimeoutExpired as exc:
        rc = None
        out = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else exc.stdout or ""
        err = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else exc.stderr or ""
    return {"rc": rc, "out": out, "err": err, "seconds": round(time.monotonic() - t0, 1)}


def text(r: dict[str, Any]) -> str:
    return r["out"] + "\n" + r["err"]


def lines(r: dict[str, Any]) -> list[str]:
    """Non-blank output lines, table borders dropped (cells kept, separated by spaces)."""
    cells = (" ".join(ln.replace("│", " ").replace("┃", " ").split()) for ln in text(r).splitlines())
    return [ln for ln in cells if ln and not _is_rule(ln)]


def _is_rule(line: str) -> bool:
    return not line.strip("─━═┏┓┗┛┡┩└┘┌┐╭╮╰╯┃│┳┻╇┼ \t")


def has_traceback(r: dict[str, Any]) -> bool:
    return "Traceback (most recent call last)" in text(r)


def clip(s: str, n: int = 150) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def last_line(r: dict[str, Any]) -> str:
    ls = lines(r)
    return ls[-1] if ls else "(no output)"


def first_with(r: dict[str, Any], pattern: str) -> str | None:
    rx = re.compile(pattern)
    return next((ln for ln in lines(r) if rx.search(ln)), None)


def status(r: dict[str, Any]) -> str:
    rc = "timeout" if r["rc"] is None else f"exit {r['rc']}"
    return f"{rc}, traceback {'yes' if has_traceback(r) else 'no'}"


def marked_processes(marker: str) -> list[tuple[int, str]]:
    """Processes whose command line contains ``marker`` (this script's own excluded)."""
    found = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit() or int(d.name) == os.getpid():
            continue
        try:
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        if marker in cmd:
            found.append((int(d.name), cmd))
    return sorted(found)


def kill_pids(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _start_time(pid: int) -> str | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def descendants(root: int) -> list[tuple[int, str, str]]:
    """(pid, start time, command line) of every descendant of ``root``."""
    parent: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            parent[int(d.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        for c in sorted(k for k, v in parent.items() if v == p):
            try:
                cmd = Path(f"/proc/{c}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                cmd = "?"
            st = _start_time(c)
            if st is not None:
                out.append((c, st, cmd.strip()))
            todo.append(c)
    return out


# ------------------------------------------------------------------ fixtures


def tiny_copy(work: Path, name: str = "tiny") -> Path:
    dst = work / name
    shutil.copytree(tiny_path(), dst)
    return dst


def vericontest_copy(work: Path, problems: tuple[str, ...]) -> Path | None:
    if not all((VERICONTEST / p).is_dir() for p in problems):
        return None
    bench = work / "bench" / "leetcode"
    bench.mkdir(parents=True)
    for p in problems:
        shutil.copytree(VERICONTEST / p, bench / p)
    return work / "bench"


def plant_in_code(bench: Path, statement: str) -> None:
    """Insert ``statement`` at the start of the reference function's body in ``code.rs``."""
    f = bench / "leetcode" / RUST_PROBLEM / "code.rs"
    src = f.read_text("utf-8")
    at = src.index("{", src.index("pub fn")) + 1
    f.write_text(src[:at] + "\n        " + statement + "\n" + src[at:], "utf-8")


def problem_lines(r: dict[str, Any]) -> str:
    found = [ln for ln in lines(r) if RUST_PROBLEM in ln] or [last_line(r)]
    return clip(found[0], 110)


# ------------------------------------------------------------------ cases: hostile Rust


def _rust_case(
    src: Path, work: Path, statement: str, marker: str | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Plant ``statement`` in a copy of the problem, run ``check``; ``created``: new /tmp files named ``marker``."""
    bench = vericontest_copy(work, (RUST_PROBLEM,))
    if bench is None:
        return {"skipped": f"no VeriContest data at {VERICONTEST}"}, []
    plant_in_code(bench, statement)
    tmp_before = set(Path("/tmp").glob(f"*{marker}*")) if marker else set()
    r = run(src, ["check", str(bench), "--timeout", "60"], work)
    after = set(Path("/tmp").glob(f"*{marker}*")) if marker else set()
    created = sorted(str(p) for p in after - tmp_before)
    notes = [status(r), problem_lines(r)]
    r["created"] = created
    return r, notes


def case_rust_env(src: Path, work: Path) -> dict[str, Any]:
    stmt = (
        'let key_ = std::env::var("OPENAI_API_KEY").unwrap_or_default(); '
        'if !key_.is_empty() { panic!("OPENAI_API_KEY={}", key_); }'
    )
    r, notes = _rust_case(src, work, stmt)
    if "skipped" in r:
        return r
    notes.append(f"canary key in the output: {'yes' if CANARY in text(r) else 'no'}")
    return {"observed": "; ".join(notes)}


def case_rust_write_tmp(src: Path, work: Path) -> dict[str, Any]:
    marker = "table19-" + secrets.token_hex(4)
    stmt = f'let _ = std::fs::write("/tmp/{marker}.txt", "written by a candidate");'
    r, notes = _rust_case(src, work, stmt, marker)
    if "skipped" in r:
        return r
    notes.append(f"files created in /tmp: {len(r['created'])}")
    for p in r["created"]:
        Path(p).unlink(missing_ok=True)
    return {"observed": "; ".join(notes)}


def case_rust_include_str(src: Path, work: Path) -> dict[str, Any]:
    stmt = 'let h: &str = include_str!("/etc/hostname"); panic!("hostname={}", h.trim());'
    r, notes = _rust_case(src, work, stmt)
    if "skipped" in r:
        return r
    try:
        host = Path("/etc/hostname").read_text().strip()
    except OSError:
        host = ""
    seen = bool(host) and f"hostname={host}" in text(r)
    notes.append(f"/etc/hostname content in the output: {'yes' if seen else 'no'}")
    return {"observed": "; ".join(notes)}


def case_rust_setsid(src: Path, work: Path) -> dict[str, Any]:
    # a unique sleep length is the marker: `sleep` accepts fractional seconds
    marker = f"{600 + secrets.randbelow(300)}.{secrets.randbelow(10**6):06d}7"
    stmt = (
        'for _ in 0..2 { let _ = std::process::Command::new("setsid")'
        f'.arg("sleep").arg("{marker}")'
        ".stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null())"
        ".stderr(std::process::Stdio::null()).spawn(); }"
    )
    r, notes = _rust_case(src, work, stmt, marker)
    if "skipped" in r:
        return r
    time.sleep(1.0)
    left = marked_processes(f"sleep {marker}")
    notes.append(f"`setsid sleep` processes left: {len(left)}")
    kill_pids([p for p, _ in left])
    return {"observed": "; ".join(notes)}


# ------------------------------------------------------------------ cases: scale


def case_scale_sigkill(src: Path, work: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(src), "OPENAI_API_KEY": CANARY}
    args = ["scale", "--example", "--out", str(work / "run"), "--workers", "2", "--executor", "local"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "veriscale", *args],
        cwd=work,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    seen: dict[tuple[int, str], str] = {}
    deadline = time.monotonic() + 120
    # wait until the pool has started (two or more descendants), then let it work a moment
    while time.monotonic() < deadline and proc.poll() is None:
        for pid, st, cmd in descendants(proc.pid):
            seen[(pid, st)] = cmd
        if len(seen) >= 2:
            time.sleep(2.0)
            for pid, st, cmd in descendants(proc.pid):
                seen[(pid, st)] = cmd
            break
        time.sleep(0.2)
    if proc.poll() is not None:
        return {"observed": f"scale ended (exit {proc.returncode}) before it could be killed mid-run"}
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    time.sleep(3.0)
    left = [(pid, cmd) for (pid, st), cmd in sorted(seen.items()) if _start_time(pid) == st]
    kill_pids([p for p, _ in left])
    kinds = sorted({clip(cmd.split(" -c ")[-1] if " -c " in cmd else cmd, 60) for _, cmd in left})
    what = f" ({'; '.join(kinds)})" if kinds else ""
    return {
        "observed": f"SIGKILL after {len(seen)} child process(es) started; left 3 s later: {len(left)}{what}"
    }


def case_scale_empty(src: Path, work: Path) -> dict[str, Any]:
    (work / "empty").mkdir()
    r = run(src, ["scale", "--benchmark", str(work / "empty"), "--out", str(work / "run")], work)
    return {"observed": f"{status(r)}; last line: {clip(last_line(r))}"}


def case_scale_all_fail(src: Path, work: Path) -> dict[str, Any]:
    bench = work / "bench"
    for name, body in (("t1", "{"), ("t2", "garbage")):
        (bench / name).mkdir(parents=True)
        (bench / name / "task.json").write_text(body, "utf-8")
    args = ["scale", "--benchmark", str(bench), "--out", str(work / "run"), "--executor", "serial"]
    r = run(src, args, work)
    ls = lines(r)
    failed = [i for i, ln in enumerate(ls) if re.match(r"(?i)failed\b", ln)]
    notes = [status(r), f"lines reporting a failure: {len(failed)}"]
    reasoned = [ls[i] for i in failed if ":" in ls[i]]
    notes.append(f"first with a reason: {clip(reasoned[0], 100)}" if reasoned else "none gives a reason")
    notes.append(f"last line: {clip(last_line(r), 110)}")
    return {"observed": "; ".join(notes)}


def _scale_resume_runs(src: Path, work: Path) -> list[dict[str, Any]]:
    base = ["scale", "--example", "--tasks", "tiny_1", "--out", str(work / "run"), "--executor", "serial"]
    return [run(src, base, work), run(src, base, work), run(src, [*base, "--seed", "7"], work)]


def case_scale_resume_hint(src: Path, work: Path) -> dict[str, Any]:
    r = _scale_resume_runs(src, work)[2]
    hint = first_with(r, r"--(out|run)\b") or last_line(r)
    return {"observed": f"same --out, other --seed: {status(r)}; says: {clip(hint, 140)}"}


def case_scale_resume_reuse(src: Path, work: Path) -> dict[str, Any]:
    first, again, _ = _scale_resume_runs(src, work)
    if first["rc"] != 0:
        return {"observed": f"first run failed: {status(first)}; {clip(last_line(first))}"}
    said = [ln for ln in lines(again) if re.search(r"(?i)reus|already (done|present|computed)|resum", ln)]
    shown = " / ".join(clip(s, 70) for s in said[:2]) if said else "no line says what was reused"
    return {"observed": f"second identical run: {status(again)}, {again['seconds']} s; {shown}"}


# ------------------------------------------------------------------ cases: stats, check, check-data


def case_stats_bad_test_json(src: Path, work: Path) -> dict[str, Any]:
    tiny = tiny_copy(work)
    (tiny / "tiny_2" / "test.json").write_bytes(b"\xff\xfe not utf-8")
    r = run(src, ["stats", str(tiny)], work)
    table = any(ch in text(r) for ch in "┃│")
    key = first_with(r, "tiny_2") or last_line(r)
    return {
        "observed": f"{status(r)}; statistics table printed: {'yes' if table else 'no'}; {clip(key, 120)}"
    }


def case_check_empty_task(src: Path, work: Path) -> dict[str, Any]:
    tiny = tiny_copy(work)
    (tiny / "tiny_9").mkdir()
    r = run(src, ["check", str(tiny)], work)
    key = first_with(r, "tiny_9")
    return {"observed": f"{status(r)}; " + (f"says: {clip(key, 110)}" if key else "tiny_9 not mentioned")}


def case_check_data_unreadable(src: Path, work: Path) -> dict[str, Any]:
    tiny = tiny_copy(work)
    (tiny / "tiny_4" / "test.json").write_text("[{", "utf-8")
    r = run(src, ["check-data", str(tiny)], work)
    key = first_with(r, r"tiny_4|None") or last_line(r)
    return {"observed": f"{status(r)}; table line: {clip(key, 110)}"}


def _long_reason(src: Path, work: Path, columns: int) -> dict[str, Any]:
    # a long directory name makes the reason (which names the file) longer than 80 characters
    tiny = tiny_copy(work / "a_folder_with_a_rather_long_name_for_the_reason", "tiny")
    (tiny / "tiny_3" / "task.json").write_text('{"id": ', "utf-8")
    full_run = run(src, ["check", "--json", str(tiny)], work)
    try:
        rep = json.loads(full_run["out"])
        full = next(f["detail"] for f in rep.get("findings", []) if f.get("task") == "tiny_3")
    except (ValueError, StopIteration, KeyError, TypeError, AttributeError):
        return {"observed": f"--json gave no tiny_3 finding: {status(full_run)}; {clip(last_line(full_run))}"}
    r = run(src, ["check", str(tiny)], work, columns=columns)
    shown = re.sub(r"\s+", "", text(r))
    want = re.sub(r"\s+", "", full)
    n = next((k for k in range(len(want), 0, -1) if want[:k] in shown), 0)
    widest = max((len(ln) for ln in text(r).splitlines()), default=0)
    return {
        "observed": f"{status(r)}; reason shown: {n} of its {len(want)} non-blank characters; "
        f"widest line {widest} columns"
    }


def case_check_long_reason_wide(src: Path, work: Path) -> dict[str, Any]:
    return _long_reason(src, work, 200)


def case_check_long_reason_narrow(src: Path, work: Path) -> dict[str, Any]:
    return _long_reason(src, work, 60)


def case_check_one_bad_value(src: Path, work: Path) -> dict[str, Any]:
    tiny = tiny_copy(work)
    rows = json.loads((tiny / "tiny_2" / "test.json").read_text("utf-8"))
    rows[0]["input"]["a"] = "#[1, 2, "  # one unterminated array literal, read by every check of the row
    (tiny / "tiny_2" / "test.json").write_text(json.dumps(rows), "utf-8")
    r = run(src, ["check", str(tiny)], work)
    key = first_with(r, r"(?i)^undecodable") or last_line(r)
    return {"observed": f"1 bad value planted; {status(r)}; says: {clip(key, 110)}"}


# ------------------------------------------------------------------ case: evaluate


def case_evaluate_broken_suite(src: Path, work: Path) -> dict[str, Any]:
    from veriscale.evaluate.generations import ground_truth_generation
    from veriscale.formats.verina.dataset import read_task

    tiny = tiny_copy(work)
    gens = work / "gens.jsonl"
    with gens.open("w", encoding="utf-8") as f:
        for d in sorted(tiny.iterdir()):
            g = ground_truth_generation(read_task(d)).to_json()
            g["meta"] = {"origin": d.name}
            f.write(json.dumps(g) + "\n")
    (tiny / "tiny_3" / "test.json").write_text("[{", "utf-8")
    out = work / "out"
    args = ["evaluate", "-g", str(gens), "-s", str(tiny), "-o", str(out), "--no-chart", "-j", "1"]
    r = run(src, args, work)
    res = out / "results.jsonl"
    if not res.is_file():
        return {"observed": f"{status(r)}; no results.jsonl; {clip(last_line(r))}"}
    rows = [json.loads(x) for x in res.read_text("utf-8").splitlines() if x.strip()]
    bad = [row for row in rows if row.get("task_id") == "tiny_3"]
    cats = sorted({v for row in bad for v in _values_named(row, ("error", "category")) if v})
    with_meta = sum(1 for row in rows if row.get("meta") == {"origin": row.get("task_id")})
    return {
        "observed": f"{status(r)}; tiny_3 (broken test.json) category: {', '.join(cats) or 'none'}; "
        f"rows carrying their meta: {with_meta}/{len(rows)}"
    }


def _values_named(obj: Any, names: tuple[str, ...]) -> list[str]:
    found: list[str] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in names and isinstance(v, str):
                found.append(v)
            found.extend(_values_named(v, names))
    elif isinstance(obj, list):
        for v in obj:
            found.extend(_values_named(v, names))
    return found


# ------------------------------------------------------------------ cases: help texts


def help_rows(src: Path, work: Path, command: list[str]) -> list[str]:
    """The rows of a rich help screen, continuation lines joined (box characters dropped)."""
    r = run(src, [*command, "--help"], work, columns=200)
    rows: list[str] = []
    for raw in r["out"].splitlines():
        ln = raw.strip().strip("│").strip()
        if not ln or _is_rule(ln) or ln.startswith(("╭", "╰")):
            continue
        if ln.startswith(("-", "*")) or not rows:
            rows.append(ln)
        else:
            rows[-1] += " " + ln
    return [" ".join(x.split()) for x in rows]


def _config_row(src: Path, work: Path, pattern: str) -> dict[str, Any]:
    row = next((x for x in help_rows(src, work, ["models", "config"]) if x.startswith("--config")), None)
    if row is None:
        return {"observed": "models config has no --config row"}
    m = re.search(pattern, row)
    return {"observed": f"models config --config says: {clip(m.group(0) if m else row, 120)}"}


def case_help_llm_markup(src: Path, work: Path) -> dict[str, Any]:
    return _config_row(src, work, r"[^;(]*table is used")


def case_help_yaml_claim(src: Path, work: Path) -> dict[str, Any]:
    return _config_row(src, work, r"\([^()]*yaml[^;)]*")


def case_help_adequacy(src: Path, work: Path) -> dict[str, Any]:
    r = run(src, ["stats", "--help"], work, columns=200)
    t = " ".join(r["out"].split())
    m = re.search(r"\(or, with .{0,20}adequacy\S*", t)
    return {"observed": f"stats --help: {m.group(0) if m else clip(t[:100])}"}


def case_help_default_twice(src: Path, work: Path) -> dict[str, Any]:
    row = next((x for x in help_rows(src, work, ["check"]) if re.search(r"(^|\W)-j\b", x)), None)
    return {"observed": f"check -j row: {clip(row, 140) if row else '(no -j option)'}"}


def case_worker_option(src: Path, work: Path) -> dict[str, Any]:
    spell = []
    for cmd in (["scale"], ["check"], ["evaluate"], ["stats"], ["expand", "inputs"]):
        row = next(
            (x for x in help_rows(src, work, cmd) if re.search(r"--workers|--jobs|(^|\W)-j\b", x)), None
        )
        names = re.findall(r"(?<![\w-])--?[a-z][\w-]*", row.split("<", 1)[0]) if row else []
        spell.append(f"{' '.join(cmd)}: {'/'.join(names) or 'none'}")
    return {"observed": "; ".join(spell)}


# ------------------------------------------------------------------ case: progress on a terminal


def case_check_vericontest_progress(src: Path, work: Path) -> dict[str, Any]:
    bench = vericontest_copy(work, PROGRESS_PROBLEMS)
    if bench is None:
        return {"skipped": f"no VeriContest data at {VERICONTEST}"}
    # a unique comment makes every reference new to the binary cache, so the run compiles
    for p in PROGRESS_PROBLEMS:
        f = bench / "leetcode" / p / "code.rs"
        f.write_text(f.read_text("utf-8") + f"\n// {secrets.token_hex(8)}\n", "utf-8")
    env = {**os.environ, "PYTHONPATH": str(src), "OPENAI_API_KEY": CANARY, "COLUMNS": "100", "TERM": "xterm"}
    master, slave = pty.openpty()
    t0 = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "veriscale", "check", str(bench), "--timeout", "60"],
        cwd=work,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=slave,
    )
    os.close(slave)
    chunks: list[tuple[float, bytes]] = []
    while True:
        ready, _, _ = select.select([master], [], [], 1.0)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if not data:
                break
            chunks.append((time.monotonic() - t0, data))
        elif proc.poll() is not None or time.monotonic() - t0 > TIMEOUT:
            break
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    os.close(master)
    total = time.monotonic() - t0
    if not chunks:
        return {"observed": f"exit {proc.returncode}; no output at all in {total:.0f} s"}
    first = chunks[0][0]
    return {
        "observed": f"on a terminal, {len(PROGRESS_PROBLEMS)} problems: exit {proc.returncode}; first output "
        f"after {first:.1f} s of {total:.1f} s; {len(chunks)} screen writes"
    }


CASES: dict[str, tuple[str, Case]] = {
    "rust_env_secret": ("`code.rs` reads `OPENAI_API_KEY` (panics with it)", case_rust_env),
    "rust_write_tmp": ("`code.rs` writes a file to /tmp, returns the right answer", case_rust_write_tmp),
    "rust_include_str": ('`code.rs` uses `include_str!("/etc/hostname")`', case_rust_include_str),
    "rust_setsid_sleep": ("`code.rs` spawns two `setsid sleep`", case_rust_setsid),
    "scale_sigkill": ("SIGKILL of `scale --example --workers 2` mid-run", case_scale_sigkill),
    "scale_empty_folder": ("`scale` on an empty folder", case_scale_empty),
    "scale_every_task_fails": ("`scale` on a benchmark whose every task fails", case_scale_all_fail),
    "stats_bad_test_json": ("`stats` with one non-UTF-8 `test.json`", case_stats_bad_test_json),
    "check_empty_task_folder": ("`check` with an empty task folder", case_check_empty_task),
    "check_data_unreadable": ("`check-data` on an unreadable `test.json`", case_check_data_unreadable),
    "check_long_reason_wide": ("`check`, long reason, COLUMNS=200", case_check_long_reason_wide),
    "check_long_reason_narrow": ("`check`, long reason, COLUMNS=60", case_check_long_reason_narrow),
    "check_one_bad_value": ("`check`, one bad input value", case_check_one_bad_value),
    "evaluate_broken_suite": ("`evaluate` on a suite with a broken `test.json`", case_evaluate_broken_suite),
    "help_llm_markup": ("help: `[llm]` in `models config --config`", case_help_llm_markup),
    "help_yaml_claim": ("help: `.yaml` claim of `models config`", case_help_yaml_claim),
    "help_adequacy": ("help: ``` ``--adequacy`` ``` in `stats`", case_help_adequacy),
    "help_default_twice": ('help: "(default: 1). [default: 1]" in `check`', case_help_default_twice),
    "worker_option": ("spelling of the worker option per command", case_worker_option),
    "scale_resume_hint": ("`scale` hint when the run directory does not match", case_scale_resume_hint),
    "scale_resume_reuse": ("a resumed `scale` says what it reused", case_scale_resume_reuse),
    "check_vericontest_progress": ("`check` on VeriContest shows progress", case_check_vericontest_progress),
}


def _commit(src: Path) -> str:
    """The tree's short commit id (``?`` outside git); uncommitted changes are not shown."""
    try:
        out = subprocess.run(
            ["git", "-C", str(src), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    return out.stdout.strip() or "?"


def markdown(before: Path, after: Path) -> str:
    trees = {"before": "", "after": ""}

    def load(p: Path, which: str) -> dict[str, str]:
        out = {}
        for ln in p.read_text("utf-8").splitlines():
            if ln.strip():
                d = json.loads(ln)
                trees[which] = d.get("tree", "")
                out[d["case"]] = d.get("observed") or f"{d.get('skipped') or d.get('error')}"
        return out

    b, a = load(before, "before"), load(after, "after")
    rows = [f"| hostile input | before ({trees['before']}) | after ({trees['after']}) |", "|---|---|---|"]
    for name, (title, _) in CASES.items():
        if name in b or name in a:
            cell = [x.get(name, "(not run)").replace("|", "\\|") for x in (b, a)]
            rows.append(f"| {title} | {cell[0]} | {cell[1]} |")
    return "\n".join(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", type=Path, help="the src directory of the tree to run")
    ap.add_argument("--case", action="append", choices=sorted(CASES), help="only these cases (repeatable)")
    ap.add_argument("--markdown", nargs=2, type=Path, metavar=("BEFORE", "AFTER"), help="print the table")
    args = ap.parse_args()
    if args.markdown:
        print(markdown(*args.markdown))
        return 0
    if args.src is None or not (args.src / "veriscale").is_dir():
        ap.error("--src must be a src directory containing veriscale/")
    src = args.src.resolve()
    tree = _commit(src)
    for name in args.case or list(CASES):
        title, fn = CASES[name]
        with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
            t0 = time.monotonic()
            try:
                res = fn(src, Path(tmp))
            except Exception as exc:  # a defect of this script, reported with the case
                res = {"error": f"{type(exc).__name__}: {exc}"}
            res = {
                "case": name,
                "tree": tree,
                "input": title,
                **res,
                "seconds": round(time.monotonic() - t0, 1),
            }
        if "observed" in res:  # the random temporary directory would make the table differ per run
            obs = res["observed"].replace(str(Path(tmp).resolve()), "$TMP").replace(tmp, "$TMP")
            res["observed"] = obs.replace(CANARY, "(the key)")
        print(json.dumps(res, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
