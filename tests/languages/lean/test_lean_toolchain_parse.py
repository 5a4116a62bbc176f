"""Parsing Lean's output: hand-written transcripts in the documented formats.

Lean prints errors and warnings as ``FILE:LINE:COL: error: …`` followed by
unprefixed continuation lines; info messages (``#print``, ``#eval`` values,
Plausible's reports) carry an ``info:`` prefix in some versions and none in
others, so every transcript below is checked in both forms where it matters.
The message texts are those of the Verina harness reference (``did not
evaluate to `true```, ``Found a counter-example!``, ``Unable to find a
counter-example``, ``Gave up after failing to generate values that fulfill
the preconditions N times.``, ``no goals to be solved``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from veriscale.languages.lean.toolchain.parse import (
    classify_guard,
    classify_plausible,
    missing_name_error,
    parse_output,
    read_value,
)
from veriscale.languages.lean.toolchain.render import LeanFile, TaskSource, render_check_file
from veriscale.values.runtime import HMap, Some, Struct
from veriscale.values.structs import parse_structures
from veriscale.values.types import parse_type

PATH = "/tmp/veriscale-lean/vs_0123456789abcdef0123.lean"
MAP_DECL = "structure Map (K V : Type) where\n  entries : List (K × V)\n"


def make_src(
    ret: str, params: Sequence[tuple[str, str]] = (("xs", "List Nat"),), aux: str = ""
) -> TaskSource:
    structs = parse_structures(aux)
    from veriscale.values.structs import struct_arities

    ar = struct_arities(structs)
    return TaskSource(
        task_id="t",
        fn_name="f",
        params=tuple((n, t, parse_type(t, structs=ar)) for n, t in params),
        return_type_str=ret,
        return_type=parse_type(ret, structs=ar),
        imports=(),
        sections={"task_aux": aux, "precond": "True", "code": "xs", "postcond": "True"},
        structs=structs,
    )


def lean_file(src: TaskSource, n: int, kind: str = "run") -> LeanFile:
    return render_check_file(src, kind, [f"#eval! f (case {i}) (by sorry)" for i in range(n)])


class Transcript:
    """Builds Lean output for ``f``; ``prefixed`` chooses the info-message format."""

    def __init__(self, f: LeanFile, prefixed: bool) -> None:
        self.f = f
        self.prefixed = prefixed
        self.lines: list[str] = []

    def cmd_line(self, case: int) -> int:
        return self.f.case_lines[case][0] + 1  # the command right after the begin marker

    def info(self, text: str, line: int, col: int = 0) -> Transcript:
        first, *rest = text.split("\n")
        self.lines.append(f"{PATH}:{line}:{col}: info: {first}" if self.prefixed else first)
        self.lines.extend(rest)
        return self

    def marker(self, case: int, edge: str) -> Transcript:
        lo, hi = self.f.case_lines[case]
        return self.info(f"<<vs:{self.f.nonce}:{case}:{edge}>>", lo if edge == "begin" else hi)

    def msg(self, sev: str, text: str, line: int, col: int = 0) -> Transcript:
        first, *rest = text.split("\n")
        self.lines.append(f"{PATH}:{line}:{col}: {sev}: {first}")
        self.lines.extend(rest)
        return self

    def raw(self, text: str) -> Transcript:
        self.lines.extend(text.split("\n"))
        return self

    def case(self, i: int, *, value: str | None = None) -> Transcript:
        self.marker(i, "begin")
        if value is not None:
            self.info(value, self.cmd_line(i))
        return self.marker(i, "end")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


BOTH = pytest.mark.parametrize("prefixed", [False, True], ids=["plain-info", "prefixed-info"])


# ---------------------------------------------------------------- values


@BOTH
def test_multiline_values_are_read_completely(prefixed: bool) -> None:
    src = make_src("List Nat")
    f = lean_file(src, 3)
    long_value = "[" + ",\n  ".join(", ".join(str(10 * r + c) for c in range(10)) for r in range(6)) + "]"
    t = Transcript(f, prefixed).case(0, value="[1, 2, 3]").case(1, value=long_value).case(2, value="[]")
    parsed = parse_output(t.text(), f)
    values = [read_value(c, src.return_type) for c in parsed.cases]
    assert [v.ok for v in values] == [True, True, True]
    assert values[0].value == (1, 2, 3)
    assert values[1].value == tuple(range(60))  # every wrapped line, not just the last one
    assert values[2].value == ()


@BOTH
def test_warning_interleaved_before_a_value(prefixed: bool) -> None:
    src = make_src("List Nat")
    f = lean_file(src, 2)
    t = Transcript(f, prefixed)
    t.marker(0, "begin")
    t.msg(
        "warning",
        "unused variable `y`\nnote: this linter can be disabled with `set_option linter.unusedVariables false`",
        t.cmd_line(0),
        9,
    )
    t.info("[4,\n 5]", t.cmd_line(0))
    t.marker(0, "end")
    t.case(1, value="[6]")
    parsed = parse_output(t.text(), f)
    assert parsed.cases[0].messages[0].severity == "warning"
    assert read_value(parsed.cases[0], src.return_type).value == (4, 5)
    assert read_value(parsed.cases[1], src.return_type).value == (6,)


@BOTH
def test_special_floats_strings_options_structures(prefixed: bool) -> None:
    floats = make_src("List Float")
    f = lean_file(floats, 1)
    out = Transcript(f, prefixed).case(0, value="[NaN, inf, -inf, 2.500000, -0.000000]").text()
    v = read_value(parse_output(out, f).cases[0], floats.return_type).value
    assert math.isnan(v[0]) and v[1] == math.inf and v[2] == -math.inf and v[3] == 2.5 and v[4] == 0.0

    opt = make_src("Option (Int × Float)")
    f = lean_file(opt, 2)
    out = Transcript(f, prefixed).case(0, value="some (-3, -inf)").case(1, value="none").text()
    cases = parse_output(out, f).cases
    assert read_value(cases[0], opt.return_type).value == Some((-3, -math.inf))
    assert read_value(cases[1], opt.return_type).value is None

    s = make_src("String")
    f = lean_file(s, 1)
    out = Transcript(f, prefixed).case(0, value='"say \\"inf\\"\\n\\tNaN"').text()
    assert read_value(parse_output(out, f).cases[0], s.return_type).value == 'say "inf"\n\tNaN'

    m = make_src("Map Int Int", aux=MAP_DECL)
    f = lean_file(m, 1)
    out = Transcript(f, prefixed).case(0, value="{ entries := [(1, 10),\n    (2, -30)] }").text()
    got = read_value(parse_output(out, f).cases[0], m.return_type, m.structs).value
    assert got == Struct("Map", (("entries", ((1, 10), (2, -30))),))

    hm = make_src("Std.HashMap Nat Bool")
    f = lean_file(hm, 1)
    out = Transcript(f, prefixed).case(0, value="Std.HashMap.ofList [(1, true), (2, false)]").text()
    assert read_value(parse_output(out, f).cases[0], hm.return_type).value == HMap([(1, True), (2, False)])


def test_value_read_errors() -> None:
    src = make_src("List Nat")
    f = lean_file(src, 3)
    t = Transcript(f, True)
    t.marker(0, "begin").msg(
        "error", "could not synthesize a 'Repr' or 'ToString' instance for type\n  Foo", t.cmd_line(0)
    ).marker(0, "end")
    t.marker(1, "begin").msg("error", "maximum recursion depth has been reached", t.cmd_line(1)).marker(
        1, "end"
    )
    t.case(2, value="not a list")
    cases = parse_output(t.text(), f).cases
    r0, r1, r2 = (read_value(c, src.return_type) for c in cases)
    assert not r0.ok and r0.category == "output"
    assert not r1.ok and r1.category == "elab" and "maximum recursion" in r1.reason
    assert not r2.ok and r2.category == "output" and "could not read" in r2.reason


def test_panic_before_value_is_kept_apart() -> None:
    src = make_src("Nat")
    f = lean_file(src, 1)
    out = (
        Transcript(f, False)
        .marker(0, "begin")
        .raw("PANIC at List.head! Init.Data.List.BasicAux:31:12: head of empty list")
        .info("0", 0)
        .marker(0, "end")
        .text()
    )
    assert read_value(parse_output(out, f).cases[0], src.return_type).value == 0


def test_spoofed_marker_with_another_nonce_is_ignored() -> None:
    src = make_src("String")
    f = lean_file(src, 2)
    fake_end = "<<vs:000000000000:0:end>>"
    out = Transcript(f, False).marker(0, "begin").raw(fake_end).marker(0, "end").case(1, value='"ok"').text()
    parsed = parse_output(out, f)
    assert parsed.cases[0].complete and fake_end in parsed.cases[0].text()
    assert read_value(parsed.cases[1], src.return_type).value == "ok"


# ---------------------------------------------------------------- #guard decide


@BOTH
def test_guard_outcomes(prefixed: bool) -> None:
    src = make_src("Nat")
    f = render_check_file(src, "precond", [f"#guard decide (f_precond (c{i}))" for i in range(5)])
    t = Transcript(f, prefixed)
    t.case(0)  # silence: TRUE
    t.marker(1, "begin").msg(
        "error", "Expression\n  decide (f_precond [3, 1])\ndid not evaluate to `true`", t.cmd_line(1)
    ).marker(1, "end")
    t.marker(2, "begin").msg(
        "error",
        "failed to synthesize\n  Decidable (∀ (n : Nat), n < 3)\nAdditional diagnostic information may be "
        "available using the `set_option diagnostics true` command.",
        t.cmd_line(2),
        7,
    ).marker(2, "end")
    t.marker(3, "begin").msg("warning", "declaration uses 'sorry'", t.cmd_line(3)).marker(3, "end")
    t.marker(4, "begin").msg(
        "error",
        "(deterministic) timeout at `whnf`, maximum number of heartbeats (200000) has been reached",
        t.cmd_line(4),
    ).marker(4, "end")
    parsed = parse_output(t.text(), f)
    g = [classify_guard(c) for c in parsed.cases]
    assert [x.value for x in g] == [True, False, None, True, None]
    assert g[2].category == "elab" and g[2].reason == "failed to synthesize"
    assert g[4].category == "timeout"
    assert missing_name_error(parsed.cases[2].messages)
    assert not missing_name_error(parsed.cases[1].messages)


def test_positioned_messages_go_to_their_case_whatever_the_order() -> None:
    src = make_src("Nat")
    f = render_check_file(src, "precond", [f"#guard decide (f_precond (c{i}))" for i in range(2)])
    t = Transcript(f, True)
    t.case(0)
    t.marker(1, "begin")
    t.msg("error", "Expression\n  decide x\ndid not evaluate to `true`", t.cmd_line(0))  # belongs to case 0
    t.marker(1, "end")
    parsed = parse_output(t.text(), f)
    assert classify_guard(parsed.cases[0]).value is False
    assert classify_guard(parsed.cases[1]).value is True


# ---------------------------------------------------------------- plausible


@BOTH
def test_plausible_messages(prefixed: bool) -> None:
    src = make_src("Nat")
    f = render_check_file(
        src, "precond", [f"example : P{i} := by plausible" for i in range(6)], plausible=True
    )
    t = Transcript(f, prefixed)
    line = t.cmd_line
    t.marker(0, "begin").msg(
        "error",
        "===================\nFound a counter-example!\nxs := [0]\nissue: False does not hold\n"
        "(0 shrinks)\n-------------------",
        line(0),
        2,
    ).marker(0, "end")
    t.marker(1, "begin").info("Unable to find a counter-example", line(1), 2).msg(
        "warning", "declaration uses 'sorry'", line(1), 0
    ).marker(1, "end")
    t.marker(2, "begin").msg(
        "warning",
        "Gave up after failing to generate values that fulfill the preconditions 1000 times.",
        line(2),
        2,
    ).msg("warning", "declaration uses 'sorry'", line(2)).marker(2, "end")
    t.marker(3, "begin").msg("error", "no goals to be solved", line(3), 2).marker(3, "end")
    t.marker(4, "begin").msg(
        "error",
        "Failed to create a `testable` instance for `∀ (x : Foo), x = x`.\nWhat to do:\n1. make sure ...",
        line(4),
        2,
    ).marker(4, "end")
    t.marker(5, "begin").info("Unable to find a counter-example", line(5), 2)  # cut off: no end marker
    parsed = parse_output(t.text(), f)
    outcomes = [classify_plausible(c).outcome for c in parsed.cases]
    assert outcomes == ["found", "unable", "gave_up", "proved", "error", "error"]
    assert classify_plausible(parsed.cases[2]).reason.startswith("Gave up after failing")


# ---------------------------------------------------------------- timeouts, crashes, preamble errors


def test_timeout_mid_file_leaves_later_cases_without_results() -> None:
    src = make_src("Nat")
    f = lean_file(src, 4)
    t = Transcript(f, False).case(0, value="1").case(1, value="2")
    t.marker(2, "begin")  # killed here: the rest never printed
    parsed = parse_output(t.text(), f)
    assert [c.complete for c in parsed.cases] == [True, True, False, False]
    assert [c.started for c in parsed.cases] == [True, True, True, False]
    r = read_value(parsed.cases[2], src.return_type)
    assert not r.ok and "no result" in r.reason


def test_crash_mid_file() -> None:
    src = make_src("Nat")
    f = lean_file(src, 3)
    t = Transcript(f, False).case(0, value="7")
    t.marker(1, "begin").raw("Stack overflow detected. Aborting.")
    parsed = parse_output(t.text(), f)
    assert parsed.cases[0].complete and not parsed.cases[1].complete and not parsed.cases[2].started
    assert parsed.crash_text() == "Stack overflow detected. Aborting."
    assert read_value(parsed.cases[0], src.return_type).value == 7
    r = read_value(parsed.cases[1], src.return_type)
    assert not r.ok and r.category == "error" and "Stack overflow" in r.reason


@BOTH
def test_errors_before_the_first_marker_belong_to_the_preamble(prefixed: bool) -> None:
    src = make_src("Nat")
    f = lean_file(src, 2)
    code_line = f.text.split("\n").index("  xs") + 1
    t = Transcript(f, prefixed)
    t.msg("error", "unknown identifier 'List.sumBy'", code_line, 2)
    t.msg("warning", "unused variable `h_precond`\nnote: this linter can be disabled", code_line - 2, 30)
    t.marker(0, "begin").msg("error", "unknown identifier 'f'", t.cmd_line(0), 6).marker(0, "end")
    t.case(1, value="3")
    parsed = parse_output(t.text(), f)
    assert [m.first_line() for m in parsed.preamble_errors] == ["unknown identifier 'List.sumBy'"]
    assert len(parsed.preamble) == 2
    assert missing_name_error(parsed.preamble_errors)
    assert [m.first_line() for m in parsed.cases[0].errors] == ["unknown identifier 'f'"]


def test_unpositioned_lake_error_and_empty_output() -> None:
    src = make_src("Nat")
    f = lean_file(src, 1)
    parsed = parse_output("error: unknown package 'Plausible'\n", f)
    assert parsed.preamble_errors and parsed.preamble_errors[0].first_line() == "unknown package 'Plausible'"
    assert not parsed.cases[0].started
    empty = parse_output("", f)
    assert empty.preamble == [] and not empty.cases[0].started
