"""Strict validation of every value in a dataset, by its format's plug-in.

Verina: each input parameter, expected output, unexpected output and reject input is
decoded on its own, so one row can contribute several failures. Failures are
grouped by the codec's ``reason``. Also reported: rows that are exact
duplicates of an earlier row of the same file, inputs that repeat an earlier
input once decoded (canonical key), and reject inputs that are also test inputs.
"""

from __future__ import annotations

from pathlib import Path

from .findings import CheckReport, Failure, FailureGroup
from .registry import detect_format

__all__ = ["CheckReport", "Failure", "FailureGroup", "check_dataset"]


def check_dataset(root: Path | str) -> CheckReport:
    """Decode every stored value of the dataset at ``root`` strictly, in its own format."""
    return detect_format(root).check_data(Path(root))
