"""Pretty-printer: ``parse(print(ast)) == ast`` on the benchmark data, on tricky trees and on random trees."""

from __future__ import annotations

import pytest

from lean_ast_gen import gen_expr
from veriscale.languages.lean import ast as A
from veriscale.languages.lean.errors import LeanError
from veriscale.languages.lean.parser import parse_expr, parse_module
from veriscale.languages.lean.printer import print_decl, print_expr, print_module, print_pattern, strip_pos

from .test_lean_parser import EXPR_SECTIONS, MODULE_SECTIONS, sections, task_files


def roundtrip_expr(e: A.Expr) -> str:
    src = print_expr(e)
    back = parse_expr(src)
    assert strip_pos(back) == strip_pos(e), src
    return src


def test_strip_pos_resets_nested_positions() -> None:
    e = parse_expr("fun x => match x with | some y => [y] | none => []")
    s = strip_pos(e)
    assert s.pos == (0, 0) and s.body.arms[0].alts[0][0].args[0].pos == (0, 0)  # type: ignore[attr-defined]
    assert e.pos == (1, 1)  # the input is not modified


@pytest.mark.parametrize("dataset", ["verina", "verinaplus"])
def test_roundtrip_every_section_and_file(dataset: str) -> None:
    bad: list[str] = []
    n = 0
    for f in task_files(dataset):
        text = f.read_text(encoding="utf-8")
        secs = sections(text)
        for k in (*EXPR_SECTIONS, *MODULE_SECTIONS):
            src = secs.get(k, "")
            if not src.strip():
                continue
            n += 1
            if k in EXPR_SECTIONS:
                a = parse_expr(src)
                out = print_expr(a)
                ok = strip_pos(parse_expr(out)) == strip_pos(a)
            else:
                m = parse_module(src)
                out = print_module(m)
                ok = strip_pos(parse_module(out)) == strip_pos(m)
            if not ok:
                bad.append(f"{f.parent.name}/{k}")
        decls = parse_module(text)
        if strip_pos(parse_module(print_module(decls))) != strip_pos(decls):
            bad.append(f"{f.parent.name}/task.lean")
    assert n > 600
    assert bad == []


TRICKY = [
    # an lhs whose right edge would swallow the operator
    A.BinOp("∈", A.BinOp("∈", A.Ident("a"), A.Ident("b")), A.Ident("c")),
    A.BinOp("=", A.BinOp("+", A.Ident("a"), A.UnOp("¬", A.Ident("b"))), A.Ident("c")),
    A.BinOp("∧", A.Lam([A.Binder(A.PVar("x"))], A.Ident("x")), A.Ident("c")),
    A.Index(A.UnOp("↑", A.Ident("y")), A.NatLit(0), "!"),
    A.UnOp("-", A.UnOp("-", A.Ident("x"))),
    A.App(A.Ident("f"), [A.Arg(A.UnOp("¬", A.Ident("a"))), A.Arg(A.Ident("b"))]),
    A.App(A.Sort("Type"), [A.Arg(A.Ident("u"))]),
    # `x.f` after a plain name is a separate projection (from `x |>.f`)
    A.App(A.Proj(A.Ident("xs"), "map"), [A.Arg(A.Ident("f"))]),
    A.Proj(A.NatLit(5), "2"),
    A.Proj(A.Sort("Prop"), "f"),
    # a non-dependent arrow out of an ascription
    A.Arrow(A.Typed(A.Ident("x"), A.Ident("Int")), A.Ident("P")),
    A.Arrow(A.Ident("A"), A.Ident("B"), "h"),
    # `let some x := e` would define a function named `some`
    A.Let(A.PCtor("some", [A.PVar("x")]), None, A.Ident("o"), A.Ident("x")),
    # a let body that starts with `-` would continue the value
    A.Let(A.PVar("x"), None, A.NatLit(1), A.UnOp("-", A.Ident("x"))),
    A.If(A.Let(A.PVar("x"), None, A.Ident("c"), A.Ident("x")), A.NatLit(1), A.NatLit(2)),
    # statement-level forms in expression statements
    A.Do([A.DoExpr(A.If(A.Ident("c"), A.NatLit(1), A.NatLit(2))), A.DoExpr(A.UnOp("-", A.Ident("x")))]),
    A.Do([A.DoExpr(A.StructInst([("a", A.NatLit(1))], A.Ident("s")))]),
    A.Do([A.DoReturn(A.Match([A.Ident("o")], [A.MatchArm([[A.PWild()]], A.NatLit(0))]))]),
    # tactic blocks with top-level commas
    A.Tuple([A.ByTactic("use 1, 2"), A.ByTactic("intro x\nsimp at x ⊢\n  exact foo, bar")]),
    # names that need «» quoting
    A.App(A.Ident("f"), [A.Arg(A.Ident("end")), A.Arg(A.Ident("a b.c"))]),
    A.Lam([A.Binder(A.PVar("fun"))], A.Ident("fun")),
    A.Match(
        [A.Ident("p")],
        [A.MatchArm([[A.PAs("y", A.PList([A.PWild()]))], [A.PAs("z", A.PCtor(".none", []))]], A.NatLit(1))],
    ),
]


@pytest.mark.parametrize("e", TRICKY, ids=range(len(TRICKY)))
def test_tricky_trees_roundtrip(e: A.Expr) -> None:
    roundtrip_expr(e)


def test_printed_layout_is_readable() -> None:
    src = "let x := 1\nlet f := fun y => match y with\n  | 0 => x\n  | n + 1 => n\nf 3"
    out = roundtrip_expr(parse_expr(src))
    assert out == "let x := 1\nlet f := fun y =>\n      match y with\n      | 0 => x\n      | n + 1 => n\nf 3"
    do = roundtrip_expr(
        parse_expr("Id.run do\n  let mut s := 0\n  for i in [0:n] do\n    s := s + i\n  return s")
    )
    assert do == "Id.run do\n  let mut s := 0\n  for i in [0:n] do\n    s := s + i\n  return s"
    assert print_expr(parse_expr("(· + ·)")) == "fun _sec1 _sec2 => _sec1 + _sec2"
    assert print_pattern(A.PCons(A.PCtor("some", [A.PLit(-1, "nat")]), A.PVar("t"))) == "some (-1) :: t"


@pytest.mark.parametrize("seed", range(400))
def test_random_trees_roundtrip(seed: int) -> None:
    roundtrip_expr(gen_expr(seed, depth=3 + seed % 3))


def test_declarations_roundtrip() -> None:
    src = """@[reducible, simp]
partial def f {α : Type} [BEq α] (x : Nat) (y : α) : Nat → Nat
  | 0 => x
  | n + 1 => f y n
where
  g (z : Nat) : Nat := z
  h : Nat → Nat
  | k => k
structure P (K : Type) where
  a : Nat := 3
  b : K
deriving Repr
instance foo : BEq (P K) where
  beq p q := p.a == q.a
namespace N
open Std
theorem t : True := by
  trivial
end N
#eval 1"""
    decls = parse_module(src)
    out = print_module(decls)
    assert strip_pos(parse_module(out)) == strip_pos(decls)
    assert print_decl(decls[-1]) == "#eval 1"


def test_unprintable_trees_raise() -> None:
    with pytest.raises(LeanError):
        print_expr(A.Tuple([A.NatLit(1)]))
    with pytest.raises(LeanError):
        print_expr(A.Do([]))
    with pytest.raises(LeanError):
        print_expr(A.BinOp("<$>", A.Ident("f"), A.Ident("x")))
