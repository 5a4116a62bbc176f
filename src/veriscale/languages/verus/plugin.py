"""The Verus/Rust language plug-in: Rust execution with ``rustc`` and the Verus-spec evaluator."""

from __future__ import annotations

from typing import Any

from ...runtime.engine import Engine
from ...runtime.limits import Limits
from ..adversary import Adversary, CandidateSpec
from ..api import LanguageUnavailable

__all__ = ["VERUS", "VerusLanguage"]


class VerusLanguage:
    name = "verus"
    Error: type[Exception] = ValueError  # the Verus front end's load and parse errors are ValueErrors
    engine_names: tuple[str, ...] = ("native",)

    def make_engine(self, name: str = "native", **opts: Any) -> Engine:
        if name != "native":
            raise ValueError(f"unknown engine {name!r} for Verus (choose from native)")
        from .engine import VeriContestEngine

        return VeriContestEngine(**opts)

    def engine_unavailable(self, name: str) -> str | None:
        if name not in self.engine_names:
            return f"unknown engine {name!r} for Verus (choose from {', '.join(self.engine_names)})"
        from .compile import rustc_available

        return None if rustc_available() else "rustc unavailable: not on PATH"

    def native_engine(self, limits: Limits | None = None, *, coverage: bool = False) -> Engine:
        if coverage:
            raise LanguageUnavailable("coverage is not measured for Verus")
        return self.make_engine("native", **({"spec_limits": limits} if limits else {}))

    def exec_limits(self, **kw: Any) -> Any:
        """Limits of one Rust process run (``case_seconds``, ``memory_mb``, …)."""
        from .execute import ExecLimits

        return ExecLimits(**kw)

    def spec_limits(self, seconds: float) -> Limits:
        """Limits of one Python-side spec check: fuel decides, ``seconds`` (at least the engine's
        backstop) only guards against a stuck check."""
        from .engine import SPEC_BACKSTOP_SECONDS, SPEC_FUEL

        return Limits(fuel=SPEC_FUEL, seconds=max(seconds, SPEC_BACKSTOP_SECONDS), max_depth=100_000)

    def normalize_stdout(self, text: str) -> str:
        from .reference import normalize_stdout

        return normalize_stdout(text)

    def is_native(self, engine: Any) -> bool:
        from .engine import VeriContestEngine

        return isinstance(engine, VeriContestEngine)

    def with_coverage(self, engine: Any) -> Engine:
        raise TypeError("coverage is not measured for Verus")

    def with_fuel(self, engine: Engine, fuel: int) -> Engine:
        return engine

    def warm_up(self) -> None:
        from . import engine  # noqa: F401

    def write_checkers(self, problems: Any, out: Any, **kw: Any) -> dict[str, Any]:
        """Post2Exe: a compiled Rust checker of each problem's requires/ensures (see ``post2exe``)."""
        from .post2exe.checker import write_checkers

        return write_checkers(problems, out, **kw)

    def prover(self, path: str, timeout: float = 120.0, **kw: Any) -> Any:
        """The real Verus as a batching, memoising ``verify(program)`` (``toolchain.prover``)."""
        from .toolchain.prover import VerusBackend

        return VerusBackend(path, timeout, **kw)

    def find_prover(self, path: str | None = None) -> str | None:
        """The Verus binary ``path`` or ``$VERISCALE_VERUS`` names, when it is an executable."""
        from .toolchain.runner import find_verus

        return find_verus(path)

    def offline_adversaries(self, task: Any) -> list[Adversary]:
        raise LanguageUnavailable("Verus adversaries are not built yet")

    def weakened_specs(self, task: Any) -> list[CandidateSpec]:
        raise LanguageUnavailable("weakened Verus specifications are not built yet")


VERUS = VerusLanguage()
