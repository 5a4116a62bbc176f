"""Equivalence of two ``requires`` with z3, every non-equivalence confirmed by the exact evaluator.

``requires_equivalence(given, answer, target)`` compares the ``requires`` of the
target function in two Verus sources (the ground truth and an answer). The
answer's parameters are bound to the ground truth's by position.

1. **Same tokens** (every clause) and the same definitions of every spec fn they call (and those
   call, ``requires_calls.same_callees``): equivalent, no solver needed.
2. **z3**, when both fall in the fragment below: ``Not(P == Q)`` is checked,
   first with every vector at most ``SMALL_LEN`` long (a small witness), then
   without that cap. ``unsat`` → EQUIVALENT. ``sat`` → the model is turned into
   concrete inputs and **both** ``requires`` are evaluated on them by the exact
   evaluator (``SpecProgram.requires_verdict``): only when one is TRUE and the
   other FALSE is the pair NOT_EQUIVALENT, with that witness and its category
   (``pre``: the answer rejects a valid input — it is stronger; ``post``
   naming kept from the paper is not used here). A model the evaluator does not
   confirm (a translation gap) gives UNKNOWN, never a verdict.
3. **Boundary testing** otherwise: inputs built from the small values and the
   integer literals of both clauses ±1 (vectors of length 0..2 from those
   values; at most ``MAX_TESTS`` combinations, in a fixed order) are evaluated
   with the exact evaluator; a disagreement is NOT_EQUIVALENT with its witness;
   none found is UNKNOWN (testing proves no equivalence).

Fragment: parameters of machine or mathematical integer types, ``bool``, and
``Vec``/``Seq``/slices of those (an array plus a length ≥ 0, elements in their
type's range); literals, parameters, ``T::MAX``/``T::MIN``, ``+ - * / %``,
comparisons and chains, ``&& || ! ==> <==>``, ``if``, casts to integer types
(the value must fit, else untranslatable), ``len()``, ``@``, indexing, and
``forall``/``exists`` over integer binders, and calls of spec fns (inlined, or
uninterpreted where recursive: ``requires_calls``). Anything else (strings,
nested vectors, structs) is outside it.

Verdict kinds: ``equivalent``, ``stronger`` (the answer rejects an input the
ground truth accepts: the paper's precondition incompleteness), ``weaker``
(it accepts an input the ground truth rejects), ``unknown``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...languages.verus.items import ScanError, scan_items
from ...languages.verus.lexer import LexError
from ...languages.verus.spec import SpecProgram
from ...languages.verus.spec import ast as A
from ...runtime.limits import Limits
from ...values.types import TCon
from .requires_calls import callee, closure_fingerprint, recursive, same_callees

__all__ = ["EquivResult", "Untranslatable", "boundary_inputs", "mutate_requires", "requires_equivalence"]

SMALL_LEN = 6
MAX_INLINE = 8  # nested spec fn bodies inlined; deeper calls are uninterpreted
MAX_TESTS = 3000
Z3_MS = 20_000  # backstop only
Z3_RLIMIT = 20_000_000  # z3 resource units per query: the same verdicts on any machine

_RANGES = {
    "i8": (-(2**7), 2**7 - 1), "i16": (-(2**15), 2**15 - 1), "i32": (-(2**31), 2**31 - 1),
    "i64": (-(2**63), 2**63 - 1), "i128": (-(2**127), 2**127 - 1), "isize": (-(2**63), 2**63 - 1),
    "u8": (0, 2**8 - 1), "u16": (0, 2**16 - 1), "u32": (0, 2**32 - 1), "u64": (0, 2**64 - 1),
    "u128": (0, 2**128 - 1), "usize": (0, 2**64 - 1), "int": (None, None), "nat": (0, None),
}  # fmt: skip
_SEQS = ("Vec", "Seq", "Slice", "Array")


class Untranslatable(ValueError):
    """A construct outside the fragment z3 is used for."""


@dataclass
class EquivResult:
    kind: str  # "equivalent", "stronger", "weaker", "unknown"
    how: str  # "tokens", "z3", "testing", ""
    reason: str = ""
    witness: dict[str, Any] | None = None
    z3_tried: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def decided(self) -> bool:
        return self.kind != "unknown"


def _strip_ref(t: Any) -> Any:
    while isinstance(t, TCon) and t.name in ("Ref", "RefMut", "Box"):
        t = t.args[0]
    return t


def _kind(t: Any) -> tuple[str, str]:
    """("int", type name) / ("bool", "") / ("seq" or "seq2" (vector of vectors), element type name);
    else Untranslatable."""
    t = _strip_ref(t)
    if isinstance(t, TCon) and t.name in _RANGES:
        return "int", t.name
    if isinstance(t, TCon) and t.name == "bool":
        return "bool", ""
    if isinstance(t, TCon) and t.name in _SEQS and t.args:
        e = _strip_ref(t.args[0])
        if isinstance(e, TCon) and e.name in _RANGES:
            return "seq", e.name
        if isinstance(e, TCon) and e.name in _SEQS and e.args:
            ee = _strip_ref(e.args[0])
            if isinstance(ee, TCon) and ee.name in _RANGES:
                return "seq2", ee.name
    raise Untranslatable(f"parameter type {t}")


def _requires_tokens(src: str, target: str) -> list[list[str]] | None:
    try:
        items = scan_items(src)
    except (LexError, ScanError):
        return None
    fns = [f for f in items.fns if f.name == target and f.mode == "exec"]
    if not fns:
        return None
    c = fns[-1].clause("requires")
    if c is None:
        return []
    return [[t.text for t in items.toks[a:b]] for a, b in c.exprs]


class _Z3:
    def __init__(self, z3: Any, params: Sequence[tuple[str, Any]]) -> None:
        self.z3 = z3
        # a fresh context per comparison: z3's state (term ids, instantiation order) does not carry
        # over from earlier comparisons, so the same pair gets the same verdict in any process
        self.ctx = C = z3.Context()
        self.vars: dict[str, Any] = {}
        self.kinds: dict[str, tuple[str, str]] = {}
        self.typing: list[Any] = []
        self.compiler: Any = None
        self.in_fn = 0  # depth of inlined spec fn bodies
        self.ufs: dict[str, Any] = {}  # uninterpreted spec fns by name and definition fingerprint
        for name, t in params:
            k = _kind(t)
            self.kinds[name] = k
            if k[0] == "int":
                v = z3.Int(name, C)
                self.typing.extend(self._range(v, k[1]))
            elif k[0] == "bool":
                v = z3.Bool(name, C)
            elif k[0] == "seq2":  # (rows, row lengths, length): a vector of vectors
                rows = z3.Array(f"{name}.rows", z3.IntSort(C), z3.ArraySort(z3.IntSort(C), z3.IntSort(C)))
                lens = z3.Array(f"{name}.lens", z3.IntSort(C), z3.IntSort(C))
                ln = z3.Int(f"{name}.len", C)
                v = (rows, lens, ln)
                self.typing.extend([ln >= 0, ln <= 2**64 - 1])
                i, j = z3.Int(f"{name}.i", C), z3.Int(f"{name}.j", C)
                lo, hi = _RANGES[k[1]]
                el = z3.Select(z3.Select(rows, i), j)
                rng = [c for c in ((el >= lo) if lo is not None else None, (el <= hi) if hi is not None else None) if c is not None]  # fmt: skip
                inner = (
                    z3.ForAll([j], z3.Implies(z3.And(j >= 0, j < z3.Select(lens, i)), z3.And(*rng)))
                    if rng
                    else True
                )
                self.typing.append(
                    z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < ln), z3.And(z3.Select(lens, i) >= 0, inner)))
                )
            else:
                arr = z3.Array(f"{name}.arr", z3.IntSort(C), z3.IntSort(C))
                ln = z3.Int(f"{name}.len", C)
                v = (arr, ln)
                self.typing.extend([ln >= 0, ln <= 2**64 - 1])
                i = z3.Int(f"{name}.i", C)
                lo, hi = _RANGES[k[1]]
                body = [c for c in ((z3.Select(arr, i) >= lo) if lo is not None else None,
                                    (z3.Select(arr, i) <= hi) if hi is not None else None) if c is not None]  # fmt: skip
                if body:
                    self.typing.append(z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < ln), z3.And(*body))))
            self.vars[name] = v

    def _range(self, v: Any, tname: str) -> list[Any]:
        lo, hi = _RANGES[tname]
        return [
            c
            for c in ((v >= lo) if lo is not None else None, (v <= hi) if hi is not None else None)
            if c is not None
        ]

    def tr(self, e: Any, env: dict[str, Any]) -> Any:
        z3 = self.z3
        if isinstance(e, A.Lit):
            if e.kind == "int":
                return z3.IntVal(e.value, self.ctx)
            if e.kind == "bool":
                return z3.BoolVal(bool(e.value), self.ctx)
            raise Untranslatable(f"{e.kind} literal")
        if isinstance(e, A.Path):
            if e.is_local:
                if e.name in env:
                    return env[e.name]
                if e.name in self.vars and not self.in_fn:  # a spec fn body sees its parameters only
                    return self.vars[e.name]
                raise Untranslatable(f"name {e.name}")
            if len(e.segments) == 2 and e.segments[0] in _RANGES and e.segments[1] in ("MAX", "MIN"):
                lo, hi = _RANGES[e.segments[0]]
                val = hi if e.segments[1] == "MAX" else lo
                if val is None:
                    raise Untranslatable(str(e.segments))
                return z3.IntVal(val, self.ctx)
            raise Untranslatable(f"path {'::'.join(e.segments)}")
        if isinstance(e, A.View):
            return self.tr(e.obj, env)
        if isinstance(e, A.Unary):
            x = self.tr(e.expr, env)
            if e.op == "-":
                return -x
            if e.op == "!":
                return z3.Not(x)
            if e.op in ("&", "*"):
                return x
            raise Untranslatable(f"unary {e.op}")
        if isinstance(e, A.MethodCall):
            recv = self.tr(e.recv, env)
            if e.name == "len" and not e.args and isinstance(recv, tuple):
                return recv[-1]
            if e.name in ("view", "deep_view") and not e.args:
                return recv
            raise Untranslatable(f"method {e.name}")
        if isinstance(e, A.Index):
            obj = self.tr(e.obj, env)
            if not isinstance(obj, tuple):
                raise Untranslatable("index of a non-sequence")
            idx = self.tr(e.index, env)
            if len(obj) == 3:  # a row of a vector of vectors
                return (z3.Select(obj[0], idx), z3.Select(obj[1], idx))
            return z3.Select(obj[0], idx)
        if isinstance(e, A.Cast):
            x = self.tr(e.expr, env)
            t = _strip_ref(e.type)
            if not (isinstance(t, TCon) and t.name in _RANGES) or not z3.is_int(x):
                raise Untranslatable(f"cast to {e.type}")
            lo, hi = _RANGES[t.name]
            if lo is not None or hi is not None:
                # a cast is modelled as the identity: its value must fit the target type whatever
                # the inputs (``conj`` checks that the parameters' types imply it)
                self.side.extend(self._range(x, t.name))
            return x
        if isinstance(e, A.Chain):
            parts = [self.tr(o, env) for o in e.operands]
            conds = [self._cmp(op, a, b) for op, a, b in zip(e.ops, parts, parts[1:])]
            return conds[0] if len(conds) == 1 else z3.And(*conds)
        if isinstance(e, A.Binary):
            a, b = self.tr(e.lhs, env), self.tr(e.rhs, env)
            op = e.op
            if op in ("&&", "&&&"):
                return z3.And(a, b)
            if op in ("||", "|||"):
                return z3.Or(a, b)
            if op == "==>":
                return z3.Implies(a, b)
            if op == "<==":
                return z3.Implies(b, a)
            if op == "<==>":
                return a == b
            if op in ("==", "!=", "<", "<=", ">", ">="):
                return self._cmp(op, a, b)
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op in ("/", "%"):
                # Verus int ``/`` and ``%`` are Euclidean, as z3's are; the divisor must not be 0
                if not (z3.is_int_value(b) and b.as_long() != 0):
                    self.side.append(b != 0)
                return a / b if op == "/" else a % b
            raise Untranslatable(f"operator {op}")
        if isinstance(e, A.If):
            if e.else_ is None:
                raise Untranslatable("if without else")
            return z3.If(self.tr(e.cond, env), self.tr(e.then, env), self.tr(e.else_, env))
        if isinstance(e, A.Quant) and e.kind in ("forall", "exists"):
            bound: list[Any] = []
            inner = dict(env)
            for name, t in e.binders:
                k = _kind(t)
                if k[0] != "int":
                    raise Untranslatable("a non-integer binder")
                v = z3.Int(f"{name}!{len(self.bound)}", self.ctx)
                self.bound.append(v)
                inner[name] = v
                bound.append(v)
            saved = self.side
            self.side = []
            body = self.tr(e.body, inner)
            inner_side, self.side = self.side, saved
            rng = [c for (name, t), v in zip(e.binders, bound) for c in self._range(v, _kind(t)[1])]
            if inner_side:  # must hold for every value of the binders (checked valid in ``conj``)
                cond = z3.And(*inner_side)
                self.side.append(z3.ForAll(bound, z3.Implies(z3.And(*rng), cond) if rng else cond))
            if e.kind == "forall":
                return z3.ForAll(bound, z3.Implies(z3.And(*rng), body) if rng else body)
            return z3.Exists(bound, z3.And(*rng, body) if rng else body)
        if isinstance(e, A.Call) and self.compiler is not None:
            return self._call(e, env)
        raise Untranslatable(type(e).__name__)

    def _call(self, e: A.Call, env: dict[str, Any]) -> Any:
        """A spec fn call: inlined, or an uninterpreted function (``requires_calls``)."""
        z3 = self.z3
        fn = callee(self.compiler, e)
        if fn is None or len(fn.params) != len(e.args):
            raise Untranslatable("a call of an unknown function")
        args = [self.tr(a, env) for a in e.args]
        if fn.body is not None and self.in_fn < MAX_INLINE and not recursive(self.compiler, fn):
            self.in_fn += 1
            try:
                return self.tr(fn.body, {n: v for (n, _), v in zip(fn.params, args)})
            finally:
                self.in_fn -= 1
        ret = _strip_ref(fn.ret)
        if isinstance(ret, TCon) and ret.name == "bool":
            rsort = z3.BoolSort(self.ctx)
        elif isinstance(ret, TCon) and ret.name in _RANGES:
            rsort = z3.IntSort(self.ctx)
        else:
            raise Untranslatable(f"a call returning {fn.ret}")
        flat: list[Any] = []
        for a in args:
            if isinstance(a, tuple) and len(a) == 2:
                flat.extend(a)
            elif isinstance(a, tuple):
                raise Untranslatable("a call with a vector of vectors")
            else:
                flat.append(a)
        name = f"{fn.name}#{closure_fingerprint(self.compiler, fn)}"
        f = self.ufs.get(name)
        if f is None:
            f = self.ufs[name] = z3.Function(name, *(a.sort() for a in flat), rsort)
        return f(*flat)

    def _cmp(self, op: str, a: Any, b: Any) -> Any:
        if isinstance(a, tuple) or isinstance(b, tuple):
            raise Untranslatable("comparison of sequences")
        return {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b,
                ">": lambda: a > b, ">=": lambda: a >= b}[op]()  # fmt: skip

    def conj(self, clauses: Sequence[Any], compiler: Any = None) -> Any:
        """The clauses as one z3 formula; ``compiler`` resolves their spec fn calls (none without)."""
        self.compiler = compiler
        self.side: list[Any] = []
        self.bound: list[Any] = getattr(self, "bound", [])
        parts = []
        for c in clauses:
            if c.expr is None:
                raise Untranslatable(f"clause does not parse: {c.error}")
            parts.append(self.tr(c.expr, {}))
        if self.side and not self._valid(self.side):
            raise Untranslatable("a partial operation (a division by a possible 0, a narrowing cast)")
        return self.z3.And(*parts) if parts else self.z3.BoolVal(True, self.ctx)

    def _valid(self, conds: Sequence[Any]) -> bool:
        """Whether the parameters' types alone make ``conds`` hold (a cast then keeps its value,
        a divisor is never 0), so the operations are total and translated exactly."""
        s = self.z3.Solver(ctx=self.ctx)
        s.set("rlimit", Z3_RLIMIT)  # deterministic effort; the clock is only a backstop
        s.set("timeout", Z3_MS)
        s.add(*self.typing, self.z3.Not(self.z3.And(*conds)))
        return bool(s.check() == self.z3.unsat)


def _model_inputs(z: _Z3, model: Any) -> dict[str, Any] | None:
    out: dict[str, Any] = {}
    for name, (k, _) in z.kinds.items():
        v = z.vars[name]
        if k == "int":
            out[name] = model.eval(v, model_completion=True).as_long()
        elif k == "bool":
            out[name] = bool(model.eval(v, model_completion=True))
        elif k == "seq2":
            n = model.eval(v[2], model_completion=True).as_long()
            lens = [
                model.eval(z.z3.Select(v[1], i), model_completion=True).as_long()
                for i in range(min(n, 10_001))
            ]
            if n > 10_000 or sum(lens) > 1_000_000:
                return None
            out[name] = tuple(
                tuple(model.eval(z.z3.Select(z.z3.Select(v[0], i), j), model_completion=True).as_long()
                      for j in range(m))
                for i, m in enumerate(lens)
            )  # fmt: skip
        else:
            n = model.eval(v[1], model_completion=True).as_long()
            if n > 1_000_000:
                return None
            out[name] = tuple(
                model.eval(z.z3.Select(v[0], i), model_completion=True).as_long() for i in range(n)
            )
    return out


def _verdicts(gt: SpecProgram, ans: SpecProgram, inputs: dict[str, Any], lim: Limits) -> tuple[Any, Any]:
    names_a = [n for n, _ in ans.params]
    a_in = {na: inputs[ng] for na, (ng, _) in zip(names_a, gt.params)}
    return gt.requires_verdict(inputs, lim=lim), ans.requires_verdict(a_in, lim=lim)


def _classify(g: Any, a: Any) -> str | None:
    if g.is_true and a.is_false:
        return "stronger"
    if g.is_false and a.is_true:
        return "weaker"
    return None


def _literals(progs: Sequence[SpecProgram]) -> list[int]:
    vals: set[int] = {-2, -1, 0, 1, 2}

    def walk(x: Any) -> None:
        if isinstance(x, A.Lit) and x.kind == "int" and abs(x.value) <= 10**6:
            v = x.value
            vals.update((v - 1, v, v + 1, -v - 1, -v, -v + 1))
        elif isinstance(x, tuple):
            for y in x:
                walk(y)
        elif hasattr(x, "__slots__"):
            for s in x.__slots__:
                walk(getattr(x, s, None))

    for p in progs:
        for c in p.requires:
            walk(c.expr)
    return sorted(vals)


def boundary_inputs(
    params: Sequence[tuple[str, Any]], values: Sequence[int], limit: int = MAX_TESTS
) -> list[dict[str, Any]]:
    """Inputs from ``values`` (ints in their type's range; vectors of length 0..2), fixed order."""
    domains: list[list[Any]] = []
    for _name, t in params:
        k, tn = _kind(t)
        if k == "bool":
            domains.append([False, True])
            continue
        lo, hi = _RANGES[tn]
        ok = [v for v in values if (lo is None or v >= lo) and (hi is None or v <= hi)]
        if k == "int":
            domains.append(ok)
        elif k == "seq2":
            few = list(dict.fromkeys([*ok[:1], *ok[-1:], *(v for v in ok if v == 0)]))
            rows = [(), *((x,) for x in few), *((x, y) for x in few for y in few)]
            domains.append([(), *((r,) for r in rows), *((r, q) for r in rows[:4] for q in rows[:4])])
        else:
            # both ends of the range of values and the ones around 0, in a fixed order
            small = list(dict.fromkeys([*ok[:2], *ok[-2:], *(v for v in ok if -1 <= v <= 1)]))
            domains.append([(), *((x,) for x in small), *((x, y) for x in small for y in small)])
    names = [n for n, _ in params]
    return [dict(zip(names, combo)) for combo in itertools.islice(itertools.product(*domains), limit)]


def requires_equivalence(
    given: str,
    answer: str,
    target: str,
    *,
    lim: Limits | None = None,
    use_z3: bool = True,
    test: bool = True,
    tokens: bool = True,
) -> EquivResult:
    """Whether the answer's ``requires`` of ``target`` is equivalent to the given one (module doc).
    ``tokens=False`` skips the same-tokens shortcut (to measure the solver on identical clauses)."""
    lim = lim or Limits(fuel=200_000, seconds=10.0, max_depth=10_000)
    gt_toks, ans_toks = _requires_tokens(given, target), _requires_tokens(answer, target)
    same_tokens = tokens and gt_toks is not None and gt_toks == ans_toks
    try:
        gt = SpecProgram.from_source(given, target=target)
        ans = SpecProgram.from_source(answer, target=target)
    except ValueError as exc:
        if same_tokens:  # nothing to compare the called spec fns with: the tokens decide
            return EquivResult("equivalent", "tokens")
        return EquivResult("unknown", "", f"does not load: {exc}")
    if same_tokens and same_callees(gt.requires, gt.compiler, ans.compiler):
        return EquivResult("equivalent", "tokens")
    if len(gt.params) != len(ans.params):
        return EquivResult("unknown", "", "the parameter lists differ in length")
    res = EquivResult("unknown", "")
    if use_z3:
        try:
            import z3
        except ImportError:  # z3-solver missing: testing only
            z3 = None
        if z3 is not None:
            res = _by_z3(z3, gt, ans, lim)
            if res.decided:
                return res
    if test:
        try:
            inputs = boundary_inputs(gt.params, _literals([gt, ans]))
        except Untranslatable as exc:
            res.notes.append(f"no boundary inputs: {exc}")
            return res
        for inp in inputs:
            kind = _classify(*_verdicts(gt, ans, inp, lim))
            if kind is not None:
                return EquivResult(kind, "testing", "", inp, res.z3_tried, res.notes)
        res.notes.append(f"{len(inputs)} boundary inputs found no difference")
    return res


def _by_z3(z3: Any, gt: SpecProgram, ans: SpecProgram, lim: Limits) -> EquivResult:
    try:
        z = _Z3(z3, gt.params)
        p = z.conj(gt.requires, gt.compiler)
        q = z.conj(_rebind(ans, gt), ans.compiler)
    except Untranslatable as exc:
        return EquivResult("unknown", "", f"outside the z3 fragment: {exc}")
    except Exception as exc:  # a z3 sort error on a mistyped expression: outside the fragment
        return EquivResult("unknown", "", f"outside the z3 fragment: {type(exc).__name__}: {exc}")
    small = [v[-1] <= SMALL_LEN for v in z.vars.values() if isinstance(v, tuple)]
    for v in z.vars.values():
        if isinstance(v, tuple) and len(v) == 3:  # rows of at most SMALL_LEN too
            i = z3.Int("cap.i", z.ctx)
            small.append(
                z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < v[2]), z3.Select(v[1], i) <= SMALL_LEN))
            )
    last = "unknown"
    for caps in (small, []) if small else ([],):
        s = z3.Solver(ctx=z.ctx)
        s.set("rlimit", Z3_RLIMIT)  # deterministic effort; the clock is only a backstop
        s.set("timeout", Z3_MS)
        s.add(*z.typing, *caps, z3.Not(p == q))
        r = s.check()
        if r == z3.unsat:
            if caps:
                continue  # no small witness: ask again without the cap
            return EquivResult("equivalent", "z3", z3_tried=True)
        if r == z3.unknown:
            last = f"z3: {s.reason_unknown()}"
            continue
        inputs = _model_inputs(z, s.model())
        if inputs is None:
            last = "z3 witness too large to check"
            continue
        kind = _classify(*_verdicts(gt, ans, inputs, lim))
        if kind is not None:
            return EquivResult(kind, "z3", "", inputs, True)
        last = "z3 witness not confirmed by the exact evaluator"
    return EquivResult("unknown", "", last, z3_tried=True)


