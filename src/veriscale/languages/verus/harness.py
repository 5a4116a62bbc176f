"""Generated Rust programs that run reference (or candidate) code on many inputs.

Two shapes:

* **JSON-lines harness** (``json_harness``): ``struct Solution;`` when the code
  lacks it, the vstd shims, the code verbatim, the ``__vs`` JSON module and a
  ``main`` that reads one JSON array of arguments per line (positional, in
  the order of ``input_params``) and prints one JSON object per line:
  ``{"ok": <result>, "us": <µs>}``, ``{"panic": "<message>"}`` or
  ``{"bad": "<why the input does not decode>"}``. For ``&self`` methods the
  arguments are the constructor's then the method's, and the result is
  ``[<self>, <result>]`` (``self`` is ``null`` when its struct cannot be written).
  LeetCode wraps ``code.rs``; Codeforces can wrap the ``impl`` of ``main.rs``
  (``strip_main``) to run the function on structured inputs.
* **Traced program** (``traced_program``): a Codeforces ``main.rs`` unchanged
  except that the target method is wrapped so every outermost call appends
  ``{"args": [...], "ret": ...}`` to the file named by ``$VERISCALE_TRACE``:
  the function-level inputs and outputs behind a stdin/stdout example, which
  the specification evaluator needs.

Both link the ``__vs`` support crate (``prelude.PRELUDE_LIB``, compiled once
by ``compile``) unless ``inline_prelude`` asks for a self-contained program.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from ...values.rust_types import INT_RANGES, parse_rust_type, render_rust_type, value_type
from ...values.types import UNIT, TCon, Type, TypeParseError
from .items import scan_items
from .prelude import EXTERN_LINE, JSON_MODULE, SHIMS

__all__ = [
    "HarnessError",
    "call_params",
    "json_harness",
    "strip_main",
    "traced_program",
]

Structs = Mapping[str, Sequence[tuple[str, Type]]]


class HarnessError(ValueError):
    """The code cannot be wrapped (target fn missing, unsupported parameter type)."""


def _supported(t: Type, structs: Structs, seen: frozenset[str] = frozenset()) -> bool:
    if not isinstance(t, TCon):
        return False
    if t.name in INT_RANGES or t.name in ("bool", "char", "String") or t == UNIT:
        return True
    if t.name in ("Vec", "Option", "Tuple"):
        return all(_supported(a, structs, seen) for a in t.args)
    if t.name in structs and t.name not in seen:
        return all(_supported(value_type(ft), structs, seen | {t.name}) for _, ft in structs[t.name])
    return False


def _struct_impls(structs: Structs, wanted: set[str]) -> str:
    """``FromJ``/``ToJ`` impls (JSON objects by field name) for the wanted user structs."""
    out: list[str] = []
    for name in sorted(wanted):
        fields = structs[name]
        if not _supported(TCon(name), structs):
            continue
        inits = ", ".join(f"{f}: __vs::field(j, {json.dumps(f)})?" for f, _ in fields)
        writes = []
        for k, (f, _) in enumerate(fields):
            sep = "," if k else ""
            writes.append(f'o.push_str("{sep}\\"{f}\\":"); __vs::ToJ::to_j(&self.{f}, o);')
        out.append(
            f"impl __vs::FromJ for {name} {{\n"
            f"    fn from_j(j: &__vs::J) -> Result<Self, String> {{ Ok({name} {{ {inits} }}) }}\n"
            f"}}\n"
            f"impl __vs::ToJ for {name} {{\n"
            f"    fn to_j(&self, o: &mut String) {{ o.push('{{'); {' '.join(writes)} o.push('}}'); }}\n"
            f"}}\n"
        )
    return "\n".join(out)


def _structs_in(t: Type, structs: Structs, acc: set[str]) -> None:
    if isinstance(t, TCon):
        if t.name in structs and t.name not in acc:
            acc.add(t.name)
            for _, ft in structs[t.name]:
                _structs_in(ft, structs, acc)
        for a in t.args:
            _structs_in(a, structs, acc)


def call_params(
    params: Sequence[tuple[str, Type]], ctor: Sequence[tuple[str, Type]] | None
) -> list[tuple[str, Type]]:
    """The positional argument list a harness reads: constructor parameters first."""
    return [*(ctor or ()), *params]


def _arg_expr(k: int, t: Type) -> str:
    if isinstance(t, TCon) and t.name == "Ref":
        return f"&a{k}"
    if isinstance(t, TCon) and t.name == "RefMut":
        return f"&mut a{k}"
    return f"a{k}"


def defines_solution(src: str) -> bool:
    try:
        items = scan_items(src)
    except ValueError:
        return "struct Solution" in src
    return any(s.name == "Solution" for s in items.structs)


def json_harness(
    code: str,
    fn_name: str,
    params: Sequence[tuple[str, Type]],
    ret: Type,
    *,
    owner: str | None = None,
    receiver: str | None = None,
    ctor_params: Sequence[tuple[str, Type]] | None = None,
    structs: Structs | None = None,
    inline_prelude: bool = False,
) -> str:
    """A JSON-lines harness program around ``code`` calling ``fn_name``.

    ``params`` are (name, type as written); the harness reads their value
    types and passes borrows as written. ``owner`` is the ``impl`` type
    (default ``Solution``); with ``receiver``, ``owner::new(ctor_params…)``
    builds the object first.
    """
    structs = structs or {}
    all_params = call_params(params, ctor_params if receiver else None)
    used: set[str] = set()
    for _, t in all_params:
        vt = value_type(t)
        if not _supported(vt, structs):
            raise HarnessError(f"unsupported parameter type {render_rust_type(t)}")
        _structs_in(vt, structs, used)
    owner = owner or "Solution"
    if receiver and owner in structs:
        _structs_in(TCon(owner), structs, used)
    lines = ["fn __vs_call(args: &[__vs::J]) -> Result<String, String> {"]
    for k, (name, t) in enumerate(all_params):
        ty = render_rust_type(value_type(t))
        lines.append(f"    let mut a{k}: {ty} = __vs::arg(args, {k}, {json.dumps(name)})?;")
    nctor = len(ctor_params or ()) if receiver else 0
    margs = ", ".join(_arg_expr(k, t) for k, (_, t) in enumerate(all_params) if k >= nctor)
    lines.append("    let mut o = String::new();")
    # in-place targets print {"return": r, "after": {name: final value}} (see rust.inplace)
    muts = [(k, name) for k, (name, t) in enumerate(all_params)
            if k >= nctor and isinstance(t, TCon) and t.name == "RefMut"]  # fmt: skip
    mut_self = receiver is not None and receiver.replace(" ", "") == "&mutself"
    if mut_self and not (owner in structs and _supported(TCon(owner), structs)):
        raise HarnessError(f"&mut self target: the final value of {owner} cannot be written")
    if receiver:
        cargs = ", ".join(_arg_expr(k, t) for k, (_, t) in enumerate(all_params) if k < nctor)
        lines.append(f"    let mut obj = {owner}::new({cargs});")
        lines.append("    o.push('[');")
        if owner in structs and _supported(TCon(owner), structs):
            lines.append("    __vs::ToJ::to_j(&obj, &mut o);")
        else:
            lines.append('    o.push_str("null");')
        lines.append("    o.push(',');")
        lines.append(f"    let r = obj.{fn_name}({margs});")
    else:
        lines.append(f"    let r = {owner}::{fn_name}({margs});")
    if muts or mut_self:
        lines.append('    o.push_str("{\\"return\\":");')
        lines.append("    __vs::ToJ::to_j(&r, &mut o);")
        lines.append('    o.push_str(",\\"after\\":{");')
        entries = [(f"a{k}", name) for k, name in muts] + ([("obj", "self")] if mut_self else [])
        for j, (var, name) in enumerate(entries):
            key = json.dumps(name).replace("\\", "\\\\").replace('"', '\\"')
            lines.append(f'    o.push_str("{"," if j else ""}{key}:");')
            lines.append(f"    __vs::ToJ::to_j(&{var}, &mut o);")
        lines.append('    o.push_str("}}");')
    else:
        lines.append("    __vs::ToJ::to_j(&r, &mut o);")
    if receiver:
        lines.append("    o.push(']');")
    lines.append("    Ok(o)")
    lines.append("}")
    lines.append("fn main() {")
    lines.append(f"    __vs::run_lines(__vs_call, {len(all_params)});")
    lines.append("}")
    del ret
    head = "#![allow(warnings)]\n"
    if not defines_solution(code):
        head += "pub struct Solution;\n"
    prelude = JSON_MODULE if inline_prelude else EXTERN_LINE
    return "\n".join([head, SHIMS, code, prelude, _struct_impls(structs, used), "\n".join(lines), ""])


def strip_main(src: str) -> str:
    """``src`` without its top-level ``fn main`` (to wrap a Codeforces program's functions)."""
    items = scan_items(src)
    for f in items.fns:
        if f.name == "main" and f.owner is None:
            a = items.toks[f.start].start
            b = items.toks[f.end - 1].end
            return src[:a] + src[b:]
    return src


def traced_program(main_src: str, fn_name: str, owner: str = "Solution", inline_prelude: bool = False) -> str:
    """``main_src`` with ``owner::fn_name`` wrapped to trace its outermost calls (see module doc)."""
    items = scan_items(main_src)
    f = items.fn(fn_name, owner)
    if f is None:
        raise HarnessError(f"no fn {owner}::{fn_name} in the program")
    if f.receiver:
        raise HarnessError("tracing methods with a receiver is not supported")
    params: list[tuple[str, str]] = []
    for p in f.params:
        try:
            parse_rust_type(p.type_text)
        except TypeParseError as exc:
            raise HarnessError(f"parameter {p.name}: {exc}") from None
        params.append((p.name, p.type_text))
    ret = f.ret_type or "()"
    name_tok = items.toks[f.fn_index + 1]
    orig = f"__vs_orig_{fn_name}"
    decl = ", ".join(f"{n}: {t}" for n, t in params)
    comma = "__vs_a.push(',');"
    to_j = "\n".join(
        f"        {comma if k else ''} __vs::ToJ::to_j(&{n}, &mut __vs_a);" for k, (n, _) in enumerate(params)
    )
    call = ", ".join(n for n, _ in params)
    wrapper = (
        f"    pub fn {fn_name}({decl}) -> {ret} {{\n"
        f"        let __vs_top = __vs::enter();\n"
        f"        let mut __vs_a = String::new();\n"
        f"        if __vs_top {{\n"
        f"        __vs_a.push('[');\n{to_j}\n        __vs_a.push(']');\n"
        f"        }}\n"
        f"        let __vs_r = Self::{orig}({call});\n"
        f"        __vs::leave();\n"
        f"        if __vs_top {{\n"
        f"            let mut __vs_o = String::new();\n"
        f"            __vs::ToJ::to_j(&__vs_r, &mut __vs_o);\n"
        f"            __vs::trace(&__vs_a, &__vs_o);\n"
        f"        }}\n"
        f"        __vs_r\n"
        f"    }}\n"
    )
    start = items.toks[f.start].start
    text = main_src[:start] + wrapper + main_src[start : name_tok.start] + orig + main_src[name_tok.end :]
    return "#![allow(warnings)]\n" + text + "\n" + (JSON_MODULE if inline_prelude else EXTERN_LINE) + "\n"
