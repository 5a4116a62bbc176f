"""Branch coverage as data: the probes an engine instruments and the ones a suite executes.

Engines that can measure coverage (the native Lean evaluator) fill these; the
adequacy report reads them without knowing the language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["KINDS", "CoverageReport", "Probe"]

# probe kinds: definition entry, if/else branch, match arm, loop body
KINDS = ("def", "branch", "arm", "loop")


@dataclass(frozen=True, slots=True)
class Probe:
    """One instrumented point. ``line``/``col`` are 1-based within ``section`` (0: unknown)."""

    index: int
    kind: str  # one of KINDS
    label: str  # "entry", "then", "else", "else (implicit)", "arm 2/3", "for body", "while body"
    definition: str  # Lean name of the innermost named definition ("f", "f.go")
    section: str
    line: int
    col: int

    def where(self) -> str:
        return f"{self.section}:{self.line}:{self.col}"

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "kind": self.kind,
            "label": self.label,
            "definition": self.definition,
            "section": self.section,
            "line": self.line,
            "col": self.col,
        }


@dataclass(frozen=True, slots=True)
class CoverageReport:
    """A snapshot: every probe of the compiled implementation and the indices hit so far."""

    probes: tuple[Probe, ...]
    hits: frozenset[int]

    @property
    def total(self) -> int:
        return len(self.probes)

    @property
    def hit(self) -> int:
        return len(self.hits)

    @property
    def ratio(self) -> float:
        return self.hit / self.total if self.probes else 1.0

    def missed(self) -> list[Probe]:
        return [p for p in self.probes if p.index not in self.hits]

    def by_kind(self) -> dict[str, tuple[int, int]]:
        """kind -> (hit, total), for every kind in ``KINDS``."""
        out = {k: [0, 0] for k in KINDS}
        for p in self.probes:
            out[p.kind][1] += 1
            if p.index in self.hits:
                out[p.kind][0] += 1
        return {k: (v[0], v[1]) for k, v in out.items()}
