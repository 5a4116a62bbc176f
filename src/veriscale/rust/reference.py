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
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..benchmarks.vericontest import Problem, input_params
from ..values import rust_codec
from .compile import Compiled, compile_program
from .execute import CaseResult, ExecLimits, ProgramResult, run_json_lines, run_program
from .harness import json_harness, strip_main, traced_program
from .inplace import decode_inplace, mutable_params

__all__ = ["ProblemRunner", "Traced", "normalize_stdout"]


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
    def harness(self) -> Compiled:
        if self._harness is None:
            self._harness = compile_program(self.harness_source(), cache=self.cache)
        return self._harness

    def traced(self) -> Compiled:
        if self._traced is None:
            self._traced = compile_program(self.traced_source(), cache=self.cache)
        return self._traced

    # ---- running
    def encode_inputs(self, inputs: Mapping[str, Any]) -> str:
        """One harness input line (positional JSON array) from JSON values keyed by parameter name."""
        return json.dumps([inputs[q.name] for q in input_params(self.problem)], ensure_ascii=False)

    def run_inputs(self, rows: Sequence[Mapping[str, Any]]) -> list[CaseResult]:
        comp = self.harness()
        if not comp.ok:
            return [CaseResult("crash", message="compilation failed") for _ in rows]
        assert comp.binary is not None
        return run_json_lines(comp.binary, [self.encode_inputs(r) for r in rows], self.limits)

    def run_stdin(self, stdin: str) -> Traced:
        comp = self.traced()
        if not comp.ok:
            return Traced(ProgramResult("error", "", comp.errors, None, 0.0, "compilation failed"))
        assert comp.binary is not None
        fd, trace_path = tempfile.mkstemp(prefix="vs_trace_", suffix=".jsonl")
        os.close(fd)
        try:
            env = dict(os.environ)
            env["VERISCALE_TRACE"] = trace_path
            res = run_program(comp.binary, stdin, self.limits, env=env)
            calls: list[dict[str, Any]] = []
            with open(trace_path, encoding="utf-8", errors="replace") as f:
                for line in f:
                    try:
                        obj = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(obj, dict) and "args" in obj:
                        calls.append(obj)
        finally:
            os.unlink(trace_path)
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
