"""``veriscale evaluate`` on VeriContest: the ground truth as generations, bad answers, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shared_data import data_path, needs
from veriscale.languages.verus.compile import rustc_available

DATA = data_path("vericontest")

pytestmark = [
    pytest.mark.skipif(not rustc_available(), reason="rustc is not installed"),
    needs("vericontest"),
]


def _score(pid: str, gens: list) -> list[dict]:
    from veriscale.evaluate.vericontest.harness import VcEvalOptions, VcJob, run_vc_job

    d = DATA / ("codeforces" if pid.startswith("cf") else "leetcode") / pid
    return run_vc_job(VcJob("vc", str(d), pid, tuple(gens), VcEvalOptions()))


@pytest.mark.parametrize("pid", ["lc34", "cf1006C"])
def test_ground_truth_passes_every_task_that_needs_no_verus(pid: str) -> None:
    from veriscale.evaluate.scoring.aggregate import Score
    from veriscale.evaluate.vericontest.generations import VC_TASKS, ground_truth_generation
    from veriscale.formats.vericontest.dataset import read_problem

    p = read_problem(DATA / ("codeforces" if pid.startswith("cf") else "leetcode") / pid)
    rows = _score(pid, [ground_truth_generation(p, t) for t in VC_TASKS])
    scores = {m: r.score for row in rows for m, r in row["metrics"].items()}
    assert rows[0]["cases"]["positives"] == 3
    proof = {"spec_code2proof", "end2end"}
    assert {m: s for m, s in scores.items() if m not in proof} == dict.fromkeys(
        set(scores) - proof, Score.PASS
    )
    assert scores["spec_code2proof"] is Score.NOT_EVALUATED and scores["end2end"] is Score.NOT_EVALUATED


def test_bad_answers_each_get_a_category() -> None:
    from veriscale.evaluate.vericontest.generations import VcGeneration
    from veriscale.formats.vericontest.dataset import read_problem

    p = read_problem(DATA / "leetcode" / "lc34")
    fn = "pub fn search_range(nums: Vec<i32>, target: i32) -> Vec<i32>"
    answers = {
        "empty": "",
        "garbage": "this is not ### a program",
        "wrong name": "struct Solution; impl Solution { pub fn find(nums: Vec<i32>, t: i32) -> Vec<i32> { vec![] } }",
        "forbidden": f"struct Solution; impl Solution {{ {fn} {{ std::process::exit(0) }} }}",
        "wrong output": f"struct Solution; impl Solution {{ {fn} {{ vec![-1, -1] }} }}",
        "panic": f"struct Solution; impl Solution {{ {fn} {{ nums[nums.len()]; vec![] }} }}",
        "loops": f"struct Solution; impl Solution {{ {fn} {{ loop {{}} }} }}",
        "huge": f"struct Solution; impl Solution {{ {fn} {{ vec![0; 1 << 40] }} }}",
    }
    gens = [VcGeneration("lc34", "nl2code", i, a) for i, a in enumerate(answers.values())]
    gens.append(VcGeneration("lc34", "nl2code", 99, "", extraction_error="unclosed_fence"))
    gens.append(VcGeneration("lc34", "nl2spec", 0, p.spec.replace("pub fn search_range", "pub fn other")))
    gens.append(
        VcGeneration("lc34", "nl2spec", 1, p.spec.replace("requires", "requires nums.len() > 100,", 1))
    )
    gens.append(
        VcGeneration("lc34", "spec_code2proof", 0, p.code_spec.replace("requires", "requires true,", 1))
    )
    # passes every example, but z3 finds a valid input it rejects (target -1000000000)
    gens.append(VcGeneration("lc34", "nl2spec", 2, p.spec.replace("requires", "requires target >= -20,", 1)))
    gens.append(VcGeneration("lc34", "spec_code2proof", 1, p.verified.replace("ensures", "ensures true,", 1)))
    # spec2code must hand the given spec back: a weakened ensures fails before any test runs; the
    # same program as nl2code is judged on its outputs only
    weakened = p.code_spec.replace("ensures", "ensures true,", 1)
    gens.append(VcGeneration("lc34", "spec2code", 0, weakened))
    gens.append(VcGeneration("lc34", "nl_spec2code", 0, weakened))
    gens.append(VcGeneration("lc34", "nl2code", 100, weakened))
    rows = _score("lc34", gens)
    got = {(r["task"], r["sample"]): next(iter(r["metrics"].values())) for r in rows}
    cats = {k: (m.score.value, m.error.value if m.error else None) for k, m in got.items()}
    want = ["syntax_error", "syntax_error", "syntax_error", "forbidden_construct", "incorrect_output",
            "runtime_error", "timeout", "runtime_error"]  # fmt: skip
    assert [cats[("nl2code", i)] for i in range(len(answers))] == [("FAIL", c) for c in want]
    assert cats[("nl2code", 99)] == ("FAIL", "extraction_failed")
    assert cats[("nl2spec", 0)] == ("FAIL", "syntax_error")  # no function named as the problem's target
    assert cats[("nl2spec", 1)] == ("FAIL", "precondition_mismatch")
    assert cats[("nl2spec", 2)] == ("FAIL", "precondition_mismatch")
    assert got[("nl2spec", 2)].where == "requires equivalence" and "(z3)" in got[("nl2spec", 2)].reason
    assert got[("nl2spec", 2)].n_pass == 6  # the 3 examples, for the requires and the ensures
    assert cats[("spec_code2proof", 0)] == ("FAIL", "spec_code_modified")
    assert cats[("spec_code2proof", 1)] == ("FAIL", "spec_code_modified")
    assert cats[("spec2code", 0)] == cats[("nl_spec2code", 0)] == ("FAIL", "spec_code_modified")
    assert "spec modified: the `ensures` clause" in got[("spec2code", 0)].reason
    assert cats[("nl2code", 100)] == ("PASS", None)


def test_evaluate_cli_on_a_vericontest_root(tmp_path: Path) -> None:
    from veriscale.cli.app import _load_commands, app
    from veriscale.evaluate.vericontest.generations import ground_truth_generation
    from veriscale.formats.vericontest.dataset import read_problem

    p = read_problem(DATA / "leetcode" / "lc1004")
    gens = tmp_path / "g.jsonl"
    lines = [ground_truth_generation(p, t, s).to_json() for t in ("nl2code", "nl2spec") for s in (0, 1)]
    lines.append({"task_id": "lc1004", "task": "nl2code", "sample": 2, "program": "fn main() {}"})
    gens.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    _load_commands()
    args = ["evaluate", "-g", str(gens), "-s", str(DATA), "-o", str(tmp_path / "out"), "--no-chart",
            "--workers", "1", "--k", "1", "--k", "3"]  # fmt: skip
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    (entry,) = summary["results"]
    assert entry["metrics"]["nl2code"]["passk"]["pass@1"]["lower"] == pytest.approx(2 / 3)
    assert entry["metrics"]["nl2code"]["passk"]["pass@3"]["lower"] == 1.0
    assert entry["metrics"]["nl2code"]["errors"] == {"syntax_error": 1}
    assert entry["metrics"]["nl2spec"]["passk"]["pass@1"]["lower"] == 1.0
    rows = [
        json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert [r["sample"] for r in rows] == [0, 1, 2] and rows[0]["kinds"] == ["nl2spec", "nl2code"]


def test_a_verus_path_that_is_not_an_executable_is_an_error(tmp_path: Path) -> None:
    from veriscale.cli.app import _load_commands, app
    from veriscale.evaluate.vericontest.generations import ground_truth_generation
    from veriscale.formats.vericontest.dataset import read_problem

    gens = tmp_path / "g.jsonl"
    gens.write_text(
        json.dumps(ground_truth_generation(read_problem(DATA / "leetcode" / "lc34"), "end2end").to_json())
        + "\n"
    )
    _load_commands()
    args = ["evaluate", "-g", str(gens), "-s", str(DATA / "leetcode" / "lc34"), "-o", str(tmp_path / "o"),
            "--verus", str(tmp_path / "no-verus")]  # fmt: skip
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2 and "not an executable Verus binary" in res.output


def test_a_codeforces_whole_program_runs_on_the_examples_stdin() -> None:
    from veriscale.evaluate.vericontest.generations import VcGeneration
    from veriscale.formats.vericontest.dataset import read_problem

    p = read_problem(DATA / "codeforces" / "cf1006C")
    assert p.main is not None
    whole = p.main.replace("max_equal_outer_sum", "solve")  # no function named as the target
    wrong = whole.replace('println!("{}", out);', 'println!("{}", out + 1);')
    rows = _score("cf1006C", [VcGeneration("cf1006C", "nl2code", i, g) for i, g in enumerate([whole, wrong])])
    ok, bad = (r["metrics"]["nl2code"] for r in rows)
    assert ok.score.value == "PASS" and ok.n_pass == ok.n_tests == 3
    assert (bad.score.value, bad.error.value) == ("FAIL", "incorrect_output") and "printed" in bad.reason


@pytest.mark.parametrize("pid", ["cf1669D", "cf1506A"])
def test_a_problem_without_test_cases_is_not_evaluated_never_passed(pid: str) -> None:
    """cf1669D's description has no example; cf1506A's only example is left out (a suite defect)."""
    from veriscale.evaluate.scoring.aggregate import Score
    from veriscale.evaluate.vericontest.generations import VC_TASKS, VcGeneration, ground_truth_generation
    from veriscale.formats.vericontest.dataset import read_problem

    p = read_problem(DATA / "codeforces" / pid)
    gens = [ground_truth_generation(p, t) for t in VC_TASKS]
    gens.append(VcGeneration(pid, "nl2code", 1, "", extraction_error="empty"))
    rows = _score(pid, gens)
    assert rows[0]["cases"]["positives"] == 0
    got = {(r["task"], r["sample"], m): x for r in rows for m, x in r["metrics"].items()}
    for (task, sample, m), x in got.items():
        if sample == 1:
            assert x.score is Score.FAIL, m  # a failure needs no test
        elif m in ("nl2spec_pre", "end2end_pre"):  # decided by z3 equivalence alone: a real check
            assert x.score is Score.PASS and x.n_tests == 1 and x.n_pass == 1, (m, x.reason)
        elif task != "spec_code2proof":  # the ground-truth proof may count as modified (docs)
            assert x.score is Score.NOT_EVALUATED, (m, x.reason)
            assert "no test cases" in x.reason or "requires Verus" in x.reason, (m, x.reason)
    assert "no test cases" in got[("nl2code", 0, "nl2code")].reason


def test_proof_samples_are_verified_in_one_batched_verus_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The job's proof programs go to Verus together (a fake Verus here: no Verus on this machine);
    errors come back to the sample whose module they name."""
    from veriscale.evaluate.scoring.aggregate import Score
    from veriscale.evaluate.vericontest.generations import VcGeneration, ground_truth_generation
    from veriscale.evaluate.vericontest.harness import VcEvalOptions, VcJob, run_vc_job
    from veriscale.formats.vericontest.dataset import read_problem
    from veriscale.languages.verus.toolchain import prover as backend_module
    from veriscale.languages.verus.toolchain.batch import RunOutput

    calls: list[tuple[str, list[str]]] = []

    class FakeVerus:
        def __init__(self, path: str, **_: object) -> None:
            self.path = path

        def __call__(self, files, root, timeout):
            mods = [n for n in sorted(files) if n != "batch.rs"]
            calls.append((self.path, mods))
            bad = [n for n in mods if "BROKEN" in files[n]]
            text = "".join(f"error: postcondition not satisfied\n  --> {n}:3:9\n\n" for n in bad)
            text += f"verification results:: {2 * (len(mods) - len(bad))} verified, {len(bad)} errors\n"
            return RunOutput(text, 1 if bad else 0)

    monkeypatch.setattr(backend_module, "VerusRunner", FakeVerus)
    p = read_problem(DATA / "leetcode" / "lc34")
    gt = ground_truth_generation(p, "end2end")
    broken = VcGeneration("lc34", "end2end", 1, gt.program.replace("fn main", "// BROKEN\nfn main"))
    cheat = VcGeneration(
        "lc34", "end2end", 2, gt.program.replace("fn main", "proof fn x() { admit(); }\nfn main")
    )
    d = DATA / "leetcode" / "lc34"
    rows = run_vc_job(VcJob("vc", str(d), "lc34", (gt, broken, cheat), VcEvalOptions(verus="/opt/verus")))
    got = {r["sample"]: r["metrics"]["end2end"] for r in rows}
    assert got[0].score is Score.PASS
    assert (got[1].score, got[1].error.value) == (Score.FAIL, "verification_failure")
    assert "postcondition not satisfied" in got[1].reason
    assert (got[2].score, got[2].error.value) == (Score.FAIL, "verification_failure")  # refused before Verus
    assert calls == [("/opt/verus", ["sample_0.rs", "sample_1.rs"])]  # one run, two modules


