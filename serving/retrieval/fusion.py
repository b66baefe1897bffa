"""Rank fusion of several scored rankings: reciprocal-rank (default) and weighted linear.

>>> rrf([["a", "b", "c"], ["b", "c", "d"]], k=60)[:2]
[('b', 0.03252247488101534), ('c', 0.03200204813108039)]
>>> linear([[("a", 9.0), ("b", 3.0)], [("b", 0.9), ("c", 0.1)]], weights=[0.5, 0.5])
[('a', 0.5), ('b', 0.5), ('c', 0.0)]
"""

from __future__ import annotations

from collections.abc import Sequence


def rrf(rankings: Sequence[Sequence[str]], *, k: int = 60, weights: Sequence[float] | None = None) -> list[tuple[str, float]]:
    """Reciprocal-rank fusion: score(id) = Σ w_i / (k + rank_i(id)), ranks from 1; best first."""
    weights = list(weights) if weights is not None else [1.0] * len(rankings)
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights):
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def linear(scored: Sequence[Sequence[tuple[str, float]]], *, weights: Sequence[float] | None = None) -> list[tuple[str, float]]:
    """Weighted sum of min-max normalised scores (an id missing from a ranking scores 0 there)."""
    weights = list(weights) if weights is not None else [1.0] * len(scored)
    fused: dict[str, float] = {}
    for ranking, weight in zip(scored, weights):
        if not ranking:
            continue
        values = [s for _, s in ranking]
        low, high = min(values), max(values)
        span = high - low
        for item, score in ranking:
            norm = (score - low) / span if span > 0 else 1.0
            fused[item] = fused.get(item, 0.0) + weight * norm
    return sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))
