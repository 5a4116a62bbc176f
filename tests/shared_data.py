"""Fixed places the tests read from: the repository, the test tree, goldens and the shared benchmark data.

Every path is computed from this module's own location (``tests/shared_data.py``), never from
the location of a test file, so test files can move into sub-folders of ``tests/`` without
changing any path arithmetic.

The shared benchmark data (Verina, VerinaPlus, VerinaLite, VeriContest) is read from
``../shared/data`` relative to the repository root, or from the folder named by the
``VERISCALE_SHARED_DATA`` environment variable. It is absent on users' machines, so a test
that needs it skips with a message naming the missing folder: inside a test (or a helper it
calls) use :func:`require` or the ``conftest.py`` fixtures (``verina_dir`` ...); at import
time (``pytest.mark.skipif``, ``pytestmark``, parametrisation) use :func:`needs` and
:func:`data_path`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
SRC_DIR = REPO_ROOT / "src" / "veriscale"
DOCS_DIR = REPO_ROOT / "docs"
GOLDEN_DIR = TESTS_DIR / "golden"
FIXTURES_DIR = TESTS_DIR / "fixtures"  # small inputs of our own (not upstream data)

ENV_VAR = "VERISCALE_SHARED_DATA"

VERINA = "verina"
VERINAPLUS = "verinaplus"
VERINALITE = "verinalite"
VERICONTEST = "vericontest"


def shared_data_root() -> Path:
    """The shared data folder: ``$VERISCALE_SHARED_DATA`` if set and non-empty, else ``<repo>/../shared/data``.

    Read on every call (not cached at import) so a test or a session can point it elsewhere.
    """
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return Path(env).expanduser().resolve()
    return REPO_ROOT.parent / "shared" / "data"


def data_path(*parts: str) -> Path:
    """A path inside the shared data folder, whether or not it exists (for import-time use)."""
    return shared_data_root().joinpath(*parts)


def missing_reason(*parts: str) -> str | None:
    """Why a shared-data path cannot be used, or None when it exists."""
    p = data_path(*parts)
    if p.exists():
        return None
    where = "/".join(parts) if parts else "the shared data folder"
    return f"shared data {where} is absent: {p} not found (set {ENV_VAR} to the folder holding verina/, ...)"


def require(*parts: str) -> Path:
    """The path inside the shared data folder; skips the running test with a message if it is absent."""
    reason = missing_reason(*parts)
    if reason is not None:
        pytest.skip(reason)
    return data_path(*parts)


def needs(*parts: str) -> pytest.MarkDecorator:
    """A ``skipif`` marker for a test or module that needs this shared-data path (evaluated at import)."""
    reason = missing_reason(*parts)
    return pytest.mark.skipif(reason is not None, reason=reason or "")
