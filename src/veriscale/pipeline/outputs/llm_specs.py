"""Model-written candidate specs: problem decomposition, then one spec per configured model.

Step 1 asks the decomposition model once, with the description only, for an
input/output model whose constraints are tagged explicit (E) or hypothesis (H).
Step 2 asks every spec model once, with the description, that model and the
ground-truth precondition/postcondition *signatures*. Each answer is split at
its marker comments, and each part must define exactly the task's
``<f>_precond``/``<f>_postcond`` with the ground-truth parameters
(``validate.check_definition``; nothing is renamed). The engine then builds the
task with the candidate's sections and evaluates them on the ground-truth
tests: a parse or elaboration error there rejects the spec ("ill-typed"); a
precondition FALSE on a test input, or a postcondition FALSE on a test's
expected output, keeps the spec but marks it ``rejects-tests`` (a flawed
spec is still a useful target for the red team).

Model trouble (no answer, an unusable answer) is recorded, never raised. A
failed decomposition does not stop step 2: the spec prompt then says that no
input/output model is available.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...formats.verina.dataset import Task
from ...languages.adversary import CandidateSpec
from ...languages.registry import language_of
from ...languages.tree import text_id
from ...llm.extract import extract_decomposition
from ...llm.extract_outputs import extract_spec_sections
from ...llm.fields import decompose_fields, spec_gen_fields
from ...runtime.engine import Verdict

if TYPE_CHECKING:
    from ...llm.records import Response
    from ...llm.runner import ModelRunner
    from ..config import OutputsSettings

__all__ = [
    "DECOMPOSE_STAGE",
    "SPEC_STAGE",
    "ModelSpec",
    "ModelSpecs",
    "TestCheck",
    "check_on_tests",
    "model_specs",
    "spec_models",
]

DECOMPOSE_STAGE = "decompose"
SPEC_STAGE = "spec_gen"
NO_MODEL = "(not available: derive it from the problem description)"

# statuses of a kept spec on the ground-truth tests
ACCEPTS, REJECTS, UNKNOWN, ILL_TYPED = "accepts-tests", "rejects-tests", "tests-unknown", "ill-typed"
_BUILD_ERRORS = ("parse", "elab")


@dataclass(frozen=True, slots=True)
class ModelSpec(CandidateSpec):
    """A model's precondition and postcondition. ``text`` is the postcondition body (as for every spec)."""

    model: str = ""
    precond_aux: str = ""
    precond: str = "True"
    postcond_aux: str = ""
    tests: str = UNKNOWN  # ACCEPTS | REJECTS | UNKNOWN
    notes: tuple[str, ...] = ()

    @property
    def accepts_tests(self) -> bool:
        return self.tests == ACCEPTS

    @property
    def overrides(self) -> dict[str, str]:
        """The task sections this spec replaces (Verina's spec file has no ``solution_aux``)."""
        return {
            "solution_aux": "",
            "precond_aux": self.precond_aux,
            "precond": self.precond,
            "postcond_aux": self.postcond_aux,
            "postcond": self.text,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            **CandidateSpec.to_json(self),
            "model": self.model,
            "precond_aux": self.precond_aux,
            "precond": self.precond,
            "postcond_aux": self.postcond_aux,
            "tests": self.tests,
            "notes": list(self.notes),
        }


@dataclass
class ModelSpecs:
    """The kept specs (model order) and what happened to every request."""

    specs: list[ModelSpec] = field(default_factory=list)
    decomposition: dict[str, str] | None = None
    decomposition_error: str | None = None
    failures: Counter[str] = field(default_factory=Counter)  # rejected or failed answers, by reason
    records: list[dict[str, Any]] = field(default_factory=list)  # one per spec model, in order

    def counts(self) -> dict[str, Any]:
        tests = Counter(s.tests for s in self.specs)
        return {
            "asked": len(self.records),
            "kept": len(self.specs),
            "tests": {k: tests.get(k, 0) for k in (ACCEPTS, REJECTS, UNKNOWN)},
            "failures": dict(sorted(self.failures.items())),
        }

    def report(self) -> dict[str, Any]:
        return {
            "counts": self.counts(),
            "decomposition": self.decomposition,
            "decomposition_error": self.decomposition_error,
            "models": self.records,
        }


