"""Fusion of several scored rankings: weighted linear over min-max scores (with a fixed or an adaptive
BM25 share), distribution-based (DBSF) and reciprocal-rank.

>>> rrf([["a", "b", "c"], ["b", "c", "d"]], k=60)[:2]
[('b', 0.03252247488101534), ('c', 0.03200204813108039)]
>>> linear([[("a", 9.0), ("b", 3.0)], [("b", 0.9), ("c", 0.1)]], weights=[0.5, 0.5])
[('a', 0.5), ('b', 0.5), ('c', 0.0)]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence


def rrf(rankings: Sequence[Sequence[str]], *, k: int = 60, weights: Sequence[float] | None = None) -> list[tuple[str, float]]:
    """Reciprocal-rank fusion: score(id) = Σ w_i / (k + rank_i(id)), ranks from 1; best first."""
    weights = list(weights) if weights is not None else [1.0] * len(rankings)
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights):
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def _weighted_sum(scored: Sequence[Sequence[tuple[str, float]]], weights: Sequence[float] | None,
                  score_range: Callable[[list[float]], tuple[float, float]]) -> list[tuple[str, float]]:
    """Each ranking's scores mapped to [0, 1] by ``score_range(values) → (low, span)`` (clipped; a
    ranking without spread scores 1), then summed with ``weights``; an id missing from a ranking
    scores 0 there. Best first."""
    weights = list(weights) if weights is not None else [1.0] * len(scored)
    fused: dict[str, float] = {}
    for ranking, weight in zip(scored, weights):
        if not ranking:
            continue
        low, span = score_range([s for _, s in ranking])
        for item, score in ranking:
            norm = min(1.0, max(0.0, (score - low) / span)) if span > 0 else 1.0
            fused[item] = fused.get(item, 0.0) + weight * norm
    return sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))


def linear(scored: Sequence[Sequence[tuple[str, float]]], *,
           weights: Sequence[float] | None = None) -> list[tuple[str, float]]:
    """Weighted sum of min-max normalised scores (Weaviate's relative score fusion)."""
    return _weighted_sum(scored, weights, lambda values: (min(values), max(values) - min(values)))


def _three_sigma(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    std = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
    return mean - 3 * std, 6 * std


def dbsf(scored: Sequence[Sequence[tuple[str, float]]], *,
         weights: Sequence[float] | None = None) -> list[tuple[str, float]]:
    """Distribution-based score fusion (Qdrant): each ranking's scores normalised by its own mean ± 3
    standard deviations (clipped to [0, 1]), then a weighted sum.

    >>> [i for i, _ in dbsf([[("a", 9.0), ("b", 3.0), ("c", 2.0)], [("b", 0.9), ("c", 0.8), ("a", 0.1)]])]
    ['b', 'a', 'c']
    """
    return _weighted_sum(scored, weights, _three_sigma)


#: Bounds of the adaptive BM25 share: neither retriever is ever dropped on one verdict.
ADAPTIVE_SHARE_RANGE = (0.1, 0.9)


def judged_bm25_share(prior: float, bm25_top: float, dense_top: float, *, temperature: float = 6.0) -> float:
    """BM25's share in linear fusion for one query, from a judge's relevance scores (cross-encoder
    logits) of the two retrievers' best hits: ``sigmoid(logit(prior) + (bm25_top − dense_top) / T)``,
    within :data:`ADAPTIVE_SHARE_RANGE`. The idea is Dynamic Alpha Tuning (Hsu & Tzeng, 2025),
    with the cross-encoder Strata ships as the judge instead of an LLM: the retriever whose first
    answer the judge prefers gets the larger share; equal verdicts keep the route's ``prior``.

    >>> judged_bm25_share(0.5, 2.0, 2.0), round(judged_bm25_share(0.5, 4.0, -2.0), 3)
    (0.5, 0.731)
    >>> round(judged_bm25_share(0.5, -3.0, 1.0), 3), round(judged_bm25_share(0.8, 1.0, 2.0), 3)
    (0.339, 0.772)
    """
    low, high = ADAPTIVE_SHARE_RANGE
    prior = min(max(prior, 1e-6), 1 - 1e-6)
    logit = math.log(prior / (1 - prior)) + (bm25_top - dense_top) / temperature
    return min(high, max(low, 1 / (1 + math.exp(-logit))))
