"""Reports of an evaluation: per-sample JSONL, summary JSON, a comparison table, a Figure-5-style chart.

Summary semantics (per suite and model, per metric):

* ``pass@k`` is computed in both bounds: ``lower`` (only PASS counts, Verina's
  default) and ``upper`` (Verina's overestimate; see ``aggregate``). It
  averages over the tasks that have the metric; not-evaluated samples (a
  proof without Lean) are left out and counted in ``n_not_evaluated``.
* ``scores`` counts samples by score, ``errors`` counts non-passing samples by
  error category, ``untested`` counts samples whose metric had no tests
  (PASS by Verina's rule; e.g. postcondition soundness on a suite without
  unexpected outputs, flagged with ``note``).
* ``wall_seconds`` per suite is the wall-clock time of each kind's phase
  (cf. the paper's Table 2).
* ``engine_gaps`` (whole run) counts the reasons behind engine-caused UNKNOWN
  results per task kind and gap kind (``evaluate.gaps``).

The chart draws, for the first k, one group of bars per metric and one bar
per suite: the bar is the lower bound, the whisker reaches the upper bound
(the paper's error bars). Untested metrics are marked "n/a".
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.table import Table

from .gaps import engine_gaps_by_kind, gaps_json
from .harness import EvaluationRun
from .scoring.aggregate import MetricResult, Score
from .scoring.errors import LABELS, ErrorCategory
from .scoring.passk import mean_pass_at_k
from .scoring.specgen import SPEC_METRICS
from .vericontest.scoring import VC_METRICS, VC_TASK_METRICS

__all__ = [
    "CHART_METRICS",
    "METRIC_LABELS",
    "METRIC_ORDER",
    "comparison_tables",
    "plot_chart",
    "summarize",
    "write_jsonl",
    "write_outputs",
    "write_summary",
]

METRIC_ORDER: tuple[str, ...] = ("code", "code_by_spec", *SPEC_METRICS, "proof", *VC_METRICS)
METRIC_LABELS: dict[str, str] = {
    **{m: m for m in VC_METRICS},
    "code": "code",
    "code_by_spec": "code (by spec)",
    "precond_sound": "precond sound",
    "precond_complete": "precond complete",
    "precond_sound_complete": "precond sound & complete",
    "postcond_sound": "postcond sound",
    "postcond_complete": "postcond complete",
    "postcond_sound_complete": "postcond sound & complete",
    "precond_postcond": "full spec (pre & post)",
    "proof": "proof",
}
CHART_METRICS: tuple[str, ...] = (
    "code",
    "precond_sound",
    "precond_complete",
    "postcond_sound",
    "postcond_complete",
    "precond_postcond",
    "proof",
    # VeriContest: one bar per task (its main metric)
    *VC_TASK_METRICS,
)


def _metric_summary(results: Sequence[tuple[str, MetricResult]], ks: Sequence[int]) -> dict[str, Any]:
    """``results``: (task id, metric result) of every sample having this metric."""
    lower: dict[str, list[int]] = {}
    upper: dict[str, list[int]] = {}
    scores: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    untested = 0
    notes: list[str] = []
    n_not_evaluated = 0
    for task, r in results:
        scores[r.score.value] += 1
        if r.note and r.note not in notes:
            notes.append(r.note)
        if not r.evaluated:
            n_not_evaluated += 1
            continue
        if r.n_tests == 0 and r.score is Score.PASS:
            untested += 1
        lower.setdefault(task, [0, 0])
        upper.setdefault(task, [0, 0])
        lower[task][0] += 1
        upper[task][0] += 1
        lower[task][1] += int(r.lower)
        upper[task][1] += int(r.upper)
        if r.score is not Score.PASS and r.error is not None:
            errors[r.error.value] += 1
    passk: dict[str, Any] = {}
    for k in ks:
        lo = mean_pass_at_k({t: (n, c) for t, (n, c) in lower.items()}, k)
        up = mean_pass_at_k({t: (n, c) for t, (n, c) in upper.items()}, k)
        passk[f"pass@{k}"] = {
            "lower": lo.value,
            "upper": up.value,
            "n_tasks": lo.n_tasks,
            "n_tasks_short": lo.n_tasks_short,
        }
    n_eval = len(results) - n_not_evaluated
    return {
        "n_tasks": len(lower),
        "n_samples": len(results),
        "n_not_evaluated": n_not_evaluated,
        "untested": untested,
        "all_untested": n_eval > 0 and untested == n_eval and bool(notes),
        "scores": {s.value: scores.get(s.value, 0) for s in Score},
        "errors": dict(sorted(errors.items())),
        "passk": passk,
        "note": "; ".join(notes),
    }


def summarize(run: EvaluationRun) -> dict[str, Any]:
    ks = list(run.options.ks)
    entries: list[dict[str, Any]] = []
    for suite in run.suites:
        rows = [r for r in run.results if r.suite == suite.name]
        for model in sorted({r.model or "" for r in rows}):
            mrows = [r for r in rows if (r.model or "") == model]
            metrics: dict[str, Any] = {}
            for m in METRIC_ORDER:
                have = [(r.task_id, r.metrics[m]) for r in mrows if m in r.metrics]
                if have:
                    metrics[m] = _metric_summary(have, ks)
            entries.append(
                {
                    "suite": suite.name,
                    "model": model or None,
                    "n_tasks": len({r.task_id for r in mrows}),
                    "n_samples": len(mrows),
                    "metrics": metrics,
                }
            )
    suites = []
    for s in run.suites:
        wall = {k: round(v, 3) for k, v in s.wall_seconds.items()}
        wall["total"] = round(sum(s.wall_seconds.values()), 3)
        suites.append(
            {
                "name": s.name,
                "path": str(s.path),
                "n_tasks": len(s.task_ids),
                "has_unexpected": s.has_unexpected,
                "wall_seconds": wall,
                "n_tasks_without_generations": len(s.tasks_without_generations),
                "tasks_without_generations": s.tasks_without_generations,
            }
        )
    return {
        "version": 1,
        "generations": run.generations_file,
        "engine": run.options.engine,
        "timeout": run.options.timeout,
        "fuel": run.options.fuel,
        "metric_fuel": run.options.metric_fuel,
        "fail_fast": run.options.fail_fast,
        "max_timeouts": run.options.max_timeouts,
        "metric_budget": run.options.metric_budget,
        "ks": ks,
        "excluded_tasks": list(run.options.exclude),
        "error_categories": {c.value: LABELS[c] for c in ErrorCategory},
        "suites": suites,
        "results": entries,
        "engine_gaps": gaps_json(engine_gaps_by_kind(r.to_json() for r in run.results)),
        "warnings": list(run.warnings),
    }


# ------------------------------------------------------------------ files


def write_jsonl(run: EvaluationRun, path: Path | str) -> None:
    with Path(path).open("w", encoding="utf-8") as fh:
        for row in run.rows_json():
            fh.write(json.dumps(row, ensure_ascii=False, sort_keys=False) + "\n")


def write_summary(summary: dict[str, Any], path: Path | str) -> None:
    Path(path).write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def write_outputs(
    run: EvaluationRun, out_dir: Path | str, *, chart: bool = True
) -> tuple[dict[str, Path], dict[str, Any]]:
    """results.jsonl, summary.json and (optionally) chart.png in ``out_dir``; returns (paths, summary)."""
    d = Path(out_dir)
    d.mkdir(parents=True, exist_ok=True)
    summary = summarize(run)
    paths = {"results": d / "results.jsonl", "summary": d / "summary.json"}
    write_jsonl(run, paths["results"])
    write_summary(summary, paths["summary"])
    if chart:
        paths["chart"] = d / "chart.png"
        plot_chart(summary, paths["chart"])
    return paths, summary


# ------------------------------------------------------------------ table


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}"


def _cell(m: dict[str, Any] | None, k: int) -> str:
    if m is None:
        return ""
    if m.get("all_untested"):
        return "n/a (no tests)"
    pk = m["passk"].get(f"pass@{k}")
    if pk is None or pk["lower"] is None:
        return "not evaluated" if m["n_not_evaluated"] else "—"
    lo, up = pk["lower"], pk["upper"]
    text = _pct(lo) if up is None or abs(up - lo) < 1e-12 else f"{_pct(lo)} – {_pct(up)}"
    if m["scores"]["UNKNOWN"]:
        text += f" ({m['scores']['UNKNOWN']}?)"
    if m["n_not_evaluated"]:
        text += f" ({m['n_not_evaluated']} n/e)"
    if m.get("note"):
        text += " *"
    return text


def comparison_tables(summary: dict[str, Any]) -> list[Table]:
    """One rich table per model and k: metrics × suites, cells "lower – upper" in %."""
    tables: list[Table] = []
    entries = summary["results"]
    models = sorted({e["model"] or "" for e in entries})
    suites = [s["name"] for s in summary["suites"]]
    for model in models:
        by_suite = {e["suite"]: e for e in entries if (e["model"] or "") == model}
        for k in summary["ks"]:
            title = f"pass@{k} in % (lower – upper bound)" + (f", model {model}" if model else "")
            table = Table(
                title=title,
                caption="(n?): samples with an UNKNOWN result; (n n/e): samples not evaluated (proofs need Lean or Verus); "
                "*: includes postcondition soundness, untested here (no unexpected outputs)",
            )
            table.add_column("metric")
            for s in suites:
                table.add_column(s, justify="right")
            for m in METRIC_ORDER:
                cells = [_cell(by_suite.get(s, {}).get("metrics", {}).get(m), k) for s in suites]
                if any(cells):
                    table.add_row(METRIC_LABELS[m], *cells)
            table.add_row(
                "tasks / samples",
                *[
                    f"{by_suite[s]['n_tasks']} / {by_suite[s]['n_samples']}" if s in by_suite else ""
                    for s in suites
                ],
                end_section=True,
            )
            walls = {s["name"]: s["wall_seconds"] for s in summary["suites"]}
            for kind, label in (("spec", "SpecGen"), ("code", "CodeGen"), ("proof", "ProofGen")):
                if any(kind in walls[s] for s in suites):
                    table.add_row(
                        f"wall-clock {label} (s)",
                        *[f"{walls[s][kind]:.1f}" if kind in walls[s] else "" for s in suites],
                    )
            tables.append(table)
    return tables


# ------------------------------------------------------------------ chart


def plot_chart(summary: dict[str, Any], path: Path | str, k: int | None = None) -> None:
    """A Figure-5-style PNG: grouped bars per metric and suite, whiskers up to the upper bound."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    k = k or summary["ks"][0]
    entries = summary["results"]
    models = sorted({e["model"] or "" for e in entries}) or [""]
    suites = [s["name"] for s in summary["suites"]]
    shown = [
        m
        for m in CHART_METRICS
        if any(
            m in e["metrics"] and e["metrics"][m]["passk"].get(f"pass@{k}", {}).get("lower") is not None
            for e in entries
        )
    ]
    fig, axes = plt.subplots(
        len(models),
        1,
        figsize=(
            min(16.0, max(7.0, 2.5 + 0.55 * max(len(shown), 1) * max(1, len(suites)))),
            4.6 * len(models),
        ),
        squeeze=False,
    )
    colors = plt.get_cmap("tab10").colors
    any_hatched = False
    width = 0.8 / max(1, len(suites))
    for row, model in enumerate(models):
        ax = axes[row][0]
        by_suite = {e["suite"]: e for e in entries if (e["model"] or "") == model}
        for j, s in enumerate(suites):
            xs, lows, errs, labels_na, hatched = [], [], [], [], []
            for i, m in enumerate(shown):
                x = i + (j - (len(suites) - 1) / 2) * width
                info = by_suite.get(s, {}).get("metrics", {}).get(m)
                pk = info["passk"].get(f"pass@{k}") if info else None
                if info is None or pk is None or pk["lower"] is None:
                    continue
                if info.get("all_untested"):
                    labels_na.append(x)
                    continue
                lo = 100 * pk["lower"]
                up = 100 * (pk["upper"] if pk["upper"] is not None else pk["lower"])
                xs.append(x)
                hatched.append(bool(info.get("note")))
                lows.append(lo)
                errs.append(max(0.0, up - lo))
            color = colors[j % len(colors)]
            bars = ax.bar(xs, lows, width * 0.92, label=s, color=color, edgecolor="black", linewidth=0.4)
            for bar, h in zip(bars, hatched):
                if h:  # part of this metric was untested on this suite
                    bar.set_hatch("//")
                    any_hatched = True
            whiskers = [(x, lo, e) for x, lo, e in zip(xs, lows, errs) if e > 0]
            if whiskers:
                ax.errorbar(
                    [w[0] for w in whiskers],
                    [w[1] for w in whiskers],
                    yerr=[[0.0] * len(whiskers), [w[2] for w in whiskers]],
                    fmt="none",
                    ecolor="black",
                    elinewidth=1.0,
                    capsize=3,
                )
            for x, lo, e in zip(xs, lows, errs):
                ax.text(x, lo + e + 1.2, f"{lo:.1f}", ha="center", va="bottom", fontsize=7)
            for x in labels_na:
                ax.text(x, 1.5, "n/a", ha="center", va="bottom", fontsize=7, rotation=90, color=color)
        ax.set_xticks(range(len(shown)))
        ax.set_xticklabels([METRIC_LABELS[m] for m in shown], rotation=15, ha="right", fontsize=9)
        ax.set_ylim(0, 120)
        ax.set_yticks(range(0, 101, 20))
        ax.set_ylabel(f"pass@{k} (%)")
        title = f"pass@{k} per metric and suite" + (f" — {model}" if model else "")
        ax.set_title(title, fontsize=11)
        ax.grid(axis="y", linestyle=":", linewidth=0.6, alpha=0.7)
        ax.set_axisbelow(True)
        ax.legend(fontsize=8, loc="upper right", ncol=max(1, len(suites)), frameon=False)
    legend = "bar: lower bound (UNKNOWN counts as fail); whisker: upper bound (Verina's overestimate)"
    if any_hatched:
        legend += (
            "; hatched: includes postcondition soundness, untested on a suite without unexpected outputs"
        )
    fig.text(
        0.01,
        0.005,
        legend,
        fontsize=7,
        color="#444444",
    )
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    fig.savefig(path, dpi=150)
    plt.close(fig)
