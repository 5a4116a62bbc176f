"""A sequence binder's length bounded by the negated consequent of its ``forall``.

``forall|s: Seq<T>| P(s) ==> s.len() >= e`` can only be falsified by an ``s`` with ``P(s)`` and
``s.len() < e``: instances where the consequent holds make the body true whatever ``P`` says. So the
negated consequent (``s.len() < e``) is a sound upper bound of the length *for the enumeration of this
quantifier* (a complete enumeration of the sequences within it decides the ``forall``: every
instance outside it is true). It is used only where the conjuncts leave the length without an upper
bound or a fixed value (an existing finite bound is not replaced; a wrong guess cannot shrink a
domain that was already complete). ``exists`` and ``choose`` never get it (``negated_consequent`` is
None for them).
"""

from __future__ import annotations

from .ast import Expr
from .bounds import BinderPlan, _derive, _relations, _replace_len

__all__ = ["with_negated_consequent"]


def with_negated_consequent(
    lp: BinderPlan,
    neg: Expr,
    x: str,
    names: list[str],
    allowed: set[str],
    len_rels: list[tuple[str, Expr, Expr, bool]],
) -> BinderPlan:
    """The length plan of sequence binder ``x`` re-derived with the relations of ``neg`` (the negated
    consequent, ``x.len()`` renamed as in ``len_rels``) added; ``lp`` unchanged when that gives no upper
    bound (e.g. the consequent does not mention the length)."""
    extra = [(kd, _replace_len(a, x), _replace_len(b, x), st) for kd, a, b, st in _relations(neg)]
    if not extra:
        return lp
    wider = _derive(lp.name, names, len_rels + extra, allowed, None)
    return wider if wider.uppers or wider.fixed else lp
