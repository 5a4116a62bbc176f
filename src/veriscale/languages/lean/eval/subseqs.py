"""Questions about "all subsequences of xs" answered without building the 2^n subsequences.

Postconditions of longest-increasing- and longest-common-subsequence tasks enumerate every
subsequence with the doubling fold (``eval/doubling.py``), keep some, and ask two questions::

    let allSubseq := (xs.foldl (fun acc x => acc ++ acc.map (fun sub => x :: sub))) [[]] |>.map List.reverse
    let lens := allSubseq.filter (fun l => List.Pairwise (· < ·) l) |>.map (·.length)
    lens.contains result ∧ lens.all (· ≤ result)

On 20–24 elements that is millions of lists per check (seconds, or past the size limit: UNKNOWN).
``rewrite`` recognises such a postcondition in the IR and returns an equivalent body whose
*families* (let-bound lists of subsequences) are small runtime objects (``Family``, in
``eval/subseq_family.py``, which answers the questions); ``program.py`` compiles
that body instead of the plain one. A body that does not match exactly is left alone (None).

**Recognised families** (``T`` one of Nat, Int, Char, String, Bool — plain ``==``):

* ``S(xs)``: ``(xs.foldl F) [[]] |>.map List.reverse`` (or ``xs.foldl F [[]]`` then the map)
  with ``F`` the doubling lambda exactly as ``doubling.match`` accepts it (``List.foldl``, or
  ``Array.foldl`` over the whole array), directly or as ``f xs`` for a local
  ``let f (arr) := <that with xs = arr>``. Its elements are, for each set of positions
  ``i1 < … < ik``, the list ``[xs[i1], …, xs[ik]]`` (the fold conses later elements in front;
  the reverse restores the order): the subsequences of ``xs``, one per position set.
* ``S.filter (fun l => List.Pairwise R l)`` with ``R`` one of ``(· < ·)``, ``(· ≤ ·)``,
  ``(· > ·)``, ``(· ≥ ·)`` on Nat or Int (transitive relations): the chains of ``xs``.
* ``S(xs).filter (fun l => H.contains l)`` with ``H`` a let-bound unfiltered ``S(ys)``: the
  subsequences of ``xs`` that are also subsequences of ``ys`` (``l ∈ S(ys)`` iff ``l`` is a
  subsequence of ``ys``, as every position set of ``ys`` is enumerated).
* ``G.map (·.length)`` (optionally ``((·.length : Nat) : Int)``) of one of the above: its lengths.

**Recognised questions** — a family name may appear nowhere else (or no rewrite happens):

* lengths ``L``: ``L.contains v``, ``L.all p``, ``L.any p`` with ``p`` a *simple comparison*
  (``fun k => a ⋈ b``, ``⋈`` in < ≤ > ≥ = ≠ on Nat/Int, ``a``/``b`` a variable, a numeral,
  ``List.length``/``String.length``/``Array.size`` of a variable, or a coercion of those). These
  only depend on the *set* of lengths, so ``L`` is bound to ``(0, 1, …, M)``: every family above
  is closed under taking subsequences (a sublist of a chain is a chain; of a common subsequence,
  common) and holds ``[]``, so its set of lengths is exactly ``{0, …, M}`` with ``M`` the longest
  member's length — ``len xs``; the longest chain by the O(n²) DP over consecutive pairs, exact
  because ``R`` is transitive (a chain's consecutive pairs are in ``R``; a path whose consecutive
  pairs are in ``R`` has all its pairs in ``R``); the longest common subsequence by the O(nm) DP.
* lists ``G``: ``G.contains v`` (``v`` a subsequence of ``xs`` by the greedy scan, which finds
  an embedding iff one exists; then ``List.Pairwise R v`` on all pairs, or ``v`` a subsequence
  of ``ys``), and ``G.all p``/``G.any p`` where ``p`` uses its argument only as ``l.length`` and
  is then a simple comparison: asked of the lengths ``{0, …, M}`` instead.

A simple comparison cannot fail, so asking it of other values in another order gives the same
truth value, and never an error where the plain code had an answer.

**Fuel.** A family question charges its ``work`` (DP cells or scanned elements), drawn from a
fund per doubling fold behind the family, each holding in every check the fuel the plain code's
fold charges (``fold_charge``: ``n + 1`` when above 16, then ``len acc`` for each step where it
is above 16); once the funds are spent, questions charge nothing more. The plain code charges
that for its folds alone, before mapping and filtering their 2^n lists and asking anything;
the unchanged builtins then charge over at most ``n + 1`` lengths what they charged over the
2^n-element lists. So a check spends no more fuel than the plain code: a decided verdict stays
decided and the same, and a check the plain code gave up on (fuel, or a value over the size
limit) can be decided.
``ENABLED`` (read when the postcondition is compiled) switches the rewrite off for tests.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..elab import ir
from . import doubling
from .codegen import Compiler, gen_function
from .freevars import free_vars
from .subseq_family import HELPERS, Family, fold_charge

__all__ = ["ENABLED", "HELPERS", "Family", "compile_body", "fold_charge", "rewrite", "symbolic_postcondition"]

ENABLED = True

_SCALARS = frozenset({"Nat", "Int", "Char", "String", "Bool"})
_CHAIN_OPS = frozenset({"lt", "le", "gt", "ge"})
_CMP_OPS = frozenset({"lt", "le", "gt", "ge", "eq", "ne"})
_LENGTHS = frozenset({"List.length", "String.length", "Array.size"})


class _NoMatch(Exception):
    pass


@dataclasses.dataclass
class _Fam:
    kind: str  # "lists" or "lengths"
    filtered: bool = False


def _name(t: Any) -> str | None:
    return getattr(t, "name", None)


def _elem(t: Any) -> Any:
    args = getattr(t, "args", None)
    return args[0] if args else None


def _bltn(n: Any, name: str, nargs: int) -> bool:
    return (
        isinstance(n, ir.Call)
        and isinstance(n.target, ir.Bltn)
        and n.target.name == name
        and n.target.inst is None
        and len(n.args) == nargs
    )


def _var(n: Any, name: str | None = None) -> bool:
    return isinstance(n, ir.Var) and (name is None or n.name == name)


def _helper(name: str, args: list[Any], ty: Any) -> ir.Call:
    return ir.Call(ty=ty, target=ir.LocalFn(ty=None, name=name, arity=len(args)), args=args)  # type: ignore[arg-type]


def _empty_init(n: Any) -> bool:
    return (
        isinstance(n, ir.MkSeq)
        and len(n.elems) == 1
        and isinstance(n.elems[0], ir.MkSeq)
        and not n.elems[0].elems
    )


def _fold_source(n: Any) -> Any:
    """``xs`` when ``n`` is the doubling fold of ``xs`` from ``[[]]`` (direct or eta-applied)."""
    if isinstance(n, ir.App) and len(n.args) == 1 and isinstance(n.fn, ir.Lam) and len(n.fn.params) == 1:
        (eta,) = n.fn.params
        inner = n.fn.body
        if not (isinstance(inner, ir.Call) and _empty_init(n.args[0])):
            return None
        m = doubling.match(inner)
        if m is None or not _var(m[0], eta) or eta in free_vars(m[1]):
            return None
        if any(eta in free_vars(a) for a in inner.args[3:]):
            return None
        return m[1]
    if isinstance(n, ir.Call):
        m = doubling.match(n)
        if m is not None and _empty_init(m[0]):
            return m[1]
    return None


def _subseq_source(n: Any) -> Any:
    """``xs`` when ``n`` is ``<doubling fold of xs from [[]]>.map List.reverse`` over scalars."""
    if not _bltn(n, "List.map", 2):
        return None
    f, over = n.args
    if not (isinstance(f, ir.Bltn) and f.name == "List.reverse"):
        return None
    if _name(_elem(_elem(n.ty))) not in _SCALARS:
        return None
    return _fold_source(over)


class _Rewriter:
    def __init__(self) -> None:
        self.funs: set[str] = set()  # local functions ``fun arr => S(arr)``
        self.fams: dict[str, _Fam] = {}

    # families ---------------------------------------------------------
    def family(self, n: Any) -> tuple[Any, _Fam] | None:
        """The replacement node and kind of a family expression, or None if ``n`` is not one."""
        if _var(n) and n.name in self.fams:
            return n, self.fams[n.name]
        src = _subseq_source(n)
        if src is not None:
            return _helper("_sq_all", [self.uses(src)], n.ty), _Fam("lists")
        if (
            isinstance(n, ir.Call)
            and isinstance(n.target, ir.LocalFn)
            and n.target.name in self.funs
            and len(n.args) == 1
            and _name(_elem(_elem(n.ty))) in _SCALARS
        ):
            return _helper("_sq_all", [self.uses(n.args[0])], n.ty), _Fam("lists")
        if _bltn(n, "List.filter", 2):
            p, over = n.args
            base = self.family(over)
            if base is None or base[1].kind != "lists" or base[1].filtered:
                return None
            if not (isinstance(p, ir.Lam) and len(p.params) == 1):
                return None
            (lv,) = p.params
            body = p.body
            if isinstance(body, ir.Coe) and body.kind == "prop_bool":
                body = body.expr
            if _bltn(body, "List.Pairwise", 2):
                r, arg = body.args
                if not (_var(arg, lv) and isinstance(r, ir.Lam) and len(r.params) == 2):
                    return None
                a, b = r.params
                rb = r.body
                if not (
                    isinstance(rb, ir.Prim)
                    and rb.op in _CHAIN_OPS
                    and _name(rb.opty) in ("Nat", "Int")
                    and _var(rb.args[0], a)
                    and _var(rb.args[1], b)
                ):
                    return None
                return _helper("_sq_chain", [base[0], ir.Lit(ty=None, value=rb.op)], n.ty), _Fam(
                    "lists", True
                )  # type: ignore[arg-type]
            if _bltn(body, "List.contains", 2):
                h, arg = body.args
                if not (_var(arg, lv) and _var(h) and h.name != lv):
                    return None
                hf = self.fams.get(h.name)
                if hf is None or hf.kind != "lists" or hf.filtered:
                    return None
                return _helper("_sq_within", [base[0], h], n.ty), _Fam("lists", True)
            return None
        if _bltn(n, "List.map", 2):
            f, over = n.args
            if not _length_fn(f):
                return None
            base = self.family(over)
            if base is None or base[1].kind != "lists":
                return None
            return _helper("_sq_lengths", [base[0]], n.ty), _Fam("lengths")
        return None

    # uses ---------------------------------------------------------------
    def uses(self, n: Any) -> Any:
        """``n`` with every question about a family rewritten; raises ``_NoMatch`` on another use."""
        return _map(n, self._use)

    def _use(self, n: Any) -> Any:
        if isinstance(n, ir.Var) and n.name in self.fams:
            raise _NoMatch(n.name)
        if not (isinstance(n, ir.Call) and isinstance(n.target, ir.Bltn) and len(n.args) == 2):
            return None
        name = n.target.name
        if name not in ("List.contains", "List.all", "List.any") or n.target.inst is not None:
            return None
        fam_node, other = n.args
        if not (_var(fam_node) and fam_node.name in self.fams):
            return None
        fam = self.fams[fam_node.name]
        if name == "List.contains":
            other = self.uses(other)
            if fam.kind == "lengths":
                return ir.Call(ty=n.ty, target=n.target, args=[fam_node, other])
            return _helper("_sq_contains", [fam_node, other], n.ty)
        if not (isinstance(other, ir.Lam) and len(other.params) == 1):
            raise _NoMatch("predicate")
        (k,) = other.params
        if fam.kind == "lengths":
            if not _simple_cmp(other.body, k):
                raise _NoMatch("predicate")
            return ir.Call(ty=n.ty, target=n.target, args=[fam_node, self.uses(other)])
        body = _lengths_only(other.body, k)
        if body is None or not _simple_cmp(body, k):
            raise _NoMatch("predicate")
        lam = ir.Lam(ty=None, params=[k], body=self.uses(body))  # type: ignore[arg-type]
        return ir.Call(ty=n.ty, target=n.target, args=[_helper("_sq_lengths", [fam_node], None), lam])

    # the chain ------------------------------------------------------------
    def run(self, body: Any) -> Any:
        if isinstance(body, ir.LetFun):
            for fd in body.funs:
                if len(fd.params) == 1 and _var(_subseq_source(fd.body), fd.params[0]):
                    self.funs.add(fd.name)
            funs = [_with_body(fd, self.uses(fd.body)) for fd in body.funs]
            return dataclasses.replace(body, funs=funs, body=self.run(body.body))
        if isinstance(body, ir.Let):
            fam = self.family(body.value)
            if fam is not None:
                self.fams[body.name] = fam[1]
                value = fam[0]
            else:
                value = self.uses(body.value)
            return dataclasses.replace(body, value=value, body=self.run(body.body))
        return self.uses(body)


def _with_body(fd: ir.FunDef, body: Any) -> ir.FunDef:
    return fd if body is fd.body else dataclasses.replace(fd, body=body)


def _length_fn(f: Any) -> bool:
    if isinstance(f, ir.Bltn) and f.name == "List.length":
        return True
    if not (isinstance(f, ir.Lam) and len(f.params) == 1):
        return False
    b = f.body
    if isinstance(b, ir.Coe) and b.kind == "nat_int":
        b = b.expr
    return _bltn(b, "List.length", 1) and _var(b.args[0], f.params[0])


def _lengths_only(n: Any, k: str) -> Any:
    """``n`` with ``List.length k`` replaced by ``k`` (now a length); None if ``k`` occurs otherwise."""

    def f(m: Any) -> Any:
        if _bltn(m, "List.length", 1) and _var(m.args[0], k):
            return ir.Var(ty=m.ty, name=k)
        if _var(m, k):
            raise _NoMatch(k)
        return None

    try:
        return _map(n, f)
    except _NoMatch:
        return None


def _atom(n: Any) -> bool:
    if isinstance(n, ir.Coe) and n.kind == "nat_int":
        return _atom(n.expr)
    if isinstance(n, ir.Var | ir.Num):
        return True
    return (
        isinstance(n, ir.Call)
        and isinstance(n.target, ir.Bltn)
        and n.target.name in _LENGTHS
        and len(n.args) == 1
        and _var(n.args[0])
    )


def _simple_cmp(n: Any, k: str) -> bool:
    """``n`` is a comparison of atoms on Nat/Int (it cannot fail whatever ``k`` is)."""
    if isinstance(n, ir.Coe) and n.kind == "prop_bool":
        n = n.expr
    return (
        isinstance(n, ir.Prim)
        and n.op in _CMP_OPS
        and _name(n.opty) in ("Nat", "Int")
        and len(n.args) == 2
        and all(_atom(a) for a in n.args)
    )


_SKIP = frozenset({"ty", "opty", "var_ty", "inst", "ast", "scope", "expected", "extra"})


def _map(n: Any, f: Any) -> Any:
    """Copy-on-write rebuild of an IR tree: ``f(node)`` returns a replacement or None."""
    if isinstance(n, list):
        out = [_map(x, f) for x in n]
        return n if all(a is b for a, b in zip(out, n)) else out
    if isinstance(n, tuple):
        tout = tuple(_map(x, f) for x in n)
        return n if all(a is b for a, b in zip(tout, n)) else tout
    if not dataclasses.is_dataclass(n) or isinstance(n, type):
        return n
    r = f(n)
    if r is not None:
        return r
    changes = {}
    for fld in dataclasses.fields(n):
        if fld.name in _SKIP:
            continue
        v = getattr(n, fld.name)
        nv = _map(v, f)
        if nv is not v:
            changes[fld.name] = nv
    return dataclasses.replace(n, **changes) if changes else n


def rewrite(body: ir.Node) -> ir.Node | None:
    """``body`` with its subsequence families made symbolic (module doc), or None when it has
    none or uses one in a way not recognised."""
    rw = _Rewriter()
    try:
        out = rw.run(body)
    except _NoMatch:
        return None
    return out if rw.fams else None


def symbolic_postcondition(compiler: Compiler, g: Any) -> ir.Node | None:
    """The rewritten body of the postcondition definition ``g`` (its helpers installed in the
    compiler's namespace), or None when ``ENABLED`` is off or nothing is recognised."""
    if not ENABLED:
        return None
    body = rewrite(g.body)
    if body is not None:
        for name, fn in HELPERS.items():
            compiler.ns.setdefault(name, fn)
    return body


def compile_body(compiler: Compiler, name: str, params: list[str], body: ir.Node) -> Any:
    """``def name(params): return <body>`` compiled into the program's namespace, as the code
    generator compiles a global (one tick on entry)."""
    lines = gen_function(compiler, name, params, body, 0, ("glob", name), True, None, set(), None)
    compiler.exec_src("\n".join(lines) + "\n", name)
    compiler.drain()
    return compiler.ns[name]
