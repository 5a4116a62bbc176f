"""Cross-checking two engines (native vs. the Lean toolchain) on a sample of dataset rows.

Every row of a dataset gives checks ("items"): the precondition on each test
input and each reject input, the implementation on each test input, the
postcondition on each (input, expected) and each (input, unexpected) pair.
A deterministic sample of the items (``random.Random(seed)`` over the items
in dataset order) is run through both engines, batched per task and check,
and every item on which they answer differently is reported.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...runtime.engine import Engine, Outcome, OutcomeKind, Verdict
from ...values.codec import DecodeError, encode_lean
from ..scoring.compare import outputs_match

__all__ = [
    "ITEM_CHECKS",
    "CrossCheckReport",
    "Disagreement",
    "Item",
    "cross_check",
    "enumerate_items",
    "sample_items",
]

ITEM_CHECKS = ("precond_test", "precond_reject", "run", "postcond_expected", "postcond_unexpected")


@dataclass(frozen=True, order=True, slots=True)
class Item:
    task: str
    check: str
    row: int
    sub: int = -1  # index of the unexpected output (postcond_unexpected only)

    def label(self) -> str:
        sub = f"[{self.sub}]" if self.sub >= 0 else ""
        return f"{self.task} {self.check} row {self.row}{sub}"


@dataclass(frozen=True, slots=True)
class Disagreement:
    item: Item
    native: str
    lean: str
    kind: str  # "conflict": both decided, differently; "unknown": one side undecided; "value": outputs differ


@dataclass
class CrossCheckReport:
    total_items: int = 0
    sampled: int = 0
    agree: int = 0
    both_unknown: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)
    undecodable: list[tuple[Item, str]] = field(default_factory=list)
    failed_tasks: list[tuple[str, str]] = field(default_factory=list)  # (task, reason): an engine raised

    def to_json(self) -> dict[str, Any]:
        return {
            "total_items": self.total_items,
            "sampled": self.sampled,
            "agree": self.agree,
            "both_unknown": self.both_unknown,
            "disagree": len(self.disagreements),
            "undecodable": len(self.undecodable),
            "disagreements": [
                {
                    "task": d.item.task,
                    "check": d.item.check,
                    "row": d.item.row,
                    "unexpected_index": d.item.sub if d.item.sub >= 0 else None,
                    "kind": d.kind,
                    "native": d.native,
                    "lean": d.lean,
                }
                for d in self.disagreements
            ],
            "undecodable_items": [{"item": i.label(), "reason": r} for i, r in self.undecodable],
            "failed_tasks": [{"task": t, "reason": r} for t, r in self.failed_tasks],
        }


def enumerate_items(tasks: Sequence[Any]) -> list[Item]:
    """All checks of the dataset, in dataset order (task, then check, then row)."""
    items: list[Item] = []
    for task in tasks:
        tests = task.tests
        items.extend(Item(task.id, "precond_test", i) for i in range(len(tests)))
        items.extend(Item(task.id, "precond_reject", i) for i in range(len(task.reject_inputs)))
        items.extend(Item(task.id, "run", i) for i in range(len(tests)))
        items.extend(Item(task.id, "postcond_expected", i) for i in range(len(tests)))
        for i, tc in enumerate(tests):
            items.extend(Item(task.id, "postcond_unexpected", i, u) for u in range(len(tc.unexpected or [])))
    return items


def sample_items(items: Sequence[Item], n: int, seed: int) -> list[Item]:
    """``n`` items chosen by ``seed`` (all of them if ``n <= 0`` or ``n >= len``), in dataset order."""
    if n <= 0 or n >= len(items):
        return list(items)
    picks = sorted(random.Random(seed).sample(range(len(items)), n))
    return [items[i] for i in picks]


def _verdict_text(v: Verdict) -> str:
    if v.is_unknown:
        cat = f"{v.category}: " if v.category else ""
        return f"UNKNOWN ({cat}{v.reason})"
    return v.truth.value


def _outcome_text(o: Outcome, task: Any) -> str:
    if o.kind is OutcomeKind.VALUE:
        try:
            return "value " + encode_lean(task.signature.return_type, o.value, structs=task.structs)
        except (TypeError, ValueError, KeyError, AttributeError):
            return f"value {o.value!r}"
    return f"{o.kind.value.upper()} ({o.reason})" if o.reason else o.kind.value.upper()


class _TaskCheck:
    """Decoded values for one task's sampled items, and the comparison of the two engines."""

    def __init__(self, task: Any, items: list[Item], report: CrossCheckReport) -> None:
        self.task = task
        self.items = items
        self.report = report

    def _decode(self, item: Item) -> tuple[dict[str, Any], Any] | None:
        task = self.task
        try:
            if item.check == "precond_reject":
                return task.reject_inputs[item.row].decode_input(task, item.row), None
            tc = task.tests[item.row]
            inputs = tc.decode_input(task, item.row)
            if item.check == "postcond_expected":
                return inputs, tc.decode_expected(task, item.row)
            if item.check == "postcond_unexpected":
                raw = (tc.unexpected or [])[item.sub]
                return inputs, task.decode_output(
                    raw, file=task.files["test_file"], row=item.row, field=f"unexpected[{item.sub}]"
                )
            if item.check == "run":
                return inputs, tc.decode_expected(task, item.row)
            return inputs, None
        except DecodeError as exc:
            self.report.undecodable.append((item, str(exc)))
            return None

    def run(self, native: Engine, lean: Engine) -> None:
        decoded = [(it, self._decode(it)) for it in self.items]
        ok = [(it, d) for it, d in decoded if d is not None]
        te_native = native.for_task(self.task)
        te_lean = lean.for_task(self.task)
        pre = [(it, d) for it, d in ok if it.check in ("precond_test", "precond_reject")]
        if pre:
            rows = [d[0] for _, d in pre]
            for (it, _), a, b in zip(pre, te_native.preconditions(rows), te_lean.preconditions(rows)):
                self._verdicts(it, a, b)
        post = [(it, d) for it, d in ok if it.check in ("postcond_expected", "postcond_unexpected")]
        if post:
            pairs = [(d[0], d[1]) for _, d in post]
            for (it, _), a, b in zip(post, te_native.postconditions(pairs), te_lean.postconditions(pairs)):
                self._verdicts(it, a, b)
        runs = [(it, d) for it, d in ok if it.check == "run"]
        if runs:
            rows = [d[0] for _, d in runs]
            for (it, _), a, b in zip(runs, te_native.runs(rows), te_lean.runs(rows)):
                self._outcomes(it, a, b)

    def _verdicts(self, item: Item, a: Verdict, b: Verdict) -> None:
        rep = self.report
        if a.is_unknown and b.is_unknown:
            rep.both_unknown += 1
        elif a.truth is b.truth:
            rep.agree += 1
        else:
            kind = "unknown" if (a.is_unknown or b.is_unknown) else "conflict"
            rep.disagreements.append(Disagreement(item, _verdict_text(a), _verdict_text(b), kind))

    def _outcomes(self, item: Item, a: Outcome, b: Outcome) -> None:
        rep = self.report
        ret = self.task.signature.return_type
        if a.kind is OutcomeKind.VALUE and b.kind is OutcomeKind.VALUE:
            if outputs_match(ret, a.value, b.value):
                rep.agree += 1
            else:
                rep.disagreements.append(
                    Disagreement(item, _outcome_text(a, self.task), _outcome_text(b, self.task), "value")
                )
        elif a.kind is OutcomeKind.UNKNOWN and b.kind is OutcomeKind.UNKNOWN:
            rep.both_unknown += 1
        elif a.kind is b.kind:
            rep.agree += 1  # both report an error, or both time out
        else:
            kind = "unknown" if OutcomeKind.UNKNOWN in (a.kind, b.kind) else "conflict"
            rep.disagreements.append(
                Disagreement(item, _outcome_text(a, self.task), _outcome_text(b, self.task), kind)
            )


def cross_check(
    tasks: Sequence[Any], native: Engine, lean: Engine, *, sample: int = 50, seed: int = 0
) -> CrossCheckReport:
    """Run both engines on a deterministic sample of the dataset's checks."""
    items = enumerate_items(tasks)
    chosen = sample_items(items, sample, seed)
    report = CrossCheckReport(total_items=len(items), sampled=len(chosen))
    by_task: dict[str, list[Item]] = {}
    for it in chosen:
        by_task.setdefault(it.task, []).append(it)
    for task in tasks:
        if task.id in by_task:
            try:
                _TaskCheck(task, by_task.pop(task.id), report).run(native, lean)
            except Exception as exc:  # one task's failure must not lose the others' results
                report.failed_tasks.append((task.id, f"{type(exc).__name__}: {exc}"))
    order = {it: i for i, it in enumerate(chosen)}
    report.disagreements.sort(key=lambda d: order[d.item])
    report.undecodable.sort(key=lambda p: order[p[0]])
    return report
