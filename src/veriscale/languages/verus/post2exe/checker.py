"""Building and running compiled Post2Exe checkers.

``build_checker(problem)`` translates a problem's ``spec.rs`` (JSON keys: the
reference's parameter names) and compiles it through the content-hash cache
(``rust.compile``); ``CompiledChecker.check(cases)`` sends every case through
one process and returns ``(requires, ensures)`` verdicts (``ensures`` None
when the case has no output). A checker that fails to compile, crashes or
times out yields UNKNOWN for the cases it did not answer — callers fall back
to the Python evaluator on UNKNOWN.

``write_checkers(root, out)`` is ``veriscale post2exe``: one folder per
problem under ``out`` with ``post2exe.rs`` (the checker source) and a
``status.json`` (complete or not, the untranslated clauses, compile result).
"""

from __future__ import annotations

import collections
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from orjson import dumps as _orjson_dumps

from ....runtime.engine import Verdict
from ..execute import ExecLimits, run_program
from .build import compile_checker
from .session import CheckerSession, sessions_enabled
from .translate import Checker, Untranslatable, translate

__all__ = [
    "CHECK_FUEL",
    "CHECK_SEARCH",
    "CompiledChecker",
    "build_checker",
    "checker_for_source",
    "write_checkers",
]


def _verdict(d: dict[str, Any], key: str) -> Verdict:
    v = d.get(key)
    reason = str(d.get(f"{key}_reason", ""))
    if v == "TRUE":
        return Verdict.of(True)
    if v == "FALSE":
        return Verdict(Verdict.of(False).truth, reason)
    # a range search cut after its share of the budget ("... exceeds the step budget") is not a spent
    # budget: the Python evaluator may still pin the binder with a solver (and refuses a range beyond its
    # own cap at once otherwise)
    refused = "exceeds the step budget" in reason
    cat = "timeout" if ("budget" in reason and not refused) or "deeper than" in reason else "undecided"
    return Verdict.unknown(f"compiled checker: {reason}", cat)


# steps per clause the engine grants a compiled checker (passed as VERISCALE_POST2EXE_FUEL when it runs, so
# the value can change without rebuilding a checker). 64 M: the most any decided case of the shared set needs
# is lc3233's 50.7 M (the runtime's own default, 20 M, is for checkers run by hand); a user's
# VERISCALE_POST2EXE_FUEL in the environment wins.
CHECK_FUEL = 64_000_000


# steps a quantifier range with more values than the clause has steps left may spend searching for the
# value that decides it early (a witness of `exists`, a counterexample of `forall`): 0, such a range is
# refused at once (UNKNOWN "range of N values exceeds the step budget: undecided after 0 values"), so the
# engine goes straight to the Python evaluator, whose solvers (equality-only, affine and interval stand-ins)
# decide such binders without enumerating them. A search share (the runtime's default: 1/64 of the budget)
# cost lc3007 two searches of 1 M steps per verdict before Python decided it anyway. A user's
# VERISCALE_POST2EXE_SEARCH in the environment wins.
CHECK_SEARCH = 0


def _checker_env(fuel: int | None = None) -> dict[str, str]:
    """The checker's environment: its step budget (``fuel``, else a user's VERISCALE_POST2EXE_FUEL, else
    ``CHECK_FUEL``), its search share (a user's VERISCALE_POST2EXE_SEARCH, else ``CHECK_SEARCH``) and the
    compact reply form (``runtime_rs``'s ``serve``); nothing else is passed on."""
    budget = str(fuel) if fuel is not None else os.environ.get("VERISCALE_POST2EXE_FUEL") or str(CHECK_FUEL)
    search = os.environ.get("VERISCALE_POST2EXE_SEARCH") or str(CHECK_SEARCH)
    return {
        "VERISCALE_POST2EXE_FUEL": budget,
        "VERISCALE_POST2EXE_SEARCH": search,
        "VERISCALE_POST2EXE_REPLY": "compact",
    }


# the checker's values can grow large (sequences built by spec fns); its steps are bounded by fuel
_CHECKER_MEMORY_MB = 4096


