"""Check an engine against a dataset's ground truth (``veriscale check``).

For every task: the precondition must hold on test inputs and fail on reject
inputs; the implementation must reproduce the stored expected output; the
postcondition must accept (input, expected) and reject every unexpected output.
Rows the strict decoder rejects are reported apart: they are data defects, not
disagreements.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engines.base import Engine, OutcomeKind, Verdict
from ..values.codec import DecodeError, ValueContext, decode
from ..values.types import Type
from .compare import outputs_match

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
            unknown = sum(1 for t in self.tasks for f in t.findings if f.check == check and f.kind == "unknown")
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
    return CheckReport(tasks=sorted(reports, key=lambda r: _task_sort_key(r.task)))


def _task_sort_key(task_id: str) -> tuple[str, int, str]:
    head, _, num = task_id.rpartition("_")
    return (head, int(num) if num.isdigit() else -1, task_id)


def _decode_inputs(task: Any, raw: Mapping[str, Any], ctx: ValueContext) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in task.signature.params:
        c = ValueContext(dataset=ctx.dataset, task=ctx.task, file=ctx.file, row=ctx.row, field=f"input.{p.name}")
        if p.name not in raw:
            raise DecodeError("missing input parameter").located(c)
        out[p.name] = decode(p.type, raw[p.name], structs=task.structs, ctx=c)
    return out


def _verdict_finding(task: str, check: str, row: int, v: Verdict, want: bool, sub: int | None = None) -> Finding:
    if v.is_unknown:
        return Finding(task, check, row, "unknown", f"{v.category}: {v.reason}", sub)
    return Finding(task, check, row, "disagree", f"got {v.truth.value}, expected {want}", sub)


def check_task(engine: Engine, task: Any, dataset: str = "") -> TaskReport:
    rep = TaskReport(task.id)
    te = engine.for_task(task)
    ret: Type = task.signature.return_type

    for i, tc in enumerate(task.tests):
        ctx = ValueContext(dataset=dataset, task=task.id, file="test.json", row=i)
        try:
            inputs = _decode_inputs(task, tc.input, ctx)
        except DecodeError as exc:
            for check in ("precond_accepts_tests", "impl_matches_expected", "postcond_accepts_expected"):
                rep.add(check, False, Finding(task.id, check, i, "undecodable", str(exc), group=exc.reason))
            for u in range(len(tc.unexpected or [])):
                rep.add(
                    "postcond_rejects_unexpected",
                    False,
                    Finding(task.id, "postcond_rejects_unexpected", i, "undecodable", str(exc), u, exc.reason),
                )
            continue

        v = te.precondition(inputs)
        rep.add("precond_accepts_tests", v.is_true, None if v.is_true else _verdict_finding(
            task.id, "precond_accepts_tests", i, v, True))

        expected: Any = None
        expected_ok = True
        try:
            expected = decode(ret, tc.expected, structs=task.structs,
                              ctx=ValueContext(dataset=dataset, task=task.id, file="test.json", row=i, field="expected"))
        except DecodeError as exc:
            expected_ok = False
            for check in ("impl_matches_expected", "postcond_accepts_expected"):
                rep.add(check, False, Finding(task.id, check, i, "undecodable", str(exc), group=exc.reason))

        if expected_ok:
            out = te.run(inputs)
            if out.kind is OutcomeKind.VALUE:
                ok = outputs_match(ret, out.value, expected)
                rep.add("impl_matches_expected", ok, None if ok else Finding(
                    task.id, "impl_matches_expected", i, "disagree", f"got {out.value!r}, expected {expected!r}"))
            else:
                kind = "disagree" if out.kind is OutcomeKind.ERROR else "unknown"
                rep.add("impl_matches_expected", False, Finding(
                    task.id, "impl_matches_expected", i, kind, f"{out.kind.value}: {out.reason}"))
            v = te.postcondition(inputs, expected)
            rep.add("postcond_accepts_expected", v.is_true, None if v.is_true else _verdict_finding(
                task.id, "postcond_accepts_expected", i, v, True))

        for u, raw_u in enumerate(tc.unexpected or []):
            try:
                wrong = decode(ret, raw_u, structs=task.structs,
                               ctx=ValueContext(dataset=dataset, task=task.id, file="test.json", row=i, field=f"unexpected[{u}]"))
            except DecodeError as exc:
                rep.add("postcond_rejects_unexpected", False, Finding(
                    task.id, "postcond_rejects_unexpected", i, "undecodable", str(exc), u, exc.reason))
                continue
            v = te.postcondition(inputs, wrong)
            rep.add("postcond_rejects_unexpected", v.is_false, None if v.is_false else _verdict_finding(
                task.id, "postcond_rejects_unexpected", i, v, False, u))

    for i, rj in enumerate(task.reject_inputs):
        ctx = ValueContext(dataset=dataset, task=task.id, file="reject_inputs.json", row=i)
        try:
            inputs = _decode_inputs(task, rj.input, ctx)
        except DecodeError as exc:
            rep.add("precond_rejects_rejects", False, Finding(
                task.id, "precond_rejects_rejects", i, "undecodable", str(exc), group=exc.reason))
            continue
        v = te.precondition(inputs)
        rep.add("precond_rejects_rejects", v.is_false, None if v.is_false else _verdict_finding(
            task.id, "precond_rejects_rejects", i, v, False))
    return rep
