"""The input-expansion stage: per task, seeds → mutants → classification → expected outputs.

``expand_task`` does one task in memory and returns its result document;
``run_inputs_job`` is the worker entry point (reads the task, builds the engine
and, when configured, the model runner); ``run_inputs_stage`` drives a whole
benchmark over a run directory with an executor, writing
``<run>/inputs/<task_id>.json`` atomically as each task finishes and marking
it done in the ledger.

Result document (one per task)::

    {"task_id", "stage": "inputs", "config": <fingerprint>,
     "params": [{"name", "type"}], "return_type",
     "counts": {"seeds": {"original", "reject", "llm-seed"}, "mutants",
                "small_scope": {"levels": {param: level | null}, "size", "new", "dropped"},
                "kill_search": {"adversaries", "killed_by_base", "killed_by_pool", "pool_rows_added",
                                ["killed_by_guided", "guided": {"survivors_tried", "killed",
                                 "rows_added", "draws", "valid", "mutant_runs"}]  (when run),
                                "survivors": [{"id", "origin", "tried", "timeout", ["guided"]}]},
                "conjunct_search": {"labels", "covered", "new"}, "candidates",
                "expected", "unexpected", "excluded": {reason: n}, "duplicate_seeds",
                "duplicates", "original_output_mismatch"},
     "expected":   [{"id", "input": {param: json}, "output": json, "provenance": {...}}],
     "unexpected": [{"id", "input": {param: json}, "provenance": {...}}],
     "excluded_examples": {reason: [[candidate id, engine message], ...]},
     "ground_truth_fuel": the most fuel one ground-truth run took (null: not metered),
     "conjuncts": [{"label", "text", "covered_by": reject id | null, "tried"}],
     "llm": {...}  (only when a model was asked)}

Provenance is ``{"origin": "original" | "reject" | "llm-seed" | "mutation" | "small-scope", ...}``
(or "guided-mutation", with the edits and the mutant the row kills: ``guided.py``)
with the row index for originals and rejects (and whether the engine output of
an original test equals the stored expected output), the item index and round
for model seeds, and the parent's id and the number of steps for mutants.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...formats.verina.dataset import Task, read_task
from ...languages.registry import language_of
from ...runtime.engine import Engine
from ...runtime.executor import Executor
from ...runtime.shipping import Shipped, local_path, ship
from ...values import codec
from ...values.codec import DecodeError
from ...values.types import render_type
from ..config import PipelineConfig, stable_seed
from ..driver import Stage, StageReport, TaskOutput, run_stage
from ..fuelcap import adversary_fuel_cap
from ..rundir import RunDir
from ..tasks import select_task_dirs
from .classify import classify
from .conjuncts import search_conjunct_rejects
from .guided import GuidedSearch, guided_search
from .killsearch import kill_search
from .mutate import Candidate, Mutator, input_key
from .outputs import expected_outputs
from .seeds import collect_seeds, task_params
from .smallscope import small_scope_candidates

if TYPE_CHECKING:
    from ...llm.config import LLMConfig
    from ...llm.runner import ModelRunner

__all__ = [
    "STAGE",
    "InputsJob",
    "expand_task",
    "make_engine",
    "run_inputs_job",
    "run_inputs_stage",
]

STAGE = "inputs"


def make_engine(config: PipelineConfig, task: Any) -> Engine:
    """The engine ``config`` names, from the language ``task`` is written in."""
    lang = language_of(task)
    if config.engine.name == "native":
        return lang.make_engine("native", fuel=config.engine.fuel, seconds=config.engine.seconds)
    return lang.make_engine(config.engine.name)


def _input_json(task: Task, values: dict[str, Any]) -> dict[str, Any]:
    return {name: codec.to_json(t, values[name], structs=task.structs) for name, t in task_params(task)}


def _stored_match(task: Task, cand: Candidate, got: Any) -> bool | None:
    """Whether an original test's engine output equals its stored expected output (None: undecodable)."""
    from ...evaluate.scoring.compare import outputs_match

    try:
        stored = task.tests[cand.index or 0].decode_expected(task, cand.index)
    except DecodeError:
        return None
    return outputs_match(task.signature.return_type, got, stored)


