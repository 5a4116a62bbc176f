"""Ground-truth check of a VeriContest problem's own test files (``veriscale check``).

When a problem folder holds ``tests/testcases.jsonl`` / ``tests/mutated_testcases.jsonl``
(hosted upstream data or a veriscale suite), every positive must satisfy the
ground-truth ``requires`` and be accepted by its ``ensures`` (soundness), and
every negative must be rejected by the ``ensures`` (completeness). Verdicts are
batched (one compiled-checker process per file); a line that does not decode is
counted as ``undecodable`` with its file and line number. Agreement is the share
of decided verdicts that are the expected ones; UNKNOWN is counted separately.
"""

from __future__ import annotations

from typing import Any

from ...formats.vericontest.suite_files import NEGATIVES, POSITIVES, read_suite_files
from ...values.codec import DecodeError

__all__ = ["check_suite_files", "summarize_suites"]


def _decode(te: Any, rows: list[dict[str, Any]], fname: str, errors: list[str]) -> list[tuple[Any, Any]]:
    out = []
    for n, r in enumerate(rows, 1):
        try:
            out.append((te.decode_inputs(r["input"]), te.decode_output(r["output"])))
        except (DecodeError, TypeError, ValueError, KeyError, AttributeError) as exc:
            errors.append(f"{fname}:{n}: does not decode: {exc}")
    return out


def _tally(verdicts: list[Any]) -> dict[str, int]:
    return {
        "TRUE": sum(v.is_true for v in verdicts),
        "FALSE": sum(v.is_false for v in verdicts),
        "UNKNOWN": sum(v.is_unknown for v in verdicts),
    }


def check_suite_files(problem: Any, te: Any) -> dict[str, Any] | None:
    """Verdict counts on the problem's test files, or None when it has none."""
    files = read_suite_files(problem.path)
    if files is None:
        return None
    errors = list(files.errors)
    pos = _decode(te, files.positives, POSITIVES, errors)
    neg = _decode(te, files.negatives, NEGATIVES, errors)
    pre = te.preconditions([i for i, _ in pos]) if pos else []
    post = te.postconditions(pos) if pos else []
    nposts = te.postconditions(neg) if neg else []
    bad: list[str] = []
    for k, (a, b) in enumerate(zip(pre, post), 1):
        if a.is_false or b.is_false:
            bad.append(f"{POSITIVES}:{k}: {'requires' if a.is_false else 'ensures'} rejects a positive")
    for k, v in enumerate(nposts, 1):
        if v.is_true:
            bad.append(f"{NEGATIVES}:{k}: ensures accepts a negative")
    return {
        "positives": len(files.positives),
        "negatives": len(files.negatives),
        "undecodable": len(errors),
        "requires": _tally(pre),
        "ensures_positives": _tally(post),
        "ensures_negatives": _tally(nposts),
        "disagreements": bad[:20],
        "errors": errors[:20],
    }


def summarize_suites(suites: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals over problems: expected verdicts, contrary ones, UNKNOWN, agreement among decided."""
    tot = {"problems": len(suites), "positives": 0, "negatives": 0, "undecodable": 0, "expected": 0,
           "contrary": 0, "unknown": 0}  # fmt: skip
    for s in suites:
        tot["positives"] += s["positives"]
        tot["negatives"] += s["negatives"]
        tot["undecodable"] += s["undecodable"]
        tot["expected"] += (
            s["requires"]["TRUE"] + s["ensures_positives"]["TRUE"] + s["ensures_negatives"]["FALSE"]
        )
        tot["contrary"] += (
            s["requires"]["FALSE"] + s["ensures_positives"]["FALSE"] + s["ensures_negatives"]["TRUE"]
        )
        tot["unknown"] += (s["requires"]["UNKNOWN"] + s["ensures_positives"]["UNKNOWN"]
                           + s["ensures_negatives"]["UNKNOWN"])  # fmt: skip
    decided = tot["expected"] + tot["contrary"]
    tot["agreement"] = round(tot["expected"] / decided, 6) if decided else None
    return tot
