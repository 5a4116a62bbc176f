"""VeriContest's model-driven suite stages end to end against the local fake OpenAI-compatible server.

Two real problems: lc7 (reverse an ``i32``) and lc509 (Fibonacci, ``0 <= n <= 30``).
The scripted answers (``suite_fake_model``) hold a real buggy variant, one that passes
everything, one that fails everything, one that does not compile, a prose answer
without code; a good generator, one that prints garbage and out-of-range inputs
besides good ones, one that does not compile and one that never ends.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import suite_fake_model
from llm_fake_server import FakeOpenAI
from shared_data import data_path, needs
from veriscale.languages.verus.compile import rustc_available
from veriscale.llm.config import LLMConfig
from veriscale.pipeline.config import PipelineConfig
from veriscale.pipeline.format_suites import STAGE, run_format_scale
from veriscale.pipeline.rundir import RunDir
from veriscale.runtime.executor import SerialExecutor

pytestmark = [needs("vericontest", "leetcode"), pytest.mark.skipif(not rustc_available(), reason="no rustc")]

ROOT = data_path("vericontest", "leetcode")
SETTINGS = {"target": 60, "candidates": 100, "generator_seconds": 2.0}  # small and quick


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI().start()
    server.responder = suite_fake_model.responder
    yield server
    server.stop()


def _llm(fake: FakeOpenAI, tmp_path: Path) -> LLMConfig:
    return LLMConfig(model="fake-model", base_url=fake.url, cache="on", cache_path=tmp_path / "llm.sqlite",
                     max_retries=0, timeout=30.0, reask_malformed=0)  # fmt: skip


def _run(root: Path, out: Path, llm: LLMConfig | None) -> tuple[dict, dict[str, dict]]:
    with RunDir.open(out, PipelineConfig(model=llm.model if llm else None)) as rd:
        reports, written, stats = run_format_scale(
            root, rd, SerialExecutor(), tasks=["lc7", "lc509"], settings=SETTINGS, llm_config=llm
        )
        assert reports[0].ok, reports[0].failed
        docs = {t: rd.read_result(STAGE, t) for t in written}
    return stats, docs


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_semantic_mutants_and_generators_end_to_end(
    fake: FakeOpenAI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERISCALE_API_KEY", "sk-suite-test")
    llm = _llm(fake, tmp_path)
    out = tmp_path / "run"
    stats, docs = _run(ROOT, out, llm)
    assert fake.count == 6  # per problem: the semantic mutants, a random and an adversarial generator
    assert sorted(docs) == ["lc509", "lc7"]

    # ---- lc7: semantic mutants
    lc7 = docs["lc7"]
    var = {v["variant"]: v for v in lc7["semantic"]["variants"]}
    assert var["v1"]["status"] == "kept" and 0 < var["v1"]["pass_rate"] < 1
    assert (var["v2"]["status"], var["v2"]["reason"]) == ("dropped", "passes every positive")
    assert (var["v3"]["status"], var["v3"]["reason"]) == ("dropped", "fails every positive")
    assert var["v4"]["status"] == "dropped" and var["v4"]["reason"].startswith("does not compile")
    assert "v4" not in {v for v in var if var[v].get("ran")}
    pos = lc7["positives"]
    sem = [n for n in lc7["negatives"] if n["source"].startswith("semantic:")]
    assert {n["source"] for n in sem} <= {"semantic:v1", "semantic:v5"}
    v1 = [n for n in sem if n["source"] == "semantic:v1"]
    assert v1, "the sign bug gives negatives"
    for n in v1:  # exactly the bug: a negative input whose answer lost its sign
        p = pos[n["input_index"]]
        assert p["input"]["x"] < 0 and n["output"] == -p["output"] != p["output"]
    killers = [i for i, ks in enumerate(lc7["kills"]) if var["v1"]["mutant"] in ks]
    assert killers and all(pos[i]["input"]["x"] < 0 and pos[i]["output"] != 0 for i in killers)
    assert len(lc7["negatives"]) <= 10 * len(pos)
    assert lc7["counts"]["negatives_by_source"]["semantic"] == len(sem)

    # ---- lc7: generators (a good one, one that never ends and is killed by the time limit)
    gens = {g["kind"]: g for g in lc7["generators"]["programs"]}
    assert gens["random"]["status"] == "ok" and gens["random"]["parsed"] == 90
    assert (
        gens["adversarial"]["status"] == "run_timeout"
        and gens["adversarial"]["runs"][0]["status"] == "timeout"
    )
    assert any(p["family"] == "generator:random" for p in pos)

    # ---- lc509: garbage semantic answer; a generator with garbage and out-of-range lines; one broken
    lc509 = docs["lc509"]
    assert lc509["semantic"]["variants"] == []
    assert lc509["semantic"]["answer_errors"] == [{"sample": 0, "reason": "no closed Rust code block"}]
    gens = {g["kind"]: g for g in lc509["generators"]["programs"]}
    assert gens["random"]["status"] == "ok"
    assert gens["random"]["garbage"] == {"not JSON": 2, "wrong parameter names": 2}
    assert (
        gens["adversarial"]["status"] == "compile_error"
        and "mismatched types" in gens["adversarial"]["reason"]
    )
    req = lc509["generators"]["requires"]
    assert req["false"] > 0 and req["true"] > 0  # sizes past 30 were printed and refused by `requires`
    gen_pos = [p for p in lc509["positives"] if p["family"] == "generator:random"]
    assert gen_pos and all(0 <= p["input"]["n"] <= 30 for p in lc509["positives"])
    assert not any(n["source"].startswith("semantic") for n in lc509["negatives"])

    # ---- written files: provenance names the origin, the variant and its kills
    prov = json.loads((out / "plus" / "leetcode" / "lc7" / "tests" / "provenance.json").read_text())
    assert [v["variant"] for v in prov["semantic"]["variants"]] == ["v1", "v2", "v3", "v4", "v5"]
    assert prov["mutant_names"][str(var["v1"]["mutant"])].startswith("semantic v1:")
    assert {n["source"] for n in prov["negatives"]} >= {"semantic:v1"}
    assert any(p["family"] == "generator:random" for p in prov["positives"])
    negs = _lines(out / "plus" / "leetcode" / "lc7" / "tests" / "mutated_testcases.jsonl")
    assert len(negs) == len(lc7["negatives"])
    assert stats["kill_preserved"] == 2  # Lite keeps every kill, the semantic variants' included
    ms = stats["model_stages"]
    assert ms["semantic_mutants"]["kept"] >= 1 and ms["semantic_mutants"]["unusable_answers"] == 1
    assert ms["input_generators"]["bad"] == 2 and ms["input_generators"]["ok"] == 2
    assert ms["requests"]["questions"] == 6 and ms["requests"]["cached"] == 0

    # ---- resuming asks nothing and rebuilds nothing
    stats2, docs2 = _run(ROOT, out, llm)
    assert fake.count == 6 and docs2 == docs and stats2["model_stages"] == ms


def test_answers_come_from_the_cache_on_rerun(
    fake: FakeOpenAI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from veriscale.formats.vericontest.suite_builder import VeriContestSuites
    from veriscale.llm.runner import ModelRunner
    from veriscale.pipeline.format_models import ask_suite_models

    monkeypatch.setenv("VERISCALE_API_KEY", "sk-suite-test")
    llm = _llm(fake, tmp_path)
    hooks = VeriContestSuites()
    with ModelRunner(llm) as runner:
        first, t1 = ask_suite_models(hooks, ROOT / "lc509", {}, runner)
    with ModelRunner(llm) as runner:
        again, t2 = ask_suite_models(hooks, ROOT / "lc509", {}, runner)
    assert fake.count == 3 and first == again
    assert t1["cached"] == 0 and t2["cached"] == 3 and t2["http_requests"] == 0
    assert sorted(first) == ["generator_adversarial", "generator_random", "semantic_mutants"]
    prompt = fake.requests[0]["body"]["messages"][-1]["content"]
    assert "# Fibonacci Number" in prompt
    # an unusable answer (prose, no code) is asked again, up to `reask_malformed` times
    llm2 = llm.model_copy(update={"reask_malformed": 1, "cache_path": tmp_path / "other.sqlite"})
    with ModelRunner(llm2) as runner:
        third, t3 = ask_suite_models(hooks, ROOT / "lc509", {}, runner)
    assert fake.count == 3 + 4 and t3["malformed"] == 2 and third == first


def test_without_a_model_the_stages_are_skipped(tmp_path: Path) -> None:
    stats, docs = _run(ROOT, tmp_path / "run", None)
    assert stats["model_stages"] == {
        "semantic_mutants": "skipped: no model configured (give --model)",
        "input_generators": "skipped: no model configured (give --model)",
    }
    assert all("semantic" not in d and "generators" not in d for d in docs.values())


@pytest.mark.slow
def test_cli_scale_with_a_model(fake: FakeOpenAI, tmp_path: Path) -> None:
    from veriscale.cli.app import _load_commands, app
    from veriscale.llm.offline import reset_notices

    _load_commands()
    reset_notices()
    env = {"VERISCALE_BASE_URL": fake.url, "VERISCALE_API_KEY": "sk-cli", "VERISCALE_LLM_CONFIG": "",
           "VERISCALE_MODEL": "", "VERISCALE_CACHE": str(tmp_path / "llm.sqlite"), "COLUMNS": "200"}  # fmt: skip
    base = ["scale", "--benchmark", str(ROOT), "--tasks", "lc509", "--workers", "1"]
    res = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "a"), "--model", "cli-model"], env=env)
    assert res.exit_code == 0, res.output
    # three questions; the prose answer to the semantic one is asked again twice (reask_malformed=2)
    assert fake.count == 5 and fake.requests[0]["body"]["model"] == "cli-model"
    assert "requests: questions 3, answers 3, failed 0, malformed 3, responses 5, cached 0" in res.output
    assert "input_generators: programs 2, ok 1, bad 1" in res.output
    again = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "b"), "--model", "cli-model"], env=env)
    assert again.exit_code == 0, again.output
    assert fake.count == 5  # a fresh run directory: every answer from the cache
    a = (tmp_path / "a" / "plus" / "leetcode" / "lc509" / "tests" / "testcases.jsonl").read_text()
    assert a == (tmp_path / "b" / "plus" / "leetcode" / "lc509" / "tests" / "testcases.jsonl").read_text()
    for suite in ("plus", "lite"):  # the ground truth accepts every positive and rejects every negative
        chk = CliRunner().invoke(app, ["check", str(tmp_path / "a" / suite), "--json"])
        assert chk.exit_code == 0, chk.output
        assert json.loads(chk.output)["test_files"]["summary"]["agreement"] == 1.0
    off = CliRunner().invoke(
        app, [*base, "--out", str(tmp_path / "c")], env={**env, "VERISCALE_BASE_URL": ""}
    )
    assert off.exit_code == 0, off.output
    assert "semantic_mutants: skipped: no model configured" in off.output
