"""Structural deciders of sequence binders (``seq_walks``, ``seq_covers``, ``seq_matchings``).

Real problems (shared data): the reference answer TRUE and wrong answers FALSE, with the decider
actually used (a FALSE that needs the complete domain: no walk / no matching / no cover of that
length). Own specs: verdicts against brute force, and near misses that must not be recognised (they
keep the plain path, which decides them correctly or leaves them UNKNOWN). Unit checks of the maximum
matching and the cover search against brute force.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from shared_data import require
from veriscale.languages.verus.engine import SPEC_FUEL
from veriscale.languages.verus.spec import SpecProgram, seq_covers, seq_matchings, seq_walks
from veriscale.runtime import limits

LIM = limits.Limits(fuel=SPEC_FUEL, seconds=120.0, max_depth=100_000)


def _verdict(prog: SpecProgram, inputs: dict[str, Any], output: Any) -> str:
    return prog.ensures_verdict(inputs, output, lim=LIM).truth.value


@pytest.fixture
def used(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts of the deciders' applicable answers (not None) during the test."""
    counts = {"walks": 0, "covers": 0, "matchings": 0}

    def spy(mod: Any, name: str, key: str) -> None:
        real = getattr(mod, name)

        def wrapped(*args: Any, **kw: Any) -> Any:
            got = real(*args, **kw)
            if got is not None:
                counts[key] += 1
            return got

        monkeypatch.setattr(mod, name, wrapped)

    spy(seq_walks, "domain_for", "walks")
    spy(seq_covers, "domain_for", "covers")
    spy(seq_matchings, "decide", "matchings")
    return counts


REAL = [
    # longest descending jump path: has_path_of_length(result) and no longer one (layers; an affine k)
    ("lc1340", "max_jumps", {"arr": (6, 4, 14, 6, 8, 13, 9, 7, 10, 6, 12), "d": 2}, 4, [3, 5], "walks"),
    ("lc1340", "max_jumps", {"arr": (3, 3, 3, 3, 3), "d": 3}, 1, [2], "walks"),
    ("lc1340", "max_jumps", {"arr": (7, 6, 5, 4, 3, 2, 1), "d": 1}, 7, [6], "walks"),
    ("lc1340", "max_jumps", {"arr": (1, 5, 2, 4, 3), "d": 2}, 3, [2, 4], "walks"),
    # maximum number of k-sum pairs: a maximum matching
    ("lc1679", "max_operations", {"nums": (1, 2, 3, 4), "k": 5}, 2, [1], "matchings"),
    ("lc1679", "max_operations", {"nums": (3, 1, 3, 4, 3), "k": 6}, 1, [0], "matchings"),
    ("lc1679", "max_operations", {"nums": (3, 3, 3, 3, 3, 1), "k": 6}, 2, [1, 3], "matchings"),
    # fewest interval increments forming the target: the covers of each length
    ("lc1526", "min_number_operations", {"target": (1, 2, 3, 2, 1)}, 3, [2, 4], "covers"),
    ("lc1526", "min_number_operations", {"target": (3, 1, 1, 2)}, 4, [3, 5], "covers"),
    ("lc1526", "min_number_operations", {"target": (3, 1, 5, 4, 2)}, 7, [6, 8], "covers"),
]


@pytest.mark.parametrize(
    ("pid", "target", "inputs", "good", "bad", "decider"), REAL, ids=[f"{c[0]}-{c[3]}" for c in REAL]
)
def test_real_problems_right_answer_true_wrong_answers_false(
    used: dict[str, int],
    pid: str,
    target: str,
    inputs: dict[str, Any],
    good: int,
    bad: list[int],
    decider: str,
) -> None:
    prog = SpecProgram.from_source(require("vericontest", "leetcode", pid, "spec.rs").read_text(), target)
    assert prog.requires_verdict(inputs).truth.value == "TRUE"
    assert _verdict(prog, inputs, good) == "TRUE"
    for wrong in bad:
        assert _verdict(prog, inputs, wrong) == "FALSE", wrong
    assert used[decider] > 0


def _prog(helpers: str, params: str, ensures: str) -> SpecProgram:
    src = f"""use vstd::prelude::*;
verus! {{
pub struct Solution;
{helpers}
impl Solution {{
pub fn f({params}) -> (r: bool)
    ensures r == ({ensures}),
{{ }}
}}
}}"""
    return SpecProgram.from_source(src)