@dataclass
class CompiledChecker:
    checker: Checker
    binary: Path | None
    error: str = ""
    seconds: float = 600.0  # wall-clock backstop for a whole batch; the checker itself is step-bounded
    fuel: int | None = None  # steps per clause for this checker's runs (None: CHECK_FUEL or the user's)
    steps: int = 0  # steps the checker reported over all answered cases so far (a load-independent cost)
    stats: dict[str, int] = field(default_factory=dict)
    # the long-lived checker process (``session``), started by the first batch; None until then
    _session: CheckerSession | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.binary is not None

    def __getstate__(self) -> dict[str, Any]:
        """Pickled or copied without its running process (a copy starts its own when asked)."""
        state = dict(self.__dict__)
        state["_session"] = None
        return state

    def close(self) -> None:
        """End the long-lived checker process, if one was started (a later batch starts another)."""
        if self._session is not None:
            self._session.close()
            self._session = None

    @property
    def processes_started(self) -> int:
        """Checker processes the long-lived session started so far (0 without one)."""
        return 0 if self._session is None else self._session.starts

    def check(self, cases: Sequence[tuple[dict[str, Any], Any]], with_output: bool = True
              ) -> list[tuple[Verdict, Verdict | None]]:  # fmt: skip
        """``cases``: (input JSON keyed by reference names, output JSON); verdicts in order.

        The batch goes to the checker as ONE line holding a JSON array of the cases (one encoder call,
        in C, instead of one per case), through the checker's long-lived process (``session``: started
        by the first batch, reused by the next; ``VERISCALE_POST2EXE_SESSION=0``: a process per batch),
        and the verdict lines come back parsed by one ``json.loads`` of their concatenation; a verdict
        pair seen before in the batch (same verdicts, same reasons) is reused, not rebuilt. A batch the
        encoder refuses as a whole (a float that is not finite) is sent a case per line to a process of
        its own, so only the refused case is undecodable; output that does not parse as a whole is
        parsed per line.
        """
        n = len(cases)
        unknown = Verdict.unknown("compiled checker gave no answer", "error")
        if self.binary is None or not n:
            return [(unknown, unknown if with_output else None) for _ in range(n)]
        objs: list[dict[str, Any]] = (
            [{"input": inp, "output": out} for inp, out in cases] if with_output
            else [{"input": inp} for inp, _ in cases]
        )  # fmt: skip
        env = _checker_env(self.fuel)
        batch = _encode_batch(objs)
        # in the sandbox like every program veriscale runs: the spec may be a model's answer
        if batch is not None and sessions_enabled():  # the problem's long-lived checker process
            if self._session is None:
                self._session = CheckerSession(self.binary, _CHECKER_MEMORY_MB)
            got: Sequence[bytes] = self._session.ask(batch + b"\n", self.seconds, env)[:n]
        else:
            stdin = batch.decode("utf-8") + "\n" if batch is not None else "".join(
                _encode_one(o) + "\n" for o in objs
            )  # fmt: skip
            limits = ExecLimits(case_seconds=self.seconds, memory_mb=_CHECKER_MEMORY_MB)
            res = run_program(self.binary, stdin, limits, env=env)
            got = _lines(res.stdout)[:n]  # on a timeout or crash: the verdicts printed so far
        return self._verdicts(got, n, with_output)

    def check_lines(self, lines: Sequence[str | bytes], with_output: bool = True
                    ) -> list[tuple[Verdict, Verdict | None]]:  # fmt: skip
        """Verdicts of cases given as JSON lines in the test-file form (``{"input": {...}, "output": ...}``,
        ``output`` optional), passed to the checker as they are: no decoding and re-encoding in Python.
        A line that is not one JSON object (empty, an array, several lines) is not sent and gets an
        UNKNOWN "input does not decode"; ``with_output`` False ignores the ensures verdicts."""
        n = len(lines)
        unknown = Verdict.unknown("compiled checker gave no answer", "error")
        if self.binary is None or not n:
            return [(unknown, unknown if with_output else None) for _ in range(n)]
        raw = [ln.encode("utf-8") if isinstance(ln, str) else bytes(ln) for ln in lines]
        raw = [ln.strip() for ln in raw]
        # exactly one verdict line comes back per line sent: only single objects are sent
        send = [k for k, ln in enumerate(raw) if ln.startswith(b"{") and b"\n" not in ln and b"\r" not in ln]
        env = _checker_env(self.fuel)
        request = b"".join(raw[k] + b"\n" for k in send)
        got: Sequence[bytes] = []
        if send and sessions_enabled():
            if self._session is None:
                self._session = CheckerSession(self.binary, _CHECKER_MEMORY_MB)
            got = self._session.ask(request, self.seconds, env, expect=len(send))[: len(send)]
        elif send:
            limits = ExecLimits(case_seconds=self.seconds, memory_mb=_CHECKER_MEMORY_MB)
            res = run_program(self.binary, request.decode("utf-8", "replace"), limits, env=env)
            got = _lines(res.stdout)[: len(send)]
        answers = self._verdicts(got, len(send), True)
        bad = Verdict.unknown("compiled checker: input does not decode: not one JSON object", "error")
        out: list[tuple[Verdict, Verdict | None]] = [(bad, bad if with_output else None)] * n
        for k, (req, ens) in zip(send, answers):
            out[k] = (req, ens if with_output else None)
        return out

    def _verdicts(self, got: Sequence[bytes], n: int, with_output: bool
                  ) -> list[tuple[Verdict, Verdict | None]]:  # fmt: skip
        """Verdict pairs of the checker's compact reply lines ``got`` (for ``n`` cases: missing ones
        UNKNOWN). A line's meaning depends only on its bytes, so each distinct line is decoded once per
        batch (``_reply_line``; most lines of a batch are the same two letters): the distinct lines and
        how often each occurs are counted in one pass (``Counter``, in C), the steps a line reports are
        added once per occurrence, and the pairs are looked up line by line (``map``, in C) in order."""
        unknown = Verdict.unknown("compiled checker gave no answer", "error")
        pairs: dict[bytes, tuple[Verdict, Verdict | None]] = {}
        steps = 0
        for raw, count in collections.Counter(got).items():
            pairs[raw], line_steps = _reply_line(raw, with_output)
            steps += line_steps * count
        self.steps += steps
        verdicts = list(map(pairs.__getitem__, got))
        miss = (unknown, unknown if with_output else None)
        verdicts.extend(miss for _ in range(n - len(verdicts)))
        return verdicts


