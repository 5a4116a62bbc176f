"""Test-tree setup shared by every test folder: helper-module imports and the shared-data fixtures.

``tests/`` is a package (``tests/__init__.py``) and so is every sub-folder holding test files,
so pytest's default import mode names test modules by their dotted path
(``tests.llm.test_llm_client``): two test files with the same basename in different folders
do not collide, and functions defined in a test module can still be pickled into spawn-started
worker processes (they import ``tests....`` from the repository root pytest puts on
``sys.path``).

Helper modules (``llm_fake_server``, ``lean_ast_gen``, ``lean_toolchain_fixtures``,
``shared_data``) are imported as top-level modules by tests in any folder: this file appends
``tests/`` to ``sys.path``. Appended, not prepended, so the test sub-packages (``tests/llm``,
``tests/evaluate`` ...) never shadow an installed distribution of the same name.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_TESTS_DIR = str(Path(__file__).resolve().parent)
if _TESTS_DIR not in sys.path:
    sys.path.append(_TESTS_DIR)

from shared_data import VERICONTEST, VERINA, VERINALITE, VERINAPLUS, require  # noqa: E402


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared benchmark data folder (``../shared/data`` or ``$VERISCALE_SHARED_DATA``); skips if absent."""
    return require()


@pytest.fixture(scope="session")
def verina_dir() -> Path:
    """The Verina benchmark (189 task folders); skips if absent."""
    return require(VERINA)


@pytest.fixture(scope="session")
def verinaplus_dir() -> Path:
    """VerinaPlus as released (``unexpected`` lists removed); skips if absent."""
    return require(VERINAPLUS)


@pytest.fixture(scope="session")
def verinalite_dir() -> Path:
    """VerinaLite as released (``unexpected`` lists removed); skips if absent."""
    return require(VERINALITE)


@pytest.fixture(scope="session")
def vericontest_dir() -> Path:
    """The VeriContest benchmark folder (``leetcode/`` and ``codeforces/``); skips if absent."""
    return require(VERICONTEST)
