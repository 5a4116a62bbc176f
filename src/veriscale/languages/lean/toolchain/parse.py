"""Reading Lean's output for a generated file.

Lean prints messages in command order. Errors and warnings carry a
``FILE:LINE:COL: error:`` / ``warning:`` prefix; info messages (``#print``,
``#eval`` values, Plausible's reports) may or may not carry an ``info:`` prefix
depending on the Lean version, so both forms are read. A message's further
lines follow without a prefix.

``parse_output`` splits the output at the file's case markers and attributes
every message to a case: by its line number when it has one (so a message is
never given to the wrong case, whatever the printing order), otherwise by the
markers around it. Messages positioned in the imports and definitions are the
preamble's. A case whose end marker never appeared (timeout, crash) is
``complete=False``.

The ``classify_*`` and ``read_value`` helpers turn one case's messages into a
result, using Lean's message texts as Verina's harness does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from veriscale.values.codec import DecodeError, decode_lean
from veriscale.values.structs import StructInfo
from veriscale.values.types import TCon, Type

from .render import LeanFile

__all__ = [
    "DECIDE_FALSE",
    "GAVE_UP",
    "NO_GOALS",
    "PLAUSIBLE_FOUND",
    "PLAUSIBLE_UNABLE",
    "CaseOutput",
    "GuardResult",
    "LeanMessage",
    "ParsedOutput",
    "PlausibleResult",
    "classify_guard",
    "classify_plausible",
    "crash_signature",
    "error_category",
    "missing_name_error",
    "parse_output",
    "read_value",
]

# Texts Lean and Plausible print (the ones Verina's harness keys on).
DECIDE_FALSE = "did not evaluate to `true`"
PLAUSIBLE_FOUND = "Found a counter-example!"
PLAUSIBLE_UNABLE = "Unable to find a counter-example"
NO_GOALS = "no goals to be solved"
GAVE_UP = "Gave up after failing to generate values"

_HEADER = re.compile(
    r"^(?P<file>[^\s\"'(\[#{<][^\n]*?):(?P<line>\d+):(?P<col>\d+):\s(?P<sev>error|warning|info)(?:\([^)]*\))?:\s?(?P<msg>.*)$"
)
_BARE = re.compile(r"^(?P<sev>error|warning|info):\s?(?P<msg>.*)$")  # lake's own, unpositioned
_MARKER = re.compile(r"<<vs:(?P<nonce>[0-9a-f]+):(?P<idx>\d+):(?P<edge>begin|end)>>\s*$")

# Text a dying Lean process leaves behind.
_CRASH_TEXTS = (
    "Stack overflow detected",
    "INTERNAL PANIC",
    "Segmentation fault",
    "out of memory",
    "std::bad_alloc",
    "terminate called",
    "uncaught exception",
)


@dataclass
class LeanMessage:
    severity: str  # "error", "warning", "info"
    lines: list[str]
    line: int | None = None  # position in the generated file, when printed
    col: int | None = None

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def positioned(self) -> bool:
        return self.line is not None

    def first_line(self, limit: int = 300) -> str:
        first = next((ln.strip() for ln in self.lines if ln.strip()), "")
        return first if len(first) <= limit else first[: limit - 3] + "..."


@dataclass
class CaseOutput:
    index: int
    started: bool = False
    complete: bool = False
    messages: list[LeanMessage] = field(default_factory=list)

    @property
    def errors(self) -> list[LeanMessage]:
        return [m for m in self.messages if m.severity == "error"]

    def text(self) -> str:
        return "\n".join(m.text for m in self.messages)


@dataclass
class ParsedOutput:
    preamble: list[LeanMessage]
    cases: list[CaseOutput]
    stray: list[LeanMessage]  # unpositioned output outside every case (e.g. a crash report)

    @property
    def preamble_errors(self) -> list[LeanMessage]:
        return [m for m in self.preamble if m.severity == "error"]

    def crash_text(self) -> str:
        for m in [*self.stray, *(m for c in self.cases for m in c.messages)]:
            sig = crash_signature(m.text)
            if sig:
                return sig
        return ""


def crash_signature(text: str) -> str:
    for line in text.splitlines():
        if any(t in line for t in _CRASH_TEXTS):
            return line.strip()
    return ""


def parse_output(output: str, lean_file: LeanFile) -> ParsedOutput:
    """Split ``output`` by ``lean_file``'s markers; see the module docstring."""
    cases = [CaseOutput(i) for i in range(lean_file.n_cases)]
    preamble: list[LeanMessage] = []
    stray: list[LeanMessage] = []
    current: int | None = None  # case whose markers we are between
    seen_begin = False
    last: LeanMessage | None = None
    placed: list[tuple[LeanMessage, int | None]] = []  # message, case index by markers

    for raw in output.splitlines():
        line = raw.rstrip("\r")
        m = _MARKER.search(line)
        if m and m.group("nonce") == lean_file.nonce:
            idx = int(m.group("idx"))
            if 0 <= idx < len(cases):
                if m.group("edge") == "begin":
                    cases[idx].started = True
                    current, seen_begin = idx, True
                else:
                    cases[idx].complete = True
                    current = None
            last = None
            continue
        h = _HEADER.match(line)
        if h:
            last = LeanMessage(h.group("sev"), [h.group("msg")], int(h.group("line")), int(h.group("col")))
            placed.append((last, current if seen_begin else -1))
            continue
        b = _BARE.match(line)
        if b:
            last = LeanMessage(b.group("sev"), [b.group("msg")])
            placed.append((last, current if seen_begin else -1))
            continue
        if last is not None:
            last.lines.append(line)
            continue
        if not line.strip():
            continue
        # unprefixed output: an info message of older Lean versions, or text of a crashing process
        last = LeanMessage("info", [line])
        placed.append((last, current if seen_begin else -1))

    for msg, by_marker in placed:
        target = _case_by_line(lean_file, msg.line) if msg.line is not None else None
        if msg.line is not None and target is None:
            if msg.line <= lean_file.preamble_end:
                preamble.append(msg)
            else:
                stray.append(msg)
            continue
        if target is None:
            target = by_marker
        if target is None:
            stray.append(msg)
        elif target == -1:
            preamble.append(msg)
        else:
            cases[target].messages.append(msg)
    return ParsedOutput(preamble, cases, stray)


