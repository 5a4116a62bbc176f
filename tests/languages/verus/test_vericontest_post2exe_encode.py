"""The batch encoder of the compiled checker (``checker._encode_batch``): orjson's bytes where they are
the standard encoder's (``_ENCODE``), the standard encoder wherever orjson refuses or would differ."""

from __future__ import annotations

import json
import random
from typing import Any

from veriscale.languages.verus.post2exe.checker import _ENCODE, _encode_batch


def _rows(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for _ in range(50):
        nums = [rng.randint(-(2**63), 2**63 - 1) for _ in range(rng.randint(0, 40))]
        rows.append({"input": {"nums": nums, "s": "héllo \"q\" \\ \n\t ✓", "grid": [nums[:3], []],
                               "flag": rng.random() < 0.5, "pair": (1, -2)},
                     "output": rng.randint(-5, 5)})  # fmt: skip
    return rows


def test_the_fast_path_gives_the_standard_encoders_bytes() -> None:
    for seed in range(5):
        rows = _rows(seed)
        assert _encode_batch(rows) == _ENCODE(rows).encode("utf-8")


def test_what_orjson_refuses_or_writes_otherwise_goes_to_the_standard_encoder() -> None:
    # integers beyond 64 bits (Verus int is unbounded), a None (orjson and json agree, but null is also
    # what orjson makes of NaN), non-string keys (json converts them)
    for value in ([2**64, -(2**70)], [None, 1], {1: 2}):
        rows = [{"input": {"x": value}, "output": 0}]
        assert _encode_batch(rows) == _ENCODE(rows).encode("utf-8")
        assert json.loads(_encode_batch(rows) or b"") == json.loads(_ENCODE(rows))


def test_what_neither_encodes_is_refused_as_a_whole() -> None:
    # a non-finite float (the checker's reader has no NaN: orjson would write null), an object that is
    # not JSON, a lone surrogate (not UTF-8)
    for value in (float("nan"), float("inf"), object(), "\ud800"):
        assert _encode_batch([{"input": {"x": value}, "output": 0}]) is None
