"""Lexer and parser of the Lean fragment: real Verina data, precedence, layout, desugaring, robustness."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from shared_data import require
from veriscale.languages.lean import ast as A
from veriscale.languages.lean.errors import LeanParseError
from veriscale.languages.lean.lexer import tokenize
from veriscale.languages.lean.parser import parse_body, parse_expr, parse_module
from veriscale.languages.lean.printer import strip_pos

EXPR_SECTIONS = ("precond", "postcond", "code")
MODULE_SECTIONS = ("precond_aux", "postcond_aux", "code_aux", "solution_aux", "task_aux")


# ----------------------------------------------------------------- helpers


def sections(text: str) -> dict[str, str]:
    """The ``-- !benchmark @start X`` … ``@end X`` sections of a task file (marker lines excluded)."""
    out: dict[str, str] = {}
    cur: str | None = None
    buf: list[str] = []
    for line in text.splitlines():
        if "-- !benchmark" in line:
            m = re.search(r"@(start|end)\s+(\S+)", line)
            if m and m.group(1) == "start":
                cur, buf = m.group(2), []
            elif m and cur is not None:
                out[cur] = out.get(cur, "") + "".join(x + "\n" for x in buf)
                cur = None
            continue
        if cur is not None:
            buf.append(line)
    return out


def task_files(dataset: str) -> list[Path]:
    root = require(dataset)
    return sorted(p / "task.lean" for p in root.iterdir() if (p / "task.lean").is_file())


def task_sections(name: str) -> dict[str, str]:
    path = require("verina", name, "task.lean")
    return sections(path.read_text(encoding="utf-8"))


def sx(e: object) -> str:
    """Compact s-expression of a term, for precedence tests."""
    if isinstance(e, A.Ident):
        return e.name
    if isinstance(e, A.NatLit):
        return str(e.value)
    if isinstance(e, A.BinOp):
        return f"({e.op} {sx(e.lhs)} {sx(e.rhs)})"
    if isinstance(e, A.UnOp):
        return f"({e.op} {sx(e.expr)})"
    if isinstance(e, A.Arrow):
        return f"(→ {sx(e.lhs)} {sx(e.rhs)})" if e.name is None else f"(→[{e.name}] {sx(e.lhs)} {sx(e.rhs)})"
    if isinstance(e, A.App):
        args = " ".join((f"{a.name}:=" if a.name else "") + sx(a.value) for a in e.args)
        return f"({sx(e.fn)} {args})"
    if isinstance(e, A.Proj):
        return f"{sx(e.expr)}#{e.field}"
    if isinstance(e, A.Index):
        return f"{sx(e.expr)}[{sx(e.index)}]{e.kind}"
    if isinstance(e, A.Lam):
        return "(fun " + " ".join(sp(b.pat) for b in e.binders) + f" => {sx(e.body)})"
    if isinstance(e, A.If):
        return f"(if {sx(e.cond)} {sx(e.then)} {sx(e.els)})"
    if isinstance(e, A.Tuple):
        return "<" + ",".join(sx(x) for x in e.elems) + ">"
    if isinstance(e, A.ListLit):
        return "[" + ",".join(sx(x) for x in e.elems) + "]"
    if isinstance(e, A.Quant):
        b = f"{e.bound[0]}{sx(e.bound[1])}" if e.bound else ""
        t = f":{sx(e.type)}" if e.type is not None else ""
        return f"({e.kind}{sp(e.pat)}{t}{b}, {sx(e.body)})"
    if isinstance(e, A.Let):
        return f"(let {sp(e.pat)} {sx(e.value)} {sx(e.body)})"
    return type(e).__name__


def sp(p: object) -> str:
    if isinstance(p, A.PVar):
        return p.name
    if isinstance(p, A.PWild):
        return "_"
    if isinstance(p, A.PTuple):
        return "<" + ",".join(sp(x) for x in p.elems) + ">"
    if isinstance(p, A.PAnon):
        return "⟨" + ",".join(sp(x) for x in p.elems) + "⟩"
    return type(p).__name__


def norm(text: str) -> A.Expr:
    return strip_pos(parse_expr(text))


# --------------------------------------------------------- the benchmark data


@pytest.mark.parametrize("dataset", ["verina", "verinaplus"])
def test_every_section_parses(dataset: str) -> None:
    files = task_files(dataset)
    failures: list[str] = []
    count = 0
    for f in files:
        secs = sections(f.read_text(encoding="utf-8"))
        for k in EXPR_SECTIONS:
            if secs.get(k, "").strip():
                count += 1
                try:
                    parse_expr(secs[k])
                except LeanParseError as exc:
                    failures.append(f"{f.parent.name}/{k}: {exc}")
        for k in MODULE_SECTIONS:
            if secs.get(k, "").strip():
                count += 1
                try:
                    parse_module(secs[k])
                except LeanParseError as exc:
                    failures.append(f"{f.parent.name}/{k}: {exc}")
    assert len(files) == 189
    assert count > 189 * 3
    assert failures == []


def test_whole_task_files_parse_as_modules() -> None:
    failures: list[str] = []
    kinds: dict[str, int] = {}
    for f in task_files("verina"):
        try:
            decls = parse_module(f.read_text(encoding="utf-8"))
        except LeanParseError as exc:
            failures.append(f"{f.parent.name}: {exc}")
            continue
        for d in decls:
            key = d.kind if isinstance(d, A.Def) else type(d).__name__
            kinds[key] = kinds.get(key, 0) + 1
    assert failures == []
    # every correctness theorem is consumed as a (skippable) theorem definition
    assert kinds["theorem"] >= 189  # plus a few proof_aux lemmas
    assert kinds["StructureDecl"] == 1 and kinds["InstanceDecl"] == 1


def _count_parse_steps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the parser's term parses (``ParserBase.step``, its own backtracking budget) from now on."""
    from veriscale.languages.lean.parser_core import ParserBase

    counter = [0]
    step = ParserBase.step

    def counted(self: ParserBase) -> None:
        counter[0] += 1
        step(self)

    monkeypatch.setattr(ParserBase, "step", counted)
    return counter


