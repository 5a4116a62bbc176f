"""Check an engine against a dataset's ground truth (``veriscale check``).

For every task: the precondition must hold on test inputs and fail on reject
inputs; the implementation must reproduce the stored expected output; the
postcondition must accept (input, expected) and reject every unexpected output.
Rows the strict decoder rejects are reported apart: they are data defects, not
disagreements.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...formats.verina.dataset import task_sort_key
from ...runtime.engine import Engine, Outcome, OutcomeKind, Verdict
from ...values.codec import DecodeError
from ...values.types import Type
from ..scoring.compare import outputs_match

__all__ = ["CHECKS", "CheckReport", "Finding", "TaskReport", "check_task", "merge_reports"]

# check name -> (what the ground truth must give, human label)
CHECKS: dict[str, str] = {
    "precond_accepts_tests": "precondition TRUE on test inputs",
    "precond_rejects_rejects": "precondition FALSE on reject inputs",
    "impl_matches_expected": "implementation output equals expected",
    "postcond_accepts_expected": "postcondition TRUE on expected outputs",
    "postcond_rejects_unexpected": "postcondition FALSE on unexpected outputs",
}


@dataclass(frozen=True, slots=True)
class Finding:
    task: str
    check: str
    row: int
    kind: str  # "disagree", "unknown", "undecodable"
    detail: str
    sub: int | None = None  # index of the unexpected output
    group: str = ""  # short reason to group findings by (the codec's reason for undecodable rows)


@dataclass
class TaskReport:
    task: str
    agree: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHECKS, 0))
    total: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHECKS, 0))
    findings: list[Finding] = field(default_factory=list)

    def add(self, check: str, ok: bool, finding: Finding | None = None) -> None:
        self.total[check] += 1
        if ok:
            self.agree[check] += 1
        elif finding is not None:
            self.findings.append(finding)


@dataclass
class CheckReport:
    tasks: list[TaskReport] = field(default_factory=list)

    def totals(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for check in CHECKS:
            agree = sum(t.agree[check] for t in self.tasks)
            total = sum(t.total[check] for t in self.tasks)
            unknown = sum(
                1 for t in self.tasks for f in t.findings if f.check == check and f.kind == "unknown"
            )
            undecodable = sum(
                1 for t in self.tasks for f in t.findings if f.check == check and f.kind == "undecodable"
            )
            out[check] = {
                "agree": agree,
                "total": total,
                "disagree": total - agree - unknown - undecodable,
                "decodable": total - undecodable,
                "unknown": unknown,
                "undecodable": undecodable,
            }
        return out

    def findings(self) -> list[Finding]:
        return [f for t in self.tasks for f in t.findings]


def merge_reports(reports: Iterable[TaskReport]) -> CheckReport:
    return CheckReport(tasks=sorted(reports, key=lambda r: task_sort_key(r.task)))


def _verdict_finding(
    task: str, check: str, row: int, v: Verdict, want: bool, sub: int | None = None
) -> Finding:
    if v.is_unknown:
        return Finding(task, check, row, "unknown", f"{v.category}: {v.reason}", sub)
    return Finding(task, check, row, "disagree", f"got {v.truth.value}, expected {want}", sub)


def check_task(
    engine: Engine, task: Any, dataset: str = "", checks: frozenset[str] | None = None
) -> TaskReport:
    """Run the selected ``checks`` (default: all of ``CHECKS``) of the ground truth on every row."""
    want = checks if checks is not None else frozenset(CHECKS)
    rep = TaskReport(task.id)
    te = engine.for_task(task)
    ret: Type = task.signature.return_type
    test_file = task.files.get("test_file", "test.json")
    reject_file = task.files.get("reject_inputs_file", "reject_inputs.json")

    def undecodable(check: str, row: int, exc: DecodeError, sub: int | None = None) -> None:
        if check in want:
            rep.add(check, False, Finding(task.id, check, row, "undecodable", str(exc), sub, exc.reason))

    def verdict(check: str, row: int, v: Verdict, truth: bool, sub: int | None = None) -> None:
        ok = v.is_true if truth else v.is_false
        rep.add(check, ok, None if ok else _verdict_finding(task.id, check, row, v, truth, sub))

    for i, tc in enumerate(task.tests):
        unexpected = tc.unexpected or []
        try:
            inputs = task.decode_input(tc.input, file=test_file, row=i)
        except DecodeError as exc:
            for check in ("precond_accepts_tests", "impl_matches_expected", "postcond_accepts_expected"):
                undecodable(check, i, exc)
            for u in range(len(unexpected)):
                undecodable("postcond_rejects_unexpected", i, exc, u)
            continue

        if "precond_accepts_tests" in want:
            verdict("precond_accepts_tests", i, te.precondition(inputs), True)

        if want & {"impl_matches_expected", "postcond_accepts_expected"}:
            try:
                expected = task.decode_output(tc.expected, file=test_file, row=i)
            except DecodeError as exc:
                undecodable("impl_matches_expected", i, exc)
                undecodable("postcond_accepts_expected", i, exc)
            else:
                if "impl_matches_expected" in want:
                    _check_run(rep, te.run(inputs), ret, expected, task.id, i)
                if "postcond_accepts_expected" in want:
                    verdict("postcond_accepts_expected", i, te.postcondition(inputs, expected), True)

        if "postcond_rejects_unexpected" in want:
            for u, raw_u in enumerate(unexpected):
                try:
                    wrong = task.decode_output(raw_u, file=test_file, row=i, field=f"unexpected[{u}]")
                except DecodeError as exc:
                    undecodable("postcond_rejects_unexpected", i, exc, u)
                    continue
                verdict("postcond_rejects_unexpected", i, te.postcondition(inputs, wrong), False, u)

    if "precond_rejects_rejects" in want:
        for i, rj in enumerate(task.reject_inputs):
            try:
                inputs = task.decode_input(rj.input, file=reject_file, row=i)
            except DecodeError as exc:
                undecodable("precond_rejects_rejects", i, exc)
                continue
            verdict("precond_rejects_rejects", i, te.precondition(inputs), False)
    return rep


def _check_run(rep: TaskReport, out: Outcome, ret: Type, expected: Any, task_id: str, row: int) -> None:
    check = "impl_matches_expected"
    if out.kind is OutcomeKind.VALUE:
        ok = outputs_match(ret, out.value, expected)
        detail = "" if ok else f"got {out.value!r}, expected {expected!r}"
        rep.add(check, ok, None if ok else Finding(task_id, check, row, "disagree", detail))
        return
    # a runtime error of the ground truth is a disagreement; timeouts/unsupported are our limits
    kind = "disagree" if out.kind is OutcomeKind.ERROR else "unknown"
    rep.add(check, False, Finding(task_id, check, row, kind, f"{out.kind.value}: {out.reason}"))
