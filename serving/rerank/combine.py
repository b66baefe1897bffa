"""Combine cross-encoder scores with the retrieval (fused) scores of the reranked candidates.

A cross-encoder trained on a few hundred queries is a weak ranker on its own; interpolating its
min-max normalised score with the fused retrieval score keeps what retrieval already knows:

    final = weight · minmax(cross-encoder) + (1 − weight) · minmax(retrieval)

over the ``top_n`` candidates (``weight = 1`` ranks by the cross-encoder alone, ``0`` keeps the
retrieval order). ``rerank.weight`` is chosen on a validation split by ``strata reranker train``.

>>> interpolate([0.9, 0.5, 0.1], [-2.0, 4.0, 0.0], weight=0.5)
[0.5, 0.75, 0.16666666666666666]
>>> [round(s, 3) for s in interpolate([3.0, 2.0], [0.0, 1.0], weight=0.0)]
[1.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["interpolate", "minmax", "rerank_order"]


def minmax(values: Sequence[float]) -> list[float]:
    """Scale to [0, 1] (all 1.0 when every value is the same).

    >>> minmax([2.0, 4.0, 3.0]), minmax([5.0, 5.0])
    ([0.0, 1.0, 0.5], [1.0, 1.0])
    """
    if not values:
        return []
    low, high = min(values), max(values)
    span = high - low
    return [(v - low) / span if span > 0 else 1.0 for v in values]


def interpolate(retrieval: Sequence[float], cross_encoder: Sequence[float], *, weight: float) -> list[float]:
    """The combined score of each candidate (inputs in the same order, same length)."""
    if len(retrieval) != len(cross_encoder):
        raise ValueError(f"{len(retrieval)} retrieval scores but {len(cross_encoder)} cross-encoder scores")
    if not 0.0 <= weight <= 1.0:
        raise ValueError("weight must be within [0, 1]")
    if weight >= 1.0:
        return [float(s) for s in cross_encoder]
    r, c = minmax(retrieval), minmax(cross_encoder)
    return [weight * ci + (1.0 - weight) * ri for ri, ci in zip(r, c)]


def rerank_order(retrieval: Sequence[float], cross_encoder: Sequence[float], *, weight: float) -> list[int]:
    """Indices of the candidates best first by :func:`interpolate` (ties keep the retrieval order).

    >>> rerank_order([0.9, 0.5, 0.1], [-2.0, 4.0, 0.0], weight=1.0)
    [1, 2, 0]
    """
    combined = interpolate(retrieval, cross_encoder, weight=weight)
    return sorted(range(len(combined)), key=lambda i: (-combined[i], i))
