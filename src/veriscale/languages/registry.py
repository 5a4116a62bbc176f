"""The languages veriscale knows: one line per plug-in."""

from __future__ import annotations

from .api import Language
from .lean.plugin import LEAN
from .verus.plugin import VERUS

__all__ = ["LANGUAGES", "language", "language_of"]

LANGUAGES: dict[str, Language] = {lang.name: lang for lang in (LEAN, VERUS)}


def language(name: str) -> Language:
    try:
        return LANGUAGES[name]
    except KeyError:
        raise KeyError(f"unknown language {name!r} (known: {', '.join(LANGUAGES)})") from None


def language_of(task: object) -> Language:
    """The language plug-in of a task read by any format (its ``language`` attribute)."""
    name = getattr(task, "language", None)
    if not isinstance(name, str):
        raise TypeError(f"{type(task).__name__} does not name its language")
    return language(name)
