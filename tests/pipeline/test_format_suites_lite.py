"""Lite selection of format-built suites: every mutant and weakened-spec kill kept, within a budget."""

from __future__ import annotations

from veriscale.pipeline.format_suites import LITE_NEGATIVES_PER_POSITIVE, LITE_POSITIVES, lite_selection


def _doc(n_pos: int, kills: list[list[int]], wk: list[list[int]], neg_of: list[int]) -> dict:
    return {
        "positives": [{"input": {"n": i}, "output": i} for i in range(n_pos)],
        "negatives": [{"input_index": i, "output": -1 - k, "source": "direct"} for k, i in enumerate(neg_of)],
        "kills": kills,
        "weakened": {"kills": wk},
    }


def test_cover_keeps_every_kill() -> None:
    n = 120
    kills = [[] for _ in range(n)]
    for m in range(70):  # 70 mutants, each killed by exactly one positive spread over the suite
        kills[(m * 37) % n].append(m)
    neg_of = [i for i in range(n) for _ in range(3)]
    wk = [[] for _ in neg_of]
    wk[5] = [0]
    wk[200] = [1, 2]
    pos, negs, summ = lite_selection(_doc(n, kills, wk, neg_of))
    killed = {m for i in pos for m in kills[i]}
    assert killed == set(range(70)) and summ["kill_preserved"]
    assert len(pos) >= LITE_POSITIVES  # the cover is never cut (here larger than the budget)
    assert {5, 200} <= set(negs) or not ({neg_of[5], neg_of[200]} <= set(pos))
    assert all(neg_of[j] in pos for j in negs) and negs == sorted(negs)
    assert len(negs) <= max(LITE_NEGATIVES_PER_POSITIVE * len(pos), 2)


def test_small_suite_is_kept_whole_and_deterministic() -> None:
    doc = _doc(3, [[0], [], [1]], [[0], []], [0, 2])
    a = lite_selection(doc)
    assert a == lite_selection(doc)
    assert a[0] == [0, 1, 2] and a[1] == [0, 1] and a[2]["weakened_preserved"]
