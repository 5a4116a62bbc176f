"""Outputs searched for candidate specs the adversaries do not kill (``pipeline/outputs/weakened_kills.py``)."""

from __future__ import annotations

import pytest

from shared_data import data_path
from veriscale.formats.verina.dataset import read_task
from veriscale.languages.lean.engines import make_engine
from veriscale.languages.lean.weaken import CandidateSpec
from veriscale.pipeline.outputs.adversaries import Case, Unexpected
from veriscale.pipeline.outputs.weakened_kills import kill_weakened_specs, typed_output_mutations
from veriscale.values.types import parse_type

VERINA = data_path("verina")


def test_typed_mutations_reach_inner_sizes_duplicates_and_swaps() -> None:
    t = parse_type("List (List Nat)")
    muts = typed_output_mutations(t, ((1, 2), (3,)))
    assert ((1, 2),) in muts  # an element dropped
    assert ((1, 2), (1, 2), (3,)) in muts  # duplicated
    assert ((3,), (1, 2)) in muts  # swapped
    assert ((1,), (3,)) in muts and ((1, 2, 2), (3,)) in muts  # an inner list one shorter / longer
    assert ((1, 3), (3,)) in muts  # an inner element off by one
    assert typed_output_mutations(parse_type("Nat"), 0) == [1, 0]  # never negative
    assert None in typed_output_mutations(parse_type("Option Int"), _some(4))


def _some(x: int):
    from veriscale.values.runtime import Some

    return Some(x)


def test_a_spec_no_kept_output_kills_gets_one() -> None:
    d = VERINA / "verina_basic_13"  # cubes; the flawed spec forgets the length
    if not d.is_dir():
        pytest.skip(f"shared data folder {d} is absent")
    task = read_task(d)
    engine = make_engine("native")
    values = task.tests[0].decode_input(task, 0)
    out = engine.for_task(task).run(values).value
    weak = CandidateSpec(
        "w", "(∀ i, i < a.size → result[i]! = a[i]! * a[i]! * a[i]!)", "weakened", "no length"
    )
    equiv = CandidateSpec("e", task.section_text("postcond"), "weakened", "the ground truth itself")
    res = kill_weakened_specs(
        task, engine, [Case("c", values, out)], [[]], ["true"], [weak, equiv], Unexpected
    )
    assert len(res.added) == 1 and res.added[0][0] == 0
    u = res.added[0][1]
    assert u.source == "spec-search" and u.accepted_by == ["w"] and len(u.output) == len(out) + 1
    assert engine.for_task(task).postcondition(values, u.output).is_false
    assert [s["id"] for s in res.survivors] == ["e"] and res.survivors[0]["checks"] > 0
