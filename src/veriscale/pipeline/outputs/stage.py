"""The output-expansion stage: per task, candidate specs → adversaries → unexpected outputs → kill matrix.

Reads ``<run>/inputs/<task>.json`` (the input stage's expected cases) and
writes ``<run>/outputs/<task>.json`` atomically, marking the task done in the
ledger, so an interrupted run resumes where it stopped.

Result document (one per task)::

    {"task_id", "stage": "outputs", "config": <fingerprint>, "params": {...attack settings},
     "return_type",
     "specs": [{"id", "origin", "description", "text"}],
     "adversaries": [{"id", "origin", "description", "target", "section", "text"}],
     "counts": {"specs", "adversaries": {origin: n}, "dropped": {reason: n},
                "verdicts": {"true"|"false"|"unknown": n}, "expected", "unexpected",
                "accepted": n (kept unexpected outputs accepted by ≥ 1 candidate spec)},
     "expected": [{"id", "input", "output", "provenance", "postcond": "true"|"unknown"|"false"
                   (the ground-truth postcondition on the expected output),
                   "unexpected": [{"output", "source", "adversaries": [id], "accepted_by": [spec id]}]}],
     "kill_matrix": {"cases": [case id], "adversaries": [adversary id],
                     "rows": ["10?…" per adversary: 1 killed (output ≠ expected), 0 survived, ? no value]}}
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...formats.verina.dataset import Task, read_task
from ...languages.adversary import Adversary
from ...languages.registry import language_of
from ...runtime.engine import Engine
from ...runtime.executor import Executor
from ...runtime.shipping import Shipped, local_path, ship
from ...values import codec
from ..config import PipelineConfig
from ..driver import Stage, StageReport, TaskOutput, run_stage
from ..fuelcap import adversary_fuel_cap
from ..inputs.stage import STAGE as INPUTS_STAGE
from ..inputs.stage import make_engine
from ..rundir import RunDir
from .adversaries import AttackConfig, Case, Unexpected, attack
from .weakened_kills import kill_weakened_specs

if TYPE_CHECKING:
    from ...llm.config import LLMConfig
    from ...llm.runner import ModelRunner

__all__ = [
    "STAGE",
    "OutputsJob",
    "all_adversaries",
    "expand_task_outputs",
    "run_outputs_job",
    "run_outputs_stage",
    "with_models",
]

STAGE = "outputs"


def all_adversaries(task: Task) -> list[Adversary]:
    """The language's offline adversaries of ``task`` (deduplicated by id, first kept)."""
    return language_of(task).offline_adversaries(task)


def _adversary_engine(task: Task, engine: Engine, acfg: AttackConfig) -> Engine:
    """Non-terminating mutants would otherwise cost the full limit.

    Fuel, not wall-clock time, so which adversaries and rows survive does not depend on machine load.
    """
    return language_of(task).with_fuel(engine, acfg.adversary_fuel)


def _cases(task: Task, inputs_doc: dict[str, Any]) -> list[Case]:
    ret = task.signature.return_type
    cases = []
    for row in inputs_doc["expected"]:
        values = task.decode_input(row["input"], file="inputs")
        cases.append(Case(row["id"], values, codec.decode(ret, row["output"], structs=task.structs)))
    return cases


def _model_candidates(
    task: Task,
    runner: ModelRunner,
    engine: Engine,
    config: PipelineConfig,
    weakened: list[Any],
    adv_engine: Engine,
) -> tuple[list[Any], list[Adversary], dict[str, Any]]:
    """Model specs (decomposition → spec generation) and the red team's adversaries against them."""
    from .llm_adversaries import model_adversaries
    from .llm_specs import model_specs

    ms = model_specs(task, runner, engine, config.outputs)
    ma = model_adversaries(task, runner, adv_engine, [*ms.specs, *weakened], config.outputs)
    return list(ms.specs), list(ma.adversaries), {"specs": ms.report(), "adversaries": ma.report()}


