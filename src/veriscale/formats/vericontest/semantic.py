"""Model-written buggy variants of the reference (semantic mutants), run on the positives.

``run_variants`` treats each variant like candidate code: Verus-erased (an
answer may carry Verus syntax; plain Rust passes through unchanged), refused
when it uses a forbidden construct, compiled into the same JSON-lines harness
as the reference, and run on every positive in one sandboxed process with the
mutants' per-case limit. Variants whose text (after erasure, up to whitespace)
repeats the reference or an earlier variant are dropped as duplicates.

The caller (``suites.build_suite``) decides kills and pass rates exactly as for
syntactic mutants; here each variant gets a numeric mutant id after the
syntactic ones (``first_id``, ``first_id + 1``, … in answer order) so the kill
sets of Lite cover both kinds.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from ...languages.verus.erase import erase
from ...languages.verus.execute import CaseResult, ExecLimits
from ...languages.verus.reference import ProblemRunner
from .suite_prompts import Variant

__all__ = ["run_variants"]


def _norm(code: str) -> str:
    return " ".join(code.split())


def run_variants(
    problem: Any,
    variants: Sequence[Variant],
    inputs: Sequence[dict[str, Any]],
    *,
    first_id: int,
    case_seconds: float,
    cache: Path | str | None,
    deadline: float,
) -> tuple[dict[int, list[CaseResult | None]], list[dict[str, Any]]]:
    """({mutant id: result per input}, one record per variant) — see the module docstring."""
    results: dict[int, list[CaseResult | None]] = {}
    records: list[dict[str, Any]] = []
    seen = {_norm(problem.reference_source)}
    limits = ExecLimits(case_seconds=case_seconds, memory_mb=1024)
    for k, v in enumerate(variants):
        mid = first_id + k
        rec: dict[str, Any] = {"variant": v.id, "mutant": mid, "description": v.description}
        records.append(rec)
        try:
            code = erase(v.code)
        except Exception as exc:  # EraseError, or a scanner error: our eraser's limit, the variant cannot run
            rec.update(status="dropped", reason=f"erase: {type(exc).__name__}: {exc}"[:300])
            continue
        if _norm(code) in seen:
            rec.update(status="dropped", reason="same code as the reference or an earlier variant")
            continue
        seen.add(_norm(code))
        if time.perf_counter() > deadline:
            rec.update(status="not_run", reason="the problem's time budget ran out")
            continue
        runner = ProblemRunner(problem, limits=limits, cache=cache, code=code)
        bad = runner.violations()
        if bad:
            rec.update(status="dropped", reason=f"forbidden construct: {bad}"[:300])
            continue
        try:
            comp = runner.harness()
        except Exception as exc:  # the harness cannot be built around it (items we cannot follow)
            rec.update(status="dropped", reason=f"harness: {type(exc).__name__}: {exc}"[:300])
            continue
        if not comp.ok:
            first = next((ln for ln in comp.errors.splitlines() if ln.startswith("error")), comp.errors[:200])
            rec.update(status="dropped", reason=f"does not compile: {first[:200]}")
            continue
        results[mid] = list(runner.run_inputs(inputs))
        rec["status"] = "ran"
    return results, records


def run_semantic(
    doc: dict[str, Any],
    problem: Any,
    variants: Sequence[Variant],
    positives: Sequence[dict[str, Any]],
    first_id: int,
    case_seconds: float,
    cache: Path | str | None,
    deadline: float,
) -> tuple[dict[int, list[CaseResult | None]], dict[int, str]]:
    """Run the variants (if any) and open ``doc["semantic"]``; returns (results, {mutant id: source label})."""
    if not variants:
        return {}, {}
    t = time.perf_counter()
    res, records = run_variants(
        problem,
        variants,
        [p["input"] for p in positives],
        first_id=first_id,
        case_seconds=case_seconds,
        cache=cache,
        deadline=deadline,
    )
    doc["semantic"] = {
        "variants": records,
        "asked": len(variants),
        "seconds": round(time.perf_counter() - t, 3),
    }
    labels = {r["mutant"]: f"semantic:{r['variant']}" for r in records if r["mutant"] in res}
    return res, labels


def finish_semantic(
    doc: dict[str, Any], res: dict[int, list[CaseResult | None]], partial: Any, kills: Sequence[Sequence[int]]
) -> None:
    """Per variant that ran: its pass rate on the positives and whether it gives negatives.

    Kept only when the pass rate lies strictly between 0 and 1 (``partial`` holds those mutant ids)."""
    sem = doc.get("semantic")
    if not sem:
        return
    names = (doc.get("mutants") or {}).setdefault("names", {})
    for rec in sem["variants"]:
        mid = rec["mutant"]
        if mid not in res:
            continue
        ran = sum(r is not None for r in res[mid])
        killed_by = [i for i, ks in enumerate(kills) if mid in ks]
        rec["ran"] = ran
        rec["kills"] = len(killed_by)  # positives that detect it
        rec["pass_rate"] = round((ran - len(killed_by)) / ran, 4) if ran else None
        if mid in partial:
            rec["status"] = "kept"
        else:
            rec["status"] = "dropped"
            rec["reason"] = "passes every positive" if not killed_by else "fails every positive"
        names[str(mid)] = f"semantic {rec['variant']}: {rec['description']}"[:200]
    sem["ran"] = sum(r.get("ran") is not None for r in sem["variants"])
    sem["kept"] = sum(r["status"] == "kept" for r in sem["variants"])
    sem["killed"] = sum(bool(r.get("kills")) for r in sem["variants"])


def interleave(first: list[Any], second: list[Any]) -> list[Any]:
    """One of ``first``, one of ``second``, in turn; the longer list's rest at the end."""
    out: list[Any] = []
    for a, b in zip(first, second):
        out += [a, b]
    n = min(len(first), len(second))
    return out + first[n:] + second[n:]


def source_order(ids: Sequence[int], semantic: Collection[int]) -> list[int]:
    """One pass of the round-robin over mutant outputs: sources alternate, semantic first.

    With both sources live, the pass is as long as twice the larger source: its mutants
    once each, the smaller source's cycled (in id order) to the same length, the two
    interleaved — so each source gets half the code-mutant budget while it has outputs, and
    inside a source each mutant gets an equal share. With one source live, its ids in order
    (the plain per-mutant round-robin)."""
    sem = [m for m in ids if m in semantic]
    syn = [m for m in ids if m not in semantic]
    if not sem or not syn:
        return list(ids)
    n = max(len(sem), len(syn))
    return interleave([sem[k % len(sem)] for k in range(n)], [syn[k % len(syn)] for k in range(n)])
