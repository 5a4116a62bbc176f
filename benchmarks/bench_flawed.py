"""The hand-written flawed corpus: build it, confirm every witness, measure how many flaws each suite detects.

``benchmarks/flawed/flaws.txt`` is the source (written by reading each task; see its header for the
format). Each flaw replaces one part of a Verina task's ground truth — its precondition,
postcondition or implementation — and carries a *witness*, the evidence that the flaw is real:

* ``pre_weak``    an input the ground-truth precondition rejects and the flawed one accepts;
* ``pre_strong``  an input the ground-truth precondition accepts and the flawed one rejects;
* ``post_weak``   a valid input and an output the ground-truth postcondition rejects and the flawed
  one accepts;
* ``post_strong`` a valid input and a correct output (default: the ground-truth implementation's)
  that the ground-truth postcondition accepts and the flawed one rejects;
* ``code``        a valid input on which the flawed implementation returns a value that differs from
  the ground truth's and that the ground-truth postcondition rejects.

Three steps, all run by default::

    python benchmarks/bench_flawed.py [--suite NAME=DIR ...] [--workers 2] [--only-validate]

1. *build*: ``flaws.txt`` → ``benchmarks/flawed/corpus.jsonl`` (the generations format of
   docs/evaluate.md; the flaw and its witness travel in ``meta``), rewritten only when it changes;
2. *validate*: every witness is checked with the native engine against the ground truth (a witness
   the engine cannot decide counts as unconfirmed: an equivalent "flaw" must never count);
3. *detect*: ``veriscale evaluate``'s API scores the confirmed flaws on each suite; a flaw is
   detected when any metric it targets FAILs (a spec flaw: any of the four precondition /
   postcondition soundness / completeness metrics; a code flaw: ``code``). Detection rate per suite
   and per flaw kind is printed, and every miss with its reason (metric PASS = the suite has no row
   that tells the flaw apart; UNKNOWN = the engine could not decide the rows that would).

Default suites: Verina, the shared VerinaPlus and VerinaLite (which have no unexpected outputs, so
``post_weak`` flaws cannot be detected there: they are counted as misses, reason "no unexpected
outputs"). Add a ``veriscale scale`` run's suites with ``--run RUN`` (or ``--suite NAME=DIR``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from veriscale.evaluate.generations import Generation, ground_truth_generation, parse_generations
from veriscale.evaluate.harness import EvalOptions, SuiteSpec, evaluate_generations
from veriscale.evaluate.scoring.codegen import code_overrides
from veriscale.evaluate.scoring.specgen import spec_overrides
from veriscale.formats.verina.dataset import read_task
from veriscale.languages.lean.engines import make_engine
from veriscale.values.codec import DecodeError, to_json, values_equal

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "flawed" / "flaws.txt"
CORPUS = HERE / "flawed" / "corpus.jsonl"
DATA = HERE.parent.parent / "shared" / "data"
WITNESS_KINDS = ("pre_weak", "pre_strong", "post_weak", "post_strong", "code")
PARTS = ("precond_aux", "precond", "postcond_aux", "postcond", "code_aux", "code")
SPEC_METRICS = ("precond_sound", "precond_complete", "postcond_sound", "postcond_complete")
_HEADER = re.compile(r"^### (\S+) \| (\S+) \| (\S+) \| (.+)$")
_PART = re.compile(r"^(" + "|".join(PARTS) + r"):\s*$")


class SourceError(ValueError):
    pass


def parse_source(text: str, where: str = "flaws.txt") -> list[dict[str, Any]]:
    """Read the flaw blocks: a ``### TASK | WITNESS-KIND | CATEGORY | description`` header, one or
    more ``PART:`` blocks (the replaced Lean text, up to the next header, part or ``witness:`` line),
    then ``witness: {JSON}`` (``input``, and ``output`` for post witnesses). Lines before the first
    header and lines starting with ``#`` followed by a space are comments."""
    flaws: list[dict[str, Any]] = []
    cur: dict[str, Any] | None = None
    part: str | None = None
    for n, line in enumerate(text.splitlines(), 1):
        m = _HEADER.match(line)
        if m:
            if cur is not None:
                flaws.append(cur)
            task, kind, category, desc = m.groups()
            if kind not in WITNESS_KINDS:
                raise SourceError(f"{where}:{n}: unknown witness kind {kind!r}")
            cur = {
                "task_id": task,
                "witness_kind": kind,
                "category": category,
                "description": desc,
                "parts": {},
                "line": n,
            }
            part = None
            continue
        if cur is None or line.startswith("# "):
            continue
        m = _PART.match(line)
        if m:
            part = m.group(1)
            cur["parts"][part] = []
            continue
        if line.startswith("witness:"):
            try:
                cur["witness"] = json.loads(line[len("witness:") :])
            except json.JSONDecodeError as exc:
                raise SourceError(f"{where}:{n}: witness is not JSON: {exc}") from None
            part = None
            continue
        if part is not None:
            cur["parts"][part].append(line)
        elif line.strip():
            raise SourceError(f"{where}:{n}: text outside a part: {line!r}")
    if cur is not None:
        flaws.append(cur)
    for f in flaws:
        f["parts"] = {k: "\n".join(v).strip("\n") + "\n" for k, v in f["parts"].items()}
        if not f["parts"]:
            raise SourceError(f"{where}:{f['line']}: {f['task_id']}: no replaced part")
        if "witness" not in f:
            raise SourceError(f"{where}:{f['line']}: {f['task_id']}: no witness")
    return flaws


