"""Getting structured items out of model answers, and saying why when that fails.

Models wrap answers in prose and code fences, stop mid-array when they run out
of tokens, leave trailing commas, and number their sections loosely. Every
extractor here returns an ``Extraction``: the parsed items, or ``malformed``
with a short reason (which the runner counts and may re-ask for). Notes record
repairs that still gave a usable answer (e.g. items salvaged from a truncated
array).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..formats.generation import fenced_blocks  # one reading of fences for models and formats

__all__ = [
    "Extraction",
    "extract_adversarial",
    "extract_decomposition",
    "extract_json",
    "extract_json_array",
    "extract_json_object",
    "extract_lean",
    "extract_seed_inputs",
    "extract_spec",
    "fenced_blocks",
    "forbidden_constructs",
    "lean_blocks",
    "rename_indexed",
    "strip_lean_commands",
]


@dataclass(slots=True)
class Extraction:
    items: Any = None
    malformed: bool = False
    reason: str | None = None
    notes: list[str] = field(default_factory=list)

    @classmethod
    def bad(cls, reason: str) -> Extraction:
        return cls(None, True, reason)


# -- JSON ---------------------------------------------------------------------------------

_DECODER = json.JSONDecoder()


def _strip_trailing_commas(s: str) -> str:
    """Drop commas directly before ``]``/``}`` outside strings (a common model slip)."""
    out: list[str] = []
    in_str = esc = False
    for i, ch in enumerate(s):
        if in_str:
            out.append(ch)
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch == ",":
            j = i + 1
            while j < len(s) and s[j] in " \t\r\n":
                j += 1
            if j < len(s) and s[j] in "]}":
                continue
        out.append(ch)
    return "".join(out)


def _top_level_values(text: str, opener: str) -> list[Any]:
    """Every JSON value starting at an ``opener`` that decodes, scanning left to right, non-overlapping."""
    found: list[Any] = []
    i = text.find(opener)
    while i != -1:
        try:
            value, end = _DECODER.raw_decode(text, i)
        except ValueError:
            i = text.find(opener, i + 1)
            continue
        found.append(value)
        i = text.find(opener, end)
    return found


def _salvage_array(text: str) -> list[Any] | None:
    """Complete leading elements of a JSON array cut off mid-way, or None."""
    best: list[Any] | None = None
    i = text.find("[")
    while i != -1:
        items: list[Any] = []
        j = i + 1
        while True:
            while j < len(text) and text[j] in " \t\r\n":
                j += 1
            try:
                value, j = _DECODER.raw_decode(text, j)
            except ValueError:
                break
            while j < len(text) and text[j] in " \t\r\n":
                j += 1
            # Only an element followed by a separator is known complete ("[1, 2" may have been "[1, 23").
            if j < len(text) and text[j] in ",]":
                items.append(value)
            if j < len(text) and text[j] == ",":
                j += 1
                continue
            break
        if items and (best is None or len(items) > len(best)):
            best = items
        i = text.find("[", i + 1)
    return best


def extract_json(text: str, kind: type = list) -> Extraction:
    """The JSON array (``kind=list``) or object (``kind=dict``) in an answer.

    Tried in order: the whole answer, each fenced block (``json`` ones first),
    then values embedded in prose; each also with trailing commas removed. For
    arrays, a truncated answer still yields its complete leading elements.
    """
    if text is None or not text.strip():
        return Extraction.bad("empty answer")
    opener = "[" if kind is list else "{"
    what = "JSON array" if kind is list else "JSON object"
    blocks = fenced_blocks(text)
    ordered = [b for b in blocks if b[0] == "json"] + [b for b in blocks if b[0] != "json"]
    candidates = [text.strip()] + [body.strip() for _lang, body, _closed in ordered]
    for repair in (False, True):
        for cand in candidates:
            src = _strip_trailing_commas(cand) if repair else cand
            try:
                value = json.loads(src)
            except ValueError:
                continue
            if isinstance(value, kind):
                return Extraction(value, notes=["removed trailing commas"] if repair else [])
        for cand in candidates:
            src = _strip_trailing_commas(cand) if repair else cand
            values = [v for v in _top_level_values(src, opener) if isinstance(v, kind)]
            if values:
                # Prose may quote a small example before the real answer: keep the largest.
                best = max(values, key=len)
                notes = ["removed trailing commas"] if repair else []
                if len(values) > 1:
                    notes.append(f"{len(values) - 1} other {what}(s) in the answer ignored")
                return Extraction(best, notes=notes)
    if kind is list:
        salvaged = _salvage_array(_strip_trailing_commas(text))
        if salvaged:
            return Extraction(salvaged, notes=[f"truncated {what}: kept {len(salvaged)} complete item(s)"])
    return Extraction.bad(f"no {what} found")


def extract_json_array(text: str) -> Extraction:
    return extract_json(text, list)


def extract_json_object(text: str) -> Extraction:
    return extract_json(text, dict)


def extract_seed_inputs(text: str, param_names: list[str] | tuple[str, ...]) -> Extraction:
    """Seed inputs as ``{param: raw JSON value}`` dicts, de-duplicated, answer order kept.

    Accepts ``{"input": {...}}`` elements and bare ``{...}`` ones. Elements whose
    keys are not exactly the parameter names are dropped and counted in a note.
    """
    ex = extract_json_array(text)
    if ex.malformed:
        return ex
    want = set(param_names)
    kept: list[dict[str, Any]] = []
    seen: set[str] = set()
    dropped = dupes = 0
    for item in ex.items:
        inp = item.get("input") if isinstance(item, dict) and isinstance(item.get("input"), dict) else item
        if not isinstance(inp, dict) or set(inp) != want:
            dropped += 1
            continue
        k = json.dumps(inp, sort_keys=True, ensure_ascii=False)
        if k in seen:
            dupes += 1
            continue
        seen.add(k)
        kept.append({p: inp[p] for p in param_names})
    notes = list(ex.notes)
    if dropped:
        notes.append(f"dropped {dropped} item(s) whose keys are not exactly {sorted(want)}")
    if dupes:
        notes.append(f"dropped {dupes} duplicate item(s)")
    if not kept:
        return Extraction(None, True, f"no usable input among {len(ex.items)} item(s)", notes)
    return Extraction(kept, notes=notes)


# -- Lean ---------------------------------------------------------------------------------

_LEAN_LANGS = ("lean", "lean4")
_COMMAND_LINE = re.compile(
    r"^#(eval|eval!|check|print|guard|guard_msgs|reduce|exit|lint|synth|help)\b.*$\n?", re.MULTILINE
)


def strip_lean_commands(code: str) -> str:
    """Remove top-level ``#eval``/``#check``/... lines: they are not definitions and slow compiles."""
    return _COMMAND_LINE.sub("", code)


