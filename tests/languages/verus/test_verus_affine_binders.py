"""Affine stand-ins for scalar binders (``spec/affine.py``) and tail calls as loops (``spec/tailcalls.py``).

Unit level: every comparison of an affine stand-in either holds uniformly on its interval (checked by
brute force) or splits it at a cut after which both halves are uniform. Spec level: own small specs
(an unbounded binder decided both ways; a near-miss outside the affine fragment that must stay
undecided). Real problems (shared data): the reference answer TRUE, wrong answers FALSE, where the FALSE
needs the binder's whole unbounded or huge range (an ``exists`` without witness, a ``forall`` whose only
counterexamples are far from any bound).
"""

from __future__ import annotations

import itertools

import pytest

from shared_data import require
from veriscale.languages.verus.lexer import tokenize
from veriscale.languages.verus.spec import SpecProgram
from veriscale.languages.verus.spec import affine as af
from veriscale.languages.verus.spec.bounds import conjuncts
from veriscale.languages.verus.spec.parser import ExprParser
from veriscale.languages.verus.spec.seq_shapes import monotone
from veriscale.runtime.limits import Limits

# ---- unit level: comparisons are uniform on the interval or split it at a cut


_OPS = {
    "<": lambda p, q: p < q,
    "<=": lambda p, q: p <= q,
    ">": lambda p, q: p > q,
    ">=": lambda p, q: p >= q,
    "==": lambda p, q: p == q,
    "!=": lambda p, q: p != q,
}


def _compare(op: str, v: af.Affine, c: int) -> bool:
    return _OPS[op](v, c)


def _brute(op: str, a: int, b: int, c: int, x: int) -> bool:
    return _OPS[op](a * x + b, c)


@pytest.mark.parametrize("op", ["<", "<=", ">", ">=", "==", "!="])
def test_comparisons_uniform_or_split(op: str) -> None:
    """On every interval of [-6, 6] and every a*x + b vs c: a returned truth value is the truth value at
    every point; a split cut leaves both halves uniform."""
    checked = splits = 0
    for a, b, c in itertools.product([-3, -2, -1, 1, 2, 3], [-4, 0, 5], [-7, 0, 1, 6]):
        for lo, hi in itertools.combinations_with_replacement(range(-6, 7), 2):
            cell = af.Cell("x", lo, hi)
            try:
                got = _compare(op, af.Affine(cell, a, b), c)
                # the reflected form (the integer on the left) agrees
                flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}[op]
                assert _OPS[flipped](c, af.Affine(cell, a, b)) == got
            except af.Split as sp:
                splits += 1
                assert lo <= sp.t < hi
                for part in ((lo, sp.t), (sp.t + 1, hi)):
                    truths = {_brute(op, a, b, c, x) for x in range(part[0], part[1] + 1)}
                    if op in ("==", "!="):
                        assert len(truths) <= 2  # equality may need a second cut in one half
                    else:
                        assert len(truths) == 1, (op, a, b, c, lo, hi, sp.t)
                continue
            checked += 1
            assert all(_brute(op, a, b, c, x) == got for x in range(lo, hi + 1)), (op, a, b, c, lo, hi)
    assert checked > 100 and splits > 100


