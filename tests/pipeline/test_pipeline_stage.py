"""The input stage on real Verina tasks, its config, run directory, ledger, executors and CLI."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shared_data import data_path, needs
from veriscale.cli.app import _load_commands, app
from veriscale.formats.verina.dataset import read_task
from veriscale.pipeline.config import (
    ConfigMismatch,
    PipelineConfig,
    PipelineConfigError,
    load_pipeline_config,
    stable_seed,
)
from veriscale.pipeline.inputs.mutate import input_key
from veriscale.pipeline.inputs.stage import STAGE, expand_task, make_engine, run_inputs_stage
from veriscale.pipeline.rundir import DONE, FAILED, RunDir, resolve_run_dir
from veriscale.pipeline.summary import summarize_inputs
from veriscale.runtime.executor import LocalExecutor, SerialExecutor, make_executor
from veriscale.values.codec import decode

DATA = data_path("verina")
needs_data = needs("verina")

# A handful of tasks covering Int/Nat/String/Char/Map/function/nested types and non-trivial preconditions.
TASKS = ["verina_basic_1", "verina_basic_16", "verina_basic_70", "verina_basic_104", "verina_advanced_13"]


def _boom(job: int) -> int:
    if job == 2:
        raise ValueError("job two fails")
    return job * 10


# ---------------------------------------------------------------- config


def test_config_defaults_are_the_papers_hyperparameters(tmp_path: Path) -> None:
    c = PipelineConfig()
    s, m = c.inputs.seeds, c.inputs.mutation
    assert (s.rounds, s.candidates_per_round, s.example_limit, s.invalid_fraction) == (1, 40, 5, 0.2)
    assert (m.max_mutants_per_seed, m.max_steps, m.ingredient_prob) == (15, 5, 0.3)
    assert m.max_attempts_per_seed >= m.max_mutants_per_seed and c.engine.fuel > 0 and c.seed == 42
    path = tmp_path / "c.json"
    path.write_text(c.dumps())
    assert load_pipeline_config(path) == c
    toml = tmp_path / "c.toml"
    toml.write_text('seed = 7\n[inputs.mutation]\nmax_steps = 3\n[llm]\nmodel = "x"\n')
    c2 = load_pipeline_config(toml, {"inputs.mutation.ingredient_prob": 0.5, "seed": None})
    assert (c2.seed, c2.inputs.mutation.max_steps, c2.inputs.mutation.ingredient_prob) == (7, 3, 0.5)
    with pytest.raises(PipelineConfigError, match="max_steps"):
        load_pipeline_config(None, {"inputs.mutation.max_steps": 0})
    with pytest.raises(PipelineConfigError, match="sede: Extra inputs"):
        PipelineConfig.from_json({"sede": 1})


def test_stable_seed_is_a_fixed_function() -> None:
    assert stable_seed(42, "verina_basic_1", "mutation") == stable_seed(42, "verina_basic_1", "mutation")
    assert stable_seed(42, "a") != stable_seed(43, "a")
    assert stable_seed("x") == 0x2D711642B726B044  # SHA-256 based: the same in every process


# ---------------------------------------------------------------- run directory and ledger


def test_run_dir_refuses_a_different_config(tmp_path: Path) -> None:
    with RunDir.open(tmp_path / "r", PipelineConfig()) as rd:
        assert json.loads((rd.root / "config.json").read_text())["seed"] == 42
    with RunDir.open(tmp_path / "r", PipelineConfig()):
        pass  # same config: fine
    with pytest.raises(ConfigMismatch, match=r"seed: 42 -> 7"):
        RunDir.open(tmp_path / "r", PipelineConfig(seed=7))
    assert resolve_run_dir("abc", "runs") == Path("runs/abc")
    assert resolve_run_dir("./x/y") == Path("x/y")


def test_ledger_states_and_wal(tmp_path: Path) -> None:
    with RunDir.open(tmp_path / "r", PipelineConfig()) as rd:
        led = rd.ledger
        led.start("s", "t1")
        led.start("s", "t2")
        rd.write_result("s", "t1", {"a": 1}, 0.5, {"n": 1})
        led.fail("s", "t2", "boom")
        rows = led.rows("s")
        assert rows["t1"].status == DONE and rows["t1"].summary == {"n": 1} and rows["t1"].attempts == 1
        assert rows["t2"].status == FAILED and rows["t2"].error == "boom"
        # a stale partial file of an unfinished task is discarded; finished work is kept
        rd.result_path("s", "t2").write_text("partial")
        todo, finished = rd.pending("s", ["t1", "t2", "t3"])
        assert todo == ["t2", "t3"] and finished == ["t1"] and not rd.result_path("s", "t2").exists()
        led.start("s", "t2")
        assert led.rows("s")["t2"].attempts == 2 and led.rows("s")["t2"].status == "running"
    conn = sqlite3.connect(tmp_path / "r" / "ledger.sqlite")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


# ---------------------------------------------------------------- executors


@pytest.mark.parametrize("ex", [SerialExecutor(), LocalExecutor(workers=2)])
def test_executor_reports_results_and_errors(ex: object) -> None:
    got: dict[str, object] = {}
    ex.run(_boom, [(f"j{i}", i) for i in range(4)], lambda k, r, e, s: got.__setitem__(k, e or r))  # type: ignore[attr-defined]
    assert got == {"j0": 0, "j1": 10, "j2": "ValueError: job two fails", "j3": 30}


def _die_on_three(job: int) -> int:
    if job == 3:
        os._exit(1)  # as the OOM killer would
    time.sleep(0.2)  # still in flight or queued when the other worker dies
    return job * 10


def test_local_executor_loses_only_the_job_that_kills_its_worker() -> None:
    got: dict[str, object] = {}
    LocalExecutor(workers=2).run(
        _die_on_three, [(f"j{i}", i) for i in range(7)], lambda k, r, e, s: got.__setitem__(k, e or r)
    )
    assert got == {f"j{i}": i * 10 for i in range(7) if i != 3} | {
        "j3": "worker process died (pool broken too often)"
    }


def test_unknown_executor_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown executor"):
        make_executor("threads")


# ---------------------------------------------------------------- the stage on real tasks


@needs_data
@pytest.mark.parametrize("task_id", TASKS)
def test_expand_task_invariants(task_id: str) -> None:
    task = read_task(DATA / task_id)
    cfg = PipelineConfig()
    doc = expand_task(task, cfg, make_engine(cfg, task))
    c = doc["counts"]
    assert c["candidates"] == sum(c["seeds"].values()) + c["mutants"] + c["small_scope"]["new"]
    assert c["candidates"] + c["conjunct_search"]["new"] - c["small_scope"]["dropped"] == c["expected"] + c[
        "unexpected"
    ] + sum(n for r, n in c["excluded"].items() if not r.startswith("undecodable"))
    assert c["duplicates"] == 0 and c["original_output_mismatch"] == 0
    assert c["mutants"] <= 15 * sum(c["seeds"].values())
    # the suite starts with the benchmark's own tests, in order
    firsts = [r["provenance"] for r in doc["expected"][: len(task.tests)]]
    assert [p["origin"] for p in firsts] == ["original"] * len(task.tests)
    assert [p["index"] for p in firsts] == list(range(len(task.tests)))
    # every input decodes strictly, no two are equal by canonical key, outputs are the engine's
    params = [(p.name, p.type) for p in task.signature.params]
    te = make_engine(cfg, task).for_task(task)
    ids = {r["id"] for r in doc["expected"] + doc["unexpected"]}
    keys = set()
    for row in doc["expected"] + doc["unexpected"]:
        vals = {n: decode(t, row["input"][n], structs=task.structs) for n, t in params}
        keys.add(input_key(params, vals, task.structs))
        prov = row["provenance"]
        if prov["origin"] in ("mutation", "conjunct-search"):
            assert 1 <= prov["steps"] <= 5 and prov["parent"] in ids | {None}
        if "output" in row:
            out = te.run(vals)
            assert out.ok and out.value == decode(
                task.signature.return_type, row["output"], structs=task.structs
            )
        else:
            assert te.precondition(vals).is_false
    assert len(keys) == len(doc["expected"]) + len(doc["unexpected"])


@needs_data
def test_stage_driver_serial_and_local_agree(tmp_path: Path) -> None:
    outs = {}
    for name, ex in (("serial", SerialExecutor()), ("local", LocalExecutor(workers=2))):
        with RunDir.open(tmp_path / name, PipelineConfig()) as rd:
            rep = run_inputs_stage(DATA, rd, ex, tasks=TASKS[:3])
            assert rep.ok and sorted(rep.computed) == sorted(TASKS[:3]) and not rep.resumed
            assert all(r.status == DONE for r in rd.ledger.rows(STAGE).values())
            # a second pass finds everything finished and recomputes nothing
            rep2 = run_inputs_stage(DATA, rd, ex, tasks=TASKS[:3])
            assert rep2.computed == [] and sorted(rep2.resumed) == sorted(TASKS[:3])
        outs[name] = {t: (tmp_path / name / STAGE / f"{t}.json").read_bytes() for t in TASKS[:3]}
    assert outs["serial"] == outs["local"]
    s = summarize_inputs(json.loads(b) for b in outs["serial"].values())
    assert s.tasks == 3 and s.duplicates == 0 and s.to_json()["mean_expected"] > 20


@needs_data
def test_a_task_that_cannot_be_read_fails_alone(tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    bench.mkdir()
    import shutil

    shutil.copytree(DATA / "verina_basic_1", bench / "verina_basic_1")
    (bench / "verina_basic_2").mkdir()
    (bench / "verina_basic_2" / "task.json").write_text("{not json")
    with RunDir.open(tmp_path / "r", PipelineConfig()) as rd:
        rep = run_inputs_stage(bench, rd, SerialExecutor())
        assert rep.computed == ["verina_basic_1"] and "bad JSON" in rep.failed["verina_basic_2"]
        assert rd.ledger.rows(STAGE)["verina_basic_2"].status == FAILED


# ---------------------------------------------------------------- CLI


@needs_data
def test_cli_expand_inputs_offline(tmp_path: Path) -> None:
    from veriscale.llm.offline import reset_notices

    _load_commands()
    reset_notices()
    env = {"VERISCALE_MODEL": "", "VERISCALE_BASE_URL": "", "VERISCALE_LLM_CONFIG": "", "COLUMNS": "160"}
    args = [
        "expand",
        "inputs",
        "--benchmark",
        str(DATA),
        "--run",
        "r1",
        "--runs-dir",
        str(tmp_path),
        "--tasks",
        "verina_basic_1,verina_basic_70",
        "--executor",
        "serial",
        "--seed",
        "5",
    ]
    res = CliRunner().invoke(app, args, env=env)
    assert res.exit_code == 0, res.output
    assert res.stderr.count("no model configured: skipping model-driven stage seed_inputs") == 1
    assert "input expansion" in res.stdout and "2 (2 computed, 0 resumed, 0 failed)" in res.stdout
    assert json.loads((tmp_path / "r1" / "config.json").read_text())["seed"] == 5
    assert sorted(p.name for p in (tmp_path / "r1" / "inputs").iterdir()) == [
        "verina_basic_1.json",
        "verina_basic_70.json",
    ]
    # resuming with another seed is refused with a clear message
    res = CliRunner().invoke(app, [*args[:-1], "6"], env=env)
    assert res.exit_code == 2 and "seed: 5 -> 6" in res.stderr
    # unknown task ids are named
    res = CliRunner().invoke(app, [*args[:8], "--tasks", "nope_1", "--executor", "serial"], env=env)
    assert res.exit_code == 2 and "nope_1" in res.stderr
