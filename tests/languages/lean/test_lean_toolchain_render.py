"""Generated Lean files: goldens for a tiny task of our own, structure checks on a real Verina task.

Goldens live in tests/golden/lean_toolchain/. After an intended change to the
generated files, regenerate them with

    VERISCALE_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/languages/lean/test_lean_toolchain_render.py

and review the diff.
"""

from __future__ import annotations

import hashlib
import math
import os
from pathlib import Path

import pytest

from lean_toolchain_fixtures import GOLDEN, tiny_task
from shared_data import require
from veriscale.formats.verina.dataset import read_task
from veriscale.languages.lean.toolchain.proofgen import render_proof_file
from veriscale.languages.lean.toolchain.render import (
    PLAUSIBLE_TACTIC,
    LeanFile,
    TaskSource,
    eval_run,
    guard_postcond,
    guard_precond,
    indent_body,
    make_aux_testable,
    merge_imports,
    plausible_postcond,
    plausible_precond,
    render_arg,
    render_check_file,
)
from veriscale.values.codec import decode
from veriscale.values.runtime import LeanSource, Some
from veriscale.values.types import parse_type

UPDATE = os.environ.get("VERISCALE_UPDATE_GOLDEN") == "1"


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if not path.exists():
        pytest.fail(f"golden {path} is missing: run with VERISCALE_UPDATE_GOLDEN=1 to create it")
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden (see module docstring)"


@pytest.fixture
def src(tmp_path: Path) -> TaskSource:
    return TaskSource.from_task(tiny_task(tmp_path))


ROW_A = {"a": -5, "b": 3}
ROW_B = {"a": 90, "b": 30}
ROW_REJ = {"a": 2000, "b": 0}


def _check_markers(f: LeanFile) -> None:
    lines = f.text.split("\n")
    for i, (lo, hi) in enumerate(f.case_lines):
        assert lines[lo - 1] == f'#print "<<vs:{f.nonce}:{i}:begin>>"'
        assert lines[hi - 1] == f'#print "<<vs:{f.nonce}:{i}:end>>"'
    assert all(not ln.startswith("#print") for ln in lines[: f.preamble_end])


def test_golden_precond_decide(src: TaskSource) -> None:
    f = render_check_file(src, "precond", [guard_precond(src, ROW_A), guard_precond(src, ROW_REJ)])
    _check_markers(f)
    _golden("tiny_precond.lean", f.text)


def test_golden_run(src: TaskSource) -> None:
    f = render_check_file(src, "run", [eval_run(src, ROW_A), eval_run(src, ROW_B)])
    _check_markers(f)
    assert "#eval! clampAdd ((-5)) ((3)) (by sorry)" not in f.text  # one pair of parentheses only
    assert "#eval! clampAdd (-5) (3) (by sorry)" in f.text
    _golden("tiny_run.lean", f.text)


def test_golden_postcond_decide(src: TaskSource) -> None:
    f = render_check_file(src, "postcond", [guard_postcond(src, ROW_A, -2), guard_postcond(src, ROW_A, 100)])
    _check_markers(f)
    assert "def clampAdd " not in f.text  # spec files leave the implementation out, as Verina's
    _golden("tiny_postcond.lean", f.text)


def test_golden_plausible(src: TaskSource) -> None:
    pre = render_check_file(
        src,
        "precond",
        [plausible_precond(src, ROW_A, negate=False), plausible_precond(src, ROW_A, negate=True)],
        plausible=True,
    )
    post = render_check_file(
        src,
        "postcond",
        [plausible_postcond(src, ROW_B, 120, negate=False), plausible_postcond(src, ROW_B, 120, negate=True)],
        plausible=True,
    )
    for f in (pre, post):
        _check_markers(f)
        assert f.text.count(PLAUSIBLE_TACTIC) == 2
        assert f.text.splitlines()[1] == "import Plausible"
    assert "simp (config := { failIfUnchanged := false }) [*]" in post.text
    assert "[*]" not in pre.text  # only the postcondition template has the extra simp line
    _golden("tiny_precond_plausible.lean", pre.text)
    _golden("tiny_postcond_plausible.lean", post.text)


