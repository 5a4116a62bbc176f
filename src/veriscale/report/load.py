"""Read what ``veriscale report`` shows: evaluation output folders and ``scale`` run folders.

An **evaluation folder** holds ``summary.json`` and ``results.jsonl`` (``veriscale evaluate``,
docs/evaluate.md); the candidate texts are read back from the generations file the summary names
(its path as given to ``evaluate``, tried as is and then beside the folder). A **run folder**
holds ``config.json`` and ``plus/``/``lite/`` suites with one ``provenance.json`` per task
(``veriscale scale``, docs/scale.md), and ``stats.json`` (Table 1 volumes).

Bad input never stops the load: a bad line of ``results.jsonl`` or of the generations file, an
unreadable ``stats.json`` or ``provenance.json`` becomes a message naming file and line in
``Inputs.problems``, and the rest is read. Only a PATH that is neither kind of folder is an
error (``ReportInputError``), raised after every PATH was looked at.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "EvalInput",
    "Inputs",
    "ReportInputError",
    "RunInput",
    "SuiteRef",
    "load_inputs",
    "read_json",
]


class ReportInputError(ValueError):
    """A PATH given to ``veriscale report`` that is no evaluation folder and no run folder."""


@dataclass
class EvalInput:
    """One evaluation folder. ``rows`` are the lines of results.jsonl in file order;
    ``candidates`` maps (model or None, task id, sample) to the generation's JSON object."""

    name: str
    path: Path
    summary: dict[str, Any]
    rows: list[dict[str, Any]]
    candidates: dict[tuple[str | None, str, int], dict[str, Any]] = field(default_factory=dict)
    generations_file: Path | None = None


@dataclass
class RunInput:
    """One ``scale`` run folder: its config, stats and the suites it built (name → folder)."""

    name: str
    path: Path
    config: dict[str, Any]
    stats: dict[str, Any] | None
    suites: dict[str, Path]


@dataclass(frozen=True)
class SuiteRef:
    """A suite shown in the report: its display name, folder, and where it was seen first."""

    name: str
    path: Path
    source: str  # "evaluation NAME" or "run NAME"


@dataclass
class Inputs:
    evaluations: list[EvalInput]
    runs: list[RunInput]
    suites: list[SuiteRef]
    problems: list[str]


