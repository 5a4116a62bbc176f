"""Seeded generator of random syntax trees in the parser's normal form (for round-trip tests).

Only trees the parser can itself produce are generated: e.g. no application of an
application, no one-element tuple, no ``panic`` applied as a function.
"""

from __future__ import annotations

import random

from veriscale.languages.lean import ast as A

NAMES = [
    "x",
    "y",
    "acc",
    "xs",
    "f",
    "List.map",
    "xs.length",
    "h_precond",
    "α",
    "x₁",
    "n'",
    "xs.head!",
    "end",
    "a b.c",
]
FIELDS = ["1", "2", "length", "map", "fst"]
OPS = [
    "+", "-", "*", "/", "%", "^", "++", "::", "==", "!=", "<", ">", "≤", "≥", "=", "≠",
    "∧", "∨", "↔", "&&", "||", "∈", "×", "∘", ">>>", "<<<", "&&&", "|||", "^^^", "∣",
]  # fmt: skip
BOUNDS = ["∈", "<", "≤", ">", "≥", "≠"]


class Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def name(self) -> str:
        return self.r.choice(NAMES)

    def var(self) -> str:
        return self.r.choice(["x", "y", "acc", "n", "x'", "y₂"])

    # ---------------------------------------------------------------- patterns
    def pat(self, d: int) -> A.Pattern:
        r = self.r
        k = r.randrange(14 if d > 0 else 4)
        if k == 0:
            return A.PVar(self.var())
        if k == 1:
            return A.PWild()
        if k == 2:
            kind = r.choice(["nat", "str", "char", "bool"])
            value: object = {
                "nat": r.choice([0, 3, -1, 42]),
                "str": r.choice(["", 'a"b', "π\n"]),
                "char": r.choice(["a", "'", "\\", "\t"]),
                "bool": r.choice([True, False]),
            }[kind]
            return A.PLit(value, kind)
        if k == 3:
            return A.PCtor(r.choice(["none", "Option.none", ".none"]), [])
        if k == 4:
            return A.PCtor(r.choice(["some", "Nat.succ", ".some"]), [self.pat(d - 1)])
        if k == 5:
            return A.PCons(self.pat(d - 1), self.pat(d - 1))
        if k == 6:
            return A.PList([self.pat(d - 1) for _ in range(r.randrange(3))])
        if k == 7:
            return A.PArray([self.pat(d - 1) for _ in range(r.randrange(3))])
        if k == 8:
            return A.PTuple([self.pat(d - 1) for _ in range(r.randrange(2, 4))])
        if k == 9:
            return A.PAnon([self.pat(d - 1) for _ in range(r.randrange(3))])
        if k == 10:
            return A.PAdd(r.choice([A.PVar(self.var()), A.PWild(), self.pat(d - 1)]), r.randrange(1, 4))
        if k == 11:
            return A.PAs(self.var(), self.pat(d - 1))
        if k == 12:
            return A.PTyped(self.pat(d - 1), self.ty(d - 1))
        return A.PCtor("List.cons", [self.pat(d - 1), self.pat(d - 1)])

    def binder_pat(self, d: int) -> A.Pattern:
        k = self.r.randrange(5)
        if k == 0:
            return A.PWild()
        if k == 1 and d > 0:
            return A.PTuple([A.PVar(self.var()), self.pat(d - 1)])
        if k == 2 and d > 0:
            return A.PAnon([A.PVar(self.var()), A.PVar(self.var())])
        return A.PVar(self.var())

    def binder(self, d: int) -> A.Binder:
        r = self.r
        k = r.randrange(6)
        if k == 0:
            return A.Binder(A.PVar(self.var()), self.ty(d - 1) if r.random() < 0.5 else None, "implicit")
        if k == 1:
            pat: A.Pattern = A.PVar("inst") if r.random() < 0.5 else A.PWild()
            return A.Binder(pat, self.ty(d - 1), "inst")
        return A.Binder(self.binder_pat(d), self.ty(d - 1) if r.random() < 0.4 else None, "explicit")

    # ------------------------------------------------------------------- terms
    def ty(self, d: int) -> A.Expr:
        r = self.r
        k = r.randrange(5 if d > 0 else 2)
        if k == 0:
            return A.Ident(r.choice(["Nat", "Int", "Bool"]))
        if k == 1:
            return A.Sort(r.choice(["Type", "Prop"]))
        if k == 2:
            return A.App(A.Ident("List"), [A.Arg(self.ty(d - 1))])
        if k == 3:
            return A.BinOp("×", self.ty(d - 1), self.ty(d - 1))
        return A.Arrow(self.ty(d - 1), self.ty(d - 1), r.choice([None, None, "hx"]))

    def atom(self) -> A.Expr:
        r = self.r
        k = r.randrange(10)
        if k < 3:
            return A.Ident(self.name())
        if k == 3:
            return A.NatLit(r.choice([0, 1, 7, 123456789012345678901234567890]))
        if k == 4:
            return A.StrLit(r.choice(["", "hi", 'a"b\\c\n\t', "∀x"]))
        if k == 5:
            return A.CharLit(r.choice(["a", "'", "\\", "\n", "λ"]))
        if k == 6:
            return A.FloatLit(r.choice(["1.5", "2e-3", "0.0"]))
        if k == 7:
            return r.choice([A.UnitLit(), A.Hole(), A.Sorry()])
        if k == 8:
            return A.Sort(r.choice(["Type", "Prop", "Type u"]))
        return A.ListLit([])

    def expr(self, d: int) -> A.Expr:
        r = self.r
        if d <= 0:
            return self.atom()
        k = r.randrange(30)
        e = self.expr
        if k < 3:
            fn = r.choice(
                [A.Ident(self.name()), A.Proj(e(d - 1), r.choice(FIELDS)), self.lam(d - 1), e(d - 1)]
            )
            if isinstance(fn, (A.App, A.Panic)) or (isinstance(fn, A.Ident) and fn.name == "panic"):
                fn = A.Ident("g")
            args = [A.Arg(e(d - 1)) for _ in range(r.randrange(1, 4))]
            if r.random() < 0.2:
                args.insert(0, A.Arg(e(d - 1), "init"))
            if r.random() < 0.15:
                args.append(A.Arg(self.do(d - 1)))
            return A.App(fn, args)
        if k < 8:
            return A.BinOp(r.choice(OPS), e(d - 1), e(d - 1))
        if k == 8:
            return A.UnOp(r.choice(["-", "¬", "!", "↑"]), e(d - 1))
        if k == 9:
            return A.Arrow(e(d - 1), e(d - 1), r.choice([None, None, "hi"]))
        if k == 10:
            return A.If(e(d - 1), e(d - 1), e(d - 1), r.choice([None, "h"]))
        if k == 11:
            return self.let(d)
        if k == 12:
            n = r.randrange(1, 3)
            arms = [
                A.MatchArm([[self.pat(d - 1) for _ in range(n)] for _ in range(r.randrange(1, 3))], e(d - 1))
                for _ in range(r.randrange(1, 4))
            ]
            names: list[str | None] = [] if r.random() < 0.7 else ["h", *([None] * (n - 1))]
            return A.Match([e(d - 1) for _ in range(n)], arms, A.NOPOS, names)
        if k == 13:
            return self.lam(d)
        if k == 14:
            kind = r.choice(["∀", "∃"])
            c = r.randrange(3)
            ty = self.ty(d - 1) if c == 1 else None
            bound = (r.choice(BOUNDS), e(d - 1)) if c == 2 else None
            return A.Quant(kind, r.choice([A.PVar(self.var()), A.PWild()]), ty, bound, e(d - 1))
        if k == 15:
            return A.Tuple([e(d - 1) for _ in range(r.randrange(2, 4))])
        if k == 16:
            return r.choice([A.ListLit, A.ArrayLit, A.AnonCtor])([e(d - 1) for _ in range(r.randrange(4))])
        if k == 17:
            fields = [(r.choice(["a", "b.c"]), e(d - 1)) for _ in range(r.randrange(3))]
            return A.StructInst(fields, e(d - 1) if r.random() < 0.4 else None)
        if k == 18:
            return A.Range(
                e(d - 1) if r.random() < 0.7 else None, e(d - 1), e(d - 1) if r.random() < 0.3 else None
            )
        if k == 19:
            return A.Typed(e(d - 1), self.ty(d - 1))
        if k == 20:
            return A.Index(e(d - 1), e(d - 1), r.choice(["!", "?", ""]))
        if k == 21:
            return A.Proj(e(d - 1), r.choice(FIELDS))
        if k == 22:
            return A.Panic(e(d - 1))
        if k == 23:
            return A.ByTactic(
                r.choice(["simp", "omega", "intro x\nsimp at x ⊢\n  exact foo, bar", "use 1, 2"])
            )
        if k == 24:
            return self.do(d)
        return self.atom()

    def lam(self, d: int) -> A.Lam:
        return A.Lam([self.binder(d) for _ in range(self.r.randrange(1, 4))], self.expr(d - 1))

    def let(self, d: int) -> A.Let:
        r = self.r
        is_have = r.random() < 0.2
        is_rec = not is_have and r.random() < 0.3
        if is_rec or is_have:
            pat: A.Pattern = A.PVar(self.var())
        else:
            pat = r.choice([A.PVar(self.var()), A.PWild(), self.pat(d - 1)])
        ty = self.ty(d - 1) if r.random() < 0.4 else None
        return A.Let(pat, ty, self.expr(d - 1), self.expr(d - 1), is_rec, is_have)

    # -------------------------------------------------------------- do blocks
    def do(self, d: int) -> A.Do:
        return A.Do(self.stmts(d))

    def stmts(self, d: int) -> list[A.DoStmt]:
        return [self.stmt(d - 1) for _ in range(self.r.randrange(1, 4))]

    def stmt(self, d: int) -> A.DoStmt:
        r = self.r
        e = self.expr
        k = r.randrange(12 if d > 0 else 3)
        if k == 0:
            return A.DoExpr(e(d))
        if k == 1:
            return A.DoBreak() if r.random() < 0.5 else A.DoContinue()
        if k == 2:
            return A.DoReturn(e(d) if r.random() < 0.7 else None)
        if k == 3:
            pat = r.choice([A.PVar(self.var()), A.PTuple([A.PVar("a"), A.PWild()])])
            return A.DoLet(
                pat,
                self.ty(d - 1) if r.random() < 0.3 else None,
                e(d - 1),
                r.random() < 0.5,
                r.random() < 0.2,
            )
        if k == 4:
            tgt = r.choice([A.PVar(self.var()), A.PTuple([A.PVar("a"), A.PVar("b")]), A.PWild()])
            return A.DoAssign(tgt, e(d - 1), None, r.random() < 0.2)
        if k == 5:
            return A.DoFor(
                r.choice([A.PVar("i"), A.PWild(), A.PTuple([A.PVar("a"), A.PVar("b")])]),
                e(d - 1),
                self.stmts(d),
            )
        if k == 6:
            return A.DoWhile(e(d - 1) if r.random() < 0.7 else None, self.stmts(d))
        if k == 7:
            els = self.stmts(d) if r.random() < 0.6 else []
            return A.DoIf(e(d - 1), self.stmts(d), els, r.choice([None, "h"]))
        if k == 8:
            n = r.randrange(1, 3)
            arms = [([[self.pat(d - 1) for _ in range(n)]], self.stmts(d)) for _ in range(r.randrange(1, 3))]
            return A.DoMatch([e(d - 1) for _ in range(n)], arms)
        return A.DoExpr(e(d))


def gen_expr(seed: int, depth: int = 4) -> A.Expr:
    return Gen(seed).expr(depth)
