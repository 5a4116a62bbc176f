"""Post2Exe compiled: VeriContest contracts translated into Rust checker programs.

``translate`` emits the checker source; ``checker`` compiles and runs it on
test cases and falls back to nothing (callers fall back to the Python
evaluator on UNKNOWN).
"""

from .translate import Checker, Untranslatable, translate

__all__ = ["Checker", "Untranslatable", "translate"]
