"""``LeanToolchainEngine``: the ``Engine`` protocol on a real Lean installation.

Per task and check kind, all cases go into one Lean file (see ``render``):

* preconditions / postconditions: ``#guard decide (P args)`` per case. A case
  that errors (no ``Decidable`` instance, …) goes on to a second file with
  Verina's plausible blocks for ``P`` and ``¬P``. A counter-example (or
  ``simp`` closing the goal) decides the case; "Unable to find a
  counter-example" does not, and stays UNKNOWN with category
  ``plausible_true`` / ``plausible_false`` / ``plausible_both`` so that a
  Verina-faithful scorer can still count it as Verina does.
* runs: ``#eval! f args (by sorry)`` per case, the printed value read back
  through the values codec.

When a file fails for missing names or instances and Mathlib is available
but not imported, the affected cases are rerun with ``import Mathlib``.
Batches that time out or crash are bisected (``runner.run_bisected``).

The single-check methods batch too: on the first call of a kind, the task's
own rows for that kind (test inputs, reject inputs, expected and unexpected
outputs) are evaluated in one file and remembered, so row-by-row callers such
as ``veriscale check`` cost one Lean process per task and kind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from veriscale.runtime.engine import Outcome, OutcomeKind, Verdict
from veriscale.values.codec import DecodeError

from .parse import (
    CaseOutput,
    LeanMessage,
    classify_guard,
    classify_plausible,
    crash_signature,
    missing_name_error,
    parse_output,
    read_value,
)
from .project import LeanProject, locate_project
from .render import (
    LeanFile,
    TaskSource,
    eval_run,
    guard_postcond,
    guard_precond,
    plausible_postcond,
    plausible_precond,
    render_check_file,
)
from .runner import (
    DEFAULT_TIMEOUT,
    Attempt,
    Failure,
    LeanRunner,
    RunCache,
    RunFn,
    default_cache_dir,
    run_bisected,
)

__all__ = ["CaseRun", "LeanTaskEngine", "LeanToolchainEngine"]


@dataclass
class CaseRun:
    """What one case got from Lean: its output, or a failure; plus the file's preamble errors."""

    output: CaseOutput | None
    failure: Failure | None = None
    preamble_errors: list[LeanMessage] = field(default_factory=list)


def _failure_reason(f: Failure) -> str:
    if f.kind == "timeout":
        return f"Lean timed out{': ' + f.detail if f.detail else ''}"
    if f.kind == "crash":
        return f"Lean crashed{': ' + f.detail if f.detail else ''}"
    return f"Lean run failed{': ' + f.detail if f.detail else ''}"


def _broken(errors: list[LeanMessage]) -> str:
    return f"the definitions do not compile: {errors[0].first_line()}"


class LeanToolchainEngine:
    """Engine factory on a Lean project. ``runner`` replaces the real Lean process (tests)."""

    name = "lean"

    def __init__(
        self,
        project: LeanProject | str | Path | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        memory_mb: int | None = None,
        cache_dir: str | Path | None = None,
        use_cache: bool = True,
        plausible: bool = True,
        mathlib_fallback: bool = True,
        max_cases_per_file: int | None = None,
        prefetch: bool = True,
        keep_files: bool = False,
        runner: RunFn | None = None,
        has_mathlib: bool | None = None,
    ) -> None:
        self.timeout = timeout
        self.max_cases_per_file = max_cases_per_file
        self.prefetch = prefetch
        if runner is None:
            proj = (
                project
                if isinstance(project, LeanProject)
                else locate_project(project, require_plausible=plausible)
            )
            cache = (
                RunCache(Path(cache_dir or default_cache_dir()) / "lean-runs.sqlite3") if use_cache else None
            )
            runner = LeanRunner(proj, memory_mb=memory_mb, cache=cache, keep_files=keep_files)
            self.project: LeanProject | None = proj
        else:
            self.project = project if isinstance(project, LeanProject) else None
        self.runner: RunFn = runner
        self.plausible = plausible and (self.project is None or self.project.has_plausible)
        if has_mathlib is None:
            has_mathlib = self.project.has_mathlib if self.project is not None else False
        self.mathlib_fallback = mathlib_fallback and has_mathlib
        self.files_run = 0

    def for_task(self, task: Any, overrides: Mapping[str, str] | None = None) -> LeanTaskEngine:
        return LeanTaskEngine(self, TaskSource.from_task(task, overrides), task if self.prefetch else None)

    # ---- running cases
    def run_cases(
        self, make_file: Callable[[Sequence[str]], LeanFile], bodies: Sequence[str]
    ) -> list[CaseRun]:
        """Run ``bodies`` (case commands) in files made by ``make_file``; one ``CaseRun`` each."""
        out: list[CaseRun] = []
        size = self.max_cases_per_file or len(bodies) or 1
        for start in range(0, len(bodies), size):
            chunk = list(bodies[start : start + size])
            for res in run_bisected(chunk, lambda items: self._attempt(make_file, items)):
                out.append(res if isinstance(res, CaseRun) else CaseRun(None, res))
        return out

    def _attempt(
        self, make_file: Callable[[Sequence[str]], LeanFile], items: Sequence[str]
    ) -> Attempt[CaseRun]:
        lean_file = make_file(items)
        self.files_run += 1
        try:
            result = self.runner(lean_file.text, self.timeout)
        except OSError as exc:  # lake vanished, work directory not writable, ...
            return Attempt({}, "fatal", f"cannot start Lean: {exc}")
        parsed = parse_output(result.output, lean_file)
        pre = parsed.preamble_errors
        results = {c.index: CaseRun(c, None, pre) for c in parsed.cases if c.complete}
        if len(results) == len(items):
            return Attempt(results)
        crash = parsed.crash_text()
        if result.timed_out:
            return Attempt(results, "timeout", f"no result within {self.timeout:g} s")
        if result.killed_by_signal or crash:
            return Attempt(results, "crash", crash or f"exit code {result.exit_code}")
        if not any(c.started for c in parsed.cases):
            in_definitions = [m for m in pre if m.line is not None and m.line > lean_file.imports_end]
            if in_definitions and not result.timed_out:
                # The definitions swallowed the cases (an unterminated comment, say): broken code.
                return Attempt({i: CaseRun(None, None, in_definitions) for i in range(len(items))})
            # Nothing ran: an import that does not resolve, or a broken setup.
            first = pre[0].first_line() if pre else _tail(result.output)
            return Attempt(results, "fatal", first or f"exit code {result.exit_code}, no output")
        return Attempt(results, "crash", f"Lean stopped early (exit code {result.exit_code})")


