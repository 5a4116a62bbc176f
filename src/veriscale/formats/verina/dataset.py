"""Reading and writing Verina-format dataset directories.

A dataset is a directory of task directories, each holding ``task.json``,
``description.txt``, ``task.lean``, ``test.json`` and ``reject_inputs.json``
(file names as given in ``task.json``). Reading keeps every file's content
(``task.lean`` and ``description.txt`` verbatim), so writing a task back gives
a byte-identical ``task.lean`` and JSON files with equal data.

Values stay raw JSON here; the ``decode_*`` helpers decode them strictly on
demand, so one bad value never stops a task from being read.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ...languages.lean.sections import Section, SectionError, parse_sections
from ...runtime.files import atomic_write_bytes as _atomic_write
from ...values.codec import DecodeError, ValueContext, decode
from ...values.structs import StructInfo, parse_structures, struct_arities
from ...values.types import STRING, Type, TypeParseError, parse_type
from ..api import FormatError

__all__ = [
    "FEWSHOT_IDS",
    "DatasetError",
    "Param",
    "RejectInput",
    "Section",
    "Signature",
    "Task",
    "TestCase",
    "discover_task_dirs",
    "read_dataset",
    "read_task",
    "task_sort_key",
    "write_dataset",
    "write_task",
]

# the two tasks Verina's harness uses as few-shot examples (left out of its scores)
FEWSHOT_IDS: tuple[str, ...] = ("verina_basic_15", "verina_basic_44")

_DEFAULT_FILES = {
    "lean_file": "task.lean",
    "description_file": "description.txt",
    "test_file": "test.json",
    "reject_inputs_file": "reject_inputs.json",
}


class DatasetError(FormatError):
    """A dataset file that cannot be read; names the file and, when known, task, row and field."""

    def __init__(
        self,
        msg: str,
        *,
        file: Path | str | None = None,
        task: str | None = None,
        row: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(msg)
        self.msg = msg
        self.file = str(file) if file is not None else None
        self.task = task
        self.row = row
        self.field = field

    def __str__(self) -> str:
        where = [self.file or "?"]
        if self.task:
            where.append(f"task {self.task}")
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.field:
            where.append(f"field {self.field}")
        return f"{', '.join(where)}: {self.msg}"


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type_str: str
    type: Type


@dataclass(frozen=True, slots=True)
class Signature:
    name: str
    params: tuple[Param, ...]
    return_type_str: str
    return_type: Type

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)


@dataclass(slots=True)
class TestCase:
    """One row of ``test.json``, raw JSON. ``unexpected`` is None when the row has no such key."""

    __test__ = False  # not a pytest test class

    input: dict[str, Any]
    expected: Any
    unexpected: list[Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        row: dict[str, Any] = {"input": self.input, "expected": self.expected}
        if self.unexpected is not None:
            row["unexpected"] = self.unexpected
        row.update(self.extra)
        return row

    def decode_input(self, task: Task, row: int | None = None) -> dict[str, Any]:
        return task.decode_input(self.input, file=task.files["test_file"], row=row)

    def decode_expected(self, task: Task, row: int | None = None) -> Any:
        return task.decode_output(self.expected, file=task.files["test_file"], row=row, field="expected")

    def decode_unexpected(self, task: Task, row: int | None = None) -> list[Any]:
        return [
            task.decode_output(u, file=task.files["test_file"], row=row, field=f"unexpected[{i}]")
            for i, u in enumerate(self.unexpected or [])
        ]


@dataclass(slots=True)
class RejectInput:
    """One row of ``reject_inputs.json``: an input that violates the ground-truth precondition."""

    input: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"input": self.input, **self.extra}

    def decode_input(self, task: Task, row: int | None = None) -> dict[str, Any]:
        return task.decode_input(self.input, file=task.files["reject_inputs_file"], row=row)


@dataclass(eq=True)
class Task:
    id: str
    dir: Path = field(compare=False)
    signature: Signature
    description: str
    task_json: dict[str, Any]
    lean_text: str
    sections: list[Section]
    tests: list[TestCase]
    reject_inputs: list[RejectInput]
    structs: dict[str, StructInfo] = field(default_factory=dict, compare=False)
    # the language plug-in (``languages.registry``) that runs this task's sections
    language: ClassVar[str] = "lean"

    @property
    def dataset(self) -> str:
        return self.dir.parent.name

    @property
    def files(self) -> dict[str, str]:
        """Relative file names (``lean_file``, ``test_file``, ...), as ``task.json`` names them."""
        return {k: _rel_name(self.task_json.get(k), d) for k, d in _DEFAULT_FILES.items()}

    def section_text(self, name: str, **args: str) -> str:
        """Concatenated text of the sections called ``name`` whose arguments include ``args`` ("" if none)."""
        return "".join(
            s.text
            for s in self.sections
            if s.name == name and all(s.args.get(k) == v for k, v in args.items())
        )

    def value_ctx(self, file: str, row: int | None = None, field: str | None = None) -> ValueContext:
        return ValueContext(dataset=self.dataset, task=self.id, file=file, row=row, field=field)

    def decode_input(self, raw: dict[str, Any], *, file: str, row: int | None = None) -> dict[str, Any]:
        """Decode an ``input`` object strictly: every parameter present, no unknown keys."""
        known = {p.name for p in self.signature.params}
        for name, value in raw.items():
            if name not in known:
                ctx = self.value_ctx(file, row, f"input.{name}")
                raise DecodeError("unknown input parameter").located(ctx, value)
        out: dict[str, Any] = {}
        for p in self.signature.params:
            if p.name not in raw:
                ctx = self.value_ctx(file, row, f"input.{p.name}")
                raise DecodeError("missing input parameter").located(ctx)
            out[p.name] = self.decode_param(p.name, raw[p.name], file=file, row=row)
        return out

    def decode_param(self, name: str, raw: Any, *, file: str, row: int | None = None) -> Any:
        """Decode one input parameter's value."""
        try:
            return decode(self.signature.param(name).type, raw, structs=self.structs)
        except DecodeError as err:  # the location is only built when needed: decoding is hot
            raise err.located(self.value_ctx(file, row, f"input.{name}")) from None

    def decode_output(self, raw: Any, *, file: str, row: int | None = None, field: str = "expected") -> Any:
        try:
            if isinstance(raw, str) and "\\" in raw and self.signature.return_type == STRING:
                # Outputs computed by printing with Lean (VerinaPlus/Lite) keep Lean's escapes without
                # the quotes, so a backslash may be raw text or half of an escape: refuse to guess.
                raise DecodeError(
                    "String output contains a backslash (raw text or Lean's escaped print form?)", text=raw
                )
            return decode(self.signature.return_type, raw, structs=self.structs)
        except DecodeError as err:
            raise err.located(self.value_ctx(file, row, field)) from None


