"""Run adversaries on expected inputs; keep only genuinely wrong outputs; build the kill matrix.

An adversary output that differs from the expected output is kept as an
unexpected output only when the ground-truth postcondition evaluates FALSE on
it: a differing output the postcondition accepts is a *correct alternative*
(several longest common subsequences, several valid indices, …) and an
UNKNOWN verdict proves nothing, so neither is kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...languages.adversary import Adversary, CandidateSpec
from ...runtime.engine import OutcomeKind, Truth
from ...values import codec
from .outmut import output_mutations

__all__ = ["AttackConfig", "AttackResult", "Case", "Unexpected", "attack"]

KILLED, SURVIVED, NO_VALUE = "1", "0", "?"


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    values: Mapping[str, Any]
    output: Any


@dataclass(frozen=True, slots=True)
class AttackConfig:
    cap: int = 10  # unexpected outputs kept per expected case
    minimum: int = 3  # rows with fewer are topped up by direct output mutation
    max_specs: int = 24  # weakened specs evaluated on each wrong output
    max_timeouts: int = 1  # an adversary timing out this often is dropped (non-terminating mutants)
    adversary_fuel: int = 1_000_000  # evaluation steps of one adversary run (deterministic; native engine)
    grade_fuel: int = 500_000  # steps of one ground-truth verdict that grades a row (native engine)

    @classmethod
    def from_settings(cls, s: Any) -> AttackConfig:
        """From the pipeline config's ``outputs`` section (``OutputsSettings``)."""
        return cls(s.cap, s.minimum, s.max_specs, s.max_timeouts, s.adversary_fuel, s.grade_fuel)


@dataclass
class Unexpected:
    output: Any
    key: str
    adversaries: list[str] = field(default_factory=list)  # ids, in adversary order
    accepted_by: list[str] = field(default_factory=list)  # candidate spec ids
    source: str = "adversary"  # or "output-mutation"


@dataclass
class AttackResult:
    adversaries: list[Adversary]  # kept, in input order
    matrix: list[str]  # per kept adversary: one KILLED/SURVIVED/NO_VALUE char per case
    unexpected: list[list[Unexpected]]  # per case, capped and ordered
    dropped: Counter[str] = field(default_factory=Counter)  # adversaries dropped, by reason
    verdicts: Counter[str] = field(default_factory=Counter)  # ground-truth verdicts on differing outputs
    expected_verdicts: list[str] = field(default_factory=list)  # per case: the verdict on its expected output


def _keep_adversary(adv: Adversary, row: str) -> str | None:
    """Why ``adv`` is dropped (None: kept)."""
    if KILLED not in row and SURVIVED not in row:
        return "no-value"
    if KILLED not in row:
        return "equivalent"
    if adv.origin.startswith("mutant:") and SURVIVED not in row:
        return "mutant-kills-all"  # mutants must differ on some but not all expected inputs
    return None


def _select(cands: list[Unexpected], cap: int, order: Mapping[str, int]) -> list[Unexpected]:
    """Accepted-by-a-candidate-spec first, then variety across adversaries."""
    accepted = [u for u in cands if u.accepted_by]
    rest = [u for u in cands if not u.accepted_by]
    out: list[Unexpected] = []
    for group in (accepted, rest):
        pool = list(group)
        used: set[str] = set()
        while pool and len(out) < cap:
            # prefer an output from an adversary origin not used yet, else the first left
            pick = next(
                (u for u in pool if not any(order.get(a, "") in used for a in u.adversaries)), pool[0]
            )
            pool.remove(pick)
            used.update(str(order.get(a, "")) for a in pick.adversaries)
            out.append(pick)
    return out


def attack(
    task: Any,
    engine: Any,
    cases: Sequence[Case],
    adversaries: Sequence[Adversary],
    specs: Sequence[CandidateSpec],
    config: AttackConfig | None = None,
    adversary_engine: Any = None,
) -> AttackResult:
    """Run every adversary on every case (no sampling) and collect the genuinely wrong outputs.

    ``adversary_engine`` (default ``engine``) runs the adversaries; it may have
    tighter limits, since mutants often do not terminate. Verdicts always come
    from ``engine``.
    """
    cfg = config or AttackConfig()
    adv_engine = adversary_engine if adversary_engine is not None else engine
    ret = task.signature.return_type
    structs = task.structs
    exp_keys = [codec.key(ret, c.output, structs=structs) for c in cases]
    gt = engine.for_task(task)
    spec_engines = [
        # a model spec carries its own precondition and helpers; a weakened one only a postcondition
        (s.id, engine.for_task(task, overrides=getattr(s, "overrides", None) or {"postcond": s.text}))
        for s in specs[: cfg.max_specs]
    ]

    result = AttackResult([], [], [])
    found: list[dict[str, Unexpected]] = [{} for _ in cases]
    for adv in adversaries:
        te = adv_engine.for_task(task, overrides=adv.overrides)
        row: list[str] = []
        outs: list[tuple[int, Any, str]] = []
        timeouts = 0
        for i, c in enumerate(cases):
            o = te.run(c.values)
            if not o.ok:
                timeouts += o.kind is OutcomeKind.TIMEOUT
                if timeouts >= cfg.max_timeouts:
                    break
                row.append(NO_VALUE)
                continue
            try:
                k = codec.key(ret, o.value, structs=structs)
            except Exception:  # a value the codec cannot encode is not usable
                row.append(NO_VALUE)
                continue
            if k == exp_keys[i]:
                row.append(SURVIVED)
            else:
                row.append(KILLED)
                outs.append((i, o.value, k))
        text_row = "".join(row)
        why = "timeout" if timeouts >= cfg.max_timeouts else _keep_adversary(adv, text_row)
        if why is not None:
            result.dropped[why] += 1
            continue
        result.adversaries.append(adv)
        result.matrix.append(text_row)
        for i, value, k in outs:
            u = found[i].get(k)
            if u is None:
                found[i][k] = u = Unexpected(value, k)
            u.adversaries.append(adv.id)

    origin_of = {a.id: a.origin for a in result.adversaries}
    order = {a: origin_of[a] for a in origin_of}

    def judge(i: int, u: Unexpected) -> bool:
        v = gt.postcondition(cases[i].values, u.output)
        result.verdicts[v.truth.name.lower()] += 1
        if v.truth is not Truth.FALSE:
            return False
        u.accepted_by = [
            sid for sid, se in spec_engines if se.postcondition(cases[i].values, u.output).is_true
        ]
        return True

    for i, c in enumerate(cases):
        # A row whose expected output the ground-truth postcondition does not accept (UNKNOWN:
        # beyond the limits) cannot grade a specification; it is marked and gets no wrong outputs.
        truth = gt.postcondition(c.values, c.output).truth
        result.expected_verdicts.append(truth.name.lower())
        if truth is not Truth.TRUE:
            result.unexpected.append([])
            continue
        kept = [u for u in found[i].values() if judge(i, u)]
        if len(kept) < cfg.minimum:
            have = {exp_keys[i], *found[i].keys()}
            for v in output_mutations(ret, c.output):
                if len(kept) >= cfg.minimum:
                    break
                try:
                    k = codec.key(ret, v, structs=structs)
                except Exception:
                    continue
                if k in have:
                    continue
                have.add(k)
                u = Unexpected(v, k, source="output-mutation")
                if judge(i, u):
                    kept.append(u)
        result.unexpected.append(_select(kept, cfg.cap, order))
    return result
