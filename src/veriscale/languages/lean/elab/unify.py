"""Metavariables and first-order unification of Lean types.

A metavariable is a ``TVar`` whose name starts with ``?``; other ``TVar``s are
rigid (the type parameters of a polymorphic definition). Assignments are
recorded on a trail so a failed or speculative unification can be undone,
which is how Lean's ``isDefEq`` behaves (it is transactional on failure).

Numerals create metavariables with a *default* (``Nat`` for ``OfNat``,
``Float`` for scientific literals); defaults are applied only when
elaboration cannot make progress otherwise, as Lean's default instances are.
"""

from __future__ import annotations

from veriscale.values.types import FLOAT, NAT, TCon, TFun, TVar, Type

__all__ = ["MetaCtx", "is_meta"]


def is_meta(t: Type) -> bool:
    return isinstance(t, TVar) and t.name.startswith("?")


class MetaCtx:
    __slots__ = ("counter", "defaults", "subst", "trail")

    def __init__(self) -> None:
        self.subst: dict[str, Type] = {}
        self.trail: list[str] = []
        self.counter = 0
        # meta name -> default type (numerals); kept in creation order
        self.defaults: dict[str, Type] = {}

    # -------------------------------------------------------------- metas
    def fresh(self) -> TVar:
        self.counter += 1
        return TVar(f"?{self.counter}")

    def fresh_num(self, default: Type = NAT) -> TVar:
        m = self.fresh()
        self.defaults[m.name] = default
        return m

    def resolve(self, t: Type) -> Type:
        """Follow assignments at the head only."""
        while isinstance(t, TVar) and t.name in self.subst:
            t = self.subst[t.name]
        return t

    def zonk(self, t: Type) -> Type:
        t = self.resolve(t)
        if isinstance(t, TCon):
            if not t.args:
                return t
            args = tuple(self.zonk(a) for a in t.args)
            return t if args == t.args else TCon(t.name, args)
        if isinstance(t, TFun):
            return TFun(self.zonk(t.arg), self.zonk(t.res))
        return t

    def has_metas(self, t: Type) -> bool:
        t = self.resolve(t)
        if isinstance(t, TVar):
            return is_meta(t)
        if isinstance(t, TFun):
            return self.has_metas(t.arg) or self.has_metas(t.res)
        return any(self.has_metas(a) for a in t.args)

    # -------------------------------------------------------------- trail
    def mark(self) -> int:
        return len(self.trail)

    def rollback(self, mark: int) -> None:
        while len(self.trail) > mark:
            name = self.trail.pop()
            del self.subst[name]

    def drop_defaults_since(self, n: int) -> None:
        """Forget the numeral defaults recorded after the first ``n`` (a failed attempt's, whose
        metavariables are discarded with it): defaults only grow by insertion, in order."""
        if len(self.defaults) > n:
            for name in list(self.defaults)[n:]:
                del self.defaults[name]

    def assign(self, name: str, t: Type) -> None:
        self.subst[name] = t
        self.trail.append(name)

    # ---------------------------------------------------------- unification
    def occurs(self, name: str, t: Type) -> bool:
        t = self.resolve(t)
        if isinstance(t, TVar):
            return t.name == name
        if isinstance(t, TFun):
            return self.occurs(name, t.arg) or self.occurs(name, t.res)
        return any(self.occurs(name, a) for a in t.args)

    def unify(self, a: Type, b: Type) -> bool:
        """Unify; on failure every assignment made by this call is undone."""
        mark = self.mark()
        if self._unify(a, b):
            return True
        self.rollback(mark)
        return False

    def _unify(self, a: Type, b: Type) -> bool:
        a = self.resolve(a)
        b = self.resolve(b)
        if a is b:
            return True
        if isinstance(a, TVar) and is_meta(a):
            if isinstance(b, TVar) and b.name == a.name:
                return True
            return self._bind(a, b)
        if isinstance(b, TVar) and is_meta(b):
            return self._bind(b, a)
        if isinstance(a, TVar) or isinstance(b, TVar):
            return isinstance(a, TVar) and isinstance(b, TVar) and a.name == b.name
        if isinstance(a, TFun):
            return isinstance(b, TFun) and self._unify(a.arg, b.arg) and self._unify(a.res, b.res)
        if isinstance(b, TFun):
            return False
        if a.name != b.name or len(a.args) != len(b.args):
            return False
        return all(self._unify(x, y) for x, y in zip(a.args, b.args))

    def _bind(self, m: TVar, t: Type) -> bool:
        if self.occurs(m.name, t):
            return False
        # a numeral meta can only become a numeric type or another meta
        d = self.defaults.get(m.name)
        if d is not None:
            if isinstance(t, TVar) and is_meta(t):
                # keep the default on the representative
                if t.name not in self.defaults:
                    self.defaults[t.name] = d
            elif not _numeric_ok(t, d):
                return False
        self.assign(m.name, t)
        return True

    def same(self, a: Type, b: Type) -> bool:
        """Definitional equality without assigning metavariables (Lean's new MCtx depth)."""
        a = self.resolve(a)
        b = self.resolve(b)
        if isinstance(a, TVar) or isinstance(b, TVar):
            return isinstance(a, TVar) and isinstance(b, TVar) and a.name == b.name
        if isinstance(a, TFun):
            return isinstance(b, TFun) and self.same(a.arg, b.arg) and self.same(a.res, b.res)
        if isinstance(b, TFun):
            return False
        if a.name != b.name or len(a.args) != len(b.args):
            return False
        return all(self.same(x, y) for x, y in zip(a.args, b.args))

    # ------------------------------------------------------------ defaults
    def pending_defaults(self) -> list[tuple[str, Type]]:
        out = []
        for name, d in self.defaults.items():
            r = self.resolve(TVar(name))
            if isinstance(r, TVar) and is_meta(r):
                out.append((r.name, d))
        return out

    def apply_defaults(self) -> bool:
        """Assign every still-unknown numeral type its default; True if anything changed."""
        changed = False
        for name, d in self.pending_defaults():
            r = self.resolve(TVar(name))
            if isinstance(r, TVar) and is_meta(r):
                self.assign(r.name, d)
                changed = True
        return changed


_NUMERIC_OFNAT = frozenset({"Nat", "Int", "Float", "UInt8", "UInt16", "UInt32", "UInt64", "USize", "Fin"})


def _numeric_ok(t: Type, default: Type) -> bool:
    if not isinstance(t, TCon):
        return isinstance(t, TVar)  # rigid type variable: checked by instance resolution later
    if default == FLOAT:
        return t.name == "Float"
    return t.name in _NUMERIC_OFNAT
