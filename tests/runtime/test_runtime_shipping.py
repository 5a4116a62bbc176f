"""Jobs for remote workers carry their files: snapshots give the same results as paths.

A ``SerialExecutor(remote=True)`` makes the commands ship every task as a snapshot
(``runtime.shipping``) while running in this process, so the Ray code path of the
jobs is exercised without Ray.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer

from shared_data import data_path
from veriscale.cli.options import executor_from_options
from veriscale.evaluate.checks.run import report_json, run_check
from veriscale.pipeline.config import PipelineConfig
from veriscale.pipeline.inputs.stage import STAGE, run_inputs_stage
from veriscale.pipeline.rundir import RunDir
from veriscale.runtime.executor import LocalExecutor, SerialExecutor
from veriscale.runtime.shipping import Shipped, local_path, ship

DATA = data_path("verina")
TASKS = ["verina_basic_1", "verina_advanced_13"]
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data/verina is absent")


def test_a_snapshot_rebuilds_the_directory_under_its_own_name(tmp_path: Path) -> None:
    src = tmp_path / "task_7"
    (src / "sub").mkdir(parents=True)
    (src / "task.json").write_text('{"id": "task_7"}')
    (src / "sub" / "data.bin").write_bytes(bytes(range(256)))
    snap = ship(src, remote=True)
    assert isinstance(snap, Shipped) and [rel for rel, _ in snap.files] == ["sub/data.bin", "task.json"]
    out = Path(local_path(snap))
    assert out != src and out.name == "task_7"
    assert (out / "sub" / "data.bin").read_bytes() == bytes(range(256))
    assert json.loads((out / "task.json").read_text()) == {"id": "task_7"}
    assert local_path(snap) == str(out)  # written once per process
    # same content, same digest; other content, another one
    assert Shipped.of(src).digest == snap.digest
    (src / "task.json").write_text('{"id": "task_8"}')
    assert Shipped.of(src).digest != snap.digest


def test_a_file_travels_too_and_local_jobs_keep_paths(tmp_path: Path) -> None:
    f = tmp_path / "verina_basic_1.json"
    f.write_text("[1, 2]")
    snap = ship(f, remote=True)
    assert isinstance(snap, Shipped) and not snap.is_dir
    got = Path(local_path(snap))
    assert got.name == f.name and got.read_text() == "[1, 2]"
    assert ship(f, remote=False) == str(f) and local_path(str(f)) == str(f)


@needs_data
def test_check_reports_the_same_with_shipped_tasks() -> None:
    a = report_json(run_check(DATA, only=TASKS, executor=SerialExecutor()))
    b = report_json(run_check(DATA, only=TASKS, executor=SerialExecutor(remote=True)))
    assert a == b and a["totals"]["impl_matches_expected"]["decodable"] > 0


@needs_data
def test_the_inputs_stage_writes_the_same_bytes_with_shipped_tasks(tmp_path: Path) -> None:
    outs = {}
    for name, ex in (("paths", SerialExecutor()), ("shipped", SerialExecutor(remote=True))):
        with RunDir.open(tmp_path / name, PipelineConfig()) as rd:
            rep = run_inputs_stage(DATA, rd, ex, tasks=TASKS)
            assert rep.ok and sorted(rep.computed) == sorted(TASKS), rep.failed
        outs[name] = {t: (tmp_path / name / STAGE / f"{t}.json").read_bytes() for t in TASKS}
    assert outs["paths"] == outs["shipped"]


def test_executor_options() -> None:
    assert isinstance(executor_from_options("local", 1, None, serial_for_one=True), SerialExecutor)
    assert isinstance(executor_from_options("local", 1, None, serial_for_one=False), LocalExecutor)
    assert isinstance(executor_from_options("local", 3, None, serial_for_one=True), LocalExecutor)
    with pytest.raises(typer.Exit):
        executor_from_options("serial", 2, "127.0.0.1:6379", serial_for_one=False)
    with pytest.raises(typer.Exit):
        executor_from_options("threads", 2, None, serial_for_one=False)
