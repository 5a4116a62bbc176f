"""Running compiled programs safely: many inputs per process, per-case time limits.

* ``run_json_lines(binary, lines, limits)`` feeds a JSON-lines harness (see
  ``harness``) all inputs through one process and returns one ``CaseResult``
  per line. A case that exceeds ``case_seconds`` of wall clock, exhausts
  memory or crashes the process (stack overflow, abort) gets that outcome;
  the process group is killed and a fresh process continues with the next
  case. Panics (including arithmetic overflow, since programs are built with
  overflow checks) are reported by the harness itself and cost nothing.
* ``run_program(binary, stdin, limits)`` runs a stdin/stdout program once
  (Codeforces) with the same limits and an output cap.

Every process runs in the ``veriscale.sandbox``: a private directory (the
binary is linked or copied into it), an allow-listed environment (no API
keys), ``RLIMIT_AS`` (memory), ``RLIMIT_CPU`` (a backstop for the wall-clock
limit), file-size, open-file and process limits, no core files, no network
where the kernel allows, optional niceness; when it ends or is timed out,
every process it started is killed, ``setsid`` or not.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...sandbox import Sandbox, SandboxLimits, SandboxProcess

__all__ = ["CaseResult", "ExecLimits", "ProgramResult", "run_json_lines", "run_program"]


@dataclass(frozen=True)
class ExecLimits:
    case_seconds: float = 10.0  # wall clock per case (per program run for ``run_program``)
    memory_mb: int = 2048  # address-space limit of the process (the harness reserves a 512 MiB stack)
    output_bytes: int = 64 << 20  # per case / per program run
    nice: int = 0  # added niceness of the child


@dataclass(frozen=True)
class CaseResult:
    """``status``: "ok" (``value`` is the JSON result), "panic", "bad" (input did not decode),
    "timeout", "memory", "crash", "skipped" (not run: ``stop_after_timeout``)."""

    status: str
    value: Any = None
    message: str = ""
    micros: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass(frozen=True)
class ProgramResult:
    """``status``: "ok" (exit 0), "panic" (Rust panic, exit 101), "error" (other exit code),
    "timeout", "memory", "crash", "output" (output cap exceeded)."""

    status: str
    stdout: str
    stderr: str
    returncode: int | None
    seconds: float
    message: str = ""
    files: dict[str, bytes] = field(default_factory=dict)  # ``read_back`` files, as the program left them

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def _sandbox_limits(limits: ExecLimits, cpu_seconds: float) -> SandboxLimits:
    return SandboxLimits(
        wall_seconds=limits.case_seconds,
        cpu_seconds=cpu_seconds,
        memory_bytes=limits.memory_mb * 1024 * 1024,
        file_bytes=limits.output_bytes,
        output_bytes=limits.output_bytes,
        nice=limits.nice,
    )


def _stage(sb: Sandbox, binary: Path) -> str:
    """The binary inside the private directory: a hard link when possible (no copy), else a copy."""
    dest = sb.path / "prog"
    try:
        os.link(binary, dest)
    except OSError:
        sb.put("prog", binary, executable=True)
    return str(dest)


def _kill(proc: SandboxProcess) -> None:
    proc.terminate()
    with contextlib.suppress(Exception):
        proc.wait(timeout=5)


def _classify_death(returncode: int | None, stderr: str, killed_for_time: bool) -> tuple[str, str]:
    """(status, message) of a process that ended before answering."""
    tail = stderr.strip()[-300:]
    if killed_for_time:
        return "timeout", "time limit exceeded"
    if "veriscale-sandbox:" in stderr:
        return "crash", "sandbox: " + stderr.split("veriscale-sandbox:", 1)[1].strip().splitlines()[0]
    if "memory allocation of" in stderr or "out of memory" in stderr.lower():
        return "memory", "memory limit exceeded"
    if "has overflowed its stack" in stderr:
        return "crash", "stack overflow"
    if returncode is not None and returncode < 0:
        sig = -returncode
        if sig == signal.SIGXCPU:
            return "timeout", "CPU time limit exceeded"
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
        return "crash", f"killed by {name}" + (f": {tail}" if tail else "")
    return "crash", f"exit status {returncode}" + (f": {tail}" if tail else "")


def _child_env(env: Mapping[str, str] | None) -> dict[str, str]:
    """Variables added to the sandbox's allow-listed environment (``env``: the caller's extras)."""
    out = dict(env or {})
    out["RUST_BACKTRACE"] = "0"  # keep stderr to the panic message
    return out


def _panic_message(stderr: str) -> str:
    """The message of a Rust panic report (the line after ``panicked at <location>:``)."""
    lines = stderr.strip().splitlines()
    for k, ln in enumerate(lines):
        if "panicked at" in ln:
            loc = ln.split("panicked at", 1)[1].strip().rstrip(":")
            msg = lines[k + 1].strip() if k + 1 < len(lines) else ""
            line = loc.rsplit(":", 2)[-2] if loc.count(":") >= 2 else ""
            return f"{msg} at line {line}" if line.isdigit() else msg or ln.strip()
    return " ".join(lines[-2:])[-300:]


def _read_tail(f: Any, limit: int = 8192) -> str:
    try:
        f.flush()
        f.seek(0, os.SEEK_END)
        size = f.tell()
        f.seek(max(0, size - limit))
        return f.read().decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return ""


def _feed(proc: SandboxProcess, data: bytes) -> threading.Thread:
    def run() -> None:
        assert proc.stdin is not None
        try:
            proc.stdin.write(data)
            proc.stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def _parse_line(raw: bytes) -> CaseResult:
    try:
        obj = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        return CaseResult("crash", message=f"unreadable harness output: {exc}")
    if not isinstance(obj, dict):
        return CaseResult("crash", message="unreadable harness output")
    if "ok" in obj:
        return CaseResult("ok", obj["ok"], micros=obj.get("us"))
    if "panic" in obj:
        return CaseResult("panic", message=str(obj["panic"]), micros=obj.get("us"))
    if "bad" in obj:
        return CaseResult("bad", message=str(obj["bad"]))
    return CaseResult("crash", message=str(obj.get("fault", "unreadable harness output")))


def run_json_lines(
    binary: Path | str,
    lines: Sequence[str],
    limits: ExecLimits | None = None,
    env: Mapping[str, str] | None = None,
    stop_after_timeout: bool = False,
) -> list[CaseResult]:
    """Run every input line through the harness ``binary``; one result per line.

    ``env``: extra environment variables (the rest is the sandbox's allow-list).
    ``stop_after_timeout``: after the first case that times out, the rest are not run (status
    ``"skipped"``) — for mutants, where one timeout already decides and each further one would cost a
    whole ``case_seconds`` plus a restart.
    """
    limits = limits or ExecLimits()
    results: list[CaseResult | None] = [None] * len(lines)
    i = 0
    with Sandbox(env=_child_env(env)) as sb:
        prog = _stage(sb, Path(binary))
        while i < len(lines):
            i = _run_batch(sb, prog, lines, i, results, limits)
            last = results[i - 1]  # a process ends on its failing case: a timeout is always the last one
            if stop_after_timeout and i < len(lines) and last is not None and last.status == "timeout":
                for k in range(i, len(lines)):
                    results[k] = CaseResult("skipped", message="not run after a timeout")
                break
    return [r if r is not None else CaseResult("crash", message="no result") for r in results]


def _run_batch(
    sb: Sandbox,
    prog: str,
    lines: Sequence[str],
    first: int,
    results: list[CaseResult | None],
    limits: ExecLimits,
) -> int:
    """Run lines[first:] in one process until it ends; returns the index to resume at."""
    remaining = len(lines) - first
    cpu = limits.case_seconds * remaining + 5
    with tempfile.TemporaryFile() as errf:
        try:
            proc = sb.spawn([prog], stderr=errf, limits=_sandbox_limits(limits, cpu))
        except OSError as exc:
            results[first] = CaseResult("crash", message=f"cannot start the program: {exc}")
            return first + 1
        data = ("\n".join(line.replace("\n", " ") for line in lines[first:]) + "\n").encode("utf-8")
        writer = _feed(proc, data)
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        sel = selectors.DefaultSelector()
        sel.register(fd, selectors.EVENT_READ)
        buf = bytearray()
        j = first
        deadline = time.monotonic() + limits.case_seconds
        killed_for_time = False
        eof = False
        try:
            while j < len(lines):
                nl = buf.find(b"\n")
                if nl >= 0:
                    results[j] = _parse_line(bytes(buf[:nl]))
                    del buf[: nl + 1]
                    j += 1
                    deadline = time.monotonic() + limits.case_seconds
                    continue
                if len(buf) > limits.output_bytes:
                    results[j] = CaseResult("crash", message="output limit exceeded")
                    _kill(proc)
                    return j + 1
                if eof:
                    break
                wait = deadline - time.monotonic()
                if wait <= 0:
                    killed_for_time = True
                    break
                if not sel.select(timeout=wait):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    eof = True
                else:
                    buf += chunk
        finally:
            sel.close()
            if eof and not killed_for_time:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=2)  # let a dying process report how it died
            if proc.poll() is None:
                _kill(proc)
            proc.finish()
            writer.join(timeout=5)
        if j >= len(lines):
            return j
        stderr = _read_tail(errf)
        status, message = _classify_death(proc.popen.returncode, stderr, killed_for_time)
        results[j] = CaseResult(status, message=message)
        return j + 1


def run_program(
    binary: Path | str,
    stdin: str,
    limits: ExecLimits | None = None,
    env: Mapping[str, str] | None = None,
    read_back: Sequence[str] = (),
) -> ProgramResult:
    """Run a stdin/stdout program once under the limits.

    ``env``: extra environment variables; ``read_back``: names of files the program
    may write in its private directory, returned in ``ProgramResult.files``.
    """
    limits = limits or ExecLimits()
    with Sandbox(env=_child_env(env)) as sb:
        prog = _stage(sb, Path(binary))
        res = _run_once(sb, prog, stdin, limits)
        files: dict[str, bytes] = {}
        for name in read_back:
            path = sb.path / name
            if path.is_file() and not path.is_symlink():
                files[name] = path.read_bytes()[: limits.output_bytes]
    if files:
        res = ProgramResult(
            res.status, res.stdout, res.stderr, res.returncode, res.seconds, res.message, files
        )
    return res


def _run_once(sb: Sandbox, prog: str, stdin: str, limits: ExecLimits) -> ProgramResult:
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as errf:
        try:
            proc = sb.spawn([prog], stderr=errf, limits=_sandbox_limits(limits, limits.case_seconds + 2))
        except OSError as exc:
            return ProgramResult("crash", "", "", None, 0.0, f"cannot start the program: {exc}")
        writer = _feed(proc, stdin.encode("utf-8"))
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        sel = selectors.DefaultSelector()
        sel.register(fd, selectors.EVENT_READ)
        buf = bytearray()
        deadline = t0 + limits.case_seconds
        status = ""
        try:
            while True:
                wait = deadline - time.monotonic()
                if wait <= 0:
                    status = "timeout"
                    break
                if not sel.select(timeout=wait):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                buf += chunk
                if len(buf) > limits.output_bytes:
                    status = "output"
                    break
        finally:
            sel.close()
            if status:
                _kill(proc)
            else:
                try:
                    proc.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    status = "timeout"
                    _kill(proc)
            proc.finish()
            writer.join(timeout=5)
        seconds = time.monotonic() - t0
        out = bytes(buf).decode("utf-8", errors="replace")
        stderr = _read_tail(errf)
    rc = proc.popen.returncode
    if status == "timeout":
        return ProgramResult("timeout", out, stderr, rc, seconds, "time limit exceeded")
    if status == "output":
        return ProgramResult("output", out, stderr, rc, seconds, "output limit exceeded")
    if rc == 0:
        return ProgramResult("ok", out, stderr, rc, seconds)
    if rc == 101 and "panicked" in stderr:
        return ProgramResult("panic", out, stderr, rc, seconds, _panic_message(stderr))
    st, message = _classify_death(rc, stderr, False)
    if st == "crash" and rc is not None and rc > 0:
        st = "error"
    return ProgramResult(st, out, stderr, rc, seconds, message)
