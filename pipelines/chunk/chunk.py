"""The chunk record produced by the chunker and stored in the ``chunks`` table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Chunk:
    """A retrievable passage: never crosses a section boundary.

    ``start``/``end`` are character offsets in the parsed document text; ``ordinal`` is the
    chunk's position in the document; ``n_tokens`` counts embedder tokens of ``text`` (no
    special tokens); ``embed_text`` is what the embedder sees (a short context header with
    the document title and section path, then ``text``) and fits the model window.
    """

    chunk_id: str
    doc_id: str
    section_id: str
    section_path: str
    ordinal: int
    start: int
    end: int
    text: str
    embed_text: str
    n_tokens: int
    content_hash: str
