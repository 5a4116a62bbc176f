"""The pipeline's configuration: defaults are the VeriScale paper's hyperparameters.

One ``PipelineConfig`` describes everything that can change a run's *results*
(hyperparameters, the master seed, engine limits, the seed model's name). It is
saved as ``config.json`` in the run directory; resuming a run with a different
config is refused, because finished tasks would silently mix two settings.
How a run is *executed* (workers, executor, progress bars) is not part of it.

Sources, later ones winning: defaults < config file (JSON or TOML; the
``[llm]`` table of a shared file belongs to the model layer and is ignored
here) < explicit overrides (CLI flags).
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

__all__ = [
    "ConfigMismatch",
    "EngineSettings",
    "InputsSettings",
    "MutationSettings",
    "OutputsSettings",
    "PipelineConfig",
    "PipelineConfigError",
    "ReduceSettings",
    "SeedSettings",
    "config_diff",
    "load_pipeline_config",
    "stable_seed",
]


class PipelineConfigError(ValueError):
    """A pipeline config file or value that cannot be used; the message names the source."""


class ConfigMismatch(PipelineConfigError):
    """A run directory was started with a different configuration."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EngineSettings(_Strict):
    """Limits of every single check (one precondition verdict, one implementation run).

    The fuel budget is deterministic and is meant to bind first; the wall-clock
    limit is a safety net, so a loaded machine does not change a run's results.
    """

    name: Literal["native", "lean"] = "native"
    fuel: int = Field(default=2_000_000, gt=0)
    seconds: float = Field(default=10.0, gt=0)


class SeedSettings(_Strict):
    """Model-generated seeds (paper, Appendix B: 1 round, 40 candidates, 5 examples; ~20% invalid)."""

    rounds: int = Field(default=1, ge=0)
    candidates_per_round: int = Field(default=40, ge=1)
    example_limit: int = Field(default=5, ge=0)
    invalid_fraction: float = Field(default=0.2, ge=0, le=1)


class MutationSettings(_Strict):
    """Type-aware mutation (paper, Appendix B: 15 mutants per seed, 1–5 steps, ingredient reuse 0.3).

    ``max_attempts_per_seed`` bounds the draws per seed. The paper does not fix
    it (the reference draws 4 × 15); 20 × 15 lets a seed with a small domain (a
    single small Nat) still reach its 15 *distinct* mutants, and draws are cheap.
    The size caps reject mutants whose values grew beyond them (repeated
    doubling and ingredient reuse compound); a seed's own sizes raise the caps.
    """

    max_mutants_per_seed: int = Field(default=15, ge=0)
    max_steps: int = Field(default=5, ge=1)
    ingredient_prob: float = Field(default=0.3, ge=0, le=1)
    max_attempts_per_seed: int = Field(default=300, ge=0)
    max_int_magnitude: int = Field(default=10**9, ge=1)
    max_length: int = Field(default=256, ge=1)


class InputsSettings(_Strict):
    seeds: SeedSettings = Field(default_factory=SeedSettings)
    mutation: MutationSettings = Field(default_factory=MutationSettings)
    # bounded-exhaustive small-scope inputs per task (``inputs/smallscope.py``); 0 turns them off
    small_scope_budget: int = Field(default=200, ge=0)
    # guided-mutation draws per task for reject inputs violating one precondition conjunct only
    # (``inputs/conjuncts.py``); 0 keeps only the candidates the stage already has
    conjunct_attempts: int = Field(default=200, ge=0)
    # guided-mutation draws per code mutant that survives the kill search (``inputs/guided.py``);
    # 0 turns the guided search off
    guided_attempts: int = Field(default=64, ge=0)


class OutputsSettings(_Strict):
    """Output expansion: how many wrong outputs a row keeps, and the adversaries' budget.

    ``adversary_fuel`` is deterministic (a run's kept adversaries must not depend
    on machine load); non-terminating mutants spend it once and are dropped.
    """

    cap: int = Field(default=10, ge=1)  # unexpected outputs kept per expected case
    minimum: int = Field(default=3, ge=0)  # rows with fewer are topped up by direct output mutation
    max_specs: int = Field(default=24, ge=0)  # candidate specs judged on each wrong output
    max_timeouts: int = Field(default=1, ge=1)  # an adversary running out of fuel this often is dropped
    adversary_fuel: int = Field(default=1_000_000, gt=0)
    # ... lowered per task to max(floor, ratio × the ground truth's most costly run) (``fuelcap.py``);
    # ratio 0 keeps the fixed budget
    adversary_fuel_ratio: int = Field(default=16, ge=0)
    adversary_fuel_floor: int = Field(default=20_000, gt=0)
    # Ground-truth verdicts that grade a row (postcondition TRUE on the expected output, FALSE on
    # a wrong one) must be reached within this fuel, well inside what an evaluation allows per
    # check (2 s), so the written suites grade the ground truth without UNKNOWNs.
    grade_fuel: int = Field(default=500_000, gt=0)
    model_specs: bool = True  # ask the configured models for candidate specs (when a model is set)
    model_adversaries: bool = True  # red-team each candidate spec (when a model is set)
    adversaries_per_spec: int = Field(default=5, ge=1)  # the paper's five per spec
    red_team_weakened: bool = False  # also red-team the weakened ground-truth specs (costly)
    # The models asked (recorded when the stage starts, like the seed model): None means offline.
    spec_models: tuple[str, ...] = ()
    red_team_model: str | None = None


