"""The VeriContest engine: Rust execution with ``rustc`` plus our Verus specification evaluator.

``VeriContestEngine().for_task(problem, overrides)`` binds to a
``benchmarks.vericontest.Problem``. Inputs are runtime values keyed by the
reference's parameter names (``Problem.ref_signature``; constructor
arguments first for ``&self`` targets), i.e. decoded test-input JSON.

* ``precondition``/``postcondition`` evaluate ``spec.rs`` (or the override
  ``"spec"``) with ``verus_spec``; inputs are bound to the spec's own
  parameter names by position when the names differ (lc3047).
* ``run`` executes the reference (``code.rs``; for Codeforces the ``impl`` of
  ``main.rs``) or the override ``"code"`` (Verus source is erased first)
  in a JSON-lines harness: panics and overflow are ``ERROR`` outcomes,
  time/memory limits ``TIMEOUT``/``ERROR``, code that does not compile ``ERROR``.

Batched forms run all inputs through one process.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...runtime.engine import Outcome, OutcomeKind, Verdict
from ...runtime.limits import Limits
from ...values import rust_codec
from ...values.codec import DecodeError
from ...values.types import TCon, Type
from .erase import EraseError, erase
from .execute import CaseResult, ExecLimits
from .inplace import InPlaceOutput, decode_inplace, from_stated, inplace_to_json, stated_view
from .items import ScanError
from .lexer import LexError
from .reference import ProblemRunner
from .signature import input_params
from .spec import SpecLoadError, SpecProgram

__all__ = [
    "SPEC_BACKSTOP_SECONDS",
    "SPEC_FUEL",
    "SPEC_FUEL_BIGNUM",
    "VeriContestEngine",
    "VeriContestTaskEngine",
    "outcome_of",
]

SPEC_FUEL = 300_000  # steps (quantifier instances + spec fn calls) of one Python-side check
# after the compiled checker stopped at an integer beyond i128 (it was deciding, within its own budget),
# the Python evaluator redoes that computation with exact integers: it gets this much fuel (lc1155: 772k)
SPEC_FUEL_BIGNUM = 2_000_000
_OVERFLOW = "beyond the i128 range"
_DEPTH = "spec recursion deeper than"  # the compiled checker's depth-limit reason
SPEC_BACKSTOP_SECONDS = 120.0

Problem = Any  # a VeriContest problem (formats.vericontest): spec, code, signatures, examples


@dataclass
class VeriContestEngine:
    exec_limits: ExecLimits = field(default_factory=ExecLimits)
    # fuel decides (verdicts do not move with machine load); the clock is only a backstop
    spec_limits: Limits = field(
        default_factory=lambda: Limits(fuel=SPEC_FUEL, seconds=SPEC_BACKSTOP_SECONDS, max_depth=100_000)
    )
    cache: Path | str | None = None
    name: str = "vericontest"
    # Post2Exe compiled checkers first, the Python evaluator on their UNKNOWN; VERISCALE_POST2EXE=0 disables
    post2exe: bool = field(default_factory=lambda: os.environ.get("VERISCALE_POST2EXE", "1") != "0")

    def for_task(self, task: Any, overrides: Mapping[str, str] | None = None) -> VeriContestTaskEngine:
        if not hasattr(task, "ref_signature"):
            raise TypeError("the VeriContest engine needs a VeriContest problem (formats.vericontest)")
        return VeriContestTaskEngine(task, self, dict(overrides or {}))


def outcome_of(res: CaseResult, decode: Any) -> Outcome:
    """An ``Outcome`` for a harness result; ``decode`` turns the JSON result into a runtime value."""
    if res.status == "ok":
        try:
            return Outcome(OutcomeKind.VALUE, decode(res.value))
        except DecodeError as exc:
            return Outcome(OutcomeKind.ERROR, reason=f"result does not decode: {exc}", category="error")
    if res.status == "timeout":
        return Outcome(OutcomeKind.TIMEOUT, reason=res.message, category="timeout")
    if res.status == "bad":
        return Outcome(
            OutcomeKind.UNKNOWN, reason=f"input does not decode in Rust: {res.message}", category="error"
        )
    return Outcome(OutcomeKind.ERROR, reason=f"{res.status}: {res.message}", category="error")


class VeriContestTaskEngine:
    def __init__(self, problem: Problem, engine: VeriContestEngine, overrides: dict[str, str]) -> None:
        self.problem = problem
        self.engine = engine
        self.overrides = overrides
        self._spec: SpecProgram | None = None
        self._spec_error: str | None = None
        code = overrides.get("code")
        self._code_error: str | None = None
        if code is not None and ("verus!" in code or "vstd" in code):
            try:
                code = erase(code)
            except EraseError as exc:
                self._code_error = f"Verus erasure failed: {exc}"
        self.runner = ProblemRunner(problem, limits=engine.exec_limits, cache=engine.cache, code=code)
        self._self_cache: dict[str, Any] = {}
        self._input_types: tuple[tuple[str, Type], ...] | None = None  # (name, value type) per input
        self._compiled: Any = None  # None: not built yet; False: no compiled checker
        self.python_unknown = 0  # check_batch's Python-evaluator checks that ended UNKNOWN (a budget's meter)
        self.python_bignum = 0  # check_batch's Python checks beyond i128 (``max_bignum``'s meter)

    # ---- specification
    def spec(self) -> SpecProgram | None:
        if self._spec is None and self._spec_error is None:
            try:
                self._spec = SpecProgram.from_source(self.overrides.get("spec", self.problem.spec),
                                                     target=self.problem.signature.name)  # fmt: skip
            except SpecLoadError as exc:
                self._spec_error = str(exc)
        return self._spec

    def spec_inputs(self, inputs: Mapping[str, Any]) -> dict[str, Any]:
        """Inputs keyed by the spec target's parameter names (by position when names differ)."""
        spec = self.spec()
        assert spec is not None
        ref = [p.name for p in self.problem.ref_signature.params]
        names = [n for n, _ in spec.params]
        if all(n in inputs for n in names):
            return {n: inputs[n] for n in names}
        return {n: inputs[r] for n, r in zip(names, ref)}

    def self_value(self, inputs: Mapping[str, Any]) -> Any:
        """The object a ``&self`` target is called on: built by running the reference constructor."""
        if not self.problem.ref_signature.receiver:
            return None
        key = self.runner.encode_inputs(self._json_inputs(inputs))
        if key not in self._self_cache:
            ref = ProblemRunner(self.problem, limits=self.engine.exec_limits, cache=self.engine.cache)
            res = ref.run_inputs([self._json_inputs(inputs)])[0]
            val = None
            owner = self.problem.ref_signature.owner
            if res.ok and isinstance(res.value, list) and res.value and res.value[0] is not None and owner:
                try:
                    val = rust_codec.decode(TCon(owner), res.value[0], structs=self.problem.structs)
                except DecodeError:
                    val = None
            self._self_cache[key] = val
        return self._self_cache[key]

    # ---- compiled checker (Post2Exe): decides first; UNKNOWN falls back to the Python evaluator
    def compiled(self) -> Any:
        if not self.engine.post2exe:
            return None
        if self._compiled is None:
            from .post2exe.checker import build_checker, checker_for_source

            ck = None
            try:
                if "spec" in self.overrides:
                    if not self.problem.ref_signature.receiver:
                        names = [p.name for p in self.problem.ref_signature.params]
                        ck = checker_for_source(self.overrides["spec"], names, self.problem.signature.name,
                                                self.engine.cache)  # fmt: skip
                else:
                    ck = build_checker(self.problem, self.engine.cache)
            except Exception:  # no compiled checker: the Python evaluator decides alone
                ck = None
            self._compiled = ck if ck is not None and ck.ok else False
        return self._compiled or None

    def _python_useful(self, got: Verdict | None) -> bool:
        """Should the Python evaluator try a case the compiled checker left UNKNOWN (or never saw)?

        No when the checker translated every clause and ran out of its step budget or recursion
        depth: the Python evaluator enumerates the same bounded domains with far less fuel (its fuel
        is ``SPEC_FUEL``, the checker's 200 M steps), so it would only burn its own budget and end
        UNKNOWN too. Any other UNKNOWN (an untranslated clause, a value the checker does not model,
        an integer beyond i128) goes to the Python evaluator."""
        if got is None or not got.is_unknown:
            return got is None
        ck = self.compiled()
        if ck is not None and ck.checker.complete and got.category == "timeout":
            # except a recursion-depth limit where the spec recurses in tail position: the Python
            # evaluator runs that as a loop, without a depth limit (lc492: 122,122 calls); or linearly
            # with a constant step, which it sums in closed form (linrec.py; cf1077A: 10^9 calls)
            if _DEPTH not in got.reason:
                return False
            spec = self.spec()
            return spec is not None and (spec.tail_recursive() or spec.linear_recursive())
        return True

    def _compiled_verdicts(self, inputs: Mapping[str, Any], output: Any, with_output: bool) -> Any:
        ck = self.compiled()
        if ck is None:
            return None
        try:
            inp = self._json_inputs(inputs)
            out = self._json_output(output) if with_output else None
        except (TypeError, KeyError, AttributeError):
            return None
        return ck.check([(inp, out)], with_output)[0]

    def _json_output(self, output: Any) -> Any:
        sig = self.problem.ref_signature
        if isinstance(output, InPlaceOutput):
            return inplace_to_json(sig.ret_type, self.runner.mutable_params(), output, self.problem.structs)
        return rust_codec.to_json(sig.ret_type, output, structs=self.problem.structs)

    def precondition(self, inputs: Mapping[str, Any]) -> Verdict:
        spec = self.spec()
        if spec is None:
            return Verdict.unknown(f"spec does not load: {self._spec_error}", "parse")
        got = self._compiled_verdicts(inputs, None, False)
        if got is not None and not self._python_useful(got[0]):
            return got[0]
        return self._python_pre(inputs, self._fallback_limits(got[0] if got is not None else None))

    def _fallback_limits(self, got: Verdict | None) -> Limits | None:
        """Python-side limits after the compiled verdict ``got``: more fuel when the checker stopped only
        because an integer outgrew i128 (None: the engine's ``spec_limits``)."""
        if got is None or not got.is_unknown or _OVERFLOW not in got.reason:
            return None
        lim = self.engine.spec_limits
        return Limits(fuel=max(lim.fuel, SPEC_FUEL_BIGNUM), seconds=lim.seconds, max_depth=lim.max_depth)

    def _python_pre(self, inputs: Mapping[str, Any], lim: Limits | None = None) -> Verdict:
        spec = self.spec()
        if spec is None:
            return Verdict.unknown(f"spec does not load: {self._spec_error}", "parse")
        return spec.requires_verdict(self.spec_inputs(inputs), self_value=self.self_value(inputs),
                                     lim=lim or self.engine.spec_limits)  # fmt: skip

    def postcondition(self, inputs: Mapping[str, Any], output: Any) -> Verdict:
        spec = self.spec()
        if spec is None:
            return Verdict.unknown(f"spec does not load: {self._spec_error}", "parse")
        got = self._compiled_verdicts(inputs, output, True)
        if got is not None and got[1] is not None and not self._python_useful(got[1]):
            return got[1]
        return self._python_post(inputs, output, self._fallback_limits(got[1] if got is not None else None))

    def _python_post(self, inputs: Mapping[str, Any], output: Any, lim: Limits | None = None) -> Verdict:
        spec = self.spec()
        if spec is None:
            return Verdict.unknown(f"spec does not load: {self._spec_error}", "parse")
        if isinstance(output, InPlaceOutput):  # final values keyed by the spec's parameter names
            ref = [p.name for p in self.problem.ref_signature.params]
            rename = dict(zip(ref, (n for n, _ in spec.params)))
            output = InPlaceOutput(output.ret, tuple((rename.get(n, n), v) for n, v in output.after))
        return spec.ensures_verdict(self.spec_inputs(inputs), output, self_value=self.self_value(inputs),
                                    lim=lim or self.engine.spec_limits)  # fmt: skip

    # ---- execution
    def _json_inputs(self, inputs: Mapping[str, Any]) -> dict[str, Any]:
        if self._input_types is None:  # (worked out once: the types do not change, and a batch asks per row)
            self._input_types = tuple((p.name, p.value_type) for p in input_params(self.problem))
        structs = self.problem.structs
        return {name: rust_codec.to_json(t, inputs[name], structs=structs) for name, t in self._input_types}

    def run(self, inputs: Mapping[str, Any]) -> Outcome:
        return self.runs([inputs])[0]

    def runs(self, rows: Sequence[Mapping[str, Any]]) -> list[Outcome]:
        if self._code_error is not None:
            return [Outcome(OutcomeKind.ERROR, reason=self._code_error, category="error") for _ in rows]
        try:
            comp = self.runner.harness()
        except (ScanError, LexError) as exc:  # candidate code we cannot even follow: it is broken
            return [
                Outcome(OutcomeKind.ERROR, reason=f"malformed code: {exc}", category="compile") for _ in rows
            ]
        except Exception as exc:  # an unsupported signature must not take the run down
            return [
                Outcome(OutcomeKind.UNKNOWN, reason=f"no harness: {exc}", category="unsupported")
                for _ in rows
            ]
        if comp.forbidden:
            reason = f"forbidden construct: {comp.forbidden}"
            return [Outcome(OutcomeKind.ERROR, reason=reason, category="forbidden_construct") for _ in rows]
        if not comp.ok:
            first = comp.errors.strip().splitlines()[:1]
            msg = "does not compile" + (f": {first[0]}" if first else "")
            return [Outcome(OutcomeKind.ERROR, reason=msg, category="compile") for _ in rows]
        results = self.runner.run_inputs([self._json_inputs(r) for r in rows])
        return [outcome_of(r, self.runner.decode_output) for r in results]

    def _compiled_batch(self, pairs: Sequence[tuple[Mapping[str, Any], Any]], with_output: bool) -> list[Any]:
        """Compiled verdicts for many cases through one checker process (None where unavailable)."""
        ck = self.compiled()
        if ck is None or not pairs:
            return [None] * len(pairs)
        rows: list[tuple[dict[str, Any], Any]] = []
        idx: list[int] = []
        for k, (inputs, output) in enumerate(pairs):
            try:
                rows.append((self._json_inputs(inputs), self._json_output(output) if with_output else None))
                idx.append(k)
            except (TypeError, KeyError, AttributeError):
                continue
        out: list[Any] = [None] * len(pairs)
        for k, got in zip(idx, ck.check(rows, with_output)):
            out[k] = got
        return out

    def check_batch(
        self,
        pairs: Sequence[tuple[Mapping[str, Any], Any]],
        with_output: bool,
        *,
        checker_fuel: int | None = None,
        max_python_unknown: int | None = None,
        max_bignum: int | None = None,
    ) -> list[Verdict]:
        """``requires`` (``with_output`` False) or ``ensures`` verdicts of many cases, in order.

        1. One compiled-checker process for every row (``checker_fuel``: its steps per clause for this
           batch; None keeps the checker's own setting).
        2. The Python evaluator, in row order, only on rows the checker could not decide for a reason
           the evaluator may overcome (``_python_useful``: not when a complete checker ran out of steps,
           as the evaluator enumerates the same domains with less fuel), each check bounded by the
           engine's ``spec_limits`` fuel.
        3. ``max_python_unknown``: once that many Python checks have ended UNKNOWN, the remaining
           fallback rows stay UNKNOWN (category ``"budget"``) — a specification the evaluator cannot
           decide stops costing time. It counts checks, not seconds, so the verdicts do not move with
           machine load (each check is itself step-bounded).
        4. ``max_bignum``: at most that many Python checks redoing an integer beyond i128 with
           ``SPEC_FUEL_BIGNUM`` (their cost grows with the integers' digits, lc1223: seconds each); the
           rest stay UNKNOWN (``"budget"``). Counted in ``python_bignum``."""
        ck = self.compiled()
        saved = None
        if ck is not None and checker_fuel is not None:
            saved, ck.fuel = ck.fuel, checker_fuel
        try:
            got = self._compiled_batch(pairs, with_output)
        finally:
            if ck is not None and checker_fuel is not None:
                ck.fuel = saved
        out: list[Verdict] = []
        misses = bignum = 0
        skipped = Verdict.unknown("not decided within the batch's Python-evaluator budget", "budget")
        for (inputs, output), g in zip(pairs, got):
            v = None if g is None else (g[1] if with_output else g[0])
            if v is not None and not self._python_useful(v):
                out.append(v)
                continue
            if max_python_unknown is not None and misses >= max_python_unknown:
                out.append(v if v is not None else skipped)
                continue
            lim = self._fallback_limits(v)
            if lim is not None and max_bignum is not None and bignum >= max_bignum:
                out.append(v if v is not None else skipped)
                continue
            bignum += lim is not None
            self.python_bignum += lim is not None
            py = self._python_post(inputs, output, lim) if with_output else self._python_pre(inputs, lim)
            misses += py.is_unknown
            self.python_unknown += py.is_unknown
            out.append(py)
        return out

    def preconditions(self, rows: Sequence[Mapping[str, Any]]) -> list[Verdict]:
        """Batched: one compiled-checker run for all rows; the Python evaluator where it is UNKNOWN."""
        got = self._compiled_batch([(r, None) for r in rows], False)
        return [
            g[0]
            if g is not None and not self._python_useful(g[0])
            else self._python_pre(r, self._fallback_limits(g[0] if g is not None else None))
            for r, g in zip(rows, got)
        ]

    def postconditions(self, pairs: Sequence[tuple[Mapping[str, Any], Any]]) -> list[Verdict]:
        got = self._compiled_batch(pairs, True)
        return [
            g[1]
            if g is not None and g[1] is not None and not self._python_useful(g[1])
            else self._python_post(i, o, self._fallback_limits(g[1] if g is not None else None))
            for (i, o), g in zip(pairs, got)
        ]

    # ---- decoding helpers
    def decode_inputs(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Runtime values from test-input JSON keyed by reference parameter names (strict)."""
        out: dict[str, Any] = {}
        for p in input_params(self.problem):
            if p.name not in raw:
                raise DecodeError("missing input parameter", field=p.name)
            out[p.name] = rust_codec.decode(p.value_type, raw[p.name], structs=self.problem.structs)
        return out

    def decode_output(self, raw: Any) -> Any:
        """Runtime output from test-output JSON (the ``{"return", "after"}`` form for in-place targets)."""
        muts = self.runner.mutable_params()
        if muts:
            return decode_inplace(self.problem.ref_signature.ret_type, muts, raw, self.problem.structs)
        return rust_codec.decode(self.problem.ref_signature.ret_type, raw, structs=self.problem.structs)

    # ---- in-place targets (``&mut`` arguments): see rust.inplace
    def is_inplace(self) -> bool:
        return bool(self.runner.mutable_params())

    def decode_stated(self, raw: Any) -> tuple[Any, InPlaceOutput | None]:
        """A description's stated output: (value to compare, full output when it determines one)."""
        return from_stated(self.problem.ref_signature.ret_type, self.runner.mutable_params(), raw,
                           self.problem.structs)  # fmt: skip

    def stated_view(self, out: InPlaceOutput) -> Any:
        return stated_view(self.problem.ref_signature.ret_type, self.runner.mutable_params(), out)