@pytest.mark.parametrize("op", ["<", "<=", ">", ">=", "=="])
def test_quadratic_comparisons_uniform_or_split(op: str) -> None:
    """Products of two affine values and exact divisions (x * (x - 1) / 2): every returned truth value
    holds at every point of the interval, every split leaves a strictly smaller interval, and
    repeated splitting reaches uniform pieces that agree with brute force."""
    for p, r, d, c in itertools.product([1, -2], [-3, 0, 4], [1, 2], [-5, 0, 3, 10]):
        for lo, hi in [(-9, 9), (-4, 0), (2, 7), (0, 0)]:
            # value(x) = p*x * (x + r) / d, when exact
            def value(x: int, p: int = p, r: int = r, d: int = d) -> int:
                return p * x * (x + r) // d

            if any((p * x * (x + r)) % d for x in range(d)):
                continue
            todo = [(lo, hi)]
            while todo:
                a, b = todo.pop()
                cell = af.Cell("x", a, b)
                x = af.Affine(cell, 1, 0)
                v = af.arith("/", (x * p) * (x + r), d)
                try:
                    got = _compare(op, v, c) if isinstance(v, af.Affine) else _OPS[op](v, c)
                except af.Split as sp:
                    assert a <= sp.t < b
                    todo += [(a, sp.t), (sp.t + 1, b)]
                    continue
                assert all(_OPS[op](value(y), c) == got for y in range(a, b + 1)), (op, p, r, d, c, a, b)