def _case_by_line(lean_file: LeanFile, line: int | None) -> int | None:
    if line is None:
        return None
    spans = lean_file.case_lines
    lo, hi = 0, len(spans) - 1
    while lo <= hi:  # spans are sorted and disjoint
        mid = (lo + hi) // 2
        a, b = spans[mid]
        if line < a:
            hi = mid - 1
        elif line > b:
            lo = mid + 1
        else:
            return mid
    return None


# ---------------------------------------------------------------- classification

_MISSING_NAME_HINTS = (
    "unknown identifier",
    "unknown constant",
    "unknown namespace",
    "invalid field",
    "failed to synthesize",
    "typeclass instance problem is stuck",
)


def missing_name_error(messages: list[LeanMessage]) -> bool:
    """Errors that importing Mathlib may cure (missing names, lemmas or instances)."""
    return any(m.severity == "error" and any(h in m.text for h in _MISSING_NAME_HINTS) for m in messages)


def error_category(msg: LeanMessage) -> str:
    text = msg.text
    if "maximum number of heartbeats" in text or "(deterministic) timeout" in text:
        return "timeout"
    if crash_signature(text):
        return "error"
    return "elab"


@dataclass(frozen=True)
class GuardResult:
    """A ``#guard decide (P)`` case: ``value`` True/False, or None with a reason."""

    value: bool | None
    reason: str = ""
    category: str = ""


def classify_guard(case: CaseOutput) -> GuardResult:
    """Verina's reading of a decide case: the "did not evaluate" text is FALSE, any other
    error UNKNOWN, silence TRUE — but only for a case that ran to its end marker."""
    errors = case.errors
    if any(DECIDE_FALSE in m.text for m in errors):
        return GuardResult(False)
    if errors:
        return GuardResult(None, errors[0].first_line(), error_category(errors[0]))
    crash = crash_signature(case.text())
    if crash:
        return GuardResult(None, crash, "error")
    if not case.complete:
        return GuardResult(None, "no result (Lean stopped before the end of this case)", "error")
    return GuardResult(True)


@dataclass(frozen=True)
class PlausibleResult:
    """One plausible block: ``outcome`` is "found" (counter-example), "proved" (simp closed the
    goal: "no goals to be solved"), "unable" (random testing found nothing), "gave_up", "error"."""

    outcome: str
    reason: str = ""


