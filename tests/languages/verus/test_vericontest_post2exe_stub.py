"""Compiled checkers: an operand of `&&`/`||`/`==>` outside the translatable fragment is an UNKNOWN stub,
so the connective still decides where the stub does not matter (Kleene's logic), the clause is listed
as partly compiled (the checker is not complete: its UNKNOWNs still go to the Python evaluator)."""

from __future__ import annotations

import shutil

import pytest

from veriscale.languages.verus.post2exe.checker import checker_for_source

pytestmark = pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")

# `forall|x: int| x > 0 ==> ...` has no upper bound: outside the fragment
SPEC = """
verus! {
impl Solution {
    pub fn f(n: i64) -> (r: i64)
        requires 0 <= n <= 100,
        ensures
            r == 0 ==> (forall|x: int| x > 0 ==> x * x != n),
            r == 0 || r == n,
            r == 7 && (forall|x: int| x > 0 ==> x != n) || r != 7,
    { }
}
}
"""


def test_a_stub_decides_only_where_it_does_not_matter() -> None:
    ck = checker_for_source(SPEC, ["n"], None)
    assert ck is not None and ck.ok, ck and ck.error
    assert not ck.checker.complete
    assert len(ck.checker.untranslated) == 2 and all(": partly: " in u for u in ck.checker.untranslated)
    got = ck.check([({"n": 5}, 5), ({"n": 5}, 4), ({"n": 5}, 0), ({"n": 7}, 7)])
    (_, a), (_, b), (_, c), (_, d) = got
    assert a is not None and a.is_true  # r != 0: the stub is never needed; r != 7 decides the last clause
    assert b is not None and b.is_false  # clause 2 is false whatever the stubs would say
    assert c is not None and c.is_unknown and "not compiled" in c.reason  # r == 0: the stub decides
    assert d is not None and d.is_unknown and "not compiled" in d.reason  # r == 7: `true && ?`
