"""Ground-truth check of VeriContest problems on their description examples (``veriscale check``).

For every problem and every example of its description:

* the reference runs (``code.rs``; Codeforces: ``main.rs`` on the example's
  stdin) and its output is compared with the stated one (LeetCode: decoded
  values; Codeforces: stdout with trailing spaces and blank lines dropped);
* on every function-level case — the LeetCode example itself, or each call
  the Codeforces program made to the target function (recorded by the
  traced build) — the ground-truth ``requires`` must hold on the input and
  the ground-truth ``ensures`` must accept the reference's output.

A disagreement with the stated output is reported, not counted as a
failure of veriscale: descriptions have several-valid-answer problems and a
few wrong examples (see ``docs/vericontest-mismatches.md``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...formats.vericontest.dataset import Problem, ProblemError, discover_problems, read_problem
from ...languages.registry import language
from ...runtime.engine import OutcomeKind, Verdict
from ...runtime.executor import Executor, pool_executor
from ...runtime.shipping import Shipped, local_path, ship
from ...values import rust_codec
from ...values.codec import DecodeError


def _normalize_stdout(text: str) -> str:
    return language("verus").normalize_stdout(text)  # type: ignore[attr-defined]


__all__ = [
    "CaseCheck",
    "ExampleCheck",
    "ProblemCheck",
    "check_problem",
    "run_vericontest_check",
    "summarize",
]


@dataclass
class CaseCheck:
    """One function-level case: verdicts of ``requires`` (input) and ``ensures`` (reference output)."""

    requires: Verdict
    ensures: Verdict | None  # None: the reference produced no output for this case
    note: str = ""


@dataclass
class ExampleCheck:
    index: int
    canonical: bool
    status: str  # "agree", "disagree", "ref-error", "undecodable", "expected-undecodable"
    detail: str = ""
    cases: list[CaseCheck] = field(default_factory=list)


@dataclass
class ProblemCheck:
    problem: str
    kind: str
    load_error: str = ""
    compile_error: str = ""
    examples: list[ExampleCheck] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    suite: dict[str, Any] | None = None  # verdicts on the problem's own test files (vericontest_suites)

    @property
    def cases(self) -> list[CaseCheck]:
        return [c for e in self.examples for c in e.cases]


def check_problem(problem: Problem, te: Any) -> ProblemCheck:
    pc = ProblemCheck(problem.id, problem.kind, warnings=list(problem.warnings))
    if problem.is_codeforces:
        _check_cf(problem, te, pc)
    else:
        _check_lc(problem, te, pc)
    return pc


def _check_lc(problem: Problem, te: Any, pc: ProblemCheck) -> None:
    rows: list[tuple[int, dict[str, Any]]] = []
    for ex in problem.examples:
        if ex.inputs is None:
            pc.examples.append(ExampleCheck(ex.index, ex.canonical, "undecodable", ex.error or ""))
            continue
        try:
            rows.append((ex.index, te.decode_inputs(ex.inputs)))
        except DecodeError as exc:
            pc.examples.append(ExampleCheck(ex.index, ex.canonical, "undecodable", str(exc)))
    if not rows:
        return
    comp = te.runner.harness()
    if not comp.ok:
        pc.compile_error = comp.errors[:2000]
    outcomes = te.runs([r for _, r in rows])
    by_index = {ex.index: ex for ex in problem.examples}
    # batched: one compiled-checker process for all requires, one for all ensures
    reqs = te.preconditions([r for _, r in rows])
    valued = [
        (inputs, out.value) for (_, inputs), out in zip(rows, outcomes) if out.kind is OutcomeKind.VALUE
    ]
    ens_iter = iter(te.postconditions(valued))
    for (k, inputs), out, req in zip(rows, outcomes, reqs):
        ex = by_index[k]
        if out.kind is not OutcomeKind.VALUE:
            pc.examples.append(ExampleCheck(k, ex.canonical, "ref-error", f"{out.kind.value}: {out.reason}",
                                            [CaseCheck(req, None)]))  # fmt: skip
            continue
        ens = next(ens_iter)
        case = CaseCheck(req, ens)
        if te.is_inplace():
            pc.examples.append(_inplace_example(te, ex, inputs, out.value, case))
            continue
        try:
            expected = te.decode_output(ex.output)
        except DecodeError as exc:
            pc.examples.append(ExampleCheck(k, ex.canonical, "expected-undecodable",
                                            f"stated output does not decode: {exc}", [case]))  # fmt: skip
            continue
        if out.value == expected:
            pc.examples.append(ExampleCheck(k, ex.canonical, "agree", "", [case]))
        else:
            # is the stated answer valid too (several valid answers), or is the example wrong?
            stated = te.postcondition(inputs, expected)
            pc.examples.append(ExampleCheck(k, ex.canonical, "disagree",
                                            f"reference {out.value!r}, stated {expected!r} "
                                            f"(ensures on the stated output: {stated.truth.value})", [case]))  # fmt: skip
    pc.examples.sort(key=lambda e: e.index)


def _inplace_example(te: Any, ex: Any, inputs: dict[str, Any], value: Any,
                     case: CaseCheck) -> ExampleCheck:  # fmt: skip
    """Compare an in-place target's result with the stated output (the final array, or the return value)."""
    try:
        stated, full = te.decode_stated(ex.output)
    except DecodeError as exc:
        return ExampleCheck(ex.index, ex.canonical, "expected-undecodable",
                            f"stated output does not decode: {exc}", [case])  # fmt: skip
    got = te.stated_view(value)
    if got == stated:
        return ExampleCheck(ex.index, ex.canonical, "agree", "", [case])
    verdict = te.postcondition(inputs, full).truth.value if full is not None else "not evaluated"
    return ExampleCheck(ex.index, ex.canonical, "disagree",
                        f"reference {got!r}, stated {stated!r} (ensures on the stated output: {verdict})",
                        [case])  # fmt: skip


