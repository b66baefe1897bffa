"""Cross-encoder reranking of the fused candidates (on by default with the shipped ``strata-reranker-minilm-l6``)."""

from serving.rerank.cross_encoder import CrossEncoderReranker

__all__ = ["CrossEncoderReranker"]
