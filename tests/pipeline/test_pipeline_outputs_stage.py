"""The output stage: alternative correct answers are never kept, and an end-to-end run over a run directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shared_data import data_path, needs
from veriscale.cli.app import _load_commands, app
from veriscale.formats.verina.dataset import read_task
from veriscale.languages.lean.mutants import aux_mutant_adversaries
from veriscale.languages.lean.native import NativeEngine
from veriscale.languages.lean.weaken import weakened_specs
from veriscale.pipeline.config import PipelineConfig
from veriscale.pipeline.inputs.stage import run_inputs_stage
from veriscale.pipeline.outputs.adversaries import AttackConfig, Case, attack
from veriscale.pipeline.outputs.stage import STAGE, run_outputs_stage
from veriscale.pipeline.rundir import DONE, RunDir
from veriscale.runtime.executor import SerialExecutor
from veriscale.values import codec

DATA = data_path("verina")
pytestmark = needs("verina")

TASKS = ["verina_basic_1", "verina_basic_16", "verina_advanced_27", "verina_advanced_13"]


def test_a_valid_alternative_lcs_is_not_kept() -> None:
    """verina_advanced_27: a mutant breaking ties the other way returns another longest common subsequence."""
    task = read_task(DATA / "verina_advanced_27")
    eng = NativeEngine()
    tie = next(a for a in aux_mutant_adversaries(task.section_text("code_aux")) if "≥→>" in a.description)
    inputs = {"s1": "abc", "s2": "acb"}
    expected = eng.for_task(task).run(inputs).value
    alternative = eng.for_task(task, overrides=tie.overrides).run(inputs).value
    assert (expected, alternative) == ("ac", "ab")  # both are longest common subsequences
    assert eng.for_task(task).postcondition(inputs, alternative).is_true

    same = {"s1": "abc", "s2": "abc"}  # a mutant must also survive somewhere to be kept
    cases = [Case("c", inputs, expected), Case("s", same, "abc")]
    specs = weakened_specs(task.section_text("postcond"))
    res = attack(task, eng, cases, [tie], specs, AttackConfig(minimum=0))
    assert res.adversaries == [tie] and res.matrix == ["10"]  # it is a (spurious) kill ...
    assert res.unexpected == [[], []]  # ... but its output is not an unexpected output
    assert res.verdicts["true"] == 1


def test_unknown_verdicts_are_not_kept_and_topping_up_obeys_the_rule() -> None:
    task = read_task(DATA / "verina_advanced_27")
    eng = NativeEngine()
    inputs = {"s1": "abcde", "s2": "ace"}
    res = attack(task, eng, [Case("c", inputs, "ace")], [], [], AttackConfig(minimum=4))
    gt = eng.for_task(task)
    kept = res.unexpected[0]
    assert len(kept) == 4 and all(u.source == "output-mutation" for u in kept)
    assert all(gt.postcondition(inputs, u.output).is_false for u in kept)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("run") / "r"
    with RunDir.open(root, PipelineConfig()) as rd:
        rep = run_inputs_stage(DATA, rd, SerialExecutor(), tasks=TASKS)
        assert rep.ok
        rep = run_outputs_stage(DATA, rd, SerialExecutor(), tasks=TASKS)
        assert rep.ok, rep.failed
    return root


def test_stage_documents_hold_the_contract(run_dir: Path) -> None:
    eng = NativeEngine()
    for t in TASKS:
        doc = json.loads((run_dir / STAGE / f"{t}.json").read_text(encoding="utf-8"))
        inputs_doc = json.loads((run_dir / "inputs" / f"{t}.json").read_text(encoding="utf-8"))
        task = read_task(DATA / t)
        ret = task.signature.return_type
        assert [r["id"] for r in doc["expected"]] == [r["id"] for r in inputs_doc["expected"]]
        km = doc["kill_matrix"]
        assert km["cases"] == [r["id"] for r in doc["expected"]]
        assert km["adversaries"] == [a["id"] for a in doc["adversaries"]]
        assert all(len(row) == len(km["cases"]) and "1" in row for row in km["rows"])
        assert {a["origin"].split(":")[0] for a in doc["adversaries"]} == {"template", "mutant"}
        spec_ids = {s["id"] for s in doc["specs"]}
        gt = eng.for_task(task)
        total = 0
        for row in doc["expected"][:25]:  # the ground-truth check on a sample keeps the test fast
            values = task.decode_input(row["input"], file="t")
            exp_key = codec.key(ret, codec.decode(ret, row["output"]))
            keys = []
            for u in row["unexpected"]:
                v = codec.decode(ret, u["output"])
                keys.append(codec.key(ret, v))
                assert keys[-1] != exp_key
                assert gt.postcondition(values, v).is_false
                assert set(u["accepted_by"]) <= spec_ids
                total += 1
            assert len(set(keys)) == len(keys)
        assert total > 0
        assert doc["counts"]["unexpected"] == sum(len(r["unexpected"]) for r in doc["expected"])


def test_stage_resumes_and_cli_reports(run_dir: Path) -> None:
    with RunDir.open(run_dir, PipelineConfig()) as rd:
        assert rd.ledger.done(STAGE) == set(TASKS)
        assert {r.status for r in rd.ledger.rows(STAGE).values()} == {DONE}
        rep = run_outputs_stage(DATA, rd, SerialExecutor(), tasks=TASKS)
        assert rep.computed == [] and sorted(rep.resumed) == sorted(TASKS)
    _load_commands()
    res = CliRunner().invoke(
        app, ["expand", "outputs", "--run", str(run_dir), "--executor", "serial", "--json"]
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout[res.stdout.index("{") :])
    assert out["resumed"] == len(TASKS) and out["computed"] == 0 and out["tasks"] == len(TASKS)
    assert out["unexpected_per_case_min"] >= 1 and 0 < out["accepted_share"] <= 1


def test_outputs_before_inputs_fail_clearly(tmp_path: Path) -> None:
    with RunDir.open(tmp_path / "r", PipelineConfig()) as rd:
        rep = run_outputs_stage(DATA, rd, SerialExecutor(), tasks=["verina_basic_1"])
    assert "input stage not finished" in rep.failed["verina_basic_1"]


def test_non_terminating_mutants_are_dropped_quickly() -> None:
    """verina_basic_70: ``loop (n + 1)`` → ``loop (n - 1)`` recurses forever on some inputs."""
    from veriscale.languages.lean.mutants import mutant_adversaries
    from veriscale.pipeline.outputs.stage import _adversary_engine

    task = read_task(DATA / "verina_basic_70")
    eng = NativeEngine()
    loop = next(m for m in mutant_adversaries(task.section_text("code")) if m.description == "arith-swap:+→-")
    cases = [
        Case(str(i), t.decode_input(task, i), t.decode_expected(task, i)) for i, t in enumerate(task.tests)
    ]
    cfg = AttackConfig()
    adv_engine = _adversary_engine(task, eng, cfg)
    handed_out = []

    class Recording:  # the adversary engine, keeping the task engines it hands out (for their fuel)
        def for_task(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            te = adv_engine.for_task(*args, **kwargs)
            handed_out.append(te)
            return te

    res = attack(task, eng, cases, [loop], [], cfg, Recording())
    assert res.adversaries == [] and res.dropped["timeout"] == 1
    # It loops from the first case on, so its whole cost is its fuel-limited run(s): the engine's own
    # limits would let it recurse until the depth limit (about 2.5 million steps here).
    spent = sum(te.fuel_spent for te in handed_out)
    assert cfg.adversary_fuel <= spent <= cfg.max_timeouts * cfg.adversary_fuel, spent
