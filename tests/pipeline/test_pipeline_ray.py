"""The Ray executor on a local Ray runtime gives the same results as the local process pool.

Job functions must be importable on the Ray workers: they live in the package (or are
builtins), never in this test module.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shared_data import data_path
from veriscale.pipeline.config import PipelineConfig
from veriscale.pipeline.inputs.stage import STAGE, run_inputs_stage
from veriscale.pipeline.rundir import RunDir
from veriscale.runtime.executor import LocalExecutor, RayExecutor, make_executor

DATA = data_path("verina")
TASKS = ["verina_basic_1", "verina_basic_16", "verina_basic_104", "verina_advanced_13"]


@pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data/verina is absent")
@pytest.mark.skipif(not RayExecutor.available(), reason="ray is not installed (pip install 'veriscale[ray]')")
def test_ray_executor_matches_local(tmp_path: Path) -> None:
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)  # one runtime for both runs below
    try:
        _compare(tmp_path)
    finally:
        ray.shutdown()


def _compare(tmp_path: Path) -> None:
    outs = {}
    for name, ex in (("ray", make_executor("ray", workers=2)), ("local", LocalExecutor(workers=2))):
        with RunDir.open(tmp_path / name, PipelineConfig()) as rd:
            rep = run_inputs_stage(DATA, rd, ex, tasks=TASKS)
            assert rep.ok and sorted(rep.computed) == sorted(TASKS), rep.failed
        outs[name] = {t: (tmp_path / name / STAGE / f"{t}.json").read_bytes() for t in TASKS}
    assert outs["ray"] == outs["local"]
    errors: dict[str, str | None] = {}
    # a job that raises is reported, not retried, and the others go on (``int`` is importable anywhere)
    RayExecutor(workers=1).run(
        int, [("a", "job 1 refused"), ("b", "7")], lambda k, r, e, s: errors.__setitem__(k, e or r)
    )
    assert errors["b"] == 7
    assert errors["a"] is not None and "ValueError" in errors["a"] and "job 1 refused" in errors["a"]


def test_ray_executor_unavailable_message() -> None:
    if RayExecutor.available():
        pytest.skip("ray is installed here")
    from veriscale.runtime.executor import ExecutorUnavailable

    with pytest.raises(ExecutorUnavailable, match=r"pip install 'veriscale\[ray\]'"):
        make_executor("ray")