def test_parsing_all_sections_is_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    """Linear work: at most two term parses per token in every section (so no backtracking blow-up;
    the wall time of this is printed by benchmarks/bench_limits.py)."""
    texts: list[tuple[str, str]] = []
    for f in task_files("verina"):
        secs = sections(f.read_text(encoding="utf-8"))
        texts += [("e", secs[k]) for k in EXPR_SECTIONS if secs.get(k, "").strip()]
        texts += [("m", secs[k]) for k in MODULE_SECTIONS if secs.get(k, "").strip()]
    steps = _count_parse_steps(monkeypatch)
    heavy = []
    for mode, src in texts:
        steps[0] = 0
        parse_expr(src) if mode == "e" else parse_module(src)
        if steps[0] > 2 * len(tokenize(src)):
            heavy.append(f"{steps[0]} term parses for {len(tokenize(src))} tokens: {src[:60]!r}")
    assert len(texts) > 600 and heavy == []


# --------------------------------------------------------------------- lexer


def test_lexer_positions_and_flags() -> None:
    toks = tokenize("let x := 1\n  foo  (bar)")
    kinds = [(t.kind, t.value, t.line, t.col, t.ws, t.nl) for t in toks[:-1]]
    assert kinds == [
        ("kw", "let", 1, 1, False, True),
        ("ident", "x", 1, 5, True, False),
        ("sym", ":=", 1, 7, True, False),
        ("num", 1, 1, 10, True, False),
        ("ident", "foo", 2, 3, True, True),
        ("sym", "(", 2, 8, True, False),
        ("ident", "bar", 2, 9, False, False),
        ("sym", ")", 2, 12, False, False),
    ]
    assert toks[-1].kind == "eof"


def test_lexer_identifiers_numbers_and_fields() -> None:
    vals = [
        (t.kind, t.value)
        for t in tokenize("List.foldl xs.length α x₁ x' h_precond get! find? p.1 x.2.1 «a b»")
    ]
    assert vals[:-1] == [
        ("ident", "List.foldl"),
        ("ident", "xs.length"),
        ("ident", "α"),
        ("ident", "x₁"),
        ("ident", "x'"),
        ("ident", "h_precond"),
        ("ident", "get!"),
        ("ident", "find?"),
        ("ident", "p"),
        ("field", "1"),
        ("ident", "x"),
        ("field", "2"),
        ("field", "1"),
        ("ident", "a b"),
    ]
    nums = [(t.kind, t.value) for t in tokenize("42 0x1F 0b101 0o17 1.5 2e-3 3.0e2 7")][:-1]
    assert nums == [
        ("num", 42),
        ("num", 31),
        ("num", 5),
        ("num", 15),
        ("sci", "1.5"),
        ("sci", "2e-3"),
        ("sci", "3.0e2"),
        ("num", 7),
    ]
    assert [(t.kind, t.value) for t in tokenize("(f x).length")][-2] == ("field", "length")
    assert [(t.kind, t.value) for t in tokenize("(.some x)")][1] == ("dotident", "some")


