"""The pages' data: plain dicts and lists built from the loaded inputs, for the templates.

Orders (so the site is the same bytes for the same inputs, whatever PYTHONHASHSEED):
suites in input order (evaluation summaries first, then runs); models per evaluation in input
order, within one evaluation sorted by name (no model sorts first); metrics in
``METRIC_ORDER``; tasks in the first suite format's order (``natural_key`` without a format);
samples by index; error categories by name.

Per (task, suite, model) the catalogue's status of a metric is ``FAIL`` when any sample FAILs,
else ``UNKNOWN`` when any is UNKNOWN, else ``NOT_EVALUATED`` when none was evaluated, else
``PASS`` — shown "n/a" when no sample had a test (PASS by Verina's rule); a metric "does not
pass" for the filter when that status is FAIL, UNKNOWN or NOT_EVALUATED.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..evaluate.report import METRIC_LABELS, METRIC_ORDER
from ..evaluate.scoring.errors import LABELS as ERROR_LABELS
from .chart import PALETTE, Chart, chart_for
from .highlight import highlight
from .load import EvalInput, Inputs, RunInput
from .tasks import SuiteReader, natural_key, signature_text

__all__ = ["CANDIDATE_FIELDS", "PLUS_ROWS_SHOWN", "Site", "build_views", "slug"]

# Candidate fields shown on a task page, in this order (the generations format's fields).
CANDIDATE_FIELDS: tuple[str, ...] = (
    "imports",
    "precond_aux",
    "precond",
    "postcond_aux",
    "postcond",
    "code_aux",
    "code",
    "proof_aux",
    "proof",
)
# A Plus suite may hold hundreds of rows per task: a task page lists this many (the rest are
# counted and stay in the suite's provenance.json).
PLUS_ROWS_SHOWN = 200
STATUS_ORDER = ("FAIL", "UNKNOWN", "NOT_EVALUATED", "PASS")


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def slug(name: str) -> str:
    """A file name for a task or suite page: characters outside ``[A-Za-z0-9._-]`` become ``_``,
    and a short hash of the name is appended when anything was replaced (so names stay distinct)."""
    s = _UNSAFE.sub("_", name)
    if s != name or not s or s.startswith("."):
        s = f"{s}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"
    return s


_GOT = re.compile(r"\bgot (.+?), expected ")


def _got(reason: str) -> str:
    """The value a candidate returned, as the CodeGen reason states it ("test 3: got X, expected Y")."""
    m = _GOT.search(reason or "")
    return m.group(1) if m else ""


def _pct(x: Any) -> str:
    return "—" if x is None else f"{100 * float(x):.1f}"


def _metric_label(m: str) -> str:
    return METRIC_LABELS.get(m, m)


def _error_label(c: str | None) -> str:
    if not c:
        return ""
    for k, v in ERROR_LABELS.items():
        if k.value == c:
            return v
    return c


@dataclass
class Site:
    """Everything the templates need; ``pages`` maps a relative output path to (template, context)."""

    title: str
    pages: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


# ------------------------------------------------------------------ models


def _model_labels(evals: Sequence[EvalInput]) -> dict[tuple[str, str | None], str]:
    """(evaluation, model) → label: the model name (the evaluation's name when it has none),
    with "(evaluation)" appended when two evaluations give the same label."""
    pairs: list[tuple[str, str | None]] = []
    for ev in evals:
        models = {r.get("model") for r in ev.rows} | {
            e.get("model") for e in ev.summary.get("results", []) if isinstance(e, dict)
        }
        for m in sorted(models, key=lambda x: (x is not None, x or "")):
            pairs.append((ev.name, m))
    base = {p: (p[1] or p[0]) for p in pairs}
    counts = Counter(base.values())
    return {p: (b if counts[b] == 1 else f"{b} ({p[0]})") for p, b in base.items()}


# ------------------------------------------------------------------ overview


def _cell(m: dict[str, Any] | None, key: str) -> dict[str, Any]:
    empty = {"text": "", "title": "", "unknown": 0, "note": False}
    if m is None:
        return empty
    if m.get("all_untested"):
        return {**empty, "text": "n/a", "title": "no tests: " + (m.get("note") or "")}
    pk = (m.get("passk") or {}).get(key)
    if not pk or pk.get("lower") is None:
        return {**empty, "text": "not evaluated" if m.get("n_not_evaluated") else "—"}
    lo, up = pk["lower"], pk.get("upper")
    text = _pct(lo) if up is None or abs(float(up) - float(lo)) < 1e-12 else f"{_pct(lo)} – {_pct(up)}"
    scores = m.get("scores") or {}
    unknown = int(scores.get("UNKNOWN", 0) or 0)
    title = f"{pk.get('n_tasks', '?')} tasks"
    if pk.get("n_tasks_short"):
        title += f", {pk['n_tasks_short']} with fewer samples than k"
    if m.get("note"):
        title += f"; {m['note']}"
    return {"text": text, "unknown": unknown, "title": title, "note": bool(m.get("note"))}


def _overview(
    ev: EvalInput, labels: dict[tuple[str, str | None], str], colors: dict[str, str]
) -> dict[str, Any]:
    s = ev.summary
    suites = [x["name"] for x in s.get("suites", []) if isinstance(x, dict)]
    entries = [e for e in s.get("results", []) if isinstance(e, dict)]
    models = sorted({e.get("model") for e in entries}, key=lambda x: (x is not None, x or ""))
    keys: list[str] = []
    for e in entries:
        for info in e.get("metrics", {}).values():
            for k in info.get("passk", {}):
                if k not in keys:
                    keys.append(k)
    keys.sort(key=lambda k: (k.split("@")[0] != "pass", natural_key(k)))
    tables = []
    charts: list[Chart] = []
    for model in models:
        by_suite = {e["suite"]: e for e in entries if e.get("model") == model}
        label = labels.get((ev.name, model), model or ev.name)
        for key in keys:
            rows = []
            for m in METRIC_ORDER:
                cells = [_cell(by_suite.get(x, {}).get("metrics", {}).get(m), key) for x in suites]
                if any(c["text"] for c in cells):
                    rows.append({"metric": _metric_label(m), "cells": cells})
            sizes = [
                f"{by_suite[x]['n_tasks']} / {by_suite[x]['n_samples']}" if x in by_suite else ""
                for x in suites
            ]
            tables.append({"model": label, "key": key, "rows": rows, "sizes": sizes})
        k = int(s.get("ks", [1])[0]) if s.get("ks") else 1
        charts.append(chart_for(list(by_suite.values()), suites, k, f"pass@{k} — {label}", colors))
    cats: list[str] = sorted(
        {c for e in entries for info in e.get("metrics", {}).values() for c in info.get("errors", {})}
    )
    error_rows = []
    for e in entries:
        counts: Counter[str] = Counter()
        for info in e.get("metrics", {}).values():
            counts.update({c: int(n) for c, n in info.get("errors", {}).items()})
        error_rows.append(
            {
                "suite": e["suite"],
                "model": labels.get((ev.name, e.get("model")), e.get("model") or ev.name),
                "counts": [counts.get(c, 0) for c in cats],
            }
        )
    phases = ("spec", "code", "proof", "total")
    wall = []
    for x in s.get("suites", []):
        w = x.get("wall_seconds", {}) if isinstance(x, dict) else {}
        wall.append({"suite": x.get("name"), "cells": [w.get(p) for p in phases]})
    return {
        "name": ev.name,
        "path": str(ev.path),
        "generations": s.get("generations"),
        "engine": s.get("engine"),
        "suites": suites,
        "tables": tables,
        "charts": charts,
        "error_cats": [(c, _error_label(c)) for c in cats],
        "error_rows": error_rows,
        "phases": phases,
        "wall": wall,
        "warnings": list(s.get("warnings", []))[:50],
        "n_warnings": len(s.get("warnings", [])),
    }


# ------------------------------------------------------------------ per task


def _status(scores: Sequence[str]) -> str:
    for st in STATUS_ORDER[:-1]:
        if st == "NOT_EVALUATED":
            if scores and all(x == "NOT_EVALUATED" for x in scores):
                return st
        elif st in scores:
            return st
    return "PASS"


def _candidate(gen: dict[str, Any] | None, language: str) -> list[dict[str, Any]]:
    if gen is None:
        return []
    out = []
    for f in CANDIDATE_FIELDS:
        text = gen.get(f)
        if isinstance(text, str) and text.strip():
            out.append({"field": f, "html": highlight(text.strip("\n"), language)})
    return out


ROW_TEXT = 160  # characters of a row's input / expected output shown in a provenance table


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= ROW_TEXT else text[: ROW_TEXT - 1] + "…"


def _provenance_view(suite: str, prov: dict[str, Any], limit: int | None, task: Any = None) -> dict[str, Any]:
    """A task's provenance for its page. A row kills a weakened specification when one of its
    unexpected outputs is ``accepted_by`` it (the specification accepts a wrong output); the
    row's input and expected output come from the suite's task (``tests``), when readable."""
    adv = [a for a in prov.get("adversaries", []) if isinstance(a, dict)]
    specs = [sp for sp in prov.get("specs", []) if isinstance(sp, dict)]
    spec_index = {sp.get("id"): i for i, sp in enumerate(specs)}
    tests = [t for t in prov.get("tests", []) if isinstance(t, dict)]
    stored = getattr(task, "tests", None) or []
    rows = []
    for t in tests if limit is None else tests[:limit]:
        n = t.get("row")
        row = stored[n] if isinstance(n, int) and 0 <= n < len(stored) else None
        spec_kills = sorted(
            {
                spec_index[sid]
                for u in t.get("unexpected", [])
                if isinstance(u, dict)
                for sid in u.get("accepted_by", []) or []
                if sid in spec_index
            }
        )
        origin = t.get("origin") or {}
        o = origin.get("origin", "?") if isinstance(origin, dict) else str(origin)
        if isinstance(origin, dict) and "index" in origin:
            o += f" #{origin['index']}"
        unx = Counter(u.get("source", "?") for u in t.get("unexpected", []) if isinstance(u, dict))
        rows.append(
            {
                "row": t.get("row"),
                "origin": o,
                "kills": [int(i) for i in t.get("kills", []) if isinstance(i, int)],
                "covers": [int(i) for i in t.get("covers", []) if isinstance(i, int)],
                "unexpected": ", ".join(f"{k} {n}" for k, n in sorted(unx.items())),
                "selected": t.get("selected", ""),
                "specs": spec_kills,
                "input": _short(getattr(row, "input", None)) if row is not None else "",
                "expected": _short(getattr(row, "expected", None)) if row is not None else "",
            }
        )
    killed = sorted({i for t in tests for i in t.get("kills", []) if isinstance(i, int)})
    rejects = []
    for r in prov.get("reject_inputs", []):
        if not isinstance(r, dict):
            continue
        origin = r.get("origin") or {}
        rejects.append(
            {
                "row": r.get("row"),
                "origin": origin.get("origin", "?") if isinstance(origin, dict) else str(origin),
                "violates": ", ".join(str(v) for v in (origin.get("violates") or []))
                if isinstance(origin, dict)
                else "",
                "selected": r.get("selected", ""),
            }
        )
    return {
        "suite": suite,
        "adversaries": [
            {
                "i": i,
                "origin": a.get("origin", ""),
                "description": a.get("description", ""),
                "killed": i in set(killed),
            }
            for i, a in enumerate(adv)
        ],
        "specs": [{**sp, "i": i} for i, sp in enumerate(specs)],
        "rows": rows,
        "n_rows": len(tests),
        "rejects": rejects,
        "killed": len(killed),
        "dropped": sorted((prov.get("dropped") or {}).items()),
        "kill_preserved": prov.get("kill_preserved"),
        "coverage": prov.get("coverage"),
    }


# ------------------------------------------------------------------ suites


def _suite_sizes(reader: SuiteReader, ids: Sequence[str]) -> dict[str, Any] | None:
    fmt = reader.format
    if fmt is None:
        return None
    tot = {"expected": 0, "unexpected_outputs": 0, "unexpected_inputs": 0, "bad_rows": 0}
    n = 0
    for t in ids:
        d = reader.task_dirs().get(t)
        if d is None:
            continue
        try:
            c = fmt.count_suite(d)
        except (OSError, ValueError) as exc:
            reader.problems.append(f"{d}: cannot count rows: {exc}")
            continue
        n += 1
        tot["expected"] += c.expected
        tot["unexpected_outputs"] += c.unexpected_outputs
        tot["unexpected_inputs"] += c.unexpected_inputs
        tot["bad_rows"] += c.bad_rows
    if n == 0:
        return None
    return {
        "tasks": n,
        **{k: v for k, v in tot.items()},
        **{f"{k}_mean": round(v / n, 2) for k, v in tot.items() if k != "bad_rows"},
    }


def _table1_from_stats(run: RunInput) -> list[dict[str, Any]]:
    rows = []
    for d in (run.stats or {}).get("datasets", []):
        if not isinstance(d, dict):
            continue

        def g(key: str, d: dict[str, Any] = d) -> tuple[Any, Any]:
            v = d.get(key) or {}
            return v.get("total"), round(float(v["mean"]), 2) if v.get("mean") is not None else None

        rows.append(
            {
                "name": d.get("name"),
                "tasks": d.get("tasks"),
                "expected": g("expected"),
                "unexpected_outputs": g("unexpected_outputs"),
                "unexpected_inputs": g("unexpected_inputs"),
            }
        )
    return rows


# ------------------------------------------------------------------ assembly


def build_views(inputs: Inputs, title: str = "veriscale report") -> Site:
    """All pages' contexts. ``pages`` keys: ``index.html``, ``tasks.html``, ``models.html``,
    ``suites/<suite>.html`` (one per suite), ``tasks/<task>.html`` (one per task)."""
    site = Site(title=title)
    problems = list(inputs.problems)
    readers = {s.name: SuiteReader(s.path, problems) for s in inputs.suites}
    labels = _model_labels(inputs.evaluations)
    model_order = list(labels.values())

    # results by task → (suite, label) → rows, in sample order
    by_task: dict[str, dict[tuple[str, str], list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    cand: dict[tuple[str, str, int], dict[str, Any] | None] = {}
    for ev in inputs.evaluations:
        for r in ev.rows:
            label = labels[(ev.name, r.get("model"))]
            by_task[r["task_id"]][(r["suite"], label)].append(r)
            key = (label, r["task_id"], int(r.get("sample", 0)))
            if key not in cand:
                cand[key] = ev.candidates.get((r.get("model"), r["task_id"], int(r.get("sample", 0))))

    # a page per task with results, and per task of a suite a run built (its provenance)
    task_ids: set[str] = set(by_task)
    suite_tasks: dict[str, list[str]] = {}
    run_suites = {p.resolve() for r in inputs.runs for p in r.suites.values()}
    for s in inputs.suites:
        ids = list(readers[s.name].task_dirs())
        suite_tasks[s.name] = ids
        if s.path.resolve() in run_suites:
            task_ids.update(ids)
    sort_key = natural_key
    for s in inputs.suites:
        fmt = readers[s.name].format
        if fmt is not None:
            sort_key = fmt.sort_key
            break
    try:
        ordered = sorted(task_ids, key=lambda t: (sort_key(t), t))
    except TypeError:  # a format's key that cannot compare some ids: fall back, deterministically
        ordered = sorted(task_ids, key=lambda t: (natural_key(t), t))
    suite_names = [s.name for s in inputs.suites]
    scale_suites = {n for n in suite_names if readers[n].is_scale_suite(suite_tasks[n][:3])}
    metrics_seen = [
        m
        for m in METRIC_ORDER
        if any(m in r["metrics"] for t in by_task.values() for rs in t.values() for r in rs)
    ]
    extra = sorted(
        {m for t in by_task.values() for rs in t.values() for r in rs for m in r["metrics"]}
        - set(METRIC_ORDER)
    )
    metrics_seen += extra

    # ---------------- task pages and the catalogue
    catalogue = []
    excluded: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for tid in ordered:
        groups = by_task.get(tid, {})
        src = next(
            (n for n in suite_names if n not in scale_suites and tid in readers[n].task_dirs()),
            next((n for n in suite_names if tid in readers[n].task_dirs()), None),
        )
        task = readers[src].task(tid) if src else None
        fmt = readers[src].format if src else None
        language = getattr(task, "language", None) or (fmt.language if fmt else "")
        models_view = []
        for label in model_order:
            mine = [(sname, groups[(sname, label)]) for sname in suite_names if (sname, label) in groups]
            if not mine:
                continue
            samples = sorted({int(r.get("sample", 0)) for _, rs in mine for r in rs})
            svs = []
            for smp in samples:
                per_suite = {
                    sname: next((r for r in rs if int(r.get("sample", 0)) == smp), None) for sname, rs in mine
                }
                cols = [sname for sname, _ in mine]
                mrows = []
                failures = []
                for m in metrics_seen:
                    cells = []
                    for sname in cols:
                        r = per_suite[sname]
                        res = (r or {}).get("metrics", {}).get(m)
                        if not isinstance(res, dict):
                            cells.append(None)
                            continue
                        tests = f"{res.get('n_pass', 0)}/{res.get('n_tests', 0)}"
                        cells.append(
                            {
                                "score": res.get("score", "?"),
                                "lower": bool(res.get("lower")),
                                "upper": bool(res.get("upper")),
                                "tests": tests,
                                "error": _error_label(res.get("error")),
                                "excluded": res.get("n_excluded", 0),
                            }
                        )
                        if res.get("score") in ("FAIL", "UNKNOWN") and (
                            res.get("reason") or res.get("where")
                        ):
                            row = readers[sname].failing_row(tid, res.get("where", ""))
                            failures.append(
                                {
                                    "suite": sname,
                                    "metric": _metric_label(m),
                                    "score": res.get("score"),
                                    "error": _error_label(res.get("error")),
                                    "where": res.get("where", ""),
                                    "reason": res.get("reason", ""),
                                    "got": _got(res.get("reason", "")),
                                    "row": row,
                                }
                            )
                    if any(c is not None for c in cells):
                        mrows.append({"metric": _metric_label(m), "cells": cells})
                gen = cand.get((label, tid, smp))
                meta = gen.get("meta") if isinstance(gen, dict) else None
                svs.append(
                    {
                        "sample": smp,
                        "suites": cols,
                        "metrics": mrows,
                        "failures": failures,
                        "candidate": _candidate(gen, language),
                        "meta": json.dumps(meta, ensure_ascii=False, indent=1) if meta is not None else "",
                    }
                )
            models_view.append({"label": label, "samples": svs})
            for sname, rs in mine:
                status = {}
                errs: set[str] = set()
                for m in metrics_seen:
                    scores = [
                        r["metrics"][m].get("score", "?") for r in rs if isinstance(r["metrics"].get(m), dict)
                    ]
                    if scores:
                        status[m] = _status(scores)
                        untested = all(
                            int(r["metrics"][m].get("n_tests", 0) or 0) == 0
                            for r in rs
                            if isinstance(r["metrics"].get(m), dict)
                        )
                        if status[m] == "PASS" and untested:
                            status[m] = (
                                "n/a"  # passes by Verina's rule, with no test (e.g. no unexpected outputs)
                            )
                    for r in rs:
                        e = (r["metrics"].get(m) or {}).get("error")
                        if e and (r["metrics"][m].get("score") != "PASS"):
                            errs.add(e)
                    nex = max(
                        (int((r["metrics"].get(m) or {}).get("n_excluded", 0) or 0) for r in rs), default=0
                    )
                    if nex:
                        excluded[sname].append(
                            {"task": tid, "metric": _metric_label(m), "n": nex, "model": label}
                        )
                catalogue.append(
                    {
                        "task": tid,
                        "suite": sname,
                        "model": label,
                        "n_samples": len(rs),
                        "cells": [status.get(m, "") for m in metrics_seen],
                        "failing": " ".join(
                            m for m in metrics_seen if status.get(m) not in (None, "PASS", "n/a")
                        ),
                        "errors": " ".join(sorted(errs)),
                        "error_labels": ", ".join(_error_label(e) for e in sorted(errs)),
                    }
                )
        provs = []
        for sname in suite_names:
            if sname in scale_suites and tid in readers[sname].task_dirs():
                p = readers[sname].provenance(tid)
                if p is not None:
                    limit = PLUS_ROWS_SHOWN if p.get("suite") != "lite" else None
                    provs.append(_provenance_view(sname, p, limit, readers[sname].task(tid)))
        site.pages[f"tasks/{slug(tid)}.html"] = (
            "task.html",
            {
                "root": "../",
                "task_id": tid,
                "description": getattr(task, "description", "") or "",
                "signature": signature_text(getattr(task, "signature", None)),
                "language": language,
                "source_suite": src,
                "in_suites": [n for n in suite_names if tid in readers[n].task_dirs()],
                "models": models_view,
                "provenance": provs,
            },
        )

    # ---------------- overview
    colors = {n: PALETTE[i % len(PALETTE)] for i, n in enumerate(suite_names)}
    overviews = [_overview(ev, labels, colors) for ev in inputs.evaluations]
    table1 = []
    for sname in suite_names:
        sizes = _suite_sizes(readers[sname], suite_tasks[sname])
        table1.append({"suite": sname, "sizes": sizes})
    runs = [
        {
            "name": r.name,
            "path": str(r.path),
            "table1": _table1_from_stats(r),
            "tasks": (r.stats or {}).get("tasks"),
            "kill_preserved": (r.stats or {}).get("kill_preserved"),
            "coverage_preserved": (r.stats or {}).get("coverage_preserved"),
            "failed": sorted(((r.stats or {}).get("failed") or {}).items()),
            "suites": sorted(r.suites),
        }
        for r in inputs.runs
    ]
    site.pages["index.html"] = (
        "index.html",
        {
            "root": "",
            "overviews": overviews,
            "runs": runs,
            "table1": table1,
            "suites": suite_names,
            "n_tasks": len(ordered),
            "models": model_order,
        },
    )

    # ---------------- the filterable catalogue
    cats = sorted({e for row in catalogue for e in row["errors"].split()})
    site.pages["tasks.html"] = (
        "tasks.html",
        {
            "root": "",
            "rows": catalogue,
            "metrics": [(m, _metric_label(m)) for m in metrics_seen],
            "suites": suite_names,
            "models": model_order,
            "error_cats": [(c, _error_label(c)) for c in cats],
            "task_ids": ordered,
        },
    )

    # ---------------- models side by side
    site.pages["models.html"] = (
        "models.html",
        {"root": "", **_models_view(inputs, labels, suite_names, by_task, ordered, metrics_seen)},
    )

    # ---------------- suite pages
    for sname in suite_names:
        r = readers[sname]
        ref = next(s for s in inputs.suites if s.name == sname)
        adequacy = None
        dropped: Counter[str] = Counter()
        if sname in scale_suites:
            n_adv = n_killed = n_tasks = kp = 0
            cov_plus = cov_lite = 0
            for t in suite_tasks[sname]:
                p = r.provenance(t)
                if p is None:
                    continue
                n_tasks += 1
                v = _provenance_view(sname, p, 0)
                n_adv += len(v["adversaries"])
                n_killed += v["killed"]
                kp += 1 if p.get("kill_preserved") else 0
                cov = p.get("coverage") or {}
                cov_plus += int(cov.get("plus", 0) or 0)
                cov_lite += int(cov.get("lite", 0) or 0)
                dropped.update({k: int(n) for k, n in (p.get("dropped") or {}).items() if isinstance(n, int)})
            adequacy = {
                "tasks": n_tasks,
                "adversaries": n_adv,
                "killed": n_killed,
                "killed_pct": _pct(n_killed / n_adv) if n_adv else "—",
                "kill_preserved": kp,
                "coverage_plus": cov_plus,
                "coverage_lite": cov_lite,
            }
        site.pages[f"suites/{slug(sname)}.html"] = (
            "suite.html",
            {
                "root": "../",
                "name": sname,
                "path": str(ref.path),
                "source": ref.source,
                "format": r.format.name if r.format else "?",
                "sizes": next(x["sizes"] for x in table1 if x["suite"] == sname),
                "adequacy": adequacy,
                "dropped": sorted(dropped.items()),
                "excluded": excluded.get(sname, []),
                "tasks": [(t, t in task_ids) for t in suite_tasks[sname]],
            },
        )
    site.problems = problems
    return site


def _models_view(
    inputs: Inputs,
    labels: dict[tuple[str, str | None], str],
    suites: Sequence[str],
    by_task: dict[str, dict[tuple[str, str], list[dict[str, Any]]]],
    ordered: Sequence[str],
    metrics: Sequence[str],
) -> dict[str, Any]:
    """Per suite and metric, pass@1 (lower – upper) of every model side by side; then every
    (task, suite, metric) where the models' share of samples passing (lower bound) differs."""
    entries: dict[tuple[str, str], dict[str, Any]] = {}
    for ev in inputs.evaluations:
        for e in ev.summary.get("results", []):
            if isinstance(e, dict):
                entries[(e["suite"], labels.get((ev.name, e.get("model")), ev.name))] = e
    models = list(labels.values())
    keys = sorted(
        {k for e in entries.values() for i in e.get("metrics", {}).values() for k in i.get("passk", {})},
        key=lambda k: (not k.startswith("pass@"), natural_key(k)),
    )
    key = keys[0] if keys else "pass@1"
    table = []
    for sname in suites:
        for m in metrics:
            cells = [
                _cell((entries.get((sname, lab)) or {}).get("metrics", {}).get(m), key) for lab in models
            ]
            if any(c["text"] for c in cells):
                table.append({"suite": sname, "metric": _metric_label(m), "cells": cells})
    differ = []
    if len(models) > 1:
        for tid in ordered:
            groups = by_task.get(tid, {})
            for sname in suites:
                for m in metrics:
                    shares = []
                    for lab in models:
                        rs = [
                            r for r in groups.get((sname, lab), []) if isinstance(r["metrics"].get(m), dict)
                        ]
                        if not rs:
                            shares.append(None)
                            continue
                        n_pass = sum(1 for r in rs if r["metrics"][m].get("lower"))
                        shares.append((n_pass, len(rs)))
                    have = [s for s in shares if s is not None]
                    if len(have) > 1 and len({round(p / n, 9) for p, n in have}) > 1:
                        differ.append(
                            {
                                "task": tid,
                                "suite": sname,
                                "metric": _metric_label(m),
                                "shares": ["" if s is None else f"{s[0]}/{s[1]}" for s in shares],
                            }
                        )
    return {"models": models, "key": key, "table": table, "differ": differ}