def _check_cf(problem: Problem, te: Any, pc: ProblemCheck) -> None:
    if not problem.examples:
        return
    comp = te.runner.traced()
    if not comp.ok:
        pc.compile_error = comp.errors[:2000]
    params = problem.ref_signature.params
    # every example runs first; the traced calls of all of them are then checked in one batch
    pending: list[tuple[list[CaseCheck], int, dict[str, Any], Any]] = []
    for ex in problem.examples:
        if ex.error:  # e.g. an input whose line breaks were lost: never run it
            pc.examples.append(ExampleCheck(ex.index, ex.canonical, "undecodable", ex.error))
            continue
        tr = te.runner.run_stdin(ex.stdin)
        res = tr.result
        cases: list[CaseCheck] = []
        for call in tr.calls:
            args = call.get("args")
            if not isinstance(args, list) or len(args) != len(params):
                continue
            try:
                inputs = {p.name: rust_codec.decode(p.value_type, a, structs=problem.structs)
                          for p, a in zip(params, args)}  # fmt: skip
                output = te.decode_output(call.get("ret"))
            except DecodeError as exc:
                cases.append(CaseCheck(Verdict.unknown(f"traced call does not decode: {exc}", "error"), None))
                continue
            placeholder = CaseCheck(Verdict.unknown("not checked", "error"), None)
            pending.append((cases, len(cases), inputs, output))
            cases.append(placeholder)
        if not res.ok:
            pc.examples.append(ExampleCheck(ex.index, ex.canonical, "ref-error",
                                            f"{res.status}: {res.message}", cases))  # fmt: skip
            continue
        got, want = _normalize_stdout(res.stdout), _normalize_stdout(ex.stdout)
        if not tr.calls:
            note = "the program made no call to the target function"
            cases.append(CaseCheck(Verdict.unknown(note, "unsupported"), None, note))
        if got == want:
            pc.examples.append(ExampleCheck(ex.index, ex.canonical, "agree", "", cases))
        else:
            pc.examples.append(ExampleCheck(ex.index, ex.canonical, "disagree",
                                            f"reference {got!r}, stated {want!r}", cases))  # fmt: skip
    reqs = te.preconditions([inputs for _, _, inputs, _ in pending])
    enss = te.postconditions([(inputs, output) for _, _, inputs, output in pending])
    for (cases, at, _, _), req, ens in zip(pending, reqs, enss):
        cases[at] = CaseCheck(req, ens)


