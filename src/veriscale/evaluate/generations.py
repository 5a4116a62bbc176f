"""Model outputs to evaluate: the generations JSONL format, its strict reader, and converters.

Format (UTF-8 JSON Lines; one JSON object per line; blank lines are ignored)
----------------------------------------------------------------------------
One line per task id and sample index (and model, when several share a file)::

    {"task_id": "verina_basic_1", "sample": 0, "kind": "spec",
     "imports": "", "precond_aux": "", "precond": "True",
     "postcond_aux": "", "postcond": "(result → a * b < 0) ∧ ..."}

Fields (all text fields are strings holding Lean source, pasted like Verina's
harness pastes an artifact's fields: a body gets two spaces of indentation
unless it already starts with two spaces):

=================  ========================================================
``task_id``        required; a task directory's id, e.g. ``verina_basic_1``
``sample``         sample index, an integer >= 0 (default 0)
``kind``           optional; ``"spec"``, ``"code"``, ``"proof"`` or a list of
                   them (``specgen``/``codegen``/``proofgen`` are accepted)
``precond``        SpecGen: body of ``f_precond`` (required for spec)
``precond_aux``    SpecGen: definitions before it (default "")
``postcond``       SpecGen: body of ``f_postcond`` (required for spec)
``postcond_aux``   SpecGen: definitions before it (default "")
``code``           CodeGen: body of the implementation (required for code)
``code_aux``       CodeGen: definitions before it (default "")
``proof``          ProofGen: tactic body of the correctness theorem (required)
``proof_aux``      ProofGen: lemmas before it (default "")
``imports``        import lines the sample needs (default "")
``model``          optional label; samples of different models are scored apart
``meta``           optional, any JSON; carried along, never interpreted
=================  ========================================================

Presence rule: with ``kind``, every listed kind's required fields must be
present and no field of an unlisted kind may appear. Without ``kind``, the
kinds are those whose fields appear (any of precond/postcond and their aux →
spec, code/code_aux → code, proof/proof_aux → proof), and each must then be
complete. A line with several kinds is scored for each (as Verina's combined
tasks are scored per part). Unknown fields, wrong types, and a repeated
(model, task_id, sample) are errors.

Reading is strict but never stops early: every bad line is reported as a
``GenerationError`` naming file, line and field, skipped, and the rest is read.

Converting Verina's own output folders (best effort)
----------------------------------------------------
``convert_verina_output`` reads the harness's ``rounds_report_<unix time>.json``
(the newest one in a folder, or a given file). Assumed layout, from
sunblaze-ucb/verina ``benchmark/report.py``: ``{"config": {...}, "rounds":
{"<round>": {"data_reports": {"<task id>": {"task_reports": {"<task name>":
{"task_flags": {"code", "spec", "proof"}, "artifact": {imports, code_aux, code,
precond_aux, precond, postcond_aux, postcond, proof_aux, proof},
"fewshot_example_names": [...]}}}}}}}``. The round number becomes the sample
index. Several task reports of one datapoint (e.g. ``execute_spec_gen`` and
``execute_code_gen``) merge into one line; when two reports provide the same
kind, the standalone task (one flag set) wins, then the first task name in
sorted order; their import lines are merged (the Lean engine sees all of them;
the native engine ignores imports). The few-shot ids of the reports are
returned so they can be excluded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..languages.registry import language

SECTION_DEFAULTS = language("lean").section_defaults  # type: ignore[attr-defined]  # Verina tasks are Lean

__all__ = [
    "KINDS",
    "KIND_FIELDS",
    "TEXT_FIELDS",
    "Generation",
    "GenerationError",
    "GenerationSet",
    "VerinaConversion",
    "convert_verina_output",
    "ground_truth_generation",
    "parse_generations",
    "read_generations",
    "write_generations",
]

KINDS: tuple[str, ...] = ("spec", "code", "proof")
KIND_FIELDS: dict[str, tuple[str, ...]] = {
    "spec": ("precond_aux", "precond", "postcond_aux", "postcond"),
    "code": ("code_aux", "code"),
    "proof": ("proof_aux", "proof"),
}
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    "spec": ("precond", "postcond"),
    "code": ("code",),
    "proof": ("proof",),
}
TEXT_FIELDS: tuple[str, ...] = ("imports", *(f for k in KINDS for f in KIND_FIELDS[k]))
_KIND_ALIASES = {
    "spec": "spec",
    "specgen": "spec",
    "spec_gen": "spec",
    "code": "code",
    "codegen": "code",
    "code_gen": "code",
    "proof": "proof",
    "proofgen": "proof",
    "proof_gen": "proof",
}
_OTHER_FIELDS = ("task_id", "sample", "kind", "model", "meta")


class GenerationError(ValueError):
    """A bad line of a generations file."""

    def __init__(self, msg: str, *, file: str, line: int, field: str | None = None) -> None:
        super().__init__(msg)
        self.msg = msg
        self.file = file
        self.line = line
        self.field = field

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}"
        return f"{where}: field {self.field!r}: {self.msg}" if self.field else f"{where}: {self.msg}"


@dataclass(frozen=True)
class Generation:
    """One sample of one task: the candidate texts for one or more task kinds."""

    task_id: str
    sample: int = 0
    kinds: tuple[str, ...] = ()
    imports: str = ""
    precond_aux: str = ""
    precond: str = ""
    postcond_aux: str = ""
    postcond: str = ""
    code_aux: str = ""
    code: str = ""
    proof_aux: str = ""
    proof: str = ""
    model: str | None = None
    meta: Any = None
    line: int = 0  # where it was read from (0: built in code)

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.model or "", self.task_id, self.sample)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task_id": self.task_id, "sample": self.sample, "kind": list(self.kinds)}
        if self.model is not None:
            out["model"] = self.model
        if self.imports:
            out["imports"] = self.imports
        for kind in self.kinds:
            for name in KIND_FIELDS[kind]:
                out[name] = getattr(self, name)
        if self.meta is not None:
            out["meta"] = self.meta
        return out

    def fields(self, kind: str) -> dict[str, str]:
        """The candidate texts of one kind (plus ``imports``)."""
        return {"imports": self.imports, **{n: getattr(self, n) for n in KIND_FIELDS[kind]}}


@dataclass
class GenerationSet:
    generations: list[Generation] = field(default_factory=list)
    errors: list[GenerationError] = field(default_factory=list)


def _kinds_of(value: Any, file: str, line: int) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or not all(isinstance(x, str) for x in items):
        raise GenerationError(
            "must be a kind name or a non-empty list of them (spec, code, proof)",
            file=file,
            line=line,
            field="kind",
        )
    kinds: set[str] = set()
    for x in items:
        canon = _KIND_ALIASES.get(x.strip().lower())
        if canon is None:
            raise GenerationError(
                f"unknown kind {x!r} (choose from spec, code, proof)", file=file, line=line, field="kind"
            )
        kinds.add(canon)
    return tuple(k for k in KINDS if k in kinds)


def _parse_line(obj: Any, file: str, line: int) -> tuple[Generation | None, list[GenerationError]]:
    errs: list[GenerationError] = []

    def err(msg: str, fld: str | None = None) -> None:
        errs.append(GenerationError(msg, file=file, line=line, field=fld))

    if not isinstance(obj, dict):
        err("a line must be a JSON object")
        return None, errs
    for name in sorted(obj):
        if name not in TEXT_FIELDS and name not in _OTHER_FIELDS:
            err("unknown field", name)
    task_id = obj.get("task_id")
    if not isinstance(task_id, str) or not task_id.strip():
        err("missing or not a non-empty string", "task_id")
    sample = obj.get("sample", 0)
    if isinstance(sample, bool) or not isinstance(sample, int) or sample < 0:
        err("must be an integer >= 0", "sample")
    model = obj.get("model")
    if model is not None and not isinstance(model, str):
        err("must be a string", "model")
    for name in TEXT_FIELDS:
        if name in obj and not isinstance(obj[name], str):
            err(f"must be a string (got {type(obj[name]).__name__})", name)

    present = {k for k in KINDS if any(f in obj for f in KIND_FIELDS[k])}
    if "kind" in obj:
        try:
            kinds = _kinds_of(obj["kind"], file, line)
        except GenerationError as e:
            errs.append(e)
            kinds = ()
        if kinds:
            for k in KINDS:
                if k in present and k not in kinds:
                    for f in KIND_FIELDS[k]:
                        if f in obj:
                            err(f"belongs to kind {k!r}, which 'kind' does not list", f)
    else:
        kinds = tuple(k for k in KINDS if k in present)
        if not kinds:
            err("no generation fields: give precond/postcond (spec), code (code) or proof (proof)")
    for k in kinds:
        for f in REQUIRED_FIELDS[k]:
            if f not in obj:
                err(f"required for kind {k!r}", f)
    if errs:
        return None, errs
    texts = {name: obj.get(name, "") for name in TEXT_FIELDS}
    gen = Generation(
        task_id=task_id.strip(),
        sample=sample,
        kinds=kinds,
        model=model,
        meta=obj.get("meta"),
        line=line,
        **texts,
    )
    return gen, []


def parse_generations(lines: Iterable[str], file: str = "<generations>") -> GenerationSet:
    """Parse JSONL text lines (see the module docstring); bad lines are reported and skipped."""
    out = GenerationSet()
    seen: dict[tuple[str, str, int], int] = {}
    for no, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            out.errors.append(
                GenerationError(f"bad JSON: {exc.msg} at column {exc.colno}", file=file, line=no)
            )
            continue
        gen, errs = _parse_line(obj, file, no)
        out.errors.extend(errs)
        if gen is None:
            continue
        if gen.key in seen:
            out.errors.append(
                GenerationError(
                    f"duplicate sample {gen.sample} of task {gen.task_id!r}"
                    + (f" (model {gen.model!r})" if gen.model else "")
                    + f"; first given on line {seen[gen.key]}",
                    file=file,
                    line=no,
                    field="sample",
                )
            )
            continue
        seen[gen.key] = no
        out.generations.append(gen)
    return out


def read_generations(path: Path | str) -> GenerationSet:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        return GenerationSet(errors=[GenerationError(f"cannot read ({exc.strerror})", file=str(p), line=0)])
    lines: list[str] = []
    errors: list[GenerationError] = []
    for no, raw in enumerate(data.split(b"\n"), start=1):
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            errors.append(GenerationError(f"not UTF-8 ({exc.reason})", file=str(p), line=no))
            lines.append("")
    result = parse_generations(lines, file=str(p))
    result.errors = sorted([*errors, *result.errors], key=lambda e: e.line)
    return result


def write_generations(gens: Iterable[Generation], path: Path | str) -> None:
    with Path(path).open("w", encoding="utf-8") as fh:
        for g in gens:
            fh.write(json.dumps(g.to_json(), ensure_ascii=False) + "\n")


# ------------------------------------------------------------------ ground truth


def ground_truth_generation(
    task: Any, sample: int = 0, kinds: Iterable[str] = KINDS, model: str | None = None
) -> Generation:
    """A task's own sections as a generation, the way Verina's QA submits them.

    ``precond_aux`` carries the solution aux (Verina merges it there), the
    implementation gets only its own aux, and ``imports`` the solution imports.
    """
    kinds = tuple(k for k in KINDS if k in set(kinds))

    def sec(name: str) -> str:
        text = task.section_text(name)
        if not text.strip() and name in SECTION_DEFAULTS:
            return SECTION_DEFAULTS[name]
        return text

    solution_aux = task.section_text("solution_aux")
    precond_aux = task.section_text("precond_aux")
    texts = {
        "imports": task.section_text("import", type="solution"),
        "precond_aux": f"{solution_aux}\n{precond_aux}" if solution_aux.strip() else precond_aux,
        "precond": sec("precond"),
        "postcond_aux": sec("postcond_aux"),
        "postcond": sec("postcond"),
        "code_aux": sec("code_aux"),
        "code": sec("code"),
        "proof_aux": sec("proof_aux"),
        "proof": sec("proof"),
    }
    keep = {"imports", *(f for k in kinds for f in KIND_FIELDS[k])}
    return Generation(
        task_id=task.id,
        sample=sample,
        kinds=kinds,
        model=model,
        **{k: (v if k in keep else "") for k, v in texts.items()},
    )


# ------------------------------------------------------------------ Verina's output folders

_ROUNDS_FILE = re.compile(r"^rounds_report_(\d+)\.json$")


@dataclass
class VerinaConversion:
    source: Path
    generations: list[Generation] = field(default_factory=list)
    fewshot_ids: tuple[str, ...] = ()
    warnings: list[str] = field(default_factory=list)


def _latest_rounds_report(folder: Path) -> Path:
    found = sorted(
        (int(m.group(1)), p.name, p)
        for p in folder.iterdir()
        if p.is_file() and (m := _ROUNDS_FILE.match(p.name))
    )
    if not found:
        raise FileNotFoundError(f"{folder}: no rounds_report_<timestamp>.json (not a Verina output folder?)")
    return found[-1][2]


def _model_name(config: Any) -> str | None:
    lm = config.get("gen_lm_config") if isinstance(config, Mapping) else None
    if isinstance(lm, Mapping):
        for key in ("model", "model_name", "name"):
            if isinstance(lm.get(key), str) and lm[key]:
                return lm[key]
    return None


def _merge_import_lines(*texts: str) -> str:
    lines: list[str] = []
    for t in texts:
        for ln in t.splitlines():
            s = ln.strip()
            if s and s not in lines:
                lines.append(s)
    return "\n".join(lines)


def convert_verina_output(path: Path | str, model: str | None = None) -> VerinaConversion:
    """Read a Verina harness output folder (or one rounds report file) into generations."""
    p = Path(path)
    report = _latest_rounds_report(p) if p.is_dir() else p
    data = json.loads(report.read_text(encoding="utf-8"))
    conv = VerinaConversion(source=report)
    if not isinstance(data, dict) or not isinstance(data.get("rounds"), dict):
        raise ValueError(f"{report}: not a Verina rounds report (no 'rounds' object)")
    model = model if model is not None else _model_name(data.get("config"))
    fewshot: set[str] = set()
    rounds = sorted(data["rounds"].items(), key=lambda kv: int(kv[0]) if str(kv[0]).isdigit() else -1)
    for round_key, rnd in rounds:
        if not str(round_key).isdigit():
            conv.warnings.append(f"{report}: round {round_key!r} is not a number; skipped")
            continue
        data_reports = rnd.get("data_reports", {}) if isinstance(rnd, dict) else {}
        for data_id in sorted(data_reports):
            task_reports = (data_reports[data_id] or {}).get("task_reports", {})
            chosen: dict[str, tuple[int, str, dict[str, Any]]] = {}
            for name in sorted(task_reports):
                rep = task_reports[name] or {}
                fewshot.update(x for x in rep.get("fewshot_example_names", []) if isinstance(x, str))
                flags = rep.get("task_flags") or {}
                kinds = [k for k in KINDS if flags.get(k)]
                artifact = rep.get("artifact") or {}
                for k in kinds:
                    rank = 0 if len(kinds) == 1 else 1
                    if k in chosen and chosen[k][0] <= rank:
                        conv.warnings.append(
                            f"{report}: round {round_key}, {data_id}: {k} from {chosen[k][1]!r} "
                            f"kept over {name!r}"
                        )
                        continue
                    chosen[k] = (rank, name, artifact)
            if not chosen:
                continue
            kinds_t = tuple(k for k in KINDS if k in chosen)
            texts: dict[str, str] = {}
            for k in kinds_t:
                art = chosen[k][2]
                for f in KIND_FIELDS[k]:
                    v = art.get(f, "")
                    texts[f] = v if isinstance(v, str) else ""
            imports = _merge_import_lines(*(str(chosen[k][2].get("imports") or "") for k in kinds_t))
            conv.generations.append(
                Generation(
                    task_id=data_id,
                    sample=int(round_key),
                    kinds=kinds_t,
                    imports=imports,
                    model=model,
                    **texts,
                )
            )
    conv.fewshot_ids = tuple(sorted(fewshot))
    return conv
