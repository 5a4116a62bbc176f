"""A typed library of adversarial implementations, instantiated per task signature.

Each template is a ``code`` section body: constants of the return type, echoes
of parameters, list manipulations of list parameters, and perturbations of the
ground-truth result (the ground-truth body bound to a local with the return
type, so Nat subtraction stays Nat and literals get the right type).
"""

from __future__ import annotations

from typing import Any

from ...values.types import TCon, Type, render_type
from ..adversary import Adversary, make_adversary
from . import ast as A
from .errors import LeanError
from .parser import parse_expr
from .printer import print_expr

__all__ = ["template_adversaries"]

_R = "veriscaleGt"  # the local holding the ground-truth result
_NUM = ("Int", "Nat")


def _is(t: Type, *names: str) -> bool:
    return isinstance(t, TCon) and t.name in names


def _elem(t: Type) -> Type | None:
    return t.args[0] if _is(t, "List", "Array") and len(t.args) == 1 else None  # type: ignore[union-attr]


def _constants(ret: Type) -> list[tuple[str, str]]:
    out = [("default", f"(default : {render_type(ret)})")]
    if _is(ret, "Int"):
        out += [("zero", "0"), ("one", "1"), ("minus-one", "-1")]
    elif _is(ret, "Nat"):
        out += [("zero", "0"), ("one", "1")]
    elif _is(ret, "Bool"):
        out += [("true", "true"), ("false", "false")]
    elif _is(ret, "String"):
        out += [("empty", '""'), ("a", '"a"')]
    elif _is(ret, "List"):
        out += [("empty", "[]")]
    elif _is(ret, "Array"):
        out += [("empty", "#[]")]
    elif _is(ret, "Option"):
        out += [("none", "none")]
    return out


def _param_templates(params: list[tuple[str, Type]], ret: Type) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for name, t in params:
        if t == ret:
            out.append(("echo", name))
        el = _elem(t)
        if el is None:
            if _is(t, "String") and _is(ret, "Nat"):
                out.append(("length", f"{name}.length"))
            continue
        is_list = _is(t, "List")
        size = "length" if is_list else "size"
        if t == ret:
            out += [
                ("reversed", f"{name}.reverse"),
                ("prefix", f"{name}.take 1" if is_list else f"{name}.extract 0 1"),
                ("suffix", f"{name}.drop 1" if is_list else f"{name}.extract 1 {name}.size"),
                ("drop-last", f"{name}.dropLast" if is_list else f"{name}.pop"),
                ("sorted", f"{name}.mergeSort" if is_list else f"{name}.qsort (· < ·)"),
                ("doubled", f"{name} ++ {name}"),
            ]
        rel = _elem(ret)
        if rel is not None and _is(rel, *_NUM) and _is(ret, t.name):  # type: ignore[union-attr]
            out.append(("zeros", f"{name}.map (fun _ => (0 : {render_type(rel)}))"))
        if el == ret:
            out += [
                ("first", f"{name}.head!" if is_list else f"{name}[0]!"),
                ("last", f"{name}.getLast!" if is_list else f"{name}.back!"),
            ]
        if _is(ret, "Option") and ret.args[0] == el:  # type: ignore[union-attr]
            out += [("first", f"{name}.head?" if is_list else f"{name}[0]?")]
        if _is(ret, "Nat"):
            out.append(("length", f"{name}.{size}"))
        if _is(ret, "Int") and _is(el, "Int"):
            out += [("sum", f"{name}.foldl (· + ·) 0")]
    # trivial synthesis from a Nat parameter
    for name, t in params:
        if _is(t, "Nat") and _elem(ret) is not None:
            el = render_type(_elem(ret))  # type: ignore[arg-type]
            rep = f"List.replicate {name} (default : {el})"
            out.append(("replicate", rep if _is(ret, "List") else f"({rep}).toArray"))
            if _is(_elem(ret), "Nat"):
                out.append(("range", f"List.range {name}" if _is(ret, "List") else f"Array.range {name}"))
    return out


def _perturbations(ret: Type) -> list[tuple[str, str]]:
    r = _R
    if _is(ret, "Int"):
        return [
            ("plus-one", f"{r} + 1"),
            ("minus-one", f"{r} - 1"),
            ("negate", f"-{r}"),
            ("double", f"{r} * 2"),
        ]
    if _is(ret, "Nat"):
        return [("plus-one", f"{r} + 1"), ("minus-one", f"{r} - 1"), ("double", f"{r} * 2")]
    if _is(ret, "Bool"):
        return [("negation", f"!{r}")]
    if _is(ret, "Float"):
        return [("plus-one", f"{r} + 1.0"), ("negate", f"-{r}")]
    if _is(ret, "String"):
        return [
            ("append", f'{r} ++ "a"'),
            ("suffix", f"{r}.drop 1"),
            ("reversed", f"String.mk {r}.data.reverse"),
        ]
    if _is(ret, "List"):
        el = render_type(ret.args[0])  # type: ignore[union-attr]
        return [
            ("reversed", f"{r}.reverse"),
            ("suffix", f"{r}.drop 1"),
            ("drop-last", f"{r}.dropLast"),
            ("append-default", f"{r} ++ [(default : {el})]"),
        ]
    if _is(ret, "Array"):
        el = render_type(ret.args[0])  # type: ignore[union-attr]
        return [
            ("reversed", f"{r}.reverse"),
            ("suffix", f"{r}.extract 1 {r}.size"),
            ("drop-last", f"{r}.pop"),
            ("append-default", f"{r}.push (default : {el})"),
        ]
    if _is(ret, "Option"):
        return [("none", "none")]
    if _is(ret, "Prod") and len(ret.args) == 2:  # type: ignore[union-attr]
        a, b = ret.args  # type: ignore[union-attr]
        out = []
        if _is(a, *_NUM):
            out.append(("fst-plus-one", f"({r}.1 + 1, {r}.2)"))
        if _is(b, *_NUM):
            out.append(("snd-plus-one", f"({r}.1, {r}.2 + 1)"))
        if a == b:
            out.append(("swap", f"({r}.2, {r}.1)"))
        return out
    return []


def _wrap_ground_truth(gt: A.Expr, ret: Type, body: str) -> str | None:
    try:
        ty = parse_expr(render_type(ret))
        b = parse_expr(body)
    except LeanError:
        return None
    return print_expr(A.Let(A.PVar(_R), ty, gt, b))


def template_adversaries(task: Any) -> list[Adversary]:
    """The template library instantiated for ``task``'s signature (deduplicated, parseable)."""
    sig = task.signature
    params = [(p.name, p.type) for p in sig.params]
    ret = sig.return_type
    items: list[tuple[str, str, str]] = []
    for name, text in _constants(ret) + _param_templates(params, ret):
        items.append((name, text, f"{name}: {text}"))
    try:
        gt: A.Expr | None = parse_expr(task.section_text("code"))
    except LeanError:
        gt = None
    if gt is not None:
        for name, body in _perturbations(ret):
            text = _wrap_ground_truth(gt, ret, body)
            if text is not None:
                items.append((f"gt-{name}", text, f"ground truth, then {body.replace(_R, 'r')}"))
    out: list[Adversary] = []
    seen: set[str] = set()
    for name, text, desc in items:
        if text in seen:
            continue
        try:
            parse_expr(text)
        except LeanError:
            continue
        seen.add(text)
        out.append(make_adversary(text, f"template:{name}", desc))
    return out
