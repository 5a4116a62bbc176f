"""Lean types and typed values: type strings, the values codec, runtime representation."""
