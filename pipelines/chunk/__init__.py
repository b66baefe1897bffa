"""Sentence splitting and token-budgeted chunking of parsed documents.

>>> from pipelines.chunk import chunk_document, split_sentences
>>> split_sentences("First one. Second one.")
[(0, 10), (11, 22)]
"""

from pipelines.chunk.chunk import Chunk
from pipelines.chunk.chunker import ChunkingConfig, chunk_document, chunk_with_config
from pipelines.chunk.sentences import split_sentences

__all__ = ["Chunk", "ChunkingConfig", "chunk_document", "chunk_with_config", "split_sentences"]
