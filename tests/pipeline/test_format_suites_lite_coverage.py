"""Lite of format-built suites keeps the reference's branch coverage and every weakened-ensures kill."""

from __future__ import annotations

from veriscale.pipeline.format_suites import LITE_POSITIVES, lite_selection


def _doc(
    n: int, kills: list[list[int]], hits: list[list[int]], neg_of: list[int], wk: list[list[int]]
) -> dict:
    return {
        "positives": [{"input": {"n": i}, "output": i} for i in range(n)],
        "negatives": [{"input_index": i, "output": -1 - k, "source": "direct"} for k, i in enumerate(neg_of)],
        "kills": kills,
        "coverage": {"probes": [f"then@{b}" for b in range(40)], "hits": hits},
        "weakened": {"kills": wk},
    }


def test_lite_covers_every_branch_and_weakened_kill_plus_covers() -> None:
    n = 200
    kills = [[i % 30] for i in range(n)]  # 30 mutants, each killed by many positives
    hits = [[0, 1] for _ in range(n)]
    rare = {137: [0, 1, 7], 151: [0, 1, 8, 9], 199: [0, 1, 9, 30]}  # branches one positive each executes
    for i, h in rare.items():
        hits[i] = h
    neg_of = [i for i in range(n) for _ in range(2)]
    wk: list[list[int]] = [[0] for _ in neg_of]
    wk[2 * 173 + 1] = [0, 1]  # weakening 1 killed by one negative of positive 173 only
    pos, negs, summ = lite_selection(_doc(n, kills, hits, neg_of, wk))
    assert len(pos) >= LITE_POSITIVES
    assert {b for i in pos for b in hits[i]} == {0, 1, 7, 8, 9, 30}
    # 137, 151 and 199 each execute a branch no other positive does; 173 has the only killing negative
    # of weakening 1; without them in the cover, the fill (lowest indices first) would not pick them
    assert {137, 151, 173, 199} <= set(pos)
    assert 2 * 173 + 1 in negs and {w for j in negs for w in wk[j]} == {0, 1}
    assert summ["coverage_preserved"] and summ["weakened_preserved"] and summ["kill_preserved"]
    assert (summ["branches"], summ["plus_branches"], summ["lite_branches"]) == (40, 6, 6)
    assert (summ["plus_weakened"], summ["lite_weakened"]) == (2, 2)


def test_without_coverage_the_cover_is_the_mutant_cover() -> None:
    doc = {
        "positives": [{"input": {"n": i}, "output": i} for i in range(3)],
        "negatives": [],
        "kills": [[0], [], [1]],
    }
    pos, negs, summ = lite_selection(doc)
    assert pos == [0, 1, 2] and negs == [] and summ["coverage_preserved"] and summ["branches"] == 0
