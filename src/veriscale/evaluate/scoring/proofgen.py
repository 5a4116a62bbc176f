"""ProofGen: does the candidate proof of the task's correctness theorem check? Only real Lean can say.

A thin wrapper over ``engines.lean_toolchain.proofgen.evaluate_proof`` (the
theorem is stated over the ground-truth code and specification, as in
Verina's plain ProofGen task). The outcome is one metric, ``proof``:

* ``pass`` → PASS;
* ``fail`` → FAIL (``timeout`` when Lean ran out of time, else
  ``proof_rejected``: does not compile, uses ``sorry``, or a banned
  construct — the banned-token check needs no Lean, so it fails even here);
* no Lean toolchain → ``NOT_EVALUATED`` with the reason "not evaluated
  (requires Lean)". Never a pass: such samples are left out of pass@k and
  reported apart.
"""

from __future__ import annotations

from typing import Any

from ...languages.registry import language_of
from ..generations import Generation
from .aggregate import MetricResult, Score, not_evaluated
from .errors import ErrorCategory

__all__ = ["NOT_EVALUATED", "PROOF_METRICS", "evaluate_proof_sample"]

PROOF_METRICS: tuple[str, ...] = ("proof",)


NOT_EVALUATED = "not evaluated (requires Lean)"


def evaluate_proof_sample(
    task: Any, gen: Generation, engine: Any = None, *, timeout: float | None = None
) -> dict[str, MetricResult]:
    """Score one ProofGen sample; returns ``{"proof": MetricResult}``.

    With the native engine (or none), a Lean project is still used when one
    is configured (``VERISCALE_LEAN_PROJECT``); otherwise the proof is not
    evaluated.
    """
    lang = language_of(task)
    # the engine itself if it is a real toolchain, else None (the checker looks for one)
    toolchain = engine if engine is not None and lang.is_toolchain(engine) else None  # type: ignore[attr-defined]
    res = lang.check_proof(  # type: ignore[attr-defined]
        task, gen.proof, gen.proof_aux, gen.imports, engine=toolchain, timeout=timeout
    )
    if res.status == "not_evaluated":
        return {"proof": not_evaluated(res.reason or NOT_EVALUATED)}
    if res.status == "pass":
        return {"proof": MetricResult(Score.PASS, lower=True, upper=True, n_tests=1, n_pass=1)}
    cat = ErrorCategory.TIMEOUT if "timed out" in res.reason else ErrorCategory.PROOF_REJECTED
    return {
        "proof": MetricResult(
            Score.FAIL,
            lower=False,
            upper=False,
            n_tests=1,
            n_fail=1,
            error=cat,
            reason=res.reason,
            where="proof",
            categories={cat.value: 1},
        )
    }
