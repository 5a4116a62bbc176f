"""Prompts and answer extraction for VeriContest's six tasks (``veriscale generate``).

The six tasks of the VeriContest paper (§5.1, prompts in its appendix), each a
single user message in the paper's structure — an instruction, a one-shot
example, the input field, the output field with the required ```` ```rust ````
fence, and the critical requirements. The wording is our own.

| task | the model gets | it returns |
|---|---|---|
| nl2spec | description | Verus program with only the specification |
| nl2code | description (with its starter code) | Rust program |
| spec2code | ``spec.rs`` | ``spec.rs`` with the code filled in |
| nl_spec2code | description + ``spec.rs`` | as spec2code |
| spec_code2proof | ``code_spec.rs`` | the verified program |
| end2end | description | a verified program (spec, code, proofs) |

The one-shot example is a real problem of the dataset, shown with its own
files as the answer: the first of ``DEFAULT_EXAMPLES`` (or the ids the user
gives) on the same site (LeetCode/Codeforces) as the target, never the target
itself. Extraction (``extract``) takes the last ```` ```rust ```` block, finds the
target function by the problem's own function name, and cuts out its
``requires``/``ensures`` clauses and body; failures get the categories of
``formats/generation.py`` (decided in that order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...languages.verus.forbidden import forbidden_constructs
from ...languages.verus.items import ScanError, SourceItems, scan_items
from ...languages.verus.lexer import LexError
from ..generation import Extracted, pick_block, prompt_digest
from .dataset import Problem

__all__ = ["DEFAULT_EXAMPLES", "TASKS", "VeriContestGeneration"]

TASKS: tuple[str, ...] = ("nl2spec", "nl2code", "spec2code", "nl_spec2code", "spec_code2proof", "end2end")
# Short problems whose files make a compact one-shot example (one per site).
DEFAULT_EXAMPLES: tuple[str, ...] = ("lc1523", "cf617A")

# Verification escape hatches: a spec/code/proof answer using one proves nothing.
_CHEATS = (
    "assume",
    "admit",
    "external_body",
    "external",
    "assume_specification",
    "external_fn_specification",
)
_CALL_CHEATS = frozenset({"assume", "admit"})  # only as calls: ``assume(`` / ``admit(``

_INSTRUCTION = {
    "nl2spec": (
        "You are a Verus expert. You receive a problem statement in natural language. "
        "Write the formal Verus specification of the function it asks for: the `requires` and "
        "`ensures` clauses of its signature, with any `spec fn` helpers they use."
    ),
    "nl2code": (
        "You are a Rust expert. You receive a problem statement in natural language. "
        "Write the Rust program that solves it, keeping the function name and signature of the starter code."
    ),
    "spec2code": (
        "You are a Verus expert. You receive a Verus specification whose function body is empty. "
        "Write the executable Rust code of the body so that the function meets its specification."
    ),
    "nl_spec2code": (
        "You are a Verus expert. You receive a problem statement and its Verus specification, whose "
        "function body is empty. Write the executable Rust code of the body that solves the problem."
    ),
    "spec_code2proof": (
        "You are a Verus expert. You receive a Verus program: a specification together with its "
        "executable Rust code. Add the proof annotations (loop invariants, decreases clauses, assertions, "
        "lemmas) that make Verus verify the program."
    ),
    "end2end": (
        "You are a Verus expert. You receive a problem statement in natural language. Write a complete "
        "Verus program for it that verifies: the specification (`requires`/`ensures`), the executable code "
        "and the proofs."
    ),
}
_OUTPUT = {
    "nl2spec": "the Verus program holding only the specification (the function keeps an empty body)",
    "nl2code": "the Rust program",
    "spec2code": "the Verus program: the given specification with the body filled in",
    "nl_spec2code": "the Verus program: the given specification with the body filled in",
    "spec_code2proof": "the verified Verus program",
    "end2end": "the verified Verus program",
}
_REQUIREMENTS = {
    "nl2spec": ["Write the specification only: no executable code and no proofs."],
    "nl2code": [
        "Keep the function name and parameter types of the starter code.",
        "The code must be efficient enough for the problem's limits.",
    ],
    "spec2code": [
        "Keep the given specification exactly as it is; write code only, no proofs.",
        "The code must be efficient enough for the problem's limits.",
    ],
    "nl_spec2code": [
        "Keep the given specification exactly as it is; write code only, no proofs.",
        "The code must be efficient enough for the problem's limits.",
    ],
    "spec_code2proof": [
        "Keep the given executable code and specification exactly as they are; only add proofs.",
        "Never use `assume`, `admit` or `#[verifier::external_body]`.",
    ],
    "end2end": [
        "Give the specification, the code and the proofs together in one program.",
        "Never use `assume`, `admit` or `#[verifier::external_body]`.",
        "The code must be efficient enough for the problem's limits.",
    ],
}
_COMMON_REQUIREMENT = (
    "Answer with exactly one ```rust fenced block holding the whole program, and nothing outside it: "
    "no explanation and no alternative versions."
)
_REPAIR = (
    "Your previous answer (above) is not correct. Here is what the checker reported:\n\n"
    "```text\n{feedback}\n```\n\n"
    "Write the corrected program. The requirements of the task still hold; answer with exactly one "
    "```rust fenced block holding the whole program."
)


def _fence(text: str, lang: str = "") -> str:
    body = text.strip("\n")
    fence = "```"
    while fence in body:
        fence += "`"
    return f"{fence}{lang}\n{body}\n{fence}"


def _nl_code(p: Problem) -> str:
    """The reference solution as nl2code wants it: Codeforces keeps its ``main``."""
    return p.main if p.kind == "codeforces" and p.main else p.code


def _inputs(p: Problem, kind: str) -> list[tuple[str, str, str]]:
    """(heading, text, fence language) of the task's input field."""
    desc = ("Problem description", p.description.strip(), "")
    if kind in ("nl2spec", "nl2code", "end2end"):
        return [desc]
    if kind == "spec2code":
        return [("Verus specification", p.spec, "rust")]
    if kind == "nl_spec2code":
        return [desc, ("Verus specification", p.spec, "rust")]
    return [("Verus program", p.code_spec, "rust")]  # spec_code2proof


