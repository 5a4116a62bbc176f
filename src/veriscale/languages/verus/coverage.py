"""Branch coverage of Rust reference code: which branch outcomes each test input executes.

``instrument(source)`` inserts a *probe* ``__vs_p(K);`` at every branch outcome
of the code's function bodies (``fn main`` and ``const fn`` excluded, as are
macro arguments other than ``vec!``), on veriscale's Rust lexer (the scanner
of the mutant schemata):

* ``fn``   — a function body is entered;
* ``then`` / ``else`` — the arms of ``if`` (and ``if let``); an ``if`` without
  ``else`` gets an implicit ``else { __vs_p(K); }`` (both arms are ``()``);
  an ``else if`` has no probe of its own: its ``if``'s probes cover that outcome;
* ``arm``  — each ``match`` arm (a block arm gets the probe first in its block,
  an expression arm is wrapped ``{ __vs_p(K); expr }``);
* ``loop`` / ``skip`` — a ``while``/``for`` body entered at least once, or the
  loop statement reached and its body run zero times (the loop is wrapped in a
  block holding a flag).

Early returns are covered by the branch that contains them; ``&&``/``||``
short-circuits and ``?`` are not probed (documented limits). Every edit is an
*insertion* at a token boundary, so nested constructs compose: insertions at
one offset are ordered closers first (innermost first), then openers
(outermost first). Probe ids are assigned in source order.

``coverage_harness(harness_source, n)`` turns a JSON-lines harness around the
instrumented code into one whose result per case is ``[<result>, [<probe ids
hit>]]``: a static bitmap is cleared before each case and read after it (cases
run one at a time). One compile per problem serves every case, so coverage
costs one extra harness run over the positives. (``rustc -C
instrument-coverage`` would need one profile file and one ``llvm-profdata``
call per case, and reports regions, not branch outcomes.)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .compile import compile_program
from .execute import ExecLimits, run_json_lines
from .harness import strip_main
from .lexer import Tok
from .mutants import _fn_bodies, _Scanner
from .reference import ProblemRunner

__all__ = ["BranchRun", "Instrumented", "Probe", "coverage_harness", "instrument", "measure_branches"]

RUN_CALL = "__vs::run_lines(__vs_call,"


@dataclass(frozen=True)
class Probe:
    id: int  # bit index, 0-based, in source order
    kind: str  # fn | then | else | arm | loop | skip
    line: int

    @property
    def label(self) -> str:
        return f"{self.kind}@{self.line}"


@dataclass
class Instrumented:
    source: str
    probes: list[Probe]


@dataclass
class _Ins:
    offset: int
    closer: bool  # closers come before openers at one offset
    span: int  # closers: start of their region (later first); openers: end of their region (later first)
    order: int  # creation order (stable tie-break)
    text: str
    probe: tuple[str, int] | None = None  # (kind, line) of the probe this insertion introduces


def instrument(source: str) -> Instrumented:
    """``source`` with a probe at every branch outcome (module docstring); raises ``LexError``/
    ``ValueError`` on source the scanner cannot follow."""
    sc = _Scanner(source)
    toks = sc.toks
    n = len(toks)
    inside = [False] * n
    bodies = []
    for fi, lb, rb, _ in _fn_bodies(sc):
        if toks[fi + 1].text == "main" or any(toks[k].is_("const") for k in range(max(0, fi - 3), fi)):
            continue
        bodies.append((fi, lb, rb))
        for k in range(lb + 1, rb):
            inside[k] = True
    macro = [False] * n  # inside a macro call other than vec!
    for i, t in enumerate(toks):
        if t.is_("!") and i > 0 and toks[i - 1].kind == "ident" and i + 1 < n and toks[i - 1].text != "vec":
            o = i + 1
            if o in sc.match and toks[o].text in "([{":
                for k in range(o, sc.match[o] + 1):
                    macro[k] = True
    ins: list[_Ins] = []

    def add(offset: int, closer: bool, span: int, text: str, probe: tuple[str, int] | None = None) -> None:
        ins.append(_Ins(offset, closer, span, len(ins), text, probe))

    def probe_after(tok: Tok, kind: str, line: int) -> None:  # first thing in the block opened by ``tok``
        add(tok.end, False, tok.end, " __vs_p(#);", (kind, line))

    def ok(i: int) -> bool:
        return inside[i] and not macro[i]

    def block_after(i: int) -> int | None:
        """The ``{`` ending the head of the construct at token ``i`` (None: not a plain block head)."""
        j = i + 1
        while j < n:
            t = toks[j]
            if t.kind == "punct" and t.text in "([" and j in sc.match:
                j = sc.match[j] + 1
                continue
            if t.is_("{"):
                if toks[j - 1].kind == "ident" and toks[j - 1].text[:1].isupper():
                    return None  # a struct pattern (`if let P { .. } = x`): not followed
                return j if j > i + 1 and j in sc.match else None
            if t.kind == "punct" and t.text in (";", "}", "=>"):
                return None  # a match guard, or not a construct we follow
            j += 1
        return None

    for fi, lb, _rb in bodies:
        probe_after(toks[lb], "fn", toks[fi].line)
    for i, t in enumerate(toks):
        if not ok(i) or t.kind != "ident":
            continue
        if t.text == "if":
            lb = block_after(i)
            if lb is None:
                continue
            rb = sc.match[lb]
            probe_after(toks[lb], "then", t.line)
            if rb + 1 < n and toks[rb + 1].is_("else"):
                if rb + 2 < n and toks[rb + 2].is_("{"):
                    probe_after(toks[rb + 2], "else", toks[rb + 1].line)
                # `else if`: that `if`'s own probes cover the outcome
            else:
                add(toks[rb].end, True, toks[i].start, " else { __vs_p(#); }", ("else", t.line))
        elif t.text in ("while", "for"):
            lb = block_after(i)
            if lb is None:
                continue
            rb = sc.match[lb]
            start = i
            if i >= 2 and toks[i - 1].is_(":") and toks[i - 2].kind == "lifetime":
                start = i - 2  # the label moves into the wrapping block with its loop
            flag = f"__vs_z{len(ins)}"
            add(toks[start].start, False, toks[rb].end, f"{{ let mut {flag} = true; ")
            add(toks[lb].end, False, toks[lb].end, f" {flag} = false; __vs_p(#);", ("loop", t.line))
            add(toks[rb].end, True, toks[start].start, f" if {flag} {{ __vs_p(#); }} }}", ("skip", t.line))
        elif t.text == "match":
            lb = block_after(i)
            if lb is None:
                continue
            _arms(toks, sc.match, lb, sc.match[lb], add, probe_after)
    return _apply(source, ins)


def _arms(toks: list[Tok], match: dict[int, int], lb: int, rb: int, add, probe_after) -> None:  # type: ignore[no-untyped-def]
    """Probes on every arm of the ``match`` body ``toks[lb..rb]``."""
    k = lb + 1
    while k < rb:
        a = k
        while a < rb and not toks[a].is_("=>"):  # the pattern (and guard)
            a = match[a] + 1 if toks[a].kind == "punct" and toks[a].text in "([{" and a in match else a + 1
        if a >= rb:
            return
        e = a + 1
        if e >= rb:
            return
        if toks[e].is_("{") and e in match:  # a block arm ends at its block (the comma is optional)
            probe_after(toks[e], "arm", toks[a].line)
            k = match[e] + 1
            if k < rb and toks[k].is_(","):
                k += 1
            continue
        blk = _block_like_end(toks, match, e, rb)
        if blk is not None:  # `if`/`match`/loops as the arm: they end the arm too
            end = blk + 1
        else:
            end = e
            while end < rb and not toks[end].is_(","):
                t = toks[end]
                end = match[end] + 1 if t.kind == "punct" and t.text in "([{" and end in match else end + 1
        last = end - 1
        if last < e:
            return
        add(toks[e].start, False, toks[last].end, "{ __vs_p(#); ", ("arm", toks[a].line))
        add(toks[last].end, True, toks[e].start, " }")
        k = end + 1 if end < rb and toks[end].is_(",") else end


def _head_block(toks: list[Tok], match: dict[int, int], i: int, rb: int) -> int | None:
    """The ``{`` after the head starting at token ``i`` (brackets skipped), before ``rb``."""
    j = i
    while j < rb:
        t = toks[j]
        if t.is_("{"):
            return j if j in match else None
        if t.kind == "punct" and t.text in "([" and j in match:
            j = match[j] + 1
            continue
        if t.kind == "punct" and t.text in (";", ",", "}", "=>"):
            return None
        j += 1
    return None


def _block_like_end(toks: list[Tok], match: dict[int, int], e: int, rb: int) -> int | None:
    """Last token of a block-like expression (``if``/``match``/``while``/``for``/``loop``/``unsafe``)
    starting at ``e`` when nothing but a comma or the next arm follows it; None otherwise."""
    t = toks[e]
    if t.kind != "ident" or t.text not in ("if", "match", "while", "for", "loop", "unsafe"):
        return None
    lb = _head_block(toks, match, e + 1, rb)
    if lb is None:
        return None
    end = match[lb]
    while t.text == "if" and end + 1 < rb and toks[end + 1].is_("else"):
        nxt = toks[end + 2] if end + 2 < rb else None
        if nxt is None:
            return None
        lb = end + 2 if nxt.is_("{") else _head_block(toks, match, end + 3, rb) if nxt.is_("if") else None
        if lb is None or lb not in match:
            return None
        end = match[lb]
    after = toks[end + 1] if end + 1 <= rb else None
    if after is not None and after.kind == "punct" and after.text not in (",", "}") and end + 1 != rb:
        if after.text in (".", "?") or after.text in (
            "+",
            "-",
            "*",
            "/",
            "%",
            "==",
            "!=",
            "<",
            ">",
            "&&",
            "||",
        ):
            return None  # the block-like expression continues (`if .. {} else {}.len()`): scan to the comma
    return end


def _apply(source: str, ins: list[_Ins]) -> Instrumented:
    """Apply insertions; probe ids in source order of their insertion point (ties: application order)."""
    ordered = sorted(ins, key=lambda x: (x.offset, not x.closer, -x.span, x.order))
    probes: list[Probe] = []
    out: list[str] = []
    pos = 0
    for x in ordered:
        out.append(source[pos : x.offset])
        pos = x.offset
        text = x.text
        if x.probe is not None:
            pid = len(probes)
            probes.append(Probe(pid, x.probe[0], x.probe[1]))
            text = text.replace("__vs_p(#)", f"__vs_p({pid})")
        out.append(text)
    out.append(source[pos:])
    return Instrumented("".join(out), probes)


def coverage_harness(harness_source: str, probes: int) -> str:
    """A harness printing ``[<result>, [<probe ids hit>]]`` per case (module docstring)."""
    if RUN_CALL not in harness_source:
        raise ValueError("not a JSON-lines harness (no run_lines call)")
    n = max(1, probes)
    support = (
        "use std::sync::atomic::{AtomicBool, Ordering as __VsOrd};\n"
        "#[allow(clippy::declare_interior_mutable_const)]\n"
        "const __VS_OFF: AtomicBool = AtomicBool::new(false);\n"
        f"static __VS_COV: [AtomicBool; {n}] = [__VS_OFF; {n}];\n"
        "#[inline(always)]\nfn __vs_p(k: usize) { __VS_COV[k].store(true, __VsOrd::Relaxed); }\n"
        "fn __vs_cov_call(args: &[__vs::J]) -> Result<String, String> {\n"
        "    for b in __VS_COV.iter() { b.store(false, __VsOrd::Relaxed); }\n"
        "    let r = __vs_call(args)?;\n"
        "    let mut o = String::with_capacity(r.len() + 16);\n"
        "    o.push('['); o.push_str(&r); o.push_str(\",[\");\n"
        "    let mut first = true;\n"
        "    for (k, b) in __VS_COV.iter().enumerate() {\n"
        "        if b.load(__VsOrd::Relaxed) { if !first { o.push(','); } first = false; o.push_str(&k.to_string()); }\n"
        "    }\n"
        '    o.push_str("]]");\n'
        "    Ok(o)\n"
        "}\n"
    )
    return harness_source.replace(RUN_CALL, "__vs::run_lines(__vs_cov_call,", 1) + "\n" + support


@dataclass
class BranchRun:
    """Probes of a problem's reference and, per input, the probe ids it executed (None: not measured)."""

    probes: list[Probe]
    hits: list[list[int] | None]
    error: str = ""
    mismatched: int = 0  # cases whose instrumented result differs from the expected output (not measured)


def measure_branches(problem: Any, rows: Sequence[Mapping[str, Any]], expected: Sequence[Any] | None = None,
                     *, cache: Path | str | None = None, limits: ExecLimits | None = None) -> BranchRun:  # fmt: skip
    """Run the instrumented reference on ``rows`` (JSON inputs keyed by parameter name) in one harness
    process. ``expected``: the reference's outputs (harness JSON); a case whose instrumented result
    differs is not measured (counted in ``mismatched``): the probes must not change what the code does."""
    src = problem.reference_source
    try:
        ins = instrument(strip_main(src) if (problem.is_codeforces or "fn main" in src) else src)
        runner = ProblemRunner(problem, code=ins.source, cache=cache, limits=limits)
        harness = coverage_harness(runner.harness_source(), len(ins.probes))
    except Exception as exc:  # source our scanner cannot follow, or a signature the harness refuses
        return BranchRun([], [None] * len(rows), f"instrument: {type(exc).__name__}: {exc}")
    if runner.violations():
        return BranchRun([], [None] * len(rows), "the reference has forbidden constructs")
    comp = compile_program(harness, cache=cache)
    if not comp.ok or comp.binary is None:
        first = (comp.errors.strip().splitlines() or [""])[0][:200]
        return BranchRun(ins.probes, [None] * len(rows), f"instrumented harness does not compile: {first}")
    got = run_json_lines(comp.binary, [runner.encode_inputs(r) for r in rows], runner.limits)
    hits: list[list[int] | None] = []
    bad = 0
    for k, r in enumerate(got):
        ok = r.ok and isinstance(r.value, list) and len(r.value) == 2 and isinstance(r.value[1], list)
        if ok and expected is not None and _canon(_result_part(problem, r.value[0])) != _canon(expected[k]):
            ok = False
            bad += 1
        hits.append(sorted(int(x) for x in r.value[1]) if ok else None)
    return BranchRun(ins.probes, hits, "", bad)


def _result_part(problem: Any, v: Any) -> Any:
    """The output part of a harness result (``&self`` targets print ``[self, result]``)."""
    if problem.ref_signature.receiver and isinstance(v, list) and len(v) == 2:
        return v[1]
    return v


def _canon(v: Any) -> str:
    return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