def test_unbounded_side_and_arithmetic() -> None:
    cell = af.Cell("x", 10, None)  # x >= 10
    x = af.Affine(cell, 1, 0)
    assert (x > 9) is True and (2 * x - 5 >= 15) is True and (-x < -9) is True
    assert (x - x) == 0 and isinstance(x - x, int)  # the binder cancels: a plain integer
    with pytest.raises(af.Split) as sp:
        _ = x <= 100
    assert sp.value.t == 100
    for bad in (lambda: x * x * x, lambda: x // 2, lambda: x % 3, lambda: hash(x), lambda: bool(x)):
        with pytest.raises(af.NotAffine):
            bad()
    other = af.Affine(af.Cell("y", None, None), 1, 0)
    with pytest.raises(af.NotAffine):
        _ = x < other  # two binders: outside the fragment


# ---- hoisted order conjuncts (seq_shapes._hoisted)


def _seq_atoms(body: str) -> list[object]:
    toks = tokenize(body)
    return conjuncts(ExprParser(toks, 0, len(toks)).parse_all(), "exists", None)


def test_order_nested_in_a_covering_forall_is_hoisted() -> None:
    # Verus' forall extends to the right: the order conjunct is inside the element-range forall
    nested = (
        "s.len() >= 1 && forall |j: int| 0 <= j < s.len() ==> 0 <= s[j] < n"
        " && forall |i: int| 0 <= i < s.len() - 1 ==> s[i] < s[i + 1]"
    )
    assert monotone(_seq_atoms(nested), "s") == "strict"


def test_nested_order_that_mentions_the_outer_binder_is_not_hoisted() -> None:
    # near misses where hoisting would be wrong: the inner forall depends on j; the outer guard is
    # empty for a sequence of length 2 (so [5, 3] satisfies the conjunct without being ordered)
    uses_j = (
        "forall |j: int| 0 <= j < s.len() ==> 0 <= s[j] < n && forall |i: int| 0 <= i < j ==> s[i] < s[i + 1]"
    )
    assert monotone(_seq_atoms(uses_j), "s") is None
    short = (
        "forall |j: int| 0 <= j < s.len() - 2 ==> 0 <= s[j] < n"
        " && forall |i: int| 0 <= i < s.len() - 1 ==> s[i] < s[i + 1]"
    )
    assert monotone(_seq_atoms(short), "s") is None


# ---- spec level: own specs

_ABS_SPEC = """
verus! {
pub open spec fn dist(a: int, b: int) -> int { if a >= b { a - b } else { b - a } }
pub open spec fn total(x: int, y: int, m: int) -> int { dist(x, m) + dist(y, m) }
fn f(x: i32, y: i32) -> (r: i32)
    ensures
        forall|m: int| #[trigger] total(x as int, y as int, m) >= r,
        exists|m: int| #[trigger] total(x as int, y as int, m) == r,
{ }
}
"""


def _truth(prog: SpecProgram, inputs: dict[str, object], output: object, fuel: int = 300_000) -> str:
    lim = Limits(fuel=fuel, seconds=120, max_depth=100_000)
    return prog.ensures_verdict(inputs, output, lim=lim).truth.value


def test_unbounded_binder_both_ways() -> None:
    prog = SpecProgram.from_source(_ABS_SPEC, "f")
    assert _truth(prog, {"x": 3, "y": 11}, 8) == "TRUE"
    assert _truth(prog, {"x": 3, "y": 11}, 9) == "FALSE"  # no m reaches 9: needs every m
    assert _truth(prog, {"x": 3, "y": 11}, 7) == "FALSE"  # the forall fails (at every m)


_NEAR_MISS = """
verus! {
fn f(x: i32) -> (r: bool)
    ensures
        r == (forall|v: int| v >= 0 ==> #[trigger] (v / 2) <= v + x),
{ }
}
"""


def test_division_is_not_affine(monkeypatch: pytest.MonkeyPatch) -> None:
    """``v / 2`` leaves the affine fragment: the one-sided binder falls back to the bounded search,
    which cannot decide a true ``forall`` (and must not claim it); the z3 back end then proves it."""
    prog = SpecProgram.from_source(_NEAR_MISS, "f")
    assert _truth(prog, {"x": 0}, True) == "TRUE"
    monkeypatch.setenv("VERISCALE_SPEC_Z3", "0")
    assert _truth(prog, {"x": 0}, True) == "UNKNOWN"
    assert _truth(prog, {"x": -5}, False) == "TRUE"  # a counterexample near the bound is still found


_CHOOSE_SPEC = """
verus! {
pub open spec fn least(t: int) -> int {
    choose|k: int| k >= t && (forall|k2: int| k2 >= t ==> k <= k2)
}
pub open spec fn some_above(t: int) -> int {
    choose|k: int| k >= t
}
fn f(t: i32) -> (r: i32)
    ensures r == least(t as int),
{ }
fn g(t: i32) -> (r: i32)
    ensures r == some_above(t as int),
{ }
}
"""


def test_choose_over_an_unbounded_binder() -> None:
    """The unique witness is found and every other piece is shown not to be one (the inner forall's
    bound through the outer stand-in is dropped and searched); several witnesses stay unspecified."""
    prog = SpecProgram.from_source(_CHOOSE_SPEC, "f")
    assert _truth(prog, {"t": 7}, 7) == "TRUE"
    assert _truth(prog, {"t": 7}, 8) == "FALSE"
    assert _truth(prog, {"t": -3}, -3) == "TRUE"
    several = SpecProgram.from_source(_CHOOSE_SPEC, "g")
    assert _truth(several, {"t": 7}, 7) == "UNKNOWN"


_TAIL_SPEC = """
verus! {
pub open spec fn count_down(n: int, acc: int) -> int
    decreases n
{
    if n <= 0 { acc } else { count_down(n - 1, acc + 2) }
}
pub open spec fn sum_down(n: int) -> int
    decreases n
{
    if n <= 0 { 0 } else { 2 + sum_down(n - 1) }
}
fn f(n: i32) -> (r: i32)
    ensures r == count_down(n as int, 0),
{ }
fn g(n: i32) -> (r: i32)
    ensures r == sum_down(n as int),
{ }
}
"""


def test_tail_recursion_runs_as_a_loop() -> None:
    prog = SpecProgram.from_source(_TAIL_SPEC, "f")
    assert prog.tail_recursive()
    lim = Limits(fuel=300_000, seconds=120, max_depth=1000)  # far below the 150,000 calls
    assert prog.ensures_verdict({"n": 150_000}, 300_000, lim=lim).truth.value == "TRUE"
    assert prog.ensures_verdict({"n": 150_000}, 299_998, lim=lim).truth.value == "FALSE"
    # the same recursion not in tail position (2 + f(n - 1)) is summed in closed form (linrec.py) ...
    deep = SpecProgram.from_source(_TAIL_SPEC, "g")
    assert deep.ensures_verdict({"n": 150_000}, 300_000, lim=lim).truth.value == "TRUE"
    # ... but a non-linear one (the call under a product) still has the depth limit
    scaled = SpecProgram.from_source(
        _TAIL_SPEC.replace("2 + sum_down(n - 1)", "2 + 1 * sum_down(n - 1)"), "g"
    )
    got = scaled.ensures_verdict({"n": 150_000}, 300_000, lim=lim)
    assert got.truth.value == "UNKNOWN" and "deeper" in got.reason


# ---- real problems (shared data)


def _prog(rel: str, target: str) -> SpecProgram:
    return SpecProgram.from_source(require("vericontest", rel, "spec.rs").read_text(), target)


REAL = [
    # sums of min(a[i], v) and |s - target|: piecewise linear in the unbounded v
    ("leetcode/lc1300", "find_best_value", {"arr": (4, 9, 3), "target": 10}, 3, [2, 4]),
    (
        "leetcode/lc1300",
        "find_best_value",
        {"arr": (60864, 25176, 27249, 21296, 20204), "target": 56803},
        11361,
        [11360, 11362],
    ),
    # |x1 - m| + |x2 - m| + |x3 - m| over every integer m
    ("codeforces/cf723A", "min_total_meeting_distance", {"x1": 7, "x2": 1, "x3": 4}, 6, [5, 7]),
    # a cost that is a sum of max(0, v - a[i]) for all v below / above the answer (one-sided binders)
    ("codeforces/cf1201C", "max_median", {"n": 5, "k": 5, "a": (1, 1, 1, 1, 2)}, 3, [2, 4]),
    # exists over an i32 binder (2^31 values): the witness is a difference, or none exists
    ("codeforces/cf1690B", "is_possible", {"n": 3, "a": (1, 2, 1), "b": (0, 1, 0)}, True, [False]),
    ("codeforces/cf1690B", "is_possible", {"n": 4, "a": (5, 3, 7, 2), "b": (1, 1, 1, 1)}, False, [True]),
    # nums.update(k, v) with an i32 v: the sequence holds the stand-in
    ("leetcode/lc665", "check_possibility", {"nums": (4, 2, 3)}, True, [False]),
    ("leetcode/lc665", "check_possibility", {"nums": (4, 2, 1)}, False, [True]),
    # an unbounded binder through memoised recursion (used_ten - 1, 2 * used_ten)
    ("leetcode/lc860", "lemonade_change", {"bills": (5, 5, 5, 10, 20)}, True, [False]),
    ("leetcode/lc860", "lemonade_change", {"bills": (5, 5, 10, 10, 20)}, False, [True]),
    # k > res over an unbounded range: lengths past the pigeonhole bound of the (hoisted) strict order
    ("leetcode/lc300", "length_of_lis", {"nums": (10, 9, 2, 5, 3, 7, 101, 18)}, 4, [3, 5]),
    ("leetcode/lc300", "length_of_lis", {"nums": (7, 7, 7, 7)}, 1, [2]),
    # binder bounds inside a helper whose body starts with `let n = s.len();` (lets substituted)
    ("leetcode/lc581", "find_unsorted_subarray", {"nums": (2, 6, 4, 8, 10, 9, 15)}, 5, [4, 6, 0]),
    # choose of the least feasible k over an unbounded binder, minimality by an inner forall
    ("leetcode/lc517", "find_min_moves", {"machines": (1, 0, 5)}, 3, [2, 4]),
    ("leetcode/lc517", "find_min_moves", {"machines": (0, 3, 0)}, 2, [1, 3]),
    # exists x, y >= 0 with a*x + b*y == c: y's scaled bound through the stand-in x is loosened to an
    # affine one, which empties y's range past c / a (the no-witness case needs every x)
    ("codeforces/cf633A", "exact_damage_possible", {"a": 4, "b": 6, "c": 15}, False, [True]),
    ("codeforces/cf633A", "exact_damage_possible", {"a": 3, "b": 2, "c": 7}, True, [False]),
    ("codeforces/cf633A", "exact_damage_possible", {"a": 7, "b": 9, "c": 9973}, True, [False]),
    ("codeforces/cf633A", "exact_damage_possible", {"a": 2, "b": 4, "c": 9999}, False, [True]),
    # quadratic in the binder: m * (m - 1) / 2 (an exact division) over 1 <= m <= 2 * 10^9
    (
        "codeforces/cf1862D",
        "min_balls_for_types",
        {"n": 10**18},
        2648956421,
        [2648956420, 2648956422],
    ),
    ("codeforces/cf1862D", "min_balls_for_types", {"n": 179}, 27, [26, 28]),
]


@pytest.mark.parametrize(
    ("rel", "target", "inputs", "good", "bad"), REAL, ids=[c[0].split("/")[1] for c in REAL]
)
def test_real_problems(
    rel: str, target: str, inputs: dict[str, object], good: object, bad: list[object]
) -> None:
    prog = _prog(rel, target)
    assert _truth(prog, inputs, good) == "TRUE"
    for wrong in bad:
        assert _truth(prog, inputs, wrong) == "FALSE", wrong


def test_lc492_tail_recursion_over_the_area() -> None:
    """scan_spec(area, w + 1, …) walks every w up to the area: 122,122 calls, all in tail position."""
    prog = _prog("leetcode/lc492", "construct_rectangle")
    assert prog.tail_recursive()
    assert _truth(prog, {"area": 122122}, (427, 286)) == "TRUE"
    assert _truth(prog, {"area": 122122}, (286, 427)) == "FALSE"


def test_recursion_on_the_stand_in_gives_up_early() -> None:
    """cumul_profit(…, r - 1, …) inside cumul_profit(…, r, …): the recursion runs on the binder, each
    split would peel one value off [0, inf). The affine run stops at once and the search runs as
    before; after it the tail is decided by an induction (affine_tails), within the step budget."""
    prog = _prog("leetcode/lc1599", "min_operations_max_profit")
    inputs = {"customers": (10, 9, 6), "boarding_cost": 6, "running_cost": 4}
    got = prog.ensures_verdict(inputs, 7, lim=Limits(fuel=300_000, seconds=120, max_depth=100_000))
    assert got.truth.value == "TRUE", got.reason


def test_compiled_depth_limit_goes_to_python_only_for_tail_recursion() -> None:
    """The compiled checker's depth-limit UNKNOWN (a complete checker) is retried in Python when the
    spec recurses in tail position (a loop there), not otherwise; its step-budget UNKNOWN never is."""
    from veriscale.languages.verus.engine import VeriContestTaskEngine
    from veriscale.runtime.engine import Verdict

    class _Ck:
        checker = type("C", (), {"complete": True})()

    depth = Verdict.unknown("compiled checker: clause `x`: spec recursion deeper than 100000", "timeout")
    budget = Verdict.unknown("compiled checker: clause `x`: step budget of 64 exhausted", "timeout")
    # linear non-tail recursion (2 + f(n - 1)) is summed in closed form there (linrec.py): retried too
    linear = _TAIL_SPEC.replace("count_down(n - 1, acc + 2)", "2 + count_down(n - 1, acc)")
    non_tail = linear.replace("2 + count_down(n - 1, acc)", "2 * count_down(n - 1, acc)").replace(
        "2 + sum_down(n - 1)", "2 + 1 * sum_down(n - 1)"
    )
    for src, got, want in (
        (_TAIL_SPEC, depth, True),
        (linear, depth, True),
        (non_tail, depth, False),
        (_TAIL_SPEC, budget, False),
    ):
        te = object.__new__(VeriContestTaskEngine)
        te.compiled = lambda: _Ck()  # type: ignore[method-assign]
        prog = SpecProgram.from_source(src, "f")
        te.spec = lambda prog=prog: prog  # type: ignore[method-assign]
        assert te._python_useful(got) is want, (src == _TAIL_SPEC, got.reason)