def read_json(path: Path, problems: list[str]) -> Any:
    """The JSON in ``path``, or None with a message in ``problems``."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        problems.append(f"{path}: cannot read: {exc}")
        return None


def _is_evaluation(p: Path) -> bool:
    return (p / "summary.json").is_file() or (p / "results.jsonl").is_file()


def _is_run(p: Path) -> bool:
    return (p / "config.json").is_file() and ((p / "plus").is_dir() or (p / "lite").is_dir())


def _json_lines(path: Path, problems: list[str], what: str, then: str) -> Iterator[tuple[int, Any]]:
    """(line number, value) of each non-blank JSON line of ``path``; an unreadable file ("cannot
    read{what}") or a bad line ("not JSON: …{then}") is reported in ``problems`` and skipped."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(f"{path}: cannot read{what}: {exc}")
        return
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{path}:{n}: not JSON: {exc}{then}")
            continue
        yield n, value


def _read_rows(path: Path, problems: list[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for n, row in _json_lines(path, problems, "", ""):
        missing = [k for k in ("suite", "task_id", "metrics") if k not in row]
        if not isinstance(row, dict) or missing:
            problems.append(f"{path}:{n}: field(s) {', '.join(missing) or '?'} missing; line skipped")
            continue
        why = _bad_row(row)
        if why:
            problems.append(f"{path}:{n}: {why}; line skipped")
            continue
        bad = sorted(m for m, v in row["metrics"].items() if not isinstance(v, dict))
        if bad:
            problems.append(f"{path}:{n}: field 'metrics': {', '.join(bad)} not an object; left out")
            row["metrics"] = {m: v for m, v in row["metrics"].items() if isinstance(v, dict)}
        row.setdefault("sample", 0)
        row.setdefault("model", None)
        rows.append(row)
    return rows


def _bad_row(row: dict[str, Any]) -> str:
    """Why a results.jsonl row cannot be shown ("" when it can)."""
    if not isinstance(row["metrics"], dict):
        return "field 'metrics': not an object"
    for f in ("suite", "task_id"):
        if not isinstance(row[f], str) or not row[f]:
            return f"field '{f}': not a non-empty string"
    if not isinstance(row.get("sample", 0), int) or isinstance(row.get("sample", 0), bool):
        return "field 'sample': not an integer"
    if row.get("model") is not None and not isinstance(row["model"], str):
        return "field 'model': not a string"
    return ""


def _find_generations(folder: Path, named: str | None) -> Path | None:
    """The generations file the summary names: as given (absolute or relative to the working
    directory), else relative to the evaluation folder, else its file name beside the folder."""
    if not named:
        return None
    p = Path(named)
    for cand in (p, folder / p, folder / p.name):
        if cand.is_file():
            return cand
    return None


def _read_candidates(path: Path, problems: list[str]) -> dict[tuple[str | None, str, int], dict[str, Any]]:
    """Generations JSONL → (model, task, sample) → object. Read leniently: the texts are only
    shown; a bad line is reported and skipped (``evaluate`` already reported it)."""
    out: dict[tuple[str | None, str, int], dict[str, Any]] = {}
    for n, g in _json_lines(path, problems, " the candidates", "; candidate text not shown"):
        if not isinstance(g, dict) or not isinstance(g.get("task_id"), str):
            problems.append(f"{path}:{n}: field 'task_id' missing; candidate text not shown")
            continue
        sample = g.get("sample", 0)
        if not isinstance(sample, int):
            problems.append(f"{path}:{n}: field 'sample': not an integer; candidate text not shown")
            continue
        model = g.get("model")
        out.setdefault((model if isinstance(model, str) else None, g["task_id"], sample), g)
    return out


def _load_evaluation(p: Path, problems: list[str]) -> EvalInput:
    summary = read_json(p / "summary.json", problems) if (p / "summary.json").is_file() else None
    if not isinstance(summary, dict):
        if (p / "summary.json").is_file():
            problems.append(f"{p / 'summary.json'}: not a summary object; only results.jsonl is shown")
        summary = {}
    rows = _read_rows(p / "results.jsonl", problems) if (p / "results.jsonl").is_file() else []
    ev = EvalInput(name=p.name or str(p), path=p, summary=summary, rows=rows)
    gen = _find_generations(p, summary.get("generations"))
    if gen is None:
        if summary.get("generations"):
            problems.append(
                f"{p}: generations file {summary['generations']} not found; candidate texts not shown"
            )
    elif gen.is_file():
        ev.generations_file = gen
        ev.candidates = _read_candidates(gen, problems)
    return ev


def _load_run(p: Path, problems: list[str]) -> RunInput:
    config = read_json(p / "config.json", problems)
    stats = read_json(p / "stats.json", problems) if (p / "stats.json").is_file() else None
    suites = {name: p / name for name in ("plus", "lite") if (p / name).is_dir()}
    return RunInput(
        name=p.name or str(p),
        path=p,
        config=config if isinstance(config, dict) else {},
        stats=stats if isinstance(stats, dict) else None,
        suites=suites,
    )


def _unique(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    i = 2
    while f"{name} ({i})" in taken:
        i += 1
    return f"{name} ({i})"


def load_inputs(paths: Sequence[Path]) -> Inputs:
    """Read every PATH (command-line order). Suites are identified by their resolved folder: the
    same folder seen in two inputs is one suite, named as first seen; two folders with one name
    get "NAME (2)"… Evaluation and run names are the folder names, made unique the same way."""
    problems: list[str] = []
    evaluations: list[EvalInput] = []
    runs: list[RunInput] = []
    bad: list[str] = []
    names: set[str] = set()
    for p in paths:
        if _is_evaluation(p):
            ev = _load_evaluation(p, problems)
            ev.name = _unique(ev.name, names)
            names.add(ev.name)
            evaluations.append(ev)
        elif _is_run(p):
            run = _load_run(p, problems)
            run.name = _unique(run.name, names)
            names.add(run.name)
            runs.append(run)
        else:
            bad.append(
                f"{p}: neither an evaluation folder (summary.json / results.jsonl) nor a scale run "
                "folder (config.json with plus/ or lite/)"
            )
    if bad:
        raise ReportInputError("; ".join(bad))

    suites: list[SuiteRef] = []
    by_path: dict[Path, SuiteRef] = {}
    taken: set[str] = set()

    def add(name: str, path: Path, source: str) -> SuiteRef:
        key = path.resolve()
        if key in by_path:
            return by_path[key]
        ref = SuiteRef(_unique(name, taken), path, source)
        taken.add(ref.name)
        by_path[key] = ref
        suites.append(ref)
        return ref

    for ev in evaluations:
        renamed: dict[str, str] = {}
        for s in ev.summary.get("suites", []):
            if isinstance(s, dict) and isinstance(s.get("name"), str):
                path = Path(str(s.get("path", s["name"])))
                ref = add(s["name"], path, f"evaluation {ev.name}")
                renamed[s["name"]] = ref.name
        for row in ev.rows:  # suites only known from results.jsonl (no summary)
            if row["suite"] not in renamed:
                ref = add(row["suite"], ev.path / row["suite"], f"evaluation {ev.name}")
                renamed[row["suite"]] = ref.name
        for row in ev.rows:
            row["suite"] = renamed[row["suite"]]
        for e in ev.summary.get("results", []):
            if isinstance(e, dict) and e.get("suite") in renamed:
                e["suite"] = renamed[e["suite"]]
        for s in ev.summary.get("suites", []):
            if isinstance(s, dict) and s.get("name") in renamed:
                s["name"] = renamed[s["name"]]
    for run in runs:
        for name, path in run.suites.items():
            add(name, path, f"run {run.name}")
    return Inputs(evaluations=evaluations, runs=runs, suites=suites, problems=problems)
