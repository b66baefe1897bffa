"""Retrieval over a Strata index: BM25 (tantivy), dense (LanceDB ANN), and their fusion."""

from serving.retrieval.hybrid import Hit, Retriever

__all__ = ["Hit", "Retriever"]
