"""What a benchmark-format plug-in provides (``formats/<name>/plugin.py``).

A format knows a dataset's layout on disk: how to recognise it, list its tasks
in the format's own order, read a task, write a suite, and which language its
specifications and code are written in (a name in ``languages.registry``).
Everything above this layer reaches a format through ``formats.registry``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .findings import CheckReport

__all__ = ["Format", "FormatError", "SuiteBuilder", "SuiteCounts"]


class FormatError(ValueError):
    """A folder no format recognises, or an operation a format does not offer (yet)."""


@dataclass(frozen=True)
class SuiteCounts:
    """A task's test-suite volume in the three columns of the VeriScale paper's Table 1."""

    expected: int
    unexpected_outputs: int
    unexpected_inputs: int
    bad_rows: int = 0  # rows counted as malformed (not objects, a non-list ``unexpected``, …)


class SuiteBuilder(Protocol):
    """A format's own suite generation, for formats whose suites the shared Verina stages cannot build.

    ``build`` runs in a worker (one task, writes nothing) and returns a JSON document
    with at least ``positives`` (``{"input", "output"}`` each), ``negatives``
    (``{"input_index", "output", "source"}``), ``kills`` (per positive, the ids of the
    mutants it kills) and optionally ``weakened.kills`` (per negative, the weakened
    specifications it kills). ``write`` writes one task's chosen cases as a dataset
    folder under ``dest_root`` in the format's own layout.
    """

    def build(self, task_dir: Path, settings: dict[str, Any], cache: str | None) -> dict[str, Any]: ...

    def write(self, task_dir: Path, dest_root: Path, suite: str, doc: dict[str, Any],
              positives: Sequence[int], negatives: Sequence[int]) -> str: ...  # fmt: skip


class Format(Protocol):
    name: str
    language: str  # the language plug-in its specifications and code are written in
    description: str

    def detect(self, path: Path) -> bool:
        """Whether ``path`` is a dataset (or one task) of this format."""
        ...

    def task_dirs(self, root: Path) -> list[Path]:
        """The task folders under ``root``, in the format's task order."""
        ...

    def read_task(self, path: Path) -> Any:
        """One task; raises an error naming the file and field on bad input."""
        ...

    def read_tasks(self, root: Path, only: Sequence[str] | None = None) -> list[Any]: ...

    def sort_key(self, task_id: str) -> tuple[Any, ...]:
        """The format's task order, as a key on task ids."""
        ...

    def count_suite(self, task_dir: Path) -> SuiteCounts:
        """A task's suite volume, tolerant of malformed rows (counted in ``bad_rows``)."""
        ...

    def check_data(self, root: Path) -> CheckReport:
        """Decode every stored value strictly; failures grouped by reason (never raises on bad data)."""
        ...

    def write_task(self, task: Any, path: Path) -> None:
        """Write ``task`` (with its suite) as a folder the benchmark's own tools read."""
        ...

    def expansion_unsupported(self) -> str | None:
        """``None`` when ``expand``/``scale`` can build suites for this format, else why not."""
        ...

    def suite_builder(self) -> SuiteBuilder | None:
        """The format's own suite generation for ``scale`` (None: the shared Verina stages)."""
        ...
