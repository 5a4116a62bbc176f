"""Token-level corruption of Lean text, the one mutator of the engine's fuzz tests and
``benchmarks/bench_limits.py`` (a small testing utility; nothing in the pipeline uses it).

Algorithm: split the text into whitespace runs, identifiers (Latin or Greek start, then word
characters, ``.``, ``'``, ``!``, ``?``), digit runs and single other characters; then apply 1–3
edits, each at a uniformly chosen non-whitespace token: delete it, swap it with another
non-whitespace token (possibly itself), or duplicate it (``tok tok``). All choices come from the
caller's ``random.Random``, so a seed fixes the variants.
"""

from __future__ import annotations

import random
import re

__all__ = ["mutate_tokens"]

_TOKEN = re.compile(r"\s+|[A-Za-z_\u0370-\u03ff][\w.'!?]*|\d+|\S", re.UNICODE)


def mutate_tokens(text: str, rng: random.Random) -> str:
    """``text`` with 1–3 token edits (delete, swap, duplicate); unchanged if it has no token."""
    toks = _TOKEN.findall(text)
    idx = [i for i, t in enumerate(toks) if not t.isspace()]
    if not idx:
        return text
    for _ in range(rng.randint(1, 3)):
        i = rng.choice(idx)
        op = rng.randrange(3)
        if op == 0:
            toks[i] = ""
        elif op == 1:
            j = rng.choice(idx)
            toks[i], toks[j] = toks[j], toks[i]
        else:
            toks[i] = toks[i] + " " + toks[i]
    return "".join(toks)
