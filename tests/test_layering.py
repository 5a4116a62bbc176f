"""The import rules of the architecture, read from every module with ``ast``.

The declared order lives in ``LAYERS`` below (bottom first) and is drawn in
docs/architecture.md; ``test_architecture_doc_shows_the_declared_order`` keeps the two equal.

Rules:
1. a module imports only its own layer or layers below it;
2. no cycle between packages (top-level packages and their sub-packages);
3. a plug-in (``languages.X``, ``formats.X``) imports no other plug-in of its kind and not
   its kind's registry; a format plug-in may import the language it is written in;
4. outside ``languages``/``formats``, a language plug-in is reached only through the core
   (``languages.api``, ``languages.registry``, …); the commands (``cli``) reach formats only
   through ``formats.registry``/``formats.api`` too. (The suite pipeline, builders and the
   Verina evaluation harness are written for the Verina task model and may import it.)
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

from shared_data import DOCS_DIR, SRC_DIR

SRC = SRC_DIR
DOC = DOCS_DIR / "architecture.md"

# Bottom first. A layer may import itself and anything listed before it.
LAYERS: tuple[str, ...] = (
    "values",
    "runtime",
    "sandbox",
    "languages",
    "formats",
    "llm",
    "reduce",
    "evaluate",
    "builders",
    "pipeline",
    "report",
    "cli",
)
# Packages that hold no logic of a layer: data files and the entry point.
UNLAYERED = {"__init__": 0, "examples": 0, "__main__": len(LAYERS)}
PLUGIN_KINDS = ("languages", "formats")
# Layers that reach every plug-in (formats too) only through the core.
CORE_ONLY = {"cli"}
# The language each format plug-in is written in (it may import that plug-in).
FORMAT_LANGUAGE = {"verina": "lean", "vericontest": "verus"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports_of(path: Path, mod: str | None = None) -> list[tuple[str, int]]:
    """Absolute ``veriscale.…`` modules imported by ``path`` (relative imports resolved), with lines.

    ``mod`` is the module's dotted name (default: from its place under ``src/``)."""
    mod = mod or _module_name(path)
    package = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
    out: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target.startswith("veriscale"):
                # ``from pkg import sub`` imports the sub-module when there is one
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    out.append((sub if _is_module(sub) else target, node.lineno))
        elif isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names if a.name.startswith("veriscale")]
    return out


def _is_module(name: str) -> bool:
    rel = Path(*name.split(".")[1:])
    return (SRC / rel).with_suffix(".py").exists() or (SRC / rel / "__init__.py").exists()


def all_modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(SRC.rglob("*.py"))}


def _layer(mod: str) -> int:
    top = mod.split(".")[1] if "." in mod else "__init__"
    if top in UNLAYERED:
        return UNLAYERED[top]
    if top.endswith(".py"):
        top = top[:-3]
    if top not in LAYERS:
        raise AssertionError(f"{mod}: package {top!r} is not in LAYERS (declare it)")
    return LAYERS.index(top)


def _plugin(mod: str) -> tuple[str, str] | None:
    """(kind, plug-in name) when ``mod`` lies inside a plug-in package."""
    parts = mod.split(".")
    if len(parts) >= 3 and parts[1] in PLUGIN_KINDS:
        if (SRC / parts[1] / parts[2] / "__init__.py").exists():
            return parts[1], parts[2]
    return None


