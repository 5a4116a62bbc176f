"""Model-driven output expansion through the fake OpenAI-compatible server.

Decomposition → one spec per model → red team per spec, on verina_basic_29
(removeElement: ``(s : Array Int) (k : Nat)``, precondition ``k < s.size``),
with hand-written answers that exercise every validation rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from llm_fake_server import FakeOpenAI, ok, status
from shared_data import data_path, needs
from veriscale.formats.verina.dataset import Task, read_task
from veriscale.languages.lean.native import NativeEngine
from veriscale.languages.lean.validate import ADVERSARY_POLICY, check_definition, expected_def
from veriscale.languages.lean.weaken import weakened_specs
from veriscale.llm.config import LLMConfig
from veriscale.llm.runner import ModelRunner
from veriscale.pipeline.config import OutputsSettings
from veriscale.pipeline.outputs.llm_adversaries import ModelAdversary, model_adversaries
from veriscale.pipeline.outputs.llm_specs import NO_MODEL, ModelSpec, model_specs

DATA = data_path("verina")
pytestmark = needs("verina")

TASK = "verina_basic_29"
HEAD = (
    "def removeElement (s : Array Int) (k : Nat) (h_precond : removeElement_precond (s) (k)) : Array Int :="
)
PRE = "@[reducible, simp]\ndef removeElement_precond (s : Array Int) (k : Nat) : Prop :=\n  k < s.size\n"
POST_HEAD = (
    "@[reducible, simp]\ndef removeElement_postcond (s : Array Int) (k : Nat) (result: Array Int) "
    "(h_precond : removeElement_precond (s) (k)) : Prop :="
)

DECOMPOSITION = """Input:
a. s: array of integers; k: natural number
b.
- k is a valid index of s (E)
Output:
a. res1: array of integers
b.
- res1 is s without the element at index k
"""


def spec_answer(pre: str, post: str) -> str:
    return f"```lean\n-- Precondition Implementation\n{pre}\n-- Postcondition Implementation\n{post}\n```"


# A weak but well-typed spec (only the size is constrained), with a postcondition helper.
GOOD = spec_answer(
    PRE,
    "def removeElement_sizeOk (s : Array Int) (result : Array Int) : Bool :=\n"
    "  result.size + 1 == s.size\n\n" + POST_HEAD + "\n  removeElement_sizeOk s result = true",
)
# Well-typed but too strong: the correct output is rejected (kept, marked).
STRONG = spec_answer(PRE, POST_HEAD + "\n  result = s")
WRONG_NAME = spec_answer(
    PRE,
    "def removeElement_post (s : Array Int) (k : Nat) (result : Array Int) : Prop :=\n"
    "  result.size = s.size - 1",
)
UNPARSABLE = spec_answer(PRE, POST_HEAD + "\n  result.size = s.size - 1 ∧ (∀ i, i < k →")
ILL_TYPED = spec_answer(PRE, POST_HEAD + "\n  result.size = s.noSuchField")
# GOOD again, split over two code blocks and laid out differently: a duplicate
SPLIT = (
    f"```lean\n-- Precondition Implementation\n{PRE}```\nand\n```lean\n-- Postcondition Implementation\n"
    "def removeElement_sizeOk (s : Array Int) (result : Array Int) : Bool := result.size + 1 == s.size\n"
    + POST_HEAD
    + " removeElement_sizeOk s result = true  -- same\n```"
)
SPECS = {
    "spec-good": GOOD,
    "spec-strong": STRONG,
    "spec-name": WRONG_NAME,
    "spec-broken": UNPARSABLE,
    "spec-illtyped": ILL_TYPED,
    "spec-split": SPLIT,
}


def sections(*codes: str) -> str:
    body = "\n\n".join(f"-- Adversarial Implementation {i}\n{c}" for i, c in enumerate(codes, start=1))
    return f"Here they are.\n```lean\n{body}\n```"


RED_TEAM_GOOD = sections(
    f"{HEAD}\n  s.pop",  # valid: right size, wrong elements
    f"{HEAD}\n  sorry",
    f"partial {HEAD}\n  s.pop",
    "def removeElement (s : Array Int) (k : Int) (h_precond : removeElement_precond (s) (k.toNat)) "
    ": Array Int :=\n  s.pop",
    f"instance : BEq Int := ⟨fun _ _ => true⟩\n\n{HEAD}\n  s.pop",
)
RED_TEAM_STRONG = sections(
    # valid, with a properly named helper
    "def removeElement_adv_shift (s : Array Int) : Array Int :=\n  s.extract 1 s.size\n\n"
    "def removeElement (s : Array Int) (k : Nat) (h_precond : removeElement_precond s k) : Array Int :=\n"
    "  removeElement_adv_shift s",
    f"{HEAD}\n    s.pop  -- the first answer again, laid out differently",
    HEAD.replace("def removeElement ", "def removeElement3 ") + "\n  #[]",
    f"def shiftLeft (s : Array Int) : Array Int := s.extract 1 s.size\n\n{HEAD}\n  shiftLeft s",
    f"{HEAD}\n  s.noSuchFunction 3",  # parses, does not elaborate
)


def responder(body: dict[str, Any]) -> str:
    system = body["messages"][0]["content"]
    user = body["messages"][-1]["content"]
    if "modeller" in system:
        return DECOMPOSITION
    if "formal specification. From a programming problem" in system:
        return SPECS[body["model"]]
    if "red-team" in system:
        return RED_TEAM_GOOD if "removeElement_sizeOk" in user else RED_TEAM_STRONG
    return "?"


@pytest.fixture
def task() -> Task:
    return read_task(DATA / TASK)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    monkeypatch.setenv("VERISCALE_API_KEY", "sk-outputs-test")
    server = FakeOpenAI().start()
    yield server
    server.stop()


def runner_for(fake: FakeOpenAI, **kw: Any) -> ModelRunner:
    cfg = LLMConfig(
        model="red-model", base_url=fake.url, cache="off", max_retries=0, timeout=5.0, reask_malformed=0, **kw
    )
    return ModelRunner(cfg, cache=None)


def test_decomposition_specs_and_adversaries(fake: FakeOpenAI, task: Task) -> None:
    fake.responder = responder
    engine = NativeEngine()
    settings = OutputsSettings(
        spec_models=("spec-good", "spec-name", "spec-broken", "spec-strong", "spec-illtyped", "spec-split")
    )
    with runner_for(fake) as runner:
        ms = model_specs(task, runner, engine, settings)
        assert fake.count == 1 + 6  # one decomposition, one call per spec model
        spec_prompt = next(r for r in fake.requests if r["body"]["model"] == "spec-good")["body"]["messages"][
            -1
        ]
        assert "k is a valid index of s (E)" in spec_prompt["content"]
        assert (
            "def removeElement_postcond (s : Array Int) (k : Nat) (result: Array Int)"
            in spec_prompt["content"]
        )

        assert ms.decomposition is not None and "res1" in ms.decomposition["output"]
        assert [s.origin for s in ms.specs] == ["model:spec-good", "model:spec-strong"]
        good, strong = ms.specs
        assert isinstance(good, ModelSpec)
        assert good.tests == "accepts-tests" and good.accepts_tests
        assert good.text == "removeElement_sizeOk s result = true"
        assert good.precond == "k < s.size"
        assert good.postcond_aux.startswith("def removeElement_sizeOk")
        assert strong.tests == "rejects-tests" and "postcondition is false on test 0" in strong.description
        assert ms.failures == {"wrong-name": 1, "unparsable": 1, "ill-typed": 1, "duplicate": 1}
        by_model = {r["model"]: r for r in ms.records}
        assert "removeElement_post" in by_model["spec-name"]["detail"]
        assert by_model["spec-broken"]["detail"].startswith("postcondition:")
        assert "noSuchField" in by_model["spec-illtyped"]["detail"]
        assert by_model["spec-split"]["status"] == "duplicate" and by_model["spec-split"]["spec"] == good.id
        assert ms.counts()["tests"] == {"accepts-tests": 1, "rejects-tests": 1, "tests-unknown": 0}

        # weakened specs are not red-teamed unless asked for
        weak = weakened_specs(task.section_text("postcond"))
        before = fake.count
        ma = model_adversaries(task, runner, engine, [*ms.specs, *weak], settings)
        assert fake.count == before + 2

    red_prompt = fake.requests[-1]["body"]["messages"][-1]["content"]
    assert HEAD.removesuffix(" :=") in red_prompt and "Write 5 adversarial implementations" in red_prompt

    assert [(a.target, a.index) for a in ma.adversaries] == [(good.id, 1), (strong.id, 1)]
    first, second = ma.adversaries
    assert first.origin == f"model:{good.id}" and first.text == "s.pop" and first.aux == ""
    assert first.overrides == {"code": "s.pop"}
    assert second.aux.startswith("def removeElement_adv_shift")
    assert second.overrides == {"code_aux": second.aux, "code": "removeElement_adv_shift s"}
    assert dict(ma.rejected) == {
        "forbidden:sorry": 1,
        "forbidden:partial": 1,
        "wrong-signature": 1,
        "forbidden:instance": 1,
        "duplicate": 1,
        "wrong-name": 1,
        "helper-name": 1,
        "ill-typed": 1,
    }
    rej = {r["index"]: r for r in ma.records[0]["rejected"]}
    assert "parameter 2 is (k : Int), expected (k : Nat)" in rej[4]["detail"]
    rej2 = {r["index"]: r for r in ma.records[1]["rejected"]}
    assert "removeElement3" in rej2[3]["detail"] and "shiftLeft" in rej2[4]["detail"]
    assert ma.counts()["sections"] == 10 and ma.counts()["kept"] == 2

    # a kept adversary runs on the native engine and gives a wrong output that the weak spec accepts
    values = task.tests[0].decode_input(task, 0)
    expected = task.tests[0].decode_expected(task, 0)
    for adv in ma.adversaries:
        out = engine.for_task(task, overrides=adv.overrides).run(values)
        assert out.ok and out.value != expected
        assert engine.for_task(task).postcondition(values, out.value).is_false
    out = engine.for_task(task, overrides=first.overrides).run(values)
    assert engine.for_task(task, overrides=good.overrides).postcondition(values, out.value).is_true


def test_model_failures_are_recorded_not_raised(fake: FakeOpenAI, task: Task) -> None:
    engine = NativeEngine()
    settings = OutputsSettings(spec_models=("m-500", "m-garbage"), red_team_weakened=True)
    # concurrency 1: the spec models are asked in order, so the script order is the request order
    fake.push(ok("I cannot model this."), status(500, "upstream down"), ok("no markers, no code"))
    with runner_for(fake, concurrency=1) as runner:
        ms = model_specs(task, runner, engine, settings)
        assert ms.specs == [] and ms.decomposition is None
        assert ms.decomposition_error is not None and "Input:" in ms.decomposition_error
        assert NO_MODEL in fake.requests[1]["body"]["messages"][-1]["content"]
        assert ms.failures == {"no-answer": 1, "malformed": 1}
        assert [r["status"] for r in ms.records] == ["failed", "failed"]

        weak = weakened_specs(task.section_text("postcond"))[:2]
        fake.push(status(500), ok("garbage"))
        ma = model_adversaries(task, runner, engine, weak, settings)
    assert ma.adversaries == []
    assert ma.failures == {"no-answer": 1, "malformed": 1}
    assert [r["reason"] for r in ma.records] == ["no-answer", "malformed"]
    # the weakened spec is shown with the ground-truth precondition and the weakened body
    prompt = fake.requests[-1]["body"]["messages"][-1]["content"]
    assert "k < s.size" in prompt and weak[1].text.splitlines()[0] in prompt


def test_no_model_configured_asks_nothing(task: Task) -> None:
    runner = ModelRunner(LLMConfig(cache="off"), cache=None)
    assert model_specs(task, runner, NativeEngine()).records == []
    assert (
        model_adversaries(task, runner, NativeEngine(), weakened_specs(task.section_text("postcond"))).records
        == []
    )


def test_names_are_never_repaired_by_stripping_digits() -> None:
    task = read_task(DATA / "verina_basic_1")  # hasOppositeSign
    want = expected_def(task, "code")
    head = "(a : Int) (b : Int) (h_precond : hasOppositeSign_precond (a) (b)) : Bool :="
    ok_ = check_definition(
        f"def hasOppositeSign {head}\n  true",
        "hasOppositeSign",
        want,
        "code",
        policy=ADVERSARY_POLICY,
        helper_prefix="hasOppositeSign_adv_",
    )
    assert ok_.ok and ok_.body == "true"
    bad = check_definition(
        f"def hasOppositeSign1 {head}\n  true", "hasOppositeSign", want, "code", policy=ADVERSARY_POLICY
    )
    assert bad.reason == "wrong-name"
    # a forbidden word in a comment or a string is not a use of it
    text = f'def hasOppositeSign {head}\n  -- no sorry here\n  "sorry".length > 3'
    assert check_definition(text, "hasOppositeSign", want, "code", policy=ADVERSARY_POLICY).ok
    assert isinstance(ModelAdversary("i", "t", "o", "d"), ModelAdversary)


def test_every_ground_truth_definition_passes_and_splits_back() -> None:
    """The checks accept what the benchmark itself writes, and the split gives back its sections."""
    from veriscale.formats.verina.dataset import read_dataset
    from veriscale.languages.lean.validate import SPEC_POLICY, main_name, normalized
    from veriscale.llm.fields import definition_text

    n = 0
    for t in read_dataset(DATA):
        for part in ("precond", "postcond", "code"):
            policy = ADVERSARY_POLICY if part == "code" else SPEC_POLICY
            want = expected_def(t, part)
            assert want is not None, (t.id, part)
            chk = check_definition(definition_text(t, part), main_name(t, part), want, part, policy=policy)
            assert chk.ok, (t.id, part, chk.reason, chk.detail)
            assert normalized(chk.body) == normalized(t.section_text(part)), (t.id, part)
            assert normalized(chk.aux) == normalized(t.section_text(f"{part}_aux")), (t.id, part)
            n += 1
    assert n == 3 * 189
