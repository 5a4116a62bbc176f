"""``requires``-steered inputs and complete small domains for a VeriContest suite (used by ``suites``).

* ``steerer_for(problem, spec)``: a ``languages.verus.steered_inputs.Steerer`` over the target's
  parameters (spec names, the reference's types and names; the last parameters when the
  reference has constructor arguments first), or None when its types are not covered.
* ``whole_domain(…)``: when every parameter is a scalar and the static box read from
  ``requires`` has at most ``cap`` points, every point is checked by the ground-truth
  ``requires``. If none is UNKNOWN the TRUE points are the **whole** valid domain (the box
  holds every valid input: its ranges come from necessary conditions only); when that domain
  is not larger than ``width`` it replaces the generated candidates, and the result document
  records ``domain = {"box", "inputs", "exhausted": true}`` and the note
  ``domain exhausted: N inputs`` — why such a problem has fewer positives than the target.
* ``steered_candidates(…)``: ``(STEER_FAMILY, input)`` pairs, joined to the rounds after the
  first (only problems whose first round found too few valid inputs), one steered input then
  one built-in candidate in turn. Every one is still checked by ``requires``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...languages.verus.signature import input_params
from ...languages.verus.steered_inputs import DOMAIN_FAMILY, STEER_FAMILY, Steerer
from ...runtime.engine import Verdict
from ...values.codec import DecodeError

__all__ = ["STEER_FAMILY", "requires_tally", "steered_candidates", "steerer_for", "whole_domain"]


def steerer_for(problem: Any, spec: Any, max_len: int) -> Steerer | None:
    ref = [(p.name, p.value_type) for p in input_params(problem)]
    names = [n for n, _ in spec.params]
    if not names or len(ref) != len(names):  # constructor arguments too: not generated here
        return None
    tail = ref
    st = Steerer(spec, [(n, t) for n, (_, t) in zip(names, tail)], max_len=max_len,
                 rename={n: r for n, (r, _) in zip(names, tail)})  # fmt: skip
    return st if st.feasible else None


def whole_domain(te: Any, steer: Steerer | None, cap: int, width: int,
                 verdicts: Callable[[list[tuple[dict[str, Any], Any]]], list[Verdict]]) -> tuple[list[tuple[str, dict[str, Any], dict[str, Any]]], dict[str, Any]] | None:  # fmt: skip
    """(valid inputs as (family, raw, decoded), the ``domain`` record) or None (see the module docstring)."""
    if steer is None:
        return None
    box = steer.domain(cap)
    if box is None:
        return None
    rows = []
    for raw in box:
        try:
            rows.append((DOMAIN_FAMILY, raw, te.decode_inputs(raw)))
        except (DecodeError, TypeError, ValueError):
            return None  # a box point the codec refuses: the box is not the parameter domain
    pre = verdicts([(d, None) for _, _, d in rows])
    if any(v.is_unknown for v in pre):
        return None
    valid = [x for x, v in zip(rows, pre) if v.is_true]
    if len(valid) > width:
        return None
    rec = {"box": len(box), "inputs": len(valid), "exhausted": True,
           "note": f"domain exhausted: {len(valid)} inputs"}  # fmt: skip
    return valid, rec


def steered_candidates(steer: Steerer | None, seed: int, count: int) -> list[tuple[str, dict[str, Any]]]:
    if steer is None:
        return []
    return [(STEER_FAMILY, x) for x in steer.inputs(seed, count)]


def requires_tally(te: Any, inputs: list[dict[str, Any]],
                   verdicts: Callable[[list[tuple[dict[str, Any], Any]]], list[Verdict]]) -> dict[str, int]:  # fmt: skip
    """What ``requires`` makes of some inputs (model-written ones, when the whole domain replaced the
    candidates): counts of true / false / unknown; undecodable inputs count as false."""
    dec = []
    bad = 0
    for raw in inputs:
        try:
            dec.append(te.decode_inputs(raw))
        except (DecodeError, TypeError, ValueError):
            bad += 1
    pre = verdicts([(d, None) for d in dec])
    return {"true": sum(v.is_true for v in pre), "false": bad + sum(v.is_false for v in pre),
            "unknown": sum(v.is_unknown for v in pre)}  # fmt: skip