def _truth(prog: SpecProgram, inputs: dict[str, Any]) -> str:
    """The quantifier's truth from the two answers: "TRUE"/"FALSE", or "UNKNOWN"."""
    t, f = _verdict(prog, inputs, True), _verdict(prog, inputs, False)
    if t == "TRUE" and f == "FALSE":
        return "TRUE"
    if t == "FALSE" and f == "TRUE":
        return "FALSE"
    assert "UNKNOWN" in (t, f), (t, f)  # never both TRUE or both FALSE
    return "UNKNOWN"


# ---- walks
_INC_WALK = "forall|i: int| 0 <= i < s.len() ==> 0 <= #[trigger] s[i] < m"
_INC_PAIR = "forall|i: int| 0 <= i < s.len() - 1 ==> s[i] < #[trigger] s[i + 1]"


def test_walk_lengths_against_brute_force(used: dict[str, int]) -> None:
    # strictly increasing walks over 0..m-1 of exactly n nodes: exist iff 1 <= n <= m (n = 0: the empty one)
    prog = _prog("", "m: i32, n: i32", f"exists|s: Seq<int>| s.len() == n && ({_INC_WALK}) && ({_INC_PAIR})")
    for m in range(0, 4):
        for n in range(0, 6):
            assert _truth(prog, {"m": m, "n": n}) == ("TRUE" if n <= m else "FALSE"), (m, n)
    assert used["walks"] > 0


def test_walk_forall_over_an_unbounded_length_range(used: dict[str, int]) -> None:
    # no strictly increasing walk over 0..2 has 4 or more nodes: the plain path cannot bound the length
    for ens in (
        f"forall|s: Seq<int>| s.len() >= n && ({_INC_WALK}) ==> !({_INC_PAIR})",
        f"forall|s: Seq<int>| !(s.len() >= n && ({_INC_WALK}) && ({_INC_PAIR}))",
    ):
        prog = _prog("", "m: i32, n: i32", ens)
        assert _truth(prog, {"m": 3, "n": 4}) == "TRUE"
        assert _truth(prog, {"m": 3, "n": 3}) == "FALSE"
    assert used["walks"] > 0


def test_walk_with_a_cycle_and_no_length_bound_is_left_to_the_plain_path(used: dict[str, int]) -> None:
    # s[i+1] == (s[i] + 1) % m walks forever: walks of every length, not a finite domain
    cyc = "forall|i: int| 0 <= i < s.len() - 1 ==> #[trigger] s[i + 1] == (s[i] + 1) % m"
    prog = _prog(
        "", "m: i32, n: i32", f"exists|s: Seq<int>| s.len() >= n && ({_INC_WALK}) && ({cyc}) && s[0] == 1"
    )
    assert _truth(prog, {"m": 3, "n": 5}) == "TRUE"  # found by the plain search
    assert used["walks"] == 0


def test_length_tied_to_an_element_is_not_a_walk(used: dict[str, int]) -> None:
    # ``s.len() == s[0] + 1`` mentions an element: not a length conjunct, the shape is refused
    prog = _prog("", "m: i32", f"exists|s: Seq<int>| s.len() == s[0] + 1 && ({_INC_WALK}) && ({_INC_PAIR})")
    assert _truth(prog, {"m": 3}) == "TRUE"  # (0,) has length 1 = s[0] + 1
    prog = _prog("", "m: i32", f"exists|s: Seq<int>| s.len() == s[0] + 4 && ({_INC_WALK}) && ({_INC_PAIR})")
    assert _truth(prog, {"m": 3}) != "TRUE"  # no witness: at most 3 increasing values below 3
    assert used["walks"] == 0


# ---- covers
_CNT = """
pub open spec fn cnt(ops: Seq<int>, pos: int) -> int decreases ops.len() {
    if ops.len() == 0 { 0 } else { cnt(ops.drop_last(), pos) + if ops.last() <= pos { W_IN } else { W_OUT } }
}
pub open spec fn vec_of(n: int, ops: Seq<int>) -> Seq<int> { Seq::new(n as nat, |i: int| cnt(ops, i)) }
"""
_COVER = (
    "forall|ops: Seq<int>| (forall|j: int| 0 <= j < ops.len() ==> 0 <= #[trigger] ops[j] < 3)"
    " && vec_of(3, ops) =~= t@ ==> m <= ops.len()"
)