def test_golden_mathlib_fallback(src: TaskSource) -> None:
    f = render_check_file(src, "run", [eval_run(src, ROW_A)], mathlib=True)
    head = f.text.splitlines()[:4]
    assert head[1:3] == ["import Mathlib", "import Std.Data.HashMap"]
    _golden("tiny_run_mathlib.lean", f.text)


def test_golden_proof(src: TaskSource) -> None:
    f = render_proof_file(src, "  simp [clampAdd_postcond]\n  omega", "-- helper lemmas would go here", "")
    _check_markers(f)
    # ProofGen files import only the task's and the proof's imports (Verina), not the solution's
    assert "import Std.Data.HashMap" not in f.text
    assert (
        "theorem clampAdd_postcond_satisfied (a: Int) (b: Nat) (h_precond : clampAdd_precond (a) (b)) :"
        in f.text
    )
    lines = f.text.split("\n")
    ((name, lo, hi),) = f.regions
    assert name == "proof"
    assert "omega" in "\n".join(lines[lo - 1 : hi])
    assert f.region_of_line(lines.index("  omega") + 1) == "proof"
    _golden("tiny_proof.lean", f.text)


def test_definitions_follow_verina_template(src: TaskSource) -> None:
    f = render_check_file(src, "run", [eval_run(src, ROW_A)])
    text = f.text
    assert "@[reducible, simp]\ndef clampAdd_precond (a : Int) (b : Nat) : Prop :=\n" in text
    assert "def clampAdd (a : Int) (b : Nat) (h_precond : clampAdd_precond (a) (b)) : Int :=\n" in text
    # the first body line is unindented, so every line gets two more spaces
    assert "  -- !benchmark @start code\n  let s := a + b;\n    clampTo s\n  -- !benchmark @end code" in text
    assert "  -- !benchmark @start precond\n  small a\n" in text
    # run files keep auxiliaries as written; spec files make them reducible
    assert "\ndef small (a : Int) : Prop" in text
    spec = render_check_file(src, "precond", [guard_precond(src, ROW_A)]).text
    assert "@[reducible, simp] def small (a : Int) : Prop" in spec


def test_nonce_depends_on_content_and_is_stable(src: TaskSource) -> None:
    a = render_check_file(src, "precond", [guard_precond(src, ROW_A)])
    b = render_check_file(src, "precond", [guard_precond(src, ROW_A)])
    c = render_check_file(src, "precond", [guard_precond(src, ROW_B)])
    assert a.text == b.text and a.nonce == b.nonce
    assert a.nonce != c.nonce


def test_overrides_replace_sections(tmp_path: Path) -> None:
    task = tiny_task(tmp_path)
    src = TaskSource.from_task(
        task, {"code": "a + b", "imports": "import Mathlib.Tactic\nimport Std.Data.HashMap"}
    )
    assert src.imports == ("import Std.Data.HashMap", "import Mathlib.Tactic")
    assert src.uses_mathlib
    text = render_check_file(src, "run", [eval_run(src, ROW_A)], mathlib=True).text
    assert "  a + b\n" in text and "clampTo s" not in text
    assert "import Mathlib\n" not in text  # the candidate already imports (part of) Mathlib
    blank = TaskSource.from_task(task, {"precond": ""})
    assert blank.sections["precond"] == ""  # a candidate's blank precondition is not defaulted
    with pytest.raises(ValueError):
        TaskSource.from_task(task, {"bogus": "x"})


def test_indent_rule() -> None:
    assert indent_body("  x\n  y\n") == "  x\n  y"
    assert indent_body("x\n  y") == "  x\n    y"
    assert indent_body("x") == "  x"
    assert indent_body(" x") == "   x"  # one space is not two: every line gets two more