def expand_task_outputs(
    task: Task,
    inputs_doc: dict[str, Any],
    config: PipelineConfig,
    engine: Engine,
    attack_config: AttackConfig | None = None,
    runner: ModelRunner | None = None,
) -> dict[str, Any]:
    """Expand one task's outputs; the returned document is what ``outputs/<task>.json`` holds.

    With a configured model ``runner``, model specs join the weakened ones (first: only
    the first ``max_specs`` are judged) and the red team's adversaries join the offline ones.
    """
    acfg = attack_config or AttackConfig.from_settings(config.outputs)
    # scaled to the ground truth's work (``fuelcap.py``); inputs documents without the figure keep it
    cap = adversary_fuel_cap(inputs_doc.get("ground_truth_fuel"), config.outputs)
    acfg = replace(acfg, adversary_fuel=min(acfg.adversary_fuel, cap))
    adv_engine = _adversary_engine(task, engine, acfg)
    ret = task.signature.return_type
    cases = _cases(task, inputs_doc)
    specs: list[Any] = list(language_of(task).weakened_specs(task))
    advs = all_adversaries(task)
    llm: dict[str, Any] | None = None
    if runner is not None and runner.configured:
        m_specs, m_advs, llm = _model_candidates(task, runner, engine, config, specs, adv_engine)
        specs = [*m_specs, *specs]
        known = {a.id for a in advs}
        advs += [a for a in m_advs if a.id not in known]
    graded = language_of(task).with_fuel(engine, acfg.grade_fuel)
    res = attack(task, graded, cases, advs, specs, acfg, adv_engine)
    # candidate specs no adversary output kills: search typed output mutations for a killing output
    wk = kill_weakened_specs(
        task, graded, cases, res.unexpected, res.expected_verdicts, specs[: acfg.max_specs], Unexpected
    )
    for i, u in wk.added:
        res.unexpected[i].append(u)

    expected_rows: list[dict[str, Any]] = []
    n_unexp = n_acc = 0
    for row, unexp, post in zip(inputs_doc["expected"], res.unexpected, res.expected_verdicts, strict=True):
        items = [
            {
                "output": codec.to_json(ret, u.output, structs=task.structs),
                "source": u.source,
                "adversaries": u.adversaries,
                "accepted_by": u.accepted_by,
            }
            for u in unexp
        ]
        n_unexp += len(items)
        n_acc += sum(1 for u in unexp if u.accepted_by)
        expected_rows.append({**row, "postcond": post, "unexpected": items})
    by_origin = Counter(a.origin.split(":", 1)[0] for a in res.adversaries)
    counts: dict[str, Any] = {
        "specs": len(specs),
        "adversaries": dict(sorted(by_origin.items())),
        "adversary_kinds": dict(sorted(Counter(a.origin for a in res.adversaries).items())),
        "dropped": dict(sorted(res.dropped.items())),
        "verdicts": dict(sorted(res.verdicts.items())),
        "expected_verdicts": dict(sorted(Counter(res.expected_verdicts).items())),
        "expected": len(cases),
        "unexpected": n_unexp,
        "accepted": n_acc,
        "spec_search": wk.report(),
    }
    doc = {
        "task_id": task.id,
        "stage": STAGE,
        "config": config.fingerprint(),
        "params": asdict(acfg),
        "return_type": inputs_doc.get("return_type"),
        "counts": counts,
        "specs": [s.to_json() for s in specs],
        "adversaries": [a.to_json() for a in res.adversaries],
        "expected": expected_rows,
        "kill_matrix": {
            "cases": [c.id for c in cases],
            "adversaries": [a.id for a in res.adversaries],
            "rows": res.matrix,
        },
    }
    if llm is not None:
        doc["llm"] = llm
    return doc


# ---------------------------------------------------------------- worker side


@dataclass(frozen=True, slots=True)
class OutputsJob:
    # snapshots when the executor's workers may be remote (the run directory stays on the driver)
    task_dir: str | Shipped
    inputs_path: str | Shipped
    config: dict[str, Any]
    llm_config: dict[str, Any] | None = None  # None: offline (no model specs or red team)


def run_outputs_job(job: OutputsJob) -> TaskOutput:
    """Worker entry point: one task, nothing written (the parent writes)."""
    import json

    t0 = time.perf_counter()
    config = PipelineConfig.from_json(job.config)
    task = read_task(Path(local_path(job.task_dir)))
    inputs_doc = json.loads(Path(local_path(job.inputs_path)).read_text(encoding="utf-8"))
    from ...llm.runner import runner_from_json

    with runner_from_json(job.llm_config) as runner:
        doc = expand_task_outputs(task, inputs_doc, config, make_engine(config, task), runner=runner)
    return TaskOutput(task.id, doc, time.perf_counter() - t0)


def with_models(config: PipelineConfig, llm_config: LLMConfig | None, use_model: bool) -> PipelineConfig:
    """``config`` with the spec and red-team models recorded (none when offline): they decide results."""
    o = config.outputs
    if not use_model or llm_config is None:
        new = o.model_copy(update={"spec_models": (), "red_team_model": None})
    else:
        new = o.model_copy(
            update={
                "spec_models": tuple(llm_config.models_for("spec_gen")) if o.model_specs else (),
                "red_team_model": llm_config.model_for("adversarial_impl") if o.model_adversaries else None,
            }
        )
    return config.model_copy(update={"outputs": new})


def _expected_count(path: Path) -> int:
    import json

    try:
        return int(json.loads(path.read_text(encoding="utf-8"))["counts"]["expected"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0


def _summary(doc: dict[str, Any]) -> dict[str, Any]:
    c = doc["counts"]
    return {
        "expected": c["expected"],
        "unexpected": c["unexpected"],
        "adversaries": sum(c["adversaries"].values()),
        "accepted": c["accepted"],
    }


OUTPUTS = Stage(
    STAGE,
    run_outputs_job,
    _summary,
    requires=(INPUTS_STAGE,),
    missing_message="input stage not finished for this task (run `veriscale expand inputs` first)",
)


def run_outputs_stage(
    benchmark: Path | str,
    rundir: RunDir,
    executor: Executor,
    *,
    tasks: Sequence[str] | None = None,
    llm_config: LLMConfig | None = None,
    progress: Callable[[str, str], None] | None = None,
    on_start: Callable[[int, int], None] | None = None,
) -> StageReport:
    """Run the stage on every selected task whose inputs are done and whose outputs are not.

    The attack settings are the run config's ``outputs`` section; ``llm_config`` (a
    configured model) turns on model specs and the red team.
    """
    cfg_json = rundir.config.to_json()
    llm_json = llm_config.model_dump(mode="json") if llm_config is not None else None

    def job(task_id: str, task_dir: Path) -> OutputsJob:
        inputs = rundir.result_path(INPUTS_STAGE, task_id)
        return OutputsJob(ship(task_dir, executor.remote), ship(inputs, executor.remote), cfg_json, llm_json)

    # Biggest tasks first, so one long task does not run alone at the end (results do not depend on order).
    return run_stage(
        OUTPUTS,
        benchmark,
        rundir,
        executor,
        job,
        tasks=tasks,
        order=lambda j: -_expected_count(rundir.result_path(INPUTS_STAGE, j[0])),
        progress=progress,
        on_start=on_start,
    )