def lean_blocks(text: str) -> list[str]:
    """Bodies of ```lean blocks; else of any fenced blocks; else the whole answer."""
    blocks = fenced_blocks(text or "")
    lean = [b for lang, b, _c in blocks if lang in _LEAN_LANGS]
    if lean:
        return lean
    if blocks:
        return [b for _lang, b, _c in blocks]
    return [text.strip()] if text and text.strip() else []


def extract_lean(text: str) -> Extraction:
    """The Lean code of an answer (all Lean blocks joined), commands removed."""
    blocks = [strip_lean_commands(b).strip() for b in lean_blocks(text)]
    blocks = [b for b in blocks if b]
    if not blocks:
        return Extraction.bad("no Lean code found")
    return Extraction("\n\n".join(blocks))


_PRE_MARK = re.compile(r"(?mi)^[ \t]*--[ \t]*Pre-?condition[ \t]+Implementation\b.*$")
_POST_MARK = re.compile(r"(?mi)^[ \t]*--[ \t]*Post-?condition[ \t]+Implementation\b.*$")


def extract_spec(text: str) -> Extraction:
    """``{"precondition": code, "postcondition": code}`` from the two marker comments."""
    sources = lean_blocks(text)
    if text and _PRE_MARK.search(text) and not any(_PRE_MARK.search(s) for s in sources):
        sources.append(text)  # markers outside the fences
    for src in sources:
        pre_m, post_m = _PRE_MARK.search(src), _POST_MARK.search(src)
        if not pre_m or not post_m or post_m.start() < pre_m.end():
            continue
        pre = strip_lean_commands(src[pre_m.end() : post_m.start()]).strip()
        post = strip_lean_commands(src[post_m.end() :]).strip()
        if not pre:
            return Extraction.bad("empty precondition section")
        if not post:
            return Extraction.bad("empty postcondition section")
        return Extraction({"precondition": pre, "postcondition": post})
    if not sources:
        return Extraction.bad("empty answer")
    return Extraction.bad(
        "missing '-- Precondition Implementation' / '-- Postcondition Implementation' markers"
    )


_ADV_MARK = re.compile(
    r"(?mi)^[ \t]*--[ \t]*Adversarial[ \t]+Implementation[ \t]*#?[ \t]*(\d+)[ \t]*:?[ \t]*$"
)


