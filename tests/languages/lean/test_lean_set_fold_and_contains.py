"""Two hot builtin paths agree with the general ones: same values, same order, same fuel.

* ``List.foldl`` of ``Std.HashSet.insert`` from a set builds the set in one step
  (``builtins/list._insert_all``);
* ``List.contains``/``List.elem`` of a scalar in a short list scans it without the general
  path's calls (``builtins/support.bcontains_indexed``).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from veriscale.languages.lean.builtins import list as blist
from veriscale.languages.lean.builtins import load_all, lookup, support
from veriscale.runtime import limits
from veriscale.values.runtime import Fn, HSet

load_all()


def _spent(fn, *args) -> tuple[int, object]:  # type: ignore[no-untyped-def]
    with limits.using(limits.Budget(limits.Limits(fuel=10**6))) as b:
        out = fn(*args)
        return b.spent, out


elements = st.one_of(
    st.lists(st.integers(-3, 3), max_size=40),
    st.lists(st.text(alphabet="ab", max_size=20), max_size=12),  # strings over 16 are charged per insert
    st.lists(st.booleans(), max_size=5),
)


@settings(max_examples=300, deadline=None)
@given(xs=elements, start=st.lists(st.integers(-2, 2), max_size=3))
def test_folding_inserts_builds_the_same_set_for_the_same_fuel(xs: list, start: list) -> None:
    foldl, insert = lookup("List.foldl").impl, lookup("Std.HashSet.insert").impl
    init = HSet(start if all(type(x) is int for x in xs) else ())
    fast = _spent(foldl, Fn(2, insert), init, tuple(xs))
    general = _spent(foldl, Fn(2, lambda s, a: insert(s, a)), init, tuple(xs))  # one insert per element
    assert fast == general
    assert list(fast[1]) == list(general[1])  # (the insertion order too)


def test_the_one_step_fold_is_taken_only_where_no_step_charges() -> None:
    s = HSet((1,))
    assert list(blist._insert_all(s, (3, 1, 2, 3))) == [1, 3, 2]
    assert blist._insert_all(s, (1, 1)) is s
    assert blist._insert_all(HSet(), ("a" * 17,)) is None  # the insert wrapper would charge 17
    assert blist._insert_all(HSet(), ((1, 2),)) is None


@settings(max_examples=300, deadline=None)
@given(
    xs=st.one_of(
        st.lists(st.integers(0, 9), max_size=80), st.lists(st.text(alphabet="xy", max_size=2), max_size=70)
    ),
    a=st.one_of(st.integers(0, 9), st.text(alphabet="xy", max_size=2)),
)
def test_a_short_scan_charges_what_the_general_path_charges(xs: list, a: object) -> None:
    t = tuple(xs)
    fast = _spent(support.bcontains_indexed, t, a)
    n = len(t)
    general = _spent(lambda: (limits.charge(n if n > 16 else 1), support.bcontains(t, a))[1])
    if n < support._INDEX_FROM_LEN:
        assert fast == general
    else:
        assert fast[1] == general[1]
