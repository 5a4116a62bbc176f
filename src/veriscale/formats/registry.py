"""The benchmark formats veriscale knows: one line per plug-in.

Every command finds a dataset's format here (``detect_format``), never by
testing for a benchmark's layout itself.
"""

from __future__ import annotations

from pathlib import Path

from .api import Format, FormatError
from .vericontest.plugin import VERICONTEST
from .verina.plugin import VERINA

__all__ = ["FORMATS", "detect_format", "get_format"]

# Tried in this order; a folder is read by the first format that recognises it.
FORMATS: tuple[Format, ...] = (VERICONTEST, VERINA)


def get_format(name: str) -> Format:
    for f in FORMATS:
        if f.name == name:
            return f
    raise FormatError(f"unknown format {name!r} (known: {', '.join(f.name for f in FORMATS)})")


def detect_format(path: Path | str) -> Format:
    """The format of the dataset at ``path``; a clear error naming every format tried otherwise."""
    p = Path(path)
    if not p.is_dir():
        raise FormatError(f"{p}: not a dataset directory")
    for f in FORMATS:
        if f.detect(p):
            return f
    tried = "; ".join(f"{f.name} ({f.description})" for f in FORMATS)
    raise FormatError(f"{p}: not a dataset of any known format. Tried: {tried}")
