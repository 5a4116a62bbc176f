"""A VeriContest problem's function-level test cases: positives (input, right output) and negatives
(input, wrong output), built once per problem and shared by every sample scored on it.

Sources, in this order:

* the description's examples. LeetCode: the stated input and output. Codeforces:
  the calls the reference program (``main.rs``) makes to the target function
  on the example's stdin, recorded by the traced build, when the program's
  stdout equals the stated one;
* ``tests/testcases.jsonl`` (positives) and ``tests/mutated_testcases.jsonl``
  (negatives) in the problem folder, when present: ``{"input": …, "output": …}``
  per line. An ``input`` object is keyed by parameter name (camelCase keys are
  snake_cased; bound by position when the names differ), a list is positional;
  a string is a Codeforces stdin (positives only: it is traced like an example).

Suite defects are left out and counted (``excluded``), as Verina's rows the
suite's own reference contradicts are (unless ``trust``): a positive whose
stated output the reference implementation does not return (several valid
answers, wrong examples), an undecodable row, a negative the ground-truth
``ensures`` accepts (it is a right answer). Only a definite disagreement
counts; a reference that errs or a verdict that is UNKNOWN keeps the row.

A positive the ground-truth *specification* contradicts — its ``requires``
is FALSE on the input, or its ``ensures`` is FALSE on the reference's output
(a benchmark defect of the spec: lc704's unsatisfiable ``requires``, lc3022's
stub ``ensures``, lc3131's element-wise reading) — still tests code, but not
specifications: it is marked (``Case.spec_defect``), counted in
``spec_excluded`` and left out of the spec metrics (unless ``trust``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...formats.vericontest.answers import input_names
from ...formats.vericontest.dataset import snake_case
from ...runtime.engine import OutcomeKind, Verdict
from ...values import rust_codec
from ...values.codec import DecodeError

__all__ = ["Case", "ProblemCases", "build_cases", "normalize_stdout"]

POSITIVES_FILE = "tests/testcases.jsonl"
NEGATIVES_FILE = "tests/mutated_testcases.jsonl"


def normalize_stdout(text: str) -> str:
    lines = [ln.rstrip() for ln in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


@dataclass
class Case:
    where: str  # "example 0", "example 1, call 2", "test 5", "negative 3"
    inputs: dict[str, Any]  # runtime values keyed by the reference's parameter names
    output: Any  # full runtime output (an ``InPlaceOutput`` for in-place targets)
    expected_view: Any  # what a candidate's output is compared with (``view`` of the output)
    spec_defect: str = ""  # why the ground-truth spec contradicts this positive ("": it does not)
    # the ground truth's own verdicts, when building the cases computed them (``spec_verdicts`` reuses
    # them for an answer whose specification is the ground truth's): requires on the input; ensures
    # on (input, output)
    gt_requires: Verdict | None = None
    gt_ensures: Verdict | None = None


@dataclass
class ProblemCases:
    positives: list[Case] = field(default_factory=list)
    negatives: list[Case] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)  # "where: why", suite defects left out
    # Codeforces: (where, stdin, stdout) of the program-level positives the reference agrees with
    stdin_cases: list[tuple[str, str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    spec_excluded: list[str] = field(default_factory=list)  # "where: why" of positives with a spec_defect

    @property
    def spec_positives(self) -> list[Case]:
        """The positives a specification is judged on."""
        return [c for c in self.positives if not c.spec_defect]


def _view(te: Any, out: Any) -> Any:
    return te.stated_view(out) if te.is_inplace() else out


def _bind(problem: Any, raw: Any) -> dict[str, Any]:
    names = input_names(problem)
    if isinstance(raw, list):
        if len(raw) != len(names):
            raise ValueError(f"{len(raw)} positional inputs for parameters {names}")
        return dict(zip(names, raw))
    if not isinstance(raw, dict):
        raise ValueError("an input must be an object keyed by parameter name or a positional list")
    given = {snake_case(k): v for k, v in raw.items()}
    if sorted(given) == sorted(names):
        return {n: given[n] for n in names}
    if len(given) == len(names):
        return dict(zip(names, raw.values()))
    raise ValueError(f"input names {sorted(raw)} do not match parameters {names}")


def _lc_positives(te: Any, rows: list[tuple[str, Any, Any]], pc: ProblemCases, trust: bool) -> None:
    """Function-level positives: decode, run the reference on all of them in one process, compare."""
    decoded: list[tuple[str, dict[str, Any], Any, Any]] = []
    for where, raw_in, raw_out in rows:
        try:
            inputs = te.decode_inputs(_bind(te.problem, raw_in))
            if te.is_inplace():
                view, full = te.decode_stated(raw_out)
            else:
                view = full = te.decode_output(raw_out)
        except (DecodeError, ValueError) as exc:
            pc.excluded.append(f"{where}: does not decode: {exc}")
            continue
        decoded.append((where, inputs, view, full))
    outs = te.runs([d[1] for d in decoded]) if decoded else []
    for (where, inputs, view, full), out in zip(decoded, outs):
        if out.kind is OutcomeKind.VALUE:
            got = _view(te, out.value)
            if got != view and not trust:
                pc.excluded.append(
                    f"{where}: suite defect: the reference returns {got!r}, not the stated {view!r} (left out)"
                )
                continue
            if got == view:
                full = out.value  # the reference's full output agrees with the stated part
        if full is None:  # an in-place stated output that does not determine the full output
            pc.excluded.append(f"{where}: no full output to check a specification on")
            continue
        pc.positives.append(Case(where, inputs, full, view))


def _cf_positives(te: Any, where: str, stdin: str, stdout: str | None, pc: ProblemCases, trust: bool) -> None:
    problem = te.problem
    tr = te.runner.run_stdin(stdin)
    if not tr.result.ok:
        pc.excluded.append(f"{where}: the reference program fails: {tr.result.status}: {tr.result.message}")
        return
    if stdout is not None and normalize_stdout(tr.result.stdout) != normalize_stdout(stdout) and not trust:
        pc.excluded.append(f"{where}: suite defect: the reference prints a different output (row left out)")
        return
    pc.stdin_cases.append((where, stdin, tr.result.stdout if stdout is None else stdout))
    params = problem.ref_signature.params
    if not tr.calls:
        pc.excluded.append(f"{where}: the reference program made no call to the target function")
        return
    for j, call in enumerate(tr.calls):
        args = call.get("args")
        w = f"{where}, call {j}"
        if not isinstance(args, list) or len(args) != len(params):
            pc.excluded.append(f"{w}: traced call has the wrong arguments")
            continue
        try:
            inputs = {
                p.name: rust_codec.decode(p.value_type, a, structs=problem.structs)
                for p, a in zip(params, args)
            }
            output = te.decode_output(call.get("ret"))
        except DecodeError as exc:
            pc.excluded.append(f"{w}: traced call does not decode: {exc}")
            continue
        pc.positives.append(Case(w, inputs, output, _view(te, output)))


def _jsonl(path: Path, pc: ProblemCases, label: str) -> list[tuple[str, Any, Any]]:
    rows: list[tuple[str, Any, Any]] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        pc.notes.append(f"{path}: cannot be read: {exc}")
        return rows
    for n, text in enumerate(lines, 1):
        if not text.strip():
            continue
        where = f"{label} {n - 1}"
        try:
            obj = json.loads(text)
        except ValueError as exc:
            pc.excluded.append(f"{where}: {path.name}:{n}: invalid JSON: {exc}")
            continue
        if not isinstance(obj, dict) or "input" not in obj or "output" not in obj:
            pc.excluded.append(f"{where}: {path.name}:{n}: a row needs 'input' and 'output'")
            continue
        rows.append((where, obj["input"], obj["output"]))
    return rows


def _negatives(te: Any, rows: list[tuple[str, Any, Any]], pc: ProblemCases, trust: bool) -> None:
    """Decode the negatives, then label them all with the ground-truth ``ensures`` in one batch (one
    compiled-checker process for the file, the Python evaluator only where it is UNKNOWN): one process
    per row made a 2,000-row file cost ~50 s of process start-ups."""
    decoded: list[tuple[str, dict[str, Any], Any]] = []
    for where, raw_in, raw_out in rows:
        if isinstance(raw_in, str):
            pc.excluded.append(f"{where}: a stdin-level negative cannot be checked at the function level")
            continue
        try:
            inputs = te.decode_inputs(_bind(te.problem, raw_in))
            output = te.decode_output(raw_out)
        except (DecodeError, ValueError) as exc:
            pc.excluded.append(f"{where}: does not decode: {exc}")
            continue
        decoded.append((where, inputs, output))
    verdicts = te.postconditions([(i, o) for _, i, o in decoded]) if decoded and not trust else []
    for k, (where, inputs, output) in enumerate(decoded):
        if verdicts and verdicts[k].is_true:
            pc.excluded.append(
                f"{where}: suite defect: the ground-truth ensures accepts this output (left out)"
            )
            continue
        gt = verdicts[k] if verdicts else None
        pc.negatives.append(Case(where, inputs, output, _view(te, output), gt_ensures=gt))


def build_cases(problem: Any, te: Any, *, trust: bool = False) -> ProblemCases:
    """Positives and negatives of ``problem``; ``te`` is the ground-truth task engine."""
    pc = ProblemCases()
    lc: list[tuple[str, Any, Any]] = []
    for ex in problem.examples:
        where = f"example {ex.index}"
        if problem.is_codeforces:
            if ex.error:
                pc.excluded.append(f"{where}: {ex.error}")
                continue
            _cf_positives(te, where, ex.stdin, ex.stdout, pc, trust)
        elif ex.inputs is None:
            pc.excluded.append(f"{where}: does not parse: {ex.error}")
        else:
            lc.append((where, ex.inputs, ex.output))
    pos = Path(problem.path) / POSITIVES_FILE
    if pos.is_file():
        for where, raw_in, raw_out in _jsonl(pos, pc, "test"):
            if isinstance(raw_in, str):
                _cf_positives(te, where, raw_in, raw_out if isinstance(raw_out, str) else None, pc, trust)
            else:
                lc.append((where, raw_in, raw_out))
    _lc_positives(te, lc, pc, trust)
    if not trust:
        _mark_spec_defects(te, pc)
    neg = Path(problem.path) / NEGATIVES_FILE
    if neg.is_file():
        _negatives(te, _jsonl(neg, pc, "negative"), pc, trust)
    return pc


def _mark_spec_defects(te: Any, pc: ProblemCases) -> None:
    """Mark the positives the ground-truth ``requires``/``ensures`` definitely reject (module doc)."""
    pos = pc.positives
    if not pos:
        return
    pre = te.preconditions([c.inputs for c in pos])
    post = te.postconditions([(c.inputs, c.output) for c in pos])
    for c, p, q in zip(pos, pre, post):
        c.gt_requires, c.gt_ensures = p, q
        if p.is_false:
            c.spec_defect = "suite defect: the ground-truth requires rejects this input"
        elif q.is_false:
            c.spec_defect = "suite defect: the ground-truth ensures rejects the reference's output"
        if c.spec_defect:
            pc.spec_excluded.append(f"{c.where}: {c.spec_defect} (left out of the spec metrics)")