def _tail(output: str) -> str:
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    return lines[-1][:300] if lines else ""


@dataclass
class _Spec:
    key: str  # the decide case: also the memo key
    pos: str  # plausible block for P
    neg: str  # plausible block for ¬P


@dataclass
class _Decided:
    verdict: Verdict
    retry_with_mathlib: bool = False
    try_plausible: bool = False
    mathlib: bool = False  # decided in a file that imports Mathlib


class LeanTaskEngine:
    def __init__(self, engine: LeanToolchainEngine, src: TaskSource, task: Any | None) -> None:
        self.engine = engine
        self.src = src
        self.task = task
        self._verdicts: dict[tuple[str, str], Verdict] = {}
        self._outcomes: dict[str, Outcome] = {}
        self._prefetched: set[str] = set()

    # ---- single checks (prefetching the task's own rows)
    def precondition(self, inputs: Mapping[str, Any]) -> Verdict:
        self._prefetch("precond")
        return self.preconditions([inputs])[0]

    def run(self, inputs: Mapping[str, Any]) -> Outcome:
        self._prefetch("run")
        return self.runs([inputs])[0]

    def postcondition(self, inputs: Mapping[str, Any], output: Any) -> Verdict:
        self._prefetch("postcond")
        return self.postconditions([(inputs, output)])[0]

    def _prefetch(self, kind: str) -> None:
        if self.task is None or kind in self._prefetched:
            return
        self._prefetched.add(kind)
        task = self.task
        rows: list[dict[str, Any]] = []
        pairs: list[tuple[dict[str, Any], Any]] = []
        for tc in task.tests:
            try:
                inputs = tc.decode_input(task)
            except DecodeError:
                continue
            rows.append(inputs)
            if kind == "postcond":
                for raw in [tc.expected, *(tc.unexpected or [])]:
                    try:
                        pairs.append((inputs, task.decode_output(raw, file="test.json")))
                    except DecodeError:
                        continue
        if kind == "precond":
            for rj in task.reject_inputs:
                try:
                    rows.append(rj.decode_input(task))
                except DecodeError:
                    continue
        if kind == "precond":
            self.preconditions(rows)
        elif kind == "run":
            self.runs(rows)
        else:
            self.postconditions(pairs)

    # ---- batched checks
    def preconditions(self, rows: Sequence[Mapping[str, Any]]) -> list[Verdict]:
        src = self.src
        specs: list[_Spec | Verdict] = []
        for inputs in rows:
            try:
                specs.append(
                    _Spec(
                        guard_precond(src, inputs),
                        plausible_precond(src, inputs, negate=False),
                        plausible_precond(src, inputs, negate=True),
                    )
                )
            except Exception as exc:  # values from callers must never crash a batch
                specs.append(Verdict.unknown(f"cannot write the input as Lean: {exc}", "unsupported"))
        return self._spec("precond", specs)

    def postconditions(self, pairs: Sequence[tuple[Mapping[str, Any], Any]]) -> list[Verdict]:
        src = self.src
        specs: list[_Spec | Verdict] = []
        for inputs, output in pairs:
            try:
                specs.append(
                    _Spec(
                        guard_postcond(src, inputs, output),
                        plausible_postcond(src, inputs, output, negate=False),
                        plausible_postcond(src, inputs, output, negate=True),
                    )
                )
            except Exception as exc:  # values from callers must never crash a batch
                specs.append(
                    Verdict.unknown(f"cannot write the input or output as Lean: {exc}", "unsupported")
                )
        return self._spec("postcond", specs)

    def runs(self, rows: Sequence[Mapping[str, Any]]) -> list[Outcome]:
        src = self.src
        keys: list[str | Outcome] = []
        for inputs in rows:
            try:
                keys.append(eval_run(src, inputs))
            except Exception as exc:  # values from callers must never crash a batch
                keys.append(
                    Outcome(
                        OutcomeKind.UNKNOWN,
                        reason=f"cannot write the input as Lean: {exc}",
                        category="unsupported",
                    )
                )
        todo = _unique(k for k in keys if isinstance(k, str) and k not in self._outcomes)
        if todo:
            self._evaluate_runs(todo)
        return [k if isinstance(k, Outcome) else self._outcomes[k] for k in keys]

    # ---- spec checks: decide, Mathlib fallback, plausible
    def _spec(self, kind: str, specs: list[_Spec | Verdict]) -> list[Verdict]:
        todo: list[_Spec] = []
        seen: set[str] = set()
        for s in specs:
            if isinstance(s, _Spec) and (kind, s.key) not in self._verdicts and s.key not in seen:
                seen.add(s.key)
                todo.append(s)
        if todo:
            decided = self._decide(kind, todo, mathlib=self.src.uses_mathlib)
            if self.engine.mathlib_fallback and not self.src.uses_mathlib:
                again = [i for i, d in enumerate(decided) if d.retry_with_mathlib]
                if again:
                    redo = self._decide(kind, [todo[i] for i in again], mathlib=True)
                    for i, d in zip(again, redo):
                        decided[i] = d
            if self.engine.plausible:
                self._plausible(kind, todo, decided)
            for s, d in zip(todo, decided):
                self._verdicts[(kind, s.key)] = d.verdict
        return [s if isinstance(s, Verdict) else self._verdicts[(kind, s.key)] for s in specs]

    def _make(self, kind: str, *, plausible: bool, mathlib: bool) -> Callable[[Sequence[str]], LeanFile]:
        def make(bodies: Sequence[str]) -> LeanFile:
            return render_check_file(self.src, kind, bodies, plausible=plausible, mathlib=mathlib)

        return make

    def _decide(self, kind: str, todo: list[_Spec], *, mathlib: bool) -> list[_Decided]:
        runs = self.engine.run_cases(
            self._make(kind, plausible=False, mathlib=mathlib), [s.key for s in todo]
        )
        out: list[_Decided] = []
        for run in runs:
            if run.failure is not None:
                f = run.failure
                cat = "timeout" if f.kind == "timeout" else "error"
                out.append(_Decided(Verdict.unknown(_failure_reason(f), cat), mathlib=mathlib))
                continue
            if run.preamble_errors:
                out.append(
                    _Decided(
                        Verdict.unknown(_broken(run.preamble_errors), "elab"),
                        retry_with_mathlib=not mathlib and missing_name_error(run.preamble_errors),
                        mathlib=mathlib,
                    )
                )
                continue
            assert run.output is not None
            g = classify_guard(run.output)
            if g.value is not None:
                out.append(_Decided(Verdict.of(g.value), mathlib=mathlib))
                continue
            out.append(
                _Decided(
                    Verdict.unknown(g.reason, g.category),
                    retry_with_mathlib=not mathlib and missing_name_error(run.output.messages),
                    try_plausible=g.category != "timeout",
                    mathlib=mathlib,
                )
            )
        return out

    def _plausible(self, kind: str, todo: list[_Spec], decided: list[_Decided]) -> None:
        pending = [i for i, d in enumerate(decided) if d.verdict.is_unknown and d.try_plausible]
        if not pending:
            return
        # Import Mathlib for the plausible file if the decide run needed it for any of these cases.
        mathlib = self.src.uses_mathlib or any(decided[i].mathlib for i in pending)
        bodies: list[str] = []
        for i in pending:
            bodies.extend((todo[i].pos, todo[i].neg))
        runs = self.engine.run_cases(self._make(kind, plausible=True, mathlib=mathlib), bodies)
        for j, i in enumerate(pending):
            pos, neg = runs[2 * j], runs[2 * j + 1]
            decided[i] = _Decided(_combine(decided[i].verdict, pos, neg))

    # ---- runs
    def _evaluate_runs(self, todo: list[str]) -> None:
        outcomes = self._eval(todo, mathlib=self.src.uses_mathlib)
        if self.engine.mathlib_fallback and not self.src.uses_mathlib:
            again = [i for i, (_, retry) in enumerate(outcomes) if retry]
            if again:
                redo = self._eval([todo[i] for i in again], mathlib=True)
                for i, r in zip(again, redo):
                    outcomes[i] = r
        for key, (outcome, _) in zip(todo, outcomes):
            self._outcomes[key] = outcome

    def _eval(self, todo: list[str], *, mathlib: bool) -> list[tuple[Outcome, bool]]:
        runs = self.engine.run_cases(self._make("run", plausible=False, mathlib=mathlib), todo)
        out: list[tuple[Outcome, bool]] = []
        for run in runs:
            if run.failure is not None:
                f = run.failure
                if f.kind == "timeout":
                    out.append(
                        (Outcome(OutcomeKind.TIMEOUT, reason=_failure_reason(f), category="timeout"), False)
                    )
                elif f.kind == "crash":
                    out.append(
                        (Outcome(OutcomeKind.ERROR, reason=_failure_reason(f), category="crash"), False)
                    )
                else:
                    out.append(
                        (Outcome(OutcomeKind.UNKNOWN, reason=_failure_reason(f), category="error"), False)
                    )
                continue
            if run.preamble_errors:
                retry = not mathlib and missing_name_error(run.preamble_errors)
                out.append(
                    (Outcome(OutcomeKind.ERROR, reason=_broken(run.preamble_errors), category="elab"), retry)
                )
                continue
            assert run.output is not None
            read = read_value(run.output, self.src.return_type, self.src.structs)
            if read.ok:
                panic = next((ln.strip() for m in run.output.messages for ln in m.lines if "PANIC" in ln), "")
                out.append((Outcome(OutcomeKind.VALUE, read.value, reason=panic), False))
            elif read.category == "timeout":
                out.append((Outcome(OutcomeKind.TIMEOUT, reason=read.reason, category="timeout"), False))
            elif read.category == "output":
                out.append((Outcome(OutcomeKind.UNKNOWN, reason=read.reason, category="output"), False))
            else:
                retry = not mathlib and missing_name_error(run.output.messages)
                out.append((Outcome(OutcomeKind.ERROR, reason=read.reason, category=read.category), retry))
        return out


