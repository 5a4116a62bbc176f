"""Output expansion building blocks on real Verina tasks: weakened specs, templates, mutants, output edits."""

from __future__ import annotations

import pytest

from shared_data import data_path, needs
from veriscale.formats.verina.dataset import read_task
from veriscale.languages.lean.mutants import aux_mutant_adversaries, mutant_adversaries
from veriscale.languages.lean.native import NativeEngine
from veriscale.languages.lean.parser import parse_expr, parse_module
from veriscale.languages.lean.printer import print_expr
from veriscale.languages.lean.templates import template_adversaries
from veriscale.languages.lean.weaken import weakened_specs
from veriscale.languages.tree import text_id
from veriscale.pipeline.outputs.outmut import output_mutations
from veriscale.values import codec
from veriscale.values.types import parse_type

DATA = data_path("verina")
pytestmark = needs("verina")

WEAKEN_TASKS = [
    "verina_basic_16",
    "verina_basic_70",
    "verina_advanced_27",
    "verina_advanced_13",
    "verina_basic_1",
]


def _task(name: str):
    return read_task(DATA / name)


def _first_test(task):
    return task.tests[0].decode_input(task, 0), task.tests[0].decode_expected(task, 0)


@pytest.mark.parametrize("task_id", WEAKEN_TASKS)
def test_weakened_specs_parse_differ_and_are_stable(task_id: str) -> None:
    task = _task(task_id)
    post = task.section_text("postcond")
    specs = weakened_specs(post)
    assert specs, "every one of these postconditions has a conjunction to drop"
    original = print_expr(parse_expr(post))
    texts = [s.text for s in specs]
    assert len(set(texts)) == len(texts)
    for s in specs:
        assert s.origin == "weakened" and s.description
        assert s.text != original
        assert s.id == text_id(s.text)
        parse_expr(s.text)
    assert [s.id for s in weakened_specs(post)] == [s.id for s in specs]


@pytest.mark.parametrize("task_id", ["verina_basic_16", "verina_basic_70", "verina_advanced_27"])
def test_weakened_specs_accept_what_the_ground_truth_accepts(task_id: str) -> None:
    """Constraint dropping only weakens: each spec accepts the expected output of every original test."""
    task = _task(task_id)
    eng = NativeEngine()
    for s in weakened_specs(task.section_text("postcond")):
        te = eng.for_task(task, overrides={"postcond": s.text})
        for i, t in enumerate(task.tests[:3]):
            v = te.postcondition(t.decode_input(task, i), t.decode_expected(task, i))
            assert v.is_true, (s.description, v.reason)


def test_weakening_reaches_inside_quantifiers_and_implications() -> None:
    specs = weakened_specs(_task("verina_basic_16").section_text("postcond"))
    kinds = " | ".join(s.description for s in specs)
    assert "replace an implication conclusion by True under ∀" in kinds
    assert "implication conclusion" in kinds


@pytest.mark.parametrize(
    "task_id", ["verina_basic_16", "verina_basic_70", "verina_advanced_27", "verina_basic_1"]
)
def test_templates_compile_and_run(task_id: str) -> None:
    task = _task(task_id)
    inputs, expected = _first_test(task)
    ret = task.signature.return_type
    ads = template_adversaries(task)
    assert len({a.id for a in ads}) == len(ads)
    ran = 0
    wrong = 0
    for a in ads:
        assert a.origin.startswith("template:")
        o = NativeEngine().for_task(task, overrides={"code": a.text}).run(inputs)
        if o.ok:
            ran += 1
            wrong += codec.key(ret, o.value) != codec.key(ret, expected)
    assert ran >= len(ads) - 1, "templates must be well typed for the signature"
    assert wrong >= 2
    # ground-truth perturbations are present
    assert any(a.origin.startswith("template:gt-") for a in ads)


def test_nat_off_by_one_template_stays_nat() -> None:
    task = _task("verina_basic_70")  # returns Nat
    inputs, expected = _first_test(task)
    ads = {a.origin: a for a in template_adversaries(task)}
    te = NativeEngine().for_task(task, overrides={"code": ads["template:gt-plus-one"].text})
    assert te.run(inputs).value == expected + 1


def test_mutants_of_code_and_helpers() -> None:
    task = _task("verina_basic_70")
    ms = mutant_adversaries(task.section_text("code"))
    assert ms and all(m.origin.startswith("mutant:") for m in ms)
    assert {"mutant:negate-cond", "mutant:swap-branches"} <= {m.origin for m in ms}
    for m in ms:
        parse_expr(m.text)
    aux = aux_mutant_adversaries(_task("verina_advanced_27").section_text("code_aux"))
    assert aux and all(m.section == "code_aux" and m.overrides == {"code_aux": m.text} for m in aux)
    for m in aux:
        parse_module(m.text)
    assert any("≥→>" in m.description for m in aux)


def test_output_mutations_by_type() -> None:
    nat = parse_type("Nat")
    assert all(v >= 0 for v in output_mutations(nat, 0))
    assert output_mutations(parse_type("Bool"), True) == [False]
    lst = output_mutations(parse_type("List Int"), (1, 2, 3))
    assert (3, 2, 1) in lst and () in lst and (2, 1, 3) in lst
    assert "" in output_mutations(parse_type("String"), "ab")
