"""What VeriContest's model-driven suite stages ask, and how their answers are read.

Two stages (``scale --model``):

* ``semantic_mutants``: one request per problem. The model sees the
  description and the reference code and writes ``variants`` plausible buggy
  versions, each introduced by a ``### Variant k: <bug>`` line and given as one
  fenced Rust block with the whole code. ``parse_variants`` takes the closed
  fenced blocks in order (at most ``variants``); a block's description is the
  last ``### Variant`` line before it. Ids are ``v1``, ``v2``, … by position.
* ``input_generators``: two requests per problem, a *random* and an
  *adversarial* generator. Our sandbox refuses ``std::env`` (and every other
  way out of the process), so a generator takes its arguments — which ones is
  the model's choice, e.g. a seed and a size — as one line of standard input.
  It prints one input per line in VeriContest's stored form: a JSON object
  keyed by the parameter names. The answer holds one fenced Rust block (the
  program, the last Rust block wins) and one fenced JSON block: the argument
  lines to run it with (``parse_generator``).

Prompts are written for veriscale (not taken from the paper). Their identity
(``prompt_ident``) is a digest of the texts, so editing a prompt makes cached
answers unreachable.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..generation import fenced_blocks, prompt_digest
from ..suite_models import ModelRequest
from .dataset import Problem

__all__ = [
    "GENERATOR_KINDS",
    "GENERATOR_STAGE",
    "SEMANTIC_STAGE",
    "Generator",
    "Variant",
    "answer_problem",
    "parse_generator",
    "parse_variants",
    "suite_requests",
]

SEMANTIC_STAGE = "semantic_mutants"
GENERATOR_STAGE = "input_generators"
GENERATOR_KINDS: tuple[str, ...] = ("random", "adversarial")
MAX_ARG_LINES = 8  # argument lines run per generator (the rest are ignored, counted)

_SEMANTIC_SYSTEM = """\
You help test the test suite of a programming benchmark. Given a correct Rust solution, \
you write versions of it that contain one realistic bug each: the kind of mistake a capable \
programmer makes under time pressure. A good buggy version compiles, keeps the exact same \
function signatures and types, gives the right answer on many inputs and a wrong answer \
(or a panic) on some."""

_SEMANTIC_USER = """\
# Problem

{description}

# Correct solution

```rust
{code}
```

# What to write

Write {count} different buggy versions of the correct solution above. Each should hide one \
plausible bug, for example: an off-by-one in a loop bound or an index, a wrong comparison \
(`<` for `<=`), a missed edge case (empty input, a single element, equal values, the \
smallest or largest value allowed), a wrong initial value, an overflow a wider type would \
avoid, a condition tested in the wrong order. Do not write versions that fail on every input, \
and do not write versions that are merely reformatted.

