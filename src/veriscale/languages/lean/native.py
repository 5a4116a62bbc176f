"""The native engine: our own evaluator of the Lean fragment (no toolchain needed)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...runtime import limits
from ...runtime.engine import Outcome, OutcomeKind, Verdict
from .errors import (
    ElabError,
    EvalError,
    InternalError,
    LeanError,
    LeanParseError,
    LimitExceeded,
    Undecided,
    Unsupported,
)
from .sections import DEFINITION_SECTIONS

__all__ = ["NativeEngine", "NativeTaskEngine"]


class _gc_paused:  # a context manager: ``with _gc_paused(): ...``
    """Python's cyclic garbage collector off for the duration of one check.

    An evaluation allocates millions of short-lived tuples (an exponential enumeration of
    subsequences holds millions alive at once) and the collector's generation scans over them
    took some 15-20% of such checks. Values are immutable and acyclic, so a check makes
    next to no cyclic garbage; what it makes is collected once the collector is back on.
    Reference counting frees everything else as before, and the worker's address-space cap
    still turns a runaway check into a ``MemoryError`` (UNKNOWN). Nested uses keep the
    outer state.
    """

    __slots__ = ("was_on",)

    def __enter__(self) -> None:
        self.was_on = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.was_on:
            gc.enable()


def _category(exc: LeanError) -> str:
    if isinstance(exc, LeanParseError):
        return "parse"
    if isinstance(exc, Unsupported):
        return "unsupported"
    if isinstance(exc, ElabError):
        return "elab"
    if isinstance(exc, LimitExceeded):
        return "timeout"
    if isinstance(exc, Undecided):
        return "undecided"
    if isinstance(exc, InternalError):
        return "internal"
    if isinstance(exc, EvalError):
        return "error"
    return "error"


@dataclass
class NativeEngine:
    """Engine factory. ``limits`` applies to every single check.

    ``coverage``: instrument the implementation's branches; ``te.coverage()`` then reports
    which ones the runs so far executed (for suite adequacy).
    """

    limits: limits.Limits = field(default_factory=lambda: limits.Limits(seconds=5.0))
    name: str = "native"
    coverage: bool = False

    def for_task(self, task: Any, overrides: Mapping[str, str] | None = None) -> NativeTaskEngine:
        sections = {name: task.section_text(name) for name in DEFINITION_SECTIONS}
        if overrides:
            sections.update(overrides)
        sig = task.signature
        return NativeTaskEngine(
            fn_name=sig.name,
            params=[(p.name, p.type) for p in sig.params],
            ret=sig.return_type,
            sections=sections,
            limits=self.limits,
            coverage=self.coverage,
        )


class NativeTaskEngine:
    def __init__(
        self,
        fn_name: str,
        params: list[tuple[str, Any]],
        ret: Any,
        sections: Mapping[str, str],
        limits: limits.Limits,
        coverage: bool = False,
    ) -> None:
        self.fn_name = fn_name
        self.params = params
        self.ret = ret
        self.sections = dict(sections)
        self.limits = limits
        self.coverage_enabled = coverage
        self._program: Any = None
        self._build_error: LeanError | None = None
        self.fuel_spent = 0  # over every check so far: a load-independent measure of work

    def _get_program(self) -> Any:
        if self._program is None and self._build_error is None:
            from .program import TaskProgram

            try:
                self._program = TaskProgram.build(
                    self.fn_name, self.params, self.ret, self.sections, coverage=self.coverage_enabled
                )
            except LeanError as exc:
                self._build_error = exc
            except Exception as exc:  # an engine bug must not take the run down
                self._build_error = InternalError(f"internal error while building the program: {exc!r}")
        if self._build_error is not None:
            raise self._build_error
        return self._program

    def _guarded(self, fn: Callable[[Any], Any]) -> tuple[Any, LeanError | None]:
        budget = limits.Budget(self.limits)
        try:
            prog = self._get_program()
            with limits.using(budget), _gc_paused():
                return fn(prog), None
        except LeanError as exc:
            return None, exc
        except Exception as exc:  # defensive: never crash a run on an engine bug
            return None, InternalError(f"internal error: {exc!r}")
        finally:
            self.fuel_spent += min(budget.spent, self.limits.fuel)

    def _verdict(self, fn: Callable[[Any], Any]) -> Verdict:
        val, err = self._guarded(fn)
        if err is not None:
            return Verdict.unknown(str(err), _category(err))
        return Verdict.of(bool(val))

    def precondition(self, inputs: Mapping[str, Any]) -> Verdict:
        return self._verdict(lambda p: p.precond(inputs))

    def postcondition(self, inputs: Mapping[str, Any], output: Any) -> Verdict:
        return self._verdict(lambda p: p.postcond(inputs, output))

    def run(self, inputs: Mapping[str, Any]) -> Outcome:
        val, err = self._guarded(lambda p: p.run(inputs))
        if err is None:
            return Outcome(OutcomeKind.VALUE, val)
        cat = _category(err)
        if cat == "timeout":
            return Outcome(OutcomeKind.TIMEOUT, reason=str(err), category=cat)
        # Our own parser/elaborator failing is a limit of the engine, not proof the code is wrong.
        if cat in ("unsupported", "undecided", "parse", "elab", "internal"):
            return Outcome(OutcomeKind.UNKNOWN, reason=str(err), category=cat)
        return Outcome(OutcomeKind.ERROR, reason=str(err), category=cat)

    def coverage(self) -> Any:
        """A ``CoverageReport`` (probes of the implementation, hits since the last reset).

        None when the engine was built without coverage; raises the ``LeanError`` that
        prevents compiling the implementation.
        """
        if not self.coverage_enabled:
            return None
        return self._get_program().coverage()

    def reset_coverage(self) -> None:
        if self._program is not None:
            self._program.reset_coverage()

    def preconditions(self, rows: Sequence[Mapping[str, Any]]) -> list[Verdict]:
        return [self.precondition(r) for r in rows]

    def runs(self, rows: Sequence[Mapping[str, Any]]) -> list[Outcome]:
        return [self.run(r) for r in rows]

    def postconditions(self, pairs: Sequence[tuple[Mapping[str, Any], Any]]) -> list[Verdict]:
        return [self.postcondition(i, o) for i, o in pairs]
