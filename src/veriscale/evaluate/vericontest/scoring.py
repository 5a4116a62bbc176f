"""Scoring one VeriContest sample of one of the six tasks (paper §5.2, taxonomy of Appendix B.1).

Metrics per task (every one a ``MetricResult``; ``NOT_EVALUATED`` is never a pass):

* **nl2code / spec2code / nl_spec2code** — ``<task>``: the program, Verus-erased and
  compiled with rustc in the sandbox, runs on every positive under the per-test
  limit (default 2 s); each output must equal the expected one. ``<task>_by_spec``:
  an output that differs but that the ground-truth ``ensures`` accepts counts
  correct (problems with several valid answers). Categories: ``syntax_error``
  (rustc rejects it, or it cannot be tokenized), ``forbidden_construct``,
  ``timeout``, ``runtime_error`` (panic, overflow, memory), ``incorrect_output``.
* **nl2spec** — ``nl2spec_pre``: the answer's ``requires`` holds on every positive
  input (``precondition_mismatch``); ``nl2spec_post``: its ``ensures`` accepts
  every positive and rejects every negative (``postcondition_mismatch``);
  ``nl2spec``: both, failing with ``pre_post_mismatch`` when both fail. A program
  that cannot be tokenized, lacks the target function or changes its number of
  parameters is a ``syntax_error``; one our evaluator cannot load is UNKNOWN.
* **spec_code2proof** — a changed spec or code (``preserved``) or a construct
  ``--no-cheating`` refuses fails without Verus (``spec_code_modified`` /
  ``verification_failure``); otherwise Verus decides (``verification_failure``),
  and without Verus the sample is ``NOT_EVALUATED``.
* **end2end** — ``end2end_spec`` (as nl2spec) and ``end2end_code`` (as the code
  tasks, equality) on the one program; ``end2end`` fails when either fails (or
  on cheating), else Verus decides; without Verus ``NOT_EVALUATED``.

An extraction failure (no program in the answer) fails every metric of the task
with ``extraction_failed``. Aggregation is Verina's (``aggregate``): any FAIL
fails, else any UNKNOWN is UNKNOWN, else PASS — except that a metric without
tests is never passed: it is ``NOT_EVALUATED`` ("no test cases",
``untested_not_passed``; e.g. a Codeforces problem whose description has no
example and no test file), and so is a task metric built on it (``combine``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...formats.vericontest.answers import (
    ProgramRun,
    run_whole_program,
    target_mismatch,
    unreadable,
    whole_program,
)
from ...formats.vericontest.preserved import SourceUnreadable, cheating, modification, spec_modification
from ...formats.vericontest.requires_equiv import requires_equivalence
from ...runtime.engine import Outcome, OutcomeKind, Verdict
from ..scoring.aggregate import (
    MetricResult,
    Score,
    TestResult,
    aggregate,
    combine,
    not_evaluated,
    untested_not_passed,
)
from ..scoring.errors import ErrorCategory
from .cases import Case, ProblemCases
from .generations import CODE_TASKS, SPEC_GIVEN_CODE_TASKS, VcGeneration

__all__ = [
    "VC_METRICS",
    "VC_TASK_METRICS",
    "VcOptions",
    "metrics_of_task",
    "score_sample",
    "verus_candidates",
]

NOT_EVALUATED_VERUS = "not evaluated (requires Verus: --verus PATH or VERISCALE_VERUS)"


def metrics_of_task(task: str) -> tuple[str, ...]:
    if task in CODE_TASKS:
        return (task, f"{task}_by_spec")
    if task == "nl2spec":
        return ("nl2spec", "nl2spec_pre", "nl2spec_post")
    if task == "end2end":
        return ("end2end", "end2end_spec", "end2end_code")
    return (task,)


# each task's main metric (the chart's bars)
VC_TASK_METRICS: tuple[str, ...] = (
    "nl2spec",
    "nl2code",
    "spec2code",
    "nl_spec2code",
    "spec_code2proof",
    "end2end",
)
VC_METRICS: tuple[str, ...] = tuple(
    m
    for t in ("nl2spec", "nl2code", "spec2code", "nl_spec2code", "spec_code2proof", "end2end")
    for m in metrics_of_task(t)
)


@dataclass(frozen=True)
class VcOptions:
    # Verus backend: ``verify(program) -> (passed, message)`` or None (proof tasks NOT_EVALUATED)
    verify: Callable[[str], tuple[bool | None, str]] | None = None
    # the job's memo of specification verdicts (``spec_verdicts.SpecVerdicts``); None: none kept
    spec_verdicts: Any = None


def _fail(cat: ErrorCategory, reason: str, where: str = "program") -> MetricResult:
    return aggregate([TestResult(Score.FAIL, cat, reason, where)], overestimable=False)


def _unknown(cat: ErrorCategory, reason: str, where: str = "program") -> MetricResult:
    return aggregate([TestResult(Score.UNKNOWN, cat, reason, where)], overestimable=False)


def _short(v: Any, limit: int = 120) -> str:
    text = repr(v)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _tokenizes(program: str) -> str | None:
    """Why the program cannot even be scanned (a syntax error of the answer), or None."""
    return unreadable(program)


# ------------------------------------------------------------------ code

# Harness failures that say nothing about the program: the machine could not start its thread or
# process (EAGAIN under load, the sandbox itself failing).
_ENVIRONMENT = (
    "cannot start thread",
    "cannot start the program",
    "sandbox:",
    "Resource temporarily unavailable",
)


def _environment_failure(out: Outcome) -> bool:
    return out.kind is OutcomeKind.ERROR and any(m in out.reason for m in _ENVIRONMENT)


def _retry_environment(cand: Any, positives: Sequence[Case], outs: list[Outcome]) -> list[Outcome]:
    """Run again, one at a time after a pause, the cases the environment failed (once)."""
    bad = [i for i, o in enumerate(outs) if _environment_failure(o)]
    if not bad:
        return outs
    time.sleep(1.0)
    outs = list(outs)
    for i in bad:
        outs[i] = cand.runs([positives[i].inputs])[0]
    return outs


def _code_tests(
    te_gt: Any, cand: Any, positives: Sequence[Case], ref_in_limit: Any = None
) -> tuple[list[TestResult], list[TestResult]] | MetricResult:
    """Per positive, the equality and by-spec results; a MetricResult when the program never ran.

    A timed-out test fails, unless the reference implementation, run under the same limit
    (``ref_in_limit``, the problem under the candidate's engine), also times out on that input:
    the limit then says nothing about the answer on this machine (UNKNOWN, ``timeout``)."""
    outs: list[Outcome] = cand.runs([c.inputs for c in positives]) if positives else []
    outs = _retry_environment(cand, positives, outs)
    eq: list[TestResult] = []
    spec: list[TestResult | None] = []
    wrong: list[tuple[int, Case, Any, str]] = []  # (index, case, output, why): judged by the ensures below
    for case, out in zip(positives, outs):
        w = case.where
        if out.kind is OutcomeKind.ERROR and out.category == "compile":
            return _fail(ErrorCategory.SYNTAX_ERROR, out.reason)
        if out.kind is OutcomeKind.ERROR and out.category == "forbidden_construct":
            return _fail(ErrorCategory.FORBIDDEN, out.reason)
        if out.kind is OutcomeKind.ERROR and out.reason.startswith("Verus erasure failed"):
            # a limit of our eraser, not necessarily of the answer
            return _unknown(ErrorCategory.UNSUPPORTED, out.reason)
        if out.kind is OutcomeKind.VALUE:
            got = te_gt.stated_view(out.value) if te_gt.is_inplace() else out.value
            if got == case.expected_view:
                eq.append(TestResult(Score.PASS, where=w))
                spec.append(TestResult(Score.PASS, where=w))
                continue
            why = f"{w}: got {_short(got)}, expected {_short(case.expected_view)}"
            eq.append(TestResult(Score.FAIL, ErrorCategory.INCORRECT_OUTPUT, why, w))
            wrong.append((len(spec), case, out.value, why))
            spec.append(None)
            continue
        reason = f"{w}: {out.reason}"
        if _environment_failure(out):  # the machine, not the answer: no verdict
            r = TestResult(Score.UNKNOWN, ErrorCategory.UNDECIDED, f"{reason} (environment)", w)
        elif out.kind is OutcomeKind.TIMEOUT:
            if ref_in_limit is not None and ref_in_limit.runs([case.inputs])[0].kind is OutcomeKind.TIMEOUT:
                why = f"{reason} (the reference implementation also exceeds the limit on this input here)"
                r = TestResult(Score.UNKNOWN, ErrorCategory.TIMEOUT, why, w)
            else:
                r = TestResult(Score.FAIL, ErrorCategory.TIMEOUT, reason, w)
        elif out.kind is OutcomeKind.ERROR:
            r = TestResult(Score.FAIL, ErrorCategory.RUNTIME_ERROR, reason, w)
        else:
            r = TestResult(Score.UNKNOWN, ErrorCategory.UNSUPPORTED, reason, w)
        eq.append(r)
        spec.append(r)
    # every differing output judged by the ground-truth ensures in one batch (one checker process)
    verdicts: list[Verdict] = te_gt.postconditions([(c.inputs, v) for _, c, v, _ in wrong]) if wrong else []
    for (k, case, _, why), v in zip(wrong, verdicts):
        w = case.where
        if v.is_true:
            spec[k] = TestResult(Score.PASS, where=w)
        elif v.is_false:
            spec[k] = TestResult(Score.FAIL, ErrorCategory.INCORRECT_OUTPUT, why + " (ensures rejects it)", w)
        else:
            spec[k] = TestResult(Score.UNKNOWN, ErrorCategory.UNDECIDED, f"{why}; ensures: {v.reason}", w)
    return eq, [t for t in spec if t is not None]


def _score_whole_program(engine: Any, program: str, cases: ProblemCases) -> MetricResult:
    """A Codeforces answer that is a whole program: run on each example's stdin (``answers``); its
    stdout must equal the stated one (trailing spaces and blank lines ignored); stops at a failure."""
    from .cases import normalize_stdout

    def test(where: str, stdout: str, res: ProgramRun) -> TestResult:
        if res.status == "ok":
            if normalize_stdout(res.stdout) == normalize_stdout(stdout):
                return TestResult(Score.PASS, where=where)
            why = f"{where}: printed {_short(res.stdout)}, expected {_short(stdout)}"
            return TestResult(Score.FAIL, ErrorCategory.INCORRECT_OUTPUT, why, where)
        if res.status == "timeout":
            return TestResult(Score.FAIL, ErrorCategory.TIMEOUT, f"{where}: {res.message}", where)
        if any(m in res.message for m in _ENVIRONMENT):
            return TestResult(
                Score.UNKNOWN, ErrorCategory.UNDECIDED, f"{where}: {res.message} (environment)", where
            )
        return TestResult(
            Score.FAIL, ErrorCategory.RUNTIME_ERROR, f"{where}: {res.status}: {res.message}", where
        )

    stdins = [stdin for _, stdin, _ in cases.stdin_cases]
    got = run_whole_program(program, stdins, engine.exec_limits, engine.cache, lambda r: r.status != "ok")
    if isinstance(got, ProgramRun):
        if got.status == "erase":  # a limit of our eraser, not necessarily of the answer
            return _unknown(ErrorCategory.UNSUPPORTED, got.message)
        cat = ErrorCategory.FORBIDDEN if got.status == "forbidden" else ErrorCategory.SYNTAX_ERROR
        return _fail(cat, got.message)
    tests: list[TestResult] = []
    for (where, _, stdout), res in zip(cases.stdin_cases, got):
        tests.append(test(where, stdout, res))
        if tests[-1].score is Score.FAIL:  # settled: the rest count as skipped
            break
    whole = aggregate(tests, total=len(cases.stdin_cases), overestimable=False, excluded=len(cases.excluded))
    return untested_not_passed(whole, _why_untested(cases))


def score_code(
    engine: Any, problem: Any, te_gt: Any, cases: ProblemCases, program: str
) -> tuple[MetricResult, MetricResult]:
    """(equality metric, by-spec metric) of a program on the positives.

    A Codeforces answer with its own ``main`` and no function named as the problem's target (the
    nl2code prompt gives no name) runs as a whole program on the stdin examples; by-spec is then
    the same as equality (there is no function-level output to judge)."""
    bad = _tokenizes(program)
    if bad is not None:
        r = _fail(ErrorCategory.SYNTAX_ERROR, bad)
        return r, r
    if problem.is_codeforces and whole_program(problem, program):
        r = _score_whole_program(engine, program, cases)
        return r, r
    cand = engine.for_task(problem, {"code": program})
    got = _code_tests(te_gt, cand, cases.positives, engine.for_task(problem))
    if isinstance(got, MetricResult):
        return got, got
    eq, spec = got
    n_ex = len(cases.excluded)
    why = _why_untested(cases)
    return (
        untested_not_passed(
            aggregate(eq, total=len(cases.positives), overestimable=False, excluded=n_ex), why
        ),
        untested_not_passed(
            aggregate(spec, total=len(cases.positives), overestimable=False, excluded=n_ex), why
        ),
    )


# ------------------------------------------------------------------ spec


def _verdict_test(v: Verdict, want: bool, cat: ErrorCategory, where: str, what: str) -> TestResult:
    if v.is_unknown:
        return TestResult(Score.UNKNOWN, ErrorCategory.UNDECIDED, f"{where}: {what}: {v.reason}", where)
    if v.is_true == want:
        return TestResult(Score.PASS, where=where)
    verb = "rejects" if want else "accepts"
    return TestResult(Score.FAIL, cat, f"{where}: the answer's {what} {verb} it", where)


def _spec_target_problem(problem: Any, program: str) -> str | None:
    """Why the answer's target function does not match the problem's (a syntax error), or None."""
    return target_mismatch(problem, program)


def _equivalence_test(problem: Any, program: str) -> TestResult:
    """The answer's ``requires`` against the ground truth's (paper, Appendix A.4): z3, else
    boundary testing, else UNKNOWN (``requires_equiv``)."""
    r = requires_equivalence(problem.spec, program, problem.signature.name)
    where = "requires equivalence"
    if r.kind == "equivalent":
        return TestResult(Score.PASS, where=where)
    if r.kind in ("stronger", "weaker"):
        side = "rejects" if r.kind == "stronger" else "accepts"
        other = "accepts" if r.kind == "stronger" else "rejects"
        why = f"{where} ({r.how}): the answer's requires {side} {_short(r.witness)}, which the ground truth {other}"
        return TestResult(Score.FAIL, ErrorCategory.PRECOND_MISMATCH, why, where)
    why = f"{where} not decided: {'; '.join([r.reason, *r.notes]).strip('; ')}"
    return TestResult(Score.UNKNOWN, ErrorCategory.UNDECIDED, why, where)


def score_spec(
    engine: Any, problem: Any, cases: ProblemCases, program: str, memo: Any = None
) -> tuple[MetricResult, MetricResult, MetricResult]:
    """(combined, pre, post) of an answer's specification. ``memo`` (a ``SpecVerdicts`` over
    ``cases``) gives the verdicts an identical specification already got, the ground truth's
    included; without it every verdict is computed (batched: one checker process per kind)."""
    bad = _tokenizes(program) or _spec_target_problem(problem, program)
    if bad is not None:
        r = _fail(ErrorCategory.SYNTAX_ERROR, bad)
        return r, r, r
    te = engine.for_task(problem, {"spec": program})
    if te.spec() is None:
        r = _unknown(ErrorCategory.UNSUPPORTED, f"the answer's specification does not load: {te._spec_error}")
        return r, r, r
    pos = cases.spec_positives
    n_excluded = len(cases.excluded) + len(cases.spec_excluded)
    key = memo.identity(te, program) if memo is not None else None
    pre_v = (
        (memo.requires(te, key, pos) if memo is not None else te.preconditions([c.inputs for c in pos]))
        if pos
        else []
    )
    pre_tests = [
        _verdict_test(v, True, ErrorCategory.PRECOND_MISMATCH, c.where, "requires")
        for c, v in zip(pos, pre_v)
    ]
    pre_tests.append(_equivalence_test(problem, program))
    # the upper bound (Verina's overestimate) counts an undecided equivalence whose tests pass
    pre = aggregate(pre_tests, total=len(pos) + 1, overestimable=True, excluded=n_excluded)
    pairs = [(c.inputs, c.output) for c in pos] + [(c.inputs, c.output) for c in cases.negatives]
    if memo is not None:
        post_v = memo.ensures(te, key, [*pos, *cases.negatives]) if pairs else []
    else:
        post_v = te.postconditions(pairs) if pairs else []
    tests = [
        _verdict_test(v, True, ErrorCategory.POSTCOND_MISMATCH, c.where, "ensures")
        for c, v in zip(pos, post_v[: len(pos)])
    ] + [
        _verdict_test(v, False, ErrorCategory.POSTCOND_MISMATCH, c.where, "ensures")
        for c, v in zip(cases.negatives, post_v[len(pos) :])
    ]
    note = "" if cases.negatives else "no negative tests: the ensures' rejection of wrong outputs is untested"
    post = aggregate(tests, total=len(pairs), overestimable=False, note=note, excluded=n_excluded)
    post = untested_not_passed(
        post, _why_untested(cases, spec=True)
    )  # before ``combine``: no vacuous nl2spec
    both = combine([pre, post])
    if pre.score is Score.FAIL and post.score is Score.FAIL:
        both = _with_error(both, ErrorCategory.PRE_POST_MISMATCH)
    return both, pre, post


def _with_error(r: MetricResult, cat: ErrorCategory) -> MetricResult:
    from dataclasses import replace

    return replace(r, error=cat)


# ------------------------------------------------------------------ proofs


def _verus(opts: VcOptions, program: str) -> MetricResult:
    if opts.verify is None:
        return not_evaluated(NOT_EVALUATED_VERUS)
    ok, msg = opts.verify(program)
    if ok is None:
        return _unknown(ErrorCategory.TIMEOUT if "timed out" in msg else ErrorCategory.UNDECIDED, msg)
    if ok:
        return MetricResult(Score.PASS, lower=True, upper=True, n_tests=1, n_pass=1)
    return _fail(ErrorCategory.VERIFICATION_FAILURE, msg)


def verus_candidates(problem: Any, gens: Sequence[VcGeneration]) -> list[str]:
    """The programs of ``gens``' proof samples that pass every check made without Verus (so that
    scoring them will ask Verus), in order, each once: what a job verifies in one batch."""
    out: list[str] = []
    for g in gens:
        if g.task not in ("spec_code2proof", "end2end") or g.extraction_error is not None:
            continue
        if _tokenizes(g.program) is not None or cheating(g.program):
            continue
        if g.task == "spec_code2proof":
            try:
                if modification(problem.code_spec, g.program, problem.signature.name) is not None:
                    continue
            except SourceUnreadable:
                continue
        out.append(g.program)
    return list(dict.fromkeys(out))


# ``veriscale generate``'s extraction categories in the paper's taxonomy; the rest: extraction_failed
_EXTRACTION = {
    "parse_error": ErrorCategory.SYNTAX_ERROR,
    "wrong_name": ErrorCategory.SYNTAX_ERROR,
    "forbidden_construct": ErrorCategory.FORBIDDEN,
}


def score_sample(
    engine: Any, problem: Any, te_gt: Any, cases: ProblemCases, gen: VcGeneration, opts: VcOptions
) -> dict[str, MetricResult]:
    """Every metric of ``gen``'s task (module docstring); none passes on zero test cases."""
    metrics = _score_sample(engine, problem, te_gt, cases, gen, opts)
    why = _why_untested(cases)
    return {m: untested_not_passed(r, why) for m, r in metrics.items()}