def test_lexer_literals_and_comments() -> None:
    toks = tokenize(
        r'"a\n\t\\\"\'\x41\u{1F600}é" '
        + r"'x' '\n' '\'' '\\' "
        + "-- line\n/- outer /- nested -/ -/ /-- doc -/ z"
    )
    assert [(t.kind, t.value) for t in toks[:-1]] == [
        ("str", "a\n\t\\\"'A\U0001f600é"),
        ("char", "x"),
        ("char", "\n"),
        ("char", "'"),
        ("char", "\\"),
        ("ident", "z"),
    ]
    ops = "|>. |> <| $ ++ :: == != ≠ ≤ ≥ <= >= ∧ ∨ ¬ ↔ <-> && || ∈ ∉ × ⟨ ⟩ #[ ▸ ↑ >>> <<< &&& ||| ^^^ ∣ ∘ ↦ => -> ←"
    assert [t.value for t in tokenize(ops)[:-1]] == ops.split()
    with pytest.raises(LeanParseError):
        tokenize('"unterminated')
    with pytest.raises(LeanParseError):
        tokenize("/- never closed")


# ---------------------------------------------------------------- precedence

PRECEDENCE = [
    ("-a * b", "(* (- a) b)"),
    ("-a ^ 2", "(- (^ a 2))"),
    ("a - -b", "(- a (- b))"),
    ("2 ^ 3 ^ 4", "(^ 2 (^ 3 4))"),
    ("a * b % c / d", "(/ (% (* a b) c) d)"),
    ("a + b * c - d", "(- (+ a (* b c)) d)"),
    ("a :: b :: c ++ d", "(++ (:: a (:: b c)) d)"),
    ("a ++ b ++ c", "(++ (++ a b) c)"),
    ("¬ a = b ∧ c", "(∧ (¬ (= a b)) c)"),
    ("!x.contains y || z", "(|| (! (x.contains y)) z)"),
    ("a = b → c → d", "(→ (= a b) (→ c d))"),
    ("a ↔ b → c", "(↔ a (→ b c))"),
    ("a ∧ b ∨ c ∧ d", "(∨ (∧ a b) (∧ c d))"),
    ("a ∧ b ∧ c", "(∧ a (∧ b c))"),
    ("a && b || c && d", "(|| (&& a b) (&& c d))"),
    ("a <= b ∧ c >= d ∧ e != f", "(∧ (≤ a b) (∧ (≥ c d) (!= e f)))"),
    ("x ∉ xs", "(¬ (∈ x xs))"),
    ("A × B → C", "(→ (× A B) C)"),
    ("f <| g <| x", "(f (g x))"),
    ("f $ g x", "(f (g x))"),
    ("x |> f |> g a", "(g a (f x))"),
    ("xs |>.map f |>.filter g", "((xs#map f)#filter g)"),
    ("f a.1 b[0]! c.d.e", "(f a#1 b[0]! c.d.e)"),
    ("xs[i]! + ys[j]? + zs[k]'h", "(+ (+ xs[i]! ys[j]?) zs[k])"),
    ("(f x).length + p.1.2", "(+ (f x)#length p#1#2)"),
    ("a ∘ b ∘ c", "(∘ a (∘ b c))"),
    ("↑n + 1", "(+ (↑ n) 1)"),
    ("f -1", "(- f 1)"),
    ("f (-1)", "(f (- 1))"),
    ("fun x => x + 1 |>.succ", "(fun x => (x + 1)#succ)".replace("(x + 1)", "(+ x 1)")),
    ("(hi : i < a.size) → P", "(→[hi] (< i a.size) P)"),
    ("nums.foldl (init := []) fun acc n => acc", "(nums.foldl init:=[] (fun acc n => acc))"),
    ("∀ x y : Nat, x = y", "(∀x:Nat, (∀y:Nat, (= x y)))"),
    ("∃ i < n, i > 2", "(∃i<n, (> i 2))"),
    ("∀ x ∈ xs, ∀ (k : Nat) (j : Int), P", "(∀x∈xs, (∀k:Nat, (∀j:Int, P)))"),
    ("∃ i j, i < j", "(∃i, (∃j, (< i j)))"),
]