def _unique(keys: Any) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for k in keys:
        if k not in seen:
            seen.add(k)
            out.append(k)
    return out


def _block(run: CaseRun) -> tuple[str, str]:
    """(outcome, reason) of one plausible block, see ``parse.classify_plausible``."""
    if run.failure is not None:
        return "error", _failure_reason(run.failure)
    if run.preamble_errors:
        return "error", _broken(run.preamble_errors)
    assert run.output is not None
    res = classify_plausible(run.output)
    return res.outcome, res.reason or crash_signature(run.output.text())


def _combine(decide: Verdict, pos: CaseRun, neg: CaseRun) -> Verdict:
    """Plausible's evidence on P (``pos``) and on ¬P (``neg``).

    A counter-example to P, or ``simp`` proving ¬P, makes P FALSE; the mirror cases make
    it TRUE. Random testing that finds nothing is not a proof: UNKNOWN, with a category
    saying which side survived (Verina scores a surviving side as PASS).
    """
    p_out, p_why = _block(pos)
    n_out, n_why = _block(neg)
    votes: set[bool] = set()
    if p_out == "found" or n_out == "proved":
        votes.add(False)
    if n_out == "found" or p_out == "proved":
        votes.add(True)
    if len(votes) == 1:
        return Verdict.of(votes.pop())
    if len(votes) == 2:
        return Verdict.unknown("plausible: contradictory results for P and ¬P", "error")
    if p_out == "unable" and n_out == "unable":
        return Verdict.unknown("plausible found no counter-example to P nor to ¬P", "plausible_both")
    if p_out == "unable":
        return Verdict.unknown("plausible found no counter-example to P", "plausible_true")
    if n_out == "unable":
        return Verdict.unknown("plausible found no counter-example to ¬P", "plausible_false")
    why = next((w for w in (p_why, n_why) if w), "")
    cat = "undecided" if "gave_up" in (p_out, n_out) else (decide.category or "undecided")
    return Verdict.unknown(f"{decide.reason}; plausible: {why}" if why else decide.reason, cat)
