"""Semantics of the Lean fragment that are easy to get wrong, on small programs."""

from __future__ import annotations

from typing import Any

import pytest

from veriscale.languages.lean.errors import ElabError, LeanError, LimitExceeded, Undecided, Unsupported
from veriscale.languages.lean.program import TaskProgram
from veriscale.runtime import limits
from veriscale.values.runtime import HMap, LeanSource, Some, Struct
from veriscale.values.types import (
    BOOL,
    CHAR,
    FLOAT,
    INT,
    NAT,
    STRING,
    TCon,
    Type,
    array_of,
    fun_of,
    list_of,
    option_of,
    parse_type,
    prod_of,
)


def run(
    code: str, ret: Type, params: list[tuple[str, Type]] | None = None, aux: str = "", **args: Any
) -> Any:
    """Run ``code`` as the body of ``def f (params) : ret`` (continuation lines indented by 2)."""
    tp = TaskProgram.build("f", params or [], ret, {"code_aux": aux, "code": "  " + code})
    with limits.using(limits.Budget(limits.Limits(seconds=10, fuel=5_000_000))):
        return tp.run(args)


def holds(prop: str, params: list[tuple[str, Type]] | None = None, aux: str = "", **args: Any) -> bool:
    """Decide ``prop`` as a precondition."""
    tp = TaskProgram.build("f", params or [], NAT, {"solution_aux": aux, "precond": "  " + prop, "code": "0"})
    with limits.using(limits.Budget(limits.Limits(seconds=10, fuel=5_000_000))):
        return tp.precond(args)


# ------------------------------------------------------------------ numbers


def test_nat_subtraction_truncates() -> None:
    assert run("a - b", NAT, [("a", NAT), ("b", NAT)], a=3, b=5) == 0
    assert run("a - b + 1", NAT, [("a", NAT), ("b", NAT)], a=3, b=5) == 1


def test_mixed_tree_coerces_at_the_leaves() -> None:
    # the expected type Int takes part: Int subtraction of ↑a and ↑b
    assert run("let x : Int := a - b\n  x", INT, [("a", NAT), ("b", NAT)], a=3, b=5) == -2
    # a relation: maximal type Int over a b r
    p = [("a", NAT), ("b", NAT), ("r", INT)]
    assert holds("a - b = r", p, a=3, b=5, r=-2)
    assert not holds("a - b = r", p, a=3, b=5, r=0)
    # a Nat subtree under an explicit ascription stays Nat
    assert holds("((a - b : Nat) : Int) = r", p, a=3, b=5, r=0)
    # a function argument of type Int is an expected type too
    assert run("f2 (a - b)", INT, [("a", NAT), ("b", NAT)], aux="def f2 (x : Int) : Int := x", a=1, b=4) == -3


def test_nat_leaf_in_int_tree() -> None:
    # pos1 + n = result + 2 + posn (verina_advanced_70): all leaves Nat except result : Int
    p = [("x", NAT), ("r", INT)]
    assert holds("x + 1 = r + 2", p, x=0, r=-1)
    assert holds("(x : Int) - 5 < 0", p, x=3, r=0)


def test_euclidean_division() -> None:
    assert run("(-20 : Int) % -7", INT) == 1
    assert run("(-20 : Int) / -7", INT) == 3
    assert run("(-7 : Int) / 2", INT) == -4
    assert run("(-7 : Int) % 2", INT) == 1
    assert run("(x : Int) / 0", INT, [("x", INT)], x=-9) == 0
    assert run("x % 0", INT, [("x", INT)], x=-9) == -9
    assert run("x % 0", NAT, [("x", NAT)], x=9) == 9
    assert run("x / 0", NAT, [("x", NAT)], x=9) == 0


def test_numeral_defaults() -> None:
    assert run("let x := 1\n  let y : Int := x - 5\n  y", INT) == -4
    assert run("let x := 3\n  x - 5", NAT) == 0
    # ``-1`` alone is an Int (the Neg Int default instance)
    assert run("let x := -1\n  x", INT) == -1
    with pytest.raises(ElabError):
        run("(-1 : Nat)", NAT)