@pytest.mark.parametrize(("src", "want"), PRECEDENCE)
def test_precedence(src: str, want: str) -> None:
    assert sx(parse_expr(src)) == want


# ----------------------------------------------------------- sugar / sections


def test_cdot_sections_become_lambdas_at_the_nearest_parentheses() -> None:
    assert sx(parse_expr("(· + ·)")) == "(fun _sec1 _sec2 => (+ _sec1 _sec2))"
    assert sx(parse_expr("(n % · ≠ 0)")) == "(fun _sec1 => (≠ (% n _sec1) 0))"
    assert sx(parse_expr("(·.2)")) == "(fun _sec1 => _sec1#2)"
    assert sx(parse_expr("(·.length)")) == "(fun _sec1 => _sec1#length)"
    assert sx(parse_expr("(·.size = ·.size)")) == "(fun _sec1 _sec2 => (= _sec1#size _sec2#size))"
    assert sx(parse_expr("(f (· + 1) ·)")) == "(fun _sec1 => (f (fun _sec1 => (+ _sec1 1)) _sec1))"
    assert sx(parse_expr("xs.all (count · ≤ n / 2)")) == "(xs.all (fun _sec1 => (≤ (count _sec1) (/ n 2))))"
    with pytest.raises(LeanParseError):
        parse_expr("· + 1")


def test_fun_forms() -> None:
    e = parse_expr("fun (a, b) ⟨c, d⟩ x (y z : Nat) {α} [BEq α] => a")
    assert isinstance(e, A.Lam)
    assert [sp(b.pat) for b in e.binders] == ["<a,b>", "⟨c,d⟩", "x", "y", "z", "α", "_"]
    assert [b.kind for b in e.binders] == ["explicit"] * 5 + ["implicit", "inst"]
    assert sx(e.binders[3].type) == "Nat" and e.binders[2].type is None
    typed = parse_expr("fun (acc : Int × Int) (x : Int) => acc")
    assert isinstance(typed, A.Lam) and sx(typed.binders[0].type) == "(× Int Int)"
    shared = parse_expr("fun i j : Nat => i")
    assert isinstance(shared, A.Lam) and [sx(b.type) for b in shared.binders] == ["Nat", "Nat"]
    assert norm("λ x ↦ x") == norm("fun x => x")
    m = parse_expr("fun | 0, _ => 1 | n+1, m => n")
    assert isinstance(m, A.Lam) and [sp(b.pat) for b in m.binders] == ["_arg1", "_arg2"]
    assert isinstance(m.body, A.Match) and [sx(d) for d in m.body.discrs] == ["_arg1", "_arg2"]
    assert strip_pos(m.body.arms[1].alts) == [[A.PAdd(A.PVar("n"), 1), A.PVar("m")]]