def _answer_of(p: Problem, kind: str) -> str:
    """The dataset's own answer of ``kind`` for ``p`` (the one-shot example's output)."""
    if kind == "nl2spec":
        return p.spec
    if kind == "nl2code":
        return _nl_code(p)
    if kind in ("spec2code", "nl_spec2code"):
        return p.code_spec
    return p.verified


def _input_field(p: Problem, kind: str) -> str:
    parts = []
    for heading, text, lang in _inputs(p, kind):
        parts.append(f"## {heading}\n{_fence(text, lang)}")
    return "\n\n".join(parts)


def _prompt_text(p: Problem, kind: str, example: Problem | None) -> str:
    reqs = [*_REQUIREMENTS[kind], _COMMON_REQUIREMENT]
    out = [f"# Instruction\n{_INSTRUCTION[kind]}"]
    if example is not None:
        out.append(
            "# Example\nAn input and its correct output, for another problem:\n\n"
            f"{_input_field(example, kind)}\n\n## Output\n{_fence(_answer_of(example, kind), 'rust')}"
        )
    out.append(f"# Input\n{_input_field(p, kind)}")
    out.append(f"# Output\nGive {_OUTPUT[kind]} in a ```rust fenced block:\n\n```rust\n...\n```")
    out.append("# Requirements\n" + "\n".join(f"- {r}" for r in reqs))
    return "\n\n".join(out)


def _clause_text(items: SourceItems, fn: Any, keyword: str) -> str:
    c = fn.clause(keyword)
    if c is None or not c.exprs:
        return ""
    return items.text(c.exprs[0][0], c.exprs[-1][1])


