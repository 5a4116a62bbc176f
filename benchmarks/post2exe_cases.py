"""Cases for the Post2Exe benchmarks: generated inputs with the reference's outputs.

``generated_cases(problem, te, checker, count, seed)`` makes the positive
inputs the VeriContest suite builder makes (``candidate_inputs`` under the
bounds read from ``requires``), keeps those the compiled checker's
``requires`` accepts, runs the reference on the first ``count`` of them in one
process and returns ``(inputs, output)`` pairs in generation order (so the
sample is deterministic for a seed). ``quantifier_heavy(spec)`` is the
selection rule the benchmarks state: the ``ensures`` text has a quantifier
with two or more binders, or two or more quantifiers (nested or not).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from veriscale.formats.vericontest.dataset import discover_problems, read_problem
from veriscale.formats.vericontest.suites import _rename_bounds, _result_value
from veriscale.languages.verus.input_gen import candidate_inputs
from veriscale.languages.verus.requires_bounds import read_bounds
from veriscale.languages.verus.signature import input_params
from veriscale.values.codec import DecodeError

__all__ = ["generated_cases", "named_problems", "quantifier_heavy"]


def named_problems(data: str, only: list[str], engine: Any) -> Iterator[tuple[str, Any, Any]]:
    """(id, problem, task engine) of each id in ``only`` under ``data``, in that order (an id not there is
    printed and skipped): the problem loop of the benchmarks that take ``--only``."""
    dirs = {d.name: d for d in discover_problems(data)}
    for pid in only:
        if pid not in dirs:
            print(f"{pid}: not found under {data}")
            continue
        p = read_problem(dirs[pid])
        yield pid, p, engine.for_task(p)


def quantifier_heavy(spec: str) -> bool:
    ens = spec[spec.rfind("ensures") :]
    multi = re.search(r"(forall|exists)\s*\|\s*\w+\s*:\s*\w+\s*,", ens)
    return bool(multi) or ens.count("forall") + ens.count("exists") >= 2


def generated_cases(problem: Any, te: Any, checker: Any, count: int = 50, seed: int = 0,
                    max_len: int = 200) -> list[tuple[dict[str, Any], Any]]:  # fmt: skip
    """Up to ``count`` generated (inputs, reference output) pairs whose ``requires`` the checker accepts."""
    spec = te.spec()
    if spec is None or checker is None:
        return []
    params = [(p.name, p.value_type) for p in input_params(problem)]
    ref_names = [n for n, _ in params]
    spec_names = [n for n, _ in spec.params]
    bounds = read_bounds([c.text for c in spec.requires], spec_names or ref_names)
    _rename_bounds(bounds, dict(zip(spec_names, ref_names[len(ref_names) - len(spec_names) :])))
    cands = candidate_inputs(params, bounds, seed=seed, count=4 * count, max_len=max_len,
                             structs=problem.structs)  # fmt: skip
    decoded: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for _fam, raw in cands:
        try:
            decoded.append((raw, te.decode_inputs(raw)))
        except (DecodeError, TypeError, ValueError):
            continue
    rows = []
    keep = []
    for raw, dec in decoded:
        try:
            rows.append((te._json_inputs(dec), None))
            keep.append((raw, dec))
        except (TypeError, KeyError, AttributeError, ValueError):
            continue
    pre = checker.check(rows, with_output=False)
    valid = [x for x, (req, _) in zip(keep, pre) if req.is_true][:count]
    out: list[tuple[dict[str, Any], Any]] = []
    for (_raw, dec), r in zip(valid, te.runner.run_inputs([raw for raw, _ in valid])):
        if not r.ok:
            continue
        try:
            out.append((dec, te.decode_output(_result_value(problem, r))))
        except (DecodeError, TypeError, ValueError):
            continue
    return out