Answer with exactly {count} sections. Each section is one line `### Variant <k>: <the bug, \
in one sentence>` followed by one ```rust fenced block holding the complete code (everything \
the correct solution defines, with the same names). Use only the standard library; no \
`unsafe`, no files, no processes, no environment."""

_GENERATOR_SYSTEM = """\
You write test-input generators for a programming benchmark: small, self-contained Rust \
programs that print valid inputs of a problem."""

_GENERATOR_USER = """\
# Problem

{description}

# Inputs

The function under test is `{signature}`. Its precondition (a Verus `requires` clause; every \
input you print must satisfy it):

```
{requires}
```

Print each input as one line: a JSON object with exactly the keys {keys}. Integers are JSON \
numbers, `String` and `char` values (and `Vec<char>`) are JSON strings, `Vec`s and tuples are \
JSON arrays, `bool`s are `true`/`false`, `Option` is `null` or the value. Keep every list and \
string at most {max_len} elements long (longer inputs are not used here); within that, cover the \
extreme values the precondition allows.{example}

# What to write

Write a generator of the {kind} kind. {kind_text}

The program cannot read command-line arguments or the environment (they are blocked). It \
reads its arguments from standard input instead: one line of whitespace-separated integers, \
whose meaning you choose (for example a random seed and a size). It prints at most \
{max_lines} inputs, one per line, and nothing else, and it finishes within a second. Use only \
the standard library (write your own small pseudo-random generator, e.g. xorshift, seeded \
from the arguments); no `unsafe`, no files, no processes.

Answer with one ```rust fenced block holding the complete program (with `fn main`), then one \
```json fenced block holding a JSON array of 3 to {max_runs} argument lines (strings) to run it \
with, from small inputs to the largest the precondition allows."""

_KIND_TEXT = {
    "random": "It draws inputs at random across the whole range the precondition allows, "
    "in every size from tiny to the largest allowed.",
    "adversarial": "It prints inputs meant to break wrong solutions: boundary values, extreme "
    "sizes, all-equal and sorted or reverse-sorted data, values that overflow naive arithmetic, "
    "and the special structures the problem statement hints at.",
}


def prompt_ident(stage: str) -> str:
    if stage == SEMANTIC_STAGE:
        return f"vc-{stage}@v1#" + prompt_digest(_SEMANTIC_SYSTEM, _SEMANTIC_USER)
    return f"vc-{stage}@v1#" + prompt_digest(_GENERATOR_SYSTEM, _GENERATOR_USER, *_KIND_TEXT.values())


def _requires_text(problem: Problem) -> str:
    """The ``requires`` clause of the target function in ``spec.rs``, as written (its expressions)."""
    from ...languages.verus.items import scan_items
    from .dataset import target_fn

    try:
        items = scan_items(problem.spec)
    except Exception:  # the loader scanned it already; a failure here only loses the clause text
        return "(not shown)"
    fn = target_fn(items)
    clause = fn.clause("requires") if fn is not None else None
    if clause is None or not clause.exprs:
        return "(none)"
    toks = items.toks
    return ",\n".join(problem.spec[toks[a].start : toks[b - 1].end] for a, b in clause.exprs)


def _keys(problem: Problem) -> str:
    from ...languages.verus.signature import input_params

    return ", ".join(f"`{p.name}` ({p.type_text})" for p in input_params(problem))


def _example(problem: Problem) -> str:
    for ex in problem.examples:
        if ex.inputs is not None:
            return " For example:\n\n" + json.dumps(ex.inputs, ensure_ascii=False)
    return ""


def _signature(problem: Problem) -> str:
    sig = problem.ref_signature
    params = ", ".join(f"{p.name}: {p.type_text}" for p in sig.params)
    owner = f"{sig.owner}::" if sig.owner else ""
    return f"{owner}{sig.name}({params}) -> {sig.ret_type_text}"


def semantic_messages(problem: Problem, count: int) -> tuple[dict[str, str], ...]:
    user = _SEMANTIC_USER.format(
        description=problem.description.strip(), code=problem.reference_source.strip("\n"), count=count
    )
    return ({"role": "system", "content": _SEMANTIC_SYSTEM}, {"role": "user", "content": user})


def generator_messages(
    problem: Problem, kind: str, max_lines: int, max_len: int = 200
) -> tuple[dict[str, str], ...]:
    user = _GENERATOR_USER.format(
        description=problem.description.strip(),
        signature=_signature(problem),
        requires=_requires_text(problem),
        keys=_keys(problem),
        example=_example(problem),
        kind=kind,
        kind_text=_KIND_TEXT[kind],
        max_lines=max_lines,
        max_len=max_len,
        max_runs=MAX_ARG_LINES,
    )
    return ({"role": "system", "content": _GENERATOR_SYSTEM}, {"role": "user", "content": user})


def suite_requests(
    problem: Problem, variants: int = 5, max_lines: int = 200, max_len: int = 200
) -> list[ModelRequest]:
    """The questions of one problem: the semantic mutants (none when ``variants`` is 0), then one
    generator per kind."""
    out: list[ModelRequest] = []
    if variants > 0:
        msgs = semantic_messages(problem, variants)
        out.append(ModelRequest(SEMANTIC_STAGE, SEMANTIC_STAGE, msgs, prompt_ident(SEMANTIC_STAGE)))
    for kind in GENERATOR_KINDS:
        out.append(
            ModelRequest(
                f"generator_{kind}",
                GENERATOR_STAGE,
                generator_messages(problem, kind, max_lines, max_len),
                prompt_ident(GENERATOR_STAGE),
            )
        )
    return out


# ---- answers ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    id: str  # v1, v2, … by position in the answer
    code: str
    description: str = ""


_VARIANT_HEAD = re.compile(r"^#{2,4}\s*Variant\s*\d+\s*[:.)-]?\s*(.*)$", re.MULTILINE | re.IGNORECASE)


def parse_variants(answer: str | None, count: int) -> tuple[list[Variant], str | None]:
    """(variants, reason the answer is unusable or None). Closed fenced blocks, in order, at most ``count``."""
    if answer is None or not answer.strip():
        return [], "empty answer"
    blocks: list[tuple[int, str]] = []
    for lang, body, closed in fenced_blocks(answer):
        if closed and body.strip() and lang in ("rust", "rs", ""):
            blocks.append((answer.find(body), body))
    if not blocks:
        return [], "no closed Rust code block"
    heads = [(m.start(), m.group(1).strip()) for m in _VARIANT_HEAD.finditer(answer)]
    out: list[Variant] = []
    for k, (pos, body) in enumerate(blocks[:count]):
        desc = ""
        for hpos, text in heads:
            if hpos < pos:
                desc = text
        out.append(Variant(f"v{k + 1}", body, desc[:300]))
    return out, None


@dataclass(frozen=True)
class Generator:
    kind: str
    program: str
    args: tuple[str, ...]


def parse_generator(kind: str, answer: str | None) -> tuple[Generator | None, str | None]:
    """(generator, None) or (None, reason). The last closed Rust block is the program; the last closed
    JSON block (a list of strings, or of lists of integers) gives the argument lines."""
    if answer is None or not answer.strip():
        return None, "empty answer"
    blocks = [(lang, body) for lang, body, closed in fenced_blocks(answer) if closed and body.strip()]
    rust = [b for lang, b in blocks if lang in ("rust", "rs")]
    if not rust:
        rust = [b for lang, b in blocks if lang == "" and "fn main" in b]
    if not rust:
        return None, "no closed Rust code block"
    program = rust[-1]
    if "fn main" not in program:
        return None, "the program has no `fn main`"
    js = [b for lang, b in blocks if lang == "json"]
    if not js:
        return None, "no JSON block of argument lines"
    try:
        raw: Any = json.loads(js[-1])
    except ValueError as exc:
        return None, f"the argument block is not JSON: {exc}"
    if not isinstance(raw, list) or not raw:
        return None, "the argument block is not a non-empty JSON array"
    args: list[str] = []
    for item in raw:
        if isinstance(item, str):
            line = item
        elif isinstance(item, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in item):
            line = " ".join(str(x) for x in item)
        elif isinstance(item, int) and not isinstance(item, bool):
            line = str(item)
        else:
            return None, f"argument line {item!r} is neither a string nor a list of integers"
        if "\n" in line:
            return None, "an argument line holds a newline"
        args.append(line.strip())
    return Generator(kind, program, tuple(args)), None


def answer_problem(stage: str, text: str) -> str | None:
    """Why an answer of ``stage`` is unusable as a whole (worth asking again), or None."""
    if stage == SEMANTIC_STAGE:
        return parse_variants(text, 1)[1]
    return parse_generator("random", text)[1]
