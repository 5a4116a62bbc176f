"""Elaboration of the Lean fragment: type inference, coercions, name resolution → typed IR."""