def test_power_and_nat_polynomial() -> None:
    assert holds("15 * 1 = 1 * (2 * 1 + 1) * (7 + 24 * 1^3 - 12 * 1^2 - 14 * 1)")
    assert run("(2 : Int) ^ 10", INT) == 1024
    assert run("(-2 : Int) ^ 3", INT) == -8


def test_float() -> None:
    assert run("(1.5 : Float) + 2", FLOAT) == 3.5
    assert run("(n : Nat).toFloat / 2.0", FLOAT, [("n", NAT)], n=3) == 1.5
    assert run("(1.0 : Float) / 0.0", FLOAT) == float("inf")
    assert run("(0.1 : Float) + 0.2 == 0.3", BOOL) is False


# ------------------------------------------------------------------ indexing


def test_index_defaults() -> None:
    assert run("xs[5]!", INT, [("xs", list_of(INT))], xs=(1, 2)) == 0
    assert run("xs[5]!", CHAR, [("xs", array_of(CHAR))], xs=("a",)) == "A"
    assert run("xs[0]!", STRING, [("xs", list_of(STRING))], xs=()) == ""
    assert run("xs[1]!", list_of(NAT), [("xs", list_of(list_of(NAT)))], xs=((1,),)) == ()
    assert run("xs[1]?", option_of(NAT), [("xs", list_of(NAT))], xs=(4, 5)) == Some(5)
    assert run("xs[2]?", option_of(NAT), [("xs", list_of(NAT))], xs=(4, 5)) is None
    assert run("xs.head!", INT, [("xs", list_of(INT))], xs=()) == 0


def test_panic_returns_default() -> None:
    assert run('if x > 0 then x else panic! "neg"', INT, [("x", INT)], x=-1) == 0
    assert run('panic "no"', prod_of(NAT, STRING)) == (0, "")


# ----------------------------------------------------------------- coercions


def test_option_coercion_in_relation() -> None:
    # verina_advanced_61: result[i]! = some (…) compares at Option Int
    p = [("r", list_of(INT)), ("x", INT)]
    assert holds("r[0]! = some (2 * x)", p, r=(6,), x=3)
    assert not holds("r[0]! = some x", p, r=(6,), x=3)


def test_option_coercion_of_argument() -> None:
    aux = "def g (o : Option Char) : Nat :=\n  match o with\n  | none => 0\n  | some _ => 1"
    assert run("g c", NAT, [("c", CHAR)], aux=aux, c="x") == 1


def test_bool_prop_mixing() -> None:
    p = [("b", BOOL), ("n", NAT)]
    assert holds("b → n > 2", p, b=False, n=0)
    assert holds("¬ b ∧ (n > 2 || n = 0)", p, b=False, n=0)
    assert run("decide (n > 2) && b", BOOL, p, b=True, n=3) is True
    assert run("if n % 2 = 0 then b else !b", BOOL, p, b=True, n=3) is False
    assert holds("(b = true) ↔ n = 1", p, b=True, n=1)
    assert run("[1, 2, 3].all (fun x => x > 0 ∧ x < 3)", BOOL) is False


def test_short_circuit() -> None:
    aux = "def spin (n : Nat) : Bool := spin (n + 1)\ndecreasing_by sorry"
    assert holds("False ∧ spin 0 = true", aux=aux) is False
    assert holds("True ∨ spin 0 = true", aux=aux) is True
    assert holds("False → spin 0 = true", aux=aux) is True
    assert run("false && spin 0", BOOL, aux=aux) is False
    assert run("if true then 1 else (if spin 0 then 2 else 3)", NAT, aux=aux) == 1


# ------------------------------------------------------------ elaboration order


def test_foldl_accumulator_from_expected_type() -> None:
    # the expected type reaches the accumulator before the lambda is elaborated
    xs = [("xs", list_of(INT))]
    assert run("xs.foldl (fun acc x => acc + x) 0", INT, xs, xs=(1, -5)) == -4
    assert run("xs.foldl (init := 10) fun acc x => acc - x", INT, xs, xs=(1, 2)) == 7
    assert run("xs.foldl (· + ·) 0", INT, xs, xs=(1, -5)) == -4


