"""Kill-driven search over the small-scope pool (``pipeline/inputs/killsearch.py``)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from shared_data import data_path
from veriscale.formats.verina.dataset import read_task
from veriscale.languages.lean.engines import make_engine
from veriscale.pipeline.inputs.killsearch import kill_search
from veriscale.pipeline.inputs.seeds import task_params
from veriscale.pipeline.inputs.smallscope import small_scope_pool

VERINA = data_path("verina")


@dataclass(frozen=True)
class Adv:
    id: str
    code: str
    origin: str = "test"

    @property
    def overrides(self) -> dict[str, str]:
        return {"code": self.code}


def test_pool_rows_join_only_for_a_new_kill_and_survivors_report_effort() -> None:
    d = VERINA / "verina_basic_4"  # arr[k - 1]!, 1 ≤ k ≤ arr.size
    if not d.is_dir():
        pytest.skip(f"shared data folder {d} is absent")
    task = read_task(d)
    engine = make_engine("native", fuel=1_000_000)
    te = engine.for_task(task)

    def rows(inputs):
        return [(v, te.run(v).value) for v in inputs if te.precondition(v).is_true]

    base = rows([{"arr": (5, 5), "k": 1}])  # both elements equal: reading the wrong one goes unseen
    pool = rows(small_scope_pool(task_params(task), [], 100).inputs)
    advs = [
        Adv("off-by-one", "  arr[k]!"),  # returns default 0 past the end, the other element otherwise
        Adv("equivalent", "  arr[(k - 1)]!"),
        Adv("off-by-one again", "  arr[k + 0]!"),  # killed by the row already selected
    ]
    res = kill_search(task, engine, base, pool, advs)
    assert res.generated == 3 and res.killed_by_base == 0 and res.killed_by_pool == 2
    assert len(res.selected) == 1  # the third adversary is killed by the row already selected
    row = pool[res.selected[0]][0]
    assert te.run(row).value != engine.for_task(task, {"code": "  arr[k]!"}).run(row).value
    assert res.survivors == [{"id": "equivalent", "origin": "test", "tried": 1 + len(pool), "timeout": False}]
    # with a base row that tells them apart, the pool adds nothing
    res2 = kill_search(task, engine, rows([{"arr": (1, 2), "k": 1}]), pool, advs)
    assert res2.killed_by_base == 2 and res2.selected == []
