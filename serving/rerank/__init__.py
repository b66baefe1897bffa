"""Cross-encoder reranking of the fused candidates (off by default: `rerank.enabled`; the model also judges adaptive fusion)."""

from serving.rerank.cross_encoder import CrossEncoderReranker

__all__ = ["CrossEncoderReranker"]