def _brute_cover(t: tuple[int, ...], m: int, w_in: int, w_out: int, max_len: int) -> bool:
    for n in range(0, max_len + 1):
        for ops in itertools.combinations_with_replacement(range(3), n):
            vec = tuple(sum(w_in if e <= p else w_out for e in ops) for p in range(3))
            if vec == t and not m <= n:
                return False
    return True


def test_cover_lengths_against_brute_force(used: dict[str, int]) -> None:
    prog = _prog(_CNT.replace("W_IN", "1int").replace("W_OUT", "0int"), "t: Vec<i32>, m: i32", _COVER)
    rng = random.Random(7)
    for _ in range(25):
        t = tuple(rng.randint(0, 3) for _ in range(3))
        m = rng.randint(0, 5)
        want = "TRUE" if _brute_cover(t, m, 1, 0, m) else "FALSE"
        assert _truth(prog, {"t": t, "m": m}) == want, (t, m)
    assert used["covers"] > 0


def test_cover_with_negative_weights_keeps_the_multiset_enumeration(used: dict[str, int]) -> None:
    # a fold that can subtract: partial sums may exceed the target and come back, no count search
    prog = _prog(_CNT.replace("W_IN", "1int").replace("W_OUT", "-1int"), "t: Vec<i32>, m: i32", _COVER)
    for t, m in (((1, 1, 1), 2), ((0, 2, 2), 3), ((-1, 1, 1), 3), ((0, 0, 2), 2)):
        want = "TRUE" if _brute_cover(t, m, 1, -1, m) else "FALSE"
        assert _truth(prog, {"t": t, "m": m}) == want, (t, m)
    assert used["covers"] == 0


def test_a_position_weighted_fold_is_no_cover() -> None:
    helpers = """
pub open spec fn wsum(ops: Seq<int>, pos: int) -> int decreases ops.len() {
    if ops.len() == 0 { 0 } else { wsum(ops.drop_last(), pos) + ops.len() * (if ops.last() <= pos { 1int } else { 0int }) }
}
pub open spec fn vec_of(n: int, ops: Seq<int>) -> Seq<int> { Seq::new(n as nat, |i: int| wsum(ops, i)) }
"""
    prog = _prog(helpers, "t: Vec<i32>, m: i32", _COVER)
    q = _first_quant(prog)
    assert q is not None
    atoms = _atoms(prog, q)
    assert seq_covers.cover_equation(atoms, "ops", prog.compiler._fn_of, []) is None


# ---- matchings
_VALID = """
pub open spec fn valid(v: Seq<i32>, a: Seq<int>, b: Seq<int>, k: int) -> bool {
    &&& a.len() == b.len()
    &&& forall |i: int| 0 <= i < a.len() ==> {
        &&& 0 <= a[i] < v.len()
        &&& 0 <= b[i] < v.len()
        &&& v[a[i]] as int + v[b[i]] as int == k
    }
    &&& forall |i: int, j: int| 0 <= i < j < a.len() ==> a[i] != a[j]
    &&& forall |i: int, j: int| 0 <= i < j < b.len() ==> b[i] != b[j]
    CROSS
}
"""
_CROSS = "&&& forall |i: int, j: int| 0 <= i < a.len() && 0 <= j < b.len() ==> a[i] != b[j]"
_MATCH = "forall |a: Seq<int>, b: Seq<int>| valid(v@, a, b, k as int) ==> a.len() <= r0"


def _brute_pairs(v: tuple[int, ...], k: int) -> int:
    """Most disjoint pairs of distinct indices summing to k."""

    def rec(free: frozenset[int]) -> int:
        if not free:
            return 0
        x = min(free)
        best = rec(free - {x})
        for y in free - {x}:
            if v[x] + v[y] == k:
                best = max(best, 1 + rec(free - {x, y}))
        return best

    return rec(frozenset(range(len(v))))


def test_matching_against_brute_force(used: dict[str, int]) -> None:
    prog = _prog(_VALID.replace("CROSS", _CROSS), "v: Vec<i32>, k: i32, r0: i32", _MATCH)
    rng = random.Random(3)
    for _ in range(30):
        v = tuple(rng.randint(1, 4) for _ in range(rng.randint(0, 7)))
        k = rng.randint(2, 8)
        best = _brute_pairs(v, k)
        for r0 in (best - 1, best, best + 1):
            assert _truth(prog, {"v": v, "k": k, "r0": r0}) == ("TRUE" if best <= r0 else "FALSE"), (v, k, r0)
    assert used["matchings"] > 0