def build_corpus(flaws: list[dict[str, Any]], verina: Path) -> list[Generation]:
    """One generation per flaw: the ground truth of its kind with the flawed parts replaced; the
    sample index counts the task's flaws in source order."""
    gens: list[Generation] = []
    per_task: Counter[str] = Counter()
    for f in flaws:
        task = read_task(verina / f["task_id"])
        kind = "code" if f["witness_kind"] == "code" else "spec"
        gt = ground_truth_generation(task, per_task[f["task_id"]], kinds=(kind,)).to_json()
        per_task[f["task_id"]] += 1
        for name, text in f["parts"].items():
            if name not in gt:
                raise SourceError(f"line {f['line']}: {f['task_id']}: part {name} is not a {kind} field")
            gt[name] = text
        gt["model"] = "flawed"
        gt["meta"] = {
            "witness_kind": f["witness_kind"],
            "category": f["category"],
            "description": f["description"],
            "witness": f["witness"],
            "source_line": f["line"],
        }
        gens.append(gt)  # type: ignore[arg-type]
    text = "".join(json.dumps(g, ensure_ascii=False) + "\n" for g in gens)
    parsed = parse_generations(text.splitlines(), str(CORPUS))
    if parsed.errors:
        raise SourceError("; ".join(str(e) for e in parsed.errors))
    return parsed.generations


def _overrides(g: Generation) -> dict[str, str]:
    # the evaluator's own overrides, so a witness is checked on exactly what ``evaluate`` scores
    return code_overrides(g) if g.kinds == ("code",) else spec_overrides(g)


def validate(g: Generation, verina: Path, engine: Any) -> str:
    """ "" when the witness is confirmed, else why not."""
    task = read_task(verina / g.task_id)
    meta = g.meta
    w = meta["witness"]
    try:
        inputs = task.decode_input(w["input"], file="witness")
    except DecodeError as exc:
        return f"witness input: {exc}"
    gt = engine.for_task(task)
    flawed = engine.for_task(task, _overrides(g))
    kind = meta["witness_kind"]
    gt_pre = gt.precondition(inputs)
    if kind == "pre_weak":
        fp = flawed.precondition(inputs)
        ok = gt_pre.is_false and fp.is_true
        return (
            ""
            if ok
            else f"ground-truth pre {gt_pre.truth.value} {gt_pre.reason}, flawed pre {fp.truth.value} {fp.reason}"
        )
    if not gt_pre.is_true:
        return f"witness input: ground-truth precondition {gt_pre.truth.value} {gt_pre.reason}"
    if kind == "pre_strong":
        fp = flawed.precondition(inputs)
        return "" if fp.is_false else f"flawed pre {fp.truth.value} {fp.reason}"
    ret = task.signature.return_type
    if kind == "code":
        ref, got = gt.run(inputs), flawed.run(inputs)
        if not ref.ok:
            return f"ground-truth run: {ref.kind.value} {ref.reason}"
        if not got.ok:
            return f"flawed run: {got.kind.value} {got.reason}"
        if values_equal(ret, ref.value, got.value):
            return f"flawed implementation returns the same value {to_json(ret, got.value)}"
        v = gt.postcondition(inputs, got.value)
        return "" if v.is_false else f"ground-truth post on the flawed output: {v.truth.value} {v.reason}"
    if "output" in w:
        try:
            out = task.decode_output(w["output"], file="witness")
        except DecodeError as exc:
            return f"witness output: {exc}"
    else:
        ref = gt.run(inputs)
        if not ref.ok:
            return f"ground-truth run: {ref.kind.value} {ref.reason}"
        out = ref.value
    gp, fq = gt.postcondition(inputs, out), flawed.postcondition(inputs, out)
    want_gt, want_flawed = (False, True) if kind == "post_weak" else (True, False)
    ok = (gp.is_true if want_gt else gp.is_false) and (fq.is_true if want_flawed else fq.is_false)
    return (
        ""
        if ok
        else f"ground-truth post {gp.truth.value} {gp.reason}, flawed post {fq.truth.value} {fq.reason}"
    )


def _targets(g: Generation) -> tuple[str, ...]:
    return ("code",) if g.meta["witness_kind"] == "code" else SPEC_METRICS


