"""ProofGen evaluation: does a proof of the task's correctness theorem check in Lean?

The file is Verina's ProofGen file: task imports and the proof's own imports
(not the ground truth's solution imports, as in Verina), the task's
definitions, the proof's auxiliary lemmas and the theorem::

    theorem f_postcond_satisfied (x: T) ... (h_precond : f_precond (x)) :
        f_postcond (x) (f (x) h_precond) h_precond := by
      <proof>

followed by a marked ``#print axioms`` of the theorem. A proof passes when

* the forbidden-construct policy finds no banned token in ``proof_aux`` or
  ``proof`` (comments and strings do not count; see ``forbidden``),
* Lean exits with code 0 within the time limit,
* no "declaration uses 'sorry'" warning is positioned in the proof's lines,
* and the theorem does not depend on ``sorryAx`` (unless the task's own code
  or specification already contains ``sorry``, which the proof cannot help).

Without Lean the verdict is ``not_evaluated`` — never a pass.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..sections import DEFINITION_SECTIONS
from .engine import LeanToolchainEngine
from .forbidden import ForbiddenPolicy, Violation
from .parse import parse_output
from .project import LeanUnavailable
from .render import LeanFile, TaskSource, merge_imports, render_definitions, render_file, render_theorem

__all__ = ["NOT_EVALUATED", "ProofResult", "evaluate_proof", "render_proof_file"]

NOT_EVALUATED = "not evaluated (requires Lean)"
_AXIOMS = re.compile(r"depends on axioms:\s*\[(?P<names>[^\]]*)\]", re.S)


@dataclass(frozen=True)
class ProofResult:
    status: str  # "pass", "fail" or "not_evaluated"
    reason: str = ""
    violations: tuple[Violation, ...] = ()
    axioms: tuple[str, ...] = ()
    output: str = ""

    @property
    def passed(self) -> bool:
        return self.status == "pass"


def render_proof_file(src: TaskSource, proof: str, proof_aux: str = "", imports: str = "") -> LeanFile:
    file_imports = merge_imports("\n".join(src.task_imports), imports)
    definitions = render_definitions(src, "all", testable_aux=False)
    aux = f"-- !benchmark @start proof_aux\n{proof_aux.strip(chr(10))}\n-- !benchmark @end proof_aux\n"
    return render_file(
        file_imports,
        definitions,
        [f"#print axioms {src.theorem_name}"],
        title=f"veriscale: task {src.task_id}, proof check",
        regions=[("proof", aux + "\n" + render_theorem(src, proof))],
    )


_SORRY_ONLY = ForbiddenPolicy(("sorry", "sorryAx"))


def _definitions_use_sorry(src: TaskSource) -> bool:
    return any(_SORRY_ONLY.violations(src.sections.get(name, "")) for name in DEFINITION_SECTIONS)


def evaluate_proof(
    task: Any,
    proof: str,
    proof_aux: str = "",
    imports: str = "",
    *,
    engine: LeanToolchainEngine | None = None,
    overrides: Mapping[str, str] | None = None,
    policy: ForbiddenPolicy | None = None,
    timeout: float | None = None,
) -> ProofResult:
    """Evaluate a proof of ``task``'s theorem (code and spec: the task's, or ``overrides``)."""
    policy = policy or ForbiddenPolicy()
    found = tuple(policy.check(proof_aux, proof))
    if found:
        return ProofResult("fail", f"{found[0]} (cheat codes are not allowed in proofs)", found)
    if engine is None:
        try:
            engine = LeanToolchainEngine()
        except LeanUnavailable as exc:
            return ProofResult("not_evaluated", f"{NOT_EVALUATED}: {exc}")
    src = TaskSource.from_task(task, overrides)
    lean_file = render_proof_file(src, proof, proof_aux, imports)
    result = engine.runner(lean_file.text, timeout if timeout is not None else engine.timeout)
    if result.timed_out:
        return ProofResult(
            "fail", f"Lean timed out after {timeout or engine.timeout:g} s", output=result.output
        )
    if result.killed_by_signal:
        return ProofResult("fail", f"Lean crashed (exit code {result.exit_code})", output=result.output)
    parsed = parse_output(result.output, lean_file)
    messages = [*parsed.preamble, *parsed.stray, *(m for c in parsed.cases for m in c.messages)]
    errors = [m for m in messages if m.severity == "error"]
    if result.exit_code != 0 or errors:
        why = errors[0].first_line() if errors else f"exit code {result.exit_code}"
        return ProofResult("fail", f"does not compile: {why}", output=result.output)
    for m in messages:
        if m.severity == "warning" and "declaration uses 'sorry'" in m.text and m.line is not None:
            if lean_file.region_of_line(m.line) == "proof":
                return ProofResult("fail", "the proof uses sorry", output=result.output)
    axioms: tuple[str, ...] = ()
    case = parsed.cases[0] if parsed.cases else None
    if case is not None:
        found_axioms = _AXIOMS.search(case.text())
        if found_axioms:
            axioms = tuple(a.strip() for a in found_axioms.group("names").split(",") if a.strip())
    if "sorryAx" in axioms and not _definitions_use_sorry(src):
        return ProofResult("fail", "the theorem depends on sorryAx", axioms=axioms, output=result.output)
    return ProofResult("pass", "", axioms=axioms, output=result.output)
