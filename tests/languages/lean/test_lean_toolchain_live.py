"""Live tests against a real Lean toolchain. Skipped unless one is configured.

To run them, set up a Lean project as docs/lean-setup.md describes, then:

    VERISCALE_LEAN_PROJECT=$HOME/veriscale-lean .venv/bin/python -m pytest -m lean tests/languages/lean/test_lean_toolchain_live.py

(``lake`` must be on PATH, or named by VERISCALE_LAKE.) Every test here runs
real ``lake env lean`` processes; a cold Mathlib import takes seconds.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lean_toolchain_fixtures import tiny_task, write_task
from shared_data import require
from veriscale.evaluate.checks.verina import check_task
from veriscale.formats.verina.dataset import read_task
from veriscale.languages.lean.toolchain.engine import LeanToolchainEngine
from veriscale.languages.lean.toolchain.project import ENV_PROJECT, LeanProject, lean_status
from veriscale.languages.lean.toolchain.proofgen import evaluate_proof
from veriscale.runtime.engine import OutcomeKind, Truth

ENABLE = (
    f"{ENV_PROJECT}=/path/to/lean/project .venv/bin/python -m pytest -m lean tests/languages/lean/test_lean_toolchain_live.py "
    "(set-up: docs/lean-setup.md)"
)

pytestmark = pytest.mark.lean


@pytest.fixture(scope="module")
def project() -> LeanProject:
    proj, why = lean_status()
    if proj is None:
        pytest.skip(f"Lean toolchain not available: {why}. To run the live tests: {ENABLE}")
    return proj


@pytest.fixture
def lean(project: LeanProject, tmp_path: Path) -> Iterator[LeanToolchainEngine]:
    yield LeanToolchainEngine(project, cache_dir=tmp_path / "cache", timeout=120.0)


RANGE_LEAN = """\
-- !benchmark @start precond
True
-- !benchmark @end precond
-- !benchmark @start code
List.range n
-- !benchmark @end code
-- !benchmark @start postcond
result = List.range n
-- !benchmark @end postcond
"""


def test_tiny_task_ground_truth_agrees(lean: LeanToolchainEngine, tmp_path: Path) -> None:
    rep = check_task(lean, tiny_task(tmp_path), dataset="tiny")
    assert rep.findings == []
    assert sum(rep.agree.values()) == sum(rep.total.values()) == 10


def test_long_values_are_read_back_whole(lean: LeanToolchainEngine, tmp_path: Path) -> None:
    task = read_task(
        write_task(tmp_path, "range", "rangeList", [("n", "Nat")], "List Nat", RANGE_LEAN, [], [])
    )
    outs = lean.for_task(task).runs([{"n": 300}, {"n": 0}])
    assert outs[0].kind is OutcomeKind.VALUE and outs[0].value == tuple(range(300))  # wrapped by Lean
    assert outs[1].value == ()


def test_plausible_decides_undecidable_preconditions(lean: LeanToolchainEngine, tmp_path: Path) -> None:
    task = tiny_task(tmp_path)
    true_ = lean.for_task(task, {"precond": "∀ k : Nat, (k : Int) + a ≥ a"}).preconditions([{"a": 3, "b": 0}])
    assert true_[0].truth is Truth.TRUE or true_[0].category in ("plausible_true", "plausible_both")
    false_ = lean.for_task(task, {"precond": "∀ k : Nat, (k : Int) + a < a + 5"}).preconditions(
        [{"a": 3, "b": 0}]
    )
    assert false_[0].truth is Truth.FALSE


def test_one_diverging_case_times_out_alone(project: LeanProject, tmp_path: Path) -> None:
    lean = LeanToolchainEngine(project, cache_dir=tmp_path / "cache", timeout=20.0)
    overrides = {
        "code_aux": "partial def spin (n : Nat) : Nat := spin (n + 1)",
        "code": "if a = 7 then Int.ofNat (spin 0) else a + b",
    }
    outs = lean.for_task(tiny_task(tmp_path), overrides).runs(
        [{"a": 1, "b": 1}, {"a": 7, "b": 0}, {"a": 3, "b": 4}]
    )
    assert outs[1].kind is OutcomeKind.TIMEOUT
    assert [outs[0].value, outs[2].value] == [2, 7]


def test_mathlib_fallback(project: LeanProject, lean: LeanToolchainEngine, tmp_path: Path) -> None:
    if not project.has_mathlib:
        pytest.skip("the Lean project has no Mathlib (optional): nothing to fall back to")
    overrides = {"code": "Int.ofNat (Nat.choose 5 2) + a + b"}
    outs = lean.for_task(tiny_task(tmp_path), overrides).runs([{"a": 0, "b": 0}])
    assert outs[0].kind is OutcomeKind.VALUE and outs[0].value == 10


def test_proofgen(lean: LeanToolchainEngine, tmp_path: Path) -> None:
    task = tiny_task(tmp_path)
    trivial = {"postcond": "True"}
    assert evaluate_proof(task, "  exact True.intro", engine=lean, overrides=trivial).passed
    wrong = evaluate_proof(task, "  exact False.elim (by decide)", engine=lean, overrides=trivial)
    assert wrong.status == "fail" and wrong.reason.startswith("does not compile")
    cheat = evaluate_proof(
        task, "  -- a comment saying sorry is fine\n  sorry", engine=lean, overrides=trivial
    )
    assert cheat.status == "fail" and cheat.violations


def test_real_verina_task(lean: LeanToolchainEngine) -> None:
    d = require("verina", "verina_basic_1")
    rep = check_task(lean, read_task(d), dataset="verina")
    assert [f for f in rep.findings if f.kind == "disagree"] == []