def expand_task(
    task: Task, config: PipelineConfig, engine: Engine, runner: ModelRunner | None = None
) -> dict[str, Any]:
    """Expand one task's inputs; the returned document is what ``inputs/<task>.json`` holds."""
    params = task_params(task)
    seen: set[str] = set()
    seeds = collect_seeds(task, config.inputs.seeds, runner, seen)

    rng = random.Random(stable_seed(config.seed, task.id, "mutation"))
    mutator = Mutator(params, task.structs, rng, config.inputs.mutation)
    for s in seeds.candidates:
        mutator.harvest(s.values)
    mutants: list[Candidate] = []
    for s in seeds.candidates:
        mutants.extend(mutator.mutants(s, seen))
    small, pool = small_scope_candidates(
        params, task.structs, seeds.candidates, config.inputs.small_scope_budget, seen
    )
    candidates = seeds.candidates + mutants + small

    te = engine.for_task(task)
    cls = classify(te, candidates)
    conj = search_conjunct_rejects(
        engine, task, task.section_text("precond"), cls.unexpected, cls.expected, mutator, seen,
        config.inputs.conjunct_attempts, te,
    )  # fmt: skip
    cls.unexpected.extend(conj.new)
    violates = conj.violations()
    outs = expected_outputs(te, task.signature.return_type, cls.expected, task.structs)
    # the small-scope pool is a search space: only its rows that kill a mutant the other rows do not
    # kill become expected cases, and only its reject inputs that cover a conjunct stay
    in_pool = [c.origin == "small-scope" for c, _, _ in outs.cases]
    ks = kill_search(
        task,
        language_of(task).with_fuel(engine, adversary_fuel_cap(outs.max_fuel, config.outputs)),
        [(c.values, v) for (c, v, _), p in zip(outs.cases, in_pool, strict=True) if not p],
        pool_cases := [(c.values, v) for (c, v, _), p in zip(outs.cases, in_pool, strict=True) if p],
        adversaries := language_of(task).offline_adversaries(task) if pool_cases else [],
        config.outputs.max_timeouts,
    )
    guided = _guided(task, config, engine, te, outs, in_pool, adversaries, ks, seen, outs.max_fuel)
    pool_keep = {j for j in ks.selected}
    pool_pos = [i for i, p in enumerate(in_pool) if p]
    keep_rows = {pool_pos[j] for j in pool_keep}
    outs.cases = [x for i, x in enumerate(outs.cases) if not in_pool[i] or i in keep_rows]
    outs.cases += [(c, v, js) for c, v, js, _ in guided.rows]
    guided_prov = {c.key: prov for c, _, _, prov in guided.rows}
    n_unexpected = len(cls.unexpected)
    cls.unexpected = [c for c in cls.unexpected if c.origin != "small-scope" or c.key in violates]
    pool_dropped = (len(pool_pos) - len(keep_rows)) + (n_unexpected - len(cls.unexpected))

    excluded: Counter[str] = Counter()
    excluded.update(seeds.excluded)
    excluded.update(cls.excluded)
    excluded.update(outs.excluded)

    expected_rows: list[dict[str, Any]] = []
    mismatches = 0
    for cand, value, js in outs.cases:
        prov = {**cand.provenance(), **guided_prov.get(cand.key, {})}
        if cand.origin == "original":
            match = _stored_match(task, cand, value)
            prov["stored_match"] = match
            mismatches += match is False
        expected_rows.append(
            {"id": cand.id, "input": _input_json(task, cand.values), "output": js, "provenance": prov}
        )
    unexpected_rows = [
        {
            "id": c.id,
            "input": _input_json(task, c.values),
            "provenance": {**c.provenance(), **({"violates": violates[c.key]} if c.key in violates else {})},
        }
        for c in cls.unexpected
    ]
    emitted = [c for c, _, _ in outs.cases] + cls.unexpected
    duplicates = len(emitted) - len({input_key(params, c.values, task.structs) for c in emitted})

    counts: dict[str, Any] = {
        "seeds": seeds.counts(),
        "mutants": len(mutants),
        "small_scope": {**pool.provenance(), "new": len(small), "dropped": pool_dropped},
        "kill_search": ks.report(),
        "conjunct_search": {
            "labels": len(conj.conjuncts),
            "covered": sum(c is not None for c in conj.covered.values()),
            "new": len(conj.new),
        },
        "candidates": len(candidates),
        "expected": len(expected_rows),
        "unexpected": len(unexpected_rows),
        "excluded": dict(sorted(excluded.items())),
        "duplicate_seeds": seeds.duplicates,
        "duplicates": duplicates,
        "original_output_mismatch": mismatches,
    }
    doc: dict[str, Any] = {
        "task_id": task.id,
        "stage": STAGE,
        "config": config.fingerprint(),
        "params": [{"name": n, "type": render_type(t)} for n, t in params],
        "return_type": render_type(task.signature.return_type),
        "counts": counts,
        "expected": expected_rows,
        "unexpected": unexpected_rows,
        "excluded_examples": dict(sorted({**cls.examples, **outs.examples}.items())),
        "ground_truth_fuel": outs.max_fuel,
        "conjuncts": conj.report(),
    }
    if seeds.llm:
        doc["llm"] = seeds.llm
    return doc