def test_postponed_lambda_bodies() -> None:
    xss = [("xss", list_of(list_of(NAT)))]
    assert run("List.map (fun x => x.length) xss", list_of(NAT), xss, xss=((1, 2), ())) == (2, 0)
    p = [("ps", list_of(prod_of(NAT, NAT)))]
    assert holds("List.Pairwise (fun ⟨a, i⟩ ⟨b, j⟩ => i < j → a ≤ b) ps", p, ps=((1, 0), (2, 1)))
    # the body of a pattern lambda gets the expected Bool
    code = "let isT := fun (_k, v) => v = 3\n  (ps.filter isT).length"
    assert run(code, NAT, p, ps=((1, 3), (2, 4), (5, 3))) == 2


def test_let_step_function_typed_by_later_use() -> None:
    aux = (
        "open Std\n"
        "def countMap (xs : List Int) : HashMap Int Nat :=\n"
        "  let step := fun m x =>\n"
        "    let current := m.getD x 0\n"
        "    m.insert x (current + 1)\n"
        "  let init := (HashMap.emptyWithCapacity : HashMap Int Nat)\n"
        "  xs.foldl step init"
    )
    m = run("countMap xs", parse_type("Std.HashMap Int Nat"), [("xs", list_of(INT))], aux=aux, xs=(1, 2, 1))
    assert isinstance(m, HMap) and m.get(1) == 2 and m.get(2) == 1


# ---------------------------------------------------------------- matching


def test_patterns() -> None:
    aux = (
        "def cls : List Nat → Nat\n"
        "  | [] | [_] => 0\n"
        "  | 0 :: _ :: _ => 1\n"
        "  | (n+1) :: m :: rest => n + m + rest.length"
    )
    assert run("cls xs", NAT, [("xs", list_of(NAT))], aux=aux, xs=()) == 0
    assert run("cls xs", NAT, [("xs", list_of(NAT))], aux=aux, xs=(7,)) == 0
    assert run("cls xs", NAT, [("xs", list_of(NAT))], aux=aux, xs=(0, 5)) == 1
    assert run("cls xs", NAT, [("xs", list_of(NAT))], aux=aux, xs=(3, 5, 1, 1)) == 9
    code = "match a with\n  | #[] => 0\n  | #[x] => x\n  | _ => 99"
    assert run(code, NAT, [("a", array_of(NAT))], a=(4,)) == 4
    assert run(code, NAT, [("a", array_of(NAT))], a=()) == 0
    code = "match p with\n  | (0, _) => 'z'\n  | (_, 'a') => 'a'\n  | _ => 'o'"
    assert run(code, CHAR, [("p", prod_of(NAT, CHAR))], p=(1, "a")) == "a"
    assert run(code, CHAR, [("p", prod_of(NAT, CHAR))], p=(0, "a")) == "z"
    code = "match o with\n  | some (i, j) => i + j\n  | none => 0"
    assert run(code, NAT, [("o", option_of(prod_of(NAT, NAT)))], o=Some((2, 3))) == 5
    code = "match n with\n  | 0 => 0\n  | Nat.succ m => m"
    assert run(code, NAT, [("n", NAT)], n=5) == 4
    code = "match i with\n  | -1 => 0\n  | _ => 1"
    assert run(code, NAT, [("i", INT)], i=-1) == 0


def test_let_destructuring_and_match_lambda() -> None:
    assert (
        run("let (a, b, c) := t\n  a + b * c", NAT, [("t", prod_of(NAT, prod_of(NAT, NAT)))], t=(1, (2, 3)))
        == 7
    )
    code = "xs.map (fun | 0 => 10 | n + 1 => n)"
    assert run(code, list_of(NAT), [("xs", list_of(NAT))], xs=(0, 3)) == (10, 2)


# --------------------------------------------------------- local definitions


def test_let_rec_and_where() -> None:
    code = (
        "let rec even (n : Nat) : Bool :=\n"
        "    match n with\n"
        "    | 0 => true\n"
        "    | n + 1 => !even n\n"
        "  even k"
    )
    assert run(code, BOOL, [("k", NAT)], k=7) is False
    code = "go k\n  where\n    go : Nat → Nat\n    | 0 => 0\n    | n + 1 => 2 + go' n\n    go' (n : Nat) : Nat := go n"
    assert run(code, NAT, [("k", NAT)], k=3) == 6


def test_recursion_on_main_function_with_proof() -> None:
    code = "match n with\n  | 0 => 0\n  | n + 1 =>\n    let prev := f n h_precond\n    prev + n + 1"
    assert run(code, NAT, [("n", NAT)], n=10) == 55