class ReduceSettings(_Strict):
    """Reduction to the Lite suite (paper / reference: budgets of 50, one row per critical bucket)."""

    tests_budget: int = Field(default=50, ge=0)
    # the released VerinaLite holds 15.80 reject inputs and 202.35 unexpected outputs per task
    # on average: Lite stays within both (rows violating one precondition conjunct and outputs
    # killing a candidate specification are kept first, and are never cut)
    rejects_budget: int = Field(default=15, ge=0)
    unexpected_budget: int = Field(default=200, ge=0)
    per_bucket: int = Field(default=1, ge=0)
    keep_original: bool = True  # the benchmark's own tests stay in Lite (as the released VerinaLite does)
    # Lite also executes every ground-truth branch Plus executes (branches join the set cover)
    keep_coverage: bool = True


class PipelineConfig(_Strict):
    """Everything that determines a run's outputs. ``model`` is the seed model's name (None: offline)."""

    seed: int = 42
    model: str | None = None
    engine: EngineSettings = Field(default_factory=EngineSettings)
    inputs: InputsSettings = Field(default_factory=InputsSettings)
    outputs: OutputsSettings = Field(default_factory=OutputsSettings)
    reduce: ReduceSettings = Field(default_factory=ReduceSettings)

    @model_validator(mode="after")
    def _attempts_cover_budget(self) -> PipelineConfig:
        m = self.inputs.mutation
        if m.max_attempts_per_seed < m.max_mutants_per_seed:
            raise ValueError("inputs.mutation.max_attempts_per_seed must be at least max_mutants_per_seed")
        return self

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    def fingerprint(self) -> str:
        return hashlib.sha256(self.dumps().encode("utf-8")).hexdigest()[:16]

    def with_overrides(self, overrides: Mapping[str, Any]) -> PipelineConfig:
        """A copy with dotted-path overrides applied (``{"inputs.mutation.max_steps": 3}``); None is skipped."""
        data = self.to_json()
        for dotted, value in overrides.items():
            if value is None:
                continue
            node = data
            *path, last = dotted.split(".")
            for part in path:
                node = node.setdefault(part, {})
            node[last] = value
        return _validate(data, "overrides")

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str = "config") -> PipelineConfig:
        return _validate(dict(data), source)


def _validate(data: dict[str, Any], source: str) -> PipelineConfig:
    try:
        return PipelineConfig(**data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors()
        )
        raise PipelineConfigError(f"{source}: invalid pipeline config: {problems}") from None


def load_pipeline_config(
    path: Path | str | None = None, overrides: Mapping[str, Any] | None = None
) -> PipelineConfig:
    """Defaults, then the file (``.json`` or ``.toml``; an ``[llm]`` table is skipped), then overrides."""
    data: dict[str, Any] = {}
    source = "defaults"
    if path is not None:
        p = Path(path)
        source = str(p)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise PipelineConfigError(f"{p}: cannot read config: {exc.strerror or exc}") from None
        try:
            if p.suffix.lower() == ".toml":
                data = tomllib.loads(text)
            elif p.suffix.lower() == ".json":
                data = json.loads(text)
            else:
                raise PipelineConfigError(f"{p}: unknown config format {p.suffix!r} (use .json or .toml)")
        except PipelineConfigError:
            raise
        except Exception as exc:  # each parser raises its own error type
            raise PipelineConfigError(f"{p}: malformed config: {exc}") from None
        if not isinstance(data, dict):
            raise PipelineConfigError(f"{p}: the config must be an object/table at top level")
        data = {k: v for k, v in data.items() if k != "llm"}
    cfg = _validate(data, source)
    return cfg.with_overrides(overrides or {}) if overrides else cfg


def config_diff(old: Mapping[str, Any], new: Mapping[str, Any], prefix: str = "") -> list[str]:
    """Human-readable differences between two config JSON objects (sorted, dotted paths)."""
    out: list[str] = []
    for k in sorted(set(old) | set(new)):
        a, b = old.get(k), new.get(k)
        name = f"{prefix}{k}"
        if isinstance(a, dict) and isinstance(b, dict):
            out.extend(config_diff(a, b, name + "."))
        elif a != b:
            out.append(f"{name}: {a!r} -> {b!r}")
    return out


def stable_seed(*parts: object) -> int:
    """A 64-bit seed derived from ``parts`` with SHA-256 (never Python's salted ``hash``)."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