_CODES = {ord("T"): "TRUE", ord("F"): "FALSE", ord("U"): "UNKNOWN"}


def _lines(stdout: str | bytes) -> list[bytes]:
    """The reply lines of a one-shot run's output, as bytes (the form the session's replies have)."""
    return (stdout.encode("utf-8") if isinstance(stdout, str) else stdout).splitlines()


# decoded reply lines, shared by every batch of the process (the same few lines — "TT", "TF" — recur in
# every batch); emptied when full, so lines that carry step counts cannot make it grow without bound
_LINE_CACHE: dict[tuple[bytes, bool], tuple[tuple[Verdict, Verdict | None], int]] = {}
_LINE_CACHE_MAX = 4096


def _reply_line(raw: bytes, with_output: bool) -> tuple[tuple[Verdict, Verdict | None], int]:
    """(verdict pair, steps reported) of one compact reply line: ``_decode_line``, remembered."""
    key = (raw, with_output)
    hit = _LINE_CACHE.get(key)
    if hit is None:
        hit = _decode_line(raw, with_output)
        if len(_LINE_CACHE) >= _LINE_CACHE_MAX:
            _LINE_CACHE.clear()
        _LINE_CACHE[key] = hit
    return hit


def _decode_line(raw: bytes, with_output: bool) -> tuple[tuple[Verdict, Verdict | None], int]:
    """(verdict pair, steps reported) of one compact reply line (``runtime_rs``'s ``serve``): letters,
    an optional ``#steps``, and — when a verdict is not TRUE — the reasons as tab-separated JSON strings;
    a ``{"bad": ...}`` object is a case that does not decode. Anything else is UNKNOWN (no answer)."""
    unknown = Verdict.unknown("compiled checker gave no answer", "error")
    miss = (unknown, unknown if with_output else None)
    if raw.startswith(b"{"):
        d = _loads_or_none(raw)
        if type(d) is dict and "bad" in d:
            bad = Verdict.unknown(f"compiled checker: input does not decode: {d['bad']}", "error")
            steps = d.get("steps")  # (the steps of the request line's earlier cases)
            return (bad, bad if with_output else None), steps if type(steps) is int else 0
        return miss, 0
    head, tab, rest = raw.partition(b"\t")
    codes, _, count = head.partition(b"#")
    try:
        steps = int(count) if count else 0
        reasons = json.loads(b"[" + rest.replace(b"\t", b",") + b"]") if tab else []
    except ValueError:
        return miss, 0
    if not 1 <= len(codes) <= 2 or any(c not in _CODES for c in codes) or len(reasons) not in (0, len(codes)):
        return miss, 0
    d: dict[str, Any] = {}
    for k, key in enumerate(("requires", "ensures")[: len(codes)]):
        d[key] = _CODES[codes[k]]
        d[f"{key}_reason"] = reasons[k] if reasons else ""
    req = _verdict(d, "requires")
    ens = _verdict(d, "ensures") if "ensures" in d else None
    return (req, ens if with_output else None), steps


# one encoder for every batch (``json.dumps`` with options builds a new encoder per call); compact, and
# non-finite floats refused (the checker's JSON reader has no NaN). No circular-reference bookkeeping (an
# id per list and dict, 15-25% of the encoding): the cases are JSON values built fresh by the engine; a
# circular or too deeply nested one still ends the encoding, with RecursionError (caught where it is used)
_ENCODE = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False
).encode