@dataclass(frozen=True, slots=True)
class TestCheck:
    status: str  # ACCEPTS | REJECTS | UNKNOWN | ILL_TYPED
    detail: str = ""
    notes: tuple[str, ...] = ()


def spec_models(runner: ModelRunner, settings: OutputsSettings | None = None) -> list[str]:
    """The spec models: the settings' list, else the model config's ``spec_gen`` models."""
    if settings is not None and settings.spec_models:
        return list(settings.spec_models)
    return runner.config.models_for(SPEC_STAGE)


def _test_rows(task: Task) -> tuple[list[tuple[int, dict[str, Any], Any]], list[str]]:
    rows: list[tuple[int, dict[str, Any], Any]] = []
    notes: list[str] = []
    for i, t in enumerate(task.tests):
        try:
            rows.append((i, t.decode_input(task, i), t.decode_expected(task, i)))
        except Exception as exc:  # a ground-truth row our codec rejects is skipped, and said so
            notes.append(f"test {i} skipped: {exc}")
    return rows, notes


def check_on_tests(task: Task, engine: Any, overrides: dict[str, str]) -> TestCheck:
    """Build the task with ``overrides`` and evaluate the spec on every ground-truth test.

    A parse/elaboration error on any check means the spec does not build (ILL_TYPED).
    """
    rows, notes = _test_rows(task)
    if not rows:
        return TestCheck(UNKNOWN, "no decodable ground-truth test", tuple(notes))
    te = engine.for_task(task, overrides=overrides)
    pre = te.preconditions([inp for _, inp, _ in rows])
    post = te.postconditions([(inp, out) for _, inp, out in rows])
    checks: list[tuple[str, int, Verdict]] = [("precondition", i, v) for (i, _, _), v in zip(rows, pre)]
    checks += [("postcondition", i, v) for (i, _, _), v in zip(rows, post)]
    for what, _i, v in checks:
        if v.is_unknown and v.category in _BUILD_ERRORS:
            return TestCheck(ILL_TYPED, f"{what} does not build: {v.reason}", tuple(notes))
    rejected = [
        f"{what} is false on test {i}" + (" input" if what == "precondition" else " expected output")
        for what, i, v in checks
        if v.is_false
    ]
    unknown = [f"{what} undecided on test {i}: {v.reason}" for what, i, v in checks if v.is_unknown]
    if rejected:
        return TestCheck(REJECTS, "; ".join(rejected[:3]) + (" …" if len(rejected) > 3 else ""), tuple(notes))
    if unknown:
        return TestCheck(UNKNOWN, unknown[0], tuple(notes))
    return TestCheck(ACCEPTS, f"accepts all {len(rows)} ground-truth tests", tuple(notes))


def _decompose(task: Task, runner: ModelRunner, result: ModelSpecs) -> tuple[str, str]:
    prompt = runner.prompt(DECOMPOSE_STAGE, **decompose_fields(task))
    resp = runner.ask(DECOMPOSE_STAGE, prompt, n_samples=1, extract=extract_decomposition)[0]
    if resp.ok and isinstance(resp.parsed, dict):
        result.decomposition = {"input": resp.parsed["input"], "output": resp.parsed["output"]}
        return resp.parsed["input"], resp.parsed["output"]
    result.decomposition_error = resp.error or resp.malformed or "no answer"
    return NO_MODEL, NO_MODEL


def _answer_failure(resp: Response) -> tuple[str, str] | None:
    if resp.error is not None or resp.text is None:
        return "no-answer", resp.error or "no answer"
    if resp.malformed is not None or not isinstance(resp.parsed, dict):
        return "malformed", resp.malformed or "unusable answer"
    return None