def test_literals_and_brackets() -> None:
    assert norm("()") == A.UnitLit()
    assert norm("(1, 2, 3)") == A.Tuple([A.NatLit(1), A.NatLit(2), A.NatLit(3)])
    assert norm("#[1, -2]") == A.ArrayLit([A.NatLit(1), A.UnOp("-", A.NatLit(2))])
    assert norm("⟨[(1, 10)]⟩") == A.AnonCtor([A.ListLit([A.Tuple([A.NatLit(1), A.NatLit(10)])])])
    assert norm("{}") == A.StructInst([])
    assert norm("{ a := 1, b := x }") == A.StructInst([("a", A.NatLit(1)), ("b", A.Ident("x"))])
    assert norm("{ s with a := 1 }") == A.StructInst([("a", A.NatLit(1))], A.Ident("s"))
    assert norm("[1:n]") == A.Range(A.NatLit(1), A.Ident("n"))
    assert norm("[:n:2]") == A.Range(None, A.Ident("n"), A.NatLit(2))
    assert norm("(x : Int)") == A.Typed(A.Ident("x"), A.Ident("Int"))
    assert norm("show Nat from 5") == A.Typed(A.NatLit(5), A.Ident("Nat"))
    assert norm("1.5") == A.FloatLit("1.5")
    assert norm("'a'") == A.CharLit("a")
    assert (
        norm("Type") == A.Sort("Type")
        and norm("Prop") == A.Sort("Prop")
        and norm("Type u") == A.Sort("Type u")
    )
    assert norm("sorry") == A.Sorry() and norm("_") == A.Hole()
    assert norm('panic! "boom"') == A.Panic(A.StrLit("boom"))
    assert norm('panic "boom"') == A.Panic(A.StrLit("boom"))
    assert norm("Id.run do\n  return 1") == A.App(A.Ident("Id.run"), [A.Arg(A.Do([A.DoReturn(A.NatLit(1))]))])
    interp = norm('s!"a{x}b"')
    assert interp == A.BinOp(
        "++", A.BinOp("++", A.StrLit("a"), A.App(A.Ident("toString"), [A.Arg(A.Ident("x"))])), A.StrLit("b")
    )
    assert norm(".some x") == A.App(A.Ident(".some"), [A.Arg(A.Ident("x"))])


def test_if_let_have_forms() -> None:
    e = parse_expr("if h : x < 3 then 1 else 2")
    assert isinstance(e, A.If) and e.hyp == "h"
    il = parse_expr("if let some y := o then y else 0")
    assert isinstance(il, A.Match) and len(il.arms) == 2 and isinstance(il.arms[1].alts[0][0], A.PWild)
    hv = parse_expr("have h : x < y := by omega\nh")
    assert (
        isinstance(hv, A.Let) and hv.is_have and isinstance(hv.value, A.ByTactic) and hv.value.text == "omega"
    )
    this = parse_expr("have : P := proof\nbody")
    assert isinstance(this, A.Let) and this.pat == A.PVar("this", (1, 1))
    semi = parse_expr("let x := 1; let y := 2; x + y")
    assert sx(semi) == "(let x 1 (let y 2 (+ x y)))"
    pats = parse_expr("let (a, b) := p\nlet ⟨c, d⟩ := q\na")
    assert sx(pats) == "(let <a,b> p (let ⟨c,d⟩ q a))"
    with pytest.raises(LeanParseError):
        parse_expr("let x := 1 x")  # a body needs ';' or a line break


def test_local_function_desugaring() -> None:
    f = strip_pos(parse_expr("let f (x : Nat) (y : Int) : Int := x + y\nf 1 2"))
    assert isinstance(f, A.Let)
    assert f.type == A.Arrow(A.Ident("Nat"), A.Arrow(A.Ident("Int"), A.Ident("Int")))
    assert isinstance(f.value, A.Lam) and [sp(b.pat) for b in f.value.binders] == ["x", "y"]
    untyped = strip_pos(parse_expr("let g x : Int := x\ng"))
    assert untyped.type is None and untyped.value.body == A.Typed(A.Ident("x"), A.Ident("Int"))
    eqn = strip_pos(parse_expr("let h : List Int → Nat\n  | [] => 0\n  | _ :: t => 1\nh"))
    assert isinstance(eqn.value, A.Lam) and isinstance(eqn.value.body, A.Match)
    assert eqn.type == A.Arrow(A.App(A.Ident("List"), [A.Arg(A.Ident("Int"))]), A.Ident("Nat"))
    rec = strip_pos(
        parse_expr(
            "let rec go (n acc : Nat) : Nat :=\n  if n = 0 then acc else go (n - 1) acc\n  termination_by n\ngo 3 0"
        )
    )
    assert rec.is_rec and isinstance(rec.value, A.Lam) and len(rec.value.binders) == 2


# --------------------------------------------------------------------- layout


def test_match_arms_end_by_layout() -> None:
    src = """match a with
| none =>
  match b with
  | some y => y
  | none => 0
| some x => x"""
    m = parse_expr(src)
    assert isinstance(m, A.Match) and len(m.arms) == 2
    inner = m.arms[0].rhs
    assert isinstance(inner, A.Match) and len(inner.arms) == 2
    # an arm in the same column as the inner alternatives belongs to the inner match (as in Lean)
    same = parse_expr("match a with\n| none =>\n  match b with\n  | _ => 0\n  | x => 1")
    assert isinstance(same, A.Match) and len(same.arms) == 1
    ors = parse_expr("match l with\n| [] | [_] => true\n| _ => false")
    assert isinstance(ors, A.Match) and len(ors.arms[0].alts) == 2


