"""Prompt templates: versioned package-data files rendered with ``string.Template``.

A template file starts with ``# key: value`` header lines (``template``,
``version``, ``fields``, ``purpose``) followed by role sections introduced by
``---- system ----`` / ``---- user ----`` lines. Placeholders are ``${name}``;
``string.Template`` is used instead of ``str.format`` because prompts are full of
JSON and Lean braces, and substituted values are never re-scanned, so a value
containing ``$`` or ``{`` is inserted verbatim.

A template's ``ident`` ("name@vN#hash") goes into every cache key: bumping the
version, or any edit of the file, makes old cached answers unreachable.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from .records import Message

__all__ = ["PromptTemplate", "TemplateError", "get_template", "template_names"]

_ROLE_LINE = re.compile(r"^-{3,}\s*(system|user|assistant)\s*-{3,}\s*$")
_HEADER_LINE = re.compile(r"^#\s*([A-Za-z_]+)\s*:\s*(.*)$")


class TemplateError(ValueError):
    pass


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    version: str
    fields: tuple[str, ...]
    sections: tuple[tuple[str, str], ...]  # (role, text)
    digest: str
    purpose: str = ""

    @property
    def ident(self) -> str:
        return f"{self.name}@v{self.version}#{self.digest[:12]}"

    @classmethod
    def parse(cls, text: str, source: str = "<template>") -> PromptTemplate:
        header: dict[str, str] = {}
        sections: list[tuple[str, list[str]]] = []
        for line in text.splitlines():
            m = _ROLE_LINE.match(line)
            if m:
                sections.append((m.group(1), []))
            elif sections:
                sections[-1][1].append(line)
            elif line.strip():
                h = _HEADER_LINE.match(line)
                if not h:
                    raise TemplateError(f"{source}: header line is not '# key: value': {line!r}")
                header[h.group(1).lower()] = h.group(2).strip()
        for key in ("template", "version", "fields"):
            if key not in header:
                raise TemplateError(f"{source}: header lacks '# {key}: ...'")
        if not sections:
            raise TemplateError(f"{source}: no '---- system ----' / '---- user ----' sections")
        fields = tuple(f.strip() for f in header["fields"].split(",") if f.strip())
        parts = tuple((role, "\n".join(lines).strip("\n")) for role, lines in sections)
        used: set[str] = set()
        for role, body in parts:
            tpl = Template(body)
            if not tpl.is_valid():
                raise TemplateError(f"{source}: a '$' in the {role} section is not a ${{field}} placeholder")
            used.update(tpl.get_identifiers())
        if used != set(fields):
            raise TemplateError(
                f"{source}: declared fields {sorted(fields)} differ from the placeholders used {sorted(used)}"
            )
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return cls(header["template"], header["version"], fields, parts, digest, header.get("purpose", ""))

    def render(self, **values: Any) -> list[Message]:
        """Chat messages with every placeholder filled. Missing or unknown fields are errors."""
        missing = [f for f in self.fields if f not in values]
        unknown = sorted(set(values) - set(self.fields))
        if missing or unknown:
            raise TemplateError(
                f"template {self.name}: missing fields {missing}"
                + (f", unknown fields {unknown}" if unknown else "")
            )
        text_values = {
            k: v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, indent=2)
            for k, v in values.items()
        }
        return [
            {"role": role, "content": Template(body).substitute(text_values)} for role, body in self.sections
        ]


def template_names() -> list[str]:
    root = resources.files("veriscale.llm") / "prompts"
    return sorted(p.name.removesuffix(".txt") for p in root.iterdir() if p.name.endswith(".txt"))


@lru_cache(maxsize=64)
def _load_packaged(name: str) -> PromptTemplate:
    res = resources.files("veriscale.llm") / "prompts" / f"{name}.txt"
    if not res.is_file():
        raise TemplateError(f"no prompt template named {name!r} (known: {', '.join(template_names())})")
    return PromptTemplate.parse(res.read_text(encoding="utf-8"), f"prompts/{name}.txt")


def get_template(name: str, directory: Path | str | None = None) -> PromptTemplate:
    """The template ``name``; a file ``<directory>/<name>.txt`` overrides the packaged one."""
    if directory is not None:
        path = Path(directory) / f"{name}.txt"
        if path.is_file():
            return PromptTemplate.parse(path.read_text(encoding="utf-8"), str(path))
    return _load_packaged(name)
