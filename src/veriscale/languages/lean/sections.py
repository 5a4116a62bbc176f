"""The ``-- !benchmark @start NAME k=v`` / ``@end NAME`` sections of a Verina ``task.lean``.

Same reading rules as Verina's own loader: any line containing
``-- !benchmark`` is a marker; other lines belong (with a trailing newline) to
the open section; lines outside sections are ignored; sections do not nest.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "DEFINITION_SECTIONS",
    "MARKER",
    "SECTION_DEFAULTS",
    "SECTION_NAMES",
    "Section",
    "SectionError",
    "parse_sections",
]

MARKER = "-- !benchmark"

# The sections that hold definitions, in the order Verina's harness assembles them.
DEFINITION_SECTIONS = (
    "task_aux",
    "solution_aux",
    "precond_aux",
    "precond",
    "code_aux",
    "code",
    "postcond_aux",
    "postcond",
)
# The section names Verina's loader accepts, and the value it uses when a section is blank.
SECTION_NAMES = ("import", *DEFINITION_SECTIONS, "proof_aux", "proof")
SECTION_DEFAULTS = {"precond": "True -- default precond", "proof": "sorry"}


class SectionError(ValueError):
    """A malformed marker; ``line`` is 1-based."""

    def __init__(self, msg: str, line: int) -> None:
        super().__init__(f"line {line}: {msg}")
        self.msg = msg
        self.line = line


@dataclass(frozen=True, slots=True)
class Section:
    name: str
    args: dict[str, str] = field(default_factory=dict)
    text: str = ""

    @property
    def is_blank(self) -> bool:
        return not self.text.strip()


def _parse_args(words: list[str], line_no: int) -> dict[str, str]:
    args: dict[str, str] = {}
    for w in words:
        k, sep, v = w.partition("=")
        if not sep or not k:
            raise SectionError(f"malformed marker argument {w!r} (expected key=value)", line_no)
        args[k] = v
    return args


def parse_sections(text: str) -> list[Section]:
    """All sections in file order. Raises ``SectionError`` on a stray, unknown or unclosed marker."""
    sections: list[Section] = []
    open_name: str | None = None
    open_args: dict[str, str] = {}
    open_line = 0
    body: list[str] = []
    for line_no, line in enumerate(text.split("\n"), start=1):
        if MARKER not in line:
            if open_name is not None:
                body.append(line + "\n")
            continue
        words = line.split(MARKER, 1)[1].split()
        if len(words) < 2 or words[0] not in ("@start", "@end"):
            raise SectionError(f"malformed marker {line.strip()!r}", line_no)
        cmd, name = words[0], words[1]
        if cmd == "@start":
            if open_name is not None:
                raise SectionError(
                    f"@start {name} while section {open_name!r} (opened at line {open_line}) is not closed",
                    line_no,
                )
            if name not in SECTION_NAMES:
                raise SectionError(f"unknown section name {name!r}", line_no)
            open_name, open_args, open_line, body = name, _parse_args(words[2:], line_no), line_no, []
        else:
            if open_name is None:
                raise SectionError(f"@end {name} without a matching @start", line_no)
            if name != open_name:
                raise SectionError(
                    f"@end {name} does not match the open section {open_name!r} (line {open_line})", line_no
                )
            sections.append(Section(open_name, open_args, "".join(body)))
            open_name = None
    if open_name is not None:
        raise SectionError(f"section {open_name!r} is never closed", open_line)
    return sections
