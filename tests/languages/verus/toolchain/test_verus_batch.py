"""Batched Verus runs: output parsing and mapping errors back to programs, on recorded Verus text.

No Verus is needed: ``ScriptedVerus`` plays Verus on a crate, printing what Verus prints (the
diagnostic and summary formats of Verus's own source: rustc-style ``error: …`` / ``--> FILE:L:C``
diagnostics, ``assume/admit not allowed with --no-cheating`` as a VIR error that stops the crate
before verification, ``verification results:: N verified, M errors`` only when verification ran).
A program says how it behaves with a marker comment.
"""

from __future__ import annotations

from collections.abc import Mapping

from veriscale.languages.verus.toolchain.batch import RunOutput, batchable, render_crate, verify_programs
from veriscale.languages.verus.toolchain.messages import parse_output

RECORDED = """\
warning: unused variable: `k`
  --> sample_0.rs:7:13
   |
7  |         let k = 0;
   |             ^ help: if this is intentional, prefix it with an underscore: `_k`

error: postcondition not satisfied
  --> sample_1.rs:12:9
   |
12 |           r >= 0,
   |           ------ failed this postcondition
...
15 | /     {
16 | |         x - 1
17 | |     }
   | |_____- at the end of the function body

error: assertion failed
  --> sample_3.rs:20:16
   |
20 |         assert(v@.len() > 0);
   |                ^^^^^^^^^^^^ assertion failed

note: recommendation not met
  --> sample_3.rs:21:5

error: aborting due to 2 previous errors

verification results:: 6 verified, 2 errors
"""


def test_recorded_output_is_parsed_into_located_errors_and_the_summary() -> None:
    out = parse_output(RECORDED)
    assert [(e.file, e.line, e.message) for e in out.errors] == [
        ("sample_1.rs", 12, "postcondition not satisfied"),
        ("sample_3.rs", 20, "assertion failed"),
    ]
    assert out.completed and (out.verified, out.failed) == (6, 2)
    stopped = parse_output(
        "error: assume/admit not allowed with --no-cheating\n  --> sample_2.rs:9:13\n   |\n"
        "9  |             assume(false);\n   |             ^^^^^^^^^^^^^\n\nerror: aborting due to 1 previous error\n"
    )
    assert not stopped.completed and [(e.file, e.line) for e in stopped.errors] == [("sample_2.rs", 9)]
    typed = parse_output("error[E0308]: mismatched types\n --> sample_0.rs:3:5\n")
    assert typed.errors[0].code == "E0308" and typed.errors[0].short() == "line 3: mismatched types"


GOOD = "use vstd::prelude::*;\nverus! {\nfn f(x: u8) -> (r: u8) ensures r == x { x }\n}\nfn main() {}\n"


def prog(marker: str, tag: int = 0) -> str:
    return GOOD.replace("fn main", f"// VERUS: {marker} {tag}\nfn main")


class ScriptedVerus:
    """Plays Verus on a crate (see the module docstring); counts its runs."""

    def __init__(self) -> None:
        self.runs: list[list[str]] = []

    def __call__(self, files: Mapping[str, str], root: str, timeout: float) -> RunOutput:
        mods = (
            sorted((n for n in files if n != root), key=lambda n: int(n[7:-3]))
            if root == "batch.rs"
            else [root]
        )
        self.runs.append(mods)
        text = files[root] if root != "batch.rs" else ""
        assert root == "batch.rs" or text
        lines: list[str] = []
        for name in mods:  # rustc's and the VIR checks come first and stop the crate
            src = files[name]
            line = next((n for n, s in enumerate(src.splitlines(), 1) if "VERUS:" in s), 1)
            if "VERUS: assume" in src:
                lines += ["error: assume/admit not allowed with --no-cheating", f"  --> {name}:{line}:13", ""]
            if "VERUS: type" in src:
                lines += ["error[E0308]: mismatched types", f"  --> {name}:{line}:20", ""]
        if lines:
            return RunOutput("\n".join([*lines, "error: aborting due to 1 previous error", ""]), 1)
        if any("VERUS: slow" in files[n] for n in mods):
            return RunOutput("", None, timed_out=True)
        if any("VERUS: panic" in files[n] for n in mods):
            return RunOutput("thread 'rustc' panicked at 'internal error'\n", 101)
        verified = errors = 0
        for name in mods:
            src = files[name]
            line = next((n for n, s in enumerate(src.splitlines(), 1) if "VERUS:" in s), 1)
            if "VERUS: post" in src:
                errors += 1
                lines += ["error: postcondition not satisfied", f"  --> {name}:{line}:9", "   |", ""]
            else:
                verified += 2
        lines.append(f"verification results:: {verified} verified, {errors} errors")
        return RunOutput("\n".join(lines) + "\n", 1 if errors else 0)


