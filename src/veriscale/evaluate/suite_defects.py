"""Suite rows the suite's own ground-truth specification contradicts: left out of scoring.

``cases.exclude_contradicted`` leaves out expected outputs the task's reference
implementation contradicts. This module does the same for the two other kinds
of rows a SpecGen score rests on:

* an **unexpected output the ground-truth postcondition accepts** is a correct
  answer, not a wrong one: a correct candidate postcondition would be failed
  for accepting it;
* a **reject input the ground-truth precondition accepts** is a valid input: a
  correct candidate precondition would be failed for accepting it.

Only a definite TRUE verdict of the ground truth counts; FALSE or UNKNOWN
(including running out of fuel) keeps the row, so nothing is left out on a
guess. The marked rows become undecodable-like suite defects (category
``bad_test_data``), counted in the metric's ``n_excluded``; ``--trust-suite``
skips all of this. Checks use the native engine with ``fuel`` steps each, and
stop once the task's checks spent ``task_fuel`` steps in all (the remaining
rows are kept): which rows are left out does not depend on the machine's load.
"""

from __future__ import annotations

from typing import Any

from .scoring.cases import SuiteRows

__all__ = ["exclude_accepted"]

CHECK_FUEL = 500_000
TASK_FUEL = 10_000_000


def exclude_accepted(
    task: Any,
    rows: SuiteRows,
    fuel: int = CHECK_FUEL,
    task_fuel: int = TASK_FUEL,
    seconds: float = 20.0,
) -> dict[str, list[str]]:
    """Mark the rows the ground truth accepts; returns ``{"unexpected": [where], "rejects": [where]}``."""
    from ..languages.registry import language_of
    from ..runtime.limits import Limits

    te = language_of(task).native_engine(Limits(fuel=fuel, seconds=seconds)).for_task(task)
    spent = (lambda: te.fuel_spent) if hasattr(te, "fuel_spent") else (lambda: 0)
    start = spent()
    out: dict[str, list[str]] = {"unexpected": [], "rejects": []}

    def budget_left() -> bool:
        return spent() - start <= task_fuel

    for rr in rows.rejects:
        if not budget_left():
            break
        if rr.inputs is None:
            continue
        if te.precondition(rr.inputs).is_true:
            rr.input_error = (
                "suite defect: the task's own precondition accepts this reject input (row left out)"
            )
            rr.inputs = None
            out["rejects"].append(f"reject {rr.row}")
    for tr in rows.tests:
        if tr.inputs is None:
            continue
        for u, (val, err) in enumerate(tr.unexpected):
            if err or not budget_left():
                continue
            if te.postcondition(tr.inputs, val).is_true:
                tr.unexpected[u] = (
                    None,
                    "suite defect: the task's own postcondition accepts this unexpected output "
                    "(a correct answer; left out)",
                )
                out["unexpected"].append(f"test {tr.row}, unexpected {u}")
    return out
