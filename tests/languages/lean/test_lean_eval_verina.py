"""Ground truth of every Verina task, run by the native evaluator.

For each of the 189 tasks: the precondition must hold on every test input
and fail on every reject input; the implementation must return the stored
expected output; the postcondition must hold on (input, expected) and fail
on every unexpected output. The only tolerated failures are the tasks with
an unbounded quantifier, which raise ``Unsupported`` until a sound witness
search exists.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from shared_data import require
from veriscale.languages.lean.errors import LeanError, Unsupported
from veriscale.languages.lean.program import SECTION_ORDER, TaskProgram
from veriscale.runtime import limits
from veriscale.values.codec import DecodeError, values_equal

UNBOUNDED = {
    "verina_basic_3",
    "verina_basic_48",
    "verina_basic_66",
    "verina_advanced_14",
    "verina_advanced_20",
    "verina_advanced_23",
    "verina_advanced_66",
}

CHECKS = ("pre_true", "pre_false", "code", "post_true", "post_false")


@dataclass
class TaskReport:
    task: str
    counts: Counter[str] = field(default_factory=Counter)  # check -> passed
    totals: Counter[str] = field(default_factory=Counter)  # check -> attempted
    failures: list[str] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _call(fn: Any) -> tuple[Any, LeanError | None]:
    try:
        with limits.using(limits.Budget(limits.Limits(seconds=20.0))):
            return fn(), None
    except LeanError as exc:
        return None, exc


def check_task(task: Any) -> TaskReport:
    """Run every ground-truth check of one task (a ``benchmarks.verina.Task``)."""
    rep = TaskReport(task.id)
    start = time.monotonic()
    sig = task.signature
    prog = TaskProgram.build(
        sig.name,
        [(p.name, p.type) for p in sig.params],
        sig.return_type,
        {s: task.section_text(s) for s in SECTION_ORDER},
    )

    def record(check: str, ok: bool, err: LeanError | None, what: str) -> None:
        rep.totals[check] += 1
        if err is not None:
            msg = f"{check} {what}: {type(err).__name__}: {err}"
            (rep.unsupported if isinstance(err, Unsupported) else rep.failures).append(msg)
        elif ok:
            rep.counts[check] += 1
        else:
            rep.failures.append(f"{check} {what}: wrong answer")

    for i, tc in enumerate(task.tests):
        try:
            inputs = tc.decode_input(task, i)
            expected = tc.decode_expected(task, i)
            unexpected = tc.decode_unexpected(task, i)
        except DecodeError as exc:
            rep.failures.append(f"decode test {i}: {exc}")
            continue
        v, err = _call(lambda inputs=inputs: prog.precond(inputs))
        record("pre_true", v is True, err, f"test {i}")
        v, err = _call(lambda inputs=inputs: prog.run(inputs))
        ok = err is None and values_equal(sig.return_type, v, expected)
        record("code", ok, err, f"test {i} (got {v!r}, expected {expected!r})")
        v, err = _call(lambda inputs=inputs, expected=expected: prog.postcond(inputs, expected))
        record("post_true", v is True, err, f"test {i}")
        for j, u in enumerate(unexpected):
            v, err = _call(lambda inputs=inputs, u=u: prog.postcond(inputs, u))
            record("post_false", v is False, err, f"test {i} unexpected {j}")
    for i, rj in enumerate(task.reject_inputs):
        try:
            inputs = rj.decode_input(task, i)
        except DecodeError as exc:
            rep.failures.append(f"decode reject {i}: {exc}")
            continue
        v, err = _call(lambda inputs=inputs: prog.precond(inputs))
        record("pre_false", v is False, err, f"reject {i}")
    rep.seconds = time.monotonic() - start
    return rep


def load_tasks() -> list[Any]:
    root = require("verina")
    from veriscale.formats.verina.dataset import read_dataset

    return read_dataset(root)


def test_verina_ground_truth() -> None:
    tasks = load_tasks()
    totals: Counter[str] = Counter()
    passed: Counter[str] = Counter()
    problems: list[str] = []
    for task in tasks:
        rep = check_task(task)
        totals.update(rep.totals)
        passed.update(rep.counts)
        problems.extend(f"{task.id}: {m}" for m in rep.failures)
        if task.id not in UNBOUNDED:
            problems.extend(f"{task.id}: {m}" for m in rep.unsupported)
    summary = {c: f"{passed[c]}/{totals[c]}" for c in CHECKS}
    assert not problems, f"{summary}\n" + "\n".join(problems[:60])
    assert totals["code"] == 1114 and totals["pre_false"] == 123
