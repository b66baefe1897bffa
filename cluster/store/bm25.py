"""The tantivy BM25 index over chunks: one writer (the ingest sink), many readers.

Fields: ``chunk_id`` (stored, raw), ``doc_id`` (raw, for deletes and filters), ``text``
(en_stem; the document title, section path and chunk text, since passages that never name
their document must still be found by it), ``title`` and ``section_path`` (en_stem) and
``section`` (a facet ``/<doc_id>/<section id>/<subsection id>…`` for section-subtree filters).

>>> safe_query_text('0-dimensional AND "quoted" +x NOT y')
'0 dimensional and quoted x not y'
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import tantivy

_WORD = re.compile(r"\w+", re.UNICODE)
#: The chunk columns a BM25 document is made of.
BM25_COLUMNS = ("chunk_id", "doc_id", "title", "section_path", "section_facet", "text")
MAX_WRITER_THREADS = 8  # tantivy's indexing threads stop paying off beyond ~8 (and each needs its own heap)
HEAP_BYTES_PER_THREAD = 64_000_000
MIN_HEAP_BYTES_PER_THREAD = 16_000_000  # tantivy refuses less than ~15 MB a thread


def writer_threads(requested: int = 0) -> int:
    """Indexing threads: ``requested``, or (0) this machine's cores, at most :data:`MAX_WRITER_THREADS`.

    >>> writer_threads(3)
    3
    """
    return requested if requested > 0 else max(1, min(os.cpu_count() or 1, MAX_WRITER_THREADS))


def document_json(row: dict) -> str:
    """One chunk (keys: :data:`BM25_COLUMNS`) as the tantivy JSON document :meth:`Bm25Index.add_json` takes.
    Fragment-writing workers render these, so the writer's thread only hands strings to tantivy.

    >>> document_json({"chunk_id": "c", "doc_id": "d", "title": None, "section_path": "", "section_facet": "/d/s",
    ...                "text": "x"})
    '{"chunk_id": "c", "doc_id": "d", "text": "x", "title": "", "section_path": "", "section": "/d/s"}'
    """
    body = "\n".join(p for p in (row["title"], row["section_path"], row["text"]) if p)
    return json.dumps({"chunk_id": row["chunk_id"], "doc_id": row["doc_id"], "text": body,
                       "title": row["title"] or "", "section_path": row["section_path"] or "",
                       "section": row["section_facet"]})


def safe_query_text(text: str, *, max_terms: int = 64) -> str:
    """Reduce free text to lower-cased word tokens so tantivy's query parser sees no operators,
    phrases or field syntax (``AND``/``OR``/``NOT``/``+``/``-``/``:``/quotes)."""
    return " ".join(t.lower() for t in _WORD.findall(text)[:max_terms])


def _schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("chunk_id", stored=True, tokenizer_name="raw")
    sb.add_text_field("doc_id", stored=True, tokenizer_name="raw")
    sb.add_text_field("text", stored=False, tokenizer_name="en_stem")
    sb.add_text_field("title", stored=False, tokenizer_name="en_stem")
    sb.add_text_field("section_path", stored=False, tokenizer_name="en_stem")
    sb.add_facet_field("section")
    return sb.build()


@dataclass(frozen=True)
class Bm25Hit:
    chunk_id: str
    doc_id: str
    score: float


class Bm25Index:
    """A tantivy index directory. Call :meth:`writer_session` once per ingest (single writer)."""

    def __init__(self, path: Path, *, create: bool = False) -> None:
        self.path = Path(path)
        if create:
            self.path.mkdir(parents=True, exist_ok=True)
        elif not tantivy.Index.exists(str(self.path)):
            raise FileNotFoundError(f"no BM25 index at {self.path}: run `strata ingest` first")
        self.schema = _schema()
        self.index = tantivy.Index(self.schema, path=str(self.path))
        self._writer: tantivy.IndexWriter | None = None

    # -- writing -------------------------------------------------------------------------------
    def open_writer(self, heap_bytes: int | None = None, threads: int = 0) -> None:
        """Take the index lock (a second writer anywhere fails with a clear error).

        ``threads``: tantivy indexing threads (0: :func:`writer_threads`); each indexes its own
        segment in parallel. ``heap_bytes``: the indexing memory of all threads (default 64 MB a
        thread); a small heap lowers the thread count so each keeps tantivy's minimum."""
        threads = writer_threads(threads)
        if heap_bytes is None:
            heap_bytes = HEAP_BYTES_PER_THREAD * threads
        threads = max(1, min(threads, heap_bytes // MIN_HEAP_BYTES_PER_THREAD))
        try:
            self._writer = self.index.writer(heap_size=heap_bytes, num_threads=threads)
        except ValueError as exc:
            raise RuntimeError(f"another process is writing the BM25 index at {self.path}: {exc}") from exc

    def close_writer(self) -> None:
        if self._writer is not None:
            self._writer.wait_merging_threads()
            self._writer = None

    def add_chunks(self, rows: list[dict]) -> None:
        """Add chunk rows (keys: :data:`BM25_COLUMNS`)."""
        self.add_json(document_json(row) for row in rows)

    def add_json(self, documents: Iterable[str]) -> None:
        """Add documents rendered by :func:`document_json` (the writer's hot path: no per-field Python)."""
        assert self._writer is not None, "open_writer() first"
        add = self._writer.add_json
        for doc in documents:
            add(doc)

    def delete_documents(self, doc_ids: list[str]) -> None:
        assert self._writer is not None, "open_writer() first"
        for doc_id in doc_ids:
            self._writer.delete_documents_by_term("doc_id", doc_id)

    def commit(self) -> None:
        assert self._writer is not None, "open_writer() first"
        self._writer.commit()

    # -- reading -------------------------------------------------------------------------------
    def num_docs(self) -> int:
        self.index.reload()
        return self.index.searcher().num_docs

    def search(self, text: str, *, k: int = 10, doc_ids: list[str] | None = None,
               section_facet: str | None = None) -> list[Bm25Hit]:
        """BM25 over ``text`` (OR of analysed terms), optionally within documents or a section subtree."""
        query_text = safe_query_text(text)
        if not query_text or k <= 0:
            return []
        query = self.index.parse_query(query_text, ["text"])
        filters: list[tantivy.Query] = []
        if doc_ids:
            filters.append(tantivy.Query.term_set_query(self.schema, "doc_id", list(doc_ids)))
        if section_facet:
            filters.append(tantivy.Query.term_query(self.schema, "section", tantivy.Facet.from_string(section_facet)))
        if filters:
            query = tantivy.Query.boolean_query([(tantivy.Occur.Must, query)] + [(tantivy.Occur.Must, f) for f in filters])
        self.index.reload()
        searcher = self.index.searcher()
        # Equal scores come back in segment order, which parallel indexing makes vary between runs:
        # fetch past the k-th score's ties and order them by chunk_id, so a search is deterministic.
        limit = k + 1
        while True:
            raw = searcher.search(query, limit).hits
            if len(raw) < limit or raw[-1][0] < raw[k - 1][0]:
                break
            limit *= 2
        hits = []
        for score, address in raw:
            doc = searcher.doc(address)
            hits.append(Bm25Hit(doc["chunk_id"][0], doc["doc_id"][0], float(score)))
        hits.sort(key=lambda hit: (-hit.score, hit.chunk_id))
        return hits[:k]