def _spec_from(
    task: Task, engine: Any, model: str, parsed: dict[str, str]
) -> tuple[ModelSpec | None, dict[str, Any]]:
    """Validate one parsed answer; the spec (or None) and its record."""
    record: dict[str, Any] = {"model": model}
    cand = language_of(task).candidates
    fname = task.signature.name
    reserved = (fname, f"{fname}_precond", f"{fname}_postcond")
    parts: dict[str, Any] = {}
    notes: list[str] = []
    for part, key in (("precond", "precondition"), ("postcond", "postcondition")):
        chk = cand.check_definition(
            parsed[key],
            cand.main_name(task, part),
            cand.expected_def(task, part),
            part,
            policy=cand.SPEC_POLICY,
            reserved=reserved,
        )
        if not chk.ok:
            record.update(status="rejected", reason=chk.reason, detail=f"{key}: {chk.detail}")
            return None, record
        parts[part] = chk
        notes += [f"{key}: {n}" for n in chk.notes]
    pre, post = parts["precond"], parts["postcond"]
    overrides = {
        "solution_aux": "",
        "precond_aux": pre.aux,
        "precond": pre.body,
        "postcond_aux": post.aux,
        "postcond": post.body,
    }
    tc = check_on_tests(task, engine, overrides)
    notes += list(tc.notes)
    if tc.status == ILL_TYPED:
        record.update(status="rejected", reason=ILL_TYPED, detail=tc.detail, notes=notes)
        return None, record
    ident = text_id("\n".join(f"{k}\n{cand.normalized(v)}" for k, v in sorted(overrides.items())))
    desc = f"spec by {model}: {tc.detail}"
    spec = ModelSpec(
        ident, post.body, f"model:{model}", desc, model, pre.aux, pre.body, post.aux, tc.status, tuple(notes)
    )
    record.update(status="kept", spec=ident, tests=tc.status, detail=tc.detail, notes=notes)
    return spec, record


def model_specs(
    task: Task,
    runner: ModelRunner,
    engine: Any,
    settings: OutputsSettings | None = None,
    *,
    models: Sequence[str] | None = None,
) -> ModelSpecs:
    """Decompose the task, ask every spec model once, and keep the specs that build.

    Nothing is asked when ``settings.model_specs`` is off or no spec model is configured.

    ``models`` (default: ``spec_models(runner, settings)``) are asked in
    parallel; results are in model order. Specs identical to an earlier one
    (same sections up to layout and comments) are counted as ``duplicate``.
    """
    result = ModelSpecs()
    if settings is not None and not settings.model_specs:
        return result
    names = list(models) if models is not None else spec_models(runner, settings)
    if not names:
        return result
    input_model, output_model = _decompose(task, runner, result)
    prompt = runner.prompt(SPEC_STAGE, **spec_gen_fields(task, input_model, output_model))

    def ask(model: str) -> Response:
        return runner.ask(SPEC_STAGE, prompt, n_samples=1, extract=extract_spec_sections, model=model)[0]

    # the decomposition call above has created the runner's client and pool, so these threads share them
    with ThreadPoolExecutor(max_workers=max(1, min(len(names), runner.config.concurrency))) as pool:
        answers = list(pool.map(ask, names))

    seen: set[str] = set()
    for model, resp in zip(names, answers):
        failure = _answer_failure(resp)
        if failure is not None:
            result.failures[failure[0]] += 1
            result.records.append(
                {"model": model, "status": "failed", "reason": failure[0], "detail": failure[1]}
            )
            continue
        spec, record = _spec_from(task, engine, model, resp.parsed)
        if resp.notes:
            record["notes"] = [*resp.notes, *record.get("notes", [])]
        if spec is None:
            result.failures[str(record["reason"])] += 1
        elif spec.id in seen:
            result.failures["duplicate"] += 1
            record.update(status="duplicate")
        else:
            seen.add(spec.id)
            result.specs.append(spec)
        result.records.append(record)
    return result
