"""Evaluator of the Verus specification language subset VeriContest's ``spec.rs`` files use.

``SpecProgram.from_source(text)`` parses spec functions and the target's
``requires``/``ensures``; ``requires_verdict``/``ensures_verdict`` evaluate
them with exact integers and return TRUE/FALSE/UNKNOWN verdicts.
"""

from .program import Clause, SpecLoadError, SpecProgram, to_spec_value

__all__ = ["Clause", "SpecLoadError", "SpecProgram", "to_spec_value"]
