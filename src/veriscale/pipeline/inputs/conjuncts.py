"""Per-conjunct reject inputs: for each conjunct of the ground-truth precondition, an input that
violates that conjunct and satisfies all the others.

Such an input is exactly what a precondition *missing* that conjunct wrongly
accepts, so a suite holding one per conjunct fails every dropped or relaxed
conjunct (the boundary of the relaxation permitting: the search prefers inputs
one mutation step away from a valid input, i.e. at the boundary).

**Conjuncts.** The precondition's body (under its leading ``let``s, which every
conjunct keeps) is split at top-level ``∧``. A top-level conjunct that is a
universal statement over a conjunction — ``∀ x, H₁ → … → A ∧ B`` or
``xs.all (fun x => A ∧ B)`` — is also split into its *sub-conjuncts*
(``∀ x, H₁ → … → A``, …). Labels: ``"k"`` for top-level conjunct k, ``"k.j"``
for sub-conjunct j of conjunct k. A precondition with one conjunct and no
sub-conjuncts has nothing to split (its reject inputs already violate it alone).

**Target of a label.** Top-level ``k``: conjunct k FALSE, every other
top-level conjunct TRUE. Sub-conjunct ``k.j``: sub-conjunct j FALSE, the other
sub-conjuncts of k TRUE, every other top-level conjunct TRUE. Each conjunct is
evaluated as a precondition of its own (the ground truth's aux definitions in
scope), so UNKNOWN verdicts never count as either.

**Search.** (1) The reject candidates the stage already has (seeds, mutants,
small-scope pool), in their order: the first hitting a target covers it.
(2) For each label still uncovered, guided mutation: up to ``attempts`` draws,
each taking a valid input (round-robin over the expected candidates, in order)
and applying one or two typed mutation steps (``Mutator.schema``) to one
parameter; the first draw hitting the target covers it (and any other
uncovered target it hits). A label nobody covers is reported with the number
of candidates tried. All randomness comes from the stage's seeded ``Random``.
(3) *Boundary shrink*: each covering input's integers (scalars and the
elements of lists, arrays, tuples and options, in value order) are moved one
step toward 0 at a time, at most ``SHRINK_STEPS`` steps each, while the input
still meets the same target; the result (a new reject input when it changed)
covers the label instead. So ``d < 10`` is covered by a digit 10, the input a
relaxed ``d ≤ 10`` wrongly accepts, rather than by whatever larger digit the
search met first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...languages.adversary import Conjunct
from ...languages.registry import language_of
from ...values.runtime import Some
from .mutate import Candidate, Mutator, input_key

__all__ = ["ConjunctSearch", "search_conjunct_rejects"]

SHRINK_STEPS = 64


def _int_paths(v: Any, path: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Paths to the integer leaves of a runtime value (bools are not integers here)."""
    if type(v) is int:
        return [path]
    if isinstance(v, tuple):
        return [p for i, x in enumerate(v) for p in _int_paths(x, (*path, i))]
    if isinstance(v, Some):
        return _int_paths(v.val, (*path, -1))
    return []


def _get(v: Any, path: tuple[int, ...]) -> Any:
    for i in path:
        v = v.val if i == -1 else v[i]
    return v


def _set(v: Any, path: tuple[int, ...], x: Any) -> Any:
    if not path:
        return x
    i, rest = path[0], path[1:]
    if i == -1:
        return Some(_set(v.val, rest, x))
    return (*v[:i], _set(v[i], rest, x), *v[i + 1 :])


@dataclass
class ConjunctSearch:
    """Per label: the covering candidate (None: not found) and the candidates tried."""

    conjuncts: list[Conjunct] = field(default_factory=list)
    covered: dict[str, Candidate | None] = field(default_factory=dict)
    tried: dict[str, int] = field(default_factory=dict)
    new: list[Candidate] = field(default_factory=list)  # reject inputs found by guided mutation
    unusable: list[str] = field(default_factory=list)  # labels whose conjunct does not evaluate

    def violations(self) -> dict[str, list[str]]:
        """Candidate key → the labels it covers."""
        out: dict[str, list[str]] = {}
        for label, c in self.covered.items():
            if c is not None:
                out.setdefault(c.key, []).append(label)
        return out

    def report(self) -> list[dict[str, Any]]:
        return [
            {
                "label": c.label,
                "text": c.text,
                "covered_by": (cov.id if (cov := self.covered.get(c.label)) is not None else None),
                "tried": self.tried.get(c.label, 0),
                **({"unusable": True} if c.label in self.unusable else {}),
            }
            for c in self.conjuncts
        ]


