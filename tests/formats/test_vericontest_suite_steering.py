"""``requires``-steered inputs and whole small domains on real VeriContest problems.

The problems are ones where sampling and filtering found too few valid inputs (``requires``
rejected nearly every random input) or whose whole domain is smaller than the target.
Every input is checked by the ground-truth ``requires`` and every reference output by the
ground-truth ``ensures`` — the steering is never trusted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.shared_data import require
from veriscale.formats.vericontest.dataset import read_problem
from veriscale.formats.vericontest.suite_steering import steered_candidates, steerer_for, whole_domain
from veriscale.formats.vericontest.suites import SuiteSettings, _engine, build_suite
from veriscale.languages.verus.compile import rustc_available

needs_rustc = pytest.mark.skipif(not rustc_available(), reason="rustc is not installed")


def _task(pid: str) -> tuple[Any, Any]:
    fam = "codeforces" if pid.startswith("cf") else "leetcode"
    p = read_problem(Path(require("vericontest", fam, pid)))
    st = SuiteSettings()
    return p, _engine(st, None).for_task(p)


def _checks(te: Any, rows: list[dict[str, Any]], outs: list[Any] | None = None) -> list[Any]:
    st = SuiteSettings()
    dec = [te.decode_inputs(r) for r in rows]
    pairs = [
        (d, None if outs is None else te.decode_output(o)) for d, o in zip(dec, outs or [None] * len(dec))
    ]
    return te.check_batch(pairs, outs is not None, checker_fuel=st.checker_fuel, max_python_unknown=40)


@needs_rustc
@pytest.mark.parametrize(
    "pid",
    [
        "lc2483",  # characters from a set: 'Y' || 'N'
        "lc3218",  # lengths tied to scalars: h.len() == m - 1
        "lc1848",  # exists|i| nums[i] == target: a witness
        "lc1389",  # index[i] <= i
        "cf1686B",  # p[i] <= n as i64, p.len() == n
    ],
)
def test_steered_inputs_satisfy_requires_and_give_150_positives(pid: str) -> None:
    p, te = _task(pid)
    steer = steerer_for(p, te.spec(), SuiteSettings().max_len)
    assert steer is not None
    rows = [raw for fam, raw in steered_candidates(steer, 0, 170)]
    assert len(rows) >= 150 and len({repr(sorted(r.items())) for r in rows}) == len(rows)
    assert all(v.is_true for v in _checks(te, rows))  # every one checked, all accepted
    res = te.runner.run_inputs(rows)
    ok = [(r, x.value) for r, x in zip(rows, res) if x.ok]
    post = _checks(te, [r for r, _ in ok], [o for _, o in ok])
    assert sum(v.is_true for v in post) >= 150
    assert not any(v.is_false for v in post)


@needs_rustc
@pytest.mark.parametrize(("pid", "box", "size"), [("lc96", 19, 19), ("cf2009A", 100, 55), ("lc1137", 38, 38)])
def test_whole_domain_of_small_scalar_problems(pid: str, box: int, size: int) -> None:
    p, te = _task(pid)
    st = SuiteSettings()
    steer = steerer_for(p, te.spec(), st.max_len)
    got = whole_domain(
        te, steer, st.domain_cap, 250, lambda pairs: _checks(te, [_raw(p, d) for d, _ in pairs])
    )
    assert got is not None
    valid, rec = got
    assert rec == {"box": box, "inputs": size, "exhausted": True, "note": f"domain exhausted: {size} inputs"}
    assert len(valid) == size and all(fam == "domain" for fam, _, _ in valid)


def _raw(p: Any, decoded: dict[str, Any]) -> dict[str, Any]:
    return {k: int(v) for k, v in decoded.items()}


@needs_rustc
def test_no_domain_claim_when_the_box_is_large() -> None:
    p, te = _task("lc932")  # 1 <= n <= 1000: over the cap
    st = SuiteSettings()
    assert whole_domain(te, steerer_for(p, te.spec(), st.max_len), st.domain_cap, 250, lambda x: []) is None


@needs_rustc
@pytest.mark.slow
def test_build_suite_reaches_the_target_where_sampling_fell_short() -> None:
    p, te = _task("lc2483")  # sampling: 8 positives (the character set read as the span 'N'..'Y')
    doc = build_suite(p, SuiteSettings(max_mutants=20))
    pos = doc["positives"]
    assert len(pos) >= 150 and any(x["family"] == "steered" for x in pos)
    assert doc["counts"]["steered_requires"]["false"] == 0
    assert all(v.is_true for v in _checks(te, [x["input"] for x in pos]))
    assert all(v.is_true for v in _checks(te, [x["input"] for x in pos], [x["output"] for x in pos]))
    small = build_suite(
        read_problem(Path(require("vericontest", "leetcode", "lc96"))), SuiteSettings(max_mutants=5)
    )
    assert small["domain"]["inputs"] == 19 and "domain exhausted: 19 inputs" in small["notes"]
    assert len(small["positives"]) == 19
