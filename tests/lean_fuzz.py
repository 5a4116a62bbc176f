"""Token-level mutation of Lean text, shared by the engine fuzz tests and ``benchmarks/bench_limits.py``."""

from __future__ import annotations

import random
import re

__all__ = ["mutate_tokens"]

_TOKEN = re.compile(r"\s+|[A-Za-z_\u0370-\u03ff][\w.'!?]*|\d+|\S", re.UNICODE)


def mutate_tokens(text: str, rng: random.Random) -> str:
    """1–3 edits of ``text``'s tokens: delete one, swap two, or duplicate one."""
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
