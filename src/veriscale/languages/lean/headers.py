"""Lean definition headers of a task laid out as Verina's ``task.lean``.

Headers (``def f_precond (a : Int) : Prop :=``) are taken verbatim from the
lines between a section's opening marker and the marker before it, so implicit
arguments and odd spacing survive; when the file does not have that layout they
are rebuilt from the task's signature.
"""

from __future__ import annotations

from typing import Any

from .sections import MARKER

__all__ = ["def_header", "definition_text"]

Task = Any  # a Verina-format task: ``lean_text``, ``signature``, ``section_text``


def def_header(task: Task, section: str) -> str:
    """The lines that open the definition whose body is ``section`` (attributes, ``def ... :=``)."""
    lines = task.lean_text.split("\n")
    start = next(
        (
            i
            for i, ln in enumerate(lines)
            if MARKER in ln and ln.split(MARKER, 1)[1].split()[:2] == ["@start", section]
        ),
        None,
    )
    if start is not None:
        j = start - 1
        while j >= 0 and MARKER not in lines[j]:
            j -= 1
        header = "\n".join(ln for ln in lines[j + 1 : start] if ln.strip())
        if "def " in header:
            return header
    return _rebuilt_header(task, section)


def _params(task: Task) -> str:
    return " ".join(f"({p.name} : {p.type_str})" for p in task.signature.params)


def _args(task: Task) -> str:
    return " ".join(f"({p.name})" for p in task.signature.params)


def _rebuilt_header(task: Task, section: str) -> str:
    sig = task.signature
    pre = f"(h_precond : {sig.name}_precond {_args(task)})"
    if section == "precond":
        return f"@[reducible, simp]\ndef {sig.name}_precond {_params(task)} : Prop :="
    if section == "postcond":
        return (
            f"@[reducible, simp]\ndef {sig.name}_postcond {_params(task)} (result : {sig.return_type_str}) "
            f"{pre} : Prop :="
        )
    if section == "code":
        return f"def {sig.name} {_params(task)} {pre} : {sig.return_type_str} :="
    raise ValueError(f"no definition header for section {section!r}")


def definition_text(task: Task, section: str) -> str:
    """The whole ground-truth definition (its ``*_aux`` helpers first), markers removed."""
    aux = task.section_text(f"{section}_aux").strip("\n")
    body = task.section_text(section).rstrip()
    parts = [p for p in (aux, def_header(task, section) + "\n" + body) if p.strip()]
    return "\n\n".join(parts)
