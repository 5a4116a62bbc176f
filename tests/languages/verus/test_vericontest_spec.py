"""The Verus specification evaluator: parser and semantics on small specs, then real ``spec.rs`` files."""

from __future__ import annotations

import pytest

from shared_data import require
from veriscale.languages.verus.lexer import tokenize
from veriscale.languages.verus.spec import SpecLoadError, SpecProgram
from veriscale.languages.verus.spec.ast import Binary, Chain, Quant
from veriscale.languages.verus.spec.parser import ExprParser
from veriscale.runtime.engine import Truth
from veriscale.runtime.limits import Limits


def parse(text: str) -> object:
    toks = tokenize(text)
    return ExprParser(toks, 0, len(toks)).parse_all()


def spec(body: str, sig: str = "pub fn f(v: Vec<i32>, k: i32) -> (r: i32)", helpers: str = "") -> SpecProgram:
    src = f"""use vstd::prelude::*;
verus! {{
pub struct Solution;
impl Solution {{
{helpers}
{sig}
{body}
{{ }}
}}
}}"""
    return SpecProgram.from_source(src)


def truth(v: object) -> str:
    return v.truth.value  # type: ignore[attr-defined]


def test_precedence_and_chains() -> None:
    e = parse("a ==> b ==> c")
    assert isinstance(e, Binary) and e.op == "==>" and isinstance(e.rhs, Binary) and e.rhs.op == "==>"
    e = parse("0 <= i < n && x")
    assert isinstance(e, Binary) and e.op == "&&" and isinstance(e.lhs, Chain) and e.lhs.ops == ("<=", "<")
    e = parse("&&& a ==> b &&& forall|i: int| 0 <= i < 3 ==> c &&& d")
    assert isinstance(e, Binary) and e.op == "&&"
    assert isinstance(e.lhs, Binary) and isinstance(e.lhs.rhs, Quant)  # the bullet ends the quantifier body
    e = parse("x as int < y")
    assert isinstance(e, Chain)


@pytest.mark.parametrize(
    ("ensures", "inputs", "r", "want"),
    [
        ("r == v.len()", {"v": (1, 2, 3), "k": 0}, 3, "TRUE"),
        ("r as int == k / 2", {"v": (), "k": -7}, -4, "TRUE"),  # Euclidean division
        ("r as int == k % 3", {"v": (), "k": -7}, 2, "TRUE"),
        ("forall|i: int| 0 <= i < v.len() ==> v[i] <= r", {"v": (1, 5, 3), "k": 0}, 5, "TRUE"),
        ("forall|i: int| 0 <= i < v.len() ==> v[i] <= r", {"v": (1, 5, 3), "k": 0}, 4, "FALSE"),
        (
            "exists|i: int, j: int| 0 <= i < j < v.len() && v[i] + v[j] == r",
            {"v": (1, 5, 3), "k": 0},
            8,
            "TRUE",
        ),
        (
            "exists|i: int, j: int| 0 <= i < j < v.len() && v[i] + v[j] == r",
            {"v": (1, 5, 3), "k": 0},
            2,
            "FALSE",
        ),
        ("r == v@.subrange(1, 3).len()", {"v": (1, 5, 3), "k": 0}, 2, "TRUE"),
        ("r == v@.subrange(2, 5).len()", {"v": (1, 5, 3), "k": 0}, 3, "UNKNOWN"),  # unspecified
        ("r == v[5]", {"v": (1, 5, 3), "k": 0}, 3, "UNKNOWN"),
        ("r == v@.filter(|x: i32| x > 1).len()", {"v": (1, 5, 3), "k": 0}, 2, "TRUE"),
        ("r == Seq::new(4, |i: int| i * i).last()", {"v": (), "k": 0}, 9, "TRUE"),
        ("r == seq![1, 2, 3].push(4).drop_last().update(0, 7)[0]", {"v": (), "k": 0}, 7, "TRUE"),
        ("r == (if k > 0 { k } else { -k })", {"v": (), "k": -4}, 4, "TRUE"),
        ("r == { let a = k + 1; let b = a * 2; b }", {"v": (), "k": 1}, 4, "TRUE"),
        ("v@.to_multiset() =~= seq![3, 1, 5].to_multiset()", {"v": (1, 5, 3), "k": 0}, 0, "TRUE"),
        ("r as int == i32::MAX", {"v": (), "k": 0}, 2**31 - 1, "TRUE"),
        ("r == 0 <==> v.len() == 0", {"v": (), "k": 0}, 0, "TRUE"),
        # unbounded, not equality-only: decided by quadratic stand-ins (spec/affine.py)
        ("forall|x: int| x * x >= 0", {"v": (), "k": 0}, 0, "TRUE"),
        ("forall|x: int| x * x >= 1", {"v": (), "k": 0}, 0, "FALSE"),
        # a counterexample needs x >= 0 and x + 1 <= 0 (the negated consequent): none exists
        ("forall|x: int| x >= 0 ==> x + 1 > 0", {"v": (), "k": 0}, 0, "TRUE"),
        ("forall|x: int| x >= 0 ==> x * x >= x", {"v": (), "k": 0}, 0, "TRUE"),  # one-sided, quadratic
        ("forall|x: int| x >= 0 ==> x * x * x >= x", {"v": (), "k": 0}, 0, "TRUE"),  # cubic: z3 back end
    ],
)
def test_semantics(ensures: str, inputs: dict[str, object], r: int, want: str) -> None:
    prog = spec(f"ensures {ensures},")
    assert truth(prog.ensures_verdict(inputs, r)) == want


