"""The stage-facing runner: samples, re-asks, usage and cost, offline mode, prompts from tasks."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from llm_fake_server import FakeOpenAI, ok, status
from veriscale.llm import LLMConfig, ModelRunner, Price, StageConfig, extract_json_array, model_available
from veriscale.llm.offline import reset_notices, skip_notice
from veriscale.llm.usage import cost_of

ENV = {"VERISCALE_API_KEY": "sk-runner-test-0000"}


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI().start()
    yield server
    server.stop()


def cfg(fake: FakeOpenAI, **kw: object) -> LLMConfig:
    base: dict[str, object] = {
        "model": "m1",
        "base_url": fake.url,
        "cache": "off",
        "max_retries": 2,
        "backoff_base": 0.0,
        "timeout": 2.0,
    }
    base.update(kw)
    return LLMConfig(**base)  # type: ignore[arg-type]


def test_stage_sampling_settings_are_sent(fake: FakeOpenAI) -> None:
    c = cfg(
        fake,
        seed=100,
        stages={"spec_gen": StageConfig(temperature=0.25, max_tokens=77, samples=2, model="spec-model")},
    )
    with ModelRunner(c, cache=None, env=ENV) as runner:
        out = runner.ask("spec_gen", [{"role": "user", "content": "x"}])
    assert len(out) == 2 and all(r.ok and r.model == "spec-model" for r in out)
    bodies = sorted((r["body"] for r in fake.requests), key=lambda b: b["seed"])
    assert [b["seed"] for b in bodies] == [100, 101]  # base seed + sample index
    assert all(
        b["temperature"] == 0.25 and b["max_tokens"] == 77 and b["model"] == "spec-model" for b in bodies
    )
    # Other stages keep their defaults when one stage is tuned.
    assert c.stage("seed_inputs").temperature == 0.8


def test_reask_on_malformed_then_give_up(fake: FakeOpenAI) -> None:
    fake.push(ok("no json here"), ok('[{"a": ', finish_reason="length"), ok("still nothing"))
    with ModelRunner(cfg(fake, reask_malformed=2), cache=None, env=ENV) as runner:
        [r] = runner.ask("seed_inputs", [{"role": "user", "content": "x"}], extract=extract_json_array)
        total = runner.usage.to_json()["total"]
    assert not r.ok and r.error is None and r.malformed == "no JSON array found"
    assert r.malformed_count == 3 and r.attempt == 2 and fake.count == 3
    assert total["malformed"] == 3 and total["responses"] == 3


def test_reask_succeeds_and_truncation_is_reported(fake: FakeOpenAI) -> None:
    fake.push(ok('```json\n[{"a": 1}, {"a":', finish_reason="length"))
    with ModelRunner(cfg(fake), cache=None, env=ENV) as runner:
        [r] = runner.ask("seed_inputs", [{"role": "user", "content": "x"}], extract=extract_json_array)
    assert r.ok and r.parsed == [{"a": 1}] and r.finish_reason == "length" and r.malformed_count == 0
    assert any("truncated" in n for n in r.notes)


def test_extractor_exception_is_contained(fake: FakeOpenAI) -> None:
    def broken(text: str) -> object:
        raise RuntimeError("boom")

    with ModelRunner(cfg(fake, reask_malformed=0), cache=None, env=ENV) as runner:
        [r] = runner.ask("seed_inputs", [{"role": "user", "content": "x"}], extract=broken)  # type: ignore[arg-type]
    assert r.malformed is not None and "RuntimeError" in r.malformed


def test_usage_and_cost_accounting(fake: FakeOpenAI) -> None:
    fake.push(
        ok("a", usage=(1000, 200)),
        ok("b", usage=(3000, 800)),
        status(500),
        ok("c", usage=(10, 10)),
        status(400, "nope"),
    )
    prices = {"m1": Price(input=2.0, output=8.0), "cheap-*": Price(input=0.1, output=0.2)}
    c = cfg(fake, prices=prices, concurrency=1)
    with ModelRunner(c, cache=None, env=ENV, sleep=lambda s: None) as runner:
        runner.ask("seed_inputs", [{"role": "user", "content": "x"}], n_samples=2)
        runner.ask("decompose", [{"role": "user", "content": "y"}])  # 500 then ok
        runner.ask("decompose", [{"role": "user", "content": "z"}], model="unpriced")  # 400: failure
        data = runner.usage.to_json()
        table = runner.usage.table()
    rows = {(r["stage"], r["model"]): r for r in data["by_stage_model"]}
    seed = rows[("seed_inputs", "m1")]
    assert (seed["prompt_tokens"], seed["completion_tokens"], seed["responses"]) == (4000, 1000, 2)
    assert seed["cost"] == pytest.approx((4000 * 2.0 + 1000 * 8.0) / 1e6)
    dec = rows[("decompose", "m1")]
    assert dec["http_requests"] == 2 and dec["responses"] == 1 and dec["failures"] == 0
    bad = rows[("decompose", "unpriced")]
    assert bad["failures"] == 1 and bad["responses"] == 0
    assert data["total"]["http_requests"] == 5 and data["total"]["failures"] == 1
    console = Console(width=160, record=True)
    console.print(table)
    text = console.export_text()
    assert "seed_inputs" in text and "0.0160" in text and "total" in text
    assert c.price_for("cheap-model-7") == prices["cheap-*"] and c.price_for("other") is None
    assert cost_of(None, 1, 1) is None
    assert cost_of(Price(input=1.0, output=1.0, cached_input=0.5), 100, 0, 50) == pytest.approx(75 / 1e6)


def test_unpriced_model_has_blank_cost(fake: FakeOpenAI) -> None:
    with ModelRunner(cfg(fake), cache=None, env=ENV) as runner:
        runner.ask("seed_inputs", [{"role": "user", "content": "x"}])
        assert runner.usage.to_json()["total"]["cost"] is None


def test_ask_many_keeps_order(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: "re: " + body["messages"][-1]["content"]
    prompts = [[{"role": "user", "content": f"p{i}"}] for i in range(7)]
    with ModelRunner(cfg(fake, concurrency=4), cache=None, env=ENV) as runner:
        out = runner.ask_many("seed_inputs", prompts, n_samples=2)
    assert [[r.text for r in row] for row in out] == [[f"re: p{i}"] * 2 for i in range(7)]


def test_offline_notice_once_and_no_requests(capsys: pytest.CaptureFixture[str]) -> None:
    reset_notices()
    c = LLMConfig()
    assert not c.configured
    assert model_available(c, ["seed_inputs", "decompose"]) is False
    assert model_available(c, ["decompose", "seed_inputs"]) is False  # same set: no second notice
    err = capsys.readouterr().err
    assert err.count("no model configured") == 1
    assert "skipping model-driven stages decompose, seed_inputs" in err
    seen: list[str] = []
    assert model_available(c, ["spec_gen"], notify=seen.append) is False
    assert (
        seen
        == [skip_notice(["spec_gen"])]
        == [
            "no model configured: skipping model-driven stage spec_gen "
            "(set VERISCALE_MODEL / --model, and VERISCALE_BASE_URL and a "
            "key if needed)"
        ]
    )
    assert model_available(LLMConfig(model="m"), ["spec_gen"]) is True
    with ModelRunner(c) as runner:  # asking anyway gives failed responses, never an exception
        out = runner.ask("spec_gen", [{"role": "user", "content": "x"}], n_samples=2)
    assert [r.error for r in out] == [skip_notice(["spec_gen"])] * 2 and runner.cache is None


def test_packaged_templates_render() -> None:
    from veriscale.llm import get_template, template_names
    from veriscale.llm.templates import PromptTemplate, TemplateError

    names = template_names()
    for want in (
        "seed_inputs",
        "decompose",
        "spec_gen",
        "adversarial_impl",
        "eval_specgen",
        "eval_codegen",
        "eval_proofgen",
    ):
        assert want in names
    for n in names:
        t = get_template(n)
        msgs = t.render(**{f: f"<{f}:{{$x}}>" for f in t.fields})
        assert [m["role"] for m in msgs] == ["system", "user"]
        joined = "".join(m["content"] for m in msgs)
        assert "${" not in joined and all(f"<{f}:{{$x}}>" in joined for f in t.fields)
    t = get_template("decompose")
    with pytest.raises(TemplateError, match="missing fields"):
        t.render()
    with pytest.raises(TemplateError, match="unknown fields"):
        t.render(description="d", extra="e")
    with pytest.raises(TemplateError, match="differ"):
        PromptTemplate.parse("# template: x\n# version: 1\n# fields: a\n---- user ----\n${b}")
    with pytest.raises(TemplateError, match="not a"):
        PromptTemplate.parse("# template: x\n# version: 1\n# fields: a\n---- user ----\n${a} costs $5")


def test_template_override_directory(tmp_path: Path) -> None:
    from veriscale.llm import get_template

    (tmp_path / "decompose.txt").write_text(
        "# template: decompose\n# version: 7\n# fields: description\n---- user ----\nModel: ${description}\n",
        encoding="utf-8",
    )
    t = get_template("decompose", tmp_path)
    assert t.version == "7" and t.ident.startswith("decompose@v7#")
    assert t.render(description="d") == [{"role": "user", "content": "Model: d"}]
    assert get_template("decompose").version == "1"


def test_prompts_from_real_tasks(verina_dir: Path) -> None:
    from veriscale.formats.verina.dataset import read_task
    from veriscale.llm import fields as F
    from veriscale.llm import get_template

    t = read_task(verina_dir / "verina_basic_1")
    assert F.signature_of(t, "precond") == "def hasOppositeSign_precond (a : Int) (b : Int) : Prop"
    assert F.signature_of(t, "code").endswith("(h_precond : hasOppositeSign_precond (a) (b)) : Bool")
    seed = get_template("seed_inputs").render(**F.seed_fields(t, count=40, example_limit=5))
    user = seed[1]["content"]
    assert "32 that satisfy" in user and "8 that violate" in user and '"param_name": "a"' in user
    assert "@[reducible, simp]\ndef hasOppositeSign_precond" in user and "!benchmark" not in user
    assert json.loads(F.seed_fields(t)["valid_examples"])[0] == {"input": t.tests[0].input}
    adv = get_template("adversarial_impl").render(**F.adversarial_fields(t, "def p := True", "def q := True"))
    assert (
        "named exactly `hasOppositeSign`" in adv[0]["content"] and "Write 5 adversarial" in adv[1]["content"]
    )
    spec = get_template("spec_gen").render(**F.spec_gen_fields(t, "Input: a b", "Output: res1"))
    assert "def hasOppositeSign_postcond (a : Int) (b : Int) (result: Bool)" in spec[1]["content"]
    assert F.split_targets(40) == (32, 8) and F.split_targets(3) == (1, 2) and F.split_targets(1) == (0, 1)
