"""Extractors for the output-expansion prompts that ``extract`` does not cover.

``extract_spec`` looks for both marker comments inside one code block; models
sometimes put the precondition and the postcondition in two separate blocks.
``extract_spec_sections`` then retries on all Lean blocks joined in order.
"""

from __future__ import annotations

from .extract import Extraction, extract_spec, lean_blocks

__all__ = ["extract_spec_sections"]


def extract_spec_sections(text: str) -> Extraction:
    """``{"precondition", "postcondition"}`` like ``extract_spec``, also across separate code blocks."""
    ex = extract_spec(text)
    if not ex.malformed:
        return ex
    blocks = lean_blocks(text)
    if len(blocks) < 2:
        return ex
    joined = extract_spec("```lean\n" + "\n\n".join(blocks) + "\n```")
    if joined.malformed:
        return ex
    joined.notes.append("markers were spread over several code blocks")
    return joined
