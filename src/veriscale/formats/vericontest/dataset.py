"""Reading VeriContest problem directories.

A benchmark root holds ``leetcode/lc<id>/`` and ``codeforces/cf<id>/``
directories, each with ``description.md``, ``tags``, ``code.rs``, ``spec.rs``,
``code_spec.rs``, ``verified.rs`` and, for Codeforces, ``main.rs``.

``read_problem(dir)`` returns a ``Problem``: the files verbatim, the parsed
tags, the description's examples, and the signature of the target function
(the last exec fn of ``spec.rs`` with ``ensures``/``returns``) plus the
signature of the same function in the reference code (``code.rs`` for
LeetCode, the ``impl Solution`` of ``main.rs`` for Codeforces), whose
parameter names are the JSON keys of test inputs.

LeetCode examples (``name = json, …`` / output JSON) are decoded into input
dictionaries keyed by the *reference* parameter names: camelCase keys are
snake_cased, and when the names still do not match the reference's (lc258
``num`` vs ``n``, lc3047 ``bottom_left`` vs ``bl``) they are bound by
position. Codeforces examples are raw stdin/stdout text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ...languages.verus.items import FnItem, ScanError, SourceItems, scan_items
from ...languages.verus.lexer import LexError
from ...languages.verus.signature import RustParam, RustSignature, combined_signature
from ...values.rust_types import parse_rust_type
from ...values.types import Type, TypeParseError
from ..api import FormatError
from .files import locate_files, lost_line_breaks

__all__ = [
    "Example",
    "Problem",
    "ProblemError",
    "RustParam",
    "RustSignature",
    "Tags",
    "discover_problems",
    "is_vericontest_root",
    "parse_cf_examples",
    "parse_lc_examples",
    "parse_tags",
    "problem_sort_key",
    "read_problem",
    "read_problems",
    "snake_case",
]

FILES = ("description.md", "tags", "code.rs", "spec.rs", "code_spec.rs", "verified.rs")


class ProblemError(FormatError):
    """A problem directory that cannot be read (missing file, no target function, bad type)."""


@dataclass(frozen=True)
class Tags:
    difficulty: str | None = None  # LeetCode: Easy / Medium / Hard
    rating: int | None = None  # Codeforces
    topics: tuple[str, ...] = ()
    acceptance: float | None = None  # LeetCode, percent
    solved: int | None = None  # Codeforces, number of users


@dataclass
class Example:
    """One example of the description.

    LeetCode: ``input_text``/``output_text`` as written; ``inputs`` (JSON by
    reference parameter name) and ``output`` (JSON) when they parse, else
    ``error`` says why. Codeforces: ``stdin``/``stdout``.
    ``canonical`` marks the ``**Input:**`` form the acceptance figures count.
    """

    index: int
    input_text: str
    output_text: str
    canonical: bool = True
    inputs: dict[str, Any] | None = None
    output: Any = None
    error: str | None = None

    @property
    def stdin(self) -> str:
        return self.input_text

    @property
    def stdout(self) -> str:
        return self.output_text


@dataclass
class Problem:
    id: str
    kind: str  # "leetcode" or "codeforces"
    path: Path
    description: str
    tags: Tags
    code: str  # code.rs
    spec: str  # spec.rs
    code_spec: str
    verified: str
    main: str | None  # main.rs (Codeforces)
    signature: RustSignature  # target fn in spec.rs
    ref_signature: RustSignature  # the same fn in the reference code (JSON key names)
    examples: list[Example] = field(default_factory=list)
    starter_code: str | None = None
    title: str = ""
    structs: dict[str, list[tuple[str, Type]]] = field(default_factory=dict)  # user structs of the reference
    constructor: RustSignature | None = None  # ``new`` of the owner, for ``&self`` targets
    warnings: list[str] = field(default_factory=list)  # misnamed/missing optional files
    # the language plug-in (``languages.registry``) that runs this problem's spec and code
    language: ClassVar[str] = "verus"

    @property
    def is_codeforces(self) -> bool:
        return self.kind == "codeforces"

    @property
    def reference_source(self) -> str:
        """The runnable reference: ``main.rs`` for Codeforces, ``code.rs`` for LeetCode."""
        return self.main if self.main is not None else self.code


# ---------------------------------------------------------------- tags


def parse_tags(text: str, kind: str) -> Tags:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    difficulty = rating = acceptance = solved = None
    topics: tuple[str, ...] = ()
    rest: list[str] = []
    for ln in lines:
        if m := re.match(r"(?i)rating:\s*(\d+)", ln):
            rating = int(m.group(1))
        elif m := re.match(r"(?i)acceptance rate:\s*([\d.]+)\s*%?", ln):
            acceptance = float(m.group(1))
        elif m := re.match(r"(?i)solved by:\s*(\d+)", ln):
            solved = int(m.group(1))
        elif ln in ("Easy", "Medium", "Hard"):
            difficulty = ln
        else:
            rest.append(ln)
    if rest:
        topics = tuple(t.strip() for t in rest[0].split(",") if t.strip())
    del kind
    return Tags(difficulty, rating, topics, acceptance, solved)


# ---------------------------------------------------------------- signatures


def _signature(items: SourceItems, f: FnItem) -> RustSignature:
    params = []
    for p in f.params:
        try:
            params.append(RustParam(p.name, p.type_text, parse_rust_type(p.type_text)))
        except TypeParseError as exc:
            raise ProblemError(f"fn {f.name}: parameter {p.name}: {exc}") from None
    ret_text = f.ret_type or "()"
    try:
        ret = parse_rust_type(ret_text)
    except TypeParseError as exc:
        raise ProblemError(f"fn {f.name}: return type: {exc}") from None
    del items
    return RustSignature(f.name, f.owner, tuple(params), f.receiver, f.ret_name, ret_text, ret)


def target_fn(items: SourceItems) -> FnItem | None:
    """The last exec fn with ``ensures`` or ``returns`` (Post2Exe's rule)."""
    cands = [f for f in items.fns if f.mode == "exec" and (f.clause("ensures") or f.clause("returns"))]
    return cands[-1] if cands else None


def _scan(text: str, what: str) -> SourceItems:
    try:
        return scan_items(text)
    except (ScanError, LexError) as exc:
        raise ProblemError(f"{what}: {exc}") from None


# ---------------------------------------------------------------- examples

_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")


def snake_case(name: str) -> str:
    return _CAMEL.sub(r"_\1", name).lower()


_INPUT_RE = re.compile(r"^\s*(?:>\s*)?(?:[-*]\s+)?(\*\*)?Input(?::\*\*|\*\*:|:)\s*(.*)$")
_OUTPUT_RE = re.compile(r"^\s*(?:>\s*)?(?:[-*]\s+)?(\*\*)?Output(?::\*\*|\*\*:|:)\s*(.*)$")
_NAME_EQ = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*")
_JSON = json.JSONDecoder()


def _clean_value(text: str) -> str:
    """Drop Markdown decoration around example values: quote marks, code ticks, bold, escapes."""
    text = text.strip()
    if text.startswith(">"):
        text = text[1:].strip()
    text = text.replace("`", "").replace("**", "").replace("\\[", "[").replace("\\]", "]")
    text = text.strip()
    if text.endswith("\\"):  # Markdown hard line break
        text = text[:-1].rstrip()
    return text


def parse_assignments(text: str) -> list[tuple[str, Any]]:
    """Parse ``a = 1, b = [2,3], s = "x"`` into (name, JSON value) pairs; ValueError if it does not parse."""
    text = _clean_value(text)
    out: list[tuple[str, Any]] = []
    pos = 0
    while True:
        m = _NAME_EQ.match(text, pos)
        if not m:
            raise ValueError(f"expected `name = value` at {text[pos : pos + 30]!r}")
        pos = m.end()
        try:
            val, pos = _JSON.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise ValueError(f"value of {m.group(1)} is not JSON: {exc.msg}") from None
        out.append((m.group(1), val))
        while pos < len(text) and text[pos] in " \t`":
            pos += 1
        if pos >= len(text):
            return out
        if text[pos] != ",":
            raise ValueError(f"unexpected {text[pos : pos + 20]!r} after value of {m.group(1)}")
        pos += 1


def parse_json_value(text: str) -> Any:
    text = _clean_value(text)
    val, pos = _JSON.raw_decode(text)
    if text[pos:].strip().strip("`").strip():
        raise ValueError(f"trailing text after output value: {text[pos : pos + 30]!r}")
    return val


def _iter_lc_raw(description: str) -> Iterator[tuple[str, str, bool]]:
    lines = description.splitlines()
    i = 0
    while i < len(lines):
        m = _INPUT_RE.match(lines[i])
        if not m:
            i += 1
            continue
        bold = m.group(1) is not None
        inp = m.group(2).strip()
        j = i + 1
        # continuation lines until Output
        while j < len(lines) and not _OUTPUT_RE.match(lines[j]) and not lines[j].lstrip().startswith("#"):
            extra = lines[j].strip().lstrip(">").strip()
            if extra and not extra.startswith("```") and not _INPUT_RE.match(lines[j]):
                if extra.startswith("**Explanation") or extra.startswith("Explanation"):
                    break
                inp += " " + extra
            elif _INPUT_RE.match(lines[j]):
                break
            j += 1
        if j < len(lines) and (mo := _OUTPUT_RE.match(lines[j])):
            yield inp, mo.group(2).strip(), bold
            i = j + 1
        else:
            i = j


def parse_lc_examples(
    description: str, ref: RustSignature, structs: dict[str, list[tuple[str, Type]]]
) -> list[Example]:
    """Examples of a LeetCode description, bound to the reference signature's parameter names."""
    out: list[Example] = []
    for inp, outp, bold in _iter_lc_raw(description):
        design = _design_calls(inp, outp, ref)
        if design is not None:
            for call_in, call_out in design:
                out.append(Example(len(out), inp, outp, canonical=False, inputs=call_in, output=call_out))
            continue
        ex = Example(len(out), inp, outp, canonical=bold)
        try:
            pairs = parse_assignments(inp)
            ex.output = parse_json_value(outp)
            ex.inputs = _bind(pairs, ref, structs)
        except ValueError as exc:
            ex.error = str(exc)
            ex.inputs = None
        out.append(ex)
    return out


def _design_calls(inp: str, outp: str, ref: RustSignature) -> list[tuple[dict[str, Any], Any]] | None:
    """A design-problem example (``["Cls", "method", …] with [[ctor args], [args], …]``), one case per
    call of the target method; None when ``inp`` is not in that form."""
    m = re.match(r"\s*(\[.*?\])\s*with\s*(\[.*\])\s*$", _clean_value(inp))
    if not m or not ref.receiver:
        return None
    try:
        ops, args, outs = json.loads(m.group(1)), json.loads(m.group(2)), parse_json_value(outp)
    except ValueError:
        return None
    if not (isinstance(ops, list) and isinstance(args, list) and isinstance(outs, list)) or not (
        len(ops) == len(args) == len(outs)
    ):
        return None
    names = [p.name for p in ref.params]
    method = snake_case(ref.name)
    calls: list[tuple[dict[str, Any], Any]] = []
    ctor_args = args[0]
    for op, a, o in zip(ops[1:], args[1:], outs[1:]):
        if not isinstance(op, str) or snake_case(op) != method:
            continue
        vals = list(ctor_args) + list(a)
        if len(vals) != len(names):
            return None
        calls.append((dict(zip(names, vals)), o))
    return calls


def _bind(
    pairs: list[tuple[str, Any]], ref: RustSignature, structs: dict[str, list[tuple[str, Type]]]
) -> dict[str, Any]:
    names = [p.name for p in ref.params]
    given = [snake_case(n) for n, _ in pairs]
    if sorted(given) == sorted(names):
        bound = dict(zip(given, (v for _, v in pairs)))
    elif len(pairs) == len(names):
        bound = dict(zip(names, (v for _, v in pairs)))  # names differ: bind by position
    else:
        raise ValueError(f"example names {given} do not match parameters {names}")
    # a struct parameter given as its only field's value (lc1095 ``mountainArr = [..]``)
    for p in ref.params:
        vt = p.value_type
        sname = getattr(vt, "name", None)
        if sname in structs and len(structs[sname]) == 1 and not isinstance(bound[p.name], dict):
            bound[p.name] = {structs[sname][0][0]: bound[p.name]}
    return {n: bound[n] for n in names}


_FENCE = re.compile(r"^\s*```")


def parse_cf_examples(description: str) -> list[Example]:
    """Examples of a Codeforces description: fenced (or plain) ``Input``/``Output`` blocks."""
    lines = description.splitlines()
    out: list[Example] = []
    i = 0
    stop = next(
        (k for k, ln in enumerate(lines) if ln.strip().lower().startswith("## starter code")), len(lines)
    )

    def block(j: int) -> tuple[str, int, bool]:
        """Read the text block starting at or after line j; returns (text, next line, fenced)."""
        while j < stop and not lines[j].strip():
            j += 1
        if j < stop and _FENCE.match(lines[j]):
            k = j + 1
            body: list[str] = []
            while k < stop and not _FENCE.match(lines[k]):
                body.append(lines[k])
                k += 1
            return "\n".join(body) + "\n", k + 1, True
        body = []
        while j < stop and lines[j].strip() and not re.match(r"^\s*(\*\*)?(Input|Output)\b", lines[j]):
            body.append(lines[j])
            j += 1
        # plain blocks may contain blank lines only between Input and Output headers
        return "\n".join(body) + "\n", j, False

    while i < stop:
        m = re.match(r"^\s*(\*\*)?Input(:\*\*|\*\*:?|:)\s*$", lines[i])
        if not m:
            i += 1
            continue
        canonical = m.group(1) is not None and m.group(2) == ":**"
        text_in, j, fenced_in = block(i + 1)
        inline = _cf_inline_output(lines, j, stop) if fenced_in else None
        if inline is not None:  # only after a fenced input: a prose "Output: print …" is no example
            out.append(Example(len(out), text_in, inline[0], canonical=False))
            i = inline[1]
            continue
        while j < stop and not re.match(r"^\s*(\*\*)?Output(:\*\*|\*\*:?|:)\s*$", lines[j]):
            if re.match(r"^\s*(\*\*)?Input\b", lines[j]):
                break
            j += 1
        if j >= stop or not re.match(r"^\s*(\*\*)?Output", lines[j]):
            i = j
            continue
        text_out, j2, fenced_out = block(j + 1)
        out.append(Example(len(out), text_in, text_out, canonical=canonical and fenced_in and fenced_out))
        i = j2
    return out


# ``**Output:** 2``: the stated output on the header's own line (cf231A)
_INLINE_OUTPUT = re.compile(r"^\s*\*\*Output(?::\*\*|\*\*:)[ \t]*(\S.*?)\s*$")


def _cf_inline_output(lines: list[str], j: int, stop: int) -> tuple[str, int] | None:
    """(stdout, next line) when line ``j`` (or the first non-blank line after it) is a bold ``Output``
    header with the output written after it on the same line, else None. The value is the rest of
    the line, one pair of enclosing backticks removed; what follows on later lines is prose."""
    while j < stop and not lines[j].strip():
        j += 1
    m = _INLINE_OUTPUT.match(lines[j]) if j < stop else None
    if m is None:
        return None
    value = m.group(1)
    if len(value) >= 2 and value[0] == value[-1] == "`":
        value = value[1:-1].strip()
    return value + "\n", j + 1


def _starter(description: str) -> str | None:
    m = re.search(r"##\s*Starter Code\s*\n+```rust\n(.*?)```", description, re.S)
    return m.group(1) if m else None


# ---------------------------------------------------------------- problems


def problem_sort_key(pid: str) -> tuple[str, int, str]:
    m = re.match(r"([a-z]+)(\d+)(.*)", pid)
    if not m:
        return (pid, -1, "")
    return (m.group(1), int(m.group(2)), m.group(3))


def _structs(items: SourceItems) -> dict[str, list[tuple[str, Type]]]:
    out: dict[str, list[tuple[str, Type]]] = {}
    for s in items.structs:
        if s.kind != "struct" or s.name == "Solution":
            continue
        try:
            out[s.name] = [(f, parse_rust_type(t)) for f, t in s.fields]
        except TypeParseError:
            continue
    return out


def _read_text(f: Path, problem: str) -> str:
    try:
        return f.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ProblemError(
            f"{problem}: {f.name} is not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None
    except OSError as exc:
        raise ProblemError(f"{problem}: {f.name} is unreadable ({exc.strerror or exc})") from None


def read_problem(path: Path | str) -> Problem:
    path = Path(path)
    kind = "codeforces" if path.name.startswith("cf") or path.parent.name == "codeforces" else "leetcode"
    texts, main, warnings = locate_files(path, kind)

    spec_items = _scan(texts["spec.rs"], f"{path.name}/spec.rs")
    tgt = target_fn(spec_items)
    if tgt is None:
        raise ProblemError(f"{path.name}: spec.rs has no exec fn with ensures/returns")
    sig = _signature(spec_items, tgt)

    ref_text = main if main is not None else texts["code.rs"]
    ref_items = _scan(ref_text, f"{path.name}/{'main.rs' if main is not None else 'code.rs'}")
    ref_fn = ref_items.fn(sig.name, sig.owner) or ref_items.fn(sig.name)
    if ref_fn is None:
        raise ProblemError(f"{path.name}: reference code has no fn {sig.name}")
    ref_sig = _signature(ref_items, ref_fn)
    structs = _structs(ref_items)
    constructor = None
    if ref_sig.receiver and ref_sig.owner:
        ctor = ref_items.fn("new", ref_sig.owner)
        if ctor is not None:
            constructor = _signature(ref_items, ctor)

    desc = texts["description.md"]
    title_m = re.match(r"#\s*(.+)", desc)
    if kind == "codeforces":
        examples = parse_cf_examples(desc)
        for ex in examples:
            ex.error = lost_line_breaks(desc, ex.stdin)
    else:
        examples = parse_lc_examples(desc, combined_signature(ref_sig, constructor), structs)
    return Problem(
        id=path.name,
        kind=kind,
        path=path,
        description=desc,
        tags=parse_tags(texts["tags"], kind),
        code=texts["code.rs"],
        spec=texts["spec.rs"],
        code_spec=texts["code_spec.rs"],
        verified=texts["verified.rs"],
        main=main,
        signature=sig,
        ref_signature=ref_sig,
        examples=examples,
        starter_code=_starter(desc),
        title=title_m.group(1).strip() if title_m else "",
        structs=structs,
        constructor=constructor,
        warnings=warnings,
    )


def _ignored(root: Path) -> set[str]:
    f = root / ".benchmark-ignore"
    if not f.is_file():
        return set()
    return {ln.strip() for ln in f.read_text().splitlines() if ln.strip() and not ln.startswith("#")}


def is_vericontest_root(path: Path) -> bool:
    """A benchmark root (with leetcode/ or codeforces/), a family directory, or one problem directory."""
    path = Path(path)
    if (path / "spec.rs").is_file() and (path / "code.rs").is_file():
        return True
    if any((path / sub).is_dir() for sub in ("leetcode", "codeforces")):
        return True
    try:
        return any(
            (d / "spec.rs").is_file() and (d / "code.rs").is_file() for d in path.iterdir() if d.is_dir()
        )
    except OSError:
        return False


def discover_problems(root: Path | str) -> list[Path]:
    """Problem directories under ``root`` (a root, family directory or single problem), in id order."""
    root = Path(root)
    if (root / "spec.rs").is_file():
        return [root]
    families = [root / s for s in ("leetcode", "codeforces") if (root / s).is_dir()] or [root]
    out: list[Path] = []
    for fam in families:
        ignore = _ignored(fam)
        for d in fam.iterdir():
            if (
                d.is_dir()
                and d.name not in ignore
                and (d / "spec.rs").is_file()
                and (d / "code.rs").is_file()
            ):
                out.append(d)
    fam_rank = {"leetcode": 0, "codeforces": 1}
    return sorted(out, key=lambda d: (fam_rank.get(d.parent.name, 2), problem_sort_key(d.name)))


def read_problems(root: Path | str, only: list[str] | None = None) -> list[Problem]:
    dirs = discover_problems(root)
    if only:
        wanted = set(only)
        dirs = [d for d in dirs if d.name in wanted]
    return [read_problem(d) for d in dirs]
