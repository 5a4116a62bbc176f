"""``veriscale evaluate`` end to end: 4 Verina tasks on 2 suites (Verina, VerinaLite), a process pool,
results JSONL, summary JSON, the comparison table and the PNG chart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shared_data import require
from veriscale.cli.app import _load_commands, app
from veriscale.evaluate.generations import Generation, ground_truth_generation, write_generations
from veriscale.evaluate.harness import EvalOptions, SuiteSpec, evaluate_generations
from veriscale.evaluate.report import summarize
from veriscale.formats.verina.dataset import read_task

TASKS = ("verina_basic_1", "verina_basic_10", "verina_advanced_39", "verina_advanced_38")


def _suites() -> tuple[Path, Path]:
    out = []
    for name in ("verina", "verinalite"):
        out.append(require(name))
    return out[0], out[1]


def _generations(verina: Path) -> list[Generation]:
    gens: list[Generation] = []
    for tid in TASKS:
        task = read_task(verina / tid)
        gens.append(ground_truth_generation(task, sample=0, kinds=["spec", "code"]))
        gt = gens[-1]
        # sample 1: a realistic mistake per task (weaker precondition, wrong code)
        gens.append(
            Generation(tid, 1, ("spec", "code"), precond="True", postcond=gt.postcond, code="default")
        )
    gens.append(Generation("verina_basic_1", 2, ("proof",), proof="unfold hasOppositeSign_postcond\nsimp"))
    return gens


def _strip_seconds(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_evaluate_cli_end_to_end(tmp_path: Path) -> None:
    verina, lite = _suites()
    gens = _generations(verina)
    gen_file = tmp_path / "gens.jsonl"
    write_generations(gens, gen_file)
    with gen_file.open("a", encoding="utf-8") as fh:
        fh.write('{"task_id": "verina_basic_1", "sample": 9}\n')  # a bad line: reported, skipped
    out = tmp_path / "out"
    _load_commands()
    res = CliRunner().invoke(
        app,
        [
            "evaluate",
            "--generations", str(gen_file),
            "--suite", str(verina),
            "--suite", f"lite={lite}",
            "--out", str(out),
            "--k", "1", "--k", "2",
            "--workers", "2",
            "--exclude-fewshot", "verina",
        ],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "gens.jsonl:" in res.output and "no generation fields" in res.output
    assert "pass@1 in % (lower – upper bound)" in res.output and "pass@2" in res.output
    assert "verina" in res.output and "lite" in res.output and "wall-clock SpecGen (s)" in res.output

    rows = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    # 4 tasks × 2 samples + 1 proof sample, on each of 2 suites; suites in command-line order
    assert len(rows) == 2 * (2 * len(TASKS) + 1)
    assert [r["suite"] for r in rows] == ["verina"] * 9 + ["lite"] * 9
    by = {(r["suite"], r["task_id"], r["sample"]): r for r in rows}
    for suite in ("verina", "lite"):
        for tid in TASKS:
            gt = by[(suite, tid, 0)]["metrics"]
            assert gt["code"]["score"] == "PASS" and gt["precond_postcond"]["lower"], (suite, tid)
            assert by[(suite, tid, 1)]["metrics"]["code"]["score"] == "FAIL"
    assert (
        by[("verina", "verina_basic_10", 1)]["metrics"]["precond_complete"]["error"]
        == "precondition_mismatch"
    )
    lite_sound = by[("lite", "verina_basic_1", 0)]["metrics"]["postcond_sound"]
    assert lite_sound["n_tests"] == 0 and "no unexpected outputs" in lite_sound["note"]

    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert [s["name"] for s in summary["suites"]] == ["verina", "lite"]
    assert summary["suites"][0]["has_unexpected"] and not summary["suites"][1]["has_unexpected"]
    assert summary["excluded_tasks"] == ["verina_basic_15", "verina_basic_44"]
    assert Path(summary["generations"]).is_absolute()  # the report finds candidate text through it
    assert set(summary["suites"][0]["wall_seconds"]) == {"spec", "code", "proof", "total"}
    entry = summary["results"][0]
    code = entry["metrics"]["code"]
    assert code["passk"]["pass@1"]["lower"] == pytest.approx(0.5)  # one of two samples passes per task
    assert code["passk"]["pass@2"]["lower"] == pytest.approx(1.0)
    assert code["errors"] == {"incorrect_output": 4}
    assert entry["metrics"]["proof"]["n_not_evaluated"] in (0, 1)
    lite_entry = summary["results"][1]
    assert lite_entry["metrics"]["postcond_sound"]["all_untested"]

    png = out / "chart.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000

    # the same evaluation in this process gives the same per-sample results (order and content)
    run = evaluate_generations(
        gens,
        [SuiteSpec("verina", verina), SuiteSpec("lite", lite)],
        EvalOptions(workers=1, ks=(1, 2), exclude=("verina_basic_15", "verina_basic_44")),
    )
    assert _strip_seconds(run.rows_json()) == _strip_seconds(rows)
    assert summarize(run)["results"] == summary["results"]


def test_evaluate_cli_rejects_bad_arguments(tmp_path: Path) -> None:
    verina, _ = _suites()
    _load_commands()
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    res = CliRunner().invoke(
        app, ["evaluate", "-g", str(empty), "-s", str(verina), "-o", str(tmp_path / "o")]
    )
    assert res.exit_code == 2 and "no valid generations" in res.output
    gens = tmp_path / "g.jsonl"
    write_generations([Generation("verina_basic_1", 0, ("code",), code="a * b < 0")], gens)
    res = CliRunner().invoke(app, ["evaluate", "-g", str(gens), "-s", str(tmp_path / "missing")])
    assert res.exit_code == 2 and "suite directory not found" in res.output
    res = CliRunner().invoke(app, ["evaluate", "-g", str(gens), "-s", str(verina), "--engine", "fast"])
    assert res.exit_code == 2


def test_evaluate_cli_reads_a_verina_output_folder(tmp_path: Path) -> None:
    verina, _ = _suites()
    report = {
        "config": {"gen_lm_config": {"model": "m"}},
        "rounds": {
            "0": {
                "data_reports": {
                    "verina_basic_1": {
                        "task_reports": {
                            "execute_code_gen": {
                                "task_flags": {"code": True, "spec": False, "proof": False},
                                "fewshot_example_names": ["verina_basic_15"],
                                "artifact": {"imports": "", "code_aux": "", "code": "a * b < 0"},
                            }
                        }
                    }
                }
            }
        },
    }
    folder = tmp_path / "verina-out"
    folder.mkdir()
    (folder / "rounds_report_1700000000.json").write_text(json.dumps(report), encoding="utf-8")
    _load_commands()
    out = tmp_path / "out"
    res = CliRunner().invoke(
        app, ["evaluate", "-g", str(folder), "-s", str(verina), "-o", str(out), "-j", "1", "--no-chart"]
    )
    assert res.exit_code == 0, res.output
    assert "excluding the report's few-shot tasks: verina_basic_15" in res.output
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["model"], r["task_id"], r["metrics"]["code"]["score"]) for r in rows] == [
        ("m", "verina_basic_1", "PASS")
    ]
    assert not (out / "chart.png").exists()
