"""Template fields built from a Verina task, one builder per prompt template.

Headers (``def f_precond (a : Int) : Prop :=``) are taken verbatim from the
task's ``task.lean`` (the lines between a section's opening marker and the
marker before it), so implicit arguments and odd spacing survive; when the file
does not have that layout they are rebuilt from ``task.json``'s signature.
"""

from __future__ import annotations

import json
from typing import Any

from ..formats.verina.dataset import Task
from ..languages.registry import language

_LEAN = language("lean")

__all__ = [
    "adversarial_fields",
    "decompose_fields",
    "def_header",
    "definition_text",
    "eval_codegen_fields",
    "eval_specgen_fields",
    "seed_fields",
    "signature_of",
    "spec_gen_fields",
    "split_targets",
]


def split_targets(count: int) -> tuple[int, int]:
    """(valid, invalid) targets for ``count`` seed inputs: about a fifth invalid, at least two."""
    invalid = min(count, max(2, round(count * 0.2)))
    return count - invalid, invalid


def def_header(task: Task, section: str) -> str:
    """The lines that open the definition whose body is ``section`` (attributes, ``def ... :=``)."""
    return _LEAN.def_header(task, section)


def signature_of(task: Task, section: str) -> str:
    """``def name (args) : T`` of a definition: from ``def`` up to, not including, ``:=``."""
    header = def_header(task, section)
    text = header[header.index("def ") :]
    return text.rsplit(":=", 1)[0].rstrip()


def definition_text(task: Task, section: str) -> str:
    """The whole ground-truth definition (its ``*_aux`` helpers first), markers removed."""
    return _LEAN.definition_text(task, section)


def _params_json(task: Task) -> str:
    return json.dumps(
        {"parameters": [{"param_name": p.name, "param_type": p.type_str} for p in task.signature.params]},
        ensure_ascii=False,
        indent=2,
    )


def _examples(rows: list[dict[str, Any]], limit: int) -> str:
    if not rows[:limit]:
        return "(none)"
    return json.dumps([{"input": r} for r in rows[:limit]], ensure_ascii=False, indent=2)


def seed_fields(task: Task, count: int = 40, example_limit: int = 5) -> dict[str, Any]:
    valid, invalid = split_targets(count)
    return {
        "description": task.description.strip(),
        "precondition": definition_text(task, "precond"),
        "parameters": _params_json(task),
        "count": str(count),
        "valid_target": str(valid),
        "invalid_target": str(invalid),
        "valid_examples": _examples([t.input for t in task.tests], example_limit),
        "invalid_examples": _examples([r.input for r in task.reject_inputs], example_limit),
    }


def decompose_fields(task: Task) -> dict[str, Any]:
    return {"description": task.description.strip()}


def spec_gen_fields(task: Task, input_model: str, output_model: str) -> dict[str, Any]:
    return {
        "description": task.description.strip(),
        "input_model": input_model.strip(),
        "output_model": output_model.strip(),
        "precond_signature": signature_of(task, "precond"),
        "postcond_signature": signature_of(task, "postcond"),
    }


def adversarial_fields(task: Task, precondition: str, postcondition: str, count: int = 5) -> dict[str, Any]:
    """``precondition``/``postcondition`` are the (generated) definitions under attack."""
    return {
        "description": task.description.strip(),
        "precondition": precondition.strip(),
        "postcondition": postcondition.strip(),
        "impl_signature": signature_of(task, "code"),
        "function_name": task.signature.name,
        "count": str(count),
    }


def eval_specgen_fields(task: Task) -> dict[str, Any]:
    return {
        "description": task.description.strip(),
        "precond_signature": signature_of(task, "precond"),
        "postcond_signature": signature_of(task, "postcond"),
    }


def eval_codegen_fields(task: Task) -> dict[str, Any]:
    return {
        "description": task.description.strip(),
        "precondition": definition_text(task, "precond"),
        "postcondition": definition_text(task, "postcond"),
        "impl_signature": signature_of(task, "code"),
    }