def _check_path(args: tuple[str | Shipped, float, int, float, str | None]) -> ProblemCheck:
    path, case_seconds, memory_mb, spec_seconds, cache = args
    p = Path(local_path(path))
    try:
        problem = read_problem(p)
    except ProblemError as exc:
        return ProblemCheck(
            p.name, "codeforces" if p.name.startswith("cf") else "leetcode", load_error=str(exc)
        )
    verus = language(problem.language)
    engine = verus.make_engine(
        "native",
        exec_limits=verus.exec_limits(case_seconds=case_seconds, memory_mb=memory_mb),  # type: ignore[attr-defined]
        # fuel decides; the clock (at least the engine's backstop) only guards against a stuck check
        spec_limits=verus.spec_limits(spec_seconds),  # type: ignore[attr-defined]
        cache=cache,
    )
    try:
        from .vericontest_suites import check_suite_files

        te = engine.for_task(problem)
        pc = check_problem(problem, te)
        pc.suite = check_suite_files(problem, te)
        return pc
    except Exception as exc:  # one problem's crash must not lose the others
        return ProblemCheck(problem.id, problem.kind, load_error=f"internal error: {exc!r}")


def run_vericontest_check(
    root: Path | str,
    *,
    only: Iterable[str] | None = None,
    jobs: int = 1,
    case_seconds: float = 10.0,
    memory_mb: int = 2048,
    spec_seconds: float = 10.0,
    cache: str | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[ProblemCheck]:
    """Check every problem under ``root`` on ``executor`` (default: ``jobs`` local workers); the
    checks come back in ``discover_problems`` order. A problem whose job raised or whose worker
    died is a ``load_error`` (``internal error: …``), not a lost problem. ``progress(done, total)``
    is called after each problem."""
    dirs = discover_problems(root)
    if only:
        wanted = set(only)
        dirs = [d for d in dirs if d.name in wanted]
    ex = executor if executor is not None else pool_executor(jobs)
    work = [
        (str(i), (ship(d, ex.remote), case_seconds, memory_mb, spec_seconds, cache))
        for i, d in enumerate(dirs)
    ]
    out: dict[str, ProblemCheck] = {}

    def on_done(key: str, check: ProblemCheck | None, error: str | None, _seconds: float) -> None:
        if check is None:
            name = dirs[int(key)].name
            kind = "codeforces" if name.startswith("cf") else "leetcode"
            check = ProblemCheck(name, kind, load_error=f"internal error: {error}")
        out[key] = check
        if progress:
            progress(len(out), len(work))

    ex.run(_check_path, work, on_done)
    return [out[key] for key, _ in work]


def _reason_key(v: Verdict) -> str:
    r = v.reason
    # group by the cause, not the clause text
    if "`: " in r:
        r = r.split("`: ", 1)[1]
    r = r.split(" (line")[0].split(" at line")[0]
    return f"{v.category}: {r[:90]}"


def summarize(checks: list[ProblemCheck]) -> dict[str, Any]:
    """Totals for the report: example agreement per family, verdict counts, decided postconditions."""
    out: dict[str, Any] = {"problems": len(checks)}
    for kind in ("leetcode", "codeforces"):
        pcs = [c for c in checks if c.kind == kind]
        for label, pick in (("canonical", lambda e: e.canonical), ("all", lambda e: True)):
            exs = [e for c in pcs for e in c.examples if pick(e)]
            st = Counter(e.status for e in exs)
            probs = [c for c in pcs if any(pick(e) for e in c.examples)]
            out[f"{kind}.{label}"] = {
                "examples": len(exs),
                "agree": st["agree"],
                "statuses": dict(sorted(st.items())),
                "problems": len(probs),
                "problems_all_agree": sum(
                    1 for c in probs if all(e.status == "agree" for e in c.examples if pick(e))
                ),
            }
        out[f"{kind}.load_errors"] = sum(1 for c in pcs if c.load_error)
        out[f"{kind}.compile_errors"] = sum(1 for c in pcs if c.compile_error)
    cases = [x for c in checks for x in c.cases]
    req = Counter(x.requires.truth.value for x in cases)
    ens = Counter(x.ensures.truth.value for x in cases if x.ensures is not None)
    out["cases"] = len(cases)
    out["requires"] = dict(sorted(req.items()))
    out["ensures"] = dict(sorted(ens.items()))
    unknown_reasons = Counter(
        _reason_key(x.ensures) for x in cases if x.ensures is not None and x.ensures.is_unknown
    )
    out["ensures_unknown_reasons"] = dict(unknown_reasons.most_common())
    req_unknown = Counter(_reason_key(x.requires) for x in cases if x.requires.is_unknown)
    out["requires_unknown_reasons"] = dict(req_unknown.most_common())
    with_cases = [c for c in checks if any(x.ensures is not None for x in c.cases)]
    decided = [c for c in with_cases if all(x.ensures is None or not x.ensures.is_unknown for x in c.cases)]
    out["postconditions_with_cases"] = len(with_cases)
    out["postconditions_decided"] = len(decided)
    out["ensures_false"] = [
        (c.problem, e.index) for c in checks for e in c.examples for x in e.cases
        if x.ensures is not None and x.ensures.is_false
    ]  # fmt: skip
    out["requires_false"] = [
        (c.problem, e.index) for c in checks for e in c.examples for x in e.cases if x.requires.is_false
    ]
    out["disagreements"] = [(c.problem, e.index, e.detail[:200]) for c in checks for e in c.examples
                            if e.status not in ("agree",)]  # fmt: skip
    out["undecided_problems"] = {
        c.problem: next(x.ensures.reason for x in c.cases if x.ensures is not None and x.ensures.is_unknown)
        for c in sorted(with_cases, key=lambda c: c.problem)
        if c not in decided
    }
    return out


def report_json(checks: list[ProblemCheck]) -> dict[str, Any]:
    def verdict(v: Verdict | None) -> Any:
        return None if v is None else {"truth": v.truth.value, "category": v.category, "reason": v.reason}

    return {
        "summary": summarize(checks),
        "problems": [
            {
                "problem": c.problem,
                "kind": c.kind,
                "load_error": c.load_error,
                "compile_error": c.compile_error,
                "warnings": c.warnings,
                "examples": [
                    {
                        "index": e.index,
                        "canonical": e.canonical,
                        "status": e.status,
                        "detail": e.detail,
                        "cases": [
                            {"requires": verdict(x.requires), "ensures": verdict(x.ensures)} for x in e.cases
                        ],
                    }
                    for e in c.examples
                ],
            }
            for c in checks
        ],
    }


def check_command(
    directory: Path,
    *,
    as_json: bool = False,
    jobs: int = 1,
    timeout: float = 10.0,
    only: list[str] | None = None,
    max_list: int = 0,
    executor: Executor | None = None,
) -> None:
    """``veriscale check`` on a VeriContest root, family or problem directory."""
    import json
    import sys

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    err = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, disable=not err.is_terminal) as bar:
        ticket = bar.add_task("compile and run the references", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(ticket, completed=done, total=total)

        checks = run_vericontest_check(
            directory,
            only=only,
            jobs=jobs,
            case_seconds=timeout,
            spec_seconds=timeout,
            executor=executor,
            progress=progress,
        )
    suites = [c.suite for c in checks if c.suite is not None]
    if as_json:
        from .vericontest_suites import summarize_suites

        rep = report_json(checks)
        if suites:
            rep["test_files"] = {"summary": summarize_suites(suites),
                                 "problems": {c.problem: c.suite for c in checks if c.suite is not None}}  # fmt: skip
        json.dump(rep, sys.stdout, indent=1, ensure_ascii=False, default=str)
        sys.stdout.write("\n")
        return
    s = summarize(checks)
    console = Console()
    table = Table(title=f"veriscale check {directory} (VeriContest)")
    for col in ("family", "examples agree", "problems all agree", "not agreeing (by status)"):
        table.add_column(col, justify="left" if col in ("family", "not agreeing (by status)") else "right")
    for kind in ("leetcode", "codeforces"):
        f = s[f"{kind}.all"]
        if not f["problems"]:
            continue
        other = ", ".join(f"{k} {n}" for k, n in f["statuses"].items() if k != "agree") or "-"
        table.add_row(
            kind, f"{f['agree']}/{f['examples']}", f"{f['problems_all_agree']}/{f['problems']}", other
        )
    console.print(table)
    spec = Table(title="ground-truth specification on the examples")
    for col in ("check", "TRUE", "FALSE", "UNKNOWN"):
        spec.add_column(col, justify="left" if col == "check" else "right")
    for label, counts in (
        ("requires on the input", s["requires"]),
        ("ensures on the reference output", s["ensures"]),
    ):
        spec.add_row(label, *(str(counts.get(k, 0)) for k in ("TRUE", "FALSE", "UNKNOWN")))
    console.print(spec)
    out = console.print
    out(f"postconditions decided on all their cases: {s['postconditions_decided']}/{s['postconditions_with_cases']}",
        markup=False, highlight=False)  # fmt: skip
    for title, reasons in (("ensures UNKNOWN by reason", s["ensures_unknown_reasons"]),
                           ("requires UNKNOWN by reason", s["requires_unknown_reasons"])):  # fmt: skip
        if reasons:
            out(title + ":", markup=False, highlight=False)
            for r, n in reasons.items():
                out(f"  {n:6}  {r}", markup=False, highlight=False)
    if suites:
        from .vericontest_suites import summarize_suites

        t = summarize_suites(suites)
        out(f"test files: {t['problems']} problems, {t['positives']} positives, {t['negatives']} negatives; "
            f"expected verdicts {t['expected']}, contrary {t['contrary']}, UNKNOWN {t['unknown']}, "
            f"undecodable lines {t['undecodable']}; agreement among decided "
            f"{'-' if t['agreement'] is None else format(100 * t['agreement'], '.2f') + '%'}",
            markup=False, highlight=False, soft_wrap=True)  # fmt: skip
    findings: list[str] = []
    for c in checks:
        for d in (c.suite or {}).get("disagreements", []):
            findings.append(f"TESTFILE  {c.problem} {d}")
        for w in c.warnings:
            findings.append(f"WARNING   {w}")
        if c.load_error:
            findings.append(f"LOAD      {c.problem}: {c.load_error}")
        if c.compile_error:
            findings.append(
                f"COMPILE   {c.problem}: {c.compile_error.strip().splitlines()[0] if c.compile_error.strip() else ''}"
            )
        for e in c.examples:
            if e.status != "agree":
                findings.append(f"{e.status.upper():9} {c.problem} example {e.index}: {e.detail}")
            for x in e.cases:
                if x.requires.is_false:
                    findings.append(f"REQUIRES  {c.problem} example {e.index}: {x.requires.reason}")
                if x.ensures is not None and x.ensures.is_false:
                    findings.append(f"ENSURES   {c.problem} example {e.index}: {x.ensures.reason}")
    if max_list:
        findings = findings[:max_list]
    for f in findings:
        out(f, markup=False, highlight=False, soft_wrap=True)
    n_false = len(s["ensures_false"]) + len(s["requires_false"])
    out(f"summary: {len(checks)} problems, {n_false} specification failures, "
        f"{len(s['disagreements'])} examples not agreeing with the description", markup=False, highlight=False,
        soft_wrap=True)  # fmt: skip
