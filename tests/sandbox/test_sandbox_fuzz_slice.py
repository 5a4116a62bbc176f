"""A fast slice of the hostile fuzz campaign (the full one: benchmarks/bench_fuzz_hostile.py)."""

from __future__ import annotations

from pathlib import Path

import hostile_fuzz


def test_fuzz_slice(tmp_path: Path) -> None:
    sizes = hostile_fuzz.Sizes(
        lean=24,
        rust=200,
        rust_compile_budget=2,
        runtime_runs=10,
        verina_variants=40,
        vericontest_variants=30,
        cli_share=0.05,
    )
    rep = hostile_fuzz.run_campaign(sizes, tmp_path / "work", seed=7)
    out = rep.to_json()
    assert out["tracebacks"] == 0, out["traceback_examples"]
    assert out["hangs"] == 0, out["hang_examples"]
    assert out["processes_left"] == 0, rep.processes_left[:5]
    assert out["files_outside_sandbox"] == 0, rep.files_outside[:5]
    assert out["secrets_visible"] == 0
    c = out["counts"]
    assert c["lean code candidates"] == c["lean spec candidates"] == 24
    assert c["rust candidates"] == 200 and c["corrupted Verina variants"] == 40
    # every escape family is refused before compiling
    assert out["outcomes"]["rust escape: refused (forbidden_construct)"] == 100
