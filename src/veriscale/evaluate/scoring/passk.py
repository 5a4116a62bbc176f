"""pass@k with the unbiased estimator, and the few-shot task exclusion.

For a task with ``n`` evaluated samples of which ``c`` pass, the unbiased
estimator of "at least one of k samples drawn without replacement passes" is
``1 - C(n-c, k) / C(n, k)`` (Chen et al., 2021; Verina's ``pass_at_k``). It
is 1 when ``n - c < k``. A suite's pass@k is the mean over the tasks that
have the metric. Tasks with fewer than ``k`` samples have no pass@k (Verina's
formula would give them 1.0 even with no passing sample); they are left out
and counted in ``n_tasks_short``.

Verina removes its two few-shot example tasks from the evaluated set;
``VERINA_FEWSHOT`` lists them, and ``parse_exclusions`` reads a user's list.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from pathlib import Path

from ...formats.verina.dataset import FEWSHOT_IDS

__all__ = ["VERINA_FEWSHOT", "PassAtK", "mean_pass_at_k", "parse_exclusions", "pass_at_k"]

VERINA_FEWSHOT = FEWSHOT_IDS


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k of one task: n samples, c of them passing."""
    if k < 1:
        raise ValueError("k must be at least 1")
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n (got n={n}, c={c})")
    if n < k:
        raise ValueError(f"pass@{k} needs at least {k} samples (got {n})")
    if n - c < k:
        return 1.0
    # Exact rational arithmetic: no cancellation for large n.
    return float(1 - Fraction(comb(n - c, k), comb(n, k)))


@dataclass(frozen=True)
class PassAtK:
    k: int
    value: float | None  # None when no task has k samples
    n_tasks: int  # tasks averaged over
    n_tasks_short: int  # tasks left out for having fewer than k samples


def mean_pass_at_k(counts: Mapping[str, tuple[int, int]], k: int) -> PassAtK:
    """Mean pass@k over tasks; ``counts`` maps task id → (n samples, c passing)."""
    values: list[float] = []
    short = 0
    for task in sorted(counts):
        n, c = counts[task]
        if n < k:
            short += 1
            continue
        values.append(pass_at_k(n, c, k))
    value = sum(values) / len(values) if values else None
    return PassAtK(k, value, len(values), short)


def parse_exclusions(specs: Iterable[str]) -> tuple[str, ...]:
    """Task ids to exclude, from CLI arguments.

    Each argument is ``verina`` (Verina's few-shot tasks), a path to a file
    (a JSON list of ids, or one id per line; ``#`` starts a comment), or a
    comma-separated list of ids. Returns sorted unique ids.
    """
    ids: set[str] = set()
    for spec in specs:
        spec = spec.strip()
        if not spec:
            continue
        if spec == "verina":
            ids.update(VERINA_FEWSHOT)
            continue
        path = Path(spec)
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            try:
                data = json.loads(text)
            except json.JSONDecodeError:
                data = None
            if isinstance(data, list):
                if not all(isinstance(x, str) for x in data):
                    raise ValueError(f"{path}: the JSON list must hold task id strings")
                ids.update(x.strip() for x in data if x.strip())
                continue
            for line in text.splitlines():
                line = line.split("#", 1)[0].strip()
                if line:
                    ids.update(p.strip() for p in line.split(",") if p.strip())
            continue
        ids.update(p.strip() for p in spec.split(",") if p.strip())
    return tuple(sorted(ids))
