"""The Lean toolchain backend: batched ``lake env lean`` runs on a user's Lean project.

* ``project``   — locate and validate the Lean project (``VERISCALE_LEAN_PROJECT``);
* ``render``    — generate one Lean file per task and check kind, cases bracketed by markers;
* ``parse``     — split Lean's output by markers and read each case's result;
* ``runner``    — run a file in its own process group with time/memory limits, bisect
  timed-out batches, cache results by content hash;
* ``engine``    — ``LeanToolchainEngine``, the ``Engine`` protocol on top of the above;
* ``forbidden`` / ``proofgen`` — ProofGen evaluation with a token-level forbidden-construct policy.
"""

from __future__ import annotations

from .project import ENV_LAKE, ENV_PROJECT, LeanProject, LeanUnavailable, lean_status, locate_project

__all__ = [
    "ENV_LAKE",
    "ENV_PROJECT",
    "LeanProject",
    "LeanUnavailable",
    "lean_status",
    "locate_project",
]