def test_merge_imports_dedups_in_order() -> None:
    assert merge_imports("import A\n\nimport B\n", "  import A  \nimport C") == [
        "import A",
        "import B",
        "import C",
    ]


def test_make_aux_testable() -> None:
    aux = "def f := 1\n@[simp]\ndef g := 2\n@[reducible] def h := 3\n  def inner := 4\nprivate def p := 5"
    assert make_aux_testable(aux).split("\n") == [
        "@[reducible, simp] def f := 1",
        "@[simp]",
        "def g := 2",
        "@[reducible] def h := 3",
        "  def inner := 4",
        "private def p := 5",
    ]


@pytest.mark.parametrize(
    ("type_text", "raw", "lean"),
    [
        ("Int", -5, "(-5)"),
        ("Nat", 7, "(7)"),
        ("String", 'say "hi"\\\n', '("say \\"hi\\"\\\\\\n")'),
        ("Char", "'", "('\\'')"),
        ("List Int", "[1, -2]", "([1, -2])"),
        ("Array (Array Nat)", "#[#[1], #[]]", "(#[#[1], #[]])"),
        ("Option (Nat × Nat)", "some (1, 2)", "(some ((1, 2)))"),
        ("Int × Float", "(3, 2.5)", "((3, 2.5))"),
        ("Int -> Bool", "fun x => x > 5", "(fun x => x > 5)"),
    ],
)
def test_render_arg(type_text: str, raw: object, lean: str) -> None:
    t = parse_type(type_text)
    assert render_arg(t, decode(t, raw)) == lean


def test_render_arg_special_floats() -> None:
    t = parse_type("List Float")
    assert render_arg(t, (math.nan, math.inf, -0.5)) == "([(0.0/0.0), (1.0/0.0), -0.5])"
    assert render_arg(parse_type("Option Float"), Some(-math.inf)) == "(some ((-1.0/0.0)))"
    assert render_arg(parse_type("Int -> Int"), LeanSource("fun x => x")) == "(fun x => x)"


# ---------------------------------------------------------------- a real Verina task


def _verina(name: str):  # type: ignore[no-untyped-def]
    d = require("verina", name)
    return read_task(d)


def test_real_task_structure_and_hash() -> None:
    """Verina's code must not be copied into the repo, so its golden is a hash of the files."""
    task = _verina("verina_basic_104")  # a structure type, solution-free imports, aux in several sections
    src = TaskSource.from_task(task)
    rows = [tc.decode_input(task, i) for i, tc in enumerate(task.tests)]
    expected = [tc.decode_expected(task, i) for i, tc in enumerate(task.tests)]
    files = {
        "precond": render_check_file(src, "precond", [guard_precond(src, r) for r in rows]),
        "run": render_check_file(src, "run", [eval_run(src, r) for r in rows]),
        "postcond": render_check_file(
            src, "postcond", [guard_postcond(src, r, e) for r, e in zip(rows, expected)]
        ),
    }
    for kind, f in files.items():
        _check_markers(f)
        assert f.n_cases == len(task.tests)
        text = f.text
        # headers regenerated from the signature; sections pasted with their own indentation
        assert "def update_map_precond (m1 : Map Int Int) (m2 : Map Int Int) : Prop :=" in text
        assert task.section_text("task_aux").strip() in text
        assert task.section_text("precond").rstrip("\n") in text
        if kind == "run":
            assert task.section_text("code").rstrip("\n") in text
            assert (
                "#eval! update_map ({ entries := [(1, 10), (2, 20)] }) ({ entries := [(2, 30), (3, 40)] }) (by sorry)"
                in text
            )
        if kind == "postcond":
            assert "@[reducible, simp] def find?" in text
    digest = (
        "\n".join(
            f"{kind} {hashlib.sha256(f.text.encode()).hexdigest()}" for kind, f in sorted(files.items())
        )
        + "\n"
    )
    _golden("verina_basic_104.sha256", digest)
