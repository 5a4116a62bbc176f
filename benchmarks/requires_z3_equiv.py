"""z3 equivalence of VeriContest ``requires``: decided share on the ground truth against itself and
against mutated ``requires``, and wrong verdicts against brute force on small inputs.

    PYTHONPATH=src python benchmarks/requires_z3_equiv.py ROOT [--mutants 200] [--brute 400]

* self: every problem's ``requires`` against itself, the same-tokens shortcut off (the solver or
  boundary testing must decide);
* mutants: one mutant per problem (``mutate_requires``, site chosen by the problem's index) for
  the first ``--mutants`` problems that have one; every non-equivalence carries a witness that the
  exact evaluator confirmed (one side TRUE, the other FALSE);
* brute force: every EQUIVALENT verdict on a mutant is checked on up to ``--brute`` small inputs
  (values -3..3 and the clauses' literals ±1; vectors of length 0..2); a disagreement there is a
  wrong verdict. (A NOT-equivalent verdict is right by construction: its witness was evaluated.)
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from veriscale.formats.vericontest.dataset import ProblemError, discover_problems, read_problem
from veriscale.formats.vericontest.requires_equiv import (
    Untranslatable,
    _classify,
    _literals,
    _verdicts,
    boundary_inputs,
    mutate_requires,
    requires_equivalence,
)
from veriscale.languages.verus.spec import SpecProgram
from veriscale.runtime.limits import Limits


def brute_disagreement(given: str, answer: str, target: str, limit: int) -> dict | None:
    gt = SpecProgram.from_source(given, target=target)
    ans = SpecProgram.from_source(answer, target=target)
    lim = Limits(fuel=200_000, seconds=10.0, max_depth=10_000)
    try:
        vals = sorted(set(range(-3, 4)) | set(_literals([gt, ans])))
        inputs = boundary_inputs(gt.params, vals, limit)
    except Untranslatable:
        return None
    for inp in inputs:
        if _classify(*_verdicts(gt, ans, inp, lim)) is not None:
            return inp
    return None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--mutants", type=int, default=200)
    ap.add_argument("--brute", type=int, default=400)
    ap.add_argument("--limit", type=int, default=0)
    a = ap.parse_args()
    t0 = time.perf_counter()
    problems = []
    for d in discover_problems(a.root):
        try:
            problems.append(read_problem(d))
        except ProblemError as exc:
            print(f"skipped {d.name}: {exc}")
    if a.limit:
        problems = problems[: a.limit]
    self_kinds: Counter[str] = Counter()
    self_how: Counter[str] = Counter()
    undecided_self: list[str] = []
    for p in problems:
        r = requires_equivalence(p.spec, p.spec, p.signature.name, tokens=False)
        self_kinds[r.kind] += 1
        self_how[r.how or "-"] += 1
        if r.kind != "equivalent":
            undecided_self.append(p.id)
            if r.kind in ("stronger", "weaker"):
                print(f"WRONG self verdict {p.id}: {r.kind} {r.witness}")
    n = len(problems)
    print(f"self: {n} problems; {self_kinds['equivalent']} equivalent ({100 * self_kinds['equivalent'] / n:.1f}%), "
          f"by {dict(self_how)}; kinds {dict(self_kinds)}")  # fmt: skip
    mk: Counter[str] = Counter()
    mhow: Counter[str] = Counter()
    wrong = checked = 0
    n_mut = 0
    for i, p in enumerate(problems):
        if n_mut >= a.mutants:
            break
        m = mutate_requires(p.spec, p.signature.name, i)
        if m is None:
            continue
        n_mut += 1
        src, what = m
        r = requires_equivalence(p.spec, src, p.signature.name)
        mk[r.kind] += 1
        mhow[r.how or "-"] += 1
        if r.kind in ("stronger", "weaker") and r.witness is None:
            print(f"WRONG {p.id}: a non-equivalence without a witness")
            wrong += 1
        if r.kind == "equivalent":
            checked += 1
            bad = brute_disagreement(p.spec, src, p.signature.name, a.brute)
            if bad is not None:
                wrong += 1
                print(f"WRONG {p.id} ({what}): said equivalent, brute force differs on {bad}")
    decided = mk["equivalent"] + mk["stronger"] + mk["weaker"]
    print(
        f"mutants: {n_mut}; decided {decided} ({100 * decided / max(1, n_mut):.1f}%): {dict(mk)}, by {dict(mhow)}"
    )
    print(f"brute force: {checked} equivalent verdicts checked; wrong verdicts: {wrong}")
    print(f"undecided self ids (first 30): {' '.join(undecided_self[:30])}")
    print(f"seconds: {time.perf_counter() - t0:.0f}")


if __name__ == "__main__":
    main()
