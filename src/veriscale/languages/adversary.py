"""Language-neutral records of the output stage: adversaries (wrong implementations) and
candidate specifications (e.g. weakened postconditions), whatever language produced them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .tree import text_id

__all__ = ["Adversary", "CandidateSpec", "Conjunct", "make_adversary"]


@dataclass(frozen=True, slots=True)
class Adversary:
    id: str  # sha256 of ``text``
    text: str  # a ``code`` section body
    origin: str  # "template:<name>" | "mutant:<op>"
    description: str
    target: str | None = None  # id of the candidate spec it attacks (None: no particular one)
    section: str = "code"  # the task section ``text`` replaces ("code" or "code_aux")

    @property
    def overrides(self) -> dict[str, str]:
        return {self.section: self.text}

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "origin": self.origin,
            "description": self.description,
            "target": self.target,
            "section": self.section,
            "text": self.text,
        }


def make_adversary(
    text: str, origin: str, description: str, target: str | None = None, section: str = "code"
) -> Adversary:
    # the section is part of the identity: one text may be a code body or helper definitions
    ident = text_id(text if section == "code" else f"{section}\n{text}")
    return Adversary(ident, text, origin, description, target, section)


@dataclass(frozen=True, slots=True)
class CandidateSpec:
    id: str
    text: str  # a ``postcond`` section body
    origin: str  # "weakened"
    description: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "origin": self.origin, "description": self.description, "text": self.text}


@dataclass(frozen=True)
class Conjunct:
    label: str  # "k" or "k.j"
    text: str  # a precondition body of its own (the leading lets included)
