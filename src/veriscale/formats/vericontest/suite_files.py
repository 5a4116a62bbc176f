"""VeriContest's own test files: ``tests/testcases.jsonl``, ``tests/mutated_testcases.jsonl``.

One line per case, ``{"input": {"<param>": <json>, …}, "output": <json>}``: keys
are the reference's parameter names in parameter order, objects use ``", "`` and
``": "`` separators and arrays are compact (the shape upstream's harness prints).
Codeforces problems are written in the same function-level form (structured
inputs of the ``impl Solution`` method), not as stdin/stdout text.

``tests/provenance.json`` (veriscale's own) records, per positive, its input
family and the mutants it kills, and per negative the positive it pairs with and
its source (``syntactic:<mutant id>`` or ``direct``).

``read_suite_files(dir)`` reads the two JSONL files when a problem has them
(hosted upstream data or a veriscale suite): bad lines are reported with file
and line number, never fatal.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...runtime.files import atomic_write_json

__all__ = [
    "NEGATIVES",
    "POSITIVES",
    "PROVENANCE",
    "SuiteFiles",
    "dumps_line",
    "read_suite_files",
    "write_problem_suite",
]  # fmt: skip

POSITIVES = "tests/testcases.jsonl"
NEGATIVES = "tests/mutated_testcases.jsonl"
PROVENANCE = "tests/provenance.json"
_PROBLEM_FILES = ("description.md", "tags", "code.rs", "spec.rs", "code_spec.rs", "verified.rs", "main.rs")


def _enc(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {_enc(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(_enc(x) for x in v) + "]"
    return json.dumps(v, ensure_ascii=False)


def dumps_line(inp: Any, out: Any) -> str:
    """One test-file line in upstream's shape."""
    return "{" + f'"input": {_enc(inp)}, "output": {_enc(out)}' + "}"


@dataclass
class SuiteFiles:
    positives: list[dict[str, Any]] = field(default_factory=list)  # {"input", "output"}
    negatives: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # "<file>:<line>: why"


def _read_jsonl(path: Path, errors: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as exc:
            errors.append(f"{path}:{n}: not JSON ({exc})")
            continue
        if not isinstance(obj, dict) or "output" not in obj:
            errors.append(f'{path}:{n}: not an object with an "output" field')
            continue
        if "input" not in obj:  # the flattened form (Post2Exe merges the input into the top level)
            obj = {"input": {k: v for k, v in obj.items() if k != "output"}, "output": obj["output"]}
        out.append({"input": obj["input"], "output": obj["output"]})
    return out


def read_suite_files(problem_dir: Path) -> SuiteFiles | None:
    """The problem's test files, or None when it has neither."""
    pos, neg = problem_dir / POSITIVES, problem_dir / NEGATIVES
    if not pos.is_file() and not neg.is_file():
        return None
    sf = SuiteFiles()
    if pos.is_file():
        sf.positives = _read_jsonl(pos, sf.errors)
    if neg.is_file():
        sf.negatives = _read_jsonl(neg, sf.errors)
    return sf


def write_problem_suite(src_dir: Path, dest: Path, positives: list[dict[str, Any]],
                        negatives: list[dict[str, Any]], provenance: dict[str, Any]) -> None:  # fmt: skip
    """A problem folder under ``dest``: the original files plus the two test files and provenance."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in _PROBLEM_FILES:
        if (src_dir / name).is_file():
            shutil.copyfile(src_dir / name, dest / name)
    (dest / "tests").mkdir(exist_ok=True)
    (dest / POSITIVES).write_text("".join(dumps_line(p["input"], p["output"]) + "\n" for p in positives),
                                  encoding="utf-8")  # fmt: skip
    (dest / NEGATIVES).write_text("".join(dumps_line(p["input"], p["output"]) + "\n" for p in negatives),
                                  encoding="utf-8")  # fmt: skip
    atomic_write_json(dest / PROVENANCE, provenance)
