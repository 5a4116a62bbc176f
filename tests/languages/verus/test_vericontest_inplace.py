"""In-place (``&mut`` / ``&mut self``) targets: harness post-call values, ``old(x)``, verdicts.

The fixtures under ``tests/fixtures/vericontest_inplace/leetcode/`` are our own
problems in VeriContest's folder format (``description.md``, ``tags``,
``code.rs``, ``spec.rs``) plus ``buggy_<k>.rs``: wrong programs that the
ground-truth ``ensures`` must reject on at least one description example.
"""

from __future__ import annotations

import shutil

import pytest

from shared_data import FIXTURES_DIR
from veriscale.evaluate.checks.vericontest import check_problem
from veriscale.formats.vericontest.dataset import read_problem
from veriscale.languages.verus.engine import VeriContestEngine
from veriscale.languages.verus.inplace import InPlaceOutput, decode_inplace, from_stated
from veriscale.languages.verus.spec import SpecProgram
from veriscale.runtime.engine import OutcomeKind
from veriscale.values.codec import DecodeError
from veriscale.values.types import UNIT, TCon

FIXTURES = FIXTURES_DIR / "vericontest_inplace" / "leetcode"
PROBLEMS = sorted(d.name for d in FIXTURES.iterdir() if d.is_dir())

needs_rustc = pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")


def test_at_least_ten_fixtures_each_with_buggy_code() -> None:
    assert len(PROBLEMS) >= 10
    for pid in PROBLEMS:
        assert sorted((FIXTURES / pid).glob("buggy_*.rs")), pid
        p = read_problem(FIXTURES / pid)
        assert len(p.examples) >= 3, pid
        muts = [q for q in p.signature.params if q.type_text.startswith("&mut")]
        assert muts or (p.signature.receiver or "").replace(" ", "") == "&mutself", pid


@needs_rustc
@pytest.mark.parametrize("pid", PROBLEMS)
def test_correct_code_accepted_and_buggy_code_rejected(pid: str) -> None:
    p = read_problem(FIXTURES / pid)
    engine = VeriContestEngine()
    pc = check_problem(p, engine.for_task(p))
    assert not pc.compile_error, pc.compile_error
    assert [e.status for e in pc.examples] == ["agree"] * len(p.examples), [e.detail for e in pc.examples]
    for case in pc.cases:
        assert case.requires.is_true, case.requires.reason
        assert case.ensures is not None and case.ensures.is_true, case.ensures and case.ensures.reason
    for bug in sorted((FIXTURES / pid).glob("buggy_*.rs")):
        te = engine.for_task(p, {"code": bug.read_text()})
        rows = [te.decode_inputs(ex.inputs) for ex in p.examples if ex.inputs is not None]
        verdicts = []
        for row, out in zip(rows, te.runs(rows)):
            if out.kind is OutcomeKind.VALUE:
                verdicts.append(te.postcondition(row, out.value).truth.value)
            else:
                verdicts.append(out.kind.value)
        assert any(v != "TRUE" and v != "UNKNOWN" for v in verdicts), (bug.name, verdicts)


def test_unmodified_input_is_unknown_never_false() -> None:
    """The old failure: judging ``ensures`` on the pre-call value gave FALSE for correct code."""
    p = read_problem(FIXTURES / "lc344")
    spec = SpecProgram.from_source(p.spec)
    before = tuple("hello")
    v = spec.ensures_verdict({"s": before}, ())  # a bare return value: no post-call state
    assert v.is_unknown and "post-call" in v.reason
    good = InPlaceOutput((), (("s", tuple("olleh")),))
    bad = InPlaceOutput((), (("s", before),))
    assert spec.ensures_verdict({"s": before}, good).is_true
    assert spec.ensures_verdict({"s": before}, bad).is_false


def test_old_in_requires_is_the_input_and_ensures_sees_both_states() -> None:
    p = read_problem(FIXTURES / "lc26")
    spec = SpecProgram.from_source(p.spec)
    assert spec.mutables() == ["nums"]
    assert spec.requires_verdict({"nums": (1, 1, 2)}).is_true
    assert spec.requires_verdict({"nums": (2, 1)}).is_false  # old(nums) must be sorted
    ok = InPlaceOutput(2, (("nums", (1, 2, 2)),))
    assert spec.ensures_verdict({"nums": (1, 1, 2)}, ok).is_true
    wrong_k = InPlaceOutput(3, (("nums", (1, 2, 2)),))
    assert spec.ensures_verdict({"nums": (1, 1, 2)}, wrong_k).is_false


def test_mut_self_uses_old_self_and_final_self() -> None:
    p = read_problem(FIXTURES / "lc1603")
    spec = SpecProgram.from_source(p.spec)
    assert spec.mutables() == ["self"]
    from veriscale.values.runtime import Struct

    def lot(b: int, m: int, s: int) -> Struct:
        return Struct("ParkingSystem", (("big", b), ("medium", m), ("small", s)))

    pre = lot(1, 0, 0)
    assert spec.ensures_verdict({"car_type": 1}, InPlaceOutput(True, (("self", lot(0, 0, 0)),)),
                                self_value=pre).is_true  # fmt: skip
    # right answer, but the slot was not taken: the final state is wrong
    assert spec.ensures_verdict(
        {"car_type": 1}, InPlaceOutput(True, (("self", pre),)), self_value=pre
    ).is_false
    assert spec.ensures_verdict({"car_type": 1}, True, self_value=pre).is_unknown


def test_inplace_json_form_is_strict() -> None:
    muts = [("nums", TCon("Vec", (TCon("i32"),)))]
    out = decode_inplace(TCon("i32"), muts, {"return": 2, "after": {"nums": [1, 2, 2]}})
    assert out == InPlaceOutput(2, (("nums", (1, 2, 2)),))
    with pytest.raises(DecodeError):
        decode_inplace(TCon("i32"), muts, 2)
    with pytest.raises(DecodeError):
        decode_inplace(TCon("i32"), muts, {"return": 2, "after": {}})
    with pytest.raises(DecodeError):
        decode_inplace(TCon("i32"), muts, {"return": 2, "after": {"nums": [1], "other": [2]}})
    stated, full = from_stated(UNIT, muts, [3, 4])
    assert stated == (3, 4) and full == InPlaceOutput((), (("nums", (3, 4)),))
    stated, full = from_stated(TCon("i32"), muts, 5)
    assert stated == 5 and full is None
