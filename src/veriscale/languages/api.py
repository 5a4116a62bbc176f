"""What a language plug-in provides (``languages/<name>/plugin.py``).

A language owns everything that depends on how specifications and code are
written: its front end, its engines (an exact native one and optional real
toolchains), and what the suite-building stages need from it (offline
adversaries, weakened specifications, checks of model-written definitions).
Layers above reach a language only through ``languages.registry`` and this
protocol, never by importing the plug-in package.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..runtime.engine import Engine
from ..runtime.limits import Limits
from .adversary import Adversary, CandidateSpec

__all__ = ["Language", "LanguageUnavailable"]


class LanguageUnavailable(RuntimeError):
    """A facility the language does not offer (yet), or a toolchain that is not installed."""


class Language(Protocol):
    name: str
    # engine names accepted by ``make_engine``; the first is the default (the exact native one)
    engine_names: tuple[str, ...]
    # the base class of the front end's failures (parse, elaboration, unsupported, limits)
    Error: type[Exception]

    def make_engine(self, name: str, **opts: Any) -> Engine:
        """An engine by name; options of other engines are ignored (one CLI option set serves all)."""
        ...

    def engine_unavailable(self, name: str) -> str | None:
        """``None`` when engine ``name`` can run here, else a one-line reason."""
        ...

    def native_engine(self, limits: Limits | None = None, *, coverage: bool = False) -> Engine:
        """The exact native engine with these limits (``coverage=True`` where supported)."""
        ...

    def is_native(self, engine: Any) -> bool: ...

    def with_coverage(self, engine: Any) -> Engine:
        """``engine`` recording branch coverage (``TypeError`` where it cannot)."""
        ...

    def with_fuel(self, engine: Engine, fuel: int) -> Engine:
        """``engine`` limited to at most ``fuel`` steps per check (engines without fuel unchanged)."""
        ...

    def warm_up(self) -> None:
        """Import the slow parts once (worker start-up)."""
        ...

    # ---- what the suite-building stages use

    def offline_adversaries(self, task: Any) -> list[Adversary]:
        """Wrong implementations made without a model: templates and mutants of the ground truth."""
        ...

    def weakened_specs(self, task: Any) -> list[CandidateSpec]:
        """Candidate postconditions weaker than the ground truth's."""
        ...