def violations(modules: dict[str, Path] | None = None) -> list[str]:
    """Every import against rules 1, 3 and 4, as ``module:line -> target: why``."""
    found: list[str] = []
    for mod, path in (modules or all_modules()).items():
        src_layer = _layer(mod)
        src_plugin = _plugin(mod)
        for target, line in imports_of(path, mod):
            where = f"{mod}:{line} -> {target}"
            if target == "veriscale":
                continue
            if not _is_module(target) and not _is_module(target.rsplit(".", 1)[0]):
                found.append(f"{where}: no such module")
                continue
            if _layer(target) > src_layer:
                found.append(f"{where}: upward import ({LAYERS[_layer(target)]} above {LAYERS[src_layer]})")
                continue
            tgt_plugin = _plugin(target)
            tparts = target.split(".")
            if src_plugin:
                kind, name = src_plugin
                if tgt_plugin and tgt_plugin != src_plugin:
                    if not (kind == "formats" and tgt_plugin == ("languages", FORMAT_LANGUAGE.get(name, ""))):
                        found.append(f"{where}: a plug-in imports another plug-in")
                if len(tparts) >= 3 and tparts[1] == kind and tparts[2] == "registry":
                    found.append(f"{where}: a plug-in imports its registry")
            elif tgt_plugin and mod.split(".")[1] != tgt_plugin[0]:
                if tgt_plugin[0] == "languages" or mod.split(".")[1] in CORE_ONLY:
                    found.append(f"{where}: reaches into a plug-in instead of its kind's core")
    return found


def package_cycles(modules: dict[str, Path] | None = None) -> list[list[str]]:
    """Cycles in the graph of packages (each module's parent package), by Tarjan's algorithm."""
    graph: dict[str, set[str]] = defaultdict(set)
    for mod, path in (modules or all_modules()).items():
        src_pkg = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
        for target, _ in imports_of(path):
            tgt_pkg = target if _is_package(target) else target.rsplit(".", 1)[0]
            # a package importing its own sub-package (or the reverse) is containment, not a cycle
            if tgt_pkg == src_pkg or tgt_pkg.startswith(src_pkg + ".") or src_pkg.startswith(tgt_pkg + "."):
                continue
            graph[src_pkg].add(tgt_pkg)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _is_package(name: str) -> bool:
    return (SRC / Path(*name.split(".")[1:]) / "__init__.py").exists()


def test_no_import_against_the_layer_order() -> None:
    found = violations()
    assert not found, "imports against the architecture:\n" + "\n".join(found)


def test_no_cycle_between_packages() -> None:
    cycles = package_cycles()
    assert not cycles, "package cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def _with_line(tmp_path: Path, module: str, line: str) -> dict[str, Path]:
    """``module``'s source plus one line, as a file standing in for it (relative imports resolve
    as if it were at its real place)."""
    real = SRC.joinpath(*module.split(".")[1:]).with_suffix(".py")
    copy = tmp_path / real.name
    copy.write_text(real.read_text(encoding="utf-8") + "\n" + line + "\n", encoding="utf-8")
    return {module: copy}


def test_an_upward_import_is_caught(tmp_path: Path) -> None:
    """The checker itself: an import from ``values`` up into ``pipeline`` must be reported."""
    assert not violations(_with_line(tmp_path, "veriscale.values.codec", "import json"))
    found = violations(_with_line(tmp_path, "veriscale.values.codec", "from ..pipeline import rundir"))
    assert len(found) == 1 and "upward import" in found[0] and "veriscale.pipeline.rundir" in found[0]


def test_reaching_into_a_language_plugin_is_caught(tmp_path: Path) -> None:
    line = "from ..languages.lean.native import NativeEngine"
    found = violations(_with_line(tmp_path, "veriscale.pipeline.scale", line))
    assert len(found) == 1 and "instead of its kind's core" in found[0]


def test_a_plugin_importing_another_plugin_is_caught(tmp_path: Path) -> None:
    found = violations(_with_line(tmp_path, "veriscale.languages.verus.engine", "from ..lean import errors"))
    assert len(found) == 1 and "another plug-in" in found[0]


def test_architecture_doc_shows_the_declared_order() -> None:
    if not DOC.exists():
        pytest.skip("docs/architecture.md is absent")
    block = re.search(r"```text\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block, "docs/architecture.md has no ```text diagram of the layers"
    names = [ln.split()[0] for ln in block.group(1).splitlines() if ln.strip() and ln[0].isalpha()]
    assert tuple(reversed(names)) == LAYERS, "the diagram must list LAYERS top first"