def detect(gens: list[Generation], suites: list[SuiteSpec], workers: int) -> dict[str, Any]:
    run = evaluate_generations(gens, suites, EvalOptions(workers=workers))
    by_key = {(r.suite, r.task_id, r.sample): r for r in run.results}
    out: dict[str, Any] = {}
    for s in suites:
        info = next(i for i in run.suites if i.name == s.name)
        rows = []
        for g in gens:
            r = by_key.get((s.name, g.task_id, g.sample))
            if r is None:
                rows.append((g, False, "task not in suite"))
                continue
            scores = {m: r.metrics[m] for m in _targets(g) if m in r.metrics}
            failed = [m for m, res in scores.items() if res.score.value == "FAIL"]
            if failed:
                rows.append((g, True, ",".join(failed)))
                continue
            wk = g.meta["witness_kind"]
            main = {
                "pre_weak": "precond_complete",
                "pre_strong": "precond_sound",
                "post_weak": "postcond_sound",
                "post_strong": "postcond_complete",
                "code": "code",
            }[wk]
            res = scores.get(main)
            if res is None:
                why = "metric not scored"
            elif wk == "post_weak" and not info.has_unexpected:
                why = "no unexpected outputs in the suite"
            elif res.score.value == "UNKNOWN":
                why = f"{main} UNKNOWN: {res.reason[:100]}"
            else:
                why = f"{main} {res.score.value} on {res.n_tests} tests"
            rows.append((g, False, why))
        out[s.name] = rows
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--verina", type=Path, default=DATA / "verina")
    ap.add_argument(
        "--suite", action="append", default=[], help="NAME=DIR (default: verina, verinaplus, verinalite)"
    )
    ap.add_argument("--run", type=Path, help="a `veriscale scale` run: add its plus/ and lite/ suites")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only-validate", action="store_true")
    ap.add_argument("--task", action="append", default=[], help="only these tasks")
    args = ap.parse_args(argv)
    if not args.verina.is_dir():
        print(f"Verina not found at {args.verina}", file=sys.stderr)
        return 2
    flaws = parse_source(SOURCE.read_text(encoding="utf-8"))
    gens = build_corpus(flaws, args.verina)
    text = "".join(json.dumps(g.to_json(), ensure_ascii=False) + "\n" for g in gens)
    if not CORPUS.exists() or CORPUS.read_text(encoding="utf-8") != text:
        CORPUS.write_text(text, encoding="utf-8")
    if args.task:
        gens = [g for g in gens if g.task_id in set(args.task)]
    engine = make_engine("native", fuel=20_000_000, seconds=60.0)
    confirmed: list[Generation] = []
    bad = 0
    for g in gens:
        why = validate(g, args.verina, engine)
        if why:
            bad += 1
            print(
                f"UNCONFIRMED {g.task_id}#{g.sample} (flaws.txt:{g.meta['source_line']}, {g.meta['witness_kind']}): {why}"
            )
        else:
            confirmed.append(g)
    kinds = Counter(g.meta["witness_kind"] for g in confirmed)
    cats = Counter(g.meta["category"] for g in confirmed)
    print(
        f"flaws: {len(gens)}, witnesses confirmed: {len(confirmed)}, unconfirmed: {bad}; "
        f"tasks: {len({g.task_id for g in confirmed})}"
    )
    print("by witness kind: " + ", ".join(f"{k} {kinds[k]}" for k in WITNESS_KINDS))
    print("by category: " + ", ".join(f"{k} {n}" for k, n in sorted(cats.items())))
    if args.only_validate or not confirmed:
        return 1 if bad else 0
    specs = args.suite or [
        f"verina={DATA / 'verina'}",
        f"verinaplus={DATA / 'verinaplus'}",
        f"verinalite={DATA / 'verinalite'}",
    ]
    if args.run is not None:
        specs += [f"plus={args.run / 'plus'}", f"lite={args.run / 'lite'}"]
    suites = []
    for spec in specs:
        name, _, path = spec.partition("=")
        suites.append(SuiteSpec(name, Path(path)))
    start = time.perf_counter()
    result = detect(confirmed, suites, args.workers)
    print(f"(evaluated in {time.perf_counter() - start:.0f} s)")
    for name, rows in result.items():
        n_det = sum(1 for _, d, _ in rows if d)
        print(f"\n== {name}: detected {n_det}/{len(rows)} = {100 * n_det / max(1, len(rows)):.1f}%")
        per = Counter(g.meta["witness_kind"] for g, d, _ in rows if d)
        tot = Counter(g.meta["witness_kind"] for g, _, _ in rows)
        print("   " + ", ".join(f"{k} {per[k]}/{tot[k]}" for k in WITNESS_KINDS if tot[k]))
        for g, d, why in rows:
            if not d:
                print(f"   MISS {g.task_id}#{g.sample} {g.meta['witness_kind']} {g.meta['category']}: {why}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
