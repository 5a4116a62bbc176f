"""Guided mutation of existing rows for kill-search survivors (``pipeline/inputs/guided.py``,
``pipeline/inputs/edits.py``)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from shared_data import data_path
from veriscale.formats.verina.dataset import read_task
from veriscale.languages.lean.engines import make_engine
from veriscale.pipeline.inputs.edits import typed_edit, typed_edits
from veriscale.pipeline.inputs.guided import guided_search
from veriscale.pipeline.inputs.mutate import Candidate, input_key
from veriscale.pipeline.inputs.seeds import task_params
from veriscale.values.runtime import Some
from veriscale.values.types import TCon

VERINA = data_path("verina")
INT, NAT, STR = TCon("Int"), TCon("Nat"), TCon("String")


@dataclass(frozen=True)
class Adv:
    id: str
    code: str
    origin: str = "test"

    @property
    def overrides(self) -> dict[str, str]:
        return {"code": self.code}


def test_edits_preserve_the_type_and_reach_every_depth() -> None:
    rng = random.Random(7)
    nested = TCon("List", (TCon("List", (NAT,)),))
    v = ((1, 2), (3,), ())
    inner_changed = outer_changed = 0
    for _ in range(400):
        e = typed_edit(nested, v, rng)
        assert e is not None
        w, label = e
        assert type(w) is tuple and all(type(x) is tuple for x in w)
        assert all(type(n) is int and n >= 0 for x in w for n in x)  # Nat stays a Nat
        inner_changed += label.startswith("[")
        outer_changed += not label.startswith("[")
    assert inner_changed > 50 and outer_changed > 50
    # an Option flips and edits its content; a string crosses character classes
    opt = TCon("Option", (INT,))
    labels = {typed_edit(opt, Some(3), rng)[1].split(":")[0] for _ in range(50)}  # type: ignore[index]
    assert labels == {"none", "some"}
    seen = {typed_edit(TCon("Char"), "m", rng)[0] for _ in range(300)}  # type: ignore[index]
    assert {"A", "Z", "0", "9", " ", "M"} <= seen


def test_edits_are_deterministic_for_a_seed() -> None:
    params = [("xs", TCon("List", (INT,))), ("s", STR)]
    values = {"xs": (3, -1, 4), "s": "aB1"}

    def run(seed: int) -> list[object]:
        rng = random.Random(seed)
        return [typed_edits(params, values, rng, 2) for _ in range(30)]

    assert run(11) == run(11)
    assert run(11) != run(12)


def test_guided_mutation_kills_a_survivor_the_base_rows_miss() -> None:
    d = VERINA / "verina_basic_4"  # arr[k - 1]!, 1 ≤ k ≤ arr.size
    if not d.is_dir():
        pytest.skip(f"shared data folder {d} is absent")
    task = read_task(d)
    params = task_params(task)
    engine = make_engine("native", fuel=1_000_000)
    te = engine.for_task(task)
    vals = {"arr": (5, 5), "k": 1}  # both elements equal: reading the wrong one goes unseen
    base = [Candidate(vals, input_key(params, vals, task.structs), "original", index=0)]
    seen = {base[0].key}
    advs = [Adv("off-by-one", "  arr[k]!"), Adv("equivalent", "  arr[(k - 1)]!")]
    res = guided_search(task, te, engine, params, base, advs, seen, random.Random(3), attempts=40)
    assert res.killed == ["off-by-one"]
    assert len(res.rows) == 1
    cand, value, _js, prov = res.rows[0]
    assert cand.origin == "guided-mutation" and prov["kills"] == "off-by-one" and prov["edits"]
    assert te.precondition(cand.values).is_true
    assert engine.for_task(task, {"code": "  arr[k]!"}).run(cand.values).value != value
    assert cand.key in seen
    # the equivalent mutant used the whole budget, and its effort is recorded
    assert res.effort["equivalent"]["draws"] == 40 and res.effort["equivalent"]["runs"] >= 1
    # same seed, same rows
    again = guided_search(task, te, engine, params, base, advs, {base[0].key}, random.Random(3), attempts=40)
    assert [c.key for c, *_ in again.rows] == [c.key for c, *_ in res.rows]
