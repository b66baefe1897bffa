"""Rank fusion of several ranked id lists.

>>> rrf([["a", "b", "c"], ["b", "c", "d"]], k=60)[:2]
[('b', 0.03252247488101534), ('c', 0.03200204813108039)]
"""

from __future__ import annotations


def rrf(rankings: list[list[str]], *, k: int = 60, weights: list[float] | None = None) -> list[tuple[str, float]]:
    """Reciprocal-rank fusion: score(id) = Σ w_i / (k + rank_i(id)), ranks from 1; best first."""
    weights = weights or [1.0] * len(rankings)
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights):
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
