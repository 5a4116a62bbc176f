"""The engine's gaps in one evaluation run: the most frequent unsupported names, constructs and
undecided quantifier shapes behind UNKNOWN results, so users see at a glance what the native
engine could not decide (and what to report or rewrite).

Each (sample, metric) whose score is UNKNOWN with an engine category (``parse_error``,
``unsupported_construct``, ``undecided``) contributes its first reason once. Reasons are reduced
to a key: the name of ``unknown identifier 'X'`` / ``unknown constant 'X'`` / ``unknown type X``;
the shape ``∀ over T`` of an unbounded quantifier; otherwise the message without its test prefix
and source position.

``engine_gaps_by_kind`` splits the same counts by the task kind of the metric (``code`` for the
code metric, ``proof`` for the proof metric, ``spec`` for every SpecGen metric), the form
``summary.json`` carries under ``engine_gaps``; ``gaps_json`` orders it deterministically (kinds in
``KINDS`` order, gap kinds in ``GAP_KINDS`` order, keys by count descending then by name).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from .generations import KINDS
from .scoring.codegen import CODE_METRICS
from .scoring.proofgen import PROOF_METRICS

__all__ = ["GAP_KINDS", "engine_gaps", "engine_gaps_by_kind", "format_gaps", "gaps_json"]

GAP_KINDS = ("unsupported names", "unsupported constructs", "undecided quantifiers")
_ENGINE_CATEGORIES = ("parse_error", "unsupported_construct", "undecided")

_PREFIX = re.compile(r"^(?:(?:test|reject|unexpected|input|row)\s*\d*[,:]\s*)+", re.IGNORECASE)
_POSITION = re.compile(r"\s*\(at line \d+, column \d+\)\s*$")
_NAME = re.compile(r"unknown (?:identifier|constant) '(.+?)'(?=\s|$)|unknown type (\S+)")
_QUANT = re.compile(r"unbounded (?:quantifier )?([∀∃]) over ([^:]+?)(?::|$)")


def _key(reason: str) -> tuple[str, str]:
    text = _POSITION.sub("", _PREFIX.sub("", reason.strip()))
    m = _NAME.search(text)
    if m:
        return "unsupported names", m.group(1) or m.group(2)
    m = _QUANT.search(text)
    if m:
        return "undecided quantifiers", f"{m.group(1)} over {m.group(2).strip()}"
    return "unsupported constructs", text[:120]


def _gap_items(records: Iterable[dict[str, Any]]) -> Iterator[tuple[str, str, str]]:
    """(task kind, gap kind, key) of every engine-caused UNKNOWN (sample, metric) of ``records``."""
    for rec in records:
        for metric, m in rec.get("metrics", {}).items():
            if m.get("score") != "UNKNOWN" or m.get("error") not in _ENGINE_CATEGORIES:
                continue
            reason = m.get("reason") or ""
            if not reason:
                continue
            kind, key = _key(reason)
            yield _task_kind(metric), kind, key


def _task_kind(metric: str) -> str:
    if metric in PROOF_METRICS:
        return "proof"
    return "code" if metric in CODE_METRICS else "spec"


def engine_gaps(records: Iterable[dict[str, Any]]) -> dict[str, Counter[str]]:
    """Counts per gap kind over result records (``results.jsonl`` lines)."""
    out: dict[str, Counter[str]] = {k: Counter() for k in GAP_KINDS}
    for _, kind, key in _gap_items(records):
        out[kind][key] += 1
    return out


def engine_gaps_by_kind(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, Counter[str]]]:
    """Counts per task kind (``spec``/``code``/``proof``) and gap kind; only kinds with a gap."""
    out: dict[str, dict[str, Counter[str]]] = {}
    for task_kind, kind, key in _gap_items(records):
        out.setdefault(task_kind, {k: Counter() for k in GAP_KINDS})[kind][key] += 1
    return out


def gaps_json(by_kind: dict[str, dict[str, Counter[str]]]) -> dict[str, dict[str, dict[str, int]]]:
    """``engine_gaps_by_kind`` as plain, deterministically ordered dicts (empty gap kinds omitted)."""
    order = [k for k in KINDS if k in by_kind] + sorted(k for k in by_kind if k not in KINDS)
    out: dict[str, dict[str, dict[str, int]]] = {}
    for task_kind in order:
        per = {
            gap: dict(sorted(by_kind[task_kind][gap].items(), key=lambda kv: (-kv[1], kv[0])))
            for gap in GAP_KINDS
            if by_kind[task_kind][gap]
        }
        if per:
            out[task_kind] = per
    return out


def format_gaps(gaps: dict[str, Counter[str]], top: int = 8) -> list[str]:
    """One line per non-empty gap kind: the ``top`` most frequent keys (ties by name)."""
    lines = []
    for kind in GAP_KINDS:
        c = gaps[kind]
        if not c:
            continue
        items = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
        shown = ", ".join(f"{k} ×{n}" for k, n in items)
        more = f" (+{len(c) - top} more)" if len(c) > top else ""
        lines.append(f"{kind}: {shown}{more}")
    return lines
