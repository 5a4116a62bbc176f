"""``scale`` for formats that build their own suites (``Format.suite_builder()``).

Stages, through the same run directory, ledger, resume and executors as Verina:

1. ``suites``: per task, the format's ``build`` in a worker (positives, negatives,
   mutant kills, weakened-specification kills) — one result document per task;
2. ``lite``: per task, in this process —
   * positives: ``select_cases`` over the mutant-kill bitsets joined by the
     reference's branches the positive executes and the weakened specifications
     its negatives kill (the cover is never cut, so Lite kills every mutant Plus
     kills, executes every reference branch Plus executes and has, for every
     weakened specification Plus kills, a positive with a killing negative),
     weights = the positive's negatives, filled to ``LITE_POSITIVES``;
   * negatives (of the chosen positives): a greedy cover of the weakened
     specifications Plus's negatives kill (most newly killed first; ties: earlier
     negative), then filled in Plus order up to ``LITE_NEGATIVES_PER_POSITIVE`` ×
     the Lite positives. The weakened cover comes first and is never cut, so Lite
     kills every weakened specification Plus kills (``weakened_preserved``;
     ``coverage_preserved`` for the branches).
3. the format's ``write`` puts each task under ``plus/`` and ``lite/``.

The per-task seed is ``stable_seed(config.seed, task_id)``: the output does not
depend on the order tasks run in, the executor or ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..builders.suites import LITE, PLUS
from ..formats.registry import detect_format, get_format
from ..formats.suite_models import MODEL_ANSWERS, suite_model_hooks
from ..reduce.cases import kill_bits, select_cases
from ..runtime.executor import Executor
from ..runtime.files import atomic_write_json
from ..runtime.shipping import Shipped, local_path, ship
from .config import stable_seed
from .driver import Stage, StageReport, TaskOutput, run_stage
from .format_models import add_model_totals, model_stage_summary
from .rundir import RunDir

__all__ = ["LITE_NEGATIVES_PER_POSITIVE", "LITE_POSITIVES", "lite_selection", "run_format_scale"]

if TYPE_CHECKING:
    from ..llm.config import LLMConfig

STAGE = "suites"
LITE_POSITIVES = 50
LITE_NEGATIVES_PER_POSITIVE = 4


@dataclass(frozen=True, slots=True)
class SuiteJob:
    format: str
    task_dir: str | Shipped  # a snapshot for remote (Ray cluster) workers
    settings: dict[str, Any]
    cache: str | None
    llm_config: dict[str, Any] | None = None  # a model config as JSON: the builder's model stages run


def run_suite_job(job: SuiteJob) -> TaskOutput:
    t0 = time.perf_counter()
    builder = get_format(job.format).suite_builder()
    assert builder is not None
    task_dir = Path(local_path(job.task_dir))
    settings = job.settings
    hooks = suite_model_hooks(builder)
    asked: dict[str, int] | None = None
    if hooks is not None and job.llm_config is not None:
        from ..llm.runner import runner_from_json
        from .format_models import ask_suite_models

        with runner_from_json(job.llm_config) as runner:
            assert runner is not None
            answers, asked = ask_suite_models(hooks, task_dir, settings, runner)
        settings = {**settings, MODEL_ANSWERS: answers}
    doc = builder.build(task_dir, settings, job.cache)
    if asked is not None:
        doc["model_requests"] = asked
    return TaskOutput(task_dir.name, doc, time.perf_counter() - t0)


def _summary(doc: dict[str, Any]) -> dict[str, Any]:
    c = doc.get("counts") or {}
    m = doc.get("mutants") or {}
    extra = {"model_stages": doc["model_stages"]} if doc.get("model_stages") else {}
    return {
        **extra,
        "positives": len(doc.get("positives", [])),
        "negatives": len(doc.get("negatives", [])),
        "alternatives": len(doc.get("alternatives", [])),
        "defects": len(doc.get("defects", [])),
        "mutants": m.get("compiled", 0),
        "killed": m.get("killed", 0),
        "requires_true": c.get("requires_true", 0),
    }


SUITES = Stage(STAGE, run_suite_job, _summary)


def lite_selection(doc: dict[str, Any]) -> tuple[list[int], list[int], dict[str, Any]]:
    """(positive indices, negative indices, summary) of a task's Lite suite (module docstring)."""
    pos = doc.get("positives", [])
    negs = doc.get("negatives", [])
    kills = doc.get("kills") or [[] for _ in pos]
    per_pos = [0] * len(pos)
    for n in negs:
        per_pos[n["input_index"]] += 1
    bits = [kill_bits(k) for k in kills]
    wk = ((doc.get("weakened") or {}).get("kills")) or [[] for _ in negs]
    plus_weak = kill_bits(w for ks in wk for w in ks)
    # the reference's branches each positive executes, and the weakened specifications its negatives
    # kill, join the mutants as elements to cover (shifted past the mutant bits, then past the branches)
    hits = list(((doc.get("coverage") or {}).get("hits")) or [])
    branch = [kill_bits(h) for h in hits[: len(pos)]] + [0] * max(0, len(pos) - len(hits))
    weak_of = [0] * len(pos)
    for n, ks in zip(negs, wk):
        weak_of[n["input_index"]] |= kill_bits(ks)
    s1 = max((b.bit_length() for b in bits), default=0)
    s2 = s1 + max((b.bit_length() for b in branch), default=0)
    cover = [b | (h << s1) | (w << s2) for b, h, w in zip(bits, branch, weak_of)]
    chosen = [c.index for c in select_cases(cover, LITE_POSITIVES, weights=per_pos)]
    chosen_set = set(chosen)
    cand = [j for j, n in enumerate(negs) if n["input_index"] in chosen_set]
    got = 0
    picked: list[int] = []
    remaining = list(cand)
    while True:
        best, gain = None, 0
        for j in remaining:
            g = bin(kill_bits(wk[j]) & ~got).count("1")
            if g > gain:
                best, gain = j, g
        if best is None:
            break
        picked.append(best)
        got |= kill_bits(wk[best])
        remaining.remove(best)
    budget = LITE_NEGATIVES_PER_POSITIVE * len(chosen)
    for j in remaining:
        if len(picked) >= budget:
            break
        picked.append(j)
    picked.sort()
    plus_kill = 0
    for b in bits:
        plus_kill |= b
    lite_kill = 0
    for i in chosen:
        lite_kill |= bits[i]
    plus_br = lite_br = 0
    for i, b in enumerate(branch):
        plus_br |= b
        if i in chosen_set:
            lite_br |= b
    summary = {
        "plus_positives": len(pos), "lite_positives": len(chosen),
        "plus_negatives": len(negs), "lite_negatives": len(picked),
        "kill_preserved": lite_kill == plus_kill,
        "weakened_preserved": got == plus_weak,
        "branches": len((doc.get("coverage") or {}).get("probes") or []),
        "plus_branches": plus_br.bit_count(), "lite_branches": lite_br.bit_count(),
        "coverage_preserved": lite_br == plus_br,
        "plus_weakened": plus_weak.bit_count(), "lite_weakened": got.bit_count(),
    }  # fmt: skip
    if (doc.get("domain") or {}).get("exhausted"):  # fewer positives because the valid domain is that small
        summary["domain_exhausted"] = doc["domain"]["inputs"]
    return chosen, picked, summary


