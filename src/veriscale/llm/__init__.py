"""Model layer: OpenAI-compatible chat client, prompt templates, response cache, usage.

Stages use ``ModelRunner``::

    cfg = load_config(path_or_None)              # file + VERISCALE_* environment
    if model_available(cfg, ["seed_inputs"]):    # otherwise one notice, and the stage is skipped
        with ModelRunner(cfg) as runner:
            prompt = runner.prompt("seed_inputs", **seed_fields(task, count=40))
            answers = runner.ask("seed_inputs", prompt, extract=lambda t: extract_seed_inputs(t, names))
            # each answer: .ok, .parsed, .error, .malformed, .cached ...
        runner.usage.table()                     # rich table for the run summary

This package may import ``values`` and ``benchmarks`` only (never engines or pipelines).
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

# A library stays quiet unless the application configures logging (no last-resort stderr output).
logging.getLogger("veriscale.llm").addHandler(logging.NullHandler())

# Names are imported on first use: the openai SDK and pydantic take about a second to import,
# and neither the CLI's other commands nor a process that only touches the cache should pay for them.
_EXPORTS = {
    "ResponseCache": "cache",
    "request_key": "cache",
    "ChatClient": "client",
    "redact": "client",
    "DEFAULT_STAGES": "config",
    "ConfigError": "config",
    "LLMConfig": "config",
    "Price": "config",
    "StageConfig": "config",
    "load_config": "config",
    "Extraction": "extract",
    "extract_adversarial": "extract",
    "extract_decomposition": "extract",
    "extract_json_array": "extract",
    "extract_json_object": "extract",
    "extract_lean": "extract",
    "extract_seed_inputs": "extract",
    "extract_spec": "extract",
    "model_available": "offline",
    "skip_notice": "offline",
    "ChatRequest": "records",
    "Message": "records",
    "Response": "records",
    "TokenUsage": "records",
    "ModelRunner": "runner",
    "Prompt": "runner",
    "PromptTemplate": "templates",
    "TemplateError": "templates",
    "get_template": "templates",
    "template_names": "templates",
    "UsageTracker": "usage",
}


def __getattr__(name: str) -> Any:
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{mod}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


__all__ = [
    "DEFAULT_STAGES",
    "ChatClient",
    "ChatRequest",
    "ConfigError",
    "Extraction",
    "LLMConfig",
    "Message",
    "ModelRunner",
    "Price",
    "Prompt",
    "PromptTemplate",
    "Response",
    "ResponseCache",
    "StageConfig",
    "TemplateError",
    "TokenUsage",
    "UsageTracker",
    "extract_adversarial",
    "extract_decomposition",
    "extract_json_array",
    "extract_json_object",
    "extract_lean",
    "extract_seed_inputs",
    "extract_spec",
    "get_template",
    "load_config",
    "model_available",
    "redact",
    "request_key",
    "skip_notice",
    "template_names",
]
