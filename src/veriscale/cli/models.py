"""``veriscale models``: check a model endpoint and show the model-layer configuration."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .app import app

if TYPE_CHECKING:
    from ..llm.config import LLMConfig

# The model layer is imported inside the commands: the openai SDK takes about a second to
# import, and every other ``veriscale`` command would otherwise pay for it at start-up.

models_app = typer.Typer(
    name="models",
    help="Check an OpenAI-compatible model endpoint and show the model configuration.",
    no_args_is_help=True,
)
app.add_typer(models_app, name="models")

ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="Model config file (.toml or .json; .yaml with PyYAML installed; an \\[llm] table is used).",
    ),
]


def _load(config: Path | None, overrides: dict[str, Any]) -> LLMConfig:
    from ..llm.config import ConfigError, load_config

    try:
        return load_config(config, overrides=overrides)
    except ConfigError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None


@models_app.command("ping")
def ping_command(
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="Endpoint, e.g. http://localhost:8000/v1.")
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="Model name the endpoint serves.")] = None,
    api_key_env: Annotated[
        str | None,
        typer.Option("--api-key-env", help="Environment variable holding the key (never printed)."),
    ] = None,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds to wait for the answer.")] = 30.0,
    retries: Annotated[int, typer.Option("--retries", help="Retries on 429/5xx/timeouts.")] = 0,
    config: ConfigOpt = None,
) -> None:
    """Send one tiny chat request and print a one-line result."""
    from ..llm.client import ChatClient, short_url
    from ..llm.records import ChatRequest

    cfg = _load(config, {"base_url": base_url, "model": model, "api_key_env": api_key_env})
    cfg = cfg.model_copy(
        update={
            "timeout": timeout,
            "max_retries": max(retries, 0),
            "cache": "off",
            "backoff_base": 0.5,
            "backoff_max": 5.0,
        }
    )
    where = short_url(cfg.base_url)
    if not cfg.model:
        typer.echo("error: no model given (use --model or set VERISCALE_MODEL)", err=True)
        raise typer.Exit(2)
    req = ChatRequest(
        stage="ping",
        model=cfg.model,
        max_tokens=16,
        messages=(
            {"role": "user", "content": "This is a connectivity check. Reply with the single word: pong"},
        ),
    )
    start = time.monotonic()
    with ChatClient(cfg) as client:
        resp = client.complete(req)
    elapsed = time.monotonic() - start
    if resp.error is not None:
        typer.echo(f"error: {cfg.model} at {where}: {resp.error}", err=True)
        raise typer.Exit(1)
    answer = " ".join((resp.text or "").split())
    shown = (
        json.dumps(answer[:60] + ("…" if len(answer) > 60 else ""), ensure_ascii=False)
        if answer
        else "(empty)"
    )
    tokens = resp.usage.prompt_tokens + resp.usage.completion_tokens
    typer.echo(f"ok: {cfg.model} at {where} answered in {elapsed:.2f} s ({tokens} tokens): {shown}")


@models_app.command("config")
def config_command(
    config: ConfigOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Show the resolved model configuration (the key's source, never the key)."""
    from ..llm.client import short_url

    cfg = _load(config, {})
    data = cfg.model_dump(mode="json")
    data["api_key"] = cfg.key_status()
    data["cache_path"] = str(cfg.resolved_cache_path())
    data["configured"] = cfg.configured
    if as_json:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    typer.echo(f"model:     {cfg.model or '(none: model-driven stages will be skipped)'}")
    typer.echo(f"endpoint:  {short_url(cfg.base_url)}")
    typer.echo(f"api key:   {data['api_key']}")
    typer.echo(
        f"timeout:   {cfg.timeout:g} s, concurrency {cfg.concurrency}, retries {cfg.max_retries}, "
        f"re-asks on malformed output {cfg.reask_malformed}"
    )
    typer.echo(f"cache:     {cfg.cache} ({data['cache_path']})")
    for name in sorted(cfg.stages):
        st = cfg.stages[name]
        models = ", ".join(cfg.models_for(name)) or "-"
        typer.echo(
            f"stage {name}: models {models}; temperature {st.temperature}, max_tokens {st.max_tokens}, "
            f"samples {st.samples}"
        )


@models_app.command("templates")
def templates_command() -> None:
    """List the packaged prompt templates with their versions and fields."""
    from ..llm.templates import get_template, template_names

    for name in template_names():
        t = get_template(name)
        typer.echo(f"{t.ident}  fields: {', '.join(t.fields)}")