def test_arguments_need_deeper_indentation() -> None:
    assert sx(parse_expr("f x\n  y")) == "(f x y)"
    # inside `let`, a next line in the let's column starts the body instead
    assert sx(parse_expr("let v := f x\ny")) == "(let v (f x) y)"
    # after match alternatives (position = first '|'), a line left of '|' is not an argument
    e = parse_expr("let r := match a with\n    | _ => f x\n  g r")
    assert isinstance(e, A.Let) and sx(e.body) == "(g r)"


def test_pipeline_across_lines() -> None:
    src = "  let cleaned := s.data.filter (fun c => c.isAlpha)\n      |>.map Char.toLower\n  cleaned"
    e = parse_expr(src)
    assert isinstance(e, A.Let) and sx(e.value) == "((s.data.filter (fun c => c.isAlpha))#map Char.toLower)"


@pytest.mark.parametrize("task", ["verina_advanced_21", "verina_advanced_81"])
def test_column_zero_let_blocks_in_code(task: str) -> None:
    e = parse_expr(task_sections(task)["code"])
    lets = 0
    while isinstance(e, (A.Let, A.If)):
        if isinstance(e, A.If):
            e = e.els
            continue
        lets += 1
        e = e.body
    assert lets >= 3
    assert isinstance(e, (A.App, A.BinOp))


def test_column_zero_lets_in_advanced_59_postcond() -> None:
    e = parse_expr(task_sections("verina_advanced_59")["postcond"])
    names = []
    while isinstance(e, A.Let):
        names.append(e.pat.name)  # type: ignore[union-attr]
        e = e.body
    assert names == ["cleaned", "forward", "backward"]
    assert isinstance(e, A.If)


def test_advanced_81_equation_style_let() -> None:
    e = strip_pos(parse_expr(task_sections("verina_advanced_81")["code"]))
    remove = e.body.body  # insert, insertionSort, removeDups
    assert remove.pat == A.PVar("removeDups") and not remove.is_rec
    assert isinstance(remove.value, A.Lam) and isinstance(remove.value.body, A.Match)
    assert sx(remove.body) == "(insertionSort (removeDups arr))"


def test_termination_by_with_binders_in_where_clause() -> None:
    body, defs = parse_body(task_sections("verina_advanced_10")["code"])
    assert [d.name for d in defs] == ["countFactor"]
    cf = defs[0]
    assert isinstance(cf.body, A.Lam) and len(cf.body.binders) == 3
    assert isinstance(cf.body.body, A.Match) and len(cf.body.body.arms) == 2
    # parse_expr turns the where clause into an enclosing `let rec`
    e = parse_expr(task_sections("verina_advanced_10")["code"])
    assert isinstance(e, A.Let) and e.is_rec and e.pat == A.PVar("countFactor", e.pat.pos)
    assert strip_pos(e.body) == strip_pos(body)


def test_let_rec_termination_then_body() -> None:
    e = parse_expr(task_sections("verina_advanced_53")["code"])
    # ... `termination_by n - shifts_count` is followed by the body `checkShifts 1 (…)`
    while isinstance(e, (A.Let, A.If)):
        e = e.body if isinstance(e, A.Let) else e.els
    assert sx(e) == "(checkShifts 1 (rightShiftOnce nums))"


# --------------------------------------------------------------------- do


