"""Compound mutants (operand deletion, guard reordering, uniform swaps) and the ∀-domain weakening."""

from __future__ import annotations

from veriscale.languages.lean.mutants_compound import compound_aux_mutants, compound_mutants
from veriscale.languages.lean.weaken import weakened_specs

MAX3 = "if a >= b && a >= c then a\nelse if b >= a && b >= c then b\nelse c"


def _texts(ms):
    return [" ".join(m.text.split()) for m in ms]


def test_uniform_swap_changes_every_site():
    texts = _texts(compound_mutants(MAX3))
    assert "if a > b && a > c then a else if b > a && b > c then b else c" in texts
    # each single-site swap is mutants.py's business, not repeated here
    assert not any(t.count(">") == 1 for t in texts if "≥" in t and ">" in t)


def test_operand_deletion_and_guard_reorder():
    texts = _texts(compound_mutants(MAX3))
    assert "if a ≥ b then a else if b ≥ a && b ≥ c then b else c" in texts
    assert "if b ≥ a && b ≥ c then b else if a ≥ b && a ≥ c then a else c" in texts


def test_no_duplicates_and_no_ground_truth():
    ms = compound_mutants(MAX3)
    assert len({m.id for m in ms}) == len(ms)
    assert "if a ≥ b && a ≥ c then a else if b ≥ a && b ≥ c then b else c" not in _texts(ms)


def test_aux_mutants_name_the_helper():
    ms = compound_aux_mutants("def f (x : Nat) : Bool := x > 1 && x > 2")
    assert ms and all("in f:" in m.description for m in ms)
    assert compound_mutants("this does not parse )(") == []


def test_forall_domain_shrinks_by_one_only_for_universals():
    def shrunk(post: str) -> list[str]:
        return [s.text for s in weakened_specs(post) if "domain" in s.description]

    assert shrunk("(List.range (a.size - 2)).all (fun i => a[i]! = 0)") == [
        "(List.range (a.size - 2 - 1)).all (fun i => a[i]! = 0)"
    ]
    assert shrunk("∀ i < a.size, a[i]! = 1") == ["∀ i < a.size - 1, a[i]! = 1"]
    assert shrunk("∀ i ≤ a.size, a[i]! = 1") == ["∀ i < a.size, a[i]! = 1"]
    assert shrunk("∀ i, i < a.size → a[i]! = 1") == ["∀ i, i < a.size - 1 → a[i]! = 1"]
    # narrowing an ∃ or an .any would make the spec stronger, never weaker
    assert shrunk("∃ i < a.size, a[i]! = 1") == []
    assert shrunk("(List.range a.size).any (fun i => a[i]! = 0)") == []
