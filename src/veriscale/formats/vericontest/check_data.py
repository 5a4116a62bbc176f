"""``check-data`` for VeriContest: every problem loads, every example decodes into its types."""

from __future__ import annotations

from pathlib import Path

from ...values import rust_codec
from ...values.codec import DecodeError
from ...values.rust_types import value_type
from ..findings import CheckReport, Failure
from .dataset import Problem, ProblemError, discover_problems, read_problem

__all__ = ["check_dataset", "check_problem"]


def check_problem(problem: Problem, report: CheckReport) -> None:
    """LeetCode examples: each input value and the output decode strictly; Codeforces: raw text, counted."""
    for ex in problem.examples:
        report.rows += 1
        if problem.is_codeforces:
            report.values += 1
            continue
        if ex.error is not None or ex.inputs is None:
            report.failures.append(
                Failure(
                    "example does not parse",
                    problem.id,
                    "description.md",
                    ex.index,
                    None,
                    ex.input_text,
                    ex.error,
                )
            )
            continue
        params = {p.name: p for p in problem.ref_signature.params}
        if problem.constructor is not None:
            params.update({p.name: p for p in problem.constructor.params})
        fields = [(name, raw, params[name].value_type if name in params else None)
                  for name, raw in ex.inputs.items()]  # fmt: skip
        fields.append(("output", ex.output, value_type(problem.ref_signature.ret_type)))
        for name, raw, typ in fields:
            report.values += 1
            if typ is None:
                report.failures.append(
                    Failure("unknown parameter", problem.id, "description.md", ex.index, name, str(raw))
                )
                continue
            try:
                rust_codec.decode(typ, raw, structs=problem.structs)
            except DecodeError as err:
                report.failures.append(
                    Failure(err.reason, problem.id, "description.md", ex.index, name, str(raw), err.detail)
                )


def check_dataset(root: Path) -> CheckReport:
    """Check every problem; one that cannot be read at all is one failure ("unreadable task")."""
    report = CheckReport(root.resolve().name, str(root))
    for d in discover_problems(root):
        report.tasks += 1
        try:
            problem = read_problem(d)
        except ProblemError as err:
            report.failures.append(Failure("unreadable task", d.name, "", None, None, "", str(err)))
            continue
        check_problem(problem, report)
    return report
