"""Model-written adversaries: the red-team prompt once per candidate spec, five implementations each.

Each answer is split at its ``-- Adversarial Implementation i`` markers, and
every section is validated on its own (``validate.check_definition``): it must
define exactly the task's function with the ground-truth parameters (the
``h_precond`` hypothesis included) and result type, name its helpers
``<f>_adv_*``, parse with our Lean front end, and use none of the forbidden
means (``sorry``, ``partial``, ``instance``, ``IO``, ``Classical``, …). Nothing
is renamed: a section that defines ``f1`` instead of ``f`` is rejected.

A valid section becomes a ``ModelAdversary``: its body replaces the ``code``
section and its helpers, if any, replace ``code_aux``. Optionally the engine
builds it once on a test input, so code that does not elaborate is rejected
here rather than silently giving no value later. Duplicates (same helpers and
body up to layout and comments) are dropped; every rejection is counted by
reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...formats.verina.dataset import Task
from ...languages.adversary import Adversary, CandidateSpec
from ...languages.registry import language_of
from ...languages.tree import text_id
from ...llm.extract import extract_adversarial
from ...llm.fields import adversarial_fields, def_header, definition_text
from .llm_specs import ModelSpec

if TYPE_CHECKING:
    from ...llm.runner import ModelRunner
    from ..config import OutputsSettings

__all__ = [
    "RED_TEAM_STAGE",
    "ModelAdversaries",
    "ModelAdversary",
    "model_adversaries",
    "red_team_targets",
    "spec_definitions",
]

RED_TEAM_STAGE = "adversarial_impl"
_BUILD_ERRORS = ("parse", "elab")


@dataclass(frozen=True, slots=True)
class ModelAdversary(Adversary):
    """An adversary written by a model: ``text`` is the ``code`` body, ``aux`` its helpers (``code_aux``)."""

    aux: str = ""
    index: int = 0  # its section number in the answer

    @property
    def overrides(self) -> dict[str, str]:
        if self.aux:
            return {"code_aux": self.aux, "code": self.text}
        return {"code": self.text}

    def to_json(self) -> dict[str, Any]:
        return {**Adversary.to_json(self), "aux": self.aux, "index": self.index}


def make_model_adversary(body: str, aux: str, spec_id: str, description: str, index: int) -> ModelAdversary:
    # without helpers the identity is that of any other ``code`` adversary with the same text
    ident = text_id(body) if not aux else text_id(f"code_aux\n{aux}\ncode\n{body}")
    return ModelAdversary(ident, body, f"model:{spec_id}", description, spec_id, "code", aux, index)


@dataclass
class ModelAdversaries:
    adversaries: list[ModelAdversary] = field(default_factory=list)  # spec order, then section order
    rejected: Counter[str] = field(default_factory=Counter)  # sections rejected, by reason
    failures: Counter[str] = field(default_factory=Counter)  # answers unusable as a whole, by reason
    records: list[dict[str, Any]] = field(default_factory=list)  # one per red-teamed spec, in order

    def counts(self) -> dict[str, Any]:
        return {
            "specs": len(self.records),
            "sections": sum(int(r.get("sections", 0)) for r in self.records),
            "kept": len(self.adversaries),
            "rejected": dict(sorted(self.rejected.items())),
            "failures": dict(sorted(self.failures.items())),
        }

    def report(self) -> dict[str, Any]:
        return {"counts": self.counts(), "specs": self.records}


def _definition(task: Task, part: str, aux: str, body: str) -> str:
    main = def_header(task, part) + "\n" + language_of(task).candidates.indent_body(body)
    return "\n\n".join(p for p in (aux.strip("\n"), main) if p.strip())


def spec_definitions(task: Task, spec: CandidateSpec) -> tuple[str, str]:
    """(precondition, postcondition) definitions of ``spec``, the way the red team is shown them.

    A model spec brings its own sections; any other candidate (a weakened
    ground truth) has the ground-truth precondition and postcondition helpers.
    """
    if isinstance(spec, ModelSpec):
        pre = _definition(task, "precond", spec.precond_aux, spec.precond)
        return pre, _definition(task, "postcond", spec.postcond_aux, spec.text)
    pre = definition_text(task, "precond")
    return pre, _definition(task, "postcond", task.section_text("postcond_aux"), spec.text)


def red_team_targets(
    specs: Sequence[CandidateSpec], settings: OutputsSettings | None = None, max_weakened: int = 8
) -> list[CandidateSpec]:
    """Model specs always; other candidates (weakened ground truths) only with ``red_team_weakened``."""
    weakened = bool(settings is not None and settings.red_team_weakened)
    out: list[CandidateSpec] = []
    n_weak = 0
    for s in specs:
        if s.origin.startswith("model:"):
            out.append(s)
        elif weakened and n_weak < max_weakened:
            out.append(s)
            n_weak += 1
    return out


def _first_input(task: Task) -> dict[str, Any] | None:
    for i, t in enumerate(task.tests):
        try:
            return t.decode_input(task, i)
        except Exception:  # an undecodable row cannot serve as the build probe
            continue
    return None


def model_adversaries(
    task: Task,
    runner: ModelRunner,
    engine: Any,
    specs: Sequence[CandidateSpec],
    settings: OutputsSettings | None = None,
    *,
    max_weakened: int = 8,
    build_check: bool = True,
) -> ModelAdversaries:
    """Red-team every target spec (``red_team_targets``) once and keep the valid implementations.

    Nothing is asked when ``settings.model_adversaries`` is off. The model is
    ``settings.red_team_model``, else the model config's ``adversarial_impl`` model.

    ``build_check``: run each valid section once on the first test input and
    reject it when the engine cannot parse or elaborate it.
    """
    result = ModelAdversaries()
    if settings is not None and not settings.model_adversaries:
        return result
    targets = red_team_targets(specs, settings, max_weakened)
    if not targets:
        return result
    count = settings.adversaries_per_spec if settings is not None else 5
    model = settings.red_team_model if settings is not None else None
    prompts = []
    for spec in targets:
        pre, post = spec_definitions(task, spec)
        prompts.append(runner.prompt(RED_TEAM_STAGE, **adversarial_fields(task, pre, post, count)))
    answers = runner.ask_many(
        RED_TEAM_STAGE, prompts, 1, extract=lambda t: extract_adversarial(t, count), model=model
    )

    cand = language_of(task).candidates
    fname = task.signature.name
    name = cand.main_name(task, "code")
    want = cand.expected_def(task, "code")
    probe = _first_input(task) if build_check else None
    seen: set[str] = set()
    for spec, (resp,) in zip(targets, answers):
        record: dict[str, Any] = {"spec": spec.id, "origin": spec.origin}
        result.records.append(record)
        if resp.error is not None or resp.text is None:
            result.failures["no-answer"] += 1
            record.update(status="failed", reason="no-answer", detail=resp.error or "no answer")
            continue
        if resp.malformed is not None or not isinstance(resp.parsed, list):
            result.failures["malformed"] += 1
            record.update(status="failed", reason="malformed", detail=resp.malformed or "unusable answer")
            continue
        kept: list[str] = []
        rejections: list[dict[str, Any]] = []
        record.update(status="answered", sections=len(resp.parsed), notes=list(resp.notes))
        for index, code in resp.parsed:
            chk = cand.check_definition(
                code, name, want, "code", policy=cand.ADVERSARY_POLICY, helper_prefix=f"{fname}_adv_"
            )
            reason, detail = chk.reason, chk.detail
            adv: ModelAdversary | None = None
            if chk.ok:
                desc = f"red-team implementation {index} against the {spec.origin} spec"
                adv = make_model_adversary(chk.body, chk.aux, spec.id, desc, index)
                key = cand.normalized(chk.aux) + "\n" + cand.normalized(chk.body)
                if key in seen:
                    reason, detail = "duplicate", "same helpers and body as an earlier adversary"
                elif probe is not None:
                    out = engine.for_task(task, overrides=adv.overrides).run(probe)
                    if out.category in _BUILD_ERRORS:
                        reason, detail = "ill-typed", out.reason or "does not build"
                if reason is None:
                    seen.add(key)
            if reason is not None or adv is None:
                result.rejected[str(reason)] += 1
                rejections.append({"index": index, "reason": reason, "detail": detail})
                continue
            result.adversaries.append(adv)
            kept.append(adv.id)
        record.update(kept=kept, rejected=rejections)
    return result
