"""The adversaries' fuel, scaled to what the ground truth needs on the same task.

A mutant that does not terminate (a loop index no longer moving, a recursion on
an unchanged argument) used to spend the whole fixed ``adversary_fuel`` — and on
the evaluator's slow paths (values growing each step) the wall-clock safety net
first — before it was given up: a few such mutants were most of the time of a
whole ``scale`` run. An adversary is a *variant of the ground truth*, so its
work on the suite's inputs is bounded by a multiple of the ground truth's own:

    cap = min(adversary_fuel, max(floor, ratio × the most fuel one ground-truth run took))

The cap is deterministic (fuel, never seconds) and only ever lowers the fixed
budget. An adversary that would have returned a value after more than ``ratio``
times the ground truth's work now runs out of fuel instead: it counts as a
timeout (never a kill), the conservative side. Engines that do not meter fuel
(``fuel_spent`` absent) keep the fixed budget.
"""

from __future__ import annotations

from typing import Any

__all__ = ["adversary_fuel_cap"]


def adversary_fuel_cap(ground_truth_max: int | None, settings: Any) -> int:
    """The fuel of one adversary run; ``settings`` is the config's ``outputs`` section."""
    fixed = int(settings.adversary_fuel)
    if ground_truth_max is None or settings.adversary_fuel_ratio <= 0:
        return fixed
    scaled = max(
        int(settings.adversary_fuel_floor), int(settings.adversary_fuel_ratio) * int(ground_truth_max)
    )
    return min(fixed, scaled)
