"""How the native engine decides the quantifiers of the model-style corpus (issue 18).

Usage: ``PYTHONPATH=src python benchmarks/model_style_quantifiers.py [GENERATIONS.jsonl]``.
Compiles every SpecGen sample of the corpus (precondition and postcondition, on the task's first
test) and classifies each quantifier the code generator meets:

* ``syntactic`` — a bound on the variable itself (``quant.find_domain`` without guards);
* ``guarded`` — a domain found only by ``guards.guard_domain`` (transitive bounds, sublist/infix/…
  binders, finite support): decided exactly;
* ``reduced`` — an unbounded Nat/Int quantifier reduced to finitely many candidates
  (``unbounded.plan_unbounded``: linear, monotone, stabilising);
* ``undecided`` — no finite domain: a random search that can only refute, else UNKNOWN.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from veriscale.formats.verina.dataset import read_task
from veriscale.languages.lean.eval import codegen, guards, quant
from veriscale.languages.lean.eval.unbounded import plan_unbounded
from veriscale.languages.lean.native import NativeEngine
from veriscale.runtime.limits import Limits
from veriscale.values.codec import decode

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "verina"


def main(argv: list[str]) -> int:
    gens_path = Path(argv[0]) if argv else ROOT / "tests" / "fixtures" / "model_style" / "generations.jsonl"
    counts: Counter[str] = Counter()
    undecided: list[str] = []
    current = [""]
    original = codegen.find_domain

    def classify(q):  # type: ignore[no-untyped-def]
        d = original(q)
        saved = quant.guard_domain
        quant.guard_domain = lambda _q: None  # type: ignore[assignment]
        try:
            plain = original(q)
        finally:
            quant.guard_domain = saved  # type: ignore[assignment]
        if plain.kind != "unbounded":
            kind = "syntactic"
        elif d.kind != "unbounded":
            kind = "guarded"
        else:
            plan = plan_unbounded(q, lambda _k: None) if str(q.var_ty) in ("Nat", "Int") else None
            kind = "reduced" if plan is not None and plan.kind != "random" else "undecided"
            if kind == "undecided":
                undecided.append(f"{current[0]}: {q.kind} over {q.var_ty}")
        counts[kind] += 1
        return d

    codegen.find_domain = classify  # type: ignore[assignment]
    assert guards.guard_domain is quant.guard_domain
    engine = NativeEngine(limits=Limits(seconds=10.0, fuel=10_000_000))
    n = 0
    for line in gens_path.read_text(encoding="utf-8").splitlines():
        g = json.loads(line)
        if "spec" not in g.get("kind", []):
            continue
        task = read_task(DATA / g["task_id"])
        current[0] = f"{g['task_id']} #{g.get('sample', 0)}"
        over = {k: g[k] for k in ("precond", "postcond", "precond_aux", "postcond_aux") if g.get(k)}
        te = engine.for_task(task, overrides=over)
        tc = task.tests[0]
        inputs = {
            p.name: decode(p.type, tc.input[p.name], structs=task.structs) for p in task.signature.params
        }
        out = decode(task.signature.return_type, tc.expected, structs=task.structs)
        te.precondition(inputs)
        te.postcondition(inputs, out)
        n += 1
    total = sum(counts.values())
    print(f"spec samples: {n}; quantifiers compiled: {total}")
    for k in ("syntactic", "guarded", "reduced", "undecided"):
        print(f"  {k}: {counts[k]}")
    beyond = counts["guarded"] + counts["reduced"] + counts["undecided"]
    if beyond:
        share = 100.0 * (counts["guarded"] + counts["reduced"]) / beyond
        print(
            f"quantifiers without a syntactic bound decided exactly: {counts['guarded'] + counts['reduced']}/{beyond} ({share:.1f}%)"
        )
    for u in undecided:
        print(f"  undecided: {u}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