def _why_untested(cases: ProblemCases, *, spec: bool = False) -> str:
    if spec and cases.spec_excluded and not cases.spec_positives and not cases.negatives:
        return f"every positive left out of the spec metrics, first: {cases.spec_excluded[0]}"
    if cases.positives or cases.negatives:
        return "no case applies to this metric"
    if cases.excluded:
        return f"all {len(cases.excluded)} candidate rows left out, first: {cases.excluded[0]}"
    return "no example could be read from the description and the problem has no test file"


def spec_not_kept(problem: Any, gen: VcGeneration) -> MetricResult | None:
    """The FAIL of a spec2code / nl_spec2code answer that does not hand ``spec.rs``'s specification
    back token for token (``preserved.spec_modification``); None when kept or not such a task."""
    if gen.task not in SPEC_GIVEN_CODE_TASKS or gen.extraction_error is not None:
        return None
    try:
        why = spec_modification(problem.spec, gen.program, problem.signature.name)
    except SourceUnreadable as exc:
        return _fail(ErrorCategory.SYNTAX_ERROR, str(exc))
    return None if why is None else _fail(ErrorCategory.SPEC_CODE_MODIFIED, f"spec modified: {why}")


def _score_sample(
    engine: Any, problem: Any, te_gt: Any, cases: ProblemCases, gen: VcGeneration, opts: VcOptions
) -> dict[str, MetricResult]:
    names = metrics_of_task(gen.task)
    if gen.extraction_error is not None:
        cat = _EXTRACTION.get(gen.extraction_error, ErrorCategory.EXTRACTION_FAILED)
        msg = f": {gen.extraction_message}" if gen.extraction_message else ""
        r = _fail(cat, f"answer not extracted ({gen.extraction_error}){msg}", "answer")
        return dict.fromkeys(names, r)
    program = gen.program
    if gen.task in CODE_TASKS:
        kept = spec_not_kept(problem, gen)
        if kept is not None:
            return dict.fromkeys(names, kept)
        eq, spec = score_code(engine, problem, te_gt, cases, program)
        return {names[0]: eq, names[1]: spec}
    if gen.task == "nl2spec":
        both, pre, post = score_spec(engine, problem, cases, program, opts.spec_verdicts)
        return {"nl2spec": both, "nl2spec_pre": pre, "nl2spec_post": post}
    bad = _tokenizes(program)
    if bad is not None:
        r = _fail(ErrorCategory.SYNTAX_ERROR, bad)
        return dict.fromkeys(names, r)
    cheats = cheating(program)
    if gen.task == "spec_code2proof":
        try:
            why = modification(problem.code_spec, program, problem.signature.name)
        except SourceUnreadable as exc:
            return {"spec_code2proof": _unknown(ErrorCategory.UNSUPPORTED, str(exc))}
        if why is not None:
            return {"spec_code2proof": _fail(ErrorCategory.SPEC_CODE_MODIFIED, why)}
        if cheats:
            return {
                "spec_code2proof": _fail(
                    ErrorCategory.VERIFICATION_FAILURE, f"--no-cheating: {', '.join(cheats)}"
                )
            }
        return {"spec_code2proof": _verus(opts, program)}
    # end2end
    spec, _pre, _post = score_spec(engine, problem, cases, program, opts.spec_verdicts)
    code, _ = score_code(engine, problem, te_gt, cases, program)
    if cheats:
        whole = _fail(ErrorCategory.VERIFICATION_FAILURE, f"--no-cheating: {', '.join(cheats)}")
    elif spec.score is Score.FAIL or code.score is Score.FAIL:
        whole = combine([spec, code])
    else:
        proof = _verus(opts, program)
        whole = proof if not proof.evaluated else combine([spec, code, proof])
    return {"end2end": whole, "end2end_spec": spec, "end2end_code": code}
