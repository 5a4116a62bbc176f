"""Repair feedback for VeriContest, from the problem's description examples (no Verus needed).

* code tasks (nl2code, spec2code, nl_spec2code): the candidate program is
  compiled with rustc (Verus erased) around the problem's harness; a compile
  error or a forbidden construct is the feedback; else the examples run — the
  first example whose output is wrong is reported with input, expected and
  got. An output that differs from the stated one but that the ground-truth
  ``ensures`` accepts is not wrong (problems with several valid answers).
  spec2code / nl_spec2code answers must also keep the given ``requires`` /
  ``ensures`` (compared token for token, whitespace ignored).
* nl2spec: the candidate ``requires`` must accept every example input and the
  candidate ``ensures`` must accept the reference's output on it (Codeforces:
  on every call of the target function that the reference made while running
  the example); the first rejection is reported as a counterexample.
* proof tasks: only Verus can check a proof; no feedback (not repaired).

A check that cannot decide (UNKNOWN, an example that does not decode) gives no
feedback for that example.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...formats.registry import detect_format
from ...languages.registry import language
from ...runtime.engine import OutcomeKind, Truth
from ...values import rust_codec
from ...values.codec import DecodeError

__all__ = ["vericontest_feedback"]

_CODE_TASKS = ("nl2code", "spec2code", "nl_spec2code")
_MAX_SHOW = 300


def _show(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= _MAX_SHOW else s[:_MAX_SHOW] + "…"


def _squash(text: str | None) -> str:
    return re.sub(r"\s+", "", text or "")


def _given_clauses(problem: Any) -> tuple[str, str] | None:
    from ...formats.vericontest.generate import VERICONTEST_GENERATION as G

    ex = G.extract(problem, "spec2code", f"```rust\n{problem.spec}\n```")
    if not ex.ok:
        return None
    return _squash(ex.fields.get("requires")), _squash(ex.fields.get("ensures"))


def _run_once_more_on_crash(te: Any, inputs: dict[str, Any], out: Any) -> Any:
    """A crash may not be the candidate's doing (the OS refusing a thread on a loaded machine,
    EAGAIN): run the case once more; if the OS still refuses, the case is undecided (None)."""
    if out.kind is OutcomeKind.ERROR and str(out.reason).startswith("crash"):
        out = te.runs([inputs])[0]
        if out.kind is OutcomeKind.ERROR and "os error 11" in str(out.reason):
            return None
    return out


class _Checker:
    def __init__(self, benchmark: Path) -> None:
        self.fmt = detect_format(benchmark)
        self.dirs = {d.name: d for d in self.fmt.task_dirs(benchmark)}
        self.verus = language("verus")
        self.engine = self.verus.make_engine("native")
        self._problems: dict[str, Any] = {}

    def problem(self, task_id: str) -> Any:
        if task_id not in self._problems:
            self._problems[task_id] = self.fmt.read_task(self.dirs[task_id])
        return self._problems[task_id]

    # ---- code
    def code(self, p: Any, kind: str, line: dict[str, Any]) -> str | None:
        if kind != "nl2code":
            given = _given_clauses(p)
            if given is not None and (
                _squash(line.get("requires")) != given[0] or _squash(line.get("ensures")) != given[1]
            ):
                return "The specification (requires/ensures) was modified; it must be kept exactly as given."
        te = self.engine.for_task(p, {"code": line["program"]})
        if te._code_error:
            return te._code_error
        ref = self.engine.for_task(p)
        if p.is_codeforces and kind != "nl2code":
            return self._cf_function(p, te, ref)
        if p.is_codeforces:
            comp = te.runner.traced()
            if not comp.ok:
                return f"compile error:\n{comp.errors[:1500]}"
            for ex in p.examples:
                if ex.error:
                    continue
                res = te.runner.run_stdin(ex.stdin).result
                if not res.ok:
                    return f"example {ex.index}: input\n{ex.stdin}\n{res.status}: {res.message[:500]}"
                norm = self.verus.normalize_stdout  # type: ignore[attr-defined]
                got, want = norm(res.stdout), norm(ex.stdout)
                if got != want:
                    return f"example {ex.index}: input\n{ex.stdin}\nexpected output\n{want}\ngot\n{got}"
            return None
        comp = te.runner.harness()
        if not comp.ok:
            return f"compile error:\n{comp.errors[:1500]}"
        for ex in p.examples:
            if ex.inputs is None:
                continue
            try:
                inputs = te.decode_inputs(ex.inputs)
                expected = te.decode_output(ex.output)
            except DecodeError:
                continue
            out = _run_once_more_on_crash(te, inputs, te.runs([inputs])[0])
            if out is None:
                continue
            shown = ", ".join(f"{k} = {_show(v)}" for k, v in ex.inputs.items())
            if out.kind is OutcomeKind.TIMEOUT or out.kind is OutcomeKind.ERROR:
                return f"example {ex.index}: input {shown}: {out.kind.value}: {out.reason}"
            if out.kind is not OutcomeKind.VALUE or out.value == expected:
                continue
            if ref.postcondition(inputs, out.value).truth is Truth.TRUE:
                continue  # another valid answer
            return f"example {ex.index}: input {shown}: expected {_show(expected)}, got {_show(out.value)}"
        return None

    def _cf_calls(self, p: Any, ref: Any) -> list[tuple[dict[str, Any], Any, str]]:
        """(inputs, reference output, where) of every call of the target function that the
        reference program makes on the description's examples."""
        params = p.ref_signature.params
        cases = []
        for ex in p.examples:
            if ex.error:
                continue
            for call in ref.runner.run_stdin(ex.stdin).calls:
                args = call.get("args")
                if not isinstance(args, list) or len(args) != len(params):
                    continue
                try:
                    inputs = {
                        q.name: rust_codec.decode(q.value_type, a, structs=p.structs)
                        for q, a in zip(params, args, strict=True)
                    }
                    cases.append((inputs, ref.decode_output(call.get("ret")), f"example {ex.index}"))
                except DecodeError:
                    continue
        return cases

    def _cf_function(self, p: Any, te: Any, ref: Any) -> str | None:
        """A Codeforces answer that is the Verus function only (spec2code, nl_spec2code): it is
        called on the inputs the reference's own calls had on the examples."""
        comp = te.runner.harness()
        if not comp.ok:
            return f"compile error:\n{comp.errors[:1500]}"
        cases = self._cf_calls(p, ref)
        outs = te.runs([c[0] for c in cases]) if cases else []
        for (inputs, want, where), out in zip(cases, outs, strict=True):
            out = _run_once_more_on_crash(te, inputs, out)
            if out is None:
                continue
            shown = ", ".join(f"{k} = {_show(v)}" for k, v in inputs.items())
            if out.kind is OutcomeKind.TIMEOUT or out.kind is OutcomeKind.ERROR:
                return f"{where}: call with {shown}: {out.kind.value}: {out.reason}"
            if out.kind is not OutcomeKind.VALUE or out.value == want:
                continue
            if ref.postcondition(inputs, out.value).truth is Truth.TRUE:
                continue
            return f"{where}: call with {shown}: expected {_show(want)}, got {_show(out.value)}"
        return None

    # ---- nl2spec
    def spec(self, p: Any, line: dict[str, Any]) -> str | None:
        te = self.engine.for_task(p, {"spec": line["program"]})
        if te.spec() is None:
            return f"the specification does not load: {te._spec_error}"
        ref = self.engine.for_task(p)
        cases: list[tuple[dict[str, Any], Any, str]] = []
        if p.is_codeforces:
            cases = self._cf_calls(p, ref)
        else:
            rows = []
            for ex in p.examples:
                if ex.inputs is None:
                    continue
                try:
                    rows.append((ref.decode_inputs(ex.inputs), f"example {ex.index}"))
                except DecodeError:
                    continue
            outs = ref.runs([r for r, _ in rows]) if rows else []
            cases = [
                (r, o.value, w) for (r, w), o in zip(rows, outs, strict=True) if o.kind is OutcomeKind.VALUE
            ]
        for inputs, output, where in cases:
            shown = ", ".join(f"{k} = {_show(v)}" for k, v in inputs.items())
            if te.precondition(inputs).truth is Truth.FALSE:
                return f"{where}: your `requires` rejects the valid input {shown}"
            if te.postcondition(inputs, output).truth is Truth.FALSE:
                return f"{where}: your `ensures` rejects the correct output {_show(output)} for input {shown}"
        return None


def vericontest_feedback(benchmark: Path, suite: Path, workers: int) -> Any:
    checker = _Checker(benchmark)

    def feedback(kind: str, lines: list[dict[str, Any]]) -> dict[tuple[str, int], str | None]:
        out: dict[tuple[str, int], str | None] = {}
        if kind not in (*_CODE_TASKS, "nl2spec"):
            return out
        for line in lines:
            if line.get("extraction_error") or not line.get("program"):
                continue
            key = (line["task_id"], int(line.get("sample", 0)))
            try:
                p = checker.problem(line["task_id"])
                out[key] = checker.spec(p, line) if kind == "nl2spec" else checker.code(p, kind, line)
            except Exception:  # a check that breaks gives no feedback; it never stops the run
                out[key] = None
        return out

    return feedback