def classify_plausible(case: CaseOutput) -> PlausibleResult:
    text = case.text()
    if PLAUSIBLE_FOUND in text:
        return PlausibleResult("found")
    if NO_GOALS in text:
        return PlausibleResult("proved")
    if GAVE_UP in text:
        first = next((m.first_line() for m in case.messages if GAVE_UP in m.text), GAVE_UP)
        return PlausibleResult("gave_up", first)
    errors = case.errors
    if errors:
        return PlausibleResult("error", errors[0].first_line())
    if PLAUSIBLE_UNABLE in text and case.complete:
        return PlausibleResult("unable")
    if not case.complete:
        return PlausibleResult("error", "no result (Lean stopped before the end of this case)")
    return PlausibleResult("error", "plausible printed no verdict")


# ---------------------------------------------------------------- values printed by #eval


def _has_float(t: Type) -> bool:
    return isinstance(t, TCon) and (t.name == "Float" or any(_has_float(a) for a in t.args))


_FLOAT_WORDS = {"NaN": "(0.0/0.0)", "inf": "(1.0/0.0)"}


def _lean_floats_to_literals(text: str) -> str:
    """``Float.toString`` prints ``NaN``, ``inf`` and ``-inf``, which are not Lean terms:
    rewrite them (outside string and char literals) into the divisions the codec reads."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
            continue
        if c.isalpha():
            j = i
            while j < n and (text[j].isalnum() or text[j] in "_.'"):
                j += 1
            word = text[i:j]
            if word in _FLOAT_WORDS:
                if out and out[-1] == "-":
                    out[-1] = ""
                    out.append("(-1.0/0.0)" if word == "inf" else _FLOAT_WORDS[word])
                else:
                    out.append(_FLOAT_WORDS[word])
            else:
                out.append(word)
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _decode(t: Type, text: str, structs: Mapping[str, StructInfo]) -> Any:
    body = text.strip()
    if _has_float(t):
        body = _lean_floats_to_literals(body)
    return decode_lean(t, body, structs=dict(structs))


def _candidates(case: CaseOutput) -> list[str]:
    """Texts that may be the printed value, most likely first.

    Info messages come first. With unprefixed info output a value can also trail another
    message's text (a warning, a panic report), so every suffix of a message's continuation
    lines is tried too, longest first; prose never decodes as a value.
    """
    infos = [m for m in case.messages if m.severity == "info"]
    out = [m.text for m in reversed(infos)]
    for m in case.messages:
        rest = m.lines[1:]
        out.extend("\n".join(rest[k:]) for k in range(len(rest)))
    return [c for c in out if c.strip()]


@dataclass(frozen=True)
class ValueRead:
    ok: bool
    value: Any = None
    reason: str = ""
    category: str = ""


def read_value(case: CaseOutput, t: Type, structs: Mapping[str, StructInfo] | None = None) -> ValueRead:
    """The value an ``#eval`` case printed, decoded through the codec (complete, multi-line)."""
    structs = structs or {}
    errors = case.errors
    if errors:
        first = errors[0]
        text = first.text
        if "Repr" in text and ("synthesize" in text or "could not" in text):
            return ValueRead(False, reason=first.first_line(), category="output")
        return ValueRead(False, reason=first.first_line(), category=error_category(first))
    last_err: DecodeError | None = None
    for cand in _candidates(case):
        try:
            return ValueRead(True, _decode(t, cand, structs))
        except DecodeError as exc:
            last_err = exc
    # an older Lean may print a String without quotes; accept the raw text only if nothing else
    if isinstance(t, TCon) and t.name == "String":
        infos = [m for m in case.messages if m.severity == "info"]
        if len(infos) == 1 and case.complete:
            return ValueRead(True, infos[0].text)
    crash = crash_signature(case.text())
    if crash:
        return ValueRead(False, reason=crash, category="error")
    if not case.complete:
        return ValueRead(
            False, reason="no result (Lean stopped before the end of this case)", category="error"
        )
    if last_err is not None:
        return ValueRead(
            False, reason=f"could not read the printed value back: {last_err}", category="output"
        )
    return ValueRead(False, reason="no value printed", category="output")
