"""Workers write the Lance fragments; the driver commits them (``ingest.writer = "workers"``).

A Ray Data stage after embedding (:func:`write_fragments_batch`, tasks on the worker nodes) flattens
each embedded batch and writes its ``chunks``, ``sections``, new ``embed_cache`` and ``documents``
rows as *uncommitted* Lance fragments (``lance.fragment.write_fragments``) straight into the index's
datasets on shared storage. It sends the driver slim rows (:data:`pipelines.records.WRITTEN_SCHEMA`:
document metadata, the chunks' BM25 documents as tantivy JSON and the BM25 shard they go to,
the fragments' metadata; no vectors), and :class:`pipelines.sink.writer.IndexSink` commits them in its journaled order with one
Lance ``Append`` per table (``documents`` last: its rows mark the documents complete). A document
row's ``ingested_at`` is when its fragment was written. Fragments nobody commits (a crash) are invisible files that
:meth:`cluster.store.lance_store.LanceStore.maintain` removes (``delete_unverified``).

>>> # targets = fragment_targets(store, cache, fingerprint, storage_options={}, bm25_shards=1)
>>> # ds = ds.map_batches(write_fragments_batch, batch_format="pyarrow",
>>> #                     fn_kwargs={"targets_json": targets, "unit_chunks": 4096})
"""

from __future__ import annotations

import json
import uuid

import pyarrow as pa
import pyarrow.compute as pc

from cluster.store.bm25 import shards_of
from cluster.store.embed_cache import EMBED_CACHE, EmbeddingCache, cache_rows, cache_schema
from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, DOCUMENTS, DOCUMENTS_SCHEMA, SECTIONS, chunks_schema, sections_schema
from cluster.telemetry.tracing import span
from pipelines.records import STATUS_OK, WRITTEN_SCHEMA
from pipelines.sink.flatten import (bm25_documents, commit_slices, document_meta, documents_table, flatten_chunks,
                                    flatten_sections)


def fragment_targets(store: LanceStore, cache: EmbeddingCache | None, fingerprint: str, *,
                     storage_options: dict[str, str], bm25_shards: int) -> str:
    """The JSON :func:`write_fragments_batch` needs: each table's dataset URI (must be the same
    storage on every node), the storage options, the vector dimension, the embedder fingerprint and
    the BM25 index's shard count (workers route each document to its shard)."""
    uris = {name: store.dataset_uri(name) for name in (CHUNKS, SECTIONS, DOCUMENTS)}
    if cache is not None:
        uris[EMBED_CACHE] = cache.table.to_lance().uri
    return json.dumps({"uris": uris, "storage_options": storage_options, "dim": store.dim,
                       "fingerprint": fingerprint, "bm25_shards": bm25_shards})


def write_fragments_batch(batch: pa.Table, *, targets_json: str, unit_chunks: int) -> pa.Table:
    """Write one embedded batch's rows as uncommitted fragments; returns its ``WRITTEN_SCHEMA`` rows.
    The batch is cut into units of whole documents holding about ``unit_chunks`` chunks (the writer's
    commit size): each unit has its own fragments, and the driver commits a unit whole."""
    if not batch.num_rows:
        return WRITTEN_SCHEMA.empty_table()
    targets = json.loads(targets_json)
    n_chunks = pc.fill_null(pc.list_value_length(batch.column("chunks")), 0).to_pylist()
    # One contiguous array a column (a block is often many small batches concatenated): the
    # driver's work on these rows is then per column, not per piece.
    return pa.concat_tables([_write_unit(batch.slice(offset, length), targets)
                             for offset, length in commit_slices(n_chunks, unit_chunks)]).combine_chunks()


def _write_unit(batch: pa.Table, targets: dict) -> pa.Table:
    from lance.fragment import write_fragments

    dim, uris, options = targets["dim"], targets["uris"], targets["storage_options"] or None
    ok_mask = pc.equal(batch.column("status"), STATUS_OK)
    ok = batch.filter(ok_mask)
    fragments: dict[str, list[str]] = {}
    bm25 = pa.array([[] for _ in range(batch.num_rows)], pa.list_(pa.string()))
    if ok.num_rows:
        chunk_rows = flatten_chunks(ok, dim)
        tables = {CHUNKS: (chunk_rows, chunks_schema(dim)), SECTIONS: (flatten_sections(ok, dim), sections_schema(dim))}
        if EMBED_CACHE in uris:
            tables[EMBED_CACHE] = (cache_rows(targets["fingerprint"], pc.list_flatten(ok.column("new_cache_keys")),
                                              pc.list_flatten(ok.column("new_cache_vectors")), dim), cache_schema(dim))
        tables[DOCUMENTS] = (documents_table(document_meta(ok)), DOCUMENTS_SCHEMA)
        with span("ingest.write_fragments", documents=ok.num_rows, chunks=chunk_rows.num_rows):
            for name, (rows, schema) in tables.items():
                if rows.num_rows:
                    fragments[name] = [json.dumps(f.to_json()) for f in
                                       write_fragments(rows, uris[name], schema=schema, storage_options=options)]
        per_ok = iter(_split(bm25_documents(chunk_rows), pc.list_value_length(ok.column("chunks")).to_pylist()))
        bm25 = pa.array([next(per_ok) if is_ok else [] for is_ok in ok_mask.to_pylist()], pa.list_(pa.string()))
    meta = document_meta(batch)
    n = batch.num_rows
    data = {name: meta.column(name) for name in meta.column_names}
    data.update({name: batch.column(name) for name in ("status", "reason", "detail", "cache_hits", "cache_misses")})
    data["bm25"] = bm25
    data["bm25_shard"] = shards_of(batch.column("doc_id"), targets["bm25_shards"])
    data["unit"] = pa.array([uuid.uuid4().hex] * n, pa.string())
    data["unit_rows"] = pa.array([n] * n, pa.int32())
    data["fragments"] = pa.array([json.dumps(fragments)] + [None] * (n - 1), pa.string())
    return pa.table({f.name: data[f.name] for f in WRITTEN_SCHEMA}).cast(WRITTEN_SCHEMA)


def _split(items: list, lengths: list[int]) -> list[list]:
    out, start = [], 0
    for n in lengths:
        out.append(items[start:start + n])
        start += n
    return out
