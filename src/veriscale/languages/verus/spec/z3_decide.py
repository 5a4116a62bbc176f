"""The z3 back end: decide a closed clause the enumerating evaluator left UNKNOWN.

``retry(compiler, expr, env, unknown)`` is called (``program.SpecProgram._verdict``) for a clause whose
evaluation ended UNKNOWN and only then, after no other clause was FALSE: nothing the evaluator decides
goes through here. The clause is walked by ``z3_terms.Translator`` with every free name concrete:
parts without quantifiers are evaluated exactly; each closed quantifier ``Q x. B(x)`` met (one whose
free names are all concrete) is decided by ``decide_quant``:

1. the exact evaluator with a small budget (``z3_terms.EXACT_FUEL`` steps) — an easy inner quantifier
   costs no solver call;
2. else the *search formula*: ``B(x)`` for ``exists``, ``not B(x)`` for ``forall``, with the binders as
   free z3 variables (unrolled ones as one disjunct per value, sequence binders one disjunct per length),
   each restricted to its type's range and the bounds the quantifier's plan derives (the values outside
   cannot be witnesses or counterexamples: the same domains enumeration uses). Quantifiers inside ``B``
   that mention ``x`` are z3 quantifiers; those that do not are closed and decided first, recursively.
   One query, with a deterministic resource limit (``Z3_RLIMIT``; the clock is only a backstop):

   * ``unsat``: no witness (``exists`` is FALSE) / no counterexample (``forall`` is TRUE) — trusted only
     after the translation's obligations (every index, cast, end of sequence is defined wherever it is
     used) are proved valid;
   * ``sat``: the model's binder values (the first disjunct the model satisfies) are **confirmed**: the
     body is evaluated again on those concrete values (exactly, with this procedure for the quantifiers
     inside); only a witness that makes it TRUE (``exists``) or a counterexample that makes it FALSE
     (``forall``) decides, anything else is UNKNOWN;
   * ``unknown`` (the resource limit, incompleteness of nonlinear arithmetic or quantifiers): UNKNOWN.

Why the verdicts are exact: every construct is translated only where z3's semantics is the
evaluator's (``z3_terms``), the binder domains are the enumeration's, an ``unsat`` answer is a proof,
and a ``sat`` answer is never used without the exact evaluator agreeing on the concrete instance.

``VERISCALE_SPEC_Z3=0`` turns the back end off (the oracle benchmark compares both paths).
"""

from __future__ import annotations

import os
from typing import Any

from veriscale.runtime import limits
from veriscale.runtime.engine import Verdict

from ....runtime.errors import LimitExceeded
from . import ast as A
from . import runtime as rt
from . import z3_terms
from .z3_terms import TOTAL_EXACT, Translator, Untranslatable

__all__ = ["MAX_QUERIES", "Z3_RLIMIT", "decide_clause", "enabled", "retry"]

Z3_RLIMIT = 5_000_000  # z3 resource units per query (20x the most the shared set needs): machine-independent
Z3_BACKSTOP_MS = 60_000  # wall-clock backstop only (a verdict never depends on it below the rlimit)
TOTAL_RLIMIT = 20_000_000  # z3 resource units of all queries of one clause
MAX_QUERIES = 200  # solver queries of one clause
MAX_CONFIRM = 16  # model leaves tried by the exact evaluator


def enabled() -> bool:
    return os.environ.get("VERISCALE_SPEC_Z3", "1") != "0"