def _rebind(ans: SpecProgram, gt: SpecProgram) -> list[Any]:
    """The answer's clauses with its parameter names replaced by the ground truth's (by position)."""
    ren = {na: ng for (na, _), (ng, _) in zip(ans.params, gt.params) if na != ng}
    if not ren:
        return ans.requires

    def sub(x: Any) -> Any:
        if isinstance(x, A.Path) and x.is_local and x.name in ren:
            return A.Path((ren[x.name],), x.line)
        if isinstance(x, A.Quant):
            shadow = {n for n, _ in x.binders}
            if shadow & set(ren):
                raise Untranslatable("a binder shadows a parameter")
        if isinstance(x, tuple):
            return tuple(sub(y) for y in x)
        if hasattr(x, "__slots__") and hasattr(x, "__dataclass_fields__"):
            return type(x)(**{f: sub(getattr(x, f)) for f in x.__dataclass_fields__})
        return x

    from ...languages.verus.spec.program import Clause

    return [Clause(c.text, sub(c.expr) if c.expr is not None else None, c.error) for c in ans.requires]


_FLIP = {"<=": "<", "<": "<=", ">=": ">", ">": ">="}


def mutate_requires(src: str, target: str, pick: int) -> tuple[str, str] | None:
    """One mutant of the target's ``requires``: (source, what changed), or None without a clause.

    Sites, in source order: every integer literal (``n`` → ``n + 1``), every ``< <= > >=``
    (strict ↔ non-strict), and, with two clauses or more, dropping each clause. ``pick``
    chooses the site (modulo their number), so a mutant is reproducible."""
    try:
        items = scan_items(src)
    except (LexError, ScanError):
        return None
    fns = [f for f in items.fns if f.name == target and f.mode == "exec"]
    c = fns[-1].clause("requires") if fns else None
    if c is None or not c.exprs:
        return None
    toks = items.toks
    sites: list[tuple[int, int, str, str]] = []  # (char start, char end, replacement, description)
    for a, b in c.exprs:
        for t in toks[a:b]:
            if t.kind == "int":
                digits = t.text.replace("_", "")
                num = "".join(ch for ch in digits if ch.isdigit())
                if (num and num == digits.rstrip("iusz0123456789") + num) or digits.isdigit():
                    sites.append((t.start, t.end, str(int(num) + 1), f"{t.text} -> {int(num) + 1}"))
            elif t.kind == "punct" and t.text in _FLIP:
                sites.append((t.start, t.end, _FLIP[t.text], f"{t.text} -> {_FLIP[t.text]}"))
    if len(c.exprs) > 1:
        for k, (a, b) in enumerate(c.exprs):
            end = toks[b].end if b < len(toks) and toks[b].text == "," else toks[b - 1].end
            sites.append((toks[a].start, end, "", f"clause {k} dropped"))
    if not sites:
        return None
    a, b, rep, what = sites[pick % len(sites)]
    return src[:a] + rep + src[b:], what