def test_equality_only_value_quantifier_is_decided() -> None:
    helpers = """
    pub open spec fn count(s: Seq<i32>, x: i32) -> int decreases s.len() {
        if s.len() == 0 { 0 } else { Self::count(s.drop_last(), x) + if s.last() == x { 1int } else { 0int } }
    }"""
    prog = spec(
        "ensures forall|x: i32| Self::count(v@, x) == Self::count(w@, x),",
        sig="pub fn f(v: Vec<i32>, w: Vec<i32>) -> (r: i32)",
        helpers=helpers,
    )
    assert truth(prog.ensures_verdict({"v": (1, 2, 2), "w": (2, 1, 2)}, 0)) == "TRUE"
    assert truth(prog.ensures_verdict({"v": (1, 2, 2), "w": (2, 1, 1)}, 0)) == "FALSE"


def test_bounds_from_inlined_helper_and_transitivity() -> None:
    helpers = """
    pub open spec fn ok(s: Seq<i32>, a: int, b: int) -> bool {
        &&& 0 <= a <= b <= s.len()
        &&& s[a] == 0 || a == s.len()
    }"""
    prog = spec("ensures exists|a: int, b: int| Self::ok(v@, a, b) && b - a == r,", helpers=helpers)
    assert truth(prog.ensures_verdict({"v": (1, 0, 1), "k": 0}, 2)) == "TRUE"
    prog = spec("ensures forall|i: int, j: int| 0 <= i && i < j && j < v.len() ==> v[i] <= v[j],")
    assert truth(prog.ensures_verdict({"v": (1, 2, 3), "k": 0}, 0)) == "TRUE"
    assert truth(prog.ensures_verdict({"v": (1, 3, 2), "k": 0}, 0)) == "FALSE"


def test_returns_clause_and_recursion_limit() -> None:
    prog = spec("returns k + 1,", sig="pub fn f(k: i32) -> i32")
    assert truth(prog.ensures_verdict({"k": 4}, 5)) == "TRUE"
    assert truth(prog.ensures_verdict({"k": 4}, 6)) == "FALSE"
    # not a tail call (`* 1`): tail self-calls run as a loop without a depth limit (spec/tailcalls.py), and
    # a call under `+`/`-` only is summed in closed form (spec/linrec.py); one under `*` is neither
    helpers = (
        "pub open spec fn down(n: int) -> int decreases n { if n <= 0 { 0 } else { Self::down(n - 1) * 1 } }"
    )
    prog = spec("ensures r == Self::down(k as int),", sig="pub fn f(k: i32) -> (r: i32)", helpers=helpers)
    assert truth(prog.ensures_verdict({"k": 3000}, 0)) == "TRUE"  # deeper than Python's default stack
    v = prog.ensures_verdict({"k": 10**6}, 0)
    assert v.is_unknown and v.category == "timeout"


def test_time_limit() -> None:
    prog = spec("ensures forall|i: int, j: int| 0 <= i < 100000 && 0 <= j < 100000 ==> i * j >= 0,")
    v = prog.ensures_verdict({"v": (), "k": 0}, 0, lim=Limits(seconds=0.5))
    assert v.is_unknown and v.category == "timeout"


