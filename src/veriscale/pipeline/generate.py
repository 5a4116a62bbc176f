"""``veriscale generate``: ask a model for a benchmark's tasks and write the generations JSONL.

Algorithm
---------
1. The benchmark folder's format is found through ``formats.registry``; its
   generation hook (``formats/generation.py``) gives the task kinds, prompts,
   repair prompts and answer extraction. Tasks are read one by one: a task that
   cannot be read is reported and skipped. The few-shot example tasks are read
   from the same folder (the hook's defaults, or ``fewshot``).
2. Every question is a ``JobKey`` (task id, task kind, sample, round). Raw
   answers go to ``OUT/responses.jsonl`` as they arrive (append, flushed), so
   an interrupted run loses nothing; a rerun reads it first and asks only what
   it lacks (a complete rerun sends no request). The response cache of the
   model layer sits below, so even a fresh output folder re-sends nothing the
   cache holds.
3. Questions run on a thread pool of the model's ``concurrency``; before each
   is started the spent cost is compared with ``max_cost``, and once it is
   reached nothing more is started (the run ends, marked ``stopped``).
4. Lines are rebuilt from the stored answers every run (extraction is
   deterministic), in the format's task order, then task kind, then sample:
   ``OUT/<task>/generations.jsonl``. A failed extraction is a line with its
   category (never a crash); a question without an answer (request failed,
   stopped) has no line.
5. Repair rounds r = 1..K: each sample whose answer of round r-1 failed — by
   extraction, or by the ``feedback`` provider (the evaluator) — is asked again
   with its previous answer and the feedback; ``OUT/<task>/repair_r<r>.jsonl``
   holds every sample's latest answer, so pass@1 of that file is repair@r.
   A sample whose check was undecided is not repaired (no feedback to give).
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..formats.api import Format, FormatError
from ..formats.generation import Extracted, GenerationHooks, generation_hooks
from ..formats.registry import detect_format

__all__ = [
    "Answer",
    "Answerer",
    "FeedbackFn",
    "GenerateOptions",
    "GenerateReport",
    "JobKey",
    "ModelAnswerer",
    "ReplayAnswerer",
    "run_generate",
]


@dataclass(frozen=True, order=True)
class JobKey:
    task_id: str
    task: str
    sample: int
    round: int = 0


@dataclass
class Answer:
    text: str | None = None
    error: str | None = None
    finish_reason: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    cached: bool = False
    http_requests: int = 0


class Answerer(Protocol):
    label: str  # the model name recorded in the lines

    def ask(self, key: JobKey, messages: Sequence[Mapping[str, str]], ident: str) -> Answer: ...

    def spent(self) -> float:
        """Dollars spent so far by this process (0 when unpriced or replayed)."""
        ...

    def stats(self) -> dict[str, Any]: ...


# Stage name in the model config: sampling settings of `generate` ([stages.generate] in the file).
STAGE = "generate"


class ModelAnswerer:
    """A real OpenAI-compatible model through the model layer (cache, retries, usage, cost)."""

    def __init__(
        self, config: Any, *, max_tokens: int | None = None, temperature: float | None = None
    ) -> None:
        from ..llm.cache import ResponseCache
        from ..llm.client import ChatClient
        from ..llm.usage import UsageTracker

        self.config = config
        self.label = str(config.model)
        st = config.stage(STAGE)
        self.temperature = temperature if temperature is not None else st.temperature
        self.max_tokens = max_tokens if max_tokens is not None else (st.max_tokens or 8192)
        self.top_p = st.top_p
        self.extra_body = tuple(sorted(st.extra_body.items()))
        self.usage = UsageTracker(config.price_for)
        cache = None
        if config.cache != "off":
            try:
                cache = ResponseCache(config.resolved_cache_path())
            except Exception:  # an unwritable cache must not stop a run
                cache = None
        self._cache = cache
        self.client = ChatClient(config, cache=cache)

    def ask(self, key: JobKey, messages: Sequence[Mapping[str, str]], ident: str) -> Answer:
        from ..llm.records import ChatRequest

        seed = None if self.config.seed is None else self.config.seed + key.sample
        req = ChatRequest(
            stage=STAGE,
            model=self.label,
            messages=tuple(dict(m) for m in messages),
            temperature=self.temperature,
            top_p=self.top_p,
            max_tokens=self.max_tokens,
            seed=seed,
            extra_body=self.extra_body,
            sample=key.sample,
            attempt=0,
            template=f"{ident}|{key.task_id}|r{key.round}",
        )
        resp = self.client.complete(req)
        self.usage.record(resp)
        return Answer(
            text=resp.text if resp.error is None else None,
            error=resp.error,
            finish_reason=resp.finish_reason,
            usage=resp.usage.to_json(),
            cached=resp.cached,
            http_requests=resp.http_requests,
        )

    def spent(self) -> float:
        return self.usage.total().cost or 0.0

    def stats(self) -> dict[str, Any]:
        return self.usage.to_json()["total"]

    def close(self) -> None:
        self.client.close()
        if self._cache is not None:
            self._cache.close()


class ReplayAnswerer:
    """Answers from a replay file (``llm/replay.py``); sends nothing."""

    def __init__(self, path: Path | str) -> None:
        from ..llm.replay import load_replay

        self.replay = load_replay(path)
        self.label = self.replay.label
        self._lock = threading.Lock()
        self._served = 0
        self._missing = 0

    def ask(self, key: JobKey, messages: Sequence[Mapping[str, str]], ident: str) -> Answer:
        text = self.replay.answer((key.task_id, key.task, key.sample, key.round))
        with self._lock:
            if text is None:
                self._missing += 1
            else:
                self._served += 1
        if text is None:
            return Answer(error=f"no stored response in {self.replay.source}")
        return Answer(text=text, cached=True)

    def spent(self) -> float:
        return 0.0

    def stats(self) -> dict[str, Any]:
        return {"http_requests": 0, "replayed": self._served, "missing": self._missing}

    def close(self) -> None:
        pass


# (kind, lines of one round) -> {(task_id, sample): feedback text, or None when the sample passes
# or its check could not decide}
FeedbackFn = Callable[[str, list[dict[str, Any]]], dict[tuple[str, int], str | None]]
ProgressFn = Callable[[str, int, int], None]


@dataclass
class GenerateOptions:
    benchmark: Path
    out: Path
    kinds: tuple[str, ...] = ()  # empty: all the format's kinds
    n: int = 1
    only: tuple[str, ...] = ()
    limit: int | None = None
    repair: int = 0
    max_cost: float | None = None
    fewshot: tuple[str, ...] | None = None  # None: the format's defaults; () for none


@dataclass
class GenerateReport:
    format: str
    model: str
    kinds: tuple[str, ...]
    task_ids: list[str]
    out: Path
    asked: int = 0  # questions put to the answerer this run
    reused: int = 0  # questions answered from responses.jsonl of an earlier run
    failed: list[str] = field(default_factory=list)  # questions without an answer, with the reason
    stopped: str | None = None
    task_errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    files: dict[str, list[str]] = field(default_factory=dict)  # kind -> files written, round order
    extraction: dict[str, dict[str, int]] = field(default_factory=dict)  # kind -> category -> count
    rounds: dict[str, list[dict[str, int]]] = field(default_factory=dict)  # kind -> per round counts
    answerer: dict[str, Any] = field(default_factory=dict)
    spent: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "model": self.model,
            "kinds": list(self.kinds),
            "tasks": len(self.task_ids),
            "asked": self.asked,
            "reused": self.reused,
            "failed": self.failed,
            "stopped": self.stopped,
            "task_errors": self.task_errors,
            "warnings": self.warnings,
            "files": self.files,
            "extraction_errors": self.extraction,
            "rounds": self.rounds,
            "answerer": self.answerer,
            "cost": round(self.spent, 6),
        }


# ------------------------------------------------------------------ stored answers


class ResponseLog:
    """``responses.jsonl``: one stored answer per question, appended as answers arrive."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.answers: dict[JobKey, dict[str, Any]] = {}
        self.errors: list[str] = []
        self._lock = threading.Lock()
        if path.is_file():
            self._load()

    def _load(self) -> None:
        for no, raw in enumerate(self.path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
                key = JobKey(str(obj["task_id"]), str(obj["task"]), int(obj["sample"]), int(obj["round"]))
                if not isinstance(obj["text"], str):
                    raise TypeError("text is not a string")
            except (ValueError, KeyError, TypeError) as exc:
                self.errors.append(f"{self.path}:{no}: unreadable stored answer skipped ({exc})")
                continue
            self.answers.setdefault(key, obj)

    def add(self, key: JobKey, model: str, ident: str, ans: Answer) -> None:
        rec = {
            "task_id": key.task_id,
            "task": key.task,
            "sample": key.sample,
            "round": key.round,
            "model": model,
            "prompt": ident,
            "text": ans.text,
            "finish_reason": ans.finish_reason,
            "usage": ans.usage,
        }
        with self._lock:
            self.answers.setdefault(key, rec)
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
                fh.flush()


# ------------------------------------------------------------------ the run


def _read_tasks(
    fmt: Format, opts: GenerateOptions, report: GenerateReport
) -> tuple[list[Any], dict[str, Path]]:
    dirs = fmt.task_dirs(opts.benchmark)
    by_name = {d.name: d for d in dirs}
    if opts.only:
        missing = [t for t in opts.only if t not in by_name]
        for t in missing:
            report.task_errors.append(f"{t}: no such task in {opts.benchmark}")
        wanted = set(opts.only)
        dirs = [d for d in dirs if d.name in wanted]
    if opts.limit is not None:
        dirs = dirs[: opts.limit]
    tasks = []
    for d in dirs:
        try:
            tasks.append(fmt.read_task(d))
        except (FormatError, ValueError, OSError) as exc:
            report.task_errors.append(f"{d.name}: cannot be read, skipped: {exc}")
    return tasks, by_name


def _examples(
    fmt: Format, hooks: GenerationHooks, ids: Sequence[str], by_name: dict[str, Path], report: GenerateReport
) -> list[Any]:
    out = []
    for i in ids:
        d = by_name.get(i)
        if d is None:
            report.warnings.append(f"few-shot task {i} is not in the benchmark folder; not shown")
            continue
        try:
            out.append(fmt.read_task(d))
        except (FormatError, ValueError, OSError) as exc:
            report.warnings.append(f"few-shot task {i} cannot be read ({exc}); not shown")
    return out


def _ask_all(
    answerer: Answerer,
    log: ResponseLog,
    jobs: list[tuple[JobKey, list[dict[str, str]], str]],
    opts: GenerateOptions,
    report: GenerateReport,
    concurrency: int,
    progress: ProgressFn | None,
    label: str,
) -> None:
    """Ask every job (in order), at most ``concurrency`` at once, until done or the cost cap."""
    total, done = len(jobs), 0
    if progress is not None:
        progress(label, 0, total)
    if not jobs:
        return
    pending = list(reversed(jobs))
    running: dict[Future[Answer], tuple[JobKey, str]] = {}
    with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="veriscale-gen") as pool:
        while pending or running:
            while pending and len(running) < max(1, concurrency) and report.stopped is None:
                if opts.max_cost is not None and answerer.spent() >= opts.max_cost:
                    report.stopped = (
                        f"--max-cost {opts.max_cost:g} $ reached (spent {answerer.spent():.4f} $); "
                        f"{len(pending)} question(s) not asked"
                    )
                    break
                key, messages, ident = pending.pop()
                running[pool.submit(answerer.ask, key, messages, ident)] = (key, ident)
                report.asked += 1
            if not running:
                break
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for fut in sorted(finished, key=lambda f: running[f][0]):
                key, ident = running.pop(fut)
                try:
                    ans = fut.result()
                except Exception as exc:  # an answerer bug must not lose the other answers
                    ans = Answer(error=f"internal error: {type(exc).__name__}: {exc}")
                if ans.text is None:
                    report.failed.append(
                        f"{key.task_id} {key.task} sample {key.sample} round {key.round}: {ans.error}"
                    )
                else:
                    log.add(key, answerer.label, ident, ans)
                done += 1
                if progress is not None:
                    progress(label, done, total)


