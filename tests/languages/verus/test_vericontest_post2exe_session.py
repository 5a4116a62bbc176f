"""Compiled checkers through one long-lived sandboxed process per checker (``post2exe.session``): many
batches, the same verdicts as one process per batch, a fresh process after a timeout or a budget change,
at most ``MAX_LIVE`` live processes, and nothing left running after ``close``."""

from __future__ import annotations

import json
import os
import pickle
import shutil

import pytest

from veriscale.languages.verus.post2exe import session as sessmod
from veriscale.languages.verus.post2exe.checker import CompiledChecker, checker_for_source

pytestmark = pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")

SPEC = """
verus! {
impl Solution {
    pub fn h(n: i64) -> (r: i64)
        requires 0 <= n <= 1_000_000,
        ensures forall|i: int, j: int| 0 <= i < n && 0 <= j < n ==> i * j <= r,
    { }
}
}
"""


@pytest.fixture(scope="module")
def compiled() -> CompiledChecker:
    ck = checker_for_source(SPEC, ["n"], None)
    assert ck is not None and ck.ok, ck and ck.error
    return ck


def _fresh(ck: CompiledChecker) -> CompiledChecker:
    return CompiledChecker(ck.checker, ck.binary)


def _cases(k: int) -> list[tuple[dict[str, object], object]]:
    # n*n - 2*n + 1 == (n-1)^2 is the least correct answer: TRUE; one less is FALSE (when n >= 2)
    return [({"n": n}, (n - 1) ** 2 - (n % 2 and n >= 2)) for n in range(k)]


def _plain(got: list[tuple[object, object]]) -> list[tuple[object, ...]]:
    return [(r.truth, r.reason, e.truth, e.reason) for r, e in got]  # type: ignore[attr-defined]


def test_batches_share_one_process_and_agree_with_one_shot_runs(
    compiled: CompiledChecker, monkeypatch: pytest.MonkeyPatch
) -> None:
    ck = _fresh(compiled)
    batches = [_cases(12), _cases(5)[::-1], _cases(30)[7:], [({"n": -1}, 0)]]
    try:
        got = [ck.check(b) for b in batches]
        assert ck.processes_started == 1
        monkeypatch.setenv("VERISCALE_POST2EXE_SESSION", "0")
        one_shot = [_fresh(compiled).check(b) for b in batches]
    finally:
        ck.close()
    assert [_plain(g) for g in got] == [_plain(g) for g in one_shot]
    flat = [v for g in got for v in g]
    assert any(e is not None and e.is_false for _, e in flat) and any(
        e is not None and e.is_true for _, e in flat
    )
    assert got[3][0][0].is_false  # requires refuses n = -1
    assert ck.steps > 0


def test_a_budget_change_starts_a_new_process(compiled: CompiledChecker) -> None:
    ck = _fresh(compiled)
    try:
        ((_, big),) = ck.check([({"n": 30}, 29 * 29)])
        ck.fuel = 100
        ((_, small),) = ck.check([({"n": 30}, 29 * 29)])
        ((_, again),) = ck.check([({"n": 30}, 5)])
        assert ck.processes_started == 2
    finally:
        ck.close()
    assert big is not None and big.is_true
    assert small is not None and small.is_unknown and "budget of 100" in small.reason
    assert again is not None and again.is_false  # a counterexample within the small budget still decides


def test_a_batch_past_its_backstop_gets_no_answer_and_the_next_starts_afresh(
    compiled: CompiledChecker,
) -> None:
    ck = _fresh(compiled)
    ck.fuel = 10**13  # 10^10 quantifier instances fit the budget: far more than the backstop allows
    ck.seconds = 0.5
    try:
        ((req, ens),) = ck.check([({"n": 100_000}, 10**10)])
        # a case's line is written when both its verdicts are known: the cut case has neither
        assert req.is_unknown and "gave no answer" in req.reason
        assert ens is not None and ens.is_unknown and "gave no answer" in ens.reason
        ck.seconds = 60.0
        ((_, ok),) = ck.check([({"n": 4}, 9)])
        assert ok is not None and ok.is_true
        assert ck.processes_started == 2
    finally:
        ck.close()


