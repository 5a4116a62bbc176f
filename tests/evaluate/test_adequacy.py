"""Suite adequacy: coverage probes of the native evaluator, kill rates, ``stats --adequacy``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

import veriscale.cli.check_data  # two commands, so typer keeps "stats" a subcommand
import veriscale.cli.stats  # noqa: F401  (registers the command)
from shared_data import require
from veriscale.cli.app import app
from veriscale.evaluate.checks.adequacy import adequacy_report, task_adequacy
from veriscale.formats.verina.dataset import Task, read_task
from veriscale.languages.lean.native import NativeEngine
from veriscale.runtime.limits import Limits


def _task(dataset: str, task_id: str) -> Task:
    return read_task(require(dataset, task_id))


# ------------------------------------------------------------ a hand-made task

_CODE_AUX = """\
def countPos (ys : List Nat) : Nat :=
  match ys with
  | [] => 0
  | y :: rest => (if y > 0 then 1 else 0) + countPos rest
"""

_CODE = """\
  if x > 100 then
    0
  else if x < 0 then
    countPos ys
  else
    Id.run do
      let mut s := 0
      for y in ys do
        if y == 7 then
          s := s + 100
        s := s + y
      return s
"""


def _lean(code: str = _CODE, code_aux: str = _CODE_AUX) -> str:
    return f"""\
-- !benchmark @start import type=solution
import Mathlib
-- !benchmark @end import

@[reducible, simp]
def classify_precond (x : Int) (ys : List Nat) : Prop :=
  -- !benchmark @start precond
  x ≠ 42
  -- !benchmark @end precond

-- !benchmark @start code_aux
{code_aux}-- !benchmark @end code_aux

def classify (x : Int) (ys : List Nat) (h_precond : classify_precond (x) (ys)) : Nat :=
  -- !benchmark @start code
{code}  -- !benchmark @end code

@[reducible, simp]
def classify_postcond (x : Int) (ys : List Nat) (result: Nat) (h_precond : classify_precond (x) (ys)) :=
  -- !benchmark @start postcond
  True
  -- !benchmark @end postcond
