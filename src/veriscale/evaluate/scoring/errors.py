"""Error categories: why a metric of a sample did not pass.

Every FAIL, UNKNOWN or not-evaluated metric carries exactly one category (the
category of its first non-passing test, in suite order) plus a count per
category over all its non-passing tests. The engines' own categories
(``Verdict.category`` / ``Outcome.category``) map onto these.
"""

from __future__ import annotations

import enum

__all__ = ["LABELS", "ErrorCategory", "from_engine_category"]


class ErrorCategory(enum.StrEnum):
    PARSE_ERROR = "parse_error"
    UNSUPPORTED = "unsupported_construct"
    INCORRECT_OUTPUT = "incorrect_output"
    TIMEOUT = "timeout"
    PRECOND_MISMATCH = "precondition_mismatch"
    POSTCOND_MISMATCH = "postcondition_mismatch"
    RUNTIME_ERROR = "runtime_error"
    NOT_EVALUATED = "not_evaluated"
    # The engine ran but could not decide (e.g. an unbounded quantifier, plausible found nothing).
    UNDECIDED = "undecided"
    # A suite row our codec cannot decode: a defect of the suite, not of the candidate.
    BAD_TEST_DATA = "bad_test_data"
    # Lean rejected a proof (does not compile, uses sorry, banned construct).
    PROOF_REJECTED = "proof_rejected"
    # Candidate code refused before running: file, process, network or raw-memory access.
    FORBIDDEN = "forbidden_construct"
    # VeriContest's taxonomy (paper, Appendix B.1) beyond the categories above.
    SYNTAX_ERROR = "syntax_error"  # rustc rejects the (erased) program, or it cannot be tokenized
    PRE_POST_MISMATCH = "pre_post_mismatch"  # nl2spec/end2end: precondition and postcondition both fail
    SPEC_CODE_MODIFIED = "spec_code_modified"  # the given spec (spec2code, nl_spec2code) or spec/code (spec_code2proof) changed
    VERIFICATION_FAILURE = "verification_failure"  # Verus rejected the program
    EXTRACTION_FAILED = "extraction_failed"  # no program could be extracted from the model's answer


LABELS: dict[ErrorCategory, str] = {
    ErrorCategory.PARSE_ERROR: "parse/elaboration error",
    ErrorCategory.UNSUPPORTED: "unsupported construct",
    ErrorCategory.INCORRECT_OUTPUT: "incorrect output",
    ErrorCategory.TIMEOUT: "timeout",
    ErrorCategory.PRECOND_MISMATCH: "precondition mismatch",
    ErrorCategory.POSTCOND_MISMATCH: "postcondition mismatch",
    ErrorCategory.RUNTIME_ERROR: "runtime error",
    ErrorCategory.NOT_EVALUATED: "not evaluated (requires Lean)",
    ErrorCategory.UNDECIDED: "undecided by the engine",
    ErrorCategory.BAD_TEST_DATA: "undecodable test data",
    ErrorCategory.PROOF_REJECTED: "proof rejected",
    ErrorCategory.FORBIDDEN: "forbidden construct",
    ErrorCategory.SYNTAX_ERROR: "syntax error",
    ErrorCategory.PRE_POST_MISMATCH: "both pre/post mismatch",
    ErrorCategory.SPEC_CODE_MODIFIED: "spec/code modified",
    ErrorCategory.VERIFICATION_FAILURE: "verification failure",
    ErrorCategory.EXTRACTION_FAILED: "answer not extracted",
}

_ENGINE_MAP: dict[str, ErrorCategory] = {
    "parse": ErrorCategory.PARSE_ERROR,
    "elab": ErrorCategory.PARSE_ERROR,
    "unsupported": ErrorCategory.UNSUPPORTED,
    "timeout": ErrorCategory.TIMEOUT,
    "error": ErrorCategory.RUNTIME_ERROR,
    "crash": ErrorCategory.RUNTIME_ERROR,
    "undecided": ErrorCategory.UNDECIDED,
    "plausible_true": ErrorCategory.UNDECIDED,
    "plausible_false": ErrorCategory.UNDECIDED,
    "plausible_both": ErrorCategory.UNDECIDED,
    "output": ErrorCategory.UNDECIDED,
    "forbidden_construct": ErrorCategory.FORBIDDEN,
}


def from_engine_category(category: str) -> ErrorCategory:
    """The category of an engine's UNKNOWN verdict or non-value outcome."""
    return _ENGINE_MAP.get(category, ErrorCategory.UNDECIDED)
