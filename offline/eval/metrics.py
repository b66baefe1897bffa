"""Ranking metrics for judged retrieval runs: nDCG@k, recall@k and MRR@k (no numpy).

Conventions follow BEIR / ``pytrec_eval`` (trec_eval's ``ndcg_cut``, ``recall``, ``recip_rank``):

* **nDCG@k** — graded gain = the judged relevance (not ``2**rel - 1``), discount
  ``log2(rank + 1)``; the ideal DCG sorts *all* judged relevances of the query (not only the
  retrieved ones) and cuts at ``k``.
* **recall@k** — relevant (relevance > 0) documents in the top ``k`` ÷ all relevant documents.
* **MRR@k** — ``1 / rank`` of the first relevant document within the top ``k``, else 0.

A ``run`` maps a query id to its ranked document ids (best first; a repeated id counts once, at
its first rank); ``qrels`` maps a query id to ``{doc_id: relevance}``. Scores are averaged over
the queries that have at least one relevant judgment. A judged query missing from the run scores
0 (``pytrec_eval`` would silently leave it out of the mean — here it cannot inflate the figure).

>>> run = {"q1": ["d3", "d1", "d2"], "q2": ["d9", "d4"]}
>>> qrels = {"q1": {"d1": 2, "d2": 1}, "q2": {"d4": 1}}
>>> scores = evaluate(run, qrels, ks=(1, 3))
>>> scores["mrr@3"], scores["recall@1"], scores["recall@3"]
(0.5, 0.0, 1.0)
>>> round(ndcg_at_k(run["q1"], qrels["q1"], 3), 4)   # (2/log2 3 + 1/2) / (2 + 1/log2 3)
0.6697
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["Qrels", "Run", "collapse_to_documents", "evaluate", "judged_queries", "mrr_at_k", "ndcg_at_k",
           "paired_randomization_p", "per_query", "recall_at_k"]

Run = Mapping[str, Sequence[str]]
Qrels = Mapping[str, Mapping[str, int]]

METRICS = ("ndcg", "recall", "mrr")


def collapse_to_documents(ids: Iterable[str]) -> list[str]:
    """Deduplicate a best-first list, keeping each id at its first (best) position.

    Used to turn a ranking of chunks (mapped to their documents) into a ranking of documents
    where each document is scored by its best chunk (max over chunks).

    >>> collapse_to_documents(["a", "b", "a", "c", "b"])
    ['a', 'b', 'c']
    """
    seen: set[str] = set()
    out: list[str] = []
    for doc_id in ids:
        if doc_id not in seen:
            seen.add(doc_id)
            out.append(doc_id)
    return out


def _top(ranking: Sequence[str], k: int) -> list[str]:
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    out: list[str] = []
    seen: set[str] = set()
    for doc_id in ranking:
        if doc_id in seen:
            continue
        seen.add(doc_id)
        out.append(doc_id)
        if len(out) == k:
            break
    return out


def ndcg_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int) -> float:
    """Graded nDCG@k of one ranked list (0.0 when the query has no relevant judgment).

    >>> ndcg_at_k(["a", "b"], {"a": 1}, 10)
    1.0
    >>> round(ndcg_at_k(["x", "a"], {"a": 1}, 10), 4)   # 1/log2(3)
    0.6309
    """
    ideal_gains = sorted((max(rel, 0) for rel in judgments.values()), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal_gains))
    if idcg <= 0:
        return 0.0
    dcg = sum(max(judgments.get(d, 0), 0) / math.log2(i + 2) for i, d in enumerate(_top(ranking, k)))
    return dcg / idcg


def recall_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int) -> float:
    """Share of the relevant (relevance > 0) documents found in the top ``k``.

    >>> recall_at_k(["a", "x", "b"], {"a": 1, "b": 1, "c": 0}, 2)
    0.5
    """
    relevant = {d for d, rel in judgments.items() if rel > 0}
    if not relevant:
        return 0.0
    return sum(1 for d in _top(ranking, k) if d in relevant) / len(relevant)


def mrr_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int) -> float:
    """Reciprocal rank of the first relevant document within the top ``k`` (0.0 if none).

    >>> mrr_at_k(["x", "y", "a"], {"a": 1}, 10), mrr_at_k(["x", "y", "a"], {"a": 1}, 2)
    (0.3333333333333333, 0.0)
    """
    for rank, d in enumerate(_top(ranking, k), start=1):
        if judgments.get(d, 0) > 0:
            return 1.0 / rank
    return 0.0


_FUNCS = {"ndcg": ndcg_at_k, "recall": recall_at_k, "mrr": mrr_at_k}


def judged_queries(qrels: Qrels) -> list[str]:
    """Query ids with at least one relevant judgment (the ones metrics average over), sorted.

    >>> judged_queries({"q2": {"d": 1}, "q1": {"d": 0}, "q3": {}})
    ['q2']
    """
    return sorted(q for q, judgments in qrels.items() if any(rel > 0 for rel in judgments.values()))


def per_query(run: Run, qrels: Qrels, ks: Sequence[int] = (10, 100),
              metrics: Sequence[str] = METRICS) -> dict[str, dict[str, float]]:
    """``{qid: {"ndcg@10": …, …}}`` for every judged query (missing from ``run`` → empty ranking).

    >>> per_query({"q": ["a"]}, {"q": {"a": 1}}, ks=(5,), metrics=("recall",))
    {'q': {'recall@5': 1.0}}
    """
    unknown = set(metrics) - set(_FUNCS)
    if unknown:
        raise ValueError(f"unknown metrics {sorted(unknown)}; known: {list(_FUNCS)}")
    out: dict[str, dict[str, float]] = {}
    for qid in judged_queries(qrels):
        ranking = run.get(qid, ())
        out[qid] = {f"{m}@{k}": _FUNCS[m](ranking, qrels[qid], k) for m in metrics for k in ks}
    return out


def evaluate(run: Run, qrels: Qrels, ks: Sequence[int] = (10, 100),
             metrics: Sequence[str] = METRICS) -> dict[str, float]:
    """Mean of each ``metric@k`` over the judged queries (all 0.0 when there are none).

    >>> evaluate({"q1": ["a"], "q2": ["b"]}, {"q1": {"a": 1}, "q2": {"a": 1}}, ks=(10,), metrics=("mrr",))
    {'mrr@10': 0.5}
    """
    rows = per_query(run, qrels, ks, metrics)
    names = [f"{m}@{k}" for m in metrics for k in ks]
    if not rows:
        return {name: 0.0 for name in names}
    return {name: sum(r[name] for r in rows.values()) / len(rows) for name in names}


def paired_randomization_p(a: Mapping[str, float], b: Mapping[str, float], *, trials: int = 10_000,
                           seed: int = 0) -> float:
    """Two-sided p-value that systems ``a`` and ``b`` (per-query scores over the same queries)
    have the same mean, by a paired randomization (sign-flip) test — Smucker et al., CIKM 2007.

    >>> a = {f"q{i}": 0.5 for i in range(50)}
    >>> paired_randomization_p(a, {q: 0.3 for q in a}) < 0.001, paired_randomization_p(a, a)
    (True, 1.0)
    """
    if set(a) != set(b):
        raise ValueError("both systems must be scored on the same queries")
    diffs = [a[q] - b[q] for q in sorted(a)]
    if not diffs:
        return 1.0
    observed = abs(sum(diffs))
    rnd = random.Random(seed)
    at_least = 0
    for _ in range(trials):
        total = sum(d if rnd.random() < 0.5 else -d for d in diffs)
        if abs(total) >= observed - 1e-12:
            at_least += 1
    return (at_least + 1) / (trials + 1)
