"""A memoising, batching Verus prover: ``VerusBackend(path, timeout)``.

It is ``verify(program) -> (passed, message)`` (VeriContest's proof tasks reach it through the
plug-in's ``prover``): ``(True, "")`` when Verus verifies the program,
``(False, its first errors)`` when it reports errors located in the program
(a verification failure, a compile error, a ``--no-cheating`` refusal),
``(None, why)`` when it could not decide (timed out — the message says
"timed out" —, crashed, could not start). Verdicts are memoised by program
text.

``prefetch(programs)`` verifies many programs at once
(``batch``: one crate, one module per program,
errors mapped back by file; batches of ``batch_size``; a program that could
reach outside its module runs alone), so a job calls it first with the
programs of all its proof samples and ``verify`` then answers from the memo.
Verus runs in the sandbox (``runner``); the per-program ``timeout``
(default 120 s) scales with the batch.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .batch import DEFAULT_BATCH, Verdict, VerusRun, verify_programs
from .runner import VerusRunner

__all__ = ["DEFAULT_VERUS_TIMEOUT", "VerusBackend"]

DEFAULT_VERUS_TIMEOUT = 120.0


class VerusBackend:
    def __init__(
        self,
        path: str,
        timeout: float = DEFAULT_VERUS_TIMEOUT,
        *,
        batch_size: int = DEFAULT_BATCH,
        extra_args: Sequence[str] = (),
        run: VerusRun | None = None,
    ) -> None:
        self.run: VerusRun = run if run is not None else VerusRunner(path, extra_args=extra_args)
        self.timeout = timeout
        self.batch_size = batch_size
        self.memo: dict[str, Verdict] = {}

    def prefetch(self, programs: Iterable[str]) -> None:
        todo = [p for p in dict.fromkeys(programs) if p not in self.memo]
        if todo:
            for p, v in zip(todo, verify_programs(todo, self.run, self.timeout, batch_size=self.batch_size)):
                self.memo[p] = v

    def __call__(self, program: str) -> tuple[bool | None, str]:
        if program not in self.memo:
            self.prefetch([program])
        v = self.memo[program]
        return v.passed, v.message
