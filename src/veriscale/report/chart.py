"""Geometry of the Figure-5-style chart: grouped bars per metric and suite, whiskers to the upper bound.

The same chart as ``evaluate``'s ``chart.png`` (``evaluate/report.py``), as data for an SVG
template: one group per metric of ``CHART_METRICS`` that some suite has a pass@k for, one bar per
suite in the summary's suite order; the bar's height is the lower bound, the whisker reaches the
upper bound; a metric without tests on a suite is labelled "n/a" instead of a bar; a bar whose
metric was partly untested is hatched. Coordinates are in SVG user units (one chart is
``width`` × ``height``); numbers are rounded to 0.1 so the SVG text is stable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..evaluate.report import CHART_METRICS, METRIC_LABELS

__all__ = ["PALETTE", "Bar", "Chart", "chart_for"]

# Matplotlib's tab10, so the SVG and chart.png use the same colours per suite.
PALETTE: tuple[str, ...] = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
TOP, BOTTOM, LEFT, RIGHT = 44.0, 70.0, 50.0, 10.0
PLOT_H = 220.0


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    w: float
    h: float
    color: str
    suite: str
    metric: str
    lower: float  # percent
    upper: float
    hatched: bool
    whisker_y: float  # y of the upper bound (== y when no whisker)
    na: bool = False


@dataclass
class Chart:
    title: str
    width: float
    height: float
    plot_top: float
    plot_bottom: float
    left: float
    right: float
    bars: list[Bar] = field(default_factory=list)
    groups: list[tuple[float, str]] = field(default_factory=list)  # (x centre, metric label)
    ticks: list[tuple[float, int]] = field(default_factory=list)  # (y, percent)
    legend: list[tuple[float, str, str]] = field(default_factory=list)  # (x, colour, suite)
    any_hatched: bool = False


def _r(x: float) -> float:
    return round(x, 1)


def chart_for(
    entries: Sequence[dict[str, Any]],
    suites: Sequence[str],
    k: int,
    title: str,
    colors: dict[str, str] | None = None,
) -> Chart:
    """``entries``: one summary entry per suite (``summary.json`` → ``results`` of one model);
    ``colors``: a colour per suite (so a suite keeps its colour in every chart of a report);
    default: the palette in ``suites`` order."""
    colors = colors or {}
    by_suite = {e["suite"]: e for e in entries}
    key = f"pass@{k}"

    def info(suite: str, metric: str) -> dict[str, Any] | None:
        m = by_suite.get(suite, {}).get("metrics", {}).get(metric)
        if not m or (m.get("passk", {}).get(key) or {}).get("lower") is None:
            return None
        return m

    shown = [m for m in CHART_METRICS if any(info(s, m) is not None for s in suites)]
    n = max(1, len(suites))
    # a bar is wide enough for its "100.0" label, a group for its metric's name (~6 units a character)
    longest = max((len(METRIC_LABELS.get(m, m)) for m in shown), default=4)
    group_w = max(6.0 * longest + 12.0, 28.0 * n + 16.0)
    width = LEFT + RIGHT + group_w * max(1, len(shown))
    bottom = TOP + PLOT_H
    ch = Chart(
        title=title,
        width=_r(width),
        height=_r(bottom + BOTTOM),
        plot_top=TOP,
        plot_bottom=bottom,
        left=LEFT,
        right=_r(width - RIGHT),
    )
    ch.ticks = [(_r(bottom - PLOT_H * p / 100), p) for p in range(0, 101, 20)]
    x = LEFT
    for j, s in enumerate(suites):
        ch.legend.append((_r(x), colors.get(s, PALETTE[j % len(PALETTE)]), s))
        x += 30.0 + 6.5 * len(s)  # swatch, gap, and the name at about 6.5 units a character
    bar_w = (group_w - 16.0) / n
    for i, metric in enumerate(shown):
        x0 = LEFT + i * group_w + 8.0
        ch.groups.append((_r(x0 + (group_w - 16.0) / 2), METRIC_LABELS.get(metric, metric)))
        for j, suite in enumerate(suites):
            m = info(suite, metric)
            if m is None:
                continue
            pk = m["passk"][key]
            lo = 100.0 * float(pk["lower"])
            up = 100.0 * float(pk["upper"] if pk.get("upper") is not None else pk["lower"])
            x = x0 + j * bar_w
            color = colors.get(suite, PALETTE[j % len(PALETTE)])
            if m.get("all_untested"):
                ch.bars.append(
                    Bar(
                        _r(x), bottom, _r(bar_w * 0.9), 0.0, color, suite, metric, lo, up, False, bottom, True
                    )
                )
                continue
            h = PLOT_H * lo / 100
            hatched = bool(m.get("note"))
            ch.any_hatched |= hatched
            ch.bars.append(
                Bar(
                    _r(x),
                    _r(bottom - h),
                    _r(bar_w * 0.9),
                    _r(h),
                    color,
                    suite,
                    metric,
                    round(lo, 1),
                    round(up, 1),
                    hatched,
                    _r(bottom - PLOT_H * max(up, lo) / 100),
                )
            )
    return ch
