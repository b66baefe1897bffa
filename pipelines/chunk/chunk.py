"""The chunk record produced by the chunker and stored in the ``chunks`` table."""

from __future__ import annotations

from dataclasses import dataclass


def with_header(header: str, text: str) -> str:
    """What the embedder sees for ``text`` under a context ``header`` (none: the text alone).

    >>> with_header("Guide > Install", "Run it."), with_header("", "Run it.")
    ('Guide > Install\\nRun it.', 'Run it.')
    """
    return f"{header}\n{text}" if header else text


@dataclass(slots=True)
class Chunk:
    """A retrievable passage: never crosses a section boundary.

    ``start``/``end`` are character offsets in the parsed document text; ``ordinal`` is the
    chunk's position in the document; ``n_tokens`` counts embedder tokens of ``text`` (no
    special tokens); ``embed_text`` is what the embedder sees (a short context header with
    the document title and section path, then ``text``) and fits the model window.
    ``first_page``/``last_page`` (1-based) are the pages the chunk's text lies on, for paged
    formats (PDF); None otherwise.
    """

    chunk_id: str
    doc_id: str
    section_id: str
    section_path: str
    ordinal: int
    start: int
    end: int
    text: str
    header: str  # the context header ('' if none)
    n_tokens: int
    content_hash: str
    first_page: int | None = None
    last_page: int | None = None

    @property
    def embed_text(self) -> str:
        """What the embedder sees: ``with_header(header, text)``."""
        return with_header(self.header, self.text)
