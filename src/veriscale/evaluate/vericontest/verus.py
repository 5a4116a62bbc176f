"""The Verus backend of the proof tasks (spec_code2proof, end2end), through the Verus plug-in.

``verus_verifier(path, timeout)`` is the plug-in's prover
(``languages/verus/toolchain``): ``verify(program) -> (passed, message)`` —
``(True, "")`` when Verus verifies the program, ``(False, its first errors)``
when it reports errors located in the program (a verification failure, a
compile error, a ``--no-cheating`` refusal), ``(None, why)`` when it could not
decide (timed out — the message says "timed out" —, crashed, could not
start) — plus ``prefetch(programs)``, with which a job verifies all its proof
programs in batched Verus runs (one crate, one module per program, errors
mapped back by file) before scoring them. Verus runs in the sandbox. Without a
Verus binary the proof samples are NOT_EVALUATED (``scoring``); never passed.
"""

from __future__ import annotations

from typing import Any

from ...languages.registry import language

__all__ = ["DEFAULT_VERUS_TIMEOUT", "find_verus", "verus_verifier"]

DEFAULT_VERUS_TIMEOUT = 120.0


def verus_verifier(path: str, timeout: float = DEFAULT_VERUS_TIMEOUT) -> Any:
    return language("verus").prover(path, timeout)


def find_verus(path: str | None = None) -> str | None:
    """The Verus binary: ``path``, else ``$VERISCALE_VERUS``; None when neither names an executable."""
    return language("verus").find_prover(path)