def extract_adversarial(text: str, expected: int | None = None) -> Extraction:
    """``[(index, code), ...]`` by index from ``-- Adversarial Implementation i`` sections.

    Sections may be spread over several fenced blocks. A repeated index keeps
    its first section; empty sections are dropped; both are noted.
    """
    sources = lean_blocks(text)
    if text and _ADV_MARK.search(text) and not any(_ADV_MARK.search(s) for s in sources):
        sources = [text]
    found: dict[int, str] = {}
    notes: list[str] = []
    for src in sources:
        marks = list(_ADV_MARK.finditer(src))
        for k, m in enumerate(marks):
            end = marks[k + 1].start() if k + 1 < len(marks) else len(src)
            code = strip_lean_commands(src[m.end() : end]).strip()
            idx = int(m.group(1))
            if not code:
                notes.append(f"section {idx} is empty")
            elif idx in found:
                notes.append(f"section {idx} repeated; the first is kept")
            else:
                found[idx] = code
    if not found:
        return Extraction(None, True, "no '-- Adversarial Implementation i' sections with code", notes)
    if expected is not None and len(found) != expected:
        notes.append(f"{len(found)} implementation(s) instead of {expected}")
    return Extraction(sorted(found.items()), notes=notes)


def rename_indexed(code: str, name: str, index: int) -> str:
    """Undo a model's ``name{i}`` / ``name_{i}`` renaming of the target function, and nothing else.

    Only applies when ``name`` itself is not defined, so real names that end in
    digits (``LinearSearch3``) are left alone.
    """
    if re.search(rf"(?m)^\s*(?:@\[[^\]]*\]\s*)?(?:private\s+)?def\s+{re.escape(name)}\b(?![\w'])", code):
        return code
    for alias in (f"{name}_{index}", f"{name}{index}"):
        if re.search(rf"\bdef\s+{re.escape(alias)}(?![\w'])", code):
            return re.sub(rf"(?<![\w.']){re.escape(alias)}(?![\w'])", name, code)
    return code


_FORBIDDEN = (
    "sorry",
    "admit",
    "axiom",
    "opaque",
    "unsafe",
    "partial",
    "noncomputable",
    "implemented_by",
    "extern",
    "instance",
    "IO",
    "ST",
    "Classical.choose",
    "choose_spec",
    "Classical.choice",
)


def _strip_comments_and_strings(code: str) -> str:
    code = re.sub(r"/-.*?-/", " ", code, flags=re.DOTALL)
    code = re.sub(r"--[^\n]*", " ", code)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', code)


def forbidden_constructs(code: str) -> list[str]:
    """Forbidden keywords used in code (comments and strings ignored), sorted."""
    bare = _strip_comments_and_strings(code)
    return sorted({w for w in _FORBIDDEN if re.search(rf"(?<![\w.']){re.escape(w)}(?![\w'])", bare)})


# -- problem decomposition ------------------------------------------------------------------

_IO_HEAD = re.compile(
    r"(?mi)^[ \t#*>]*\**[ \t]*(Input|Output)[ \t]*\**[ \t]*:?[ \t]*\**[ \t]*$|"
    r"^[ \t#*>]*\**[ \t]*(Input|Output)[ \t]*\**[ \t]*:[ \t]*\**(.*)$"
)


def extract_decomposition(text: str) -> Extraction:
    """``{"input": text, "output": text}`` from an answer with ``Input:`` and ``Output:`` parts."""
    if not text or not text.strip():
        return Extraction.bad("empty answer")
    heads = []
    for m in _IO_HEAD.finditer(text):
        which = (m.group(1) or m.group(2)).lower()
        rest = (m.group(3) or "").strip().strip("*").strip() if m.group(2) else ""
        heads.append((which, m.start(), m.end(), rest))
    first_in = next((h for h in heads if h[0] == "input"), None)
    first_out = next((h for h in heads if h[0] == "output" and first_in and h[1] > first_in[1]), None)
    if first_in is None or first_out is None:
        return Extraction.bad("missing 'Input:' and 'Output:' parts")
    inp = (first_in[3] + "\n" + text[first_in[2] : first_out[1]]).strip()
    out = (first_out[3] + "\n" + text[first_out[2] :]).strip()
    # A closing code fence or trailing prose after the model is not part of it.
    out = re.split(r"(?m)^```", out)[0].strip()
    if not inp or not out:
        return Extraction.bad("empty 'Input:' or 'Output:' part")
    return Extraction({"input": inp, "output": out})
