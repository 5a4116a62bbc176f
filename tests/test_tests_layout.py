"""Rules of the test tree itself, so test files can live in (and move between) sub-folders.

* Every folder holding test modules is a package (``__init__.py`` up to ``tests/``): pytest then
  names modules by their dotted path, two folders may hold files of the same name, and a function
  defined in a test module can be pickled into a spawn-started worker.
* No test module computes a path from its own ``__file__``: fixed places come from
  ``shared_data`` (repository, goldens, shared benchmark data).
* A test module imports another test module only relatively (``from .test_x import``), so the pair
  keeps working wherever the folder moves; helper modules (``llm_fake_server`` ...) are top-level.
* The shared-data location: ``../shared/data`` beside the repository, or ``$VERISCALE_SHARED_DATA``;
  a missing folder skips with a message naming it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import shared_data
from shared_data import REPO_ROOT, TESTS_DIR

_NOT_PACKAGES = {"golden", "__pycache__"}


def _test_modules() -> list[Path]:
    return sorted(p for p in TESTS_DIR.rglob("test_*.py") if not _NOT_PACKAGES & set(p.parts))


def test_there_are_test_modules_to_check() -> None:
    assert len(_test_modules()) > 50


def test_every_folder_with_tests_is_a_package() -> None:
    missing = set()
    for p in _test_modules():
        d = p.parent
        while d != TESTS_DIR.parent:
            if not (d / "__init__.py").is_file():
                missing.add(str(d.relative_to(REPO_ROOT)))
            d = d.parent
    assert sorted(missing) == [], "add an __init__.py to these folders"


def test_no_test_module_locates_files_from_its_own_place() -> None:
    offenders = [
        str(p.relative_to(REPO_ROOT))
        for p in _test_modules()
        if any(
            isinstance(n, ast.Name) and n.id == "__file__"
            for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        )
    ]
    assert offenders == [], "use shared_data (REPO_ROOT, GOLDEN_DIR, data_path, require) instead of __file__"


def test_test_modules_import_each_other_only_relatively() -> None:
    names = {p.stem for p in _test_modules()}
    offenders = []
    for p in _test_modules():
        tree = ast.parse(p.read_text(encoding="utf-8"), filename=str(p))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in names:
                offenders.append(f"{p.relative_to(REPO_ROOT)}:{node.lineno} from {node.module}")
            if isinstance(node, ast.Import):
                offenders += [
                    f"{p.relative_to(REPO_ROOT)}:{node.lineno} import {a.name}"
                    for a in node.names
                    if a.name in names
                ]
    assert offenders == [], "import another test module as `from .test_x import ...`"


def test_shared_data_is_beside_the_repository_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(shared_data.ENV_VAR, raising=False)
    assert shared_data.data_path("verina") == REPO_ROOT.parent / "shared" / "data" / "verina"


def test_shared_data_location_can_be_overridden(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "verina").mkdir()
    monkeypatch.setenv(shared_data.ENV_VAR, str(tmp_path))
    assert shared_data.require("verina") == tmp_path / "verina"
    assert shared_data.missing_reason("verina") is None
    with pytest.raises(
        pytest.skip.Exception, match=r"shared data verinalite is absent: .*verinalite not found"
    ):
        shared_data.require("verinalite")
    mark = shared_data.needs("vericontest", "leetcode")
    assert mark.args == (True,) and "vericontest/leetcode is absent" in mark.kwargs["reason"]