def test_do_block_statements() -> None:
    src = """Id.run do
  let mut acc : Nat := 0
  let (a, b) := p
  for i in [0:n] do
    if i % 2 = 0 then
      acc := acc + i
    else if i = 3 then
      continue
    else
      break
  for h : j in xs do
    unless j > 0 do
      return acc
  while acc > 10 do
    acc := acc - 1
  match o with
  | some v => acc := v
  | none => pure ()
  x ← act
  (a, b) := q
  if acc = 0 then return
  ()
  return acc"""
    e = strip_pos(parse_expr(src))
    assert isinstance(e, A.App) and isinstance(e.args[0].value, A.Do)
    st = e.args[0].value.stmts
    kinds = [type(s).__name__ for s in st]
    assert kinds == [
        "DoLet", "DoLet", "DoFor", "DoFor", "DoWhile", "DoMatch", "DoAssign", "DoAssign", "DoIf", "DoExpr", "DoReturn",
    ]  # fmt: skip
    assert st[0] == A.DoLet(A.PVar("acc"), A.Ident("Nat"), A.NatLit(0), True, False)
    loop = st[2]
    assert loop.iterable == A.Range(A.NatLit(0), A.Ident("n"))
    branch = loop.body[0]
    assert isinstance(branch, A.DoIf) and isinstance(branch.els[0], A.DoIf)
    assert branch.els[0].then == [A.DoContinue()] and branch.els[0].els == [A.DoBreak()]
    unless = st[3].body[0]
    assert unless == A.DoIf(
        A.UnOp("¬", A.BinOp(">", A.Ident("j"), A.NatLit(0))), [A.DoReturn(A.Ident("acc"))], []
    )
    assert st[6] == A.DoAssign(A.PVar("x"), A.Ident("act"), None, True)
    assert st[7].target == A.PTuple([A.PVar("a"), A.PVar("b")])
    assert st[8] == A.DoIf(A.BinOp("=", A.Ident("acc"), A.NatLit(0)), [A.DoReturn(None)], [])
    assert st[9] == A.DoExpr(A.UnitLit())


def test_do_if_let_without_else_does_nothing_on_mismatch() -> None:
    e = strip_pos(parse_expr("do\n  if let some x := o then\n    return x\n  return 0"))
    assert isinstance(e, A.Do) and isinstance(e.stmts[0], A.DoMatch)
    assert e.stmts[0].arms[1] == ([[A.PWild()]], [A.DoExpr(A.UnitLit())])


def test_do_blocks_in_the_data() -> None:
    e = parse_expr(task_sections("verina_advanced_34")["code"])
    assert isinstance(e, A.App)
    stmts = e.args[0].value.stmts  # type: ignore[union-attr]
    assert [type(s).__name__ for s in stmts] == ["DoIf", "DoLet", "DoAssign", "DoFor", "DoReturn"]
    e2 = parse_expr(task_sections("verina_advanced_2")["code"])
    dp = e2.body.body  # type: ignore[union-attr]
    assert isinstance(dp, A.Let) and sx(dp.body) == "dp[m]![n]!"


# ------------------------------------------------------------- declarations


def test_module_commands() -> None:
    src = """import Std.Data.HashMap
open Std in
set_option maxRecDepth 1000 in
/-- doc -/
namespace Foo
@[simp, reducible] private partial def loop (n : Nat) {α : Type} [BEq α] : Nat :=
  if n = 0 then 0 else loop (n - 1)
theorem t (a : Nat) : a = a := by
  rfl
def List.myprod : List Int → Int
  | [] => 1
  | x :: xs => x * xs.myprod
end Foo
section S
variable (x : Nat)
end S
instance : Inhabited Nat := ⟨0⟩
instance (K V : Type) [BEq K] : BEq (Map K V) where
  beq m1 m2 := m1.entries == m2.entries
structure Map (K V : Type) [BEq K] where
  entries : List (K × V)
  size : Nat := 0
deriving Inhabited, Repr
#eval loop 3
axiom ax (n : Nat) : n = n
example : 1 = 1 := rfl
def g (x : Nat) :=
  aux x
where
  aux (y : Nat) : Nat := y + 1
  helper : Nat → Nat
  | 0 => 1
  | n + 1 => n
termination_by n => n
"""
    decls = parse_module(src)
    kinds = [type(d).__name__ + (":" + d.keyword if isinstance(d, A.OtherDecl) else "") for d in decls]
    assert kinds == [
        "OtherDecl:import", "OpenDecl", "OtherDecl:set_option", "NamespaceDecl", "OtherDecl:section",
        "OtherDecl:variable", "OtherDecl:end", "InstanceDecl", "InstanceDecl", "StructureDecl", "OtherDecl:#eval",
        "OtherDecl:axiom", "OtherDecl:example", "Def",
    ]  # fmt: skip
    ns = decls[3]
    assert isinstance(ns, A.NamespaceDecl) and ns.name == "Foo"
    loop, thm, myprod = ns.decls
    assert loop.attrs == ["simp", "reducible"] and loop.partial
    assert [b.kind for b in loop.binders] == ["explicit", "implicit", "inst"]
    assert thm.kind == "theorem" and isinstance(thm.body, A.ByTactic) and thm.body.text == "rfl"
    assert myprod.name == "List.myprod" and isinstance(myprod.body, A.Lam)
    inst = decls[8]
    assert isinstance(inst, A.InstanceDecl) and [m.name for m in inst.methods] == ["beq"]
    assert [sp(b.pat) for b in inst.methods[0].binders] == ["m1", "m2"]
    st = decls[9]
    assert isinstance(st, A.StructureDecl) and [f[0] for f in st.fields] == ["entries", "size"]
    assert st.fields[1][2] == A.NatLit(0, st.fields[1][2].pos) and st.deriving == ["Inhabited", "Repr"]
    g = decls[-1]
    assert isinstance(g, A.Def) and [w.name for w in g.where_defs] == ["aux", "helper"]


