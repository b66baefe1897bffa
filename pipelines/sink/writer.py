"""The single committer of an index: buffers embedded documents, commits them in large batches.

Commit order per batch makes every crash recoverable: journal (doc ids) → delete previous
versions of changed documents → hand the chunks to BM25 (indexed in tantivy's threads, or the shard
writer processes, while the next steps run) → add chunks and sections (LanceDB) → append the newly
embedded texts' vectors to the embedding cache (``embed_cache``) → commit BM25 (every shard) →
upsert ``documents`` rows (a document row marks the document complete) → clear the journal.
:meth:`IndexSink.recover` undoes a torn batch by deleting the journaled documents everywhere.

The embedding cache is also committed between document commits, every ``cache_commit_s`` seconds,
with the vectors of every batch accepted so far: a vector is a pure function of (embedder, text),
so it may land before its document. A crash then loses at most that much embedding work, not a
whole commit's (4,096 chunks, minutes on CPUs): the resumed ingest finds the rest in the cache.

Two kinds of batches, one order (``ingest.writer``):

* ``driver``: embedded records (:func:`pipelines.records.embedded_schema`); the sink flattens
  them and writes every row itself (``table.add``);
* ``workers``: :data:`pipelines.records.WRITTEN_SCHEMA` rows from :mod:`pipelines.sink.fragments`,
  whose Lance fragments (``documents`` rows included) are already written; each LanceDB step is one
  ``Append`` commit per table and BM25 gets pre-rendered JSON documents. A worker batch (a *unit*)
  is committed whole.

BM25 indexes on several tantivy threads (:func:`cluster.store.bm25.writer_threads`); a sharded
index (``ingest.bm25_shards``) in one writer process per shard (:mod:`pipelines.sink.bm25_shards`).

>>> # sink = IndexSink(store, bm25, journal, known=store.known_documents(), batch_rows=4096)
>>> # for batch in ds.iter_batches(batch_format="pyarrow"): sink.accept(batch)
>>> # sink.close()
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from cluster.store.bm25 import Bm25Writer, shards_of
from cluster.store.embed_cache import EMBED_CACHE, EmbeddingCache
from cluster.store.journal import IngestJournal
from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, DOCUMENTS, KNOWN_COLUMNS, SECTIONS
from cluster.telemetry.tracing import span
from pipelines.records import STATUS_FAILED, STATUS_OK, STATUS_UNCHANGED
from pipelines.sink.flatten import bm25_documents, commit_slices, document_meta, documents_table, flatten_chunks, flatten_sections


CACHE_COMMIT_S = 10.0


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

    def __init__(self, store: LanceStore, bm25: Bm25Writer, journal: IngestJournal, *,
                 known: dict[str, tuple[int, int, str, str | None]], batch_rows: int,
                 cache: EmbeddingCache | None = None, fingerprint: str = "", bm25_threads: int = 0,
                 cache_commit_s: float = CACHE_COMMIT_S) -> None:
        """``bm25``: the index's BM25 writer (an index, or a shard writer pool); ``bm25_threads``: its
        tantivy indexing threads (0: this machine's cores, at most 8, shared out among the shards);
        ``cache_commit_s``: the most seconds embedded vectors wait for a cache commit (see above)."""
        self.store = store
        self.cache = cache
        self.fingerprint = fingerprint
        self.bm25 = bm25
        self.journal = journal
        self.known = known
        self.batch_rows = batch_rows
        self.counts = SinkCounts()
        self._buffer: list[pa.Table] = []  # driver: embedded records; workers: complete units' ok rows
        self._buffered_chunks = 0
        self._units: dict[str, list[pa.Table]] = {}  # workers: rows of units not complete yet
        self.cache_commit_s = cache_commit_s
        self._cache_rows: list[tuple[pa.ChunkedArray, pa.ChunkedArray]] = []  # driver: (keys, vectors) not committed
        self._cache_fragments: list[str] = []  # workers: cache fragments not committed
        self._cache_committed_at = time.monotonic()
        self.bm25.open_writer(threads=bm25_threads)

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
        """Take one embedded (or worker-written) batch; returns per-status document counts and
        chunk/token totals."""
        written = "fragments" in batch.schema.names
        status = batch.column("status")
        failed = batch.select(["doc_id", "path", "reason", "detail"]).filter(pc.equal(status, STATUS_FAILED))
        for row in failed.to_pylist():
            detail = row["detail"] or ""
            if row["doc_id"] in self.known:  # a document that turned bad: nothing is deleted, say so
                detail = f"{detail}; the index keeps its last good version" if detail else "the index keeps its last good version"
            self.counts.failed.append((row["path"], row["reason"] or "failed", detail))
        unchanged = pc.sum(pc.equal(status, STATUS_UNCHANGED)).as_py() or 0
        self.counts.unchanged += unchanged
        is_ok = pc.equal(status, STATUS_OK)
        ok = batch if pc.all(is_ok).as_py() else batch.filter(is_ok)  # no copy of a batch that is all ok
        n_chunks = ok.column("n_chunks") if written else pc.list_value_length(ok.column("chunks"))
        chunks = int(pc.sum(n_chunks).as_py() or 0) if ok.num_rows else 0
        tokens = int(pc.sum(ok.column("n_tokens")).as_py() or 0) if ok.num_rows else 0
        if ok.num_rows:
            self.counts.cache_hits += int(pc.sum(ok.column("cache_hits")).as_py() or 0)
            self.counts.cache_misses += int(pc.sum(ok.column("cache_misses")).as_py() or 0)
        if written:
            self._accept_written(batch)
        elif ok.num_rows:
            self._buffer.append(ok)
            self._buffered_chunks += chunks
            if self.cache is not None:
                self._cache_rows.append((pc.list_flatten(ok.column("new_cache_keys")),
                                         pc.list_flatten(ok.column("new_cache_vectors"))))
        if self._buffered_chunks >= self.batch_rows:
            self.flush()
        elif time.monotonic() - self._cache_committed_at >= self.cache_commit_s:
            started = time.perf_counter()
            self._commit_cache()
            self.counts.timed("cache", started)
        return {"ok": ok.num_rows, "unchanged": unchanged, "failed": batch.num_rows - ok.num_rows - unchanged,
                "chunks": chunks, "tokens": tokens}

    def _accept_written(self, batch: pa.Table) -> None:
        """Collect worker rows by unit; a complete unit's ok rows (fragments on its first) are buffered."""
        for unit, rows_of_unit in unit_rows(batch):
            parts = self._units.setdefault(unit, [])
            parts.append(rows_of_unit)
            rows = parts[0] if len(parts) == 1 else pa.concat_tables(parts)
            if rows.num_rows < rows.column("unit_rows")[0].as_py():
                continue
            del self._units[unit]
            fragments = pc.drop_null(rows.column("fragments"))
            is_ok = pc.equal(rows.column("status"), STATUS_OK)
            ok = rows if pc.all(is_ok).as_py() else rows.filter(is_ok)
            by_table = json.loads(fragments[0].as_py()) if len(fragments) else {}
            self._cache_fragments += by_table.pop(EMBED_CACHE, [])  # committed on their own (_commit_cache)
            if by_table and ok.num_rows:
                ok = ok.drop_columns(["fragments"]).append_column(  # the unit's fragments on its first ok row
                    "fragments", pa.array([json.dumps(by_table)] + [None] * (ok.num_rows - 1), pa.string()))
            if ok.num_rows:
                self._buffer.append(ok)
                self._buffered_chunks += int(pc.sum(ok.column("n_chunks")).as_py() or 0)

    def flush(self) -> None:
        """Commit everything buffered, in commits of about ``batch_rows`` chunks (no-op when empty)."""
        if not self._buffer:
            return
        written = "fragments" in self._buffer[0].schema.names
        commit = self._commit_written if written else self._commit_records
        if written:  # whole units: each buffered table is one
            group, rows = [], 0
            for unit in self._buffer:
                group.append(unit)
                rows += int(pc.sum(unit.column("n_chunks")).as_py() or 0)
                if rows >= self.batch_rows:
                    commit(pa.concat_tables(group))
                    group, rows = [], 0
            self._buffer, self._buffered_chunks = [], 0
            if group:
                commit(pa.concat_tables(group))
            return
        docs = pa.concat_tables(self._buffer)
        self._buffer, self._buffered_chunks = [], 0
        for offset, length in commit_slices(pc.list_value_length(docs.column("chunks")).to_pylist(), self.batch_rows):
            commit(docs.slice(offset, length))

    def _commit_records(self, docs: pa.Table) -> None:
        """Commit embedded records: flatten here and write every row (``ingest.writer = "driver"``)."""
        t = time.perf_counter()
        chunk_table = flatten_chunks(docs, self.store.dim)
        section_table = flatten_sections(docs, self.store.dim)
        meta = document_meta(docs)
        self.counts.timed("flatten", t)

        def lance() -> None:
            self.store.add(CHUNKS, chunk_table)
            self.store.add(SECTIONS, section_table)

        def bm25() -> tuple[list[str], pa.Array | None]:
            sharded = self.bm25.shards > 1
            return bm25_documents(chunk_table), shards_of(chunk_table.column("doc_id"), self.bm25.shards) if sharded else None

        def documents(changed: list[str]) -> None:
            rows = documents_table(meta)
            if changed:  # their rows were deleted first; an upsert all the same, in case one was not
                self.store.upsert_documents(rows)
            else:  # new documents have no rows (known holds every complete document): an append
                self.store.add(DOCUMENTS, rows)

        self._commit(meta, lance, bm25, documents)

    def _commit_written(self, rows: pa.Table) -> None:
        """Commit worker-written rows: one Lance ``Append`` per table (``ingest.writer = "workers"``)."""
        fragments: dict[str, list[str]] = {}
        for unit in pc.drop_null(rows.column("fragments")).to_pylist():
            for name, frags in json.loads(unit).items():
                fragments.setdefault(name, []).extend(frags)

        def lance() -> None:
            self.store.append_fragments(CHUNKS, fragments.get(CHUNKS, []))
            self.store.append_fragments(SECTIONS, fragments.get(SECTIONS, []))

        def bm25() -> tuple[pa.ChunkedArray, pa.Array | None]:  # routed by the workers (their bm25_shard column)
            docs = rows.column("bm25")  # (not combined: a copy of every rendered chunk)
            if self.bm25.shards <= 1:
                return pc.list_flatten(docs), None
            per_doc = pc.fill_null(pc.list_value_length(docs), 0).to_numpy()
            return pc.list_flatten(docs), pa.array(np.repeat(rows.column("bm25_shard").to_numpy(), per_doc))

        def documents(changed: list[str]) -> None:  # changed documents' old rows were deleted first
            self.store.append_fragments(DOCUMENTS, fragments.get(DOCUMENTS, []))

        self._commit(rows, lance, bm25, documents)

    def _commit_cache(self) -> None:
        """Append the vectors embedded since the last cache commit (with a document commit, or on
        their own every ``cache_commit_s``)."""
        self._cache_committed_at = time.monotonic()
        if self.cache is None:
            return
        if self._cache_rows:
            pending, self._cache_rows = self._cache_rows, []
            keys = pa.chunked_array([c for k, _ in pending for c in k.chunks], pa.string())
            vectors = pa.chunked_array([c for _, v in pending for c in v.chunks], pending[0][1].type)
            if len(keys):
                self.cache.add(self.fingerprint, keys, vectors)
        if self._cache_fragments:
            pending_fragments, self._cache_fragments = self._cache_fragments, []
            self.cache.append_fragments(pending_fragments)

    def _commit(self, meta: pa.Table, lance: Callable[[], None],
                bm25_docs: Callable[[], tuple[list[str] | pa.Array, pa.Array | None]],
                documents: Callable[[list[str]], None]) -> None:
        """One atomic-by-journal commit of whole documents (see module docstring for the order).
        ``meta``: their :func:`pipelines.sink.flatten.document_meta` columns; ``bm25_docs``: their chunks'
        BM25 documents and (for a sharded index, else None) each one's shard; ``documents``: writes
        their ``documents`` rows, given the ids of those that replace an earlier version."""
        from cluster.telemetry.metrics import ingest_metrics

        started = t = time.perf_counter()
        c = self.counts
        doc_ids = meta.column("doc_id").to_pylist()
        changed = sorted(self.known.keys() & set(doc_ids)) if self.known else []
        n_chunks = int(pc.sum(meta.column("n_chunks")).as_py() or 0)
        n_sections = int(pc.sum(meta.column("n_sections")).as_py() or 0)
        n_tokens = int(pc.sum(meta.column("n_tokens")).as_py() or 0)
        with span("ingest.write", documents=len(doc_ids), chunks=n_chunks):
            self.journal.begin(doc_ids)
            if changed:
                self.store.delete_documents(changed)
                self.bm25.delete_documents(changed)
            t = c.timed("delete", t)
            self.bm25.add_json(*bm25_docs())
            t = c.timed("bm25", t)
            lance()
            t = c.timed("lance", t)
            self._commit_cache()
            t = c.timed("cache", t)
            self.bm25.commit()
            t = c.timed("bm25", t)
            documents(changed)
            self.journal.commit()
            c.timed("documents", t)
        self.known.update(zip(doc_ids, zip(*(meta.column(name).to_pylist() for name in KNOWN_COLUMNS))))
        c.updated += len(changed)
        c.new += len(doc_ids) - len(changed)
        c.chunks += n_chunks
        c.sections += n_sections
        c.tokens += n_tokens
        c.commits += 1
        metrics = ingest_metrics()
        metrics.writer_batch_rows.observe(n_chunks)
        metrics.chunks.inc(n_chunks)
        metrics.sections.inc(n_sections)
        metrics.tokens.inc(n_tokens)
        metrics.stage_seconds.observe(time.perf_counter() - started, tags={"stage": "write"})

    def close(self) -> None:
        """Commit what is buffered and release the BM25 writer (its lock)."""
        self.flush()
        self._commit_cache()  # vectors of units with no document to commit (none is lost)
        self.bm25.close_writer()
        if self._units:
            raise RuntimeError(f"{len(self._units)} worker batches arrived incomplete; none of their rows is committed")


def unit_rows(batch: pa.Table) -> list[tuple[str, pa.Table]]:
    """``(unit, its rows)`` of each unit in a worker-written batch, in order: zero-copy slices, as a
    unit's rows arrive contiguous (a fragment task writes them so and Ray Data keeps row order);
    rows of a unit found apart are gathered with a filter.

    >>> t = pa.table({"unit": ["a", "a", "b"], "n": [1, 2, 3]})
    >>> [(u, rows.column("n").to_pylist()) for u, rows in unit_rows(t)]
    [('a', [1, 2]), ('b', [3])]
    """
    units = batch.column("unit")
    if not batch.num_rows:
        return []
    starts = [0]
    if batch.num_rows > 1:
        starts += (pc.indices_nonzero(pc.not_equal(units[1:], units[:-1])).to_numpy() + 1).tolist()
    names = [units[i].as_py() for i in starts]
    if len(set(names)) < len(names):  # a unit in two runs
        return [(unit, batch.filter(pc.equal(units, unit))) for unit in dict.fromkeys(names)]
    ends = starts[1:] + [batch.num_rows]
    return [(unit, batch.slice(start, end - start)) for unit, start, end in zip(names, starts, ends)]
