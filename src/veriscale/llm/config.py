"""Configuration of the model layer: endpoint, per-stage sampling, resilience, prices.

The API key itself is never stored here: the config holds only the *name* of the
environment variable that carries it, so printing or serialising a config can
never leak the key. Sources, later ones winning: defaults < config file <
environment (``VERISCALE_*``) < explicit overrides (CLI flags).
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

__all__ = [
    "DEFAULT_STAGES",
    "KEY_ENV_FALLBACKS",
    "ConfigError",
    "LLMConfig",
    "Price",
    "StageConfig",
    "default_cache_path",
    "load_config",
]

# Environment variables tried, in order, for the key when ``api_key_env`` is not set.
KEY_ENV_FALLBACKS: tuple[str, ...] = ("VERISCALE_API_KEY", "OPENAI_API_KEY")

CacheMode = Literal["on", "off", "refresh"]


class ConfigError(ValueError):
    """A config file or value that cannot be used; the message names the source."""


class StageConfig(BaseModel):
    """Sampling for one stage. ``None`` means "leave it to the endpoint's default"."""

    model_config = ConfigDict(extra="forbid")

    model: str | None = None  # overrides LLMConfig.model for this stage
    models: list[str] = Field(default_factory=list)  # several models asked in turn (e.g. spec_gen)
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = Field(default=None, gt=0)
    samples: int = Field(default=1, ge=1)
    extra_body: dict[str, Any] = Field(default_factory=dict)  # vendor-specific fields, e.g. reasoning_effort


class Price(BaseModel):
    """US dollars per million tokens."""

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cached_input: float | None = Field(default=None, ge=0)


def _stage_defaults() -> dict[str, StageConfig]:
    # Generation stages sample for diversity; decomposition and evaluation want stable answers.
    return {
        "seed_inputs": StageConfig(temperature=0.8, max_tokens=8192),
        "decompose": StageConfig(temperature=0.2, max_tokens=4096),
        "spec_gen": StageConfig(temperature=0.7, max_tokens=4096),
        "adversarial_impl": StageConfig(temperature=0.8, max_tokens=8192),
        "eval_specgen": StageConfig(temperature=0.0, max_tokens=4096),
        "eval_codegen": StageConfig(temperature=0.0, max_tokens=4096),
        "eval_proofgen": StageConfig(temperature=0.0, max_tokens=8192),
    }


DEFAULT_STAGES: tuple[str, ...] = tuple(_stage_defaults())


def default_cache_path() -> Path:
    env = os.environ.get("VERISCALE_CACHE")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "veriscale" / "llm-cache.sqlite"


class LLMConfig(BaseModel):
    """Everything the client, cache and runner need. No secret is ever held here."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None  # name of the variable holding the key; None: try KEY_ENV_FALLBACKS
    timeout: float = Field(default=120.0, gt=0)  # seconds per HTTP request
    concurrency: int = Field(default=8, ge=1)
    max_retries: int = Field(default=5, ge=0)  # transient failures retried per request
    backoff_base: float = Field(default=1.0, ge=0)  # first backoff delay, doubled each retry
    backoff_max: float = Field(default=60.0, ge=0)
    max_retry_after: float = Field(default=300.0, ge=0)  # cap on a server's Retry-After
    reask_malformed: int = Field(default=2, ge=0)  # extra samples drawn when the output cannot be parsed
    max_tokens_param: Literal["max_tokens", "max_completion_tokens"] = "max_tokens"
    seed: int | None = None  # sent as `seed` (+ sample index) to endpoints that honour it
    cache: CacheMode = "on"
    cache_path: Path | None = None  # None: default_cache_path()
    stages: dict[str, StageConfig] = Field(default_factory=_stage_defaults)
    prices: dict[str, Price] = Field(default_factory=dict)  # model name or glob pattern -> Price

    @field_validator("stages", mode="after")
    @classmethod
    def _merge_stage_defaults(cls, v: dict[str, StageConfig]) -> dict[str, StageConfig]:
        # A file that tunes one stage keeps the defaults of the others.
        merged = _stage_defaults()
        for name, st in v.items():
            if name in merged:
                base = merged[name].model_dump()
                base.update(st.model_dump(exclude_unset=True))
                merged[name] = StageConfig(**base)
            else:
                merged[name] = st
        return merged

    # -- derived values ------------------------------------------------------------

    @property
    def configured(self) -> bool:
        """A model-driven stage can run only when a model name is known."""
        return bool(self.model)

    def stage(self, name: str) -> StageConfig:
        return self.stages.get(name) or StageConfig()

    def model_for(self, stage: str) -> str | None:
        return self.stage(stage).model or self.model

    def models_for(self, stage: str) -> list[str]:
        """Models a stage should ask, in order (several for spec_gen-like stages)."""
        st = self.stage(stage)
        if st.models:
            return list(st.models)
        m = self.model_for(stage)
        return [m] if m else []

    def key_env_names(self) -> tuple[str, ...]:
        return (self.api_key_env,) if self.api_key_env else KEY_ENV_FALLBACKS

    def resolve_api_key(self, env: Mapping[str, str] | None = None) -> str | None:
        """The key from the environment, or None. Callers must never print or log it."""
        env = os.environ if env is None else env
        for name in self.key_env_names():
            val = env.get(name)
            if val:
                return val
        return None

    def key_status(self, env: Mapping[str, str] | None = None) -> str:
        """A printable description of where the key comes from, without the key."""
        env = os.environ if env is None else env
        for name in self.key_env_names():
            if env.get(name):
                return f"${name} (set)"
        return " / ".join(f"${n}" for n in self.key_env_names()) + " (not set)"

    def resolved_cache_path(self) -> Path:
        return self.cache_path or default_cache_path()

    def price_for(self, model: str) -> Price | None:
        if model in self.prices:
            return self.prices[model]
        # Patterns are tried in sorted order so the choice never depends on file order.
        for pattern in sorted(self.prices):
            if fnmatchcase(model, pattern):
                return self.prices[pattern]
        return None