def _guided(
    task: Task,
    config: PipelineConfig,
    engine: Engine,
    te: Any,
    outs: Any,
    in_pool: list[bool],
    adversaries: Sequence[Any],
    ks: Any,
    seen: set[str],
    gt_fuel: int | None,
) -> GuidedSearch:
    """Guided mutation of the base rows for the kill search's survivors (``guided.py``); updates
    ``ks`` (survivors killed leave its list, the others get their effort)."""
    by_id = {a.id: a for a in adversaries}
    # a survivor given up for timeouts does not terminate on ordinary inputs: not worth the search
    alive = [by_id[s["id"]] for s in ks.survivors if not s["timeout"] and s["id"] in by_id]
    if not alive or config.inputs.guided_attempts <= 0:
        return GuidedSearch()
    base = [c for (c, _, _), p in zip(outs.cases, in_pool, strict=True) if not p]
    res = guided_search(
        task,
        te,
        language_of(task).with_fuel(engine, adversary_fuel_cap(gt_fuel, config.outputs)),
        task_params(task),
        base,
        alive,
        seen,
        random.Random(stable_seed(config.seed, task.id, "guided")),
        config.inputs.guided_attempts,
        max_timeouts=config.outputs.max_timeouts,
    )
    killed = set(res.killed)
    ks.killed_by_guided = len(res.killed)
    ks.guided = res.report()
    kept = []
    for s in ks.survivors:
        if s["id"] in killed:
            continue
        if s["id"] in res.effort:
            s = {**s, "guided": res.effort[s["id"]]}
        kept.append(s)
    ks.survivors = kept
    return res


# ---------------------------------------------------------------- worker side


@dataclass(frozen=True, slots=True)
class InputsJob:
    task_dir: str | Shipped  # a snapshot when the executor's workers may be remote
    config: dict[str, Any]
    llm_config: dict[str, Any] | None = None  # None: no model-driven seeds


def run_inputs_job(job: InputsJob) -> TaskOutput:
    """Worker entry point: one task, start to finish, nothing written (the parent writes)."""
    t0 = time.perf_counter()
    config = PipelineConfig.from_json(job.config)
    task = read_task(Path(local_path(job.task_dir)))
    from ...llm.runner import runner_from_json

    with runner_from_json(job.llm_config) as runner:
        doc = expand_task(task, config, make_engine(config, task), runner)
    return TaskOutput(task.id, doc, time.perf_counter() - t0)


# ---------------------------------------------------------------- driver


def _summary(doc: dict[str, Any]) -> dict[str, Any]:
    c = doc["counts"]
    return {
        "expected": c["expected"],
        "unexpected": c["unexpected"],
        "candidates": c["candidates"],
        "excluded": sum(c["excluded"].values()),
    }


INPUTS = Stage(STAGE, run_inputs_job, _summary)


def run_inputs_stage(
    benchmark: Path | str,
    rundir: RunDir,
    executor: Executor,
    *,
    tasks: Sequence[str] | None = None,
    llm_config: LLMConfig | None = None,
    progress: Callable[[str, str], None] | None = None,
    on_start: Callable[[int, int], None] | None = None,
) -> StageReport:
    """Run the stage on every selected task that is not finished yet (``driver.run_stage``).

    ``llm_config`` (a configured model) turns on model seeds.
    """
    select_task_dirs(benchmark, tasks)  # unknown task ids fail before anything is recorded
    rundir.record_inputs(benchmark=str(Path(benchmark).resolve()))
    cfg_json = rundir.config.to_json()
    llm_json = llm_config.model_dump(mode="json") if llm_config is not None else None

    def job(task_id: str, task_dir: Path) -> InputsJob:
        return InputsJob(ship(task_dir, executor.remote), cfg_json, llm_json)

    return run_stage(
        INPUTS, benchmark, rundir, executor, job, tasks=tasks, progress=progress, on_start=on_start
    )
