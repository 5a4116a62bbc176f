"""Evaluation of elaborated Lean: compilation of the typed IR to Python functions."""