def test_deep_recursion() -> None:
    aux = "def sumTo : Nat → Nat\n  | 0 => 0\n  | n + 1 => (n + 1) + sumTo n"
    assert run("sumTo n", NAT, [("n", NAT)], aux=aux, n=5000) == 5000 * 5001 // 2
    # tail calls run as loops: no stack at all
    aux = "def count (n acc : Nat) : Nat := if n = 0 then acc else count (n - 1) (acc + 1)"
    assert run("count n 0", NAT, [("n", NAT)], aux=aux, n=1_000_000) == 1_000_000


def test_exponential_recursion_is_memoized() -> None:
    aux = (
        "def lcs : List Nat → List Nat → Nat\n"
        "  | [], _ => 0\n"
        "  | _, [] => 0\n"
        "  | x :: xs, y :: ys => if x == y then 1 + lcs xs ys else max (lcs xs (y :: ys)) (lcs (x :: xs) ys)"
    )
    xs = tuple(range(30))
    ys = tuple(range(29, -1, -1))
    assert run("lcs xs ys", NAT, [("xs", list_of(NAT)), ("ys", list_of(NAT))], aux=aux, xs=xs, ys=ys) == 1


# --------------------------------------------------------------- do blocks


def test_do_block_loops() -> None:
    code = (
        "Id.run do\n"
        "    let mut best := 0\n"
        "    for i in [0:n] do\n"
        "      if i % 2 = 0 then continue\n"
        "      for j in xs do\n"
        "        if j > 100 then break\n"
        "        best := max best (i * j)\n"
        "      if best > 1000 then return best\n"
        "    return best"
    )
    p = [("n", NAT), ("xs", list_of(NAT))]
    assert run(code, NAT, p, n=6, xs=(1, 2, 500, 3)) == 10
    assert run(code, NAT, p, n=100, xs=(50,)) == 1050


def test_do_block_early_return_and_arrays() -> None:
    code = (
        "Id.run do\n"
        "    if xs.isEmpty then return #[]\n"
        "    let mut out : Array Int := #[]\n"
        "    let mut i := 0\n"
        "    while i < xs.size do\n"
        "      out := out.push (xs[i]! * 2)\n"
        "      i := i + 1\n"
        "    out"
    )
    p = [("xs", array_of(INT))]
    assert run(code, array_of(INT), p, xs=()) == ()
    assert run(code, array_of(INT), p, xs=(1, -2)) == (2, -4)


def test_arrays_are_copied_on_write() -> None:
    code = "let a := #[1, 2, 3]\n  let b := a.set! 0 9\n  (a, b)"
    assert run(code, prod_of(array_of(NAT), array_of(NAT))) == ((1, 2, 3), (9, 2, 3))
    code = (
        "Id.run do\n"
        "    let mut dp := Array.mkArray 2 (Array.mkArray 2 0)\n"
        "    dp := dp.set! 0 (dp[0]!.set! 1 7)\n"
        "    return dp"
    )
    assert run(code, array_of(array_of(NAT))) == ((0, 7), (0, 0))
    assert run("a.set! 5 1", array_of(NAT), [("a", array_of(NAT))], a=(0, 0)) == (0, 0)


def test_closures_in_loops_capture_the_current_value() -> None:
    code = (
        "Id.run do\n"
        "    let mut fs : List (Nat → Nat) := []\n"
        "    for i in [0:3] do\n"
        "      fs := fs ++ [fun x => x + i]\n"
        "    return fs.map (fun f => f 10)"
    )
    assert run(code, list_of(NAT)) == (10, 11, 12)


# --------------------------------------------------------------- library


def test_list_functions() -> None:
    assert run("List.range' 2 3", list_of(NAT)) == (2, 3, 4)
    assert run("[5, 6].zipIdx", list_of(prod_of(NAT, NAT))) == ((5, 0), (6, 1))
    assert run("[3, 1, 2].mergeSort", list_of(NAT)) == (1, 2, 3)
    assert run("[1, 2, 1, 3].eraseDups", list_of(NAT)) == (1, 2, 3)
    assert run("[1, 2].idxOf 7", NAT) == 2
    assert run('"abc".toList.reverse.asString', STRING) == "cba"
    assert run("(toString n) ++ Nat.repr n", STRING, [("n", NAT)], n=12) == "1212"
    assert run("toString x", STRING, [("x", INT)], x=-3) == "-3"
    assert run("'a'.toNat - 'b'.toNat", NAT) == 0


