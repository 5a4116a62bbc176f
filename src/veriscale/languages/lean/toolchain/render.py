"""Lean file generation: one file per task and check kind, every case bracketed by markers.

The task's definitions are rendered the way Verina's harness renders them:
headers regenerated from the signature, bodies under ``-- !benchmark`` markers
and indented by its rule (a body that starts with two spaces is kept, any other
gets two spaces added to every line), imports merged at the top. Then come the
cases, each one::

    #print "<<vs:NONCE:I:begin>>"
    <the case's commands>
    #print "<<vs:NONCE:I:end>>"

``NONCE`` is derived from the file's content, so text printed by the code under
test cannot fake a marker, and equal files stay byte-identical. The line range
of every case is recorded so that positioned messages can be attributed by
line number as well as by marker.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from veriscale.values.codec import encode_lean
from veriscale.values.structs import StructInfo
from veriscale.values.types import Type

from ..sections import DEFINITION_SECTIONS, SECTION_DEFAULTS, SECTION_NAMES

__all__ = [
    "CHECK_KINDS",
    "PLAUSIBLE_TACTIC",
    "SIMP_ALL",
    "SIMP_STAR",
    "LeanFile",
    "TaskSource",
    "eval_run",
    "guard_postcond",
    "guard_precond",
    "indent_body",
    "make_aux_testable",
    "merge_imports",
    "plausible_postcond",
    "plausible_precond",
    "render_arg",
    "render_check_file",
    "render_definitions",
    "render_file",
    "render_theorem",
]

# The exact tactic lines of Verina's plausible templates.
PLAUSIBLE_TACTIC = (
    "plausible ( config := { numInst := 1000, maxSize := 100, numRetries := 20, randomSeed := some 42})"
)
SIMP_ALL = "simp_all! (config := { failIfUnchanged := false })"
SIMP_STAR = "simp (config := { failIfUnchanged := false }) [*]"

# Which definitions each kind of check needs (Verina's spec test files leave the code out).
CHECK_KINDS: dict[str, tuple[str, ...]] = {
    "precond": ("task_aux", "solution_aux", "precond_aux", "precond"),
    "run": ("task_aux", "solution_aux", "precond_aux", "precond", "code_aux", "code"),
    "postcond": ("task_aux", "solution_aux", "precond_aux", "precond", "postcond_aux", "postcond"),
    "all": DEFINITION_SECTIONS,
}

_SECTION_NAMES = SECTION_NAMES[1:]  # every section but the imports


@dataclass(frozen=True)
class TaskSource:
    """Everything needed to render a task's Lean definitions.

    ``params`` are (name, type text, parsed type); type texts are pasted verbatim
    into headers, as Verina does. ``imports`` are the task's and solution's import
    lines (plus a candidate's), merged in first-occurrence order.
    """

    task_id: str
    fn_name: str
    params: tuple[tuple[str, str, Type], ...]
    return_type_str: str
    return_type: Type
    imports: tuple[str, ...]
    sections: Mapping[str, str]
    structs: Mapping[str, StructInfo] = field(default_factory=dict)
    task_imports: tuple[str, ...] = ()

    @classmethod
    def from_task(cls, task: Any, overrides: Mapping[str, str] | None = None) -> TaskSource:
        """From a ``benchmarks.verina.Task``; ``overrides`` replaces sections (and ``"imports"``)."""
        sections: dict[str, str] = {}
        for name in _SECTION_NAMES:
            text = task.section_text(name)
            if not text.strip() and name in SECTION_DEFAULTS:
                text = SECTION_DEFAULTS[name]
            sections[name] = text
        extra_imports = ""
        for name, text in (overrides or {}).items():
            if name == "imports":
                extra_imports = text
            elif name in _SECTION_NAMES:
                sections[name] = text  # a candidate's blank section stays blank (Verina: no default)
            else:
                raise ValueError(f"unknown section override {name!r}")
        task_imports = merge_imports(task.section_text("import", type="task"))
        imports = merge_imports(
            task.section_text("import", type="task"),
            task.section_text("import", type="solution"),
            extra_imports,
        )
        sig = task.signature
        return cls(
            task_id=task.id,
            fn_name=sig.name,
            params=tuple((p.name, p.type_str, p.type) for p in sig.params),
            return_type_str=sig.return_type_str,
            return_type=sig.return_type,
            imports=tuple(imports),
            sections=sections,
            structs=dict(task.structs),
            task_imports=tuple(task_imports),
        )

    # ---- header pieces
    def binders(self, space: bool = True) -> str:
        sep = " : " if space else ": "
        return " ".join(f"({name}{sep}{tstr})" for name, tstr, _ in self.params)

    def call_args(self) -> str:
        return " ".join(f"({name})" for name, _, _ in self.params)

    @property
    def precond_name(self) -> str:
        return f"{self.fn_name}_precond"

    @property
    def postcond_name(self) -> str:
        return f"{self.fn_name}_postcond"

    @property
    def theorem_name(self) -> str:
        return f"{self.fn_name}_postcond_satisfied"

    @property
    def uses_mathlib(self) -> bool:
        return any(_imports_mathlib(line) for line in self.imports)


def _imports_mathlib(line: str) -> bool:
    words = line.split()
    return (
        len(words) >= 2
        and words[0] == "import"
        and (words[1] == "Mathlib" or words[1].startswith("Mathlib."))
    )


def merge_imports(*blocks: str) -> list[str]:
    """Non-blank stripped lines of the blocks, first occurrence kept (Verina dedups with a set;
    we keep file order so the output is deterministic)."""
    seen: set[str] = set()
    out: list[str] = []
    for block in blocks:
        for line in block.splitlines():
            s = line.strip()
            if s and s not in seen:
                seen.add(s)
                out.append(s)
    return out


def indent_body(text: str) -> str:
    """Verina's body rule: kept if it starts with two spaces, else two spaces before every line."""
    body = text.rstrip("\n")
    if body.startswith("  "):
        return body
    return "\n".join("  " + line for line in body.split("\n"))


_DEF_AT_COL0 = re.compile(r"^def\s")


def make_aux_testable(aux: str) -> str:
    """Prefix ``@[reducible, simp]`` to column-0 ``def``s so instance search and ``simp`` see
    through them (Verina does this to spec auxiliaries). A def already carrying attributes on
    its line or the line before is left alone: Lean accepts one attribute block per declaration."""
    lines = aux.split("\n")
    out: list[str] = []
    for i, line in enumerate(lines):
        prev = lines[i - 1].strip() if i > 0 else ""
        if _DEF_AT_COL0.match(line) and not prev.startswith("@[") and "@[" not in line:
            out.append("@[reducible, simp] " + line)
        else:
            out.append(line)
    return "\n".join(out)


def _aux_block(name: str, text: str) -> str:
    return f"-- !benchmark @start {name}\n{text.strip(chr(10))}\n-- !benchmark @end {name}\n"


def _body_block(name: str, text: str) -> str:
    return f"  -- !benchmark @start {name}\n{indent_body(text)}\n  -- !benchmark @end {name}\n"


def render_definitions(src: TaskSource, kind: str, *, testable_aux: bool | None = None) -> str:
    """The task's definitions needed by ``kind`` ("precond", "run", "postcond" or "all")."""
    wanted = CHECK_KINDS[kind]
    testable = kind in ("precond", "postcond") if testable_aux is None else testable_aux
    s = src.sections
    parts: list[str] = []

    def aux(name: str) -> None:
        text = s.get(name, "")
        if testable and name in ("precond_aux", "postcond_aux"):
            text = make_aux_testable(text)
        parts.append(_aux_block(name, text))

    ret = src.return_type_str
    for name in wanted:
        if name.endswith("_aux"):
            aux(name)
        elif name == "precond":
            parts.append(
                f"@[reducible, simp]\ndef {src.precond_name} {src.binders()} : Prop :=\n"
                + _body_block("precond", s.get("precond", ""))
            )
        elif name == "code":
            parts.append(
                f"def {src.fn_name} {src.binders()} (h_precond : {src.precond_name} {src.call_args()}) : {ret} :=\n"
                + _body_block("code", s.get("code", ""))
            )
        elif name == "postcond":
            parts.append(
                f"@[reducible, simp]\ndef {src.postcond_name} {src.binders()} (result: {ret}) "
                f"(h_precond : {src.precond_name} {src.call_args()}) : Prop :=\n"
                + _body_block("postcond", s.get("postcond", ""))
            )
    return "\n".join(parts)


def render_theorem(src: TaskSource, proof: str) -> str:
    """The ProofGen theorem, as Verina's template writes it."""
    args = " ".join(f"({name})" for name, _, _ in src.params)
    return (
        f"theorem {src.theorem_name} {src.binders(space=False)} (h_precond : {src.precond_name} {args}) :\n"
        f"    {src.postcond_name} {args} ({src.fn_name} {args} h_precond) h_precond := by\n"
        + _body_block("proof", proof)
    )


# ---------------------------------------------------------------- values and case commands


def render_arg(t: Type, v: Any, structs: Mapping[str, StructInfo] | None = None) -> str:
    """A value as a parenthesized Lean term (parentheses keep negative numbers working)."""
    return f"({encode_lean(t, v, structs=dict(structs or {}))})"


def _args(src: TaskSource, inputs: Mapping[str, Any]) -> str:
    return " ".join(render_arg(t, inputs[name], src.structs) for name, _, t in src.params)


def guard_precond(src: TaskSource, inputs: Mapping[str, Any]) -> str:
    return f"#guard decide ({src.precond_name} {_args(src, inputs)})"


def guard_postcond(src: TaskSource, inputs: Mapping[str, Any], output: Any) -> str:
    out = render_arg(src.return_type, output, src.structs)
    return f"#guard decide ({src.postcond_name} {_args(src, inputs)} {out} (by sorry))"


def eval_run(src: TaskSource, inputs: Mapping[str, Any]) -> str:
    # `#eval!`: the `(by sorry)` precondition proof would make plain `#eval` refuse to run.
    return f"#eval! {src.fn_name} {_args(src, inputs)} (by sorry)"


def plausible_precond(src: TaskSource, inputs: Mapping[str, Any], negate: bool) -> str:
    prop = f"({src.precond_name} {_args(src, inputs)})"
    goal = f"¬{prop}" if negate else prop
    return f"example : {goal} := by\n  unfold {src.precond_name}\n  {SIMP_ALL}\n  {PLAUSIBLE_TACTIC}"


def plausible_postcond(src: TaskSource, inputs: Mapping[str, Any], output: Any, negate: bool) -> str:
    out = render_arg(src.return_type, output, src.structs)
    prop = f"({src.postcond_name} {_args(src, inputs)} {out} (by sorry))"
    goal = f"¬{prop}" if negate else prop
    return f"example : {goal} := by\n  unfold {src.postcond_name}\n  {SIMP_ALL}\n  {SIMP_STAR}\n  {PLAUSIBLE_TACTIC}"


# ---------------------------------------------------------------- whole files

_NONCE_SLOT = "\x00NONCE\x00"


def marker(nonce: str, index: int, edge: str) -> str:
    return f"<<vs:{nonce}:{index}:{edge}>>"


@dataclass(frozen=True)
class LeanFile:
    """A generated file. ``case_lines[i]`` is the 1-based inclusive line range of case ``i``
    (markers included); lines up to ``preamble_end`` are imports and definitions."""

    text: str
    nonce: str
    case_lines: tuple[tuple[int, int], ...]
    preamble_end: int
    regions: tuple[tuple[str, int, int], ...] = ()  # named line ranges (e.g. the proof)
    imports_end: int = 0  # last line of the title and imports

    @property
    def n_cases(self) -> int:
        return len(self.case_lines)

    def region_of_line(self, line: int) -> str | None:
        for name, lo, hi in self.regions:
            if lo <= line <= hi:
                return name
        return None


def render_file(
    imports: Sequence[str],
    definitions: str,
    cases: Sequence[str],
    *,
    title: str = "",
    regions: Sequence[tuple[str, str]] = (),
) -> LeanFile:
    """Assemble a file: a title comment, imports, definitions, extra named regions, the cases."""
    chunks: list[str] = []
    if title:
        chunks.append(f"-- {title}\n")
    if imports:
        chunks.append("".join(f"{line}\n" for line in merge_imports("\n".join(imports))))
    imports_end = sum(c.count("\n") for c in chunks)
    chunks.append("\n" + definitions.rstrip("\n") + "\n")
    line = sum(c.count("\n") for c in chunks)
    named: list[tuple[str, int, int]] = []
    for name, text in regions:
        body = "\n" + text.rstrip("\n") + "\n"
        named.append((name, line + 2, line + body.count("\n")))
        chunks.append(body)
        line += body.count("\n")
    preamble_end = line
    spans: list[tuple[int, int]] = []
    for i, case in enumerate(cases):
        block = (
            f'\n#print "{marker(_NONCE_SLOT, i, "begin")}"\n'
            f"{case.rstrip(chr(10))}\n"
            f'#print "{marker(_NONCE_SLOT, i, "end")}"\n'
        )
        spans.append((line + 2, line + block.count("\n")))
        line += block.count("\n")
        chunks.append(block)
    template = "".join(chunks)
    nonce = hashlib.sha256(template.encode("utf-8")).hexdigest()[:12]
    return LeanFile(
        template.replace(_NONCE_SLOT, nonce), nonce, tuple(spans), preamble_end, tuple(named), imports_end
    )


def render_check_file(
    src: TaskSource,
    kind: str,
    cases: Sequence[str],
    *,
    plausible: bool = False,
    mathlib: bool = False,
) -> LeanFile:
    """One file for ``kind`` ("precond", "run", "postcond") holding all ``cases``."""
    imports: list[str] = []
    if plausible:
        imports.append("import Plausible")
    if mathlib and not src.uses_mathlib:
        imports.append("import Mathlib")
    imports.extend(src.imports)
    what = f"{kind} plausible" if plausible else kind
    title = f"veriscale: task {src.task_id}, {what} checks ({len(cases)} cases)"
    return render_file(imports, render_definitions(src, kind), cases, title=title)
