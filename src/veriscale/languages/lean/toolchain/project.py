"""Locating and validating the Lean project the toolchain engine runs in.

A usable project is a directory with ``lakefile.lean`` or ``lakefile.toml``
whose dependencies include Plausible (Mathlib is optional), and a ``lake``
executable. The directory comes from a parameter or, failing that, from the
``VERISCALE_LEAN_PROJECT`` environment variable; ``lake`` from
``VERISCALE_LAKE`` or ``PATH``. Every failure is a ``LeanUnavailable`` with a
one-line reason that says what to set.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from ...api import LanguageUnavailable

__all__ = [
    "ENV_LAKE",
    "ENV_PROJECT",
    "SETUP_HINT",
    "LeanProject",
    "LeanUnavailable",
    "find_lake",
    "lean_status",
    "locate_project",
]

ENV_PROJECT = "VERISCALE_LEAN_PROJECT"
ENV_LAKE = "VERISCALE_LAKE"
SETUP_HINT = f"set {ENV_PROJECT}=/path/to/lean/project and put lake on PATH (see docs/lean-setup.md)"

_LAKEFILES = ("lakefile.lean", "lakefile.toml")


class LeanUnavailable(LanguageUnavailable):
    """No usable Lean toolchain/project; ``str()`` is a one-line reason."""


@dataclass(frozen=True, slots=True)
class LeanProject:
    root: Path
    lake: str
    toolchain: str  # content of ``lean-toolchain`` ("" if absent)
    packages: tuple[str, ...]  # dependency names (lower case, sorted)
    manifest: str  # content of ``lake-manifest.json`` ("" if absent), for cache identity

    @property
    def has_plausible(self) -> bool:
        return "plausible" in self.packages

    @property
    def has_mathlib(self) -> bool:
        return "mathlib" in self.packages

    def identity(self) -> str:
        """What results depend on besides the file: the toolchain and pinned dependencies."""
        h = hashlib.sha256()
        for part in (str(self.root), self.toolchain, self.manifest):
            h.update(part.encode("utf-8"))
            h.update(b"\0")
        return h.hexdigest()

    def command(self, lean_file: Path | str) -> list[str]:
        """``lake env lean FILE``: Lean with the project's dependencies on its search path."""
        return [self.lake, "env", "lean", str(lean_file)]


def find_lake() -> str | None:
    explicit = os.environ.get(ENV_LAKE, "").strip()
    if explicit:
        return explicit if Path(explicit).is_file() and os.access(explicit, os.X_OK) else None
    return shutil.which("lake")


def _manifest_packages(root: Path) -> tuple[str, str]:
    """(manifest text, space-separated package names) from ``lake-manifest.json``."""
    path = root / "lake-manifest.json"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return "", ""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return text, ""
    names = []
    for pkg in data.get("packages", []) if isinstance(data, dict) else []:
        if isinstance(pkg, dict) and isinstance(pkg.get("name"), str):
            names.append(pkg["name"].lower())
    return text, " ".join(names)


def _packages(root: Path) -> tuple[str, tuple[str, ...]]:
    manifest, listed = _manifest_packages(root)
    names = set(listed.split())
    pkg_dir = root / ".lake" / "packages"
    if pkg_dir.is_dir():
        names.update(p.name.lower() for p in pkg_dir.iterdir() if p.is_dir())
    # A dependency declared in the lakefile but not yet resolved still counts as declared;
    # Lean itself reports it missing when it is imported.
    for lf in _LAKEFILES:
        try:
            text = (root / lf).read_text(encoding="utf-8").lower()
        except OSError:
            continue
        for name in ("plausible", "mathlib"):
            if f"require {name}" in text or f'require "{name}"' in text or f'name = "{name}"' in text:
                names.add(name)
    return manifest, tuple(sorted(names))


def locate_project(path: str | Path | None = None, *, require_plausible: bool = True) -> LeanProject:
    """The Lean project at ``path`` (or ``$VERISCALE_LEAN_PROJECT``); raises ``LeanUnavailable``."""
    raw = str(path) if path is not None else os.environ.get(ENV_PROJECT, "").strip()
    if not raw:
        raise LeanUnavailable(f"no Lean project configured: {SETUP_HINT}")
    root = Path(raw).expanduser()
    if not root.is_dir():
        raise LeanUnavailable(f"Lean project {root} is not a directory: {SETUP_HINT}")
    root = root.resolve()
    if not any((root / lf).is_file() for lf in _LAKEFILES):
        raise LeanUnavailable(f"{root} has no lakefile.lean or lakefile.toml: not a lake project")
    lake = find_lake()
    if lake is None:
        where = f"{ENV_LAKE}={os.environ[ENV_LAKE]}" if os.environ.get(ENV_LAKE) else "PATH"
        raise LeanUnavailable(f"lake not found on {where}: install elan (see docs/lean-setup.md)")
    try:
        toolchain = (root / "lean-toolchain").read_text(encoding="utf-8").strip()
    except OSError:
        toolchain = ""
    manifest, packages = _packages(root)
    project = LeanProject(root, lake, toolchain, packages, manifest)
    if require_plausible and not project.has_plausible:
        raise LeanUnavailable(
            f"{root} does not depend on Plausible: add `require plausible` (docs/lean-setup.md)"
        )
    return project


def lean_status(path: str | Path | None = None) -> tuple[LeanProject | None, str]:
    """(project, "") when usable, else (None, reason): for skip messages and CLI errors."""
    try:
        return locate_project(path), ""
    except LeanUnavailable as exc:
        return None, str(exc)
