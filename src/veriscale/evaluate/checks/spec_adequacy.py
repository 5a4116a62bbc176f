"""Which weakened ground-truth specifications a suite kills (``stats --adequacy``).

Per task, two families of flawed specifications are *built* from the ground
truth alone, so the denominators do not depend on what any suite holds:

* **weakened postconditions** (``pipeline/outputs/weaken.py``: constraints
  dropped at positive positions, so each is implied by the ground truth). One
  is *killed* when it accepts some unexpected output of the suite (its
  postcondition soundness fails); a weakened postcondition equivalent to the
  ground truth can never be killed and stays in the denominator.
* **weakened preconditions** (``pipeline/inputs/conjuncts.py``: the
  precondition without one conjunct or one sub-conjunct under a leading
  ``∀``/``.all``). One is *killed* when some reject input of the suite
  satisfies it — exactly when the suite covers that conjunct with an input
  violating it alone. So "conjuncts covered" is the same count.

Every check uses the native engine with ``CHECK_FUEL`` steps; a variant
counts as killed only on a definite verdict (TRUE), and checking a variant
stops at its first kill. Rows are visited in suite order, so results are
deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["SpecKills", "spec_kills"]

CHECK_FUEL = 1_000_000
VARIANT_FUEL = 5_000_000  # per variant: steps of its checks before it counts as not killed


@dataclass
class SpecKills:
    post_built: int = 0
    post_killed: int = 0
    pre_built: int = 0
    pre_killed: int = 0
    post_survivors: list[str] = field(default_factory=list)  # descriptions
    pre_survivors: list[str] = field(default_factory=list)  # conjunct labels

    def to_json(self) -> dict[str, Any]:
        return {
            "post_built": self.post_built,
            "post_killed": self.post_killed,
            "pre_built": self.pre_built,
            "pre_killed": self.pre_killed,
            "post_survivors": self.post_survivors,
            "pre_survivors": self.pre_survivors,
        }


def spec_kills(task: Any, seconds: float = 20.0) -> SpecKills:
    """Weakened post- and preconditions of ``task``'s ground truth that its own rows kill."""
    from ...languages.registry import language_of
    from ...runtime.limits import Limits
    from ..scoring.cases import decode_rows

    lang = language_of(task)
    engine = lang.native_engine(Limits(fuel=CHECK_FUEL, seconds=seconds))
    rows = decode_rows(task)
    pairs = [(t.inputs, v) for t in rows.tests if t.inputs is not None for v, err in t.unexpected if not err]
    rejects = [r.inputs for r in rows.rejects if r.inputs is not None]
    out = SpecKills()

    def killed(te: Any, checks: list[Any], check: Any) -> bool:
        start = te.fuel_spent if hasattr(te, "fuel_spent") else 0
        for arg in checks:
            if check(te, arg).is_true:
                return True
            if hasattr(te, "fuel_spent") and te.fuel_spent - start > VARIANT_FUEL:
                return False
        return False

    for spec in lang.weakened_specs(task):
        out.post_built += 1
        te = engine.for_task(task, {"postcond": spec.text})
        if killed(te, pairs, lambda te, a: te.postcondition(a[0], a[1])):
            out.post_killed += 1
        else:
            out.post_survivors.append(spec.description)
    for var in lang.weakened_preconditions(task):
        out.pre_built += 1
        te = engine.for_task(task, {"precond": var.text})
        if killed(te, rejects, lambda te, a: te.precondition(a)):
            out.pre_killed += 1
        else:
            out.pre_survivors.append(var.label)
    return out
