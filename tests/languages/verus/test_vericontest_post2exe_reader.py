"""Compiled checkers' request loop (``runtime_rs``'s ``serve``): the tree-free case reader gives the
verdicts and messages the JSON tree gave, the compact reply form carries the same verdicts, reasons and
step totals as the JSON form, and ``VERISCALE_POST2EXE_SEARCH`` sets the search share of a range beyond
the budget (0: refused at once). Step counts and verdicts, never time."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from veriscale.languages.verus.post2exe.checker import (
    CompiledChecker,
    _checker_env,
    _reply_line,
    checker_for_source,
)

pytestmark = pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")

SPEC = """
verus! {
impl Solution {
    pub fn f(a: Vec<i32>, s: String, c: char, p: (i64, bool), n: u8) -> (r: i64)
        requires
            a.len() <= 10,
            forall|i: int| 0 <= i < a.len() ==> a[i] >= 0,
        ensures
            r >= 0,
            forall|i: int| 0 <= i < a.len() ==> a[i] <= r,
            s.len() >= 0 && (c == 'x' ==> r == 7) && (p.1 ==> p.0 <= r),
    { }
}
}
"""

GOOD = {"a": [1, 2, 3], "s": 'h\u00e9\\"llo\n', "c": "x", "p": [3, True], "n": 200}


def _lines() -> list[str]:
    """Cases of every kind: decided both ways, UNKNOWN, undecodable values, malformed JSON."""
    out = []
    for r in (7, 3, -1, 2):
        out.append(json.dumps({"input": GOOD, "output": r}))
    out.append(json.dumps({"input": {**GOOD, "c": "y"}, "output": 3}))
    out.append(json.dumps({"input": {**GOOD, "a": [-1]}, "output": 7}))  # requires FALSE
    out.append(json.dumps({"input": {**GOOD, "a": [1, -2]}}))  # no output: requires only
    out.append(json.dumps({"output": 1, "input": GOOD, "input ": {}}, ensure_ascii=True))
    out.append(' { "input" : ' + json.dumps(GOOD, indent=1).replace("\n", " ") + ' , "output" : 7 } ')
    out.append(json.dumps({"in\\u0070ut": GOOD, "output": 7}).replace("\\\\u0070", "\\u0070"))  # escaped key
    out.append(json.dumps({"input": GOOD, "input2": 1, "output": 7}))
    out.append(json.dumps({"input": {**GOOD, "n": 256}, "output": 7}))  # u8 out of range
    out.append(json.dumps({"input": {**GOOD, "n": 2.5}, "output": 7}))  # not an integer
    out.append(json.dumps({"input": {**GOOD, "c": "xy"}, "output": 7}))  # not one character
    out.append(json.dumps({"input": {**GOOD, "p": [1]}, "output": 7}))  # tuple of the wrong length
    out.append(json.dumps({"input": {**GOOD, "a": "abc"}, "output": 7}))  # wrong type
    out.append(json.dumps({"input": {k: v for k, v in GOOD.items() if k != "s"}, "output": 7}))
    out.append(json.dumps({"input": GOOD, "output": "7"}))  # output of the wrong type
    out.append(json.dumps({"input": GOOD, "output": 170141183460469231731687303715884105728}))  # > i128
    out.append(json.dumps({"input": 5, "output": 7}))
    out.append(json.dumps({"input": {**GOOD, "c": "\ud83d\ude00"}, "output": 7}, ensure_ascii=True))
    out.append(json.dumps({"input": GOOD, "output": 7}).replace("7}", "7"))  # unterminated object
    out.append('{"input": {"a": [1,, 2]}, "output": 7}')
    out.append('{"input": {"a": [1]}, "output": 7} x')  # trailing characters
    out.append('{"input": {"s": "\\q"}, "output": 7}')  # bad escape
    out.append('{"input": {"s": "\\ud800"}, "output": 7}')  # lone surrogate
    out.append('{"input": {"s": "\\u12"}, "output": 7}')  # short escape
    out.append('{"input": tru, "output": 7}')
    out.append("[" + ", ".join(out[:6]) + "]")  # a batch line
    out.append("[]")
    out.append("{}")
    return out


def _run(binary: object, lines: list[str], extra: dict[str, str]) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERISCALE_POST2EXE")}
    env.update(extra)
    res = subprocess.run([str(binary)], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         env=env, check=True, timeout=120)  # fmt: skip
    return res.stdout.splitlines()


@pytest.fixture(scope="module")
def checker() -> CompiledChecker:
    ck = checker_for_source(SPEC, ["a", "s", "c", "p", "n"], None)
    assert ck is not None and ck.ok and ck.checker.complete, ck and ck.error
    return ck


def test_reader_verdicts_and_messages(checker: CompiledChecker) -> None:
    got = [json.loads(x) for x in _run(checker.binary, _lines(), {})]
    lines = _lines()
    assert len(got) == len(lines) - 1 + 5  # the batch line gives 6 answers, "[]" none
    v = [(d.get("requires"), d.get("ensures"), d.get("bad")) for d in got]
    assert v[0] == ("TRUE", "TRUE", None)
    assert v[1] == ("TRUE", "FALSE", None) and "r == 7" in got[1]["ensures_reason"]
    assert v[2] == ("TRUE", "FALSE", None) and got[2]["ensures_reason"] == "clause `r >= 0` is false"
    assert v[3] == ("TRUE", "FALSE", None)  # a[2] = 3 > 2
    assert v[4] == ("TRUE", "TRUE", None)  # c != 'x'
    assert v[5][0] == "FALSE" and v[6] == ("FALSE", None, None) and "ensures" not in got[6]
    assert v[7] == ("TRUE", "FALSE", None)  # the first "input" counts, the key "input " is another
    assert v[8] == ("TRUE", "TRUE", None)  # whitespace everywhere
    assert v[9] == ("TRUE", "TRUE", None)  # an escaped key is the same key
    assert v[10] == ("TRUE", "TRUE", None)
    assert got[11]["bad"] == "256 is out of range"
    assert got[12]["bad"] == "2.5 is not an integer of the checker"
    assert got[13]["bad"] == "char is not one character"
    assert got[14]["bad"] == got[15]["bad"] == "JSON value does not match the type"
    assert got[16]["bad"] == "missing input s"
    assert got[17]["bad"] == "JSON value does not match the type"
    assert got[18]["bad"] == "170141183460469231731687303715884105728 is not an integer of the checker"
    assert got[19]["bad"] == "missing input a"  # not an object: no field
    assert v[20] == ("TRUE", "TRUE", None)  # an escaped surrogate pair is one (non-BMP) char
    assert got[21]["bad"] == "unterminated object"
    assert got[22]["bad"].startswith("unexpected byte at")
    assert got[23]["bad"] == "trailing characters after JSON"
    assert got[24]["bad"] == "bad escape"
    assert got[25]["bad"] == "lone surrogate"
    assert got[26]["bad"] == "bad \\u escape"
    assert got[27]["bad"].startswith("bad literal at")
    assert got[28:34] == got[:6]  # the batch line: the same answers as the lines alone
    assert got[34] == {"bad": "no input object"}


def test_compact_form_carries_the_same_verdicts_reasons_and_steps(checker: CompiledChecker) -> None:
    lines = _lines()
    full = [json.loads(x) for x in _run(checker.binary, lines, {})]
    compact = _run(checker.binary, lines, {"VERISCALE_POST2EXE_REPLY": "compact"})
    assert len(compact) == len(full)
    assert compact[8].startswith("TT#") and "\t" not in compact[8]  # all TRUE: no reasons
    assert compact[0].startswith("TT#") and compact[4].startswith("TT#")  # one request line each: steps
    assert compact[28] == "TT" and compact[33].startswith("FT#")  # a batch: steps on its last line only
    steps = 0
    for d, c in zip(full, compact):
        (req, ens), k = _reply_line(c.encode(), True)
        steps += k
        if "bad" in d:
            assert c == json.dumps(d, separators=(",", ":"), ensure_ascii=False)
            assert req.is_unknown and d["bad"] in req.reason
            continue
        for key, got in (("requires", req), ("ensures", ens)):
            if key not in d:
                assert got is None
                continue
            assert got is not None
            assert {"TRUE": got.is_true, "FALSE": got.is_false, "UNKNOWN": got.is_unknown}[d[key]]
            assert (d[f"{key}_reason"] or "") in (got.reason or "")
    assert steps == sum(int(d.get("requires_steps", 0)) + int(d.get("ensures_steps", 0)) for d in full)
    assert steps > 0


def test_compiled_checker_reads_the_compact_form(checker: CompiledChecker) -> None:
    cases = [(GOOD, r) for r in (7, 3, -1, 2)] + [({**GOOD, "a": [-1]}, 7), ({**GOOD, "n": 256}, 7)]
    checker.steps = 0
    got = checker.check(cases)
    checker.close()
    seen = [
        (r.is_true, r.is_false, e is not None and e.is_true, e is not None and e.is_false) for r, e in got
    ]
    assert seen[:5] == [(True, False, True, False)] + [(True, False, False, True)] * 3 + [
        (False, True, True, False)
    ]
    assert got[1][1] is not None and got[1][1].is_false and "r == 7" in got[1][1].reason
    assert got[5][0].is_unknown and "256 is out of range" in got[5][0].reason
    # the steps of the batch (its last case does not decode: they come on its line) as the JSON form counts
    full = [
        json.loads(x)
        for x in _run(checker.binary, [json.dumps([{"input": i, "output": o} for i, o in cases])], {})
    ]
    assert (
        checker.steps
        == sum(int(d.get("requires_steps", 0)) + int(d.get("ensures_steps", 0)) for d in full)
        > 0
    )
    assert _checker_env()["VERISCALE_POST2EXE_REPLY"] == "compact"
    lines = checker.check_lines([json.dumps({"input": GOOD, "output": 7}), "not json", b'{"input": 1}'])
    checker.close()
    assert lines[0][0].is_true and lines[0][1] is not None and lines[0][1].is_true
    assert lines[1][0].is_unknown and "not one JSON object" in lines[1][0].reason
    assert lines[2][0].is_unknown and "missing input a" in lines[2][0].reason


def test_reply_line_rejects_garbage() -> None:
    for raw in (b"", b"X", b"TTT", b"TF\t[", b'TU\t"a"', b"{nope"):
        (req, _), k = _reply_line(raw, True)
        assert req.is_unknown and "no answer" in req.reason and k == 0
    (req, ens), k = _reply_line(b'TU#12\t""\t"clause `x`: why"', True)
    assert req.is_true and ens is not None and ens.is_unknown and "why" in ens.reason and k == 12
    (req, ens), _ = _reply_line(b"T", False)
    assert req.is_true and ens is None


SEARCH_SPEC = """
verus! {
impl Solution {
    pub fn g(n: i64) -> (r: i64)
        requires 0 <= n <= 100,
        ensures r != 1 || exists|m: int| 0 <= m <= 1_000_000_000_000 && m * m == n + 11,
    { }
}
}
"""


def test_search_share_from_the_environment() -> None:
    ck = checker_for_source(SEARCH_SPEC, ["n"], None)
    assert ck is not None and ck.ok, ck and ck.error
    line = [json.dumps({"input": {"n": 5}, "output": 1})]
    base = {"VERISCALE_POST2EXE_FUEL": "6400"}
    (found,) = [json.loads(x) for x in _run(ck.binary, line, base)]  # share 100 steps: witness 4 found
    assert found["ensures"] == "TRUE" and found["ensures_steps"] == 5
    (short,) = [json.loads(x) for x in _run(ck.binary, line, {**base, "VERISCALE_POST2EXE_SEARCH": "3"})]
    assert short["ensures"] == "UNKNOWN" and "undecided after 3 values" in short["ensures_reason"]
    (refused,) = [json.loads(x) for x in _run(ck.binary, line, {**base, "VERISCALE_POST2EXE_SEARCH": "0"})]
    assert refused["ensures"] == "UNKNOWN" and refused["ensures_steps"] == 0
    assert "exceeds the step budget: undecided after 0 values" in refused["ensures_reason"]
    far = [json.dumps({"input": {"n": 5}, "output": 2})]  # the quantifier is not reached: TRUE either way
    (other,) = [json.loads(x) for x in _run(ck.binary, far, {**base, "VERISCALE_POST2EXE_SEARCH": "0"})]
    assert other["ensures"] == "TRUE"


NESTED_SPEC = """
verus! {
impl Solution {
    pub fn h(n: i64) -> (r: i64)
        requires 0 <= n <= 100,
        ensures forall|i: int, j: int| 0 <= i < n && 0 <= j < n ==> i * j <= r,
    { }
}
}
"""


def test_refusal_is_only_for_ranges_beyond_the_whole_budget() -> None:
    """With a search share of 0 an inner range that merely has more values than the clause has steps
    left is budget exhaustion (not retried in Python), as before; only a range beyond the whole budget
    is refused."""
    ck = checker_for_source(NESTED_SPEC, ["n"], None)
    assert ck is not None and ck.ok, ck and ck.error
    line = [json.dumps({"input": {"n": 30}, "output": 29 * 29})]
    env = {"VERISCALE_POST2EXE_FUEL": "100", "VERISCALE_POST2EXE_SEARCH": "0"}
    (d,) = [json.loads(x) for x in _run(ck.binary, line, env)]
    assert d["ensures"] == "UNKNOWN" and str(d["ensures_reason"]).endswith("step budget of 100 exhausted")
    assert d["ensures_steps"] == 100
    (w,) = [json.loads(x) for x in _run(ck.binary, line, {**env, "VERISCALE_POST2EXE_FUEL": "20"})]
    assert "range of 30 values exceeds the step budget: undecided after 0 values" in w["ensures_reason"]
    assert w["ensures_steps"] == 0
