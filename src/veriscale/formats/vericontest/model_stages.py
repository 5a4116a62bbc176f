"""A VeriContest suite built with the model's answers (``scale --model``).

``build_with_answers(problem, settings, answers, cache)`` reads the answers the
pipeline collected for ``suite_prompts.suite_requests`` and builds the suite:

1. each generator answer is parsed (``parse_generator``); the programs are
   compiled and run in the sandbox (``generators``); their inputs join the
   first round of candidates, so every one is checked by the ground-truth
   ``requires`` and only TRUE inputs can become positives (family
   ``generator:<kind>`` in provenance);
2. the semantic-mutant answer is parsed (``parse_variants``); the variants run
   on the positives beside the syntactic mutants (``semantic``);
3. ``doc["generators"]`` and ``doc["semantic"]`` record every program and
   variant with its fate, and every answer that could not be used with a reason.

A question the model did not answer (an error, an empty or unreadable answer)
is recorded and the suite is built without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...languages.verus.signature import input_params
from .generators import generator_inputs
from .suite_prompts import (
    GENERATOR_KINDS,
    GENERATOR_STAGE,
    SEMANTIC_STAGE,
    Generator,
    Variant,
    parse_generator,
    parse_variants,
)
from .suites import SuiteSettings, _engine, build_suite, canon

__all__ = ["build_with_answers"]


def _texts(answers: dict[str, Any], name: str) -> list[tuple[str | None, str | None]]:
    """(text, error) per sample of the request ``name`` (none when it was not asked)."""
    out: list[tuple[str | None, str | None]] = []
    for a in answers.get(name) or []:
        if isinstance(a, dict):
            out.append((a.get("text"), a.get("error")))
    return out


def _variants(answers: dict[str, Any], count: int) -> tuple[list[Variant], list[dict[str, Any]]]:
    variants: list[Variant] = []
    errors: list[dict[str, Any]] = []
    samples = _texts(answers, SEMANTIC_STAGE)
    for k, (text, err) in enumerate(samples):
        if err is not None:
            errors.append({"sample": k, "reason": f"no answer: {err}"[:300]})
            continue
        got, why = parse_variants(text, count)
        if why is not None:
            errors.append({"sample": k, "reason": why})
            continue
        for v in got:  # ids stay v1, v2, … with one sample; several samples are told apart
            vid = v.id if len(samples) == 1 else f"s{k}{v.id}"
            variants.append(Variant(vid, v.code, v.description))
    return variants, errors


def _generators(answers: dict[str, Any]) -> tuple[list[Generator], list[dict[str, Any]]]:
    gens: list[Generator] = []
    errors: list[dict[str, Any]] = []
    for kind in GENERATOR_KINDS:
        for k, (text, err) in enumerate(_texts(answers, f"generator_{kind}")):
            if err is not None:
                errors.append({"kind": kind, "sample": k, "status": "no_answer", "reason": f"{err}"[:300]})
                continue
            g, why = parse_generator(kind, text)
            if g is None:
                errors.append({"kind": kind, "sample": k, "status": "unreadable", "reason": why})
                continue
            gens.append(g)
    return gens, errors


def build_with_answers(
    problem: Any, settings: SuiteSettings, answers: dict[str, Any], cache: Path | str | None
) -> dict[str, Any]:
    """The suite document of ``problem`` with the model-driven stages (module docstring)."""
    eng = _engine(settings, cache)
    te = eng.for_task(problem)
    names = [p.name for p in input_params(problem)]
    gens, gen_errors = _generators(answers)
    extra, records = generator_inputs(
        gens,
        names,
        te.decode_inputs,
        seconds=settings.generator_seconds,
        lines=settings.generator_lines,
        max_len=settings.max_len,
        cache=cache,
    )
    variants, sem_errors = _variants(answers, settings.semantic_variants)
    doc = build_suite(problem, settings, cache=cache, engine=eng, extra_inputs=extra, variants=variants)
    gen_pos = sum(str(p.get("family", "")).startswith("generator:") for p in doc["positives"])
    doc["generators"] = {
        "programs": records + gen_errors,
        "inputs": len(extra),
        "distinct": len({canon(x) for _, x in extra}),
        "requires": (doc.get("counts") or {}).get(
            "generator_requires", {"true": 0, "false": 0, "unknown": 0}
        ),
        "positives": gen_pos,
    }
    sem = doc.setdefault("semantic", {"variants": [], "asked": len(variants)})
    if variants and not sem["variants"]:
        sem["note"] = "not run: the problem has no positives"
    sem["answer_errors"] = sem_errors
    sem.setdefault("kept", 0)
    req = doc["generators"]["requires"]
    negs = doc.get("negatives") or []
    doc["model_stages"] = {
        SEMANTIC_STAGE: {
            "variants": len(variants),
            "unusable_answers": len(sem_errors),
            "ran": sum(r.get("ran") is not None for r in sem["variants"]),
            "kept": sem["kept"],
            "negatives": sum(str(n.get("source", "")).startswith("semantic") for n in negs),
        },
        GENERATOR_STAGE: {
            "programs": len(records) + len(gen_errors),
            "ok": sum(r["status"] == "ok" for r in records),
            "bad": len(gen_errors) + sum(r["status"] != "ok" for r in records),
            "inputs": len(extra),
            "requires_true": req["true"],
            "requires_false": req["false"],
            "requires_unknown": req["unknown"],
            "positives": gen_pos,
        },
    }
    return doc
