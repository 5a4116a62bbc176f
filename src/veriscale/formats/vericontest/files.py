"""Robust file lookup and example sanity checks for VeriContest problem folders.

``locate_files(path, kind)`` finds the files of one problem folder:

* required: ``description.md``, ``spec.rs``, ``code.rs`` (and ``main.rs`` for
  Codeforces) — a missing one is a ``ProblemError`` naming the folder and file;
* optional: ``tags``, ``code_spec.rs``, ``verified.rs`` — a missing one loads as
  empty text with a warning. A *misnamed* file (``tag``, ``Tags``, ``tags.txt``,
  ``code-spec.rs``) is used, with a warning naming both names. Misnamed means:
  the same name once case, separators (``-``/``_``/``.``) and one trailing
  ``s`` or extension are ignored. Exact names always win, and candidates are
  taken in sorted order so the choice does not depend on directory order.

``lost_line_breaks(description, stdin)`` tells whether a Codeforces example's
input has fewer lines than its own ``## Input`` section describes (the
highest ordinal line it names: "the second line", "the third line", …). Such an
input was flattened when the description was written; running it would feed
the program a different input than the example's, so it is reported as
undecodable and never run.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["OPTIONAL", "locate_files", "lost_line_breaks"]

REQUIRED = ("description.md", "code.rs", "spec.rs")
OPTIONAL = ("tags", "code_spec.rs", "verified.rs")


def _norm(name: str) -> str:
    """Comparison form of a file name: lower case, no separators, no extension, no plural ``s``."""
    n = name.lower()
    for ext in (".md", ".rs", ".txt"):
        if n.endswith(ext):
            n = n[: -len(ext)]
            break
    n = re.sub(r"[-_. ]", "", n)
    return n[:-1] if n.endswith("s") else n


def _find(path: Path, name: str, files: list[str]) -> tuple[Path | None, str | None]:
    """The file for ``name``: exact, else a misnamed one (with a warning), else None."""
    exact = path / name
    if exact.is_file():
        return exact, None
    want = _norm(name)
    for f in files:
        if _norm(f) == want:
            return path / f, f"{path.name}: using {f!r} as {name!r} (misnamed file)"
    return None, None


def locate_files(path: Path, kind: str) -> tuple[dict[str, str], str | None, list[str]]:
    """The texts of a problem's files (by canonical name), ``main.rs`` text or None, and warnings.

    Raises ``ProblemError`` (imported lazily to avoid a cycle) for a missing required file.
    """
    from .dataset import ProblemError

    try:
        files = sorted(f.name for f in path.iterdir() if f.is_file())
    except OSError as exc:
        raise ProblemError(f"{path.name}: cannot list the folder: {exc}") from None
    texts: dict[str, str] = {}
    warnings: list[str] = []
    names = (*REQUIRED, "main.rs") if kind == "codeforces" else REQUIRED
    main: str | None = None
    for name in (*names, *OPTIONAL):
        f, warn = _find(path, name, files)
        if f is None:
            if name in OPTIONAL:
                warnings.append(f"{path.name}: missing optional file {name!r}; loaded as empty")
                texts[name] = ""
                continue
            raise ProblemError(f"{path.name}: missing {name}")
        if warn:
            warnings.append(warn)
        try:
            text = f.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            if name in OPTIONAL:
                warnings.append(f"{path.name}: cannot read optional file {f.name!r} ({exc}); loaded as empty")
                text = ""
            else:
                raise ProblemError(f"{path.name}: cannot read {f.name}: {exc}") from None
        if name == "main.rs":
            main = text
        else:
            texts[name] = text
    if kind != "codeforces" and (path / "main.rs").is_file():
        main = (path / "main.rs").read_text(encoding="utf-8")
    return texts, main, warnings


_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}
_LINE_RE = re.compile(r"\b(" + "|".join(_ORDINALS) + r")\s+line\b", re.I)


def _input_section(description: str) -> str:
    m = re.search(r"^##\s*Input\s*$(.*?)^##\s", description, re.S | re.M)
    return m.group(1) if m else ""


def min_input_lines(description: str) -> int:
    """The least number of input lines the ``## Input`` section implies (0 when it names none)."""
    sec = _input_section(description)
    return max((_ORDINALS[m.group(1).lower()] for m in _LINE_RE.finditer(sec)), default=0)


def lost_line_breaks(description: str, stdin: str) -> str | None:
    """Why ``stdin`` looks flattened (fewer non-blank lines than the format needs), or None."""
    need = min_input_lines(description)
    have = sum(1 for ln in stdin.splitlines() if ln.strip())
    if need >= 2 and have < need:
        return (
            f"the example input has {have} line(s) but the input format describes at least {need}: "
            "its line breaks were lost, so it is not run"
        )
    return None