def run_format_scale(
    benchmark: Path | str,
    rundir: RunDir,
    executor: Executor,
    *,
    tasks: Sequence[str] | None = None,
    settings: dict[str, Any] | None = None,
    progress: Callable[[str, str, str], None] | None = None,
    on_stage: Callable[[str, int, int], None] | None = None,
    llm_config: LLMConfig | None = None,
) -> tuple[list[StageReport], list[str], dict[str, Any]]:
    """Build (or resume), reduce and write every selected task; returns (stage reports, written, stats)."""
    fmt = detect_format(Path(benchmark))
    builder = fmt.suite_builder()
    assert builder is not None
    seed = rundir.config.seed
    base = dict(settings or {})
    cache = base.pop("cache", None)
    hooks = suite_model_hooks(builder)
    llm_json = llm_config.model_dump(mode="json") if (hooks and llm_config is not None) else None

    def job(task_id: str, task_dir: Path) -> SuiteJob:
        return SuiteJob(
            fmt.name,
            ship(task_dir, executor.remote),
            {**base, "seed": stable_seed(seed, task_id) % 2**32},
            cache,
            llm_json,
        )

    report = run_stage(
        SUITES, benchmark, rundir, executor, job, tasks=tasks,
        progress=(lambda t, s: progress(STAGE, t, s)) if progress else None,
        on_start=(lambda todo, done: on_stage(STAGE, todo, done)) if on_stage else None,
    )  # fmt: skip
    done = rundir.ledger.done(STAGE)
    dirs = {d.name: d for d in fmt.task_dirs(Path(benchmark))}
    written: list[str] = []
    totals: dict[str, Any] = {"tasks": 0, "kill_preserved": 0, "weakened_preserved": 0, "coverage_preserved": 0,
                              "plus": {"positives": 0, "negatives": 0}, "lite": {"positives": 0, "negatives": 0}}  # fmt: skip
    per_task: dict[str, Any] = {}
    model_totals: dict[str, dict[str, float]] = {}
    wanted = [t for t in (tasks or sorted(dirs, key=fmt.sort_key)) if t in done and t in dirs]
    for t in sorted(wanted, key=fmt.sort_key):
        doc = rundir.read_result(STAGE, t)
        add_model_totals(model_totals, doc)
        chosen, picked, summ = lite_selection(doc)
        builder.write(dirs[t], rundir.root / PLUS, "plus", doc, list(range(len(doc.get("positives", [])))),
                      list(range(len(doc.get("negatives", [])))))  # fmt: skip
        builder.write(dirs[t], rundir.root / LITE, "lite", doc, chosen, picked)
        written.append(t)
        per_task[t] = summ
        totals["tasks"] += 1
        totals["kill_preserved"] += summ["kill_preserved"]
        totals["weakened_preserved"] += summ["weakened_preserved"]
        totals["coverage_preserved"] += summ["coverage_preserved"]
        for s in ("plus", "lite"):
            totals[s]["positives"] += summ[f"{s}_positives"]
            totals[s]["negatives"] += summ[f"{s}_negatives"]
    stats = {
        "format": fmt.name,
        **totals,
        "model_stages": model_stage_summary(hooks, llm_json is not None, model_totals),
        "failed": dict(sorted(report.failed.items())),
        "per_task": per_task,
    }
    atomic_write_json(rundir.root / "stats.json", stats)
    return [report], written, stats