def test_unparsable_clause_is_unknown_not_an_error() -> None:
    prog = spec("ensures r == k, r == k + ,")
    v = prog.ensures_verdict({"v": (), "k": 1}, 1)
    assert v.truth is Truth.UNKNOWN and v.category == "parse"
    assert prog.ensures_verdict({"v": (), "k": 1}, 2).is_false  # a false clause still decides


def test_no_target() -> None:
    with pytest.raises(SpecLoadError):
        SpecProgram.from_source("verus! { spec fn f() -> int { 1 } }")


def _data(rel: str) -> str:
    return require("vericontest", rel).read_text()


def test_real_spec_lc7() -> None:
    prog = SpecProgram.from_source(_data("leetcode/lc7/spec.rs"))
    assert prog.requires_verdict({"x": -123}).is_true
    assert prog.ensures_verdict({"x": -123}, -321).is_true
    assert prog.ensures_verdict({"x": 1534236469}, 0).is_true
    assert prog.ensures_verdict({"x": 120}, 2).is_false


def test_real_spec_cf1006c() -> None:
    prog = SpecProgram.from_source(_data("codeforces/cf1006C/spec.rs"))
    nums = (1, 3, 2, 1, 4)
    assert prog.requires_verdict({"nums": nums}).is_true
    assert prog.requires_verdict({"nums": ()}).is_false
    assert prog.ensures_verdict({"nums": nums}, 4).is_true
    assert prog.ensures_verdict({"nums": nums}, 5).is_false
    assert prog.ensures_verdict({"nums": nums}, 0).is_false


@pytest.mark.parametrize(
    ("ensures", "k", "r", "want"),
    [
        # linear bounds through later binders: start + len <= k with len >= 1 bounds start
        ("forall|s: int, l: int| 0 <= s && 1 <= l && s + l <= k ==> s + l <= r", 6, 6, "TRUE"),
        ("forall|s: int, l: int| 0 <= s && 1 <= l && s + l <= k ==> s + l <= r", 6, 5, "FALSE"),
        # coefficients and equalities: 2a + 3b == k with a, b >= 0
        ("exists|a: int, b: int| 0 <= a && 0 <= b && 2 * a + 3 * b == k", 7, 0, "TRUE"),
        ("exists|a: int, b: int| 0 <= a && 0 <= b && 2 * a + 3 * b == k", 1, 0, "FALSE"),
        # growth: squares and powers bound their binder
        ("(exists|x: nat| x * x == k) == (r == 1)", 49, 1, "TRUE"),
        ("(exists|x: nat| x * x == k) == (r == 1)", 50, 0, "TRUE"),
        ("(exists|e: nat| pow2(e) == k) == (r == 1)", 64, 1, "TRUE"),
        ("(exists|e: nat| pow2(e) == k) == (r == 1)", 65, 0, "TRUE"),
        ("forall|d: int| 2 <= d && d <= k / d ==> k % d != 0", 97, 0, "TRUE"),  # 97 is prime
        ("forall|d: int| 2 <= d && d <= k / d ==> k % d != 0", 91, 0, "FALSE"),
        # forall x. !(A && B): the conjuncts of the negated body bound x
        ("forall|i: int| !(0 <= i < k && i * 2 == r)", 5, 3, "TRUE"),
        ("forall|i: int| !(0 <= i < k && i * 2 == r)", 5, 4, "FALSE"),
        # three-valued connectives: an unspecified operand that does not matter
        ("seq![1, 2][k] == 9 || r == 0", 7, 0, "TRUE"),
        ("seq![1, 2][k] == 9 && r == 0", 7, 1, "FALSE"),
        ("seq![1, 2][k] == 9 && r == 0", 7, 0, "UNKNOWN"),
        # a witness found by search decides an exists bounded on one side only
        ("exists|m: int| m >= k && m % 7 == 0 && m % 5 == 0", 3, 0, "TRUE"),
        ("forall|m: int| m >= k ==> m % 7 != 0", 3, 0, "FALSE"),
        ("forall|m: int| m >= k ==> m >= 0", 3, 0, "TRUE"),  # a counterexample needs k <= m < 0
        ("forall|m: int| m >= k ==> m * m >= m", 3, 0, "TRUE"),  # quadratic stand-in (spec/affine.py)
        (
            "forall|m: int| m >= k ==> m * m * m >= m",
            3,
            0,
            "TRUE",
        ),  # cubic: outside the affine fragment, z3 proves it
        # bitwise not on typed operands
        ("r as int == !(!0i32 << (k as u32))", 3, 7, "TRUE"),
        ("r as int == !(k as u8)", 3, 252, "TRUE"),
    ],
)
def test_bounds_and_logic(ensures: str, k: int, r: int, want: str) -> None:
    prog = spec(f"ensures {ensures},", sig="pub fn f(k: i32) -> (r: i32)")
    assert truth(prog.ensures_verdict({"k": k}, r)) == want


