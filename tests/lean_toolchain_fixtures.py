"""Shared fixtures of the Lean toolchain tests: a tiny task written by the tests themselves.

The task is ours (not upstream data): ``clampAdd (a : Int) (b : Nat) : Int`` with a
solution import, auxiliaries in every section and a body that needs Verina's
indentation rule.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from shared_data import GOLDEN_DIR
from veriscale.formats.verina.dataset import Task, read_task
from veriscale.languages.lean.toolchain.runner import RunResult

GOLDEN = GOLDEN_DIR / "lean_toolchain"

TINY_LEAN = """\
-- !benchmark @start import type=solution
import Std.Data.HashMap
-- !benchmark @end import
-- !benchmark @start solution_aux
def bound : Int := 100
-- !benchmark @end solution_aux
-- !benchmark @start precond_aux
def small (a : Int) : Prop := a < 1000
-- !benchmark @end precond_aux
@[reducible, simp]
def clampAdd_precond (a : Int) (b : Nat) : Prop :=
  -- !benchmark @start precond
small a
  -- !benchmark @end precond
-- !benchmark @start code_aux
def clampTo (x : Int) : Int := if x > bound then bound else x
-- !benchmark @end code_aux
def clampAdd (a : Int) (b : Nat) (h_precond : clampAdd_precond (a) (b)) : Int :=
  -- !benchmark @start code
let s := a + b;
  clampTo s
  -- !benchmark @end code
-- !benchmark @start postcond_aux
-- !benchmark @end postcond_aux
@[reducible, simp]
def clampAdd_postcond (a : Int) (b : Nat) (result: Int) (h_precond : clampAdd_precond (a) (b)) : Prop :=
  -- !benchmark @start postcond
  result ≤ bound ∧ (a + b ≤ bound → result = a + b)
  -- !benchmark @end postcond
-- !benchmark @start proof_aux
-- !benchmark @end proof_aux
theorem clampAdd_spec_satisfied (a : Int) (b : Nat) (h_precond : clampAdd_precond (a) (b)) :
    clampAdd_postcond (a) (b) (clampAdd (a) (b) h_precond) h_precond := by
  -- !benchmark @start proof
  sorry
  -- !benchmark @end proof
"""

TINY_TESTS = [
    {"input": {"a": -5, "b": 3}, "expected": -2, "unexpected": [-1, 100]},
    {"input": {"a": 90, "b": 30}, "expected": 100, "unexpected": [120]},
]
TINY_REJECTS = [{"input": {"a": 2000, "b": 0}}]


def write_task(
    root: Path,
    name: str,
    fn: str,
    params: list[tuple[str, str]],
    ret: str,
    lean: str,
    tests: list[dict[str, object]],
    rejects: list[dict[str, object]],
) -> Path:
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    task_json = {
        "id": name,
        "signature": {
            "name": fn,
            "parameters": [{"param_name": p, "param_type": t} for p, t in params],
            "return_type": ret,
        },
        "description_file": "./description.txt",
        "lean_file": "./task.lean",
        "specification": {"preconditions": "", "postconditions": ""},
        "metadata": {},
        "test_file": "./test.json",
        "reject_inputs_file": "./reject_inputs.json",
    }
    (d / "task.json").write_text(json.dumps(task_json, indent=2), encoding="utf-8")
    (d / "task.lean").write_text(lean, encoding="utf-8")
    (d / "description.txt").write_text(f"Test task {name}.\n", encoding="utf-8")
    (d / "test.json").write_text(json.dumps(tests), encoding="utf-8")
    (d / "reject_inputs.json").write_text(json.dumps(rejects), encoding="utf-8")
    return d


def write_tiny_task(root: Path, name: str = "tiny_clamp") -> Path:
    params = [("a", "Int"), ("b", "Nat")]
    return write_task(root, name, "clampAdd", params, "Int", TINY_LEAN, TINY_TESTS, TINY_REJECTS)


def tiny_task(root: Path) -> Task:
    return read_task(write_tiny_task(root))


# ---------------------------------------------------------------- a scripted stand-in for Lean

_BEGIN = re.compile(r'^#print "<<vs:([0-9a-f]+):(\d+):begin>>"$')

# A rule gets (case text, file text) and returns messages [(severity, text)], or "TIMEOUT"/"CRASH".
Rule = Callable[[str, str], "list[tuple[str, str]] | str"]


@dataclass
class ScriptedLean:
    rule: Rule
    preamble: list[tuple[str, str]] = field(default_factory=list)
    prefixed: bool = False
    files: list[str] = field(default_factory=list)

    def __call__(self, text: str, timeout: float) -> RunResult:
        self.files.append(text)
        lines = text.split("\n")
        out: list[str] = []
        for sev, msg in self.preamble:
            out.append(f"/tmp/f.lean:5:0: {sev}: {msg}")
        i = 0
        while i < len(lines):
            m = _BEGIN.match(lines[i])
            if not m:
                i += 1
                continue
            nonce, idx = m.group(1), m.group(2)
            end = lines.index(f'#print "<<vs:{nonce}:{idx}:end>>"', i)
            body = "\n".join(lines[i + 1 : end])
            out.append(f"<<vs:{nonce}:{idx}:begin>>")
            answer = self.rule(body, text)
            if answer == "TIMEOUT":
                return RunResult("\n".join(out) + "\n", None, timed_out=True)
            if answer == "CRASH":
                out.append("Stack overflow detected. Aborting.")
                return RunResult("\n".join(out) + "\n", 134)
            for sev, msg in answer:
                if sev == "info" and not self.prefixed:
                    out.append(msg)
                else:
                    out.append(f"/tmp/f.lean:{i + 2}:0: {sev}: {msg}")
            out.append(f"<<vs:{nonce}:{idx}:end>>")
            i = end + 1
        errors = any(sev == "error" for sev, _ in self.preamble) or "error:" in "\n".join(out)
        return RunResult("\n".join(out) + "\n", 1 if errors else 0)


_ARGS = re.compile(r"\((-?\d+)\)")


def ints(body: str) -> list[int]:
    return [int(x) for x in _ARGS.findall(body.split(":=")[0])]


def tiny_rule(body: str, file_text: str) -> list[tuple[str, str]] | str:
    """Lean's behaviour on the tiny task, written out by hand."""
    if body.startswith("#guard decide (clampAdd_precond"):
        a, _b = ints(body)
        return (
            []
            if a < 1000
            else [("error", "Expression\n  decide (clampAdd_precond 2000 0)\ndid not evaluate to `true`")]
        )
    if body.startswith("#eval! clampAdd"):
        a, b = ints(body)
        return [("info", str(min(a + b, 100)))]
    if body.startswith("#guard decide (clampAdd_postcond"):
        a, b, r = ints(body)
        ok = r <= 100 and (a + b > 100 or r == a + b)
        return [("warning", "declaration uses 'sorry'")] + (
            [] if ok else [("error", "Expression\n  decide (...)\ndid not evaluate to `true`")]
        )
    return [("error", f"unexpected case {body!r}")]
