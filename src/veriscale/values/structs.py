"""User ``structure`` declarations found in task files (e.g. ``Map K V`` of verina_basic_104).

Only what the codec needs: the structure's name, its type parameters, and its
fields with their types (which may mention the parameters as ``TVar``s). The
recognizer works line by line on declarations of the form::

    structure Map (K V : Type) [BEq K] [BEq V] where
      entries : List (K × V)
    deriving Inhabited
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .types import TCon, TFun, TVar, Type, TypeParseError, parse_type

__all__ = ["StructInfo", "parse_structures", "struct_arities", "substitute"]


@dataclass(frozen=True, slots=True)
class StructInfo:
    name: str
    params: tuple[str, ...]
    fields: tuple[tuple[str, Type], ...]

    def field_types(self, args: tuple[Type, ...]) -> tuple[tuple[str, Type], ...]:
        """Field types with the structure's parameters replaced by ``args``."""
        env = dict(zip(self.params, args))
        return tuple((name, substitute(t, env)) for name, t in self.fields)


_HEADER = re.compile(r"^structure\s+([A-Za-z_][\w.']*)(.*?)(?:\s+where)?\s*(?:--.*)?$")
_BINDER = re.compile(r"[({]\s*([^():{}\[\]]+?)\s*:\s*(?:Type|Sort)\b[^)}]*[)}]")
_FIELD = re.compile(r"^\s+([A-Za-z_][\w']*(?:\s+[A-Za-z_][\w']*)*)\s*:\s*(.+?)\s*$")


def substitute(t: Type, env: dict[str, Type]) -> Type:
    if isinstance(t, TVar):
        return env.get(t.name, t)
    if isinstance(t, TFun):
        return TFun(substitute(t.arg, env), substitute(t.res, env))
    return TCon(t.name, tuple(substitute(a, env) for a in t.args))


def struct_arities(structs: dict[str, StructInfo] | None) -> dict[str, int]:
    return {name: len(info.params) for name, info in (structs or {}).items()}


def parse_structures(lean_text: str) -> dict[str, StructInfo]:
    """Find ``structure`` declarations in Lean source.

    Declarations whose field types are outside the type grammar are skipped:
    values of such a structure then fail to decode with "unknown type".
    """
    lines = lean_text.splitlines()
    found: dict[str, StructInfo] = {}
    i = 0
    while i < len(lines):
        m = _HEADER.match(lines[i])
        i += 1
        if not m or "where" not in lines[i - 1]:
            continue
        name, binders = m.group(1), m.group(2)
        params: list[str] = []
        for b in _BINDER.finditer(binders):
            params.extend(b.group(1).split())
        raw_fields: list[tuple[str, str]] = []
        while i < len(lines):
            line = lines[i].split("--", 1)[0].rstrip()
            if not line.strip():
                i += 1
                continue
            if not line[0].isspace():
                break
            i += 1
            if line.strip().endswith("::"):  # a custom constructor name (`mk ::`)
                continue
            fm = _FIELD.match(line)
            if fm:
                type_text = fm.group(2).split(":=", 1)[0].strip()
                for fname in fm.group(1).split():
                    raw_fields.append((fname, type_text))
        arities = struct_arities(found) | {name: len(params)}
        try:
            fields = tuple(
                (fname, parse_type(text, structs=arities, type_vars=set(params)))
                for fname, text in raw_fields
            )
        except TypeParseError:
            continue
        found[name] = StructInfo(name, tuple(params), fields)
    return found
