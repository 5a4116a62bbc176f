"""Work budgets for mutant runs: a count of loop iterations and calls instead of a clock.

``insert_ticks(source)`` puts a tick ``__vs_t();`` first in every function body
(``fn main`` and ``const fn`` excluded) and every ``while``/``for``/``loop``
body, on the same lines (so mutant line numbers do not move); the tick is not a
mutation site. ``ticked_harness(harness_source)`` makes a JSON-lines harness
read one more argument per case, the case's tick budget, and print
``[<result>, <ticks used>]``; a case that exceeds its budget panics with
``WORK_BUDGET`` — a kill, like a timeout, but decided by a count, so the same on
any machine — and the process answers every later case with ``SKIPPED`` (not
run: one overrun already decides the mutant, and each further one would cost a
whole budget; the clock's ``stop_after_timeout`` does the same). Running the schema with no mutant selected (the original program)
and an unlimited budget gives the reference's ticks per case; a mutant's budget
for a case is ``max(TICK_FLOOR, TICK_FACTOR × reference ticks)``.
"""

from __future__ import annotations

import re

from .mutants import _fn_bodies, _Scanner

__all__ = [
    "SKIPPED",
    "TICK_FACTOR",
    "TICK_FLOOR",
    "UNLIMITED",
    "WORK_BUDGET",
    "insert_ticks",
    "ticked_harness",
]

TICK_FACTOR = 20  # a mutant may do this many times the reference's work on a case…
TICK_FLOOR = 100_000  # …and at least this much
UNLIMITED = 2**63 - 1
WORK_BUDGET = "work budget exceeded"
SKIPPED = "not run after a work-budget overrun"
_RUN = re.compile(r"__vs::run_lines\(__vs_call, (\d+)\)")


def insert_ticks(source: str) -> str:
    """``source`` with a tick first in every function and loop body (module docstring)."""
    sc = _Scanner(source)
    toks = sc.toks
    at: list[int] = []  # offsets right after a body's `{`
    inside = [False] * len(toks)
    for fi, lb, rb, _ in _fn_bodies(sc):
        if toks[fi + 1].text == "main" or any(toks[k].is_("const") for k in range(max(0, fi - 3), fi)):
            continue
        at.append(toks[lb].end)
        for k in range(lb + 1, rb):
            inside[k] = True
    for i, t in enumerate(toks):
        if not inside[i] or t.kind != "ident" or t.text not in ("while", "for", "loop"):
            continue
        j = i + 1
        while j < len(toks):
            x = toks[j]
            if x.kind == "punct" and x.text in "([" and j in sc.match:
                j = sc.match[j] + 1
                continue
            if x.is_("{") or (x.kind == "punct" and x.text in (";", "}", "=>", ")")):
                break
            j += 1
        if j < len(toks) and toks[j].is_("{") and j in sc.match and (t.text == "loop" or j > i + 1):
            if t.text == "loop" and j != i + 1:
                continue
            at.append(toks[j].end)
    out: list[str] = []
    pos = 0
    for off in sorted(set(at)):
        out.append(source[pos:off])
        out.append(" __vs_t();")
        pos = off
    out.append(source[pos:])
    return "".join(out)


def ticked_harness(harness_source: str) -> str:
    """The harness reading a tick budget after the arguments and printing ``[<result>, <ticks>]``."""
    m = _RUN.search(harness_source)
    if m is None:
        raise ValueError("not a JSON-lines harness (no run_lines call)")
    n = int(m.group(1))
    support = (
        "use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as __VsTOrd};\n"
        "static __VS_TICKS: AtomicU64 = AtomicU64::new(0);\n"
        f"static __VS_BUDGET: AtomicU64 = AtomicU64::new({UNLIMITED});\n"
        "static __VS_OVER: AtomicBool = AtomicBool::new(false);\n"
        # plain loads and stores (one case runs at a time): no read-modify-write in hot loops
        "#[inline(always)]\nfn __vs_t() {\n"
        "    let n = __VS_TICKS.load(__VsTOrd::Relaxed) + 1;\n"
        "    __VS_TICKS.store(n, __VsTOrd::Relaxed);\n"
        f'    if n > __VS_BUDGET.load(__VsTOrd::Relaxed) {{ __VS_OVER.store(true, __VsTOrd::Relaxed); panic!("{WORK_BUDGET}"); }}\n'
        "}\n"
        "fn __vs_ticked_call(args: &[__vs::J]) -> Result<String, String> {\n"
        f'    if __VS_OVER.load(__VsTOrd::Relaxed) {{ return Err("{SKIPPED}".to_string()); }}\n'
        f'    let b: u64 = __vs::arg(args, {n}, "tick budget")?;\n'
        "    __VS_BUDGET.store(b, __VsTOrd::Relaxed);\n"
        "    __VS_TICKS.store(0, __VsTOrd::Relaxed);\n"
        f"    let r = __vs_call(&args[..{n}])?;\n"
        '    Ok(format!("[{},{}]", r, __VS_TICKS.load(__VsTOrd::Relaxed)))\n'
        "}\n"
    )
    head = (
        harness_source[: m.start()]
        + f"__vs::run_lines(__vs_ticked_call, {n + 1})"
        + harness_source[m.end() :]
    )
    return head + "\n" + support
