"""The model hook a format's suite builder may offer (``scale`` with ``--model``).

Formats sit below the model layer, so a suite builder never calls a model
itself. A builder that has model-driven stages sets ``model_stages`` (the
stage names, for the run summary and the "no model" notice) and offers
``model_requests(task_dir, settings)``: the questions to put to the model for one task,
as plain chat messages with a prompt identity. The pipeline
(``pipeline/format_models.py``) asks them — cache, usage and failures handled
the way every model stage handles them — and hands the raw answers back to
``build`` in ``settings[MODEL_ANSWERS]``: ``{request name: [answer, …]}`` with
one ``{"text": str | None, "error": str | None}`` per sample. An answer
``answer_problem(stage, text)`` finds unusable is asked again (a new sample,
up to the model config's ``reask_malformed``); the last answer is handed on
whatever it holds, for the builder to record. Everything
benchmark-specific (what is asked, how an answer is read, what is done with
it) stays in the format plug-in.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

__all__ = ["MODEL_ANSWERS", "ModelRequest", "SuiteModelHooks", "suite_model_hooks"]

MODEL_ANSWERS = "model_answers"  # the settings key ``build`` reads the answers from


@dataclass(frozen=True)
class ModelRequest:
    """One question for one task: ``name`` keys its answers; ``stage`` picks the model config's sampling."""

    name: str
    stage: str
    messages: tuple[dict[str, str], ...]
    ident: str  # the prompt's name and version (goes into the response-cache key)
    samples: int = 1


@runtime_checkable
class SuiteModelHooks(Protocol):
    model_stages: tuple[str, ...]

    def model_requests(self, task_dir: Path, settings: dict[str, Any]) -> list[ModelRequest]: ...

    def answer_problem(self, stage: str, text: str) -> str | None:
        """Why an answer of ``stage`` cannot be used (the model is asked again), or None."""
        ...


def suite_model_hooks(builder: Any) -> SuiteModelHooks | None:
    """The builder's model hook, or None when it has no model-driven stage."""
    if builder is not None and isinstance(builder, SuiteModelHooks) and builder.model_stages:
        return builder
    return None