def test_one_run_verifies_a_batch_and_blames_the_failing_program() -> None:
    verus = ScriptedVerus()
    programs = [prog("ok", i) for i in range(4)] + [prog("post")]
    got = verify_programs(programs, verus, 10.0)
    assert [v.status for v in got] == ["verified"] * 4 + ["failed"]
    assert got[4].message == "line 5: postcondition not satisfied"  # the marker line of its own file
    assert len(verus.runs) == 1 and len(verus.runs[0]) == 5


def test_a_refusal_stops_the_crate_so_the_others_run_again_without_it() -> None:
    verus = ScriptedVerus()
    programs = [prog("ok", 0), prog("assume"), prog("ok", 2), prog("type"), prog("post")]
    got = verify_programs(programs, verus, 10.0)
    assert [v.status for v in got] == ["verified", "failed", "verified", "failed", "failed"]
    assert "--no-cheating" in got[1].message and "mismatched types" in got[3].message
    assert verus.runs == [[f"sample_{i}.rs" for i in range(5)], ["sample_0.rs", "sample_1.rs", "sample_2.rs"]]


def test_a_timed_out_batch_is_split_and_only_the_slow_program_is_unknown() -> None:
    verus = ScriptedVerus()
    programs = [prog("ok", i) for i in range(7)] + [prog("slow")]
    got = verify_programs(programs, verus, 10.0)
    assert [v.passed for v in got] == [True] * 7 + [None]
    assert got[7].timed_out and "timed out" in got[7].message
    assert len(verus.runs) <= 1 + 2 * 3  # one batch, then halves down to the slow one


def test_a_crash_is_never_a_pass_nor_a_failure() -> None:
    verus = ScriptedVerus()
    got = verify_programs([prog("ok", 0), prog("panic")], verus, 10.0)
    assert [v.status for v in got] == ["verified", "unknown"]
    assert "panicked" in got[1].message
    down = verify_programs([GOOD], lambda f, r, t: RunOutput("", None, setup_error="no such file"), 5.0)
    assert down[0].status == "unknown" and "could not start" in down[0].message


def test_programs_that_could_reach_another_module_run_alone_and_duplicates_once() -> None:
    verus = ScriptedVerus()
    reach = GOOD.replace("fn main() {}", "fn main() { crate::other(); }")
    inner = "#![allow(unused)]\n" + GOOD
    assert not batchable(reach) and not batchable(inner) and batchable(GOOD)
    assert not batchable("mod helpers;\n" + GOOD) and not batchable('"unterminated')
    assert batchable(GOOD.replace("ensures r == x", "ensures forall|i: int| #![trigger i] i == i"))
    got = verify_programs([reach, GOOD, inner, GOOD, prog("ok", 1)], verus, 10.0)
    assert [v.status for v in got] == ["verified"] * 5
    assert sorted(verus.runs) == sorted([["sample_0.rs"], ["sample_0.rs"], ["sample_0.rs", "sample_1.rs"]])


def test_the_batch_crate_declares_one_module_per_program() -> None:
    files = render_crate([GOOD, prog("ok")])
    assert sorted(files) == ["batch.rs", "sample_0.rs", "sample_1.rs"]
    assert "mod sample_0;\nmod sample_1;\n" in files["batch.rs"] and "fn main() {}" in files["batch.rs"]
    assert files["sample_1.rs"] == prog("ok")