def test_sequence_binders() -> None:
    helpers = """
    pub open spec fn sorted(s: Seq<i32>) -> bool { forall|i: int, j: int| 0 <= i < j < s.len() ==> s[i] <= s[j] }
    pub open spec fn increasing_idx(s: Seq<int>, n: int) -> bool {
        &&& forall|j: int| 0 <= j < s.len() ==> 0 <= #[trigger] s[j] < n
        &&& forall|j: int| 0 <= j < s.len() - 1 ==> s[j] < s[j + 1]
    }"""
    sig = "pub fn f(v: Vec<i32>) -> (r: i32)"
    # a witness suggested by the environment (the sorted input)
    prog = spec("ensures exists|s: Seq<i32>| Self::sorted(s) && s.to_multiset() =~= v@.to_multiset() && s[0] == r,",
                sig=sig, helpers=helpers)  # fmt: skip
    assert truth(prog.ensures_verdict({"v": (3, 1, 2)}, 1)) == "TRUE"
    # permutations of the multiset source: the domain is complete, so FALSE is decided
    assert truth(prog.ensures_verdict({"v": (3, 1, 2)}, 3)) == "FALSE"
    # bounded length and elements: every candidate is enumerated
    prog = spec(
        "ensures exists|s: Seq<int>| s.len() == r && Self::increasing_idx(s, v.len() as int) && "
        "forall|j: int| 0 <= j < s.len() - 1 ==> v[s[j]] < v[s[j + 1]],",
        sig=sig,
        helpers=helpers,
    )
    assert truth(prog.ensures_verdict({"v": (5, 1, 2, 0, 3)}, 3)) == "TRUE"  # 1 < 2 < 3
    assert truth(prog.ensures_verdict({"v": (5, 1, 2, 0, 3)}, 4)) == "FALSE"
    prog = spec("ensures forall|s: Seq<i32>| s.len() == 2 ==> s[0] <= r,", sig=sig)
    assert truth(prog.ensures_verdict({"v": ()}, 0)) == "FALSE"  # a counterexample is found
    # too many to enumerate; the z3 back end proves it over two i32 element variables
    assert truth(prog.ensures_verdict({"v": ()}, 2**31 - 1)) == "TRUE"


def test_option_arrow_field() -> None:
    prog = spec("ensures r == None::<i32> || r->Some_0 == k, r != None::<i32> ==> r->0 >= 0,",
                sig="pub fn f(k: i32) -> (r: Option<i32>)")  # fmt: skip
    from veriscale.values.runtime import Some

    assert truth(prog.ensures_verdict({"k": 4}, Some(4))) == "TRUE"
    assert truth(prog.ensures_verdict({"k": 4}, None)) == "TRUE"
    assert truth(prog.ensures_verdict({"k": 4}, Some(5))) == "FALSE"


def test_two_unbounded_value_binders() -> None:
    prog = spec("ensures forall|x: i32, y: i32| v@.contains(x) && v@.contains(y) ==> x == y,",
                sig="pub fn f(v: Vec<i32>) -> (r: i32)")  # fmt: skip
    assert truth(prog.ensures_verdict({"v": (4, 4, 4)}, 0)) == "TRUE"
    assert truth(prog.ensures_verdict({"v": (4, 5, 4)}, 0)) == "FALSE"
    prog = spec("ensures exists|x: i32, y: i32| x != y && !v@.contains(x) && !v@.contains(y),",
                sig="pub fn f(v: Vec<i32>) -> (r: i32)")  # fmt: skip
    assert truth(prog.ensures_verdict({"v": (1, 2)}, 0)) == "TRUE"
