"""Free local variables of IR terms (for closure capture and quantifier bounds)."""

from __future__ import annotations

from typing import Any

from ..elab import ir

__all__ = ["free_vars", "pat_vars"]


def pat_vars(p: ir.Pat, acc: set[str] | None = None) -> set[str]:
    if acc is None:
        acc = set()
    if isinstance(p, ir.PVar):
        acc.add(p.name)
    elif isinstance(p, ir.PAs):
        acc.add(p.name)
        pat_vars(p.pat, acc)
    elif isinstance(p, ir.PCons):
        pat_vars(p.head, acc)
        pat_vars(p.tail, acc)
    elif isinstance(p, ir.PSeq):
        for q in p.elems:
            pat_vars(q, acc)
    elif isinstance(p, ir.PPair):
        pat_vars(p.fst, acc)
        pat_vars(p.snd, acc)
    elif isinstance(p, ir.PSome):
        pat_vars(p.pat, acc)
    elif isinstance(p, ir.PStruct):
        for q in p.fields:
            pat_vars(q, acc)
    elif isinstance(p, ir.PSucc):
        pat_vars(p.pat, acc)
    return acc


def free_vars(n: Any) -> set[str]:
    out: set[str] = set()
    _fv(n, out)
    return out


def _stmts(ss: list[Any], out: set[str]) -> None:
    bound: set[str] = set()
    acc: set[str] = set()
    for s in ss:
        here: set[str] = set()
        if isinstance(s, ir.DLet):
            _fv(s.value, here)
            acc |= here - bound
            bound.add(s.name)
            continue
        if isinstance(s, ir.DLetPat):
            _fv(s.value, here)
            acc |= here - bound
            bound |= pat_vars(s.pat)
            continue
        if isinstance(s, ir.DFor):
            if s.iterable is not None:
                _fv(s.iterable, here)
            if s.range is not None:
                for x in s.range:
                    if x is not None:
                        _fv(x, here)
            inner: set[str] = set()
            _stmts(s.body, inner)
            here |= inner - pat_vars(s.pat)
        elif isinstance(s, ir.DWhile):
            if s.cond is not None:
                _fv(s.cond, here)
            _stmts(s.body, here)
        elif isinstance(s, ir.DIf):
            _fv(s.cond, here)
            _stmts(s.then, here)
            _stmts(s.els, here)
        elif isinstance(s, ir.DMatch):
            for d in s.discrs:
                _fv(d, here)
            for arm in s.arms:
                inner = set()
                _stmts(arm.rhs, inner)
                pv: set[str] = set()
                for p in arm.pats:
                    pat_vars(p, pv)
                here |= inner - pv
        elif isinstance(s, ir.DReturn | ir.DEval):
            _fv(s.value, here)
        acc |= here - bound
    out |= acc


def _fv(n: Any, out: set[str]) -> None:
    if n is None:
        return
    t = type(n)
    if t is ir.Var:
        out.add(n.name)
        return
    if t is ir.LocalFn:
        out.add(n.name)
        return
    if t is list or t is tuple:
        for x in n:
            _fv(x, out)
        return
    if t is ir.Postponed:
        _fv(n.node, out)
        return
    if t is ir.Lam:
        inner: set[str] = set()
        _fv(n.body, inner)
        out |= inner - set(n.params)
        return
    if t is ir.Let:
        _fv(n.value, out)
        inner = set()
        _fv(n.body, inner)
        inner.discard(n.name)
        out |= inner
        return
    if t is ir.LetFun:
        inner = set()
        for f in n.funs:
            fi: set[str] = set()
            _fv(f.body, fi)
            inner |= fi - set(f.params)
        _fv(n.body, inner)
        out |= inner - {f.name for f in n.funs}
        return
    if t is ir.Match:
        for d in n.discrs:
            _fv(d, out)
        for arm in n.arms:
            inner = set()
            _fv(arm.rhs, inner)
            pv: set[str] = set()
            for p in arm.pats:
                pat_vars(p, pv)
            out |= inner - pv
        return
    if t is ir.Quant:
        if n.binder_bound is not None:
            _fv(n.binder_bound[1], out)
        inner = set()
        _fv(n.body, inner)
        inner.discard(n.var)
        out |= inner
        return
    if t is ir.DoBlock:
        _stmts(n.stmts, out)
        return
    if hasattr(n, "__dataclass_fields__") and t.__module__.endswith("elab.ir"):
        for f in n.__dataclass_fields__:
            if f in ("ty", "opty", "var_ty", "inst"):
                continue
            v = getattr(n, f)
            if isinstance(v, list | tuple) or hasattr(v, "__dataclass_fields__"):
                _fv(v, out)