def test_proofs_extend_to_the_next_command() -> None:
    src = "theorem a : P := by\n  intro x\n  · simp [foo, bar] at x ⊢\n    exact ⟨x, y⟩\ndef b := 1\n"
    a, b = parse_module(src)
    assert isinstance(a, A.Def) and isinstance(a.body, A.ByTactic)
    assert a.body.text == "intro x\n· simp [foo, bar] at x ⊢\n  exact ⟨x, y⟩"
    assert isinstance(b, A.Def) and b.name == "b"


def test_positions_are_one_based() -> None:
    e = parse_expr("  let x := f a\n  x + 1")
    assert isinstance(e, A.Let) and e.pos == (1, 3)
    assert e.value.pos == (1, 12) and e.body.pos == (2, 3)
    with pytest.raises(LeanParseError) as err:
        parse_expr("f (x")
    assert err.value.pos == (1, 5)


# ------------------------------------------------------------- robustness


@pytest.mark.parametrize(
    "src",
    [
        "",
        "let",
        "let x :=",
        "fun =>",
        "match x with",
        "if c then a",
        "(a, b",
        "[1, 2",
        "a +",
        "@f x",
        "x ▸ y",
        "∀ , p",
        "do",
        "Id.run do\n  for x in xs do",
        "f (← g)",
        "xs[1:2]",
    ],
)
def test_invalid_terms_raise_parse_errors(src: str) -> None:
    with pytest.raises(LeanParseError):
        parse_expr(src)


def test_garbage_only_raises_parse_errors_quickly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Never an exception other than a parse error, and never more than two term parses per token
    (the parser's own budget would allow 64 before giving up as "too complex")."""
    files = task_files("verina")
    rng = random.Random(1234)
    texts = [f.read_text(encoding="utf-8") for f in files[::7]]
    vocab = sorted({t[tok.start : tok.end] for t in texts for tok in tokenize(t)})
    samples: list[str] = []
    for _ in range(400):
        samples.append(" ".join(rng.choice(vocab) for _ in range(rng.randrange(1, 30))))
        joined = "".join(
            rng.choice(vocab) + rng.choice([" ", "\n", "\n    ", ""]) for _ in range(rng.randrange(1, 40))
        )
        samples.append(joined)
        sec = rng.choice([s for s in sections(rng.choice(texts)).values() if s.strip()])
        samples.append(sec[: rng.randrange(len(sec) + 1)])
        i, j = sorted((rng.randrange(len(sec) + 1), rng.randrange(len(sec) + 1)))
        samples.append(sec[:i] + sec[j:])
    samples += ["(" * 5000 + "x" + ")" * 5000, "¬" * 20000 + "x", "[" * 20000]
    steps = _count_parse_steps(monkeypatch)
    heavy = []
    for s in samples:
        n = len(tokenize(s))
        for fn in (parse_expr, parse_module):
            steps[0] = 0
            try:
                fn(s)
            except LeanParseError:
                pass
            if steps[0] > 2 * n:
                heavy.append(f"{fn.__name__}: {steps[0]} term parses for {n} tokens: {s[:60]!r}")
    assert heavy == []


def test_non_string_input_is_a_parse_error() -> None:
    with pytest.raises(LeanParseError):
        parse_expr(None)  # type: ignore[arg-type]