def test_user_namespace_extension_and_shadowing() -> None:
    aux = "def List.myprod : List Int → Int\n  | [] => 1\n  | x :: xs => x * xs.myprod"
    assert run("xs.myprod", INT, [("xs", list_of(INT))], aux=aux, xs=(2, -3)) == -6
    aux = "def insert (xs : List Nat) (x : Nat) : List Nat := xs ++ [x, x]"
    assert run("insert xs 1", list_of(NAT), [("xs", list_of(NAT))], aux=aux, xs=()) == (1, 1)


def test_structure_with_user_beq() -> None:
    aux = (
        "structure Pt where\n  x : Int\n  y : Int\nderiving Inhabited\n\n"
        "instance : BEq Pt where\n  beq a b := a.x = b.x\n\n"
        "def mk (a b : Int) : Pt := ⟨a, b⟩"
    )
    assert run("mk 1 2 == mk 1 5", BOOL, aux=aux) is True
    p = run("mk 3 4", TCon("Pt"), aux=aux)
    assert p == Struct("Pt", (("x", 3), ("y", 4)))
    assert run("([] : List Pt)[0]!.y", INT, aux=aux) == 0


def test_hashset_and_hashmap() -> None:
    code = "let s := xs.foldl (fun acc x => acc.insert x) Std.HashSet.empty\n  (s.size, s.contains 3)"
    assert run(code, prod_of(NAT, BOOL), [("xs", list_of(INT))], xs=(3, 3, 4)) == (2, True)


# ------------------------------------------------------------- quantifiers


def test_bounded_quantifiers() -> None:
    a = [("a", array_of(INT))]
    assert holds("∀ i, i < a.size → a[i]! > 0", a, a=(1, 2))
    assert not holds("∀ i, i < a.size → a[i]! > 1", a, a=(1, 2))
    assert holds("∃ i, i < a.size ∧ a[i]! = 2", a, a=(1, 2))
    assert holds("∀ x ∈ a, x ≠ 0", a, a=(1, 2))
    assert holds("∃ i < a.size, a[i]! = 1", a, a=(1, 2))
    # the bound may come from a later hypothesis or conjunct
    assert holds("∀ i, 1 ≤ i → i < a.size → a[i]! = 2", a, a=(1, 2))
    assert holds("∃ i j, i < a.size ∧ j < a.size ∧ a[i]! + a[j]! = 4", a, a=(1, 2))
    assert holds("∃ i, a[i]! = 2 ∧ i < a.size", a, a=(1, 2))
    assert holds("∀ i, (hi : i < a.size) → a[i] > 0", a, a=(1, 2))
    s = [("s", list_of(INT)), ("t", list_of(INT))]
    assert holds("∃ i, i + s.length ≤ t.length ∧ s = (t.drop i).take s.length", s, s=(2, 3), t=(1, 2, 3))
    assert holds("∃ x, x ∈ t ∧ x > 2", s, s=(), t=(1, 2, 3))
    # one-point rule
    assert holds("∃ w : List Int, w = t.reverse ∧ w.head! = 3", s, s=(), t=(1, 2, 3))


def test_unbounded_quantifier_is_never_guessed() -> None:
    # no syntactic bound: either a sound reduction decides it, or the answer is "unknown"
    for n, want in ((4, True), (3, False)):
        try:
            assert holds("∃ k : Int, n = 2 * k", [("n", INT)], n=n) is want
        except (Unsupported, Undecided):
            pass
    with pytest.raises((Unsupported, Undecided)):
        holds("∀ k : Int, k * k * k ≠ n + k", [("n", INT)], n=5)


# ------------------------------------------------------------------- inputs


def test_function_input_from_source() -> None:
    p = [("a", array_of(INT)), ("P", fun_of(INT, BOOL))]
    tp = TaskProgram.build("f", p, NAT, {"precond": "∃ i, i < a.size ∧ P (a[i]!)", "code": "0"})
    with limits.using(limits.Budget()):
        assert tp.precond({"a": (1, 7), "P": LeanSource("fun x => x > 5")})
        assert not tp.precond({"a": (1, 2), "P": LeanSource("fun x => x == 9")})


