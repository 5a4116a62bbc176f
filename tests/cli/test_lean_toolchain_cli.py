"""``--engine`` on check, ``veriscale cross-check``, ``make_engine`` and the cross-check logic.

Without Lean both commands must say so on one line and exit with code 2. The
cross-check logic runs here between a small Python oracle (standing in for the
native engine) and the Lean engine driven by the scripted stand-in of
test_lean_toolchain_engine.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lean_toolchain_fixtures import ScriptedLean, tiny_rule, tiny_task, write_tiny_task
from veriscale.cli.app import _load_commands, app
from veriscale.evaluate.checks.crosscheck import Item, cross_check, enumerate_items, sample_items
from veriscale.examples import tiny_path
from veriscale.languages.lean.engines import make_engine
from veriscale.languages.lean.native import NativeEngine
from veriscale.languages.lean.toolchain.engine import LeanToolchainEngine
from veriscale.languages.lean.toolchain.project import ENV_LAKE, ENV_PROJECT, LeanUnavailable
from veriscale.runtime.engine import Outcome, OutcomeKind, Verdict


@pytest.fixture(scope="module", autouse=True)
def _commands() -> None:
    _load_commands()


NO_LEAN = {ENV_PROJECT: "", ENV_LAKE: ""}


def invoke(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    res = CliRunner().invoke(app, list(args), env={**NO_LEAN, **(env or {})})
    return res.exit_code, res.stdout, res.stderr


def test_cross_check_without_lean_says_so_on_one_line(tmp_path: Path) -> None:
    code, out, err = invoke("cross-check", str(tiny_path()), "--sample", "5")
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("cross-check: Lean toolchain unavailable: ")
    assert ENV_PROJECT in lines[0]
    code, _, err = invoke("cross-check", str(tiny_path()), "--lean-project", str(tmp_path))
    assert code == 2 and "lakefile" in err and len(err.strip().splitlines()) == 1


def test_check_engine_option() -> None:
    code, out, err = invoke("check", str(tiny_path()), "--engine", "lean")
    assert code == 2 and out == "" and err.startswith("check: Lean toolchain unavailable: ")
    code, _, err = invoke("check", str(tiny_path()), "--engine", "coq")
    assert code != 0 and "--engine" in err
    code, out, _ = invoke("check", str(tiny_path()), "--engine", "native", "--task", "tiny_1")
    assert code == 0 and "summary:" in out


def test_make_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_PROJECT, "")
    native = make_engine("native", seconds=2.0, fuel=1000, lean_timeout=9)
    assert isinstance(native, NativeEngine) and native.limits.seconds == 2.0 and native.limits.fuel == 1000
    with pytest.raises(LeanUnavailable):
        make_engine("lean", seconds=2.0)
    with pytest.raises(ValueError, match="unknown engine"):
        make_engine("coq")
    with pytest.raises(TypeError, match="bogus"):
        make_engine("native", bogus=1)


# ---------------------------------------------------------------- cross-check logic


class Oracle:
    """Python semantics of the tiny task; ``bug`` makes the postcondition accept r == 120."""

    name = "oracle"

    def __init__(self, bug: bool = False) -> None:
        self.bug = bug

    def for_task(self, task: Any, overrides: Mapping[str, str] | None = None) -> Oracle:
        return self

    def preconditions(self, rows: Sequence[Mapping[str, Any]]) -> list[Verdict]:
        return [Verdict.of(r["a"] < 1000) for r in rows]

    def runs(self, rows: Sequence[Mapping[str, Any]]) -> list[Outcome]:
        return [Outcome(OutcomeKind.VALUE, min(r["a"] + r["b"], 100)) for r in rows]

    def postconditions(self, pairs: Sequence[tuple[Mapping[str, Any], Any]]) -> list[Verdict]:
        out = []
        for i, r in pairs:
            ok = r <= 100 and (i["a"] + i["b"] > 100 or r == i["a"] + i["b"])
            out.append(Verdict.of(ok or (self.bug and r == 120)))
        return out


def test_items_and_sampling_are_deterministic(tmp_path: Path) -> None:
    task = tiny_task(tmp_path)
    items = enumerate_items([task])
    assert len(items) == 2 + 1 + 2 + 2 + 3
    assert items[0] == Item("tiny_clamp", "precond_test", 0)
    assert Item("tiny_clamp", "postcond_unexpected", 0, 1) in items
    a = sample_items(items, 4, seed=7)
    assert a == sample_items(items, 4, seed=7) and len(a) == 4
    assert a == sorted(a, key=items.index)  # dataset order
    assert sample_items(items, 0, seed=7) == items and sample_items(items, 99, seed=1) == items


def test_cross_check_agreement_and_disagreement(tmp_path: Path) -> None:
    task = tiny_task(tmp_path)
    lean = LeanToolchainEngine(runner=ScriptedLean(tiny_rule), has_mathlib=False)
    rep = cross_check([task], Oracle(), lean, sample=0, seed=0)
    assert rep.sampled == rep.total_items == 10
    assert rep.agree == 10 and rep.disagreements == [] and rep.both_unknown == 0

    rep = cross_check([task], Oracle(bug=True), lean, sample=0, seed=0)
    assert rep.agree == 9
    (d,) = rep.disagreements
    assert d.item == Item("tiny_clamp", "postcond_unexpected", 1, 0)
    assert (d.native, d.lean, d.kind) == ("TRUE", "FALSE", "conflict")
    assert rep.to_json()["disagreements"][0]["unexpected_index"] == 0


def test_cross_check_cli_with_scripted_lean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    write_tiny_task(data)
    import veriscale.languages.lean.engines as factory

    def fake_make_engine(name: str, **opts: Any) -> Any:
        if name == "lean":
            return LeanToolchainEngine(runner=ScriptedLean(tiny_rule), has_mathlib=False)
        return Oracle(bug=True)

    monkeypatch.setattr(factory, "make_engine", fake_make_engine)
    code, out, _ = invoke("cross-check", str(data), "--sample", "0")
    assert code == 1
    lines = out.strip().splitlines()
    assert lines[0] == (
        f"cross-check {data}: 10 of 10 checks (seed 0); agree 9, disagree 1, both unknown 0, undecodable 0"
    )
    assert lines[1] == "DISAGREE conflict tiny_clamp postcond_unexpected row 1[0]: native TRUE | lean FALSE"
    code, out, _ = invoke("cross-check", str(data), "--sample", "3", "--seed", "1", "--json")
    assert code in (0, 1) and '"sampled": 3' in out
