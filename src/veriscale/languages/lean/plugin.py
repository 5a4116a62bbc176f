"""The Lean 4 language plug-in: what the layers above may ask of Lean.

Everything here imports lazily: the evaluator is slow to import, and a command
that never runs Lean should not pay for it.
"""

from __future__ import annotations

import dataclasses
from types import ModuleType
from typing import Any

from ...runtime.engine import Engine
from ...runtime.limits import Limits
from ..adversary import Adversary, CandidateSpec, Conjunct
from .errors import LeanError
from .sections import DEFINITION_SECTIONS, MARKER, SECTION_DEFAULTS

__all__ = ["LEAN", "LeanLanguage"]


class LeanLanguage:
    name = "lean"
    engine_names: tuple[str, ...] = ("native", "lean")
    # the front end's failures (parse, elaboration, unsupported, limits): callers catch these
    Error: type[Exception] = LeanError
    section_marker = MARKER
    section_defaults = SECTION_DEFAULTS
    definition_sections = DEFINITION_SECTIONS

    def make_engine(self, name: str, **opts: Any) -> Engine:
        from .engines import make_engine

        return make_engine(name, **opts)

    def engine_unavailable(self, name: str) -> str | None:
        if name not in self.engine_names:
            return f"unknown engine {name!r} (choose from {', '.join(self.engine_names)})"
        if name == "lean":
            from .toolchain.project import lean_status

            project, why = lean_status()
            return None if project is not None else f"Lean toolchain unavailable: {why}"
        return None

    def native_engine(self, limits: Limits | None = None, *, coverage: bool = False) -> Engine:
        from .native import NativeEngine

        return NativeEngine(limits=limits or Limits(), coverage=coverage)

    def is_native(self, engine: Any) -> bool:
        from .native import NativeEngine

        return isinstance(engine, NativeEngine)

    def with_coverage(self, engine: Any) -> Engine:
        """The native ``engine`` recording branch coverage (``TypeError`` for other engines)."""
        if not self.is_native(engine):
            raise TypeError("coverage is measured by the native engine only")
        return engine if engine.coverage else dataclasses.replace(engine, coverage=True)

    def with_fuel(self, engine: Engine, fuel: int) -> Engine:
        from .native import NativeEngine

        if isinstance(engine, NativeEngine) and engine.limits.fuel > fuel:
            return NativeEngine(limits=dataclasses.replace(engine.limits, fuel=fuel))
        return engine

    def warm_up(self) -> None:
        from . import program  # noqa: F401  (the evaluator: the slow import)

    # ---- suite building

    def offline_adversaries(self, task: Any) -> list[Adversary]:
        """Templates, then mutants of the code body, then mutants of its helpers, then the compound
        mutants of both (``mutants_compound``; first of each id)."""
        from .mutants import aux_mutant_adversaries, mutant_adversaries
        from .mutants_compound import compound_aux_mutants, compound_mutants
        from .templates import template_adversaries

        out: list[Adversary] = []
        seen: set[str] = set()
        for a in (
            template_adversaries(task)
            + mutant_adversaries(task.section_text("code"))
            + aux_mutant_adversaries(task.section_text("code_aux"))
            + compound_mutants(task.section_text("code"))
            + compound_aux_mutants(task.section_text("code_aux"))
        ):
            if a.id not in seen:
                seen.add(a.id)
                out.append(a)
        return out

    def weakened_specs(self, task: Any) -> list[CandidateSpec]:
        from .weaken import weakened_specs

        return weakened_specs(task.section_text("postcond"))

    def split_conjuncts(self, precondition: str) -> list[Conjunct]:
        from .conjuncts import split_conjuncts

        return split_conjuncts(precondition)

    def weakened_preconditions(self, task: Any) -> list[Conjunct]:
        from .conjuncts import weakened_preconditions

        return weakened_preconditions(task.section_text("precond"))

    # ---- model-written definitions and prompts

    @property
    def candidates(self) -> ModuleType:
        """Checks of model-written definitions: names, signatures, forbidden constructs."""
        from . import validate

        return validate

    def def_header(self, task: Any, section: str) -> str:
        from .headers import def_header

        return def_header(task, section)

    def definition_text(self, task: Any, section: str) -> str:
        from .headers import definition_text

        return definition_text(task, section)

    # ---- proofs (only real Lean checks them)

    def check_proof(self, task: Any, proof: str, proof_aux: str, imports: str, **kw: Any) -> Any:
        from .toolchain.proofgen import evaluate_proof

        return evaluate_proof(task, proof, proof_aux, imports, **kw)

    def is_toolchain(self, engine: Any) -> bool:
        from .toolchain.engine import LeanToolchainEngine

        return isinstance(engine, LeanToolchainEngine)


LEAN = LeanLanguage()