def test_with_override_and_part_independence() -> None:
    tp = TaskProgram.build("f", [("x", NAT)], NAT, {"code": "x + 1", "postcond": "result = x + 1"})
    broken = tp.with_override("code", "x +")
    with limits.using(limits.Budget()):
        assert broken.postcond({"x": 1}, 2)
        with pytest.raises(LeanError):
            broken.run({"x": 1})
        assert tp.with_override("postcond", "result > x + 5").postcond({"x": 1}, 2) is False


# ------------------------------------------------------------------- errors


def test_type_errors_are_elab_errors() -> None:
    with pytest.raises(ElabError):
        run('x + "a"', NAT, [("x", NAT)], x=1)
    with pytest.raises(ElabError):
        run("y", NAT)
    with pytest.raises(ElabError):
        run("(5 : Option Nat)", option_of(NAT))


def test_non_termination_hits_the_limit() -> None:
    code = "  let rec go (n : Nat) : Nat := go (n + 1)\n  go 0"
    tp = TaskProgram.build("f", [], NAT, {"code": code})
    with limits.using(limits.Budget(limits.Limits(seconds=1.0))), pytest.raises(LimitExceeded):
        tp.run({})
    code = "  let rec go (n : Nat) : Nat := go (n + 1) + 1\n  go 0"
    tp = TaskProgram.build("f", [], NAT, {"code": code})
    with (
        limits.using(limits.Budget(limits.Limits(seconds=2.0, max_depth=3000))),
        pytest.raises(LimitExceeded),
    ):
        tp.run({})


def test_polymorphic_definitions() -> None:
    aux = (
        "def count_occ {T : Type} [DecidableEq T] (a : Array T) (key : T) : Nat :=\n"
        "  a.foldl (fun cnt x => if x = key then cnt + 1 else cnt) 0\n"
        "def len2 (xs : List α) : Nat := xs.length * 2"
    )
    assert run("count_occ a 2 + len2 [true]", NAT, [("a", array_of(INT))], aux=aux, a=(2, 1, 2)) == 4


def test_quantifier_candidates_respect_the_binder_type() -> None:
    p = [("n", INT), ("xs", list_of(INT))]
    # the one-point candidate -3 is not a Nat: no witness
    assert not holds("∃ x : Nat, (x : Int) = n ∧ x ≥ 0", p, n=-3, xs=())
    assert holds("∃ x : Nat, (x : Int) = n ∧ x ≥ 0", p, n=3, xs=())
    assert not holds("∃ x : Nat, (x : Int) ∈ xs", p, n=0, xs=(-1, -2))
    assert holds("∀ x : Nat, (x : Int) ∈ xs → x < 5", p, n=0, xs=(-10, 4))


def test_coercion_arrow_and_composition() -> None:
    # ``↑n`` waits until the tree's maximal type (Int) is known
    assert run("↑n - (5 : Int)", INT, [("n", NAT)], n=1) == -4
    assert run("xs.map (Nat.succ ∘ (· * 2))", list_of(NAT), [("xs", list_of(NAT))], xs=(1, 2)) == (3, 5)


def test_duplicate_definitions_are_rejected() -> None:
    tp = TaskProgram.build(
        "f", [], NAT, {"solution_aux": "def g : Nat := 1", "code_aux": "def g : Nat := 2", "code": "  g"}
    )
    with limits.using(limits.Budget()), pytest.raises(ElabError, match="already been declared"):
        tp.run({})


def test_long_else_if_chains_do_not_nest() -> None:
    code = "if x = 0 then (let y := x + 1\n    y)\n"
    code += "".join(f"  else if x = {i} then (let y := x + {i}\n    y)\n" for i in range(1, 150))
    code += "  else 0"
    assert run(code, NAT, [("x", NAT)], x=149) == 298
    body = "".join(f"\n      else if i = {k} then s := s + {k}" for k in range(1, 120))
    code = f"Id.run do\n    let mut s := 0\n    for i in [0:n] do\n      if i = 0 then s := s + 1{body}\n    return s"
    assert run(code, NAT, [("n", NAT)], n=200) == 1 + sum(range(1, 120))
