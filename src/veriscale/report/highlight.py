"""Syntax highlighting of candidate text for the report, with Pygments.

Pygments escapes every character of the text it is given (``<`` becomes ``&lt;``), so its
output may be marked safe for the templates: model text can never become markup. The lexer is
chosen by the task's language (a name of ``languages.registry``); an unknown language gets plain
escaped text. CSS classes are short Pygments classes under ``.hl``; ``stylesheet()`` gives them.
"""

from __future__ import annotations

from functools import cache, lru_cache

from markupsafe import Markup, escape
from pygments import highlight as _highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

__all__ = ["highlight", "stylesheet"]

# The Pygments lexer of each language plug-in's name (Verus is Rust with ghost code).
LEXERS: dict[str, tuple[str, ...]] = {"lean": ("lean4", "lean"), "verus": ("rust",)}


@cache
def _lexer(language: str) -> Lexer | None:
    for name in LEXERS.get(language, (language,)):
        try:
            return get_lexer_by_name(name, stripnl=False, ensurenl=False)
        except ClassNotFound:
            continue
    return None


@lru_cache(maxsize=1)
def _formatter() -> HtmlFormatter:
    return HtmlFormatter(nowrap=True, cssclass="hl")


def highlight(text: str, language: str) -> Markup:
    """``text`` as highlighted, escaped HTML (no wrapping element)."""
    lexer = _lexer(language)
    if lexer is None:
        return escape(text)
    return Markup(_highlight(text, lexer, _formatter()))


def stylesheet() -> str:
    """The CSS of the highlight classes, scoped to ``.hl``."""
    return HtmlFormatter(style="default", cssclass="hl").get_style_defs(".hl")
