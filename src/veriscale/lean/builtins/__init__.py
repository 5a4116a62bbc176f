"""Builtin library of the Lean fragment (List, Array, String, Char, Nat, Int, …)."""