"""


def _write_task(root: Path, rows: list[tuple[int, list[int], int]]) -> Path:
    d = root / "adq_task_1"
    d.mkdir(parents=True)
    sig = {
        "name": "classify",
        "parameters": [
            {"param_name": "x", "param_type": "Int"},
            {"param_name": "ys", "param_type": "List Nat"},
        ],
        "return_type": "Nat",
    }
    (d / "task.json").write_text(
        json.dumps({"id": "adq_task_1", "signature": sig, "lean_file": "./task.lean"}), encoding="utf-8"
    )
    (d / "task.lean").write_text(_lean(), encoding="utf-8")
    (d / "description.txt").write_text("Classify x; sum or count the list.\n", encoding="utf-8")
    tests = [{"input": {"x": x, "ys": ys}, "expected": out} for x, ys, out in rows]
    (d / "test.json").write_text(json.dumps(tests), encoding="utf-8")
    (d / "reject_inputs.json").write_text("[]", encoding="utf-8")
    return d


@dataclass(frozen=True)
class _Adv:
    id: str
    origin: str
    text: str

    @property
    def overrides(self) -> dict[str, str]:
        return {"code": self.text}


_ADVS = [
    _Adv("wide", "hand", _CODE.replace("x > 100", "x > 1000")),  # differs only for 100 < x ≤ 1000
    _Adv("plus1", "hand", _CODE.replace("countPos ys", "countPos ys + 1")),
    _Adv("spin", "hand", "  let rec spin (n : Nat) : Nat := spin (n + 1)\n  spin 0\n"),
]


def _pool(task: Task) -> list[_Adv]:
    return list(_ADVS)


SUITE1 = [(5, [1, 2], 3), (-1, [3, 0], 1), (42, [1], 0), (0, [], 0)]
SUITE2 = [(500, [1], 0), (-3, [], 0)]


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("adq")
    _write_task(base / "s1", SUITE1)
    _write_task(base / "s2", SUITE2)
    return base / "s1", base / "s2"


def test_unexecuted_branches_are_named(suites: tuple[Path, Path]) -> None:
    task = read_task(suites[0] / "adq_task_1")
    r = task_adequacy(task)
    assert (r.rows, r.used, r.precond_false, r.undecodable) == (4, 3, 1, 0)
    assert (r.gt_mismatch, r.gt_no_value, r.error) == (0, 0, None)
    cov = r.coverage
    assert cov is not None
    assert cov.by_kind() == {"def": (2, 2), "branch": (5, 7), "arm": (2, 2), "loop": (1, 1)}
    assert cov.ratio < 1.0
    lines = task.lean_text.split("\n")
    missed = {(p.label, p.definition, r.file_lines[p.index]) for p in r.missed()}
    x_gt = next(i for i, s in enumerate(lines, 1) if "if x > 100" in s)
    y_eq = next(i for i, s in enumerate(lines, 1) if "if y == 7" in s)
    assert missed == {("then", "classify", x_gt + 1), ("then", "classify", y_eq + 1)}
    texts = sorted(r.describe(p) for p in r.missed())
    assert texts[0].startswith("then branch of classify at task.lean:")
    # probes carry section-relative positions too: line 2 of the code section is ``    0``
    first = min(r.missed(), key=lambda p: p.index)
    assert (first.section, first.line, first.col) == ("code", 2, 5)


def test_kill_rate_union_of_suites(suites: tuple[Path, Path]) -> None:
    rep = adequacy_report(list(suites), adversary_pool=_pool, names=["one", "two"])
    one, two = rep.summaries()
    assert one["adversaries"]["pool"] == 3 and one["adversaries"]["timeouts"] == 1
    # "wide" differs from the ground truth only on suite two's x = 500
    assert rep.distinguishable() == {"adq_task_1": {"wide", "plus1"}}
    assert (one["adversaries"]["killed"], one["adversaries"]["distinguishable"]) == (1, 2)
    assert (two["adversaries"]["killed"], two["adversaries"]["distinguishable"]) == (2, 2)
    assert one["adversaries"]["kill_rate_mean"] == 0.5 and two["adversaries"]["kill_rate_mean"] == 1.0
    # alone, suite one kills every adversary it can tell apart
    alone = adequacy_report([suites[0]], adversary_pool=_pool).summaries()[0]
    assert (alone["adversaries"]["killed"], alone["adversaries"]["distinguishable"]) == (1, 1)
    assert alone["coverage_mean"] == pytest.approx(10 / 12) and alone["tasks_full"] == 0
    assert two["coverage_mean"] < 1.0
    js = rep.to_json()
    detail = js["suites"][0]["task_details"][0]
    assert detail["adversaries"]["survivors"] == ["wide"]
    assert [m["label"] for m in detail["coverage"]["missed"]] == ["then", "then"]


def test_cli_adequacy_json_and_table(suites: tuple[Path, Path]) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["stats", "--adequacy", "--no-adversaries", "--json", *map(str, suites)])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert [s["name"] for s in doc["suites"]] == ["s1", "s2"]
    assert doc["suites"][0]["probes_hit"] == 10 and doc["suites"][0]["probes_total"] == 12
    assert "adversaries" not in doc["suites"][0]
    res = runner.invoke(app, ["stats", "--adequacy", "--no-adversaries", "--task", "nope", str(suites[0])])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["stats", "--adequacy", "--no-adversaries", str(suites[0])])
    assert res.exit_code == 0, res.output
    assert "83.3%" in res.output and "10/12" in res.output


# ------------------------------------------------------------------ real data


def test_verina_if_else_fully_covered() -> None:
    task = _task("verina", "verina_basic_20")
    r = task_adequacy(task)
    assert r.coverage is not None and r.used == len(task.tests)
    assert r.coverage.by_kind()["branch"] == (4, 4)
    assert r.coverage.ratio == 1.0 and not r.missed()


def test_verina_unreachable_arm_counted() -> None:
    task = _task("verina", "verina_advanced_1")
    r = task_adequacy(task)
    assert r.coverage is not None
    (m,) = r.missed()
    # ``| [] => 0`` of the local ``findUnique``: the precondition guarantees a unique element
    line = task.lean_text.split("\n")[r.file_lines[m.index] - 1]
    assert m.kind == "arm" and m.definition == "FindSingleNumber.findUnique" and "[]" in line


def test_verina_kill_rate_sanity() -> None:
    from veriscale.pipeline.outputs.stage import all_adversaries

    task = _task("verina", "verina_advanced_1")
    advs = all_adversaries(task)
    r = task_adequacy(task, adversaries=advs)
    assert r.adversaries is not None and len(r.adversaries) == len(advs)
    killed, denom = r.kills()
    assert denom >= 10 and killed == denom  # every distinguishable adversary is caught
    assert all(a.differs for a in r.adversaries if a.killed)


def test_coverage_off_generates_no_probes() -> None:
    task = _task("verina", "verina_basic_20")
    plain = NativeEngine(Limits(seconds=10)).for_task(task)
    cov = NativeEngine(Limits(seconds=10), coverage=True).for_task(task)
    row = task.tests[0].decode_input(task, 0)
    assert plain.run(row).value == cov.run(row).value
    assert plain.coverage() is None
    p_src = "".join(plain._get_program().compiler.sources)
    c_src = "".join(cov._get_program().compiler.sources)
    assert "_H" not in p_src and "_H" not in plain._get_program().ns
    assert "_H[" in c_src
    # hits accumulate until reset
    rep = cov.coverage()
    assert rep is not None and rep.hit > 0
    cov.reset_coverage()
    assert cov.coverage().hit == 0


def _strip_seconds(doc: object) -> object:
    if isinstance(doc, dict):
        return {k: _strip_seconds(v) for k, v in doc.items() if k != "seconds"}
    if isinstance(doc, list):
        return [_strip_seconds(v) for v in doc]
    return doc


def test_process_pool_gives_the_same_report(suites: tuple[Path, Path]) -> None:
    one = adequacy_report(list(suites), adversary_pool=_pool).to_json()
    two = adequacy_report(list(suites), adversary_pool=_pool, jobs=2).to_json()
    assert two["jobs"] == 2
    one["jobs"] = 2
    assert _strip_seconds(one) == _strip_seconds(two)
