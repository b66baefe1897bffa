"""Score mined candidate lists with a cross-encoder and measure the reranked document rankings.

The cross-encoder scores each query's first ``depth`` chunks once; every ``(top_n ≤ depth,
weight)`` setting is then an exact simulation of the serving stage (:func:`serving.rerank.combine.
rerank_order` over the first ``top_n`` chunks, the rest kept in retrieval order), collapsed to a
document ranking by first occurrence like ``bench/retrieval_quality.py``.

>>> from offline.reranker.mining import Candidate, QueryCandidates
>>> qc = QueryCandidates("q", "claim", {"b": 1}, [Candidate("1", "a", 0.9, "x"), Candidate("2", "b", 0.8, "y")])
>>> run = reranked_run([qc], {"q": [0.0, 5.0]}, top_n=2, weight=1.0)
>>> run, evaluate_setting([qc], {"q": [0.0, 5.0]}, top_n=2, weight=1.0)["ndcg@10"]
({'q': ['b', 'a']}, 1.0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from offline.eval.metrics import collapse_to_documents, evaluate
from offline.reranker.mining import QueryCandidates
from serving.rerank.combine import rerank_order

__all__ = ["GridResult", "evaluate_setting", "grid", "reranked_run", "score_lists"]

Scorer = Callable[[Sequence[tuple[str, str]]], list[float]]
METRIC_KS = (10, 100)


def score_lists(lists: Sequence[QueryCandidates], scorer: Scorer, *, depth: int) -> dict[str, list[float]]:
    """``{qid: cross-encoder scores of its first depth chunks}`` (one ``scorer`` call per query)."""
    return {qc.qid: scorer([(qc.query, c.text) for c in qc.candidates[:depth]]) for qc in lists}


def reranked_run(lists: Sequence[QueryCandidates], scores: Mapping[str, Sequence[float]], *,
                 top_n: int, weight: float | None) -> dict[str, list[str]]:
    """Document rankings after reranking the first ``top_n`` chunks (``weight=None``: no rerank)."""
    run: dict[str, list[str]] = {}
    for qc in lists:
        cands = qc.candidates
        if weight is None or top_n <= 0:
            order = list(range(len(cands)))
        else:
            n = min(top_n, len(cands), len(scores[qc.qid]))
            head = rerank_order([c.score for c in cands[:n]], list(scores[qc.qid][:n]), weight=weight)
            order = head + list(range(n, len(cands)))
        run[qc.qid] = collapse_to_documents(cands[i].doc_id for i in order)
    return run


def evaluate_setting(lists: Sequence[QueryCandidates], scores: Mapping[str, Sequence[float]], *,
                     top_n: int, weight: float | None) -> dict[str, float]:
    """Mean nDCG/recall/MRR@{10,100} of :func:`reranked_run` over the judged queries."""
    qrels = {qc.qid: qc.judgments for qc in lists}
    return evaluate(reranked_run(lists, scores, top_n=top_n, weight=weight), qrels, ks=METRIC_KS)


@dataclass(frozen=True)
class GridResult:
    top_n: int
    weight: float
    metrics: dict[str, float]


def grid(lists: Sequence[QueryCandidates], scores: Mapping[str, Sequence[float]], *,
         top_ns: Sequence[int], weights: Sequence[float]) -> list[GridResult]:
    """Every ``(top_n, weight)`` combination, in the given order."""
    return [GridResult(n, w, evaluate_setting(lists, scores, top_n=n, weight=w)) for n in top_ns for w in weights]
