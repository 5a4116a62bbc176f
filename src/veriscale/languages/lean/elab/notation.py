"""Mathlib / core infix notations, elaborated by rewriting to the functions they abbreviate.

Lean defines each of these as notation for a function (``infixl:50 " <+ " => List.Sublist``),
so rewriting the operator to the application is exactly Lean's reading:

* ``l₁ <+ l₂`` → ``List.Sublist l₁ l₂``; ``<+:`` → ``List.IsPrefix``; ``<:+`` → ``List.IsSuffix``;
  ``<:+:`` → ``List.IsInfix``; ``l₁ ~ l₂`` → ``List.Perm l₁ l₂``;
* ``a ∣ b`` (``Dvd.dvd`` on Nat/Int) → ``b % a = 0``: for ``a = 0`` both say ``b = 0``, since
  Lean's ``b % 0 = b`` (``Nat.mod``, ``Int.emod``); otherwise it is the definition of divisibility;
* ``a <|> b`` on ``Option`` (``HOrElse.hOrElse``, ``b`` lazy) → ``match a with | none => b | r => r``;
* ``s ∪ t``, ``s ∩ t``, ``s \\ t``, ``s ⊆ t`` → ``T.union``/``T.inter``/``T.sdiff``/``T.Subset`` of the
  left operand's type ``T`` (``List``/``Finset``), the instances Lean finds for ``Union``/``Inter``/
  ``SDiff``/``HasSubset``;
* ``a ⊔ b``, ``a ⊓ b`` on ``Nat``/``Int`` → ``max a b``/``min a b`` (any other type: unsupported).
"""

from __future__ import annotations

from .. import ast as A

__all__ = ["LATTICE_OPS", "SET_OPS", "STRUCTURAL_OPS", "dvd", "or_else"]

STRUCTURAL_OPS = {
    "<+": "List.Sublist",
    "<+:": "List.IsPrefix",
    "<:+": "List.IsSuffix",
    "<:+:": "List.IsInfix",
    "~": "List.Perm",
}

SET_OPS = {"∪": "union", "∩": "inter", "\\": "sdiff", "⊆": "Subset"}

# Mathlib's ``infixl:68 " ⊔ " => Max.max`` and ``infixl:69 " ⊓ " => Min.min``; taken only on Nat and
# Int, whose ``max``/``min`` are the lattice operations (a linear order's sup/inf)
LATTICE_OPS = {"⊔": "max", "⊓": "min"}


def call(name: str, args: list[A.Expr], pos: A.Pos) -> A.Expr:
    return A.App(A.Ident(name, pos), [A.Arg(a) for a in args], pos)


def dvd(e: A.BinOp) -> A.Expr:
    """``a ∣ b`` as ``b % a = 0``."""
    return A.BinOp("=", A.BinOp("%", e.rhs, e.lhs, e.pos), A.NatLit(0, e.pos), e.pos)


def or_else(e: A.BinOp) -> A.Expr:
    """``a <|> b`` as ``match a with | none => b | r => r`` (``b`` evaluated only when needed)."""
    r = "_orElse_r"
    arms = [
        A.MatchArm([[A.PCtor("none", [], e.pos)]], e.rhs, e.pos),
        A.MatchArm([[A.PVar(r, e.pos)]], A.Ident(r, e.pos), e.pos),
    ]
    return A.Match([e.lhs], arms, e.pos)
