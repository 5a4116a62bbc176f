"""Small benchmarks shipped with veriscale, written for the project (package data)."""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path

__all__ = ["tiny_path"]


def tiny_path() -> Path:
    """Directory of the embedded 4-task Verina-format example benchmark."""
    res = files(__name__) / "tiny"
    # The package is installed as plain files (regular or editable install), so this is a real path.
    with as_file(res) as p:
        return Path(p)