def test_matching_without_the_cross_condition_is_not_recognised(used: dict[str, int]) -> None:
    # an index may then be a left and a right index: (0, 1) and (1, 0) are two pairs of one index pair
    prog = _prog(_VALID.replace("CROSS", ""), "v: Vec<i32>, k: i32, r0: i32", _MATCH)
    q = _first_quant(prog)
    assert (
        q is not None and seq_matchings.matching_shape(q, prog.compiler.inline_call, _plans(prog, q)) is None
    )
    got = _truth(prog, {"v": (1, 2), "k": 3, "r0": 1})
    assert got in ("FALSE", "UNKNOWN")  # a = (0, 1), b = (1, 0) has length 2 > 1
    assert used["matchings"] == 0


def test_matching_with_a_consequent_on_elements_is_not_recognised(used: dict[str, int]) -> None:
    ens = "forall |a: Seq<int>, b: Seq<int>| valid(v@, a, b, k as int) ==> a.len() <= r0 || a[0] == 0"
    prog = _prog(_VALID.replace("CROSS", _CROSS), "v: Vec<i32>, k: i32, r0: i32", ens)
    q = _first_quant(prog)
    assert (
        q is not None and seq_matchings.matching_shape(q, prog.compiler.inline_call, _plans(prog, q)) is None
    )
    assert used["matchings"] == 0


# ---- unit checks
def test_blossom_matching_against_brute_force() -> None:
    def brute(vs: frozenset[int], es: set[frozenset[int]]) -> int:
        if not vs:
            return 0
        x = min(vs)
        best = brute(vs - {x}, es)
        for y in vs - {x}:
            if frozenset((x, y)) in es:
                best = max(best, 1 + brute(vs - {x, y}, es))
        return best

    rng = random.Random(11)
    with limits.using(limits.Budget(limits.Limits(fuel=10**7, seconds=60.0))):
        for _ in range(300):
            n = rng.randint(0, 9)
            p = rng.random()
            edges = [(i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < p]
            adj: list[list[int]] = [[] for _ in range(n)]
            for i, j in edges:
                adj[i].append(j)
                adj[j].append(i)
            mate = seq_matchings.max_matching(n, adj)
            assert all(
                mate[mate[v]] == v and (min(v, mate[v]), max(v, mate[v])) in edges
                for v in range(n)
                if mate[v] >= 0
            )
            assert sum(1 for v in range(n) if mate[v] > v) == brute(
                frozenset(range(n)), {frozenset(e) for e in edges}
            )


def test_cover_search_against_brute_force() -> None:
    rng = random.Random(5)
    with limits.using(limits.Budget(limits.Limits(fuel=10**7, seconds=60.0))):
        for _ in range(200):
            dims = rng.randint(1, 3)
            elems = [(k, tuple(rng.randint(0, 2) for _ in range(dims))) for k in range(rng.randint(1, 4))]
            deficit = tuple(rng.randint(0, 4) for _ in range(dims))
            lo, hi = rng.randint(0, 2), rng.randint(0, 5)
            got = list(seq_covers._solutions(elems, deficit, lo, hi))
            want = [
                c
                for n in range(lo, hi + 1)
                for c in itertools.combinations_with_replacement([e for e, _ in elems], n)
                if tuple(sum(dict(elems)[e][p] for e in c) for p in range(dims)) == deficit
            ]
            assert sorted(got) == sorted(want)
            assert len(set(got)) == len(got)


# ---- helpers reaching the parsed quantifier of an own spec
def _first_quant(prog: SpecProgram) -> Any:
    """The first quantifier (depth first) of the ensures clauses."""
    import dataclasses

    from veriscale.languages.verus.spec.ast import Quant

    todo = [c.expr for c in reversed(prog.ensures) if c.expr is not None]
    while todo:
        e = todo.pop()
        if isinstance(e, Quant):
            return e
        kids = []
        for f in dataclasses.fields(e):
            v = getattr(e, f.name)
            for x in v if isinstance(v, tuple) else (v,):
                if dataclasses.is_dataclass(x):
                    kids.append(x)
        todo.extend(reversed(kids))
    return None


def _plans(prog: SpecProgram, q: Any) -> list[Any]:
    from veriscale.languages.verus.spec.bounds import plan_quantifier

    c = prog.compiler
    return plan_quantifier(q, c.inline_call, c.expand_call, c._fn_of)


def _atoms(prog: SpecProgram, q: Any) -> list[Any]:
    from veriscale.languages.verus.spec.bounds import conjuncts

    return conjuncts(q.body, q.kind, prog.compiler.inline_call)