def _encode_batch(objs: list[dict[str, Any]]) -> bytes | None:
    """The batch as one line of UTF-8 JSON, or None when the encoder refuses it (``_ENCODE``'s rules).

    ``orjson`` (about 10x the standard encoder on the rows of sequences of integers that dominate a
    batch) when its bytes are what ``_ENCODE`` would give, else ``_ENCODE`` itself: orjson refuses
    integers beyond 64 bits, non-string keys and deep nesting (the standard encoder then decides), and
    writes a non-finite float as ``null`` where ``_ENCODE`` refuses it — so a batch whose orjson form
    holds ``null`` anywhere (an Option's None too: rare) is encoded again by ``_ENCODE``. Otherwise the
    two give the same bytes (compact separators, UTF-8 text unescaped), except a float's exponent
    (``1e16``, not ``1e+16``: the same number; the checker's integers never take that form)."""
    try:
        out = _orjson_dumps(objs)
        if b"null" not in out:
            return out
    except TypeError:  # (orjson.JSONEncodeError is a TypeError)
        pass
    try:
        return _ENCODE(objs).encode("utf-8")
    except (TypeError, ValueError, RecursionError):  # (UnicodeEncodeError: a lone surrogate)
        return None


def _encode_one(obj: dict[str, Any]) -> str:
    """One case per line; a case the encoder refuses becomes a line the checker reports as undecodable."""
    try:
        return _ENCODE(obj)
    except (TypeError, ValueError, RecursionError) as exc:
        return json.dumps({"bad input": str(exc)})


def _loads_or_none(line: str | bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def checker_for_source(spec: str, input_names: Sequence[str], target: str | None,
                       cache: Path | str | None = None) -> CompiledChecker | None:  # fmt: skip
    """A compiled checker, or None when the target is outside the translatable fragment."""
    try:
        ck = translate(spec, input_names, target=target)
    except Untranslatable:
        return None
    comp = compile_checker(ck.source, cache=cache)
    return CompiledChecker(ck, comp.binary, comp.errors if not comp.ok else "")


def build_checker(problem: Any, cache: Path | str | None = None) -> CompiledChecker | None:
    if problem.ref_signature.receiver or problem.constructor is not None:
        return None
    names = [q.name for q in problem.ref_signature.params]
    return checker_for_source(problem.spec, names, problem.signature.name, cache)


def _one(args: tuple[Any, str, bool, str | None]) -> tuple[dict[str, Any], str | None]:
    """Translate (and compile) one problem; returns its status and an error line or None."""
    p, out, compile_them, cache = args
    status: dict[str, Any] = {"problem": p.id}
    err = None
    dst = Path(out) / p.kind / p.id
    dst.mkdir(parents=True, exist_ok=True)
    try:
        if p.ref_signature.receiver or p.constructor is not None:
            raise Untranslatable("methods with a receiver")
        ck = translate(p.spec, [q.name for q in p.ref_signature.params], target=p.signature.name)
    except Untranslatable as exc:
        status.update(translated=False, reason=str(exc))
    else:
        status.update(translated=True, complete=ck.complete, untranslated=ck.untranslated)
        standalone = translate(p.spec, [q.name for q in p.ref_signature.params], target=p.signature.name,
                               standalone=True)  # fmt: skip
        (dst / "post2exe.rs").write_text(standalone.source, encoding="utf-8")
        if compile_them:
            comp = compile_checker(ck.source, cache=cache)
            status["compiled"] = comp.ok
            if not comp.ok:
                status["compile_error"] = comp.errors[:2000]
                err = f"{p.id}: checker does not compile"
    (dst / "status.json").write_text(json.dumps(status, indent=1) + "\n", encoding="utf-8")
    return status, err


def write_checkers(
    problems: Sequence[Any],
    out: Path | str,
    *,
    compile_them: bool = True,
    cache: Path | str | None = None,
    jobs: int = 1,
    load_errors: Sequence[tuple[str, str]] = (),
) -> dict[str, Any]:
    """``veriscale post2exe``: checker sources (and compiled binaries, cached) for every problem;
    ``load_errors`` (problem id, why) are problems that could not be read, reported as such."""
    from ....runtime.executor import pool_executor

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    work = [(p.id, (p, str(out), compile_them, None if cache is None else str(cache))) for p in problems]
    done: dict[str, tuple[dict[str, Any], str | None]] = {}

    def on_done(key: str, result: Any, error: str | None, _seconds: float) -> None:
        done[key] = (
            result if result is not None else ({"problem": key, "translated": False}, f"{key}: {error}")
        )

    pool_executor(jobs).run(_one, work, on_done)
    results = [
        ({"problem": pid, "translated": False, "reason": why}, f"{pid}: {why}") for pid, why in load_errors
    ]
    results += [done[key] for key, _ in work]
    summary: dict[str, Any] = {
        "problems": len(results),
        "translated": sum(1 for st, _ in results if st.get("translated")),
        "complete": sum(1 for st, _ in results if st.get("complete")),
        "compiled": sum(1 for st, _ in results if st.get("compiled")),
        "errors": [e for _, e in results if e],
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return summary
