"""Prompts and answer extraction for Verina's SpecGen, CodeGen and ProofGen (``veriscale generate``).

The structure follows Verina's harness (its reference in
``../shared/docs/reference/verina-harness.md``): the task's description, the
signatures the answer must fill (headers taken verbatim from ``task.lean``),
few-shot tasks shown with their ground-truth answers (Verina's two:
``verina_basic_15`` and ``verina_basic_44``), and a structured answer whose
parts map one to one onto the generation fields (``imports``, ``precond_aux``,
``precond``, … — docs/evaluate.md). The wording is our own.

The answer is one ```` ```lean ```` block divided by marker lines
``-- !answer <field>``; each part is the text of that field. Extraction:
the last Lean block (``formats/generation.pick_block``); every marker name must
be a field of the task kind (else ``wrong_name``); required fields must be
present (else ``wrong_name``) and non-empty (else ``empty``); a part written as
a whole ``def … :=`` of the target is cut to its body; forbidden Lean
(``sorry``, ``axiom``, ``#eval``, … — the Lean plug-in's policy) gives
``forbidden_construct``. A failed sample is still written, with empty fields
and ``meta.extraction_error``, so it is counted and never silently dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ...languages.lean.toolchain.forbidden import ForbiddenPolicy
from ...languages.registry import language
from ..generation import Extracted, pick_block, prompt_digest
from .dataset import FEWSHOT_IDS, Task

__all__ = ["FEWSHOT_IDS", "TASK_FIELDS", "VerinaGeneration"]

_LEAN = language("lean")
TASKS: tuple[str, ...] = ("specgen", "codegen", "proofgen")
TASK_KIND = {"specgen": "spec", "codegen": "code", "proofgen": "proof"}
TASK_FIELDS: dict[str, tuple[str, ...]] = {
    "specgen": ("imports", "precond_aux", "precond", "postcond_aux", "postcond"),
    "codegen": ("imports", "code_aux", "code"),
    "proofgen": ("imports", "proof_aux", "proof"),
}
REQUIRED: dict[str, tuple[str, ...]] = {
    "specgen": ("precond", "postcond"),
    "codegen": ("code",),
    "proofgen": ("proof",),
}
_MARK = re.compile(r"(?m)^[ \t]*--[ \t]*!answer[ \t]+([A-Za-z_]+)[ \t]*$")
_FORBIDDEN = ForbiddenPolicy()

_INSTRUCTION = {
    "specgen": (
        "You are an expert in Lean 4 and formal specification. Given a programming task, write its "
        "precondition (what every valid input satisfies) and its postcondition (what relates a valid "
        "input to a correct result). The postcondition must accept every correct result and reject every "
        "incorrect one; the precondition must be as weak as the task allows."
    ),
    "codegen": (
        "You are an expert Lean 4 programmer. Given a programming task with its formal precondition and "
        "postcondition, write the implementation: pure, total, computable Lean 4."
    ),
    "proofgen": (
        "You are an expert in Lean 4 theorem proving. Given a programming task, its implementation and its "
        "specification, prove that the implementation satisfies the postcondition on every input that "
        "satisfies the precondition."
    ),
}
_FIELD_HELP = {
    "imports": "import lines your answer needs (may be empty)",
    "precond_aux": "helper definitions used by the precondition (may be empty)",
    "precond": "the body of the precondition definition: a `Prop`, without the `def … :=` header",
    "postcond_aux": "helper definitions used by the postcondition (may be empty)",
    "postcond": "the body of the postcondition definition: a `Prop` about `result`, without the header",
    "code_aux": "helper definitions used by the implementation (may be empty)",
    "code": "the body of the implementation, without the `def … :=` header",
    "proof_aux": "helper lemmas used by the proof (may be empty)",
    "proof": "the tactic script that follows `:= by` in the theorem",
}
_RULES = (
    "Do not use `sorry`, `admit`, `axiom`, `partial`, `unsafe` or `#eval`.",
    "Keep the given names and signatures; put helper definitions in the `_aux` parts.",
    "Answer with exactly one ```lean block holding every part, each introduced by its marker line, "
    "and nothing outside it.",
)
_REPAIR = (
    "Your previous answer (above) is not correct. Here is what the checker reported:\n\n"
    "```text\n{feedback}\n```\n\n"
    "Write the corrected answer in the same format: one ```lean block with the `-- !answer` marker lines."
)


def _given(task: Task, kind: str) -> list[tuple[str, str]]:
    """(heading, Lean text) of what the model is given besides the description."""
    if kind == "specgen":
        return [
            ("Precondition signature", _LEAN.def_header(task, "precond").strip()),
            ("Postcondition signature", _LEAN.def_header(task, "postcond").strip()),
        ]
    spec = [
        ("Precondition", _LEAN.definition_text(task, "precond").strip()),
        ("Postcondition", _LEAN.definition_text(task, "postcond").strip()),
    ]
    if kind == "codegen":
        return [*spec, ("Implementation signature", _LEAN.def_header(task, "code").strip())]
    program = "\n\n".join(
        [
            _LEAN.definition_text(task, "precond").strip(),
            _LEAN.definition_text(task, "code").strip(),
            _LEAN.definition_text(task, "postcond").strip(),
        ]
    )
    return [("Program and specification", program), ("Theorem", _theorem(task))]


def _theorem(task: Task) -> str:
    """The correctness theorem's statement, up to ``:= by`` (Verina's harness regenerates it the same way)."""
    sig = task.signature
    params = " ".join(f"({p.name} : {p.type_str})" for p in sig.params)
    args = " ".join(f"({p.name})" for p in sig.params)
    return (
        f"theorem {sig.name}_spec_satisfied {params} (h_precond : {sig.name}_precond {args}) :\n"
        f"    {sig.name}_postcond {args} ({sig.name} {args} h_precond) h_precond := by"
    )


def _ground_truth(task: Task, kind: str) -> dict[str, str]:
    def sec(name: str) -> str:
        return task.section_text(name).strip("\n")

    imports = task.section_text("import", type="solution").strip()
    if kind == "specgen":
        aux = "\n".join(x for x in (sec("solution_aux"), sec("precond_aux")) if x.strip())
        return {
            "imports": imports,
            "precond_aux": aux,
            "precond": sec("precond"),
            "postcond_aux": sec("postcond_aux"),
            "postcond": sec("postcond"),
        }
    if kind == "codegen":
        return {"imports": imports, "code_aux": sec("code_aux"), "code": sec("code")}
    return {"imports": imports, "proof_aux": sec("proof_aux"), "proof": sec("proof")}


def _answer_text(kind: str, parts: dict[str, str]) -> str:
    lines = []
    for f in TASK_FIELDS[kind]:
        lines.append(f"-- !answer {f}")
        text = parts.get(f, "").strip("\n")
        if text.strip():
            lines.append(text)
    return "```lean\n" + "\n".join(lines) + "\n```"


def _task_text(task: Task, kind: str) -> str:
    out = [f"## Description\n{task.description.strip()}"]
    for heading, text in _given(task, kind):
        out.append(f"## {heading}\n```lean\n{text}\n```")
    return "\n\n".join(out)


def _strip_header(body: str, name: str) -> str:
    """A part the model wrote as ``[@[attrs]] def name … :=`` (or ``theorem … := by``): keep its body."""
    pat = re.compile(
        rf"^\s*(?:@\[[^\]]*\]\s*)*(?:def|theorem)\s+{re.escape(name)}(?![\w'.])[\s\S]*?:=[ \t]*(?:by\b)?[ \t]*\n?"
    )
    m = pat.match(body)
    return body[m.end() :] if m else body


class VerinaGeneration:
    kinds = TASKS
    default_examples = FEWSHOT_IDS

    def prompt_ident(self, kind: str) -> str:
        texts = [_INSTRUCTION[kind], *(_FIELD_HELP[f] for f in TASK_FIELDS[kind]), *_RULES, _REPAIR]
        return f"verina.{kind}@v1#{prompt_digest(*texts)}"

    def fewshot(self, tasks: Sequence[Task], kind: str) -> list[Task]:
        by_id = {t.id: t for t in tasks}
        return [by_id[i] for i in self.default_examples if i in by_id]

    def prompt(self, task: Task, kind: str, examples: Sequence[Task]) -> list[dict[str, str]]:
        fields = "\n".join(f"- `-- !answer {f}`: {_FIELD_HELP[f]}" for f in TASK_FIELDS[kind])
        system = (
            f"{_INSTRUCTION[kind]}\n\nAnswer format: one ```lean block divided by these marker lines, "
            f"in this order:\n{fields}\n\nRules:\n" + "\n".join(f"- {r}" for r in _RULES)
        )
        parts = []
        shown = [e for e in examples if e.id != task.id]
        for i, ex in enumerate(shown, start=1):
            parts.append(
                f"# Example {i}\n{_task_text(ex, kind)}\n\n## Answer\n{_answer_text(kind, _ground_truth(ex, kind))}"
            )
        parts.append(f"# Task\n{_task_text(task, kind)}\n\n## Answer")
        return [{"role": "system", "content": system}, {"role": "user", "content": "\n\n".join(parts)}]

    def repair_prompt(
        self, task: Task, kind: str, examples: Sequence[Task], previous: str, feedback: str
    ) -> list[dict[str, str]]:
        return [
            *self.prompt(task, kind, examples),
            {"role": "assistant", "content": previous},
            {"role": "user", "content": _REPAIR.format(feedback=feedback.strip() or "(no details)")},
        ]

    def extract(self, task: Task, kind: str, answer: str) -> Extracted:
        text, fail = pick_block(answer, ("lean", "lean4"))
        if fail is not None:
            return fail
        assert text is not None
        marks = list(_MARK.finditer(text))
        if not marks:
            return Extracted.fail("wrong_name", "no `-- !answer <field>` marker lines in the answer")
        allowed = TASK_FIELDS[kind]
        parts: dict[str, str] = {}
        for i, m in enumerate(marks):
            name = m.group(1)
            if name not in allowed:
                return Extracted.fail("wrong_name", f"unknown part {name!r} (expected {', '.join(allowed)})")
            if name in parts:
                return Extracted.fail("wrong_name", f"part {name!r} given twice")
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            parts[name] = text[m.end() : end].strip("\n")
        for name in REQUIRED[kind]:
            if name not in parts:
                return Extracted.fail("wrong_name", f"missing part {name!r}")
            if not parts[name].strip():
                return Extracted.fail("empty", f"part {name!r} is empty")
        target = task.signature.name
        names = {
            "precond": f"{target}_precond",
            "postcond": f"{target}_postcond",
            "code": target,
            "proof": f"{target}_spec_satisfied",
        }
        for name, defname in names.items():
            if name in parts:
                parts[name] = _strip_header(parts[name], defname)
                if not parts[name].strip():
                    return Extracted.fail("empty", f"part {name!r} has a header but no body")
        bad = [
            f"{v.word} ({name}, line {v.line})"
            for name in allowed
            if name != "imports"
            for v in _FORBIDDEN.violations(parts.get(name, ""))
        ]
        if bad:
            return Extracted.fail("forbidden_construct", "uses " + ", ".join(bad))
        return Extracted({f: parts.get(f, "") for f in allowed})

    def line(
        self, task: Task, kind: str, sample: int, model: str, ex: Extracted, meta: dict[str, Any]
    ) -> dict[str, Any]:
        out: dict[str, Any] = {
            "task_id": task.id,
            "sample": sample,
            "kind": [TASK_KIND[kind]],
            "model": model,
        }
        for f in TASK_FIELDS[kind]:
            out[f] = ex.fields.get(f, "")
        if ex.error is not None:
            meta = {**meta, "extraction_error": ex.error, "extraction_message": ex.message}
        out["meta"] = meta
        return out


VERINA_GENERATION = VerinaGeneration()