class _Decider:
    def __init__(self, compiler: Any, z3: Any, max_depth: int = 100_000) -> None:
        self.z3 = z3
        self.ctx = z3.Context()  # fresh per clause: no state carries over between decisions
        self.tr = Translator(compiler, z3, self.ctx, self.decide_quant, max_depth)
        self.queries = 0
        self.rlimit_left = TOTAL_RLIMIT
        self.rlimit_seen = 0
        self.decided: dict[Any, bool] = {}

    def solver(self) -> Any:
        self.queries += 1
        if self.queries > MAX_QUERIES:
            raise Untranslatable(f"more than {MAX_QUERIES} solver queries")
        if self.rlimit_left <= 0:
            raise Untranslatable(f"the clause's z3 resource budget ({TOTAL_RLIMIT}) is spent")
        s = self.z3.Solver(ctx=self.ctx)
        s.set("rlimit", min(Z3_RLIMIT, self.rlimit_left))
        s.set("timeout", Z3_BACKSTOP_MS)
        return s

    def check(self, s: Any) -> Any:
        """``s.check()``, its resource use charged to the clause's budget."""
        r = s.check()
        try:  # the context's cumulative count (also the translator's small range proofs)
            now = int(s.statistics().get_key_value("rlimit count"))
        except Exception:  # no such statistic: charge the query's whole limit
            now = self.rlimit_seen + Z3_RLIMIT
        self.rlimit_left -= max(now - self.rlimit_seen, 0)
        self.rlimit_seen = now
        return r

    def decide_quant(self, q: A.Quant, env: dict[str, Any]) -> bool:
        tr = self.tr
        try:
            v = tr.exact(q, env, z3_terms.EXACT_FUEL)
            if isinstance(v, bool):
                return v
        except (rt.SpecError, LimitExceeded, RecursionError):
            pass
        key = self._key(q, env)
        if key is not None and key in self.decided:
            return self.decided[key]
        got = self._search(q, env)
        if key is not None:
            self.decided[key] = got
        return got

    def _key(self, q: A.Quant, env: dict[str, Any]) -> Any:
        try:
            key = (id(q), tuple((n, env[n]) for n in sorted(self.tr.fv(q)) if n in env))
            hash(key)
            return key
        except TypeError:
            return None

    def _search(self, q: A.Quant, env: dict[str, Any]) -> bool:
        z3, tr = self.z3, self.tr
        exists = q.kind == "exists"
        saved = tr.path, tr.obligations
        tr.path, tr.obligations = [], []
        cases: list[tuple[dict[str, Any], Any]] = []
        try:
            formula = tr.binders(q, env, 0, tr.plans(q), cases, [0])
            obligations = tr.obligations
        finally:
            tr.path, tr.obligations = saved
        s = self.solver()
        s.add(tr.zbool(formula))
        r = self.check(s)
        if r == z3.unsat:
            self._require(obligations, q)
            return not exists  # no witness / no counterexample
        if r != z3.sat:
            raise Untranslatable(
                f"z3 answered unknown ({s.reason_unknown()}) on the quantifier at line {q.line}"
            )
        model = s.model()
        tried = 0
        for values, f in cases:
            # the leaf the model satisfies; a leaf with a quantifier inside may not evaluate to a
            # constant in the model, so every leaf not evaluating to false is a candidate
            if f is False or z3.is_false(model.eval(tr.zbool(f), model_completion=True)):
                continue
            tried += 1
            if tried > MAX_CONFIRM:
                break
            inst = dict(env)
            for name, v in values.items():
                inst[name] = self._value(model, v)
            saved = tr.path, tr.obligations
            tr.path, tr.obligations = [], []
            try:
                got = tr.tr(q.body, inst)
            finally:
                tr.path, tr.obligations = saved
            if got is exists:  # a confirmed witness / counterexample
                return exists
        raise Untranslatable(
            f"the z3 model for the quantifier at line {q.line} is not confirmed by the exact evaluator"
        )

    def _value(self, model: Any, v: Any) -> Any:
        z3 = self.z3
        if isinstance(v, tuple):
            return tuple(self._value(model, x) for x in v)
        if isinstance(v, z3.ExprRef):
            got = model.eval(v, model_completion=True)
            if z3.is_bool(got):
                return bool(z3.is_true(got))
            return got.as_long()
        return v

    def _require(self, obligations: list[Any], q: A.Quant) -> None:
        """Every partial operation of the translation is defined where it is used (valid)."""
        if not obligations:
            return
        z3, tr = self.z3, self.tr
        s = self.solver()
        s.add(*tr.typing)
        s.add(z3.Not(z3.And(*[tr.zbool(o) for o in obligations])))
        if self.check(s) != z3.unsat:
            raise Untranslatable(
                f"an operation under the quantifier at line {q.line} may be undefined (index, cast, division)"
            )


def decide_clause(
    compiler: Any, expr: A.Expr, env: dict[str, Any], max_depth: int = 100_000
) -> tuple[bool | None, str]:
    """(the clause's truth or None, why not decided); ``max_depth``: the caller's spec recursion limit."""
    try:
        import z3
    except ImportError:
        return None, "z3 is not installed"
    dec = _Decider(compiler, z3, max_depth)
    try:
        v = dec.tr.tr(expr, env)
    except Untranslatable as exc:
        return None, str(exc)
    except z3.Z3Exception as exc:
        return None, f"z3 error: {exc}"
    except (rt.SpecError, LimitExceeded) as exc:
        return None, str(exc)
    if os.environ.get("VERISCALE_SPEC_Z3_TRACE"):
        print(
            f"z3 trace: rlimit {dec.rlimit_seen}, queries {dec.queries}, exact steps {TOTAL_EXACT - dec.tr.exact_left}"
        )
    if isinstance(v, bool):
        return v, ""
    return None, "the clause did not reduce to a truth value"


def retry(
    compiler: Any, expr: A.Expr, env: dict[str, Any], unknown: Verdict, max_depth: int = 100_000
) -> Verdict:
    """The clause's verdict by the z3 back end, or ``unknown`` (its reason extended) when undecided."""
    if not enabled():
        return unknown
    depth = compiler.depth
    ok, got = limits.run_deep(lambda: decide_clause(compiler, expr, env, max_depth), 200_000)
    compiler.depth = depth
    if os.environ.get("VERISCALE_SPEC_Z3_TRACE"):  # calibration: the clause's z3 resource use and steps
        print(f"z3 trace: {got!r:.200}", flush=True)
    if not ok:
        return Verdict.unknown(
            f"{unknown.reason}; z3: internal error {type(got).__name__}: {got}", unknown.category
        )
    truth, why = got
    if truth is None:
        return Verdict.unknown(f"{unknown.reason}; z3: {why}", unknown.category)
    return Verdict.of(truth)
