"""Specification verdicts on one problem's cases, computed once per specification.

A job scores every sample of one problem on the same cases (``cases.build_cases``), and building
them already asks the ground-truth ``requires``/``ensures`` about every positive and negative. An
answer whose specification *is* the ground truth's — the ground truth as generations, or a model
that copied it; ``verified.rs`` has the specification of ``spec.rs`` in 938 of 946 problems — would
ask the same questions again, and ``nl2spec``, ``end2end_spec`` and repeated samples of one answer
again each time: on a generated suite of ~200 positives and ~2,000 negatives per problem that
tripled the cost of a job.

``SpecVerdicts`` memoizes verdicts per *specification identity* and case:

* the identity is (``formats.vericontest.spec_identity.spec_fingerprint`` of the source — what
  our evaluators read of it, comments, layout and proof code left out —, the compiled Post2Exe
  checker's binary, or none). Two sources with one identity load the same ``SpecProgram`` and the
  same compiled checker, so every verdict is the same; the checker is part of the key because the
  ground truth of a problem with a constructor has none while an answer may (a verdict could then
  be decided for one and UNKNOWN for the other);
* a case is named by its kind (``requires`` on the input, ``ensures`` on the input and the case's
  output) and the ``Case`` object itself (a memo lives as long as the job's cases);
* the ground truth's verdicts are seeded from the cases (``Case.gt_requires``/``gt_ensures``);
  everything missing is computed in one batch (one checker process) through the task engine.

A source without a fingerprint (it does not scan) is never memoized.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...formats.vericontest.spec_identity import spec_fingerprint
from ...runtime.engine import Verdict
from .cases import Case, ProblemCases

__all__ = ["SpecVerdicts"]

Identity = tuple[str, str]


class SpecVerdicts:
    def __init__(self, cases: ProblemCases) -> None:
        self.cases = cases  # held, so the ``Case`` objects the memo is keyed by stay alive
        self._memo: dict[Identity, dict[tuple[str, int], Verdict]] = {}
        self.computed = 0  # verdicts asked of an engine (the rest came from the memo): a cost meter
        self.reused = 0

    def identity(self, te: Any, source: str) -> Identity | None:
        """The identity of ``source`` as loaded by the task engine ``te`` (module docstring)."""
        fp = spec_fingerprint(source, te.problem.signature.name)
        if fp is None:
            return None
        ck = te.compiled()
        return fp, str(ck.binary) if ck is not None else ""

    def seed_ground_truth(self, te_gt: Any) -> None:
        """Record the verdicts ``build_cases`` computed with the ground truth ``te_gt``."""
        key = self.identity(te_gt, te_gt.problem.spec)
        if key is None:
            return
        memo = self._memo.setdefault(key, {})
        for c in [*self.cases.positives, *self.cases.negatives]:
            if c.gt_requires is not None:
                memo[("requires", id(c))] = c.gt_requires
            if c.gt_ensures is not None:
                memo[("ensures", id(c))] = c.gt_ensures

    def requires(self, te: Any, key: Identity | None, cases: Sequence[Case]) -> list[Verdict]:
        return self._get(te, key, cases, "requires")

    def ensures(self, te: Any, key: Identity | None, cases: Sequence[Case]) -> list[Verdict]:
        return self._get(te, key, cases, "ensures")

    def _get(self, te: Any, key: Identity | None, cases: Sequence[Case], kind: str) -> list[Verdict]:
        memo = self._memo.setdefault(key, {}) if key is not None else {}
        missing = [c for c in cases if (kind, id(c)) not in memo]
        if missing:
            if kind == "requires":
                got = te.preconditions([c.inputs for c in missing])
            else:
                got = te.postconditions([(c.inputs, c.output) for c in missing])
            self.computed += len(missing)
            for c, v in zip(missing, got):
                memo[(kind, id(c))] = v
        self.reused += len(cases) - len(missing)
        return [memo[(kind, id(c))] for c in cases]