def _rel_name(value: Any, default: str) -> str:
    if not isinstance(value, str) or not value.strip():
        return default
    return value[2:] if value.startswith("./") else value


# ---------------------------------------------------------------- reading


def _read_text(path: Path, task: str | None) -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise DatasetError("missing file", file=path, task=task) from None
    except UnicodeDecodeError as err:
        raise DatasetError(
            f"not UTF-8 text ({err.reason} at byte {err.start})", file=path, task=task
        ) from None
    except OSError as err:
        raise DatasetError(f"cannot read file ({err.strerror})", file=path, task=task) from None
    except ValueError as err:  # e.g. a file name from task.json with a NUL byte
        raise DatasetError(f"bad file name ({err})", file=path, task=task) from None


def _read_json(path: Path, task: str | None, *, missing_ok: bool = False) -> Any:
    if missing_ok and not path.exists():
        return None
    text = _read_text(path, task)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise DatasetError(
            f"bad JSON: {err.msg} at line {err.lineno} column {err.colno}", file=path, task=task
        ) from None


def _parse_signature(tj: dict[str, Any], path: Path, task: str, structs: dict[str, int]) -> Signature:
    sig = tj.get("signature")
    if not isinstance(sig, dict):
        raise DatasetError("missing or malformed 'signature'", file=path, task=task, field="signature")

    def typ(text: Any, fld: str) -> Type:
        if not isinstance(text, str):
            raise DatasetError("type is not a string", file=path, task=task, field=fld)
        try:
            return parse_type(text, structs=structs)
        except TypeParseError as err:
            raise DatasetError(str(err), file=path, task=task, field=fld) from None

    params: list[Param] = []
    raw_params = sig.get("parameters")
    if not isinstance(raw_params, list):
        raise DatasetError("missing 'parameters' list", file=path, task=task, field="signature.parameters")
    for i, p in enumerate(raw_params):
        fld = f"signature.parameters[{i}]"
        if not isinstance(p, dict) or not isinstance(p.get("param_name"), str):
            raise DatasetError(
                "malformed parameter (needs param_name, param_type)", file=path, task=task, field=fld
            )
        params.append(
            Param(p["param_name"], p.get("param_type"), typ(p.get("param_type"), f"{fld}.param_type"))
        )
    name = sig.get("name")
    if not isinstance(name, str) or not name:
        raise DatasetError("missing function name", file=path, task=task, field="signature.name")
    rt = sig.get("return_type")
    return Signature(name, tuple(params), rt, typ(rt, "signature.return_type"))


