"""Retrieval-quality evaluation: ranking metrics (:mod:`.metrics`) and BEIR data sets (:mod:`.beir`).

>>> from offline.eval import evaluate
>>> evaluate({"q1": ["d2", "d1"]}, {"q1": {"d1": 1}}, ks=(10,))["mrr@10"]
0.5
"""

from __future__ import annotations

from offline.eval.metrics import collapse_to_documents, evaluate, mrr_at_k, ndcg_at_k, recall_at_k

__all__ = ["collapse_to_documents", "evaluate", "mrr_at_k", "ndcg_at_k", "recall_at_k"]
