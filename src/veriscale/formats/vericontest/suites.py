"""Positive and negative tests for one VeriContest problem (the Plus suite's content).

``build_suite(problem, settings)`` returns a JSON document:

1. **Positives.** Candidate inputs from the parameter types and the bounds of
   ``requires`` (``languages.verus.input_gen``), decoded strictly, checked by the
   ground-truth precondition in one batch (only TRUE kept), run through the
   reference (``code.rs``/``main.rs``, never ``verified.rs``) in one harness
   process, and checked by the ground-truth postcondition in one batch: TRUE
   makes a positive, FALSE a **benchmark defect** (recorded with the input and
   output), UNKNOWN is dropped (counted). The first ``settings.target`` in
   candidate order (families interleaved) are kept.
2. **Syntactic mutants** as one schema binary (``languages.verus.mutants``), each
   run on every positive with a short per-case limit (a mutant that times out is
   stopped at once). A positive *kills* a mutant when the mutant's result differs
   from the reference's (wrong value, panic, timeout). Only mutants whose pass
   rate on the positives lies strictly between 0 and 1 give negatives.
   With a model, buggy variants of the reference written by the model (semantic
   mutants, ``semantic``) run the same way and follow the same rule.
3. **Negatives**, the paper's staged budget: mutant outputs round-robin across
   mutants (one per mutant per pass; semantic and syntactic sources alternating,
   ``semantic.source_order``) up to ``code_multiplier`` × positives, then
   direct output mutations round-robin across inputs (one new per input per pass)
   up to ``multiplier`` × positives. Every candidate is labelled by the
   ground-truth postcondition: FALSE → negative; TRUE → a valid alternative
   answer (recorded, never a negative); UNKNOWN → dropped. Outputs are
   deduplicated per input (the reference output and every output kept).
4. **Weakened ``ensures``**: each top-level clause of the ground-truth
   ``ensures`` dropped in turn; a negative kills a weakened specification when
   that specification still rejects it — derived from one per-clause verdict
   vector per negative (``suite_coverage.weakened_kills``).
5. **Branch coverage** of the reference: the probes each positive executes
   (``suite_coverage.branch_coverage``), so Lite can keep what Plus covers.

Everything is deterministic under ``settings.seed``.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from ...languages.verus.compile import compile_program
from ...languages.verus.engine import VeriContestEngine
from ...languages.verus.execute import CaseResult, ExecLimits, run_json_lines
from ...languages.verus.input_gen import candidate_inputs
from ...languages.verus.mutants import SELECTOR_ENV, marker_ids, mutant_schema, selector_source
from ...languages.verus.output_mutation import output_mutants
from ...languages.verus.reference import ProblemRunner
from ...languages.verus.requires_bounds import read_bounds
from ...languages.verus.signature import input_params
from ...languages.verus.work_ticks import (
    SKIPPED,
    TICK_FACTOR,
    TICK_FLOOR,
    UNLIMITED,
    WORK_BUDGET,
    insert_ticks,
    ticked_harness,
)
from ...runtime.engine import Verdict
from ...runtime.limits import Limits
from ...values.codec import DecodeError
from .semantic import finish_semantic, interleave, run_semantic, source_order
from .suite_coverage import branch_coverage, weakened_kills
from .suite_prompts import Variant
from .suite_steering import STEER_FAMILY, requires_tally, steered_candidates, steerer_for, whole_domain

__all__ = ["SuiteSettings", "build_suite", "canon"]


@dataclass(frozen=True)
class SuiteSettings:
    seed: int = 0
    target: int = 200  # positives kept per problem (at most)
    candidates: int = 800  # candidate inputs generated per round
    rounds: int = 2  # more rounds (next seeds) while fewer than target + 25% inputs satisfy `requires`
    steered: int = 250  # inputs built to satisfy `requires` (``suite_steering``), per round after the first
    domain_cap: int = 800  # all-scalar problems: a box of at most this many points is checked whole
    max_len: int = 200  # longest generated sequence (spec checks are often cubic in it)
    code_multiplier: int = 8  # mutant negatives up to this × positives
    multiplier: int = 10  # all negatives up to this × positives
    max_mutants: int = 200
    mutant_case_seconds: float = 0.3  # per case, for mutants (the reference runs with the engine's limits)
    spec_fuel: int = 20_000  # Python-evaluator steps per check (after the compiled checker's UNKNOWN)
    check_seconds: float = (
        300.0  # backstop of one compiled-checker run (fuel decides; rows left UNKNOWN after it)
    )
    # compiled-checker steps per clause while building suites: a case that needs more is left UNKNOWN and
    # smaller inputs are preferred (the engine's default, 64 M, is for judging answers; a step count, so
    # the verdicts do not move with machine load)
    checker_fuel: int = 2_000_000
    python_unknown: int = 40  # per stage (requires / ensures / labelling): Python checks that may end UNKNOWN
    # per stage: Python checks redoing an integer beyond i128 with exact integers (each can take seconds:
    # lc1223's spec grows like 6^n before its modulo); the rest are UNKNOWN (a count, load-independent)
    bignum_checks: int = 8
    # compiled-checker steps for labelling a problem's negatives: the stages stop when it is spent (a step
    # count, not a clock, so the negatives do not move with machine load; ~8 µs a step on a loaded machine)
    label_steps: int = 6_000_000
    ensures_steps: int = 20_000_000  # …and for the positives' ensures: no further pass once spent
    # last-resort clock guard: after this, mutant runs and negative stages stop; the content is decided by
    # step and count budgets well before it, and a problem that reaches it says so (``counts.clock_guard``)
    problem_seconds: float = 1800.0
    # weakened ensures (one clause dropped) and the negatives that kill them, from one per-clause checker
    weakened: bool = True
    weakened_steps: int = 6_000_000  # per-clause checker steps for the weakened kills of a problem
    semantic_variants: int = 5  # model-written buggy variants asked per problem (with a model)
    generator_seconds: float = 10.0  # per run of a model-written input generator
    generator_lines: int = 200  # input lines read per generator run

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


OUTPUT_CAP_MIN = 4096  # characters of JSON: a mutant output under this is always kept
OUTPUT_CAP_FACTOR = 4  # …and under this × the largest reference output of the problem
CHECK_CHUNK = 64  # rows per compiled-checker run (a step budget is looked at between runs)
ENSURES_PASSES = 4  # reference + ensures passes over the valid inputs while positives are short


def canon(v: Any) -> str:
    return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _result_value(problem: Any, r: CaseResult) -> Any:
    """The output part of a harness result (``&self`` targets print ``[self, result]``)."""
    if problem.ref_signature.receiver and isinstance(r.value, list) and len(r.value) == 2:
        return r.value[1]
    return r.value


class _PyBudget:
    """Python-evaluator checks that may still end UNKNOWN in one stage of a problem (shared by its runs),
    and the checks beyond i128 it may still make (``bignum``; None: unlimited)."""

    def __init__(self, left: int, bignum: int | None = None) -> None:
        self.left = left
        self.bignum = bignum


def _verdicts(te: Any, pairs: list[tuple[dict[str, Any], Any]], with_output: bool, st: SuiteSettings,
              py: _PyBudget | None = None, stop: Callable[[], bool] | None = None) -> list[Verdict]:  # fmt: skip
    """Batched verdicts through the engine's ``check_batch`` with the suite's step budgets, in chunks of
    ``CHECK_CHUNK`` rows; once ``stop()`` is true (a step budget spent) the remaining rows are UNKNOWN.
    ``py``: the stage's Python-evaluator budget (UNKNOWN endings, counted by the engine), spent across
    runs (a fresh ``st.python_unknown`` when None). The chunks are fixed and the budgets count steps and
    checks, so which rows are decided does not depend on load."""
    py = py or _PyBudget(st.python_unknown, st.bignum_checks)
    out: list[Verdict] = []
    for k in range(0, len(pairs), CHECK_CHUNK):
        part = pairs[k : k + CHECK_CHUNK]
        if stop is not None and stop():
            out.extend(
                Verdict.unknown("the problem's specification-step budget is spent", "budget") for _ in part
            )
            continue
        before, big0 = te.python_unknown, te.python_bignum
        big = None if py.bignum is None else max(0, py.bignum)
        out.extend(te.check_batch(part, with_output, checker_fuel=st.checker_fuel,
                                  max_python_unknown=max(0, py.left), max_bignum=big))  # fmt: skip
        py.left -= te.python_unknown - before
        if py.bignum is not None:
            py.bignum -= te.python_bignum - big0
    return out


def _size_key(raw: dict[str, Any]) -> tuple[int, str]:
    """Size of a test input: the length of its canonical JSON, then the JSON itself (orders retries
    smallest first; among equal lengths ``{"n":120}`` before ``{"n":999}``)."""
    c = canon(raw)
    return len(c), c


def _engine(settings: SuiteSettings, cache: Path | str | None) -> VeriContestEngine:
    return VeriContestEngine(spec_limits=Limits(fuel=settings.spec_fuel, seconds=5.0, max_depth=100_000),
                             cache=cache)  # fmt: skip


def build_suite(problem: Any, settings: SuiteSettings | None = None, *, cache: Path | str | None = None,
                engine: VeriContestEngine | None = None, extra_inputs: Sequence[tuple[str, dict[str, Any]]] = (),
                variants: Sequence[Variant] = ()) -> dict[str, Any]:  # fmt: skip
    """The suite document of one problem (see the module docstring).

    ``extra_inputs`` ((family, raw input), e.g. from model-written generators) join the first
    round's candidates, interleaved one for one; ``variants`` (model-written buggy references) run
    on the positives beside the syntactic mutants (``semantic.run_semantic``)."""
    st = settings or SuiteSettings()
    eng = engine or _engine(st, cache)
    te = eng.for_task(problem)
    deadline = time.perf_counter() + st.problem_seconds
    ck = te.compiled()
    if ck is not None:  # an unbounded quantifier must not hold a whole problem for the default backstop
        ck.seconds = st.check_seconds
    doc: dict[str, Any] = {"task_id": problem.id, "settings": st.to_json(), "positives": [], "negatives": [],
                           "alternatives": [], "defects": [], "notes": []}  # fmt: skip
    secs: dict[str, float] = {}
    t0 = time.perf_counter()
    spec = te.spec()
    if spec is None:
        doc["notes"].append(f"spec does not load: {te._spec_error}")
        return doc
    params = [(p.name, p.value_type) for p in input_params(problem)]
    ref_names = [n for n, _ in params]
    spec_names = [n for n, _ in spec.params]
    bounds = read_bounds([c.text for c in spec.requires], spec_names or ref_names)
    _rename_bounds(bounds, dict(zip(spec_names, ref_names[len(ref_names) - len(spec_names) :])))
    # Rounds of candidates (seeds seed, seed+1, …) while too few inputs satisfy `requires`.
    valid: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    seen_keys: set[str] = set()
    counts: dict[str, Any] = {"candidates": 0, "undecodable": 0, "requires_true": 0, "requires_false": 0,
                              "requires_unknown": 0, "rounds": 0}  # fmt: skip
    requires_py = _PyBudget(st.python_unknown, st.bignum_checks)
    steer = steerer_for(problem, spec, st.max_len)
    dom = whole_domain(te, steer, st.domain_cap, st.target + st.target // 4,
                       lambda pairs: _verdicts(te, pairs, False, st, requires_py))  # fmt: skip
    if dom is not None:  # the whole valid domain: no generated candidates needed
        valid, doc["domain"] = dom
        doc["notes"].append(doc["domain"]["note"])
        counts.update(candidates=doc["domain"]["box"], requires_true=len(valid),
                      requires_false=doc["domain"]["box"] - len(valid))  # fmt: skip
        if extra_inputs:  # model-written inputs: what `requires` says of them is still recorded, and a
            # domain point a generator printed takes the generator's family (it came first)
            fams: dict[str, str] = {}
            for fam, raw in extra_inputs:
                fams.setdefault(canon(raw), fam)
            valid = [(fams.get(canon(raw), fam), raw, dec) for fam, raw, dec in valid]
            counts["generator_requires"] = requires_tally(te, [raw for _, raw in extra_inputs],
                                                          lambda pairs: _verdicts(te, pairs, False, st, requires_py))  # fmt: skip
    for rnd in range(0 if dom is not None else st.rounds):
        if len(valid) >= st.target + st.target // 4 or time.perf_counter() > deadline:
            break
        cands = candidate_inputs(params, bounds, seed=st.seed + rnd, count=st.candidates, max_len=st.max_len,
                                 structs=problem.structs)  # fmt: skip
        if rnd == 0 and extra_inputs:
            cands = interleave(list(extra_inputs), list(cands))
        if rnd >= 1:  # the first round found too few valid inputs: inputs built to satisfy `requires`
            cands = interleave(steered_candidates(steer, st.seed + rnd, st.steered), list(cands))
        fresh = []
        for fam, raw in cands:
            k = canon(raw)
            if k in seen_keys:
                continue
            seen_keys.add(k)
            try:
                fresh.append((fam, raw, te.decode_inputs(raw)))
            except (DecodeError, TypeError, ValueError):
                counts["undecodable"] += 1
        if not fresh:
            break
        pre = _verdicts(te, [(d, None) for _, _, d in fresh], False, st, requires_py)
        valid.extend(x for x, v in zip(fresh, pre) if v.is_true)
        for (fam, _, _), v in zip(fresh, pre):  # model-written generators: what `requires` made of them
            if fam.startswith("generator:") or fam == STEER_FAMILY:
                key = "steered_requires" if fam == STEER_FAMILY else "generator_requires"
                g = counts.setdefault(key, {"true": 0, "false": 0, "unknown": 0})
                g["true" if v.is_true else "false" if v.is_false else "unknown"] += 1
        counts["rounds"] += 1
        counts["candidates"] += len(fresh)
        counts["requires_true"] += sum(v.is_true for v in pre)
        counts["requires_false"] += sum(v.is_false for v in pre)
        counts["requires_unknown"] += sum(v.is_unknown for v in pre)
        if counts["requires_true"] == 0 and rnd >= 1:
            break  # nothing our generators make satisfies `requires`: more rounds will not help
    # Passes. A probe of CHECK_CHUNK valid inputs in candidate order (checker fuel capped so that it
    # spends at most a quarter of `ensures_steps`) measures the checker's steps per case (an UNKNOWN case
    # counting as the full `checker_fuel`); if the first target + 25% would overrun `ensures_steps` at
    # that rate, every remaining valid input is taken smallest first (big inputs cost the most and are the ones
    # whose `ensures` ends UNKNOWN), else the first target + 25% in candidate order. While positives are short, more passes
    # over the unused valid inputs, smallest first; at most ENSURES_PASSES, stopping when a pass after
    # the first two adds no positive or the step budget is spent. All decided by step counts.
    width = st.target + st.target // 4
    chunk, head, spare = valid[:CHECK_CHUNK], valid[CHECK_CHUNK:width], valid[width:]
    secs["inputs"] = time.perf_counter() - t0
    runner = te.runner
    positives: list[dict[str, Any]] = []
    decoded_pos: list[dict[str, Any]] = []
    micros: list[int] = []
    ref_statuses: dict[str, int] = {}
    counts.update(reference_failed=0, ensures_unknown=0, ensures_passes=0, smallest_first=False)
    secs["reference"] = secs["ensures"] = 0.0
    ck_steps0 = ck.steps if ck is not None else 0

    def ensures_spent() -> bool:
        return ck is not None and ck.steps - ck_steps0 >= st.ensures_steps

    ensures_py = _PyBudget(st.python_unknown, st.bignum_checks)

    while chunk and len(positives) < st.target and counts["ensures_passes"] < ENSURES_PASSES:
        if ensures_spent():
            break
        before = len(positives)
        probe = counts["ensures_passes"] == 0
        # the probe's checker fuel per clause and case is capped so that it cannot spend more than a
        # quarter of `ensures_steps` (a case that needs more is UNKNOWN and marks the problem expensive)
        probe_fuel = min(st.checker_fuel, st.ensures_steps // (4 * CHECK_CHUNK))
        pst = replace(st, checker_fuel=probe_fuel) if probe else st
        _reference_and_ensures(problem, te, pst, chunk, positives, decoded_pos, micros, doc, counts,
                               ref_statuses, secs, ensures_spent, ensures_py)  # fmt: skip
        counts["ensures_passes"] += 1
        if counts["ensures_passes"] == 1:  # after the probe
            # a probe case left UNKNOWN counts as the full checker fuel (it ran out of the capped fuel, or
            # needed the Python evaluator): big inputs are the ones whose ensures runs out of fuel
            spent = (ck.steps - ck_steps0) if ck is not None else 0
            per_case = (spent + counts["ensures_unknown"] * st.checker_fuel) / len(chunk)
            if per_case * width > st.ensures_steps:
                counts["smallest_first"] = True
                spare = sorted(head + spare, key=lambda x: _size_key(x[1]))
                head = []
            else:
                spare = sorted(spare, key=lambda x: _size_key(x[1]))
            if head:
                chunk, head = head, []
                continue
        elif len(positives) == before and counts["ensures_passes"] > 2:
            break  # the smallest remaining inputs did not help either
        need = st.target - len(positives)
        chunk, spare = spare[: need + need // 4], spare[need + need // 4 :]
    counts["reference_failures"] = dict(sorted(ref_statuses.items()))
    counts["positives"] = len(positives)
    doc["positives"] = positives
    if not positives:
        doc["counts"] = counts
        doc["seconds"] = secs
        return doc
    # branch coverage of the reference: the probes each positive executes (one instrumented harness run)
    t_cov = time.perf_counter()
    doc["coverage"] = branch_coverage(problem, positives, runner.limits, cache)
    secs["coverage"] = time.perf_counter() - t_cov
    # syntactic mutants
    t3 = time.perf_counter()
    case_s = max(st.mutant_case_seconds, 20 * max(micros) / 1e6)
    mres, mstats = _run_mutants(problem, runner, positives, st, case_s, cache, deadline)
    doc["mutants"] = mstats
    sem_res, sem_label = run_semantic(doc, problem, variants, positives, st.max_mutants + 1, case_s, cache,
                                      deadline)  # fmt: skip
    kills: list[list[int]] = [[] for _ in positives]
    mutant_cands: dict[int, list[tuple[int, Any]]] = {}
    for mid, rs in {**mres, **sem_res}.items():
        passed = 0
        outs: list[tuple[int, Any]] = []
        for i, r in enumerate(rs):
            if r is None:
                continue
            same = r.ok and canon(_result_value(problem, r)) == canon(positives[i]["output"])
            if same:
                passed += 1
            else:
                kills[i].append(mid)
                if r.ok:
                    outs.append((i, _result_value(problem, r)))
        if 0 < passed < len(rs):
            mutant_cands[mid] = outs
    doc["kills"] = kills
    killed = sorted({m for ks in kills for m in ks if m in mres})
    mstats["killed"] = len(killed)
    killed_set = set(killed)
    mstats["surviving"] = sum(m not in killed_set for m in mres)  # run on every positive, never detected
    mstats["survivors"] = [m for m in sorted(mres) if m not in killed_set]
    mstats.pop("ids", None)
    mstats["partial"] = sum(m in mres for m in mutant_cands)  # 0 < pass rate < 1: they give negatives
    finish_semantic(doc, sem_res, mutant_cands, kills)
    secs["mutants"] = time.perf_counter() - t3
    # negatives
    t4 = time.perf_counter()
    seen: list[set[str]] = [{canon(p["output"])} for p in positives]
    out_type = problem.ref_signature.ret_type
    negs: list[dict[str, Any]] = []
    code_target = st.code_multiplier * len(positives)
    target = st.multiplier * len(positives)
    stats = {"syntactic": 0, "semantic": 0, "direct": 0, "alternatives": 0, "unknown": 0}

    def label(batch: list[tuple[int, Any, str]]) -> None:
        pairs = []
        idx = []
        for k, (i, out, _) in enumerate(batch):
            try:
                pairs.append((decoded_pos[i], te.decode_output(out)))
                idx.append(k)
            except (DecodeError, TypeError, ValueError):
                continue
        verdicts = _verdicts(te, pairs, True, st, label_py, stop=spent)
        for k, v in zip(idx, verdicts):
            i, out, src = batch[k]
            if v.is_false:
                negs.append({"input_index": i, "output": out, "source": src})
                stats[src.split(":")[0]] += 1
            elif v.is_true:
                doc["alternatives"].append({"input_index": i, "output": out, "source": src})
                stats["alternatives"] += 1
            else:
                stats["unknown"] += 1

    steps0 = ck.steps if ck is not None else 0

    def spent() -> bool:
        return ck is not None and ck.steps - steps0 >= st.label_steps

    label_py = _PyBudget(st.python_unknown, st.bignum_checks)

    # stage: mutant outputs, round-robin across mutants (and across sources: ``semantic.source_order``)
    queues = {m: list(v) for m, v in sorted(mutant_cands.items())}
    batch: list[tuple[int, Any, str]] = []
    while queues and len(negs) < code_target and not spent() and time.perf_counter() < deadline:
        for m in source_order(list(queues), sem_res):
            if m not in queues:  # emptied earlier in this pass
                continue
            q = queues[m]
            while q:
                i, out = q.pop(0)
                c = canon(out)
                if c not in seen[i]:
                    seen[i].add(c)
                    batch.append((i, out, sem_label.get(m) or f"syntactic:{m}"))
                    break
            if not q:
                del queues[m]
        if len(batch) >= 256 or not queues:
            label(batch)
            batch = []
    label(batch)
    negs = negs[:code_target]
    # stage: direct output mutation, round-robin across inputs
    rng = random.Random(st.seed)
    gens = [output_mutants(out_type, p["output"], rng, problem.structs) for p in positives]
    live = list(range(len(positives)))
    idle_passes = 0
    while (
        live
        and len(negs) < target
        and idle_passes < 3
        and not spent()
        and time.perf_counter() < deadline + 30
    ):
        batch = []
        nxt = []
        for i in live:
            got = False
            for _ in range(200):
                c = next(gens[i], None)
                if c is None:
                    break
                key = canon(c)
                if key not in seen[i]:
                    seen[i].add(key)
                    batch.append((i, c, "direct"))
                    got = True
                    break
            if got:
                nxt.append(i)
        before = len(negs)
        label(batch)
        idle_passes = idle_passes + 1 if len(negs) == before else 0
        live = nxt
    doc["negatives"] = negs[:target]
    counts["negatives"] = len(doc["negatives"])
    counts["negatives_by_source"] = {
        "syntactic": sum(n["source"].startswith("syntactic") for n in doc["negatives"]),
        "direct": sum(n["source"] == "direct" for n in doc["negatives"]),
    }
    if sem_res:
        counts["negatives_by_source"]["semantic"] = sum(
            n["source"].startswith("semantic") for n in doc["negatives"]
        )
    counts["alternatives"] = stats["alternatives"]
    counts["negative_unknown"] = stats["unknown"]
    counts["label_steps"] = (ck.steps - steps0) if ck is not None else 0
    counts["label_budget_spent"] = spent()
    # the clock guard was reached: this problem's content may depend on the machine (never on a normal run)
    counts["clock_guard"] = time.perf_counter() > deadline
    secs["negatives"] = time.perf_counter() - t4
    if st.weakened:
        t5 = time.perf_counter()
        doc["weakened"] = weakened_kills(te, decoded_pos, doc["negatives"], st)
        secs["weakened"] = time.perf_counter() - t5
    doc["counts"] = counts
    doc["seconds"] = {k: round(v, 3) for k, v in secs.items()}
    return doc


def _reference_and_ensures(problem: Any, te: Any, st: SuiteSettings, chunk: list[Any], positives: list[dict[str, Any]],
                           decoded_pos: list[dict[str, Any]], micros: list[int], doc: dict[str, Any],
                           counts: dict[str, Any], ref_statuses: dict[str, int], secs: dict[str, float],
                           stop: Callable[[], bool], py: _PyBudget) -> None:  # fmt: skip
    """One pass: the reference on ``chunk`` (one harness process), then the ground-truth ``ensures`` on
    its outputs (one batch): TRUE → positive (up to ``st.target``), FALSE → benchmark defect,
    UNKNOWN → counted and dropped."""
    t1 = time.perf_counter()
    results = te.runner.run_inputs([raw for _, raw, _ in chunk])
    ran = [(x, r) for x, r in zip(chunk, results) if r.ok]
    counts["reference_failed"] += len(chunk) - len(ran)
    for r in results:
        if not r.ok:
            ref_statuses[r.status] = ref_statuses.get(r.status, 0) + 1
    secs["reference"] += time.perf_counter() - t1
    t2 = time.perf_counter()
    pairs: list[tuple[dict[str, Any], Any]] = []
    keep: list[int] = []
    for k, ((_, _, dec), r) in enumerate(ran):
        try:
            pairs.append((dec, te.decode_output(_result_value(problem, r))))
            keep.append(k)
        except (DecodeError, TypeError, ValueError):
            counts["reference_failed"] += 1
    post = _verdicts(te, pairs, True, st, py, stop=stop)
    for k, v in zip(keep, post):
        (fam, raw, dec), r = ran[k]
        out = _result_value(problem, r)
        if v.is_true:
            if len(positives) < st.target:
                positives.append({"input": raw, "output": out, "family": fam})
                decoded_pos.append(dec)
                micros.append(r.micros or 0)
        elif v.is_false:
            doc["defects"].append({"input": raw, "output": out, "reason": v.reason or "ensures rejects"})
        else:
            counts["ensures_unknown"] += 1
    secs["ensures"] += time.perf_counter() - t2


def _rename_bounds(bounds: Any, names: dict[str, str]) -> None:
    """Bounds read over the spec's parameter names, moved to the reference's (lc3047 differs)."""
    if all(a == b for a, b in names.items()):
        return

    def ren(s: str) -> str:
        for a, b in names.items():
            s = s.replace(f"({a})", f"({b})") if "(" in s else (b if s == a else s)
        return s

    bounds.lo = {ren(k): v for k, v in bounds.lo.items()}
    bounds.hi = {ren(k): v for k, v in bounds.hi.items()}
    bounds.values = {ren(k): v for k, v in bounds.values.items()}
    bounds.links = [(ren(a), ren(b)) for a, b in bounds.links]


def _run_mutants(problem: Any, runner: ProblemRunner, positives: list[dict[str, Any]], st: SuiteSettings,
                 case_s: float, cache: Path | str | None, deadline: float) -> tuple[dict[int, list[CaseResult | None]], dict[str, Any]]:  # fmt: skip
    """Every compiled mutant's results on the positives (``None`` = not run after a timeout)."""
    stats: dict[str, Any] = {"generated": 0, "compiled": 0, "dropped_on_compile": 0, "schema_compiles": 0,
                             "compile_seconds": 0.0, "run_seconds": 0.0, "by_operator": {}}  # fmt: skip
    if runner.violations():
        stats["error"] = "the reference has forbidden constructs"
        return {}, stats
    try:
        # ticks first in every function and loop body: a mutant's work is bounded by a count (work_ticks)
        base = insert_ticks(problem.reference_source)
        schema = mutant_schema(base, max_mutants=st.max_mutants)
    except Exception as exc:  # a source our scanner cannot follow: no syntactic mutants
        stats["error"] = f"schema: {type(exc).__name__}: {exc}"
        return {}, stats
    stats["generated"] = len(schema.mutants)
    dropped: set[int] = set()
    ladder = ["delete", "assign", "unary", "const", "cond", "body"]
    binary = None
    src = ""
    for _ in range(10):
        rewritten = schema.source
        if dropped:  # those sites rendered as the original code; the rest keep their ids
            schema2 = mutant_schema(base, max_mutants=st.max_mutants, exclude=frozenset(dropped))
            rewritten = _disable(schema2.source, dropped)
        try:
            src = (
                ticked_harness(ProblemRunner(problem, code=rewritten).harness_source())
                + "\n"
                + selector_source()
            )
        except Exception as exc:
            stats["error"] = f"harness: {type(exc).__name__}: {exc}"
            return {}, stats
        t = time.perf_counter()
        comp = compile_program(src, cache=cache)
        stats["compile_seconds"] += time.perf_counter() - t
        stats["schema_compiles"] += 1
        if comp.ok:
            binary = comp.binary
            break
        lines = src.splitlines()
        bad: set[int] = set()
        import re

        for m in re.finditer(r"main\.rs:(\d+):\d+", comp.errors):
            ln = int(m.group(1)) - 1
            for k in range(max(0, ln - 1), min(len(lines), ln + 2)):
                bad.update(marker_ids(lines[k]))
        if not bad - dropped:
            # The error is not on a mutated line (e.g. deleting `x = …;` leaves a later use of `x`
            # uninitialised): switch off the next operator class, most error-prone first.
            while ladder and not bad - dropped:
                op = ladder.pop(0)
                bad = {m.id for m in schema.mutants if m.operator == op}
            if not bad - dropped:
                stats["error"] = (
                    "schema does not compile: " + (comp.errors.strip().splitlines() or [""])[0][:200]
                )
                return {}, stats
        dropped |= bad
    if binary is None:
        stats["error"] = "schema does not compile after retries"
        return {}, stats
    live = [m for m in schema.mutants if m.id not in dropped]
    stats["compiled"] = len(live)
    stats["dropped_on_compile"] = len(dropped)
    stats["ids"] = [m.id for m in live]
    by_op: dict[str, int] = {}
    for m in live:
        by_op[m.operator] = by_op.get(m.operator, 0) + 1
    stats["by_operator"] = dict(sorted(by_op.items()))
    stats["names"] = {str(m.id): m.name for m in live}
    lines_in = [runner.encode_inputs(p["input"]) for p in positives]
    limits = ExecLimits(case_seconds=case_s, memory_mb=1024)
    # the original program (no mutant selected) with unlimited work gives the reference's ticks per case;
    # a mutant may spend max(TICK_FLOOR, TICK_FACTOR x those) on the case before it is stopped (a kill)
    ref = run_json_lines(
        binary, [_with_budget(x, UNLIMITED) for x in lines_in], limits, env={SELECTOR_ENV: "0"}
    )
    ticks = [
        int(r.value[1]) if r.ok and isinstance(r.value, list) and len(r.value) == 2 else None for r in ref
    ]
    stats["reference_ticks"] = sum(t for t in ticks if t is not None)
    lines_b = [_with_budget(x, UNLIMITED if t is None else max(TICK_FLOOR, TICK_FACTOR * t))
               for x, t in zip(lines_in, ticks)]  # fmt: skip
    stats["work_budget_kills"] = stats["clock_timeouts"] = 0
    out: dict[int, list[CaseResult | None]] = {}
    # a mutant's result far larger than any reference output (cf1355D: a 3 MB vector) kills the mutant
    # but is not kept: it would only bloat the negatives and the memory of the run
    cap = max(OUTPUT_CAP_MIN, OUTPUT_CAP_FACTOR * max(len(canon(p["output"])) for p in positives))
    t = time.perf_counter()
    for m in live:
        if time.perf_counter() > deadline:  # out of time: the rest are not run (not killed, not surviving)
            stats["not_run"] = stats.get("not_run", 0) + 1
            continue
        env = {SELECTOR_ENV: str(m.id)}
        # a timeout kills the mutant; the cases after it are not run (None), as each further timeout
        # would cost the whole per-case limit plus a process restart
        got = [
            _unticked(r) for r in run_json_lines(binary, lines_b, limits, env=env, stop_after_timeout=True)
        ]
        stats["work_budget_kills"] += sum(r.status == "panic" and WORK_BUDGET in r.message for r in got)
        stats["clock_timeouts"] += sum(r.status == "timeout" for r in got)  # the clock backstop (recorded)
        out[m.id] = [None if r.status == "skipped" else _capped(r, cap) for r in got]
    stats["run_seconds"] = round(time.perf_counter() - t, 3)
    stats["compile_seconds"] = round(stats["compile_seconds"], 3)
    return out, stats


