"""Cross-encoder reranking (optional stage; off until a trained model is configured)."""

from serving.rerank.cross_encoder import CrossEncoderReranker

__all__ = ["CrossEncoderReranker"]
