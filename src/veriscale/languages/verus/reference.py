"""Running a VeriContest problem's reference code (never ``verified.rs``, see the notes on lc3007/lc3022).

``ProblemRunner(problem)`` compiles, on demand and through the cache:

* the **function harness** (JSON lines) around ``code.rs`` (LeetCode) or the
  ``impl`` of ``main.rs`` (Codeforces): ``run_inputs`` takes input
  dictionaries keyed by reference parameter names (JSON values) and returns
  one ``CaseResult`` each (for ``&self`` targets the value is ``[self, result]``);
* the **traced program** (Codeforces ``main.rs``): ``run_stdin`` runs one
  stdin text and returns the program result plus the function-level calls
  the program made (``{"args": [...], "ret": ...}``).

``code`` replaces the reference source, so candidate (e.g. erased) code runs
the same way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...values import rust_codec
from .compile import Compiled, compile_program
from .execute import CaseResult, ExecLimits, ProgramResult, run_json_lines, run_program
from .forbidden import forbidden_constructs
from .harness import json_harness, strip_main, traced_program
from .inplace import decode_inplace, mutable_params
from .signature import input_params

__all__ = ["ProblemRunner", "Traced", "normalize_stdout"]

Problem = Any  # a VeriContest problem (formats.vericontest): spec, code, signatures, examples
_TRACE = "trace.jsonl"


@dataclass
class Traced:
    result: ProgramResult
    calls: list[dict[str, Any]] = field(default_factory=list)


def normalize_stdout(text: str) -> str:
    """Codeforces comparison form: trailing spaces of each line and trailing blank lines dropped."""
    lines = [ln.rstrip() for ln in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


class ProblemRunner:
    def __init__(
        self,
        problem: Problem,
        *,
        limits: ExecLimits | None = None,
        cache: Path | str | None = None,
        code: str | None = None,
    ) -> None:
        self.problem = problem
        self.limits = limits or ExecLimits()
        self.cache = cache
        self.code = code
        self._harness: Compiled | None = None
        self._traced: Compiled | None = None

    # ---- sources
    def harness_source(self) -> str:
        p = self.problem
        src = self.code if self.code is not None else p.reference_source
        if p.is_codeforces or "fn main" in src:
            src = strip_main(src)
        sig = p.ref_signature
        ctor = p.constructor
        return json_harness(
            src,
            sig.name,
            [(q.name, q.type) for q in sig.params],
            sig.ret_type,
            owner=sig.owner,
            receiver=sig.receiver,
            ctor_params=[(q.name, q.type) for q in ctor.params] if ctor else None,
            structs=p.structs,
        )

    def traced_source(self) -> str:
        p = self.problem
        src = self.code if self.code is not None else p.reference_source
        return traced_program(src, p.ref_signature.name, p.ref_signature.owner or "Solution")

    # ---- compilation
    def violations(self) -> str:
        """The forbidden constructs (``forbidden``) of the code that would run; "" when none."""
        src = self.code if self.code is not None else self.problem.reference_source
        return "; ".join(str(v) for v in forbidden_constructs(src))

    def _refused(self) -> Compiled | None:
        """Checked before the harness is even built (building it parses the code)."""
        bad = self.violations()
        if bad:  # refused before compiling: the code could reach files, processes, network or raw memory
            return Compiled("", None, f"refused before compiling: {bad}", forbidden=bad)
        return None

    def harness(self) -> Compiled:
        if self._harness is None:
            self._harness = self._refused() or compile_program(self.harness_source(), cache=self.cache)
        return self._harness

    def traced(self) -> Compiled:
        if self._traced is None:
            self._traced = self._refused() or compile_program(self.traced_source(), cache=self.cache)
        return self._traced

    # ---- running
    def encode_inputs(self, inputs: Mapping[str, Any]) -> str:
        """One harness input line (positional JSON array) from JSON values keyed by parameter name."""
        return json.dumps([inputs[q.name] for q in input_params(self.problem)], ensure_ascii=False)

    def run_inputs(self, rows: Sequence[Mapping[str, Any]]) -> list[CaseResult]:
        comp = self.harness()
        if not comp.ok:
            why = "forbidden construct" if comp.forbidden else "compilation failed"
            return [CaseResult("crash", message=why) for _ in rows]
        assert comp.binary is not None
        return run_json_lines(comp.binary, [self.encode_inputs(r) for r in rows], self.limits)

    def run_stdin(self, stdin: str) -> Traced:
        comp = self.traced()
        if not comp.ok:
            why = "forbidden construct" if comp.forbidden else "compilation failed"
            return Traced(ProgramResult("error", "", comp.errors, None, 0.0, why))
        assert comp.binary is not None
        # The trace is written inside the program's private sandbox directory and read back from there.
        res = run_program(
            comp.binary, stdin, self.limits, env={"VERISCALE_TRACE": _TRACE}, read_back=[_TRACE]
        )
        calls: list[dict[str, Any]] = []
        for line in res.files.get(_TRACE, b"").decode("utf-8", errors="replace").splitlines():
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict) and "args" in obj:
                calls.append(obj)
        return Traced(res, calls)

    # ---- decoding
    def decode_output(self, raw: Any) -> Any:
        """Runtime value of a harness/trace result (for ``&self`` targets, of the result part)."""
        sig = self.problem.ref_signature
        if sig.receiver and isinstance(raw, list) and len(raw) == 2:
            raw = raw[1]
        muts = self.mutable_params()
        if muts:
            return decode_inplace(sig.ret_type, muts, raw, self.problem.structs)
        return rust_codec.decode(sig.ret_type, raw, structs=self.problem.structs)

    def mutable_params(self) -> list[tuple[str, Any]]:
        """(name, value type) of the target's ``&mut`` arguments (and ``self`` for ``&mut self``)."""
        sig = self.problem.ref_signature
        return mutable_params([(q.name, q.type) for q in sig.params], sig.receiver, sig.owner)
