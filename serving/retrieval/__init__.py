"""Retrieval over a Strata index: BM25 (tantivy), dense (LanceDB ANN), fusion and the section tier."""

from serving.retrieval.hybrid import Candidate, HybridRetriever, RetrievalResult

__all__ = ["Candidate", "HybridRetriever", "RetrievalResult"]
