"""The VeriContest format: problem folders (spec.rs, code.rs, description.md, tags, …)
under ``leetcode/`` and ``codeforces/``, specifications in Verus."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..api import FormatError, SuiteCounts
from ..findings import CheckReport
from .dataset import (
    Problem,
    ProblemError,
    discover_problems,
    is_vericontest_root,
    problem_sort_key,
    read_problem,
)
from .generate import VERICONTEST_GENERATION

__all__ = ["VERICONTEST", "VeriContestFormat"]


class VeriContestFormat:
    name = "vericontest"
    language = "verus"
    description = "problem folders holding spec.rs + code.rs, under leetcode/ or codeforces/"
    generation = VERICONTEST_GENERATION  # prompts and answer extraction for `veriscale generate`

    def detect(self, path: Path) -> bool:
        return is_vericontest_root(path)

    def task_dirs(self, root: Path) -> list[Path]:
        return discover_problems(root)

    def read_task(self, path: Path) -> Problem:
        return read_problem(path)

    def read_tasks(self, root: Path, only: Sequence[str] | None = None) -> list[Problem]:
        dirs = self.task_dirs(root)
        if only:
            wanted = set(only)
            dirs = [d for d in dirs if d.name in wanted]
        return [read_problem(d) for d in dirs]

    def sort_key(self, task_id: str) -> tuple[Any, ...]:
        return problem_sort_key(task_id)

    def count_suite(self, task_dir: Path) -> SuiteCounts:
        from .suite_files import read_suite_files

        files = read_suite_files(task_dir)
        if files is not None:  # VeriContest's own test files (hosted data or a veriscale suite)
            return SuiteCounts(len(files.positives), len(files.negatives), 0, bad_rows=len(files.errors))
        # Without test files, a problem's tests are its description examples.
        try:
            examples = len(read_problem(task_dir).examples)
        except ProblemError:
            return SuiteCounts(0, 0, 0, bad_rows=1)
        return SuiteCounts(expected=examples, unexpected_outputs=0, unexpected_inputs=0)

    def check_data(self, root: Path) -> CheckReport:
        from .check_data import check_dataset

        return check_dataset(root)

    def write_task(self, task: Problem, path: Path) -> None:
        raise FormatError("writing VeriContest suites is not built yet")

    def expansion_unsupported(self) -> str | None:
        return (
            "the per-stage VeriContest expansion is not built yet: `veriscale scale` builds VeriContest "
            "suites (positives, negatives, Plus and Lite) in one stage"
        )

    def suite_builder(self) -> Any:
        from .suite_builder import VeriContestSuites

        return VeriContestSuites()


VERICONTEST = VeriContestFormat()