def _meta(key: JobKey, stored: dict[str, Any]) -> dict[str, Any]:
    meta: dict[str, Any] = {"round": key.round, "prompt": stored.get("prompt")}
    if stored.get("usage"):
        meta["usage"] = stored["usage"]
    if stored.get("finish_reason") == "length":
        meta["truncated"] = True
    return meta


def _write_lines(path: Path, lines: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".jsonl.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for ln in lines:
            fh.write(json.dumps(ln, ensure_ascii=False) + "\n")
    tmp.replace(path)


def run_generate(
    opts: GenerateOptions,
    answerer: Answerer,
    *,
    feedback: FeedbackFn | None = None,
    concurrency: int = 4,
    progress: ProgressFn | None = None,
) -> GenerateReport:
    fmt = detect_format(opts.benchmark)
    hooks = generation_hooks(fmt)
    kinds = tuple(opts.kinds) or tuple(hooks.kinds)
    unknown = [k for k in kinds if k not in hooks.kinds]
    if unknown:
        raise FormatError(
            f"format {fmt.name!r} has no task kind {', '.join(map(repr, unknown))} "
            f"(choose from {', '.join(hooks.kinds)})"
        )
    report = GenerateReport(fmt.name, answerer.label, kinds, [], opts.out)
    opts.out.mkdir(parents=True, exist_ok=True)
    tasks, by_name = _read_tasks(fmt, opts, report)
    report.task_ids = [t.id for t in tasks]
    example_ids = hooks.default_examples if opts.fewshot is None else opts.fewshot  # type: ignore[attr-defined]
    examples = _examples(fmt, hooks, example_ids, by_name, report)
    log = ResponseLog(opts.out / "responses.jsonl")
    report.warnings.extend(log.errors)

    shots = {k: hooks.fewshot(examples, k) for k in kinds}
    # current[(kind, task_id, sample)] = (JobKey of the latest answer, its line)
    current: dict[tuple[str, str, int], tuple[JobKey, dict[str, Any]]] = {}

    def build_line(task: Any, kind: str, key: JobKey) -> dict[str, Any]:
        stored = log.answers[key]
        try:
            ex = hooks.extract(task, kind, stored["text"])
        except Exception as exc:  # a plug-in bug is reported on the line, never a crash
            ex = Extracted.fail("parse_error", f"internal extraction error: {type(exc).__name__}: {exc}")
        return hooks.line(task, kind, key.sample, answerer.label, ex, _meta(key, stored))

    def error_of(line: dict[str, Any]) -> str | None:
        return line.get("extraction_error") or (line.get("meta") or {}).get("extraction_error")

    # ---- round 0
    jobs = []
    for task in tasks:
        for kind in kinds:
            msgs = hooks.prompt(task, kind, shots[kind])
            for s in range(opts.n):
                key = JobKey(task.id, kind, s, 0)
                if key in log.answers:
                    report.reused += 1
                else:
                    jobs.append((key, msgs, hooks.prompt_ident(kind)))
    _ask_all(answerer, log, jobs, opts, report, concurrency, progress, "round 0")
    for kind in kinds:
        lines = []
        cats: Counter[str] = Counter()
        for task in tasks:
            for s in range(opts.n):
                key = JobKey(task.id, kind, s, 0)
                if key not in log.answers:
                    continue
                line = build_line(task, kind, key)
                current[(kind, task.id, s)] = (key, line)
                lines.append(line)
                if error_of(line):
                    cats[error_of(line) or ""] += 1
        path = opts.out / kind / "generations.jsonl"
        _write_lines(path, lines)
        report.files[kind] = [str(path)]
        report.extraction[kind] = dict(sorted(cats.items()))
        report.rounds[kind] = [{"round": 0, "lines": len(lines), "extraction_errors": sum(cats.values())}]

    # ---- repair rounds
    by_id = {t.id: t for t in tasks}
    order = {t.id: i for i, t in enumerate(tasks)}

    def in_order(kind: str) -> list[tuple[str, str, int]]:
        """The samples of ``kind`` that have an answer, in task order then sample."""
        return sorted((k for k in current if k[0] == kind), key=lambda k: (order[k[1]], k[2]))

    for r in range(1, opts.repair + 1):
        if report.stopped:
            break
        todo: list[tuple[str, Any, int, JobKey, str]] = []
        for kind in kinds:
            lines = [current[k][1] for k in in_order(kind)]
            fb = feedback(kind, lines) if feedback is not None else {}
            for k in in_order(kind):
                key, line = current[k]
                category = error_of(line)
                note: str | None
                if category:
                    msg = line.get("extraction_message") or (line.get("meta") or {}).get("extraction_message")
                    note = f"Your answer could not be read ({category}): {msg}"
                else:
                    note = fb.get((k[1], k[2]))
                if note:
                    todo.append((kind, by_id[k[1]], k[2], key, note))
        jobs = []
        for kind, task, s, prev, note in todo:
            key = JobKey(task.id, kind, s, r)
            if key in log.answers:
                report.reused += 1
                continue
            msgs = hooks.repair_prompt(task, kind, shots[kind], log.answers[prev]["text"], note)
            jobs.append((key, msgs, hooks.prompt_ident(kind)))
        _ask_all(answerer, log, jobs, opts, report, concurrency, progress, f"repair round {r}")
        repaired: Counter[str] = Counter()
        for kind, task, s, _prev, note in todo:
            key = JobKey(task.id, kind, s, r)
            if key in log.answers:
                line = build_line(task, kind, key)
                line["meta"]["feedback"] = note  # what this answer was repairing
                current[(kind, task.id, s)] = (key, line)
                repaired[kind] += 1
        for kind in kinds:
            lines = [current[k][1] for k in in_order(kind)]
            path = opts.out / kind / f"repair_r{r}.jsonl"
            _write_lines(path, lines)
            report.files[kind].append(str(path))
            report.rounds[kind].append(
                {
                    "round": r,
                    "repaired": repaired[kind],
                    "asked_to_repair": sum(1 for t in todo if t[0] == kind),
                    "extraction_errors": sum(1 for ln in lines if error_of(ln)),
                }
            )

    report.answerer = answerer.stats()
    report.spent = answerer.spent()
    (opts.out / "summary.json").write_text(json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n")
    return report