def _rows(data: Any, path: Path, task: str, keys: tuple[str, ...]) -> list[dict[str, Any]]:
    if data is None:
        return []
    if not isinstance(data, list):
        raise DatasetError("expected a JSON list of rows", file=path, task=task)
    for i, row in enumerate(data):
        if not isinstance(row, dict):
            raise DatasetError("row is not a JSON object", file=path, task=task, row=i)
        for k in keys:
            if k not in row:
                raise DatasetError(f"row has no {k!r}", file=path, task=task, row=i, field=k)
        if not isinstance(row["input"], dict):
            raise DatasetError("'input' is not a JSON object", file=path, task=task, row=i, field="input")
        if "unexpected" in row and not isinstance(row["unexpected"], list):
            raise DatasetError("'unexpected' is not a list", file=path, task=task, row=i, field="unexpected")
    return data


def read_task(dir: Path | str) -> Task:
    """Read one task directory; raises ``DatasetError`` naming the file (and task/row/field) on bad input."""
    d = Path(dir)
    tj_path = d / "task.json"
    tj = _read_json(tj_path, d.name)
    if not isinstance(tj, dict):
        raise DatasetError("task.json is not a JSON object", file=tj_path, task=d.name)
    task_id = tj.get("id")
    if not isinstance(task_id, str) or not task_id:
        raise DatasetError("missing 'id'", file=tj_path, task=d.name, field="id")
    files = {k: _rel_name(tj.get(k), dflt) for k, dflt in _DEFAULT_FILES.items()}

    lean_path = d / files["lean_file"]
    lean_text = _read_text(lean_path, task_id)
    try:
        sections = parse_sections(lean_text)
    except SectionError as err:
        raise DatasetError(f"{err.msg} (line {err.line})", file=lean_path, task=task_id) from None
    if not any(s.name == "code" and not s.is_blank for s in sections):
        raise DatasetError("no non-empty 'code' section", file=lean_path, task=task_id)
    structs = parse_structures("".join(s.text for s in sections))
    signature = _parse_signature(tj, tj_path, task_id, struct_arities(structs))
    description = _read_text(d / files["description_file"], task_id)

    test_path = d / files["test_file"]
    tests = [
        TestCase(
            r["input"],
            r["expected"],
            r.get("unexpected"),
            {k: v for k, v in r.items() if k not in ("input", "expected", "unexpected")},
        )
        for r in _rows(
            _read_json(test_path, task_id, missing_ok=True), test_path, task_id, ("input", "expected")
        )
    ]
    rej_path = d / files["reject_inputs_file"]
    rejects = [
        RejectInput(r["input"], {k: v for k, v in r.items() if k != "input"})
        for r in _rows(_read_json(rej_path, task_id, missing_ok=True), rej_path, task_id, ("input",))
    ]
    return Task(task_id, d, signature, description, tj, lean_text, sections, tests, rejects, structs)


_TRAILING_INT = re.compile(r"(\d+)$")


def task_sort_key(name: str) -> tuple[int, str]:
    """Verina's order: by the trailing integer of the name (basic/advanced interleave), then by name."""
    m = _TRAILING_INT.search(name)
    return (int(m.group(1)) if m else -1, name)


def discover_task_dirs(root: Path | str) -> list[Path]:
    """Task directories of a dataset, in Verina's order.

    A subdirectory is a task if it holds ``task.json`` or is named ``verina_*``
    (the latter without ``task.json`` makes reading it fail with "missing file").
    """
    r = Path(root)
    if not r.is_dir():
        raise DatasetError("not a dataset directory", file=r)
    dirs = [
        p for p in r.iterdir() if p.is_dir() and ((p / "task.json").exists() or p.name.startswith("verina_"))
    ]
    return sorted(dirs, key=lambda p: task_sort_key(p.name))


def read_dataset(root: Path | str) -> list[Task]:
    return [read_task(d) for d in discover_task_dirs(root)]


# ---------------------------------------------------------------- writing


def _json_bytes(obj: Any) -> bytes:
    return (json.dumps(obj, indent=4, ensure_ascii=False) + "\n").encode("utf-8")


def write_task(task: Task, dir: Path | str) -> None:
    """Write a task directory (``task.lean`` and ``description.txt`` byte for byte as read)."""
    d = Path(dir)
    d.mkdir(parents=True, exist_ok=True)
    files = task.files
    _atomic_write(d / "task.json", _json_bytes(task.task_json))
    _atomic_write(d / files["lean_file"], task.lean_text.encode("utf-8"))
    _atomic_write(d / files["description_file"], task.description.encode("utf-8"))
    _atomic_write(d / files["test_file"], _json_bytes([t.to_json() for t in task.tests]))
    _atomic_write(d / files["reject_inputs_file"], _json_bytes([r.to_json() for r in task.reject_inputs]))


def write_dataset(tasks: list[Task], root: Path | str) -> None:
    r = Path(root)
    r.mkdir(parents=True, exist_ok=True)
    for t in tasks:
        write_task(t, r / t.id)