def _read_file(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read model config: {exc.strerror or exc}") from None
    suffix = path.suffix.lower()
    try:
        if suffix == ".toml":
            data: Any = tomllib.loads(text)
        elif suffix == ".json":
            data = json.loads(text)
        elif suffix in (".yaml", ".yml"):
            try:
                import yaml  # type: ignore[import-untyped]
            except ImportError:
                raise ConfigError(f"{path}: YAML config needs PyYAML installed (or use TOML/JSON)") from None
            data = yaml.safe_load(text)
        else:
            raise ConfigError(f"{path}: unknown config format {suffix!r} (use .toml, .json, .yaml)")
    except ConfigError:
        raise
    except Exception as exc:  # each parser raises its own error type
        raise ConfigError(f"{path}: malformed config: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the config must be a table/object at top level")
    # A whole-project config may keep the model settings under [llm].
    if isinstance(data.get("llm"), dict):
        data = data["llm"]
    return data


def _from_env(env: Mapping[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    simple = {
        "VERISCALE_MODEL": "model",
        "VERISCALE_BASE_URL": "base_url",
        "VERISCALE_API_KEY_ENV": "api_key_env",
        "VERISCALE_TIMEOUT": "timeout",
        "VERISCALE_CONCURRENCY": "concurrency",
        "VERISCALE_MAX_RETRIES": "max_retries",
        "VERISCALE_CACHE_PATH": "cache_path",
    }
    for var, fld in simple.items():
        if env.get(var):
            out[fld] = env[var]
    if not out.get("base_url") and env.get("OPENAI_BASE_URL"):
        out["base_url"] = env["OPENAI_BASE_URL"]
    if env.get("VERISCALE_NO_CACHE"):
        out["cache"] = "off"
    return out


def load_config(
    path: Path | str | None = None,
    *,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> LLMConfig:
    """Build a config from defaults, an optional file, the environment and explicit overrides.

    ``overrides`` entries whose value is None are ignored, so CLI options can be
    passed through unconditionally.
    """
    env = os.environ if env is None else env
    data: dict[str, Any] = {}
    source = "defaults"
    if path is None and env.get("VERISCALE_LLM_CONFIG"):
        path = env["VERISCALE_LLM_CONFIG"]
    if path is not None:
        data.update(_read_file(Path(path)))
        source = str(path)
    data.update(_from_env(env))
    data.update({k: v for k, v in (overrides or {}).items() if v is not None})
    try:
        return LLMConfig(**data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors()
        )
        raise ConfigError(f"{source}: invalid model config: {problems}") from None