def _cheats(items: SourceItems) -> list[str]:
    found: set[str] = set()
    toks = items.toks
    for i, t in enumerate(toks):
        if t.kind != "ident" or t.text not in _CHEATS:
            continue
        if t.text in _CALL_CHEATS:
            if i + 1 < len(toks) and toks[i + 1].is_("("):
                found.add(f"{t.text}(…)")
        elif t.text == "external":
            # only as the attribute ``#[verifier::external]`` / ``#[verifier(external)]``
            if i >= 2 and (toks[i - 1].is_("::") or toks[i - 1].is_("(")) and toks[i - 2].text == "verifier":
                found.add("verifier::external")
        else:
            found.add(t.text)
    return sorted(found)


class VeriContestGeneration:
    kinds = TASKS
    default_examples = DEFAULT_EXAMPLES

    def prompt_ident(self, kind: str) -> str:
        texts = [_INSTRUCTION[kind], _OUTPUT[kind], *_REQUIREMENTS[kind], _COMMON_REQUIREMENT, _REPAIR]
        return f"vericontest.{kind}@v1#{prompt_digest(*texts)}"

    def fewshot(self, tasks: Sequence[Problem], kind: str) -> list[Problem]:
        by_id = {t.id: t for t in tasks}
        return [by_id[i] for i in self.default_examples if i in by_id]

    def _example(self, task: Problem, examples: Sequence[Problem]) -> Problem | None:
        others = [e for e in examples if e.id != task.id]
        same = [e for e in others if e.kind == task.kind]
        return (same or others or [None])[0]

    def prompt(self, task: Problem, kind: str, examples: Sequence[Problem]) -> list[dict[str, str]]:
        return [{"role": "user", "content": _prompt_text(task, kind, self._example(task, examples))}]

    def repair_prompt(
        self, task: Problem, kind: str, examples: Sequence[Problem], previous: str, feedback: str
    ) -> list[dict[str, str]]:
        return [
            *self.prompt(task, kind, examples),
            {"role": "assistant", "content": previous},
            {"role": "user", "content": _REPAIR.format(feedback=feedback.strip() or "(no details)")},
        ]

    def extract(self, task: Problem, kind: str, answer: str) -> Extracted:
        program, fail = pick_block(answer, ("rust", "rs", "verus"))
        if fail is not None:
            return fail
        assert program is not None
        name = task.signature.name
        if "fn " not in program:
            return Extracted.fail("no_program", "no fenced block and no Rust function in the answer")
        try:
            items = scan_items(program)
        except (ScanError, LexError) as exc:
            return Extracted.fail("parse_error", f"the program cannot be scanned: {exc}")
        fn = items.fn(name, task.signature.owner) or items.fn(name)
        if fn is None:
            found = sorted({f.name for f in items.fns if f.mode == "exec" and f.name != "main"})
            return Extracted.fail(
                "wrong_name",
                f"no function {name!r} in the program (found: {', '.join(found) or 'none'})",
            )
        bad = [f"{v.construct} (line {v.line})" for v in forbidden_constructs(program)]
        if kind != "nl2code":
            bad += _cheats(items)
        if bad:
            return Extracted.fail("forbidden_construct", "uses " + ", ".join(bad))
        has_spec = kind != "nl2code" or fn.clauses
        fields: dict[str, Any] = {
            "program": program,
            "fn_name": fn.name,
            "requires": _clause_text(items, fn, "requires") if has_spec else None,
            "ensures": _clause_text(items, fn, "ensures") if has_spec else None,
            "code": None,
        }
        if kind != "nl2spec" and fn.body is not None:
            fields["code"] = items.text(fn.body[0] + 1, fn.body[1])
        return Extracted(fields)

    def line(
        self, task: Problem, kind: str, sample: int, model: str, ex: Extracted, meta: dict[str, Any]
    ) -> dict[str, Any]:
        out: dict[str, Any] = {"task_id": task.id, "task": kind, "sample": sample, "model": model}
        for name in ("program", "fn_name", "requires", "ensures", "code"):
            out[name] = ex.fields.get(name)
        out["extraction_error"] = ex.error
        out["extraction_message"] = ex.message
        out["meta"] = meta
        return out


VERICONTEST_GENERATION = VeriContestGeneration()