def _hits(verdicts: dict[str, Any], labels: Sequence[str]) -> list[str]:
    """The labels whose target these per-label verdicts meet (see the module docstring)."""
    tops = [lb for lb in labels if "." not in lb]
    out = []
    for lb in labels:
        if not verdicts[lb].is_false:
            continue
        k = lb.split(".")[0]
        others = [t for t in tops if t != k]
        if "." in lb:
            others += [s for s in labels if s.startswith(k + ".") and s != lb]
        if all(verdicts[o].is_true for o in others):
            out.append(lb)
    return out


def search_conjunct_rejects(
    engine: Any,
    task: Any,
    precond_text: str,
    rejects: Sequence[Candidate],
    valid: Sequence[Candidate],
    mutator: Mutator,
    seen: set[str],
    attempts: int = 200,
    ground_truth: Any = None,
) -> ConjunctSearch:
    """Find one covering reject input per conjunct label (see the module docstring).

    ``engine`` builds one task engine per conjunct; ``ground_truth`` (the task's own engine)
    must find a mutant's whole precondition FALSE before it counts (a reject input for sure)."""
    out = ConjunctSearch(language_of(task).split_conjuncts(precond_text))
    if not out.conjuncts:
        return out
    tes = {c.label: engine.for_task(task, {"precond": c.text}) for c in out.conjuncts}
    labels = [c.label for c in out.conjuncts]
    out.covered = dict.fromkeys(labels)
    out.tried = dict.fromkeys(labels, 0)
    params = mutator.params
    structs = mutator.structs

    def verdicts(values: dict[str, Any]) -> dict[str, Any]:
        return {lb: te.precondition(values) for lb, te in tes.items()}

    def consider(cand: Candidate) -> None:
        open_ = [lb for lb in labels if out.covered[lb] is None]
        for lb in open_:
            out.tried[lb] += 1
        v = verdicts(cand.values)
        for lb in _hits(v, labels):
            if out.covered[lb] is None:
                out.covered[lb] = cand

    for cand in rejects:
        if all(c is not None for c in out.covered.values()):
            break
        consider(cand)
    # labels no probe could evaluate are not searched further (reported as unusable)
    if valid:
        probe = verdicts(valid[0].values)
        out.unusable = [
            lb for lb in labels if probe[lb].is_unknown and probe[lb].category in ("parse", "elab")
        ]
    mutable = [(n, t) for n, t in params if (n, t) in mutator.mutable]
    if not valid or not mutable:
        return out
    rng = mutator.rng
    for n_try in range(attempts):
        open_ = [lb for lb in labels if out.covered[lb] is None and lb not in out.unusable]
        if not open_:
            break
        base = valid[n_try % len(valid)]
        values = dict(base.values)
        name, t = mutable[rng.randrange(len(mutable))]
        for _ in range(1 + rng.randrange(2)):
            values[name] = mutator.schema(t, values[name])
        key = input_key(params, values, structs)
        if key in seen or (ground_truth is not None and not ground_truth.precondition(values).is_false):
            continue
        cand = Candidate(values, key, "conjunct-search", parent=base.key, steps=1)
        before = {lb for lb in labels if out.covered[lb] is None}
        consider(cand)
        if any(out.covered[lb] is cand for lb in before):
            seen.add(key)
            out.new.append(cand)
    for lb in labels:
        cand = out.covered[lb]
        if cand is None:
            continue
        shrunk = _shrink(cand, lb, labels, verdicts, params, structs, seen, ground_truth)
        if shrunk is not cand:
            seen.add(shrunk.key)
            out.new.append(shrunk)
            out.covered[lb] = shrunk
    return out


def _shrink(
    cand: Candidate,
    label: str,
    labels: Sequence[str],
    verdicts: Any,
    params: Sequence[tuple[str, Any]],
    structs: Any,
    seen: set[str],
    ground_truth: Any,
) -> Candidate:
    """Move the covering input's integers toward 0 while it still meets ``label``'s target."""
    values = dict(cand.values)
    changed = False
    for name, _t in params:
        for path in _int_paths(values[name]):
            for _ in range(SHRINK_STEPS):
                x = _get(values[name], path)
                if x == 0:
                    break
                trial = {**values, name: _set(values[name], path, x - 1 if x > 0 else x + 1)}
                if label not in _hits(verdicts(trial), labels):
                    break
                if ground_truth is not None and not ground_truth.precondition(trial).is_false:
                    break
                values, changed = trial, True
    if not changed:
        return cand
    key = input_key(params, values, structs)
    if key in seen:
        return cand
    return Candidate(values, key, "conjunct-search", parent=cand.key, steps=1)
