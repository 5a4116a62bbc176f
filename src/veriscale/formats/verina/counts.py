"""Suite volumes of a Verina task folder, read from the raw JSON without decoding any value.

Malformed rows are counted (and reported) rather than fatal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..api import SuiteCounts
from .dataset import DatasetError

__all__ = ["count_suite"]


def _load_list(path: Path, task: str) -> tuple[list[Any], int]:
    """Rows of a JSON list file (missing file: no rows). Returns (rows, 1 if the file is not a list)."""
    if not path.exists():
        return [], 0
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise DatasetError(f"bad JSON: {err}", file=path, task=task) from None
    except OSError as err:
        raise DatasetError(f"unreadable: {err.strerror or err}", file=path, task=task) from None
    if not isinstance(data, list):
        return [], 1
    return data, 0


def count_suite(task_dir: Path) -> SuiteCounts:
    """Counts for one task directory; rows that are not objects or have a non-list ``unexpected`` count as bad."""
    tests, bad_t = _load_list(task_dir / "test.json", task_dir.name)
    rejects, bad_r = _load_list(task_dir / "reject_inputs.json", task_dir.name)
    unexpected = 0
    bad = bad_t + bad_r
    for row in tests:
        if not isinstance(row, dict):
            bad += 1
            continue
        u = row.get("unexpected", [])
        if isinstance(u, list):
            unexpected += len(u)
        else:
            bad += 1
    bad += sum(1 for r in rejects if not isinstance(r, dict))
    return SuiteCounts(len(tests), unexpected, len(rejects), bad)
