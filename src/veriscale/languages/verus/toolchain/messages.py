"""Reading Verus's text output: error diagnostics with their primary location, and the summary.

Verus prints rustc-style diagnostics on stderr::

    error: postcondition not satisfied
      --> sample_2.rs:14:9
       |
    14 |         r >= 0,
       |         ------ failed this postcondition

and, only when verification itself ran (no compile error and no VIR error
such as ``assume/admit not allowed with --no-cheating``), a final line
``verification results:: N verified, M errors`` (on stdout or stderr,
depending on the version; ``(partial verification …)`` may follow).

``parse_output`` returns every ``error`` diagnostic (the header line
``error: …`` or ``error[E0425]: …``, with the first ``--> FILE:LINE:COL``
that follows it before the next header, if any) in the order printed, and the
summary counts or None. Warnings and notes are skipped; the closing
``error: aborting due to …`` line is not a diagnostic of any program and is
dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Diagnostic", "VerusOutput", "parse_output"]

_HEADER = re.compile(r"^(?P<sev>error|warning|note|help)(?:\[(?P<code>[A-Z]\d+)\])?: (?P<msg>.*)$")
_LOCATION = re.compile(r"^\s*--> (?P<file>.+?):(?P<line>\d+):(?P<col>\d+)\s*$")
_SUMMARY = re.compile(r"verification results:: (?P<ok>\d+) verified, (?P<err>\d+) errors?")
_ABORTING = ("aborting due to", "could not compile")


@dataclass(frozen=True)
class Diagnostic:
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    code: str | None = None

    def short(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{where}{self.message}"


@dataclass(frozen=True)
class VerusOutput:
    errors: tuple[Diagnostic, ...]
    verified: int | None = None  # the summary's counts; None when verification did not run to its end
    failed: int | None = None

    @property
    def completed(self) -> bool:
        return self.verified is not None


def parse_output(text: str) -> VerusOutput:
    errors: list[Diagnostic] = []
    current: dict[str, object] | None = (
        None  # the open error diagnostic, until its location or the next header
    )
    verified = failed = None
    for raw in text.splitlines():
        line = raw.rstrip()
        m = _SUMMARY.search(line)
        if m:
            verified, failed = int(m.group("ok")), int(m.group("err"))
            continue
        h = _HEADER.match(line)
        if h:
            if current is not None:
                errors.append(Diagnostic(**current))  # type: ignore[arg-type]
                current = None
            msg = h.group("msg").strip()
            if h.group("sev") == "error" and not msg.startswith(_ABORTING):
                current = {"message": msg, "code": h.group("code")}
            continue
        loc = _LOCATION.match(line)
        if loc and current is not None and "file" not in current:
            current.update(file=loc.group("file"), line=int(loc.group("line")), column=int(loc.group("col")))
            errors.append(Diagnostic(**current))  # type: ignore[arg-type]
            current = None
    if current is not None:
        errors.append(Diagnostic(**current))  # type: ignore[arg-type]
    return VerusOutput(tuple(errors), verified, failed)
