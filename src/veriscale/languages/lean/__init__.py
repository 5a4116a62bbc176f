"""The Lean 4 fragment: parser, elaborator, evaluator and builtin library."""
