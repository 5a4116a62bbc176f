"""Unexpected outputs searched for each candidate specification the adversaries' outputs do not kill.

A candidate specification (a weakened ground-truth postcondition, or a model's)
is *killed* by an unexpected output it accepts while the ground-truth
postcondition rejects it. After the attack (``adversaries.attack``) some
candidates may be killed by no kept output; for each of them, in order:

1. rows in case order; per row, the typed output mutations of its expected
   output (``typed_output_mutations``) in their order;
2. the first mutation that the candidate accepts (TRUE) and the ground truth
   rejects (FALSE) joins that row's unexpected outputs (source
   ``"spec-search"``), with every candidate that accepts it recorded in
   ``accepted_by`` — so one output may kill several candidates;
3. at most ``max_checks`` candidate verdicts per candidate; a candidate still
   alive is a *survivor* (possibly equivalent to the ground truth on these
   inputs), listed with the checks spent.

Typed output mutations of a value ``v`` (beyond ``outmut.output_mutations``):
integers ±1 and at 0 / -1; for sequences and strings, each element dropped,
duplicated in place, replaced by its ±1 / boundary neighbours (recursively, so
an inner collection one element longer or shorter appears), each adjacent pair
swapped, and an element inserted at the front and at the end; ``some``/``none``
flips; one tuple component changed. Order is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...runtime.engine import Truth
from ...values import codec
from ...values.runtime import Some, default_value
from ...values.types import TCon, Type
from .outmut import output_mutations

__all__ = ["WeakenedKills", "kill_weakened_specs", "typed_output_mutations"]

MAX_CHECKS = 400
MAX_MUTATIONS = 120


def _int_near(v: int) -> list[int]:
    return [v + 1, v - 1, 0, -1]


def typed_output_mutations(t: Type, v: Any, depth: int = 0) -> list[Any]:
    """Values of ``t`` one typed edit away from ``v`` (may include ``v``; callers compare keys)."""
    if not isinstance(t, TCon) or depth > 3:
        return []
    n = t.name
    if n in ("Int",) and type(v) is int:
        return _int_near(v)
    if n in ("Nat", "UInt8") and type(v) is int:
        return [x for x in _int_near(v) if x >= 0]
    if n in ("List", "Array") and isinstance(v, tuple) and t.args:
        el = t.args[0]
        out: list[Any] = []
        for i in range(len(v)):
            out.append(v[:i] + v[i + 1 :])  # dropped
            out.append(v[: i + 1] + v[i:])  # duplicated in place
        for i in range(len(v) - 1):
            out.append((*v[:i], v[i + 1], v[i], *v[i + 2 :]))  # adjacent swap
        for i, x in enumerate(v):
            for y in typed_output_mutations(el, x, depth + 1)[:12]:
                out.append((*v[:i], y, *v[i + 1 :]))
        try:
            d = default_value(el)
            out += [(d, *v), (*v, d)]
        except Exception:  # no default for this element type
            pass
        return out
    if n == "String" and isinstance(v, str):
        out_s = [v[:i] + v[i + 1 :] for i in range(len(v))] + [v[: i + 1] + v[i:] for i in range(len(v))]
        out_s += [v[:i] + v[i + 1] + v[i] + v[i + 2 :] for i in range(len(v) - 1)]
        return [*out_s, "a" + v, v + "a"]
    if n == "Option" and t.args:
        if v is None:
            return output_mutations(t, v, depth)
        return [None] + [Some(x) for x in typed_output_mutations(t.args[0], v.val, depth + 1)]
    if n == "Prod" and len(t.args) == 2 and isinstance(v, tuple) and len(v) == 2:
        a, b = t.args
        return [(x, v[1]) for x in typed_output_mutations(a, v[0], depth + 1)] + [
            (v[0], y) for y in typed_output_mutations(b, v[1], depth + 1)
        ]
    return output_mutations(t, v, depth)


@dataclass
class WeakenedKills:
    added: list[tuple[int, Any]] = field(default_factory=list)  # (case index, Unexpected)
    survivors: list[dict[str, Any]] = field(default_factory=list)  # {"id", "checks"}

    def report(self) -> dict[str, Any]:
        return {"added": len(self.added), "survivors": self.survivors}


def kill_weakened_specs(
    task: Any,
    engine: Any,
    cases: Sequence[Any],
    unexpected: Sequence[Sequence[Any]],
    expected_verdicts: Sequence[str],
    specs: Sequence[Any],
    make_unexpected: Any,
    max_checks: int = MAX_CHECKS,
) -> WeakenedKills:
    """Search outputs for the candidates no kept output kills (see the module docstring).

    ``cases``/``unexpected``/``expected_verdicts`` are the attack's (per case); ``specs`` the
    candidates it judged; ``make_unexpected(value, key)`` builds an ``Unexpected`` record."""
    ret, structs = task.signature.return_type, task.structs
    killed = {sid for row in unexpected for u in row for sid in u.accepted_by}
    todo = [s for s in specs if s.id not in killed]
    out = WeakenedKills()
    if not todo:
        return out
    gt = engine.for_task(task)
    spec_tes = {
        s.id: engine.for_task(task, overrides=getattr(s, "overrides", None) or {"postcond": s.text})
        for s in specs
    }
    have = [{u.key for u in row} for row in unexpected]
    for spec in todo:
        if spec.id in killed:
            continue
        checks = 0
        se = spec_tes[spec.id]
        for i, c in enumerate(cases):
            if checks >= max_checks or spec.id in killed:
                break
            if expected_verdicts[i] != "true":
                continue
            try:
                exp_key = codec.key(ret, c.output, structs=structs)
            except Exception:
                continue
            for m in typed_output_mutations(ret, c.output)[:MAX_MUTATIONS]:
                try:
                    k = codec.key(ret, m, structs=structs)
                except Exception:
                    continue
                if k == exp_key or k in have[i]:
                    continue
                checks += 1
                if not se.postcondition(c.values, m).is_true:
                    if checks >= max_checks:
                        break
                    continue
                if gt.postcondition(c.values, m).truth is not Truth.FALSE:
                    continue
                u = make_unexpected(m, k)
                u.source = "spec-search"
                u.accepted_by = [sid for sid, te in spec_tes.items() if te.postcondition(c.values, m).is_true]
                have[i].add(k)
                killed.update(u.accepted_by)
                out.added.append((i, u))
                break
        if spec.id not in killed:
            out.survivors.append({"id": spec.id, "checks": checks})
    return out
