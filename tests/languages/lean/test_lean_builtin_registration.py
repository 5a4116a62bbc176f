"""Every builtin goes through the one registration path, which charges fuel (issue 15 item 6)."""

from __future__ import annotations

from veriscale.languages.lean.builtins import registry
from veriscale.languages.lean.builtins.registry import BUILTINS
from veriscale.languages.lean.elab.tyexpr import _BUILTIN_TYPES
from veriscale.runtime import limits
from veriscale.values.types import TYPE_CONSTRUCTORS, parse_type


def _charged(b: registry.Builtin) -> bool:
    return hasattr(b.impl, "__wrapped__") or getattr(b.impl, "self_charging", False)


def test_every_builtin_is_charged_or_charges_itself() -> None:
    uncharged = sorted(name for name, b in BUILTINS.items() if not _charged(b))
    assert uncharged == []


def test_builtins_registered_with_proof_parameters_are_charged() -> None:
    # ``Array.set``/``Array.swap``/``List.head`` were registered by a second path that skipped the charge.
    xs = tuple(range(1000))
    for name, args in (("Array.set", (xs, 3, 7, None)), ("Array.swap", (xs, 1, 2, None, None))):
        b = BUILTINS[name]
        budget = limits.Budget()
        with limits.using(budget):
            b.impl(*args)
        assert budget.spent >= len(xs), name
    b = BUILTINS["List.head"]
    budget = limits.Budget()
    with limits.using(budget):
        assert b.impl(xs, None) == 0
    assert budget.spent >= len(xs)


def test_one_type_constructor_table() -> None:
    # every entry of the elaborator's table is the shared one, or a notation for one of its types
    assert {canon: arity for _name, (canon, arity) in _BUILTIN_TYPES.items()} == TYPE_CONSTRUCTORS
    assert {name for name, (canon, _a) in _BUILTIN_TYPES.items() if name != canon} == {"ℕ", "ℤ"}
    # the dataset codec also accepts the names that ``open Std`` makes short
    assert parse_type("HashMap Int Nat") == parse_type("Std.HashMap Int Nat")
