"""The ``veriscale`` command: one typer app; each command lives in its own module."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="veriscale",
    help="Scale, reduce and evaluate test suites of verifiable code generation benchmarks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Each module registers its commands on ``app`` when imported.
_COMMAND_MODULES = (
    "stats",
    "check_data",
    "check",
    "models",
    "crosscheck",
    "expand",
    "expand_outputs",
    "evaluate",
    "scale",
    "post2exe",
    "report",
    "generate",
    "bench",
)


def _load_commands() -> None:
    for mod in _COMMAND_MODULES:
        try:
            importlib.import_module(f"veriscale.cli.{mod}")
        except ModuleNotFoundError as exc:  # a command still being written
            if exc.name != f"veriscale.cli.{mod}":
                raise


def main() -> None:
    _load_commands()
    app()
