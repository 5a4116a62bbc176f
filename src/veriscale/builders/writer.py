"""Write one task of a built suite as a Verina-format task directory, with its provenance.

The task's own files (``task.json``, ``task.lean``, ``description.txt``) are
copied unchanged; ``test.json`` and ``reject_inputs.json`` hold the suite;
``provenance.json`` says where every row and unexpected output came from.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from ..formats.verina.dataset import RejectInput, Task, TestCase, write_task
from ..runtime.files import atomic_write_json

__all__ = ["PROVENANCE_FILE", "write_suite_task"]

PROVENANCE_FILE = "provenance.json"


def write_suite_task(
    task: Task,
    root: Path,
    tests: list[dict[str, Any]],
    rejects: list[dict[str, Any]],
    provenance: dict[str, Any],
) -> Path:
    """Write ``root/<task id>/``; ``tests`` rows are ``{input, expected, unexpected}``."""
    built = dataclasses.replace(
        task,
        tests=[TestCase(r["input"], r["expected"], list(r["unexpected"])) for r in tests],
        reject_inputs=[RejectInput(r["input"]) for r in rejects],
    )
    d = root / task.id
    write_task(built, d)
    atomic_write_json(d / PROVENANCE_FILE, provenance)
    return d