def test_live_processes_are_capped_and_close_ends_them(compiled: CompiledChecker) -> None:
    sessmod.close_all()
    cks = [_fresh(compiled) for _ in range(sessmod.MAX_LIVE + 1)]
    try:
        for ck in cks:
            ck.check([({"n": 3}, 4)])
        first = cks[0]._session
        assert first is not None and first._proc is None  # the least recently used one was closed
        last = cks[-1]._session
        assert last is not None and last._proc is not None and last._proc.proc is not None
        pid = last._proc.proc.pid
        assert _alive(pid)
    finally:
        for ck in cks:
            ck.close()
    assert not _alive(pid)
    # a closed checker starts a process again when asked
    ((_, v),) = cks[0].check([({"n": 3}, 4)])
    cks[0].close()
    assert v is not None and v.is_true


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:  # a zombie is not running
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_test_file_lines_are_passed_through_and_odd_lines_do_not_break_the_stream(
    compiled: CompiledChecker,
) -> None:
    ck = _fresh(compiled)
    rows = _cases(9)
    lines: list[str | bytes] = [json.dumps({"input": i, "output": o}) for i, o in rows]
    odd: list[str | bytes] = [
        '{"output": 3}',  # no input object: the checker's answer looks like the end marker
        "",
        '[{"input": {"n": 2}, "output": 1}]',  # an array would give one line per element
        "{not json",
        '{"input": {"n": 2}} {"x": 1}',
        b'{"input": {"n": 3}, "output": 4}',
    ]
    try:
        via_lines = ck.check_lines(lines)
        mixed = ck.check_lines(lines[:2] + odd + lines[2:])
        after = ck.check(rows)
        assert ck.processes_started == 1  # the odd lines never put the process out of step
    finally:
        ck.close()
    assert _plain(via_lines) == _plain(after)
    assert _plain(mixed[:2] + mixed[2 + len(odd) :]) == _plain(after)
    assert all(r.is_unknown and "does not decode" in r.reason for r, _ in mixed[2:7])
    assert mixed[7][0].is_true and mixed[7][1] is not None and mixed[7][1].is_true  # n = 3, r = 4 = (3-1)^2
    req_only = _fresh(compiled)
    try:
        got = req_only.check_lines([json.dumps({"input": {"n": -1}})], with_output=False)
    finally:
        req_only.close()
    assert got[0][0].is_false and got[0][1] is None


def test_a_process_grown_large_is_ended_after_its_batch(
    compiled: CompiledChecker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sessmod, "SESSION_RSS_BYTES", 0)  # every process counts as grown large
    monkeypatch.setattr(sessmod, "_RSS_CHECK_SECONDS", 0.0)
    ck = _fresh(compiled)
    try:
        first = ck.check(_cases(6))
        second = ck.check(_cases(6))
        assert ck.processes_started == 2
        assert ck._session is not None and ck._session._proc is None  # ended after its batch
    finally:
        ck.close()
    assert _plain(first) == _plain(second)


def test_a_copy_does_not_share_the_running_process(compiled: CompiledChecker) -> None:
    ck = _fresh(compiled)
    try:
        ck.check(_cases(3))
        twin = pickle.loads(pickle.dumps(ck))
        assert twin._session is None and ck._session is not None
        assert _plain(twin.check(_cases(3))) == _plain(ck.check(_cases(3)))
        twin.close()
    finally:
        ck.close()


def _has_interpreter(binary: os.PathLike[str]) -> bool:
    """Whether an ELF executable asks for a dynamic loader (a PT_INTERP program header)."""
    data = open(binary, "rb").read()
    assert data[:4] == b"\x7fELF" and data[4] == 2, "a 64-bit ELF file"
    order = "little" if data[5] == 1 else "big"
    phoff = int.from_bytes(data[32:40], order)
    size, count = int.from_bytes(data[54:56], order), int.from_bytes(data[56:58], order)
    return any(
        int.from_bytes(data[phoff + k * size : phoff + k * size + 4], order) == 3 for k in range(count)
    )


def test_checker_is_linked_statically_where_the_c_library_allows(compiled: CompiledChecker) -> None:
    from veriscale.languages.verus.compile import cache_dir
    from veriscale.languages.verus.post2exe.build import _links_statically

    assert compiled.binary is not None
    if not _links_statically(cache_dir(None)):
        pytest.skip("this machine's C library has no static archive (libc.a): checkers link dynamically")
    assert not _has_interpreter(compiled.binary)
    # and it runs in the sandbox like the dynamic one did
    got = _fresh(compiled).check([({"n": 3}, 4), ({"n": 3}, 3)])
    assert [(r.truth.value, e.truth.value) for r, e in got] == [("TRUE", "TRUE"), ("TRUE", "FALSE")]  # type: ignore[union-attr]