def test_live_verus_when_installed() -> None:
    """Runs only where Verus is installed (``VERISCALE_VERUS``): the benchmark's own proof verifies,
    an ``assume`` is refused."""
    from veriscale.evaluate.vericontest.verus import find_verus, verus_verifier
    from veriscale.formats.vericontest.dataset import read_problem

    path = find_verus()
    if path is None:
        pytest.skip("Verus is not installed (set VERISCALE_VERUS to a verus binary)")
    p = read_problem(DATA / "leetcode" / "lc34")
    cheat = p.verified.replace("fn main", "proof fn x() ensures false { assume(false); }\nfn main")
    backend = verus_verifier(path, 300.0)
    backend.prefetch([p.verified, cheat])
    assert backend(p.verified) == (True, "")
    ok, msg = backend(cheat)
    assert ok is False and "no-cheating" in msg


def test_positives_the_ground_truth_spec_contradicts_test_code_but_not_specs() -> None:
    """lc704's requires rejects every input, lc3022's stub ensures rejects the right answers
    (docs/vericontest-mismatches.md): the examples still test code; spec metrics leave them out."""
    from veriscale.evaluate.scoring.aggregate import Score
    from veriscale.evaluate.vericontest.generations import ground_truth_generation
    from veriscale.formats.vericontest.dataset import read_problem

    for pid, why in (("lc704", "requires rejects"), ("lc3022", "ensures rejects")):
        p = read_problem(DATA / "leetcode" / pid)
        rows = _score(pid, [ground_truth_generation(p, t) for t in ("nl2code", "nl2spec")])
        m = {k: v for r in rows for k, v in r["metrics"].items()}
        assert m["nl2code"].score is Score.PASS and m["nl2code"].n_tests == rows[0]["cases"]["positives"] > 0
        assert m["nl2spec"].score is Score.NOT_EVALUATED and why in m["nl2spec"].reason, m["nl2spec"].reason
        assert m["nl2spec_post"].score is Score.NOT_EVALUATED
    p = read_problem(DATA / "leetcode" / "lc3131")
    (row,) = _score("lc3131", [ground_truth_generation(p, "nl2spec")])
    post = row["metrics"]["nl2spec_post"]
    assert post.score is Score.PASS and post.n_excluded == 1 and post.n_tests == 2  # example 0 left out
