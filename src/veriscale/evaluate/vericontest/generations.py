"""VeriContest generations: one whole Rust/Verus program per problem, task and sample.

Format (UTF-8 JSON Lines; one object per line; blank lines ignored)::

    {"task_id": "lc1", "sample": 0, "task": "nl2code", "program": "impl Solution { ... }"}

=====================  ====================================================
``task_id``            required; the problem's folder name (``lc1``, ``cf1006C``)
``task``               required; one of ``nl2spec``, ``nl2code``, ``spec2code``,
                       ``nl_spec2code``, ``spec_code2proof``, ``end2end``
``sample``             sample index >= 0 (default 0)
``program``            the program the model answered (the content of its
                       ```` ```rust ```` fence); required unless ``extraction_error``
``extraction_error``   null, or the category of a failed extraction (``empty``,
                       ``huge_output``, ``unclosed_fence``, ``no_program``, ``wrong_name``,
                       ``parse_error``, ``forbidden_construct``): the sample FAILs
                       without running (``parse_error``/``wrong_name`` as
                       ``syntax_error``, ``forbidden_construct`` as such, the
                       others as ``extraction_failed``)
``extraction_message`` optional one-line reason of the extraction failure
``fn_name``, ``requires``, ``ensures``, ``code``  optional (``veriscale generate``
                       writes them); checked to be strings or null, not scored
``model``              optional label; samples of different models are scored apart
``meta``               optional, any JSON; carried along, never interpreted
=====================  ====================================================

A repeated (model, task_id, task, sample) is an error. Bad lines are reported
as ``FILE:LINE: field 'x': message``, skipped, and the rest is read.
``ground_truth_generation`` builds the line a problem's own files answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..generations import GenerationError

__all__ = [
    "CODE_TASKS",
    "PROOF_TASKS",
    "SPEC_GIVEN_CODE_TASKS",
    "VC_TASKS",
    "VcGeneration",
    "VcGenerationSet",
    "ground_truth_generation",
    "is_vericontest_line",
    "parse_vc_generations",
    "read_vc_generations",
]

VC_TASKS: tuple[str, ...] = ("nl2spec", "nl2code", "spec2code", "nl_spec2code", "spec_code2proof", "end2end")
CODE_TASKS: tuple[str, ...] = ("nl2code", "spec2code", "nl_spec2code")
# code tasks given ``spec.rs``: the answer must keep its specification token for token
SPEC_GIVEN_CODE_TASKS: tuple[str, ...] = ("spec2code", "nl_spec2code")
PROOF_TASKS: tuple[str, ...] = ("spec_code2proof", "end2end")
_FIELDS = frozenset({"task_id", "task", "sample", "program", "extraction_error", "model", "meta"})
# written by ``veriscale generate`` for convenience; read (type-checked) but not scored: the
# evaluator works on ``program`` itself
_INFO_FIELDS = frozenset({"fn_name", "requires", "ensures", "code", "extraction_message"})


@dataclass(frozen=True)
class VcGeneration:
    task_id: str
    task: str
    sample: int = 0
    program: str = ""
    extraction_error: str | None = None
    model: str | None = None
    meta: Any = None
    line: int = 0
    extraction_message: str | None = None

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.model or "", self.task_id, self.task, self.sample)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task_id": self.task_id, "task": self.task, "sample": self.sample}
        if self.extraction_error is not None:
            out["extraction_error"] = self.extraction_error
        else:
            out["program"] = self.program
        if self.model is not None:
            out["model"] = self.model
        if self.meta is not None:
            out["meta"] = self.meta
        return out


@dataclass
class VcGenerationSet:
    generations: list[VcGeneration] = field(default_factory=list)
    errors: list[GenerationError] = field(default_factory=list)


def is_vericontest_line(obj: Any) -> bool:
    """A line in this format names a VeriContest ``task`` (Verina's lines use ``kind``)."""
    return isinstance(obj, dict) and isinstance(obj.get("task"), str) and obj["task"] in VC_TASKS


def _parse(obj: Any, file: str, line: int) -> VcGeneration:
    def err(msg: str, fld: str | None = None) -> GenerationError:
        return GenerationError(msg, file=file, line=line, field=fld)

    if not isinstance(obj, dict):
        raise err("a line must be a JSON object")
    for k in sorted(obj):
        if k not in _FIELDS and k not in _INFO_FIELDS:
            raise err(f"unknown field (expected one of {', '.join(sorted(_FIELDS | _INFO_FIELDS))})", k)
        if k in _INFO_FIELDS and obj[k] is not None and not isinstance(obj[k], str):
            raise err("must be a string or null", k)
    tid = obj.get("task_id")
    if not isinstance(tid, str) or not tid.strip():
        raise err("required, a non-empty string", "task_id")
    task = obj.get("task")
    if task not in VC_TASKS:
        raise err(f"required, one of {', '.join(VC_TASKS)}", "task")
    sample = obj.get("sample", 0)
    if not isinstance(sample, int) or isinstance(sample, bool) or sample < 0:
        raise err("must be an integer >= 0", "sample")
    model = obj.get("model")
    if model is not None and not isinstance(model, str):
        raise err("must be a string", "model")
    xerr = obj.get("extraction_error")
    if xerr is not None and not isinstance(xerr, str):
        raise err("must be a string", "extraction_error")
    program = obj.get("program")
    if program is None and xerr is None:
        raise err("required (or give extraction_error)", "program")
    if program is not None and not isinstance(program, str):
        raise err("must be a string", "program")
    return VcGeneration(
        tid.strip(),
        task,
        sample,
        program or "",
        xerr,
        model,
        obj.get("meta"),
        line,
        obj.get("extraction_message"),
    )


def parse_vc_generations(lines: list[str], file: str = "<generations>") -> VcGenerationSet:
    out = VcGenerationSet()
    seen: set[tuple[str, str, str, int]] = set()
    for n, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except ValueError as exc:
            out.errors.append(GenerationError(f"invalid JSON: {exc}", file=file, line=n))
            continue
        try:
            g = _parse(obj, file, n)
        except GenerationError as exc:
            out.errors.append(exc)
            continue
        if g.key in seen:
            out.errors.append(
                GenerationError(
                    f"repeated sample {g.sample} of {g.task_id} / {g.task}", file=file, line=n, field="sample"
                )
            )
            continue
        seen.add(g.key)
        out.generations.append(g)
    return out


def read_vc_generations(path: Path | str) -> VcGenerationSet:
    p = Path(path)
    return parse_vc_generations(p.read_text(encoding="utf-8").splitlines(), str(p))


def ground_truth_generation(problem: Any, task: str, sample: int = 0) -> VcGeneration:
    """The answer a problem's own files give: ``spec.rs`` for nl2spec, ``code_spec.rs`` for the code
    tasks (its specification is kept, as spec2code asks), ``verified.rs`` for the proof tasks."""
    if task == "nl2spec":
        program = problem.spec
    elif task in CODE_TASKS:
        program = problem.code_spec
    else:
        program = problem.verified
    return VcGeneration(problem.id, task, sample, program)
