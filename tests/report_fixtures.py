"""Inputs for the report tests: a real evaluation of the embedded tiny benchmark and a small run folder.

The evaluation scores two models on the tiny benchmark with the real harness (one process):
``gt`` submits each task's own sections; ``hostile`` submits text holding ``<script>`` and
other markup in its code, so the tests can check that model text is shown as text. The run
folder imitates a ``veriscale scale`` run: ``config.json``, ``stats.json`` and a ``plus/`` copy
of the tiny suite with one hand-written ``provenance.json`` per task.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from veriscale.evaluate.generations import ground_truth_generation, parse_generations
from veriscale.evaluate.harness import EvalOptions, SuiteSpec, evaluate_generations
from veriscale.evaluate.report import write_outputs
from veriscale.examples import tiny_path
from veriscale.formats.verina.dataset import discover_task_dirs, read_task

INJECTED = '</pre><script>window.__pwned = 1;</script><img src="http://example.com/x.png">'


def make_generations(path: Path) -> list[str]:
    """Write the generations file; return the task ids."""
    lines = []
    ids = []
    for d in discover_task_dirs(tiny_path()):
        task = read_task(d)
        ids.append(task.id)
        gt = ground_truth_generation(task, 0, kinds=("spec", "code"), model="gt").to_json()
        lines.append(json.dumps(gt, ensure_ascii=False))
        bad = ground_truth_generation(task, 0, kinds=("code",), model="hostile").to_json()
        bad["code"] = "  " + INJECTED + "\n"
        lines.append(json.dumps(bad, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ids


def make_evaluation(root: Path) -> Path:
    """``root/eval``: results.jsonl and summary.json of the two models on the tiny suite."""
    gens_file = root / "gens.jsonl"
    make_generations(gens_file)
    parsed = parse_generations(gens_file.read_text(encoding="utf-8").splitlines(), str(gens_file))
    assert not parsed.errors, parsed.errors
    run = evaluate_generations(
        parsed.generations,
        [SuiteSpec("tiny", tiny_path())],
        EvalOptions(workers=1),
        generations_file=str(gens_file),
    )
    out = root / "eval"
    write_outputs(run, out, chart=False)
    return out


def make_run(root: Path) -> Path:
    """``root/run``: a scale-run-like folder whose ``plus/`` suite is the tiny suite with provenance."""
    run = root / "run"
    plus = run / "plus"
    shutil.copytree(tiny_path(), plus, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    (run / "config.json").write_text("{}", encoding="utf-8")
    stats = {
        "datasets": [
            {"name": "original", "tasks": 3, "expected": {"total": 9, "mean": 3.0}},
            {"name": "plus", "tasks": 3, "expected": {"total": 9, "mean": 3.0}},
        ],
        "tasks": 3,
        "kill_preserved": 3,
        "coverage_preserved": 3,
        "failed": {},
    }
    (run / "stats.json").write_text(json.dumps(stats), encoding="utf-8")
    for d in discover_task_dirs(plus):
        n = len(json.loads((d / "test.json").read_text(encoding="utf-8")))
        prov = {
            "task_id": d.name,
            "suite": "plus",
            "adversaries": [
                {"id": "a0", "origin": "template:zero", "description": "zero <b>0</b>", "target": None},
                {"id": "a1", "origin": "mutant:const+1", "description": "const+1", "target": None},
            ],
            "specs": [],
            "dropped": {"unrenderable": 1},
            "tests": [
                {
                    "row": i,
                    "origin": {"origin": "original", "index": i},
                    "kills": [0] if i == 0 else [],
                    "covers": [0],
                }
                for i in range(n)
            ],
            "reject_inputs": [],
        }
        (d / "provenance.json").write_text(json.dumps(prov), encoding="utf-8")
    return run
