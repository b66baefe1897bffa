"""The single writer of an index: buffers embedded documents, commits them in large batches.

Commit order per batch makes every crash recoverable: journal (doc ids) → delete previous
versions of changed documents → add chunks and sections (LanceDB) → append the newly embedded
texts' vectors to the embedding cache (``embed_cache``) → add to BM25 and commit →
upsert ``documents`` rows (a document row marks the document complete) → clear the journal.
:meth:`IndexSink.recover` undoes a torn batch by deleting the journaled documents everywhere.

>>> # sink = IndexSink(store, bm25, journal, known=store.known_documents(), batch_rows=4096)
>>> # for batch in ds.iter_batches(batch_format="pyarrow"): sink.accept(batch)
>>> # sink.close()
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

import pyarrow as pa
import pyarrow.compute as pc

from cluster.store.bm25 import Bm25Index
from cluster.store.embed_cache import EmbeddingCache
from cluster.store.journal import IngestJournal
from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, DOCUMENTS_SCHEMA, SECTIONS, chunks_schema, sections_schema
from cluster.telemetry.tracing import span
from pipelines.records import STATUS_FAILED, STATUS_OK, STATUS_UNCHANGED


@dataclass
class SinkCounts:
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    failed: list[tuple[str, str, str]] = field(default_factory=list)
    chunks: int = 0
    sections: int = 0
    tokens: int = 0
    commits: int = 0
    cache_hits: int = 0
    cache_misses: int = 0
    seconds: dict[str, float] = field(default_factory=dict)  # writer time by part: flatten, lance, cache, bm25, documents

    def timed(self, part: str, started: float) -> float:
        """Add the time since ``started`` to ``part``; returns now (the next part's start)."""
        now = time.perf_counter()
        self.seconds[part] = self.seconds.get(part, 0.0) + now - started
        return now


class IndexSink:
    """Single writer of the LanceDB tables and the BM25 index (see module docstring)."""

    def __init__(self, store: LanceStore, bm25: Bm25Index, journal: IngestJournal, *,
                 known: dict[str, tuple[int, int, str]], batch_rows: int,
                 cache: EmbeddingCache | None = None, fingerprint: str = "") -> None:
        self.store = store
        self.cache = cache
        self.fingerprint = fingerprint
        self.bm25 = bm25
        self.journal = journal
        self.known = known
        self.batch_rows = batch_rows
        self.counts = SinkCounts()
        self._buffer: list[pa.Table] = []
        self._buffered_chunks = 0
        self.bm25.open_writer()

    # -- crash recovery ------------------------------------------------------------------------
    def recover(self) -> list[str]:
        """Delete documents of a torn batch (journal) and any orphan rows; returns their ids."""
        torn = sorted(set(self.journal.pending()) | set(self.store.orphan_doc_ids()))
        if torn:
            with span("ingest.recover", documents=len(torn)):
                self.store.delete_documents(torn)
                self.bm25.delete_documents(torn)
                self.bm25.commit()
                for doc_id in torn:
                    self.known.pop(doc_id, None)
        self.journal.commit()
        return torn

    # -- accepting rows ------------------------------------------------------------------------
    def accept(self, batch: pa.Table) -> dict[str, int]:
        """Take one embedded batch; returns per-status document counts and chunk/token totals."""
        status = batch.column("status")
        for row in batch.filter(pc.equal(status, STATUS_FAILED)).select(["doc_id", "path", "reason", "detail"]).to_pylist():
            detail = row["detail"] or ""
            if row["doc_id"] in self.known:  # a document that turned bad: nothing is deleted, say so
                detail = f"{detail}; the index keeps its last good version" if detail else "the index keeps its last good version"
            self.counts.failed.append((row["path"], row["reason"] or "failed", detail))
        unchanged = pc.sum(pc.equal(status, STATUS_UNCHANGED)).as_py() or 0
        self.counts.unchanged += unchanged
        ok = batch.filter(pc.equal(status, STATUS_OK))
        chunks = int(pc.sum(pc.list_value_length(ok.column("chunks"))).as_py() or 0) if ok.num_rows else 0
        tokens = int(pc.sum(ok.column("n_tokens")).as_py() or 0) if ok.num_rows else 0
        if ok.num_rows:
            self.counts.cache_hits += int(pc.sum(ok.column("cache_hits")).as_py() or 0)
            self.counts.cache_misses += int(pc.sum(ok.column("cache_misses")).as_py() or 0)
            self._buffer.append(ok)
            self._buffered_chunks += chunks
            if self._buffered_chunks >= self.batch_rows:
                self.flush()
        return {"ok": ok.num_rows, "unchanged": unchanged, "failed": batch.num_rows - ok.num_rows - unchanged,
                "chunks": chunks, "tokens": tokens}

    def flush(self) -> None:
        """Commit everything buffered, in commits of about ``batch_rows`` chunks (no-op when empty)."""
        if not self._buffer:
            return
        docs = pa.concat_tables(self._buffer)
        self._buffer, self._buffered_chunks = [], 0
        start = rows = 0
        for i, n_chunks in enumerate(pc.list_value_length(docs.column("chunks")).to_pylist()):
            rows += n_chunks
            if rows >= self.batch_rows:
                self._commit(docs.slice(start, i + 1 - start))
                start, rows = i + 1, 0
        if start < docs.num_rows:
            self._commit(docs.slice(start))

    def _commit(self, docs: pa.Table) -> None:
        """One atomic-by-journal commit of whole documents (see module docstring for the order)."""
        from cluster.telemetry.metrics import ingest_metrics

        started = t = time.perf_counter()
        c = self.counts
        doc_ids = docs.column("doc_id").to_pylist()
        changed = [d for d in doc_ids if d in self.known]
        chunk_table = flatten_chunks(docs, self.store.dim)
        section_table = flatten_sections(docs, self.store.dim)
        t = c.timed("flatten", t)
        with span("ingest.write", documents=len(doc_ids), chunks=chunk_table.num_rows):
            self.journal.begin(doc_ids)
            if changed:
                self.store.delete_documents(changed)
                self.bm25.delete_documents(changed)
            t = c.timed("delete", t)
            self.store.add(CHUNKS, chunk_table)
            self.store.add(SECTIONS, section_table)
            t = c.timed("lance", t)
            if self.cache is not None:
                self.cache.add(self.fingerprint, pc.list_flatten(docs.column("new_cache_keys")),
                               pc.list_flatten(docs.column("new_cache_vectors")))
            t = c.timed("cache", t)
            self.bm25.add_chunks(chunk_table.select(
                ["chunk_id", "doc_id", "title", "section_path", "section_facet", "text"]).to_pylist())
            self.bm25.commit()
            t = c.timed("bm25", t)
            self.store.upsert_documents(self._document_rows(docs))
            self.journal.commit()
            c.timed("documents", t)
        for doc_id, content_hash, n_bytes, mtime in zip(doc_ids, docs.column("content_hash").to_pylist(),
                                                        docs.column("n_bytes").to_pylist(),
                                                        docs.column("mtime_ns").to_pylist()):
            self.known[doc_id] = (n_bytes, mtime, content_hash)
        self.counts.updated += len(changed)
        self.counts.new += len(doc_ids) - len(changed)
        self.counts.chunks += chunk_table.num_rows
        self.counts.sections += section_table.num_rows
        self.counts.tokens += int(pc.sum(docs.column("n_tokens")).as_py() or 0)
        self.counts.commits += 1
        metrics = ingest_metrics()
        metrics.writer_batch_rows.observe(chunk_table.num_rows)
        metrics.chunks.inc(chunk_table.num_rows)
        metrics.sections.inc(section_table.num_rows)
        metrics.tokens.inc(int(pc.sum(docs.column("n_tokens")).as_py() or 0))
        metrics.stage_seconds.observe(time.perf_counter() - started, tags={"stage": "write"})

    def close(self) -> None:
        self.flush()
        self.bm25.close_writer()

    def _document_rows(self, docs: pa.Table) -> pa.Table:
        now = datetime.now(timezone.utc)
        data = {name: docs.column(name) for name in
                ("doc_id", "source", "path", "title", "format", "n_bytes", "mtime_ns", "content_hash", "n_tokens")}
        data["n_sections"] = pc.list_value_length(docs.column("sections"))
        data["n_chunks"] = pc.list_value_length(docs.column("chunks"))
        data["ingested_at"] = pa.array([now] * docs.num_rows, pa.timestamp("us", tz="UTC"))
        return pa.table({f.name: data[f.name] for f in DOCUMENTS_SCHEMA}, schema=DOCUMENTS_SCHEMA)


# -- flattening: embedded document records → table rows ------------------------------------------
def _repeat(docs: pa.Table, list_column: str, names: list[str]) -> dict[str, pa.Array]:
    parents = pc.list_parent_indices(docs.column(list_column))
    return {name: pc.take(docs.column(name), parents) for name in names}


def flatten_chunks(docs: pa.Table, dim: int) -> pa.Table:
    """The ``chunks`` table rows of embedded document records (:func:`pipelines.records.embedded_schema`)."""
    flat = pc.list_flatten(docs.column("chunks")).combine_chunks()
    cols = {name: flat.field(name) for name in
            ("chunk_id", "section_id", "section_path", "section_facet", "ordinal", "start", "end", "n_tokens",
             "content_hash", "text")}
    cols.update(_repeat(docs, "chunks", ["doc_id", "title", "source", "path"]))
    cols["vector"] = pc.list_flatten(docs.column("chunk_vectors"))
    schema = chunks_schema(dim)
    return pa.table({f.name: cols[f.name] for f in schema}, schema=schema)


def flatten_sections(docs: pa.Table, dim: int) -> pa.Table:
    """The ``sections`` table rows of embedded document records."""
    flat = pc.list_flatten(docs.column("sections")).combine_chunks()
    schema = sections_schema(dim)
    cols = {name: flat.field(name) for name in schema.names if name not in ("doc_id", "vector", "centroid")}
    cols.update(_repeat(docs, "sections", ["doc_id"]))
    cols["vector"] = pc.list_flatten(docs.column("section_vectors"))
    cols["centroid"] = pc.list_flatten(docs.column("section_centroids"))
    return pa.table({f.name: cols[f.name] for f in schema}, schema=schema)