def _with_budget(line: str, budget: int) -> str:
    """A harness input line (a JSON array) with the case's tick budget appended."""
    return f"[{budget}]" if line.strip() == "[]" else line.rstrip()[:-1] + f",{budget}]"


def _unticked(r: CaseResult) -> CaseResult:
    """A ticked harness result ``[<result>, <ticks>]`` as a plain one."""
    if r.ok and isinstance(r.value, list) and len(r.value) == 2:
        return CaseResult("ok", r.value[0], r.message, r.micros)
    if r.status == "bad" and SKIPPED in r.message:  # after a work-budget overrun: not run
        return CaseResult("skipped", message=r.message)
    return r


def _capped(r: CaseResult, cap: int) -> CaseResult:
    """``r``, or an ``"output"`` failure (a kill, never a negative) when its value's JSON exceeds ``cap``."""
    if r.ok and len(canon(r.value)) > cap:
        return CaseResult("output", message=f"result over {cap} characters", micros=r.micros)
    return r


def _disable(source: str, ids: set[int]) -> str:
    """A schema with some mutants switched off (their selector calls become ``false``)."""
    import re

    return re.sub(r"__vs_m\((\d+)\)", lambda m: "false" if int(m.group(1)) in ids else m.group(0), source)


def _weakened_kills(problem: Any, eng: VeriContestEngine, spec: Any, inputs: list[dict[str, Any]],
                    negatives: list[dict[str, Any]], te: Any) -> dict[str, Any]:  # fmt: skip
    """Per ``ensures`` clause replaced by ``true``: which negatives the weakened spec still rejects.

    The reference implementation, one checker per weakening (costly: a compile each); suites use the
    derived ``suite_coverage.weakened_kills``, and the tests compare the two."""
    clauses = [c.text for c in spec.ensures if c.text.strip()]
    out: dict[str, Any] = {"built": 0, "killed": 0, "clauses": [], "kills": [[] for _ in negatives]}
    if len(clauses) < 2 or not negatives:
        return out
    pairs = []
    for n in negatives:
        pairs.append((inputs[n["input_index"]], te.decode_output(n["output"])))
    for w, text in enumerate(clauses):
        if problem.spec.count(text) != 1:
            continue
        weak = problem.spec.replace(text, "true", 1)
        wte = eng.for_task(problem, {"spec": weak})
        verdicts = wte.postconditions(pairs)
        out["built"] += 1
        hit = False
        for k, v in enumerate(verdicts):
            if v.is_false:
                out["kills"][k].append(w)
                hit = True
        out["killed"] += hit
        out["clauses"].append({"index": w, "text": text[:200], "killed": hit})
    return out
