"""Embedded document records → the rows each store takes: ``chunks`` and ``sections`` tables, the
``documents`` rows, the BM25 documents (tantivy JSON). Shared by the driver's writer
(:mod:`pipelines.sink.writer`) and the fragment-writing workers (:mod:`pipelines.sink.fragments`).

>>> # chunks = flatten_chunks(docs, dim=384); meta = document_meta(docs); rows = documents_table(meta)
"""

from __future__ import annotations

from datetime import datetime, timezone

import pyarrow as pa
import pyarrow.compute as pc

from cluster.store.bm25 import BM25_COLUMNS, document_json
from cluster.store.schema import DOCUMENTS_SCHEMA, chunks_schema, sections_schema
from pipelines.chunk.rows import HEAD_LOOKBACK, head_above, starts_in_table

#: The ``documents`` columns a record carries (``ingested_at`` is stamped at commit).
DOCUMENT_META = pa.schema([f for f in DOCUMENTS_SCHEMA if f.name != "ingested_at"])


def commit_slices(n_chunks: list[int], batch_rows: int) -> list[tuple[int, int]]:
    """``(offset, length)`` runs of whole documents holding at least ``batch_rows`` chunks each (the
    last may hold fewer): how the writer cuts its commits and the workers their fragment units.

    >>> commit_slices([3, 3, 3, 1], 5)
    [(0, 2), (2, 2)]
    """
    out, start, rows = [], 0, 0
    for i, n in enumerate(n_chunks):
        rows += n
        if rows >= batch_rows:
            out.append((start, i + 1 - start))
            start, rows = i + 1, 0
    if start < len(n_chunks):
        out.append((start, len(n_chunks) - start))
    return out


def _repeat(docs: pa.Table, list_column: str, names: list[str]) -> dict[str, pa.Array]:
    parents = pc.list_parent_indices(docs.column(list_column))
    return {name: pc.take(docs.column(name), parents) for name in names}


def flatten_chunks(docs: pa.Table, dim: int) -> pa.Table:
    """The ``chunks`` table rows of embedded document records (:func:`pipelines.records.embedded_schema`)."""
    flat = pc.list_flatten(docs.column("chunks")).combine_chunks()
    cols = {name: flat.field(name) for name in
            ("chunk_id", "section_id", "section_path", "section_facet", "ordinal", "start", "end", "n_tokens",
             "content_hash", "text", "first_page", "last_page")}
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


def document_meta(docs: pa.Table) -> pa.Table:
    """Per record, the ``documents`` columns but ``ingested_at`` (:data:`DOCUMENT_META`)."""
    data = {name: docs.column(name) for name in DOCUMENT_META.names if name not in ("n_sections", "n_chunks")}
    data["n_sections"] = pc.list_value_length(docs.column("sections"))
    data["n_chunks"] = pc.list_value_length(docs.column("chunks"))
    return pa.table({f.name: data[f.name] for f in DOCUMENT_META}).cast(DOCUMENT_META)


def documents_table(meta: pa.Table) -> pa.Table:
    """The ``documents`` rows of :func:`document_meta` rows, stamped ``ingested_at`` = now."""
    now = datetime.now(timezone.utc)
    stamped = meta.select(DOCUMENT_META.names).cast(DOCUMENT_META).append_column(
        "ingested_at", pa.array([now] * meta.num_rows, pa.timestamp("us", tz="UTC")))
    return stamped.cast(DOCUMENTS_SCHEMA)


def bm25_documents(chunks: pa.Table) -> list[str]:
    """The tantivy JSON document of every ``chunks`` row (:func:`cluster.store.bm25.document_json`), in order; a
    chunk that starts inside a table is indexed with the table's head from the chunks above it (its rows of figures
    are found by the year and the statement the head names, as the passage that quotes it shows them).

    >>> import json
    >>> rows = [{"chunk_id": f"c{i}", "doc_id": "d", "title": "", "section_path": "", "section_facet": "/d/s",
    ...          "section_id": "s", "ordinal": i, "text": t} for i, t in enumerate(["Year | 2024\\nSales | 5", "Loss | (7)"])]
    >>> [json.loads(d)["text"] for d in bm25_documents(pa.Table.from_pylist(rows))]
    ['Year | 2024\\nSales | 5', 'Year | 2024\\nLoss | (7)']
    """
    rows = chunks.select([*BM25_COLUMNS, "section_id", "ordinal"]).to_pylist()
    out = []
    for i, row in enumerate(rows):
        head = ""
        if row["ordinal"] > 0 and starts_in_table(row["text"]):
            above = []  # the chunks above it in its section, nearest first (a record's chunks are in order)
            for prev in reversed(rows[max(0, i - HEAD_LOOKBACK):i]):
                if prev["doc_id"] != row["doc_id"] or prev["section_id"] != row["section_id"]:
                    break
                above.append(prev["text"])
            head = head_above(above)
        out.append(document_json(row, head))
    return out
